"""Ragged components of dataset elements (RaggedTensorSpec in element_spec), as TF has them. Inside a pipeline a
ragged component is a RaggedValue: the tuple (flat_values, outer row_splits, ..., inner row_splits) of numpy
arrays; it becomes a tf.RaggedTensor when it leaves the pipeline and its components' tensors in a graph's
iterator op. A spec of ragged_rank 0 (the rows of a ragged tensor of ragged_rank 1, what from_tensor_slices and
unbatch give) holds plain dense values: its elements are tf.Tensors, as in TF, and batching them makes a
RaggedTensor again (`batch` stacks a ragged column into one more ragged dimension, never pads)."""

from __future__ import annotations

import numpy as np

from tinytf.runtime import dtypes
from tinytf.runtime.errors import InvalidArgumentError
from tinytf.runtime.tensor import EagerTensor

from ..ragged.ragged_tensor import RaggedTensorSpec
from ..tensor_spec import TensorSpec


class RaggedValue(tuple):
    """(flat_values, *nested_row_splits) of one ragged component. A tuple, so runtime's iterator ops spread it
    into one op output per component; its own type, so it is not taken for a sparse component (a plain tuple)."""

    __slots__ = ()


def is_ragged_spec(spec) -> bool:
    return isinstance(spec, RaggedTensorSpec)


def is_ragged_component(spec) -> bool:
    """A spec whose values are RaggedValues (ragged_rank 0 specs hold dense arrays)."""
    return isinstance(spec, RaggedTensorSpec) and spec._ragged_rank > 0


def dense_spec(spec) -> TensorSpec:
    """The TensorSpec of a ragged_rank 0 spec's values (tf.Tensors: what functions and graph loops receive)."""
    return TensorSpec(spec._shape, spec.dtype)


def to_ragged_tensor(spec, value):
    if type(value) is not RaggedValue:
        return EagerTensor(value, spec.dtype)
    flat, *splits = value
    return spec._from_components([EagerTensor(flat, spec.dtype)]
                                 + [EagerTensor(s, spec._row_splits_dtype) for s in splits])


def from_ragged_tensor(rt) -> RaggedValue:
    return RaggedValue((rt.flat_values._value, *[s._value for s in rt.nested_row_splits]))


def ragged_rows(value) -> list:
    """The rows of a ragged value along its first dimension (from_tensor_slices, unbatch): RaggedValues of one
    ragged dimension less, or dense arrays for a ragged value of ragged_rank 1."""
    flat, first, *rest = value
    rows = []
    for i in range(len(first) - 1):
        lo, hi = int(first[i]), int(first[i + 1])
        inner = []
        for splits in rest:  # the row's range of each inner level, its splits starting at 0
            piece = splits[lo:hi + 1]
            inner.append(piece - piece[0])
            lo, hi = int(piece[0]), int(piece[-1])
        rows.append(RaggedValue((flat[lo:hi], *inner)) if inner else flat[lo:hi])
    return rows


def stack_ragged(column, spec, context) -> RaggedValue:
    """A batch of values of `spec`: one more ragged dimension in front (dense rows of ragged_rank 0 specs
    become the rows of the new dimension); the inner uniform dimensions must agree."""
    splits_dtype = spec._row_splits_dtype.np
    if spec._ragged_rank == 0:
        flats, nested = column, [()] * len(column)
    else:
        flats, nested = [v[0] for v in column], [v[1:] for v in column]
    nrows = [len(n[0]) - 1 if n else len(f) for f, n in zip(flats, nested)]
    levels = [np.concatenate([[0], np.cumsum(nrows)]).astype(splits_dtype)]
    for level in range(len(nested[0])):
        parts, offset = [np.zeros(1, splits_dtype)], 0
        for n in nested:
            parts.append(n[level][1:] + offset)
            offset += int(n[level][-1])
        levels.append(np.concatenate(parts).astype(splits_dtype))
    inner = {np.shape(f)[1:] for f in flats}
    if len(inner) > 1:
        shapes = [list(np.shape(f)[1:]) for f in flats]
        raise InvalidArgumentError(f"Cannot batch ragged components whose uniform inner dimensions differ: {shapes}"
                                   f"\n  {context}")
    if spec.dtype is dtypes.string:
        flat = np.empty(sum(len(f) for f in flats), dtype=object)
        if len(flat):
            flat[:] = [x for f in flats for x in f]
        flat = flat.reshape((len(flat),) + next(iter(inner)))
    else:
        flat = np.concatenate([np.asarray(f) for f in flats])
    return RaggedValue((flat, *levels))


def batched_spec(spec, size) -> RaggedTensorSpec:
    shape = None if spec._shape is None else (size,) + tuple(spec._shape)
    return RaggedTensorSpec(shape, spec.dtype, spec._ragged_rank + 1, spec._row_splits_dtype)


def unbatched_spec(spec):
    shape = None if spec._shape is None else tuple(spec._shape)[1:]
    if spec._ragged_rank == 0:
        return TensorSpec(shape, spec.dtype)
    return RaggedTensorSpec(shape, spec.dtype, spec._ragged_rank - 1, spec._row_splits_dtype)


def dense_to_ragged_spec(spec, row_splits_dtype):
    """ragged_batch's view of a component: a TensorSpec with an unknown dimension becomes a RaggedTensorSpec
    whose ragged_rank is the last unknown dimension's axis (TF's _DenseToRaggedDataset); other specs stay."""
    if type(spec) is not TensorSpec or spec._shape is None or all(d is not None for d in spec._shape):
        return spec
    ragged_rank = max(axis for axis, d in enumerate(spec._shape) if d is None)
    return RaggedTensorSpec(spec._shape, spec.dtype, ragged_rank, row_splits_dtype)


def dense_to_ragged_value(value, ragged_rank: int, splits_dtype):
    """A dense array as a ragged value of `ragged_rank` (its uniform rows as row splits)."""
    if ragged_rank == 0:
        return value
    value = np.asarray(value)
    shape = value.shape
    levels = []
    rows = shape[0]
    for axis in range(1, ragged_rank + 1):
        levels.append((np.arange(rows + 1) * shape[axis]).astype(splits_dtype))
        rows *= shape[axis]
    return RaggedValue((value.reshape((rows,) + shape[ragged_rank + 1:]), *levels))
