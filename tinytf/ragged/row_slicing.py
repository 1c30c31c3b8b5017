"""`rt[:, a:b:c]` on a ragged dimension: the same Python slice taken inside every row, vectorized over the rows
(a per-row start, count and stride computed with tensor ops), so it also runs inside a tf.function and the
values keep their gradients (they are gathered)."""

from __future__ import annotations

import numpy as np

from tinytf.runtime import dtypes
from tinytf.runtime.dispatch import convert_to_tensor
from tinytf.runtime.ops import array as _a
from tinytf.runtime.ops import indexing as _i
from tinytf.runtime.ops import math as _m
from tinytf.runtime.ops import reduce as _r

from .more import gather_rows, row_splits_to_segment_ids
from .ragged_tensor import RaggedTensor


def _i64(v) -> object:
    return convert_to_tensor(np.int64(v))


def _bound(index, lengths, lower, upper, default):
    """Python's slice.indices for one bound, per row: negative counts from the row's end, then clipped."""
    if index is None:
        return default
    index = int(index)
    if index < 0:
        return _m.maximum(lengths + _i64(index), lower)
    return _m.minimum(_i64(index) + lengths * 0, upper)


def slice_each_row(rt: RaggedTensor, key: slice) -> RaggedTensor:
    """The rows of `rt`, each cut to row[key.start:key.stop:key.step]."""
    step = 1 if key.step is None else int(key.step)
    if step == 0:
        raise ValueError("slice step cannot be zero")
    splits = _m.cast(rt.row_splits, dtypes.int64)
    lengths = splits[1:] - splits[:-1]
    if step > 0:
        lower, upper = lengths * 0, lengths
        start = _bound(key.start, lengths, lower, upper, lower)
        stop = _bound(key.stop, lengths, lower, upper, upper)
        count = _m.floordiv(stop - start + _i64(step - 1), _i64(step))
    else:
        lower, upper = lengths * 0 - _i64(1), lengths - _i64(1)
        start = _bound(key.start, lengths, lower, upper, upper)
        stop = _bound(key.stop, lengths, lower, upper, lower)
        count = _m.floordiv(start - stop + _i64(-step - 1), _i64(-step))
    count = _m.maximum(count, lengths * 0)
    new_splits = _a.concat([convert_to_tensor(np.zeros([1], np.int64)), _r.cumsum(count)], 0)
    owner = row_splits_to_segment_ids(new_splits)
    k = _a.range(np.int64(0), new_splits[-1], dtype=dtypes.int64) - _i.gather(new_splits, owner)
    positions = _i.gather(splits[:-1] + start, owner) + k * _i64(step)
    return RaggedTensor.from_row_splits(gather_rows(rt.values, positions), _m.cast(new_splits, rt.row_splits.dtype),
                                        validate=False)
