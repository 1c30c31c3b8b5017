"""`tf.ragged.range`: row i is tf.range(starts[i], limits[i], deltas[i]), the three broadcast against each other.
Built from tensor ops (row lengths from the bounds, values from each value's row and position), so it runs
inside a tf.function (tf.data's map traces it) as well as eagerly."""

from __future__ import annotations

import numpy as np

from tinytf.runtime import dtypes
from tinytf.runtime.dispatch import convert_to_tensor
from tinytf.runtime.errors import InvalidArgumentError
from tinytf.runtime.ops import array as _a
from tinytf.runtime.ops import indexing as _i
from tinytf.runtime.ops import math as _m
from tinytf.runtime.ops import reduce as _r
from tinytf.runtime.tensor import EagerTensor

from .more import row_splits_to_segment_ids
from .ragged_tensor import RaggedTensor

_ORDER = [dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64]  # TF's ragged_range dtypes, widest last


def _common_dtype(tensors, dtype):
    if dtype is not None:
        return dtypes.as_dtype(dtype)
    for t in tensors:
        if t.dtype not in _ORDER:
            raise TypeError(f"tf.ragged.range: unsupported dtype {t.dtype.name}; expected one of "
                            f"{[d.name for d in _ORDER]}")
    return max((t.dtype for t in tensors), key=_ORDER.index)


def range(starts, limits=None, deltas=1, dtype=None, name=None, row_splits_dtype=dtypes.int64):  # noqa: A001
    if limits is None:
        starts, limits = 0, starts
    named = {"starts": convert_to_tensor(starts), "limits": convert_to_tensor(limits),
             "deltas": convert_to_tensor(deltas)}
    for what, t in named.items():
        if t._shape is not None and len(t._shape) > 1:
            raise InvalidArgumentError(f"{what} must be a scalar or vector")
    dtype = _common_dtype(list(named.values()), dtype)
    s, lim, d = (_m.cast(t, dtype) if t.dtype is not dtype else t for t in named.values())
    if isinstance(d, EagerTensor) and (np.asarray(d.numpy()) == 0).any():
        raise InvalidArgumentError("Requires delta != 0")
    zero = (s - s) + (lim - lim) + (d - d)  # the broadcast shape of the three; a single row when all are scalars
    s, lim, d = (_a.reshape(zero + t, [-1]) for t in (s, lim, d))
    if dtype.is_integer:
        # ceil((limit - start) / delta) in integers: shift by delta minus its sign before the floor division
        count = _m.floordiv(lim - s + d - _m.sign(d), d)
    else:
        count = _m.ceil((lim - s) / d)
    lengths = _m.maximum(_m.cast(count, dtypes.int64), np.int64(0))
    splits = _a.concat([convert_to_tensor(np.zeros([1], np.int64)), _r.cumsum(lengths)], 0)
    row = row_splits_to_segment_ids(splits)
    k = _a.range(np.int64(0), splits[-1], dtype=dtypes.int64) - _i.gather(splits, row)
    values = _i.gather(s, row) + _m.cast(k, dtype) * _i.gather(d, row)
    splits_dtype = dtypes.as_dtype(row_splits_dtype)
    return RaggedTensor.from_row_splits(values, _m.cast(splits, splits_dtype), validate=False)
