"""TF1's sparse inputs: `sparse_placeholder` (a SparseTensor of three placeholders, fed with a SparseTensorValue
or an (indices, values, dense_shape) triple), and `sparse_merge` (ids and values of a batch of features as one
SparseTensor over a vocabulary)."""

from __future__ import annotations

import numbers

import numpy as np

from tinytf.runtime import dtypes
from tinytf.runtime.ops.array import concat, expand_dims
from tinytf.runtime.ops.math import cast
from tinytf.runtime.shapes import TensorShape
from tinytf.runtime.tensor import Tensor

from ...scopes import name_scope
from ...sparse import SparseTensor
from ...sparse import reorder as sparse_reorder
from .graph import placeholder, placeholder_with_default
from .tf1_misc import SparseTensorValue


def sparse_placeholder(dtype, shape=None, name=None):
    """`tf.compat.v1.sparse_placeholder`: a SparseTensor to feed; with a `shape`, its dense shape defaults to it
    (-1 for each unknown dimension) and its indices have that rank."""
    shape = TensorShape(shape)
    rank = shape.rank
    prefix = f"{name}/" if name else ""
    if rank is None:
        dense_shape = placeholder(dtypes.int64, [None], name=f"{prefix}shape" if name else None)
    else:
        default = np.array([-1 if d is None else d for d in shape.as_list()], np.int64)
        dense_shape = placeholder_with_default(default, [rank], name=f"{prefix}shape" if name else None)
    values = placeholder(dtype, [None], name=f"{prefix}values" if name else None)
    indices = placeholder(dtypes.int64, [None, rank], name=f"{prefix}indices" if name else None)
    return SparseTensor._make(indices, values, dense_shape, None if rank is None else tuple(shape.as_list()))


def expand_sparse_feeds(feed_dict: dict) -> dict:
    """A feed_dict with each SparseTensor key replaced by its three parts (TF's Session does the same)."""
    out = {}
    for key, value in feed_dict.items():
        if isinstance(key, SparseTensor):
            if isinstance(value, SparseTensor):
                raise TypeError("The value of a feed cannot be a tf.Tensor object: feed a SparseTensorValue")
            if not isinstance(value, (SparseTensorValue, tuple, list)) or len(value) != 3:
                raise TypeError(f"A SparseTensor feed takes a SparseTensorValue or an (indices, values, dense_shape) "
                                f"triple, got {type(value).__name__}")
            indices, values, dense_shape = value
            out[key.indices], out[key.values], out[key.dense_shape] = indices, values, dense_shape
        else:
            out[key] = value
    return out


def sparse_merge(sp_ids, sp_values, vocab_size, name=None, already_sorted=False):
    """`tf.compat.v1.sparse_merge` (deprecated in TF): a SparseTensor whose last index is each entry's id (one
    id SparseTensor per new dimension) and whose values are `sp_values`' values, reordered unless already_sorted."""
    if isinstance(sp_ids, (SparseTensor, SparseTensorValue)):
        if not isinstance(vocab_size, (Tensor, numbers.Integral)):
            raise TypeError(f"vocab_size has to be a Tensor or Python int. Found {type(vocab_size)}")
        sp_ids, vocab_size = [sp_ids], [vocab_size]
    else:
        if not isinstance(sp_ids, (list, tuple)):
            raise TypeError(f"sp_ids has to be a SparseTensor or list thereof. Found {type(sp_ids)}")
        if not isinstance(vocab_size, (list, tuple)):
            raise TypeError(f"vocab_size has to be a list of Tensors or Python ints. Found {type(vocab_size)}")
        for size in vocab_size:
            if not isinstance(size, (Tensor, numbers.Integral)):
                raise TypeError(f"vocab_size has to be a list of Tensors or Python ints. Found {type(size)}")
    if len(sp_ids) != len(vocab_size):
        raise ValueError("sp_ids and vocab_size have to have equal lengths.")
    with name_scope(name or "SparseMerge"):
        sp_ids = [_sparse(s) for s in sp_ids]
        sp_values = _sparse(sp_values)
        ids = [expand_dims(cast(s.values, dtypes.int64), 1) for s in sp_ids]
        sizes = [cast(s if isinstance(s, Tensor) else np.int64(s), dtypes.int64) for s in vocab_size]
        indices = concat([sp_ids[0].indices[:, :-1]] + ids, 1)
        shape = concat([sp_ids[0].dense_shape[:-1], *[expand_dims(s, 0) for s in sizes]], 0)
        result = SparseTensor(indices, sp_values.values, shape)
        if already_sorted:
            return result
        ordered = sparse_reorder(result)
        return SparseTensor(ordered.indices, ordered.values, shape)


def _sparse(value):
    if isinstance(value, SparseTensorValue):
        return SparseTensor(value.indices, value.values, value.dense_shape)
    if not isinstance(value, SparseTensor):
        raise TypeError(f"Input must be a SparseTensor, got {type(value).__name__}")
    return value


__all__ = ["sparse_merge", "sparse_placeholder"]
