"""tf.ragged leftovers: row_splits_to_segment_ids / segment_ids_to_row_splits, boolean_mask, stack (axis 0 and
1), stack_dynamic_partitions, cross and cross_hashed, as TF 2.21 defines them. Built from dense ops (and the
sparse cross kernel), so they run in a tf.function and values keep their gradients."""

from __future__ import annotations

import numpy as np

from tinytf.runtime import dtypes
from tinytf.runtime.dispatch import convert_to_tensor
from tinytf.runtime.ops import array as _a
from tinytf.runtime.ops import indexing as _i
from tinytf.runtime.ops import math as _m
from tinytf.runtime.ops import reduce as _r
from tinytf.runtime.ops import segment as _seg
from tinytf.runtime.ops import sparse_more as _k
from tinytf.runtime.ops.search import searchsorted
from tinytf.runtime.ops.sorting import argsort
from tinytf.sparse.sparse_tensor import SparseTensor

from .concat import concat_rows
from .concat import stack as _stack_rows
from .ragged_tensor import RaggedTensor


def row_splits_to_segment_ids(splits, name=None, out_type=None):
    """`tf.ragged.row_splits_to_segment_ids`: the row of each value, from row splits ([0, 2, 2, 5] -> [0, 0, 2,
    2, 2])."""
    splits = convert_to_tensor(splits, dtype_hint=dtypes.int64)
    if splits.dtype not in (dtypes.int32, dtypes.int64):
        raise ValueError(f"splits must have dtype int32 or int64, got {splits.dtype.name}")
    if splits._shape is not None and len(splits._shape) != 1:
        raise ValueError(f"splits must be a vector, got shape {list(splits._shape)}")
    out_type = splits.dtype if out_type is None else dtypes.as_dtype(out_type)
    positions = _a.range(_m.cast(convert_to_tensor(0), splits.dtype), splits[-1], dtype=splits.dtype)
    return searchsorted(splits[1:], positions, side="right", out_type=out_type)


def segment_ids_to_row_splits(segment_ids, num_segments=None, out_type=None, name=None):
    """`tf.ragged.segment_ids_to_row_splits`: row splits from sorted segment ids ([0, 0, 2, 2, 2] -> [0, 2, 2,
    5]); num_segments adds empty rows at the end."""
    segment_ids = convert_to_tensor(segment_ids)
    if segment_ids._shape is not None and len(segment_ids._shape) != 1:
        raise ValueError(f"segment_ids must be a vector, got shape {list(segment_ids._shape)}")
    out_type = dtypes.int64 if out_type is None else dtypes.as_dtype(out_type)
    ids = _m.cast(segment_ids, dtypes.int64)
    if num_segments is None:
        count = _r.reduce_max(_a.concat([ids + np.int64(1), convert_to_tensor(np.zeros([1], np.int64))], 0))
    else:
        count = _m.cast(convert_to_tensor(num_segments), dtypes.int64)
    lengths = _seg.unsorted_segment_sum(_a.ones_like(ids), ids, count)
    splits = _a.concat([convert_to_tensor(np.zeros([1], np.int64)), _r.cumsum(lengths)], 0)
    return _m.cast(splits, out_type)


def gather_rows(rt, rows):
    """rt[rows] for a vector of row numbers: the picked rows, in order (nested ragged values are gathered too)."""
    if not isinstance(rt, RaggedTensor):
        return _i.gather(rt, rows)
    splits = _m.cast(rt.row_splits, dtypes.int64)
    rows = _m.cast(convert_to_tensor(rows), dtypes.int64)
    lengths = _i.gather(splits[1:] - splits[:-1], rows)
    new_splits = _a.concat([convert_to_tensor(np.zeros([1], np.int64)), _r.cumsum(lengths)], 0)
    owner = row_splits_to_segment_ids(new_splits)
    positions = (_i.gather(_i.gather(splits[:-1], rows), owner)
                 + _a.range(np.int64(0), new_splits[-1], dtype=dtypes.int64) - _i.gather(new_splits, owner))
    splits_out = _m.cast(new_splits, rt.row_splits.dtype)
    return RaggedTensor.from_row_splits(gather_rows(rt.values, positions), splits_out, validate=False)


def boolean_mask(data, mask, name=None):
    """`tf.ragged.boolean_mask`: the elements of `data` where `mask` (a prefix of data's shape, dense or ragged)
    is True; a rank-1 mask keeps rows, a rank-2 mask keeps elements of each row (the result is ragged)."""
    data = data if isinstance(data, RaggedTensor) else convert_to_tensor(data)
    mask = mask if isinstance(mask, RaggedTensor) else convert_to_tensor(mask)
    if mask.dtype is not dtypes.bool_:
        raise TypeError(f"mask must be a bool tensor, got {mask.dtype.name}")
    mask_rank = len(mask.shape)
    if mask_rank == 1:
        keep = _a.reshape(_i.where(mask), [-1])
        return gather_rows(data, keep) if isinstance(data, RaggedTensor) else _i.gather(data, keep)
    if mask_rank != 2:
        raise NotImplementedError("tf.ragged.boolean_mask supports masks of rank 1 and 2")
    if isinstance(data, RaggedTensor):
        if data.ragged_rank != 1:
            raise NotImplementedError("tf.ragged.boolean_mask with a rank-2 mask needs data of ragged_rank 1")
        flat_mask = mask.values if isinstance(mask, RaggedTensor) else _a.reshape(mask, [-1])
        rows, nrows, values = data.value_rowids(), data.nrows(), data.values
    else:
        width = _a.shape(data)[1]
        flat_mask = mask.values if isinstance(mask, RaggedTensor) else _a.reshape(mask, [-1])
        values = _a.reshape(data, _a.concat([[-1], _a.shape(data)[2:]], 0))
        nrows = _a.shape(data)[0]
        rows = _m.floordiv(_a.range(0, _a.size(flat_mask)), width)
    kept = _seg.unsorted_segment_sum(_m.cast(flat_mask, dtypes.int64), rows, nrows)
    return RaggedTensor.from_row_lengths(_i.boolean_mask(values, flat_mask), kept, validate=False)


