"""Sorting ops: sort, argsort (int32) and top_k (values and int32 indices), along one axis."""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from .. import dtypes, shapes
from ..dispatch import apply, convert_to_tensor
from ..errors import InvalidArgumentError
from ..registry import OpDef, register
from .array import known_ints
from .common import normalize_axis, require

_DIRECTIONS = ("ASCENDING", "DESCENDING")

TopKV2 = namedtuple("TopKV2", ["values", "indices"])


def _descending_order(x, axis):
    """Indices sorting x from largest to smallest along `axis`, equal values by lower index first (the order
    of TF's top_k). A stable ascending sort of the reversed array, reversed back, gives exactly that."""
    order = np.argsort(np.flip(x, axis), axis=axis, kind="stable")
    return x.shape[axis] - 1 - np.flip(order, axis)


def _infer_along_axis(x, axis, what, out_dtype=None):
    require(x.dtype, "numeric", what)
    if x._shape is not None:
        if not x._shape:
            raise ValueError("needs a tensor of rank at least 1, got a scalar")
        normalize_axis(axis, len(x._shape))
    return (out_dtype or x.dtype), x._shape


def _sort_kernel(x, *, axis, direction):
    ascending = np.sort(x, axis=axis)
    return ascending if direction == "ASCENDING" else np.flip(ascending, axis)


sort_op = register(OpDef("sort", _sort_kernel,
                         lambda x, *, axis, direction: _infer_along_axis(x, axis, "sort")))


def _argsort_kernel(x, *, axis, direction):
    if direction == "ASCENDING":
        order = np.argsort(x, axis=axis, kind="stable")
    else:
        order = _descending_order(x, axis)
    return order.astype(np.int32)


argsort_op = register(OpDef("argsort", _argsort_kernel,
                            lambda x, *, axis, direction: _infer_along_axis(x, axis, "argsort", dtypes.int32),
                            differentiable=False))


def _direction(direction, what):
    if direction not in _DIRECTIONS:
        raise ValueError(f"{what}: direction must be ASCENDING or DESCENDING, got {direction!r}")
    return direction


def sort(values, axis=-1, direction="ASCENDING", name=None):
    """`tf.sort`: the values sorted along `axis`."""
    return apply(sort_op, (convert_to_tensor(values),),
                 {"axis": known_ints(axis, "tf.sort: axis"), "direction": _direction(direction, "tf.sort")}, name=name)


def argsort(values, axis=-1, direction="ASCENDING", stable=False, name=None):
    """`tf.argsort`: int32 indices that sort `values` along `axis` (always stable here; equal values keep
    their order, also when DESCENDING)."""
    return apply(argsort_op, (convert_to_tensor(values),),
                 {"axis": known_ints(axis, "tf.argsort: axis"), "direction": _direction(direction, "tf.argsort")},
                 name=name)


def _top_k_kernel(x, *, k, sorted, index_type=dtypes.int32):
    if x.shape[-1] < k:
        raise InvalidArgumentError(f"input must have at least k={k} columns, got shape {list(x.shape)}")
    order = _descending_order(x, -1)[..., :k]
    return np.take_along_axis(x, order, axis=-1), order.astype(index_type.np)


def _infer_top_k(x, *, k, sorted, index_type=dtypes.int32):
    require(x.dtype, "numeric", "top_k")
    if k < 0:
        raise ValueError(f"k must be non-negative, got {k}")
    shape = x._shape
    if shape is None:
        return [(x.dtype, None), (index_type, None)]
    if not shape:
        raise ValueError("needs a tensor of rank at least 1, got a scalar")
    if shape[-1] is not None and shape[-1] < k:
        raise ValueError(f"input must have at least k={k} columns, got shape {shapes.fmt(shape)}")
    out = shape[:-1] + (k,)
    return [(x.dtype, out), (index_type, out)]


top_k_op = register(OpDef("top_k", _top_k_kernel, _infer_top_k))


def top_k(input, k=1, sorted=True, index_type=dtypes.int32, name=None):
    """`tf.math.top_k`: the k largest entries of the last dimension, largest first, with their indices
    (int32, or `index_type`: int16 or int64; equal values: lower index first). The result is always sorted."""
    attrs = {"k": known_ints(k, "top_k: k"), "sorted": bool(sorted)}
    index_type = dtypes.as_dtype(index_type)
    if index_type not in (dtypes.int16, dtypes.int32, dtypes.int64):
        raise InvalidArgumentError(f"Value for attr 'index_type' of {index_type.name} is not in the list of "
                                   "allowed values: int16, int32, int64 (top_k)")
    if index_type is not dtypes.int32:  # int32 graphs keep their attributes (and their rendering) as before
        attrs["index_type"] = index_type
    values, indices = apply(top_k_op, (convert_to_tensor(input),), attrs, name=name)
    return TopKV2(values, indices)


__all__ = ["sort", "argsort", "top_k"]
