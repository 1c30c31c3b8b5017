"""TF's ragged versions of tf.tile, tf.reverse, tf.concat/tf.stack along an inner axis, tf.gather and
tf.nn.embedding_lookup with ragged ids, and tf.strings.join of ragged inputs. Each is built from dense ops on the
row splits and a gather of the values, so it runs eagerly and inside a tf.function, and the values keep their
gradients."""

from __future__ import annotations

import numpy as np

from tinytf.runtime import dtypes
from tinytf.runtime.dispatch import convert_to_tensor
from tinytf.runtime.ops import array as _a
from tinytf.runtime.ops import indexing as _i
from tinytf.runtime.ops import math as _m
from tinytf.runtime.ops import reduce as _r
from tinytf.runtime.tensor import EagerTensor

from .broadcast import check_same_partition
from .concat import concat_rows
from .more import gather_rows, row_splits_to_segment_ids
from .ragged_tensor import RaggedTensor
from .row_slicing import slice_each_row


def _zero_first(lengths):
    return _a.concat([convert_to_tensor(np.zeros([1], np.int64)), _r.cumsum(lengths)], 0)


def _static_ints(value, what: str) -> list:
    if isinstance(value, EagerTensor):
        return [int(v) for v in np.reshape(value.numpy(), -1)]
    if isinstance(value, (list, tuple, np.ndarray)) and all(isinstance(v, (int, np.integer)) for v in value):
        return [int(v) for v in value]
    raise ValueError(f"{what}: tinytf needs the multiples of a RaggedTensor as Python ints or an eager tensor, "
                     f"got {value!r}")


def _repeat_each_row(rt: RaggedTensor, times: int) -> RaggedTensor:
    """Every row's contents written `times` times over (tile along the first ragged dimension)."""
    if times == 1:
        return rt
    splits = _m.cast(rt.row_splits, dtypes.int64)
    lengths = splits[1:] - splits[:-1]
    new_splits = _zero_first(lengths * np.int64(times))
    owner = row_splits_to_segment_ids(new_splits)
    k = _a.range(np.int64(0), new_splits[-1], dtype=dtypes.int64) - _i.gather(new_splits, owner)
    source = _i.gather(splits[:-1], owner) + _m.floormod(k, _m.maximum(_i.gather(lengths, owner), np.int64(1)))
    return RaggedTensor.from_row_splits(gather_rows(rt.values, source), _m.cast(new_splits, rt.row_splits.dtype),
                                        validate=False)


def _tile_inside(rt: RaggedTensor, multiples: list) -> RaggedTensor:
    """`rt` tiled along its dimensions 1.. by `multiples` (its row count unchanged)."""
    values = rt.values
    if isinstance(values, RaggedTensor):
        values = _tile_inside(values, multiples[1:])
    elif any(m != 1 for m in multiples[1:]):
        values = _a.tile(values, [1] + multiples[1:])
    return _repeat_each_row(rt.with_values(values), multiples[0])


def tile(input, multiples, name=None):
    """tf.tile of a RaggedTensor: every dimension repeated, a ragged one row by row."""
    multiples = _static_ints(multiples, "tf.tile")
    if input.ndim is not None and len(multiples) != input.ndim:
        raise ValueError(f"tf.tile: multiples has {len(multiples)} entries, the RaggedTensor has rank {input.ndim}")
    inner = _tile_inside(input, multiples[1:])
    return inner if multiples[0] == 1 else concat_rows([inner] * multiples[0])


def _normalize_axis(axis, rank, what):
    axis = int(axis.numpy()) if isinstance(axis, EagerTensor) else int(axis)
    if rank is not None:
        if not -rank <= axis < rank:
            raise ValueError(f"{what}: axis={axis} out of bounds for rank {rank}")
        axis %= rank
    return axis


def _reverse_one(x, axis: int):
    if not isinstance(x, RaggedTensor):
        return _a.reverse(x, [axis])
    if axis == 0:
        n = _m.cast(x.nrows(), dtypes.int64)
        return gather_rows(x, n - np.int64(1) - _a.range(np.int64(0), n, dtype=dtypes.int64))
    if axis == 1:
        return slice_each_row(x, slice(None, None, -1))
    return x.with_values(_reverse_one(x.values, axis - 1))


