"""tf.unique and tf.unique_with_counts: the distinct elements of a vector in order of first appearance, the
index of each element's value among them (int32 or int64, TF's out_idx) and, with counts, how often each occurs.

TF registers no gradient for Unique, so the op is differentiable with no rule: asking the tape for a gradient
through it raises TF's LookupError."""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from .. import dtypes, shapes
from ..dispatch import apply, convert_to_tensor
from ..errors import InvalidArgumentError
from ..registry import OpDef, register

Unique = namedtuple("Unique", ["y", "idx"])
UniqueWithCounts = namedtuple("UniqueWithCounts", ["y", "idx", "count"])


def _first_occurrence(x):
    """(positions of first occurrences in order of appearance, idx per element, counts). NaNs never equal each
    other (as in TF, where each NaN is its own value); +0.0 and -0.0 are one value."""
    if x.dtype.kind == "f":
        nan = np.isnan(x)
        if nan.any():
            keys = np.where(nan, 0, x).astype(x.dtype)
            # a NaN gets a key of its own: a (value, tag) pair where the tag is the NaN's position + 1
            tags = np.where(nan, np.arange(1, x.size + 1), 0)
            pairs = np.rec.fromarrays([keys, tags])
            _, first, inverse, counts = np.unique(pairs, return_index=True, return_inverse=True, return_counts=True)
            return _in_order(first, inverse, counts)
        x = x + x.dtype.type(0)  # -0.0 + 0.0 is +0.0: one key for both zeros
    _, first, inverse, counts = np.unique(x, return_index=True, return_inverse=True, return_counts=True)
    return _in_order(first, inverse, counts)


def _in_order(first, inverse, counts):
    """np.unique sorts its values; TF keeps the order of first appearance: renumber by first position."""
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    return first[order], rank[inverse.reshape(-1)], counts[order]


def _unique_kernel(x, *, out_idx, with_counts):
    x = np.asarray(x)
    if x.ndim != 1:
        raise InvalidArgumentError("unique expects a 1D vector.")
    first, idx, counts = _first_occurrence(x)
    index_type = out_idx.np
    y = x[first]
    if with_counts:
        return y, idx.astype(index_type), counts.astype(index_type)
    return y, idx.astype(index_type)


def _infer_unique(x, *, out_idx, with_counts):
    if out_idx not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"unique: out_idx must be int32 or int64, got {out_idx.name}")
    if x._shape is not None and len(x._shape) != 1:
        raise ValueError(f"unique expects a 1D vector, got shape {shapes.fmt(x._shape)}")
    length = None if x._shape is None else x._shape[0]
    outputs = [(x.dtype, (None,)), (out_idx, (length,))]
    if with_counts:
        outputs.append((out_idx, (None,)))
    return outputs


unique_op = register(OpDef("unique", _unique_kernel, _infer_unique,
                           doc="TF's Unique/UniqueWithCounts: distinct values in order of first appearance"))


def unique(x, out_idx=dtypes.int32, name=None):
    """`tf.unique`: (y, idx) with y the distinct values of the vector x in order of first appearance and
    x == tf.gather(y, idx)."""
    y, idx = apply(unique_op, (convert_to_tensor(x),), {"out_idx": dtypes.as_dtype(out_idx), "with_counts": False},
                    name=name)
    return Unique(y, idx)


def unique_with_counts(x, out_idx=dtypes.int32, name=None):
    """`tf.unique_with_counts`: (y, idx, count), count[i] being how often y[i] occurs in x."""
    y, idx, count = apply(unique_op, (convert_to_tensor(x),),
                          {"out_idx": dtypes.as_dtype(out_idx), "with_counts": True}, name=name)
    return UniqueWithCounts(y, idx, count)


__all__ = ["unique", "unique_with_counts"]
