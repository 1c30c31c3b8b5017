"""tf.sparse functions that choose, add or renumber entries: retain, fill_empty_rows, reset_shape, reshape, and
the sparse segment reductions (segment_sum / mean / sqrt_n: rows of a dense tensor picked by `indices` and
reduced by segment), as TF 2.21 defines them. Built from ordinary ops (and TF's SparseFillEmptyRows), so they
run in a tf.function and their gradients follow."""

from __future__ import annotations

import numpy as np

from tinytf.runtime import dtypes
from tinytf.runtime.dispatch import convert_to_tensor
from tinytf.runtime.errors import InvalidArgumentError
from tinytf.runtime.ops import array as _a
from tinytf.runtime.ops import indexing as _i
from tinytf.runtime.ops import math as _m
from tinytf.runtime.ops import reduce as _r
from tinytf.runtime.ops import segment as _seg
from tinytf.runtime.ops.sparse_fill import sparse_fill_empty_rows
from tinytf.runtime.ops.static_value import constant_value

from .ops import _require_sparse
from .sparse_tensor import SparseTensor


def retain(sp_input, to_retain) -> SparseTensor:
    """`tf.sparse.retain`: the entries where the 1-D bool `to_retain` is True; the dense shape is kept."""
    sp = _require_sparse(sp_input, "tf.sparse.retain")
    to_retain = convert_to_tensor(to_retain)
    if to_retain._shape is not None and len(to_retain._shape) != 1:
        raise ValueError(f"tf.sparse.retain: to_retain must be a vector, got shape {list(to_retain._shape)}")
    n = sp.values._shape[0] if sp.values._shape is not None else None
    if n is not None and to_retain._shape is not None and to_retain._shape[0] not in (None, n):
        raise ValueError(f"tf.sparse.retain: to_retain has {to_retain._shape[0]} elements, the SparseTensor {n} "
                         "values")
    where = _a.reshape(_i.where(to_retain), [-1])
    return SparseTensor._make(_i.gather(sp.indices, where), _i.gather(sp.values, where), sp.dense_shape, sp._shape)


def fill_empty_rows(sp_input, default_value, name=None):
    """`tf.sparse.fill_empty_rows`: (the SparseTensor with `default_value` at [row, 0, ...] of each row that had
    no entry, a bool vector of those rows)."""
    sp = _require_sparse(sp_input, "tf.sparse.fill_empty_rows")
    indices, values, empty, _ = sparse_fill_empty_rows(sp.indices, sp.values, sp.dense_shape, default_value)
    return SparseTensor._make(indices, values, sp.dense_shape, sp._shape), empty


def reset_shape(sp_input, new_shape=None) -> SparseTensor:
    """`tf.sparse.reset_shape`: the same entries with dense shape `new_shape` (each dimension at least the old
    one), or, without it, the tightest shape: one more than the largest index in each dimension."""
    sp = _require_sparse(sp_input, "tf.sparse.reset_shape")
    if new_shape is None:
        return SparseTensor(sp.indices, sp.values, _r.reduce_max(sp.indices, axis=0) + np.int64(1))
    new_shape = _m.cast(convert_to_tensor(new_shape), dtypes.int64)
    if new_shape._shape is not None and sp._shape is not None and new_shape._shape[0] not in (None, len(sp._shape)):
        raise ValueError(f"tf.sparse.reset_shape: new_shape has rank {new_shape._shape[0]}, the SparseTensor "
                         f"{len(sp._shape)}")
    old, new = constant_value(sp.dense_shape), constant_value(new_shape)
    if old is not None and new is not None and (np.asarray(new) < np.asarray(old)).any():
        raise ValueError(f"tf.sparse.reset_shape requires new_shape >= the old shape, got {list(new)} for "
                         f"{list(old)}")
    return SparseTensor(sp.indices, sp.values, new_shape)