def reverse(tensor, axis, name=None):
    """tf.reverse of a RaggedTensor: the rows in reverse order (axis 0), each row reversed (a ragged axis), or
    the values reversed along a uniform inner axis."""
    axes = [axis] if isinstance(axis, (int, np.integer)) else _static_ints(axis, "tf.reverse")
    for a in axes:
        tensor = _reverse_one(tensor, _normalize_axis(a, tensor.ndim, "tf.reverse"))
    return tensor


def _as_ragged_like(value, like: RaggedTensor) -> RaggedTensor:
    from .concat import _as_ragged

    return _as_ragged(value, like)


def _interleave_rows(parts: list) -> RaggedTensor:
    """Row i of the result joins row i of every part (tf.concat along axis 1)."""
    n = _m.cast(parts[0].nrows(), dtypes.int64)
    for p in parts[1:]:
        other = _m.cast(p.nrows(), dtypes.int64)
        if isinstance(n, EagerTensor) and isinstance(other, EagerTensor) and int(n.numpy()) != int(other.numpy()):
            from tinytf.runtime.errors import InvalidArgumentError

            raise InvalidArgumentError(f"tf.concat: RaggedTensors along axis 1 must have the same number of rows, "
                                       f"got {int(n.numpy())} and {int(other.numpy())}")
    stacked = concat_rows(parts)
    count = len(parts)
    order = _a.reshape(_a.transpose(_a.reshape(_a.range(np.int64(0), n * np.int64(count), dtype=dtypes.int64),
                                               [count, -1])), [-1])
    rows = gather_rows(stacked, order)
    return RaggedTensor.from_row_splits(rows.values, rows.row_splits[::count], validate=False)


def concat_inner(values: list, axis: int) -> RaggedTensor:
    """tf.concat of RaggedTensors (and dense operands) along axis >= 1."""
    like = next(v for v in values if isinstance(v, RaggedTensor))
    parts = [_as_ragged_like(v, like) for v in values]
    rank = like.ndim
    axis = _normalize_axis(axis, rank, "tf.concat")
    if axis == 0:
        return concat_rows(parts)
    if axis == 1:
        return _interleave_rows(parts)
    for p in parts[1:]:
        _same_rows(parts[0], p)
    inner = [p.values for p in parts]
    if any(isinstance(v, RaggedTensor) for v in inner):
        joined = concat_inner(inner, axis - 1)
    else:
        joined = _a.concat(inner, axis - 1)
    return parts[0].with_values(joined)


def _same_rows(a: RaggedTensor, b: RaggedTensor) -> None:
    """The outer row partition of a and b must be the same (concat along a deeper axis joins row by row)."""
    from .broadcast import _mismatch

    if a.row_splits is not b.row_splits:
        _mismatch(a.row_splits, b.row_splits)


def gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None, dense_gather=None):
    """tf.gather with ragged params (rows picked along axis 0) and/or ragged indices (the result takes the
    indices' row partition)."""
    if isinstance(indices, RaggedTensor):
        return indices.with_flat_values(gather(params, indices.flat_values, axis=axis, batch_dims=batch_dims,
                                               dense_gather=dense_gather))
    if isinstance(params, RaggedTensor):
        if axis not in (None, 0) or batch_dims != 0:
            raise ValueError("tf.gather of a RaggedTensor: tinytf supports axis=0 and batch_dims=0")
        indices = convert_to_tensor(indices)
        flat = _a.reshape(indices, [-1])
        picked = gather_rows(params, flat)
        if indices._shape is not None and len(indices._shape) == 1:
            return picked
        if indices._shape is not None and len(indices._shape) == 0:
            return gather_rows(params, _a.reshape(indices, [1]))[0]
        raise ValueError("tf.gather of a RaggedTensor: tinytf supports scalar or vector indices")
    return dense_gather(params, indices, validate_indices, axis, batch_dims, name)


def string_join(inputs, separator="", name=None, dense_join=None):
    """tf.strings.join with RaggedTensor inputs (which share one row partition)."""
    inputs = list(inputs)
    like = next(v for v in inputs if isinstance(v, RaggedTensor))
    for other in inputs:
        if isinstance(other, RaggedTensor):
            check_same_partition(like, other)
    flat = [v.flat_values if isinstance(v, RaggedTensor) else v for v in inputs]
    return like.with_flat_values(dense_join(flat, separator=separator))