def stack(values, axis=0, name=None):
    """`tf.ragged.stack`: the tensors (ragged or dense) stacked into a RaggedTensor, along axis 0 (each operand a
    row) or axis 1 (row i of the result holds row i of each operand)."""
    values = list(values)
    if not values:
        raise ValueError("tf.ragged.stack needs at least one value")
    if not any(isinstance(v, RaggedTensor) for v in values):  # all dense: each one a RaggedTensor of its rows
        dense = [convert_to_tensor(v) for v in values]
        if all(d._shape is not None and len(d._shape) == 1 for d in dense):
            return RaggedTensor.from_tensor(_a.stack(dense, axis))
        values = [RaggedTensor.from_tensor(d) for d in dense]
    if axis == 0:
        return _stack_rows(values, 0)
    if axis != 1:
        raise NotImplementedError("tf.ragged.stack supports axis 0 and 1")
    like = next(v for v in values if isinstance(v, RaggedTensor))
    parts = [v if isinstance(v, RaggedTensor) else RaggedTensor.from_tensor(convert_to_tensor(v, like.dtype))
             for v in values]
    k, n = len(parts), parts[0].nrows(out_type=dtypes.int64)
    joined = concat_rows(parts)  # rows of operand j at j * n + i
    i = _a.range(np.int64(0), n, dtype=dtypes.int64)
    order = _a.reshape(_a.expand_dims(i, 1) + _a.expand_dims(np.arange(k, dtype=np.int64), 0) * n, [-1])
    inner = gather_rows(joined, order)
    return RaggedTensor.from_row_lengths(inner, _a.fill(_a.reshape(n, [1]), np.int64(k)), validate=False)


def stack_dynamic_partitions(data, partitions, num_partitions, name=None):
    """`tf.ragged.stack_dynamic_partitions`: row p of the result holds the elements of `data` whose partition is
    p, in order (tf.ragged.stack of tf.dynamic_partition)."""
    data = data if isinstance(data, RaggedTensor) else convert_to_tensor(data)
    partitions = convert_to_tensor(partitions)
    if partitions.dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"partitions must be int32 or int64, got {partitions.dtype.name}")
    order = argsort(partitions, stable=True)
    ids = _m.cast(partitions, dtypes.int64)
    lengths = _seg.unsorted_segment_sum(_a.ones_like(ids), ids, np.int64(num_partitions))
    return RaggedTensor.from_row_lengths(gather_rows(data, order), lengths)


def _ragged_feature(value):
    """(indices, values, dense_shape) of a cross input in its original position (TF's RaggedCross keeps it)."""
    if isinstance(value, RaggedTensor):
        if value.ragged_rank != 1:
            raise ValueError("tf.ragged.cross: RaggedTensor inputs must have ragged_rank 1")
        rows = _m.cast(value.value_rowids(), dtypes.int64)
        nrows = _m.cast(value.nrows(), dtypes.int64)
        return _a.stack([rows, rows], 1), value.values, _a.stack([nrows, np.int64(0)])
    if isinstance(value, SparseTensor):
        return value.indices, value.values, value.dense_shape
    dense = convert_to_tensor(value)
    if dense._shape is not None and len(dense._shape) != 2:
        raise ValueError(f"tf.ragged.cross: dense inputs must be matrices, got shape {list(dense._shape)}")
    every = _i.where(_a.ones_like(dense, dtype=dtypes.bool_))
    return every, _a.reshape(dense, [-1]), _m.cast(_a.shape(dense), dtypes.int64)


def _as_ragged(indices, values, dense_shape):
    return RaggedTensor.from_value_rowids(values, indices[:, 0], nrows=dense_shape[0], validate=False)


def cross(inputs, name=None):
    """`tf.ragged.cross`: for each row, every combination of one value per input (in the inputs' order, the last
    varying fastest), joined by "_X_", as a RaggedTensor."""
    return _as_ragged(*_k.sparse_cross([_ragged_feature(v) for v in inputs]))


def cross_hashed(inputs, num_buckets=0, hash_key=None, name=None):
    """`tf.ragged.cross_hashed`: tf.ragged.cross with each combination's FingerprintCat64 hash modulo
    num_buckets."""
    return _as_ragged(*_k.sparse_cross([_ragged_feature(v) for v in inputs], hashed=True, num_buckets=num_buckets,
                                       hash_key=hash_key))