def reshape(sp_input, shape, name=None) -> SparseTensor:
    """`tf.sparse.reshape`: the entries renumbered for a dense shape of the same size (one dimension may be -1),
    their row-major order kept."""
    sp = _require_sparse(sp_input, "tf.sparse.reshape")
    shape = _m.cast(convert_to_tensor(shape), dtypes.int64)
    total = _r.reduce_prod(sp.dense_shape)
    unknown = _m.less(shape, np.int64(0))
    known_product = _r.reduce_prod(_i.where(unknown, _a.ones_like(shape), shape))
    new_shape = _i.where(unknown, _a.fill(_a.shape(shape), _m.floordiv(total, known_product)), shape)
    old, target = constant_value(sp.dense_shape), constant_value(shape)
    if old is not None and target is not None:
        target = np.asarray(target)
        if (target < 0).sum() > 1:
            raise ValueError(f"tf.sparse.reshape: at most one dimension may be -1, got {target.tolist()}")
        size, part = int(np.prod(old)), int(np.prod(target[target >= 0]))
        if ((target < 0).any() and (part == 0 or size % part)) or (not (target < 0).any() and part != size):
            # TF's SparseReshape kernel's error (an InvalidArgumentError is also a ValueError, TF's graph-time class)
            raise InvalidArgumentError(f"tf.sparse.reshape: Input to reshape is a tensor with {size} dense values, "
                                       f"but the requested shape has {part}. input_shape={np.asarray(old).tolist()} "
                                       f"output_shape={target.tolist()}")
    linear = _r.reduce_sum(sp.indices * _strides(sp.dense_shape), axis=1)
    indices = _m.floormod(_m.floordiv(_a.expand_dims(linear, 1), _strides(new_shape)), new_shape)
    static = None
    known = constant_value(new_shape)
    if known is not None:
        static = tuple(int(d) for d in np.asarray(known))
    elif shape._shape is not None and shape._shape[0] is not None:
        static = (None,) * shape._shape[0]
    return SparseTensor._make(indices, sp.values, new_shape, static)


def _strides(shape):
    """Row-major strides of a shape vector: the product of the dimensions after each."""
    return _r.cumprod(shape, exclusive=True, reverse=True)


# --- sparse segment reductions -------------------------------------------------------------------------------
def _picked_segments(data, indices, segment_ids, num_segments, what):
    data = convert_to_tensor(data)
    rows = _i.gather(data, convert_to_tensor(indices))
    segment_ids = convert_to_tensor(segment_ids)
    if segment_ids.dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"{what}: segment_ids must be int32 or int64, got {segment_ids.dtype.name}")
    if num_segments is None:
        return rows, segment_ids, lambda x: _seg.segment_sum(x, segment_ids)
    return rows, segment_ids, lambda x: _seg.unsorted_segment_sum(x, segment_ids, num_segments)


def _counts(rows, segment_ids, reduce):
    ones = _a.ones(_a.shape(segment_ids)[:1], rows.dtype)
    return _broadcast_rows(reduce(ones), rows)


def _broadcast_rows(per_segment, rows):
    """[segments] -> [segments, 1, ...] to divide [segments, ...] rows."""
    extra = _a.ones(_a.expand_dims(_a.rank(rows) - 1, 0), dtypes.int32)
    return _a.reshape(per_segment, _a.concat([_a.shape(per_segment), extra], 0))


def _require_float(rows, what):
    if not rows.dtype.is_floating:
        raise TypeError(f"{what}: data must be floating point, got {rows.dtype.name}")


def segment_sum(data, indices, segment_ids, num_segments=None, name=None, sparse_gradient=False):
    """`tf.sparse.segment_sum`: output[s] = sum of data[indices[k]] over the k with segment_ids[k] == s."""
    rows, _, reduce = _picked_segments(data, indices, segment_ids, num_segments, "tf.sparse.segment_sum")
    return reduce(rows)


def segment_mean(data, indices, segment_ids, num_segments=None, name=None, sparse_gradient=False):
    """`tf.sparse.segment_mean`: the mean of each segment's picked rows (0 for an empty segment)."""
    rows, ids, reduce = _picked_segments(data, indices, segment_ids, num_segments, "tf.sparse.segment_mean")
    _require_float(rows, "tf.sparse.segment_mean")
    return _m.divide_no_nan(reduce(rows), _counts(rows, ids, reduce))


def segment_sqrt_n(data, indices, segment_ids, num_segments=None, name=None, sparse_gradient=False):
    """`tf.sparse.segment_sqrt_n`: each segment's sum of picked rows over the square root of its row count."""
    rows, ids, reduce = _picked_segments(data, indices, segment_ids, num_segments, "tf.sparse.segment_sqrt_n")
    _require_float(rows, "tf.sparse.segment_sqrt_n")
    return _m.divide_no_nan(reduce(rows), _m.sqrt(_counts(rows, ids, reduce)))

