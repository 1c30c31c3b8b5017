"""Sparse components of dataset elements (what parse_example gives for a VarLenFeature). Inside a pipeline a
sparse component is one flat value, the plain tuple (indices, values, dense_shape) of numpy arrays; it
becomes a tf.sparse.SparseTensor when it leaves the pipeline, its dense array in as_numpy_iterator (as TF 2.21), and
three tensors in a graph's iterator op. batch stacks sparse components as TF does: a batch index in front
of the indices and the largest dense shape."""

from __future__ import annotations

import numpy as np

from tinytf.runtime.tensor import EagerTensor

from ..sparse import SparseTensor, SparseTensorSpec


def is_sparse_spec(spec) -> bool:
    return isinstance(spec, SparseTensorSpec)


def to_sparse_tensor(spec, value) -> SparseTensor:
    indices, values, dense_shape = value
    return SparseTensor._make(EagerTensor(indices, spec._component_specs[0].dtype),
                              EagerTensor(values, spec.dtype), EagerTensor(dense_shape, spec._component_specs[2].dtype),
                              spec._shape)


def from_sparse_tensor(sparse) -> tuple:
    return (sparse.indices._value, sparse.values._value, sparse.dense_shape._value)


def stack_sparse(column) -> tuple:
    """A batch of sparse values: indices gain the position in the batch, the dense shape is the largest."""
    rank = len(column[0][2])
    for value in column:
        if len(value[2]) != rank:
            from tinytf.runtime.errors import InvalidArgumentError

            raise InvalidArgumentError(f"Cannot batch sparse tensors of ranks {rank} and {len(value[2])}")
    indices = [np.concatenate([np.full((len(v[0]), 1), i, np.int64), v[0].reshape(-1, rank)], axis=1)
               for i, v in enumerate(column)]
    shape = np.max(np.stack([v[2] for v in column]), axis=0) if rank else np.zeros(0, np.int64)
    values = np.concatenate([v[1] for v in column])
    return (np.concatenate(indices).reshape(-1, rank + 1), values,
            np.concatenate([[len(column)], shape]).astype(np.int64))


def batched_spec(spec, size) -> SparseTensorSpec:
    return SparseTensorSpec(None if spec._shape is None else (size,) + tuple(spec._shape), spec.dtype)


def sparse_rows(value) -> list:
    """The rows of a sparse value along its first dimension (unbatch, from_tensor_slices): each keeps the
    dense shape of the whole without its first dimension, as TF's unbatch does."""
    indices, values, dense_shape = value
    if len(dense_shape) == 0:
        raise ValueError("Unbatching a sparse tensor is only supported for rank >= 1")
    indices = np.asarray(indices).reshape(len(values), len(dense_shape))  # (0, rank) for a batch with no entry
    inner = np.asarray(dense_shape[1:], np.int64)
    first = indices[:, 0]
    rows = []
    for i in range(int(dense_shape[0])):
        keep = first == i
        rows.append((indices[keep, 1:].astype(np.int64), values[keep], inner))
    return rows


def unbatched_spec(spec) -> SparseTensorSpec:
    return SparseTensorSpec(None if spec._shape is None else tuple(spec._shape)[1:], spec.dtype)
