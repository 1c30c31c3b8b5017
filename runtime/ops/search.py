"""Searching sorted rows and ranking scores: tf.searchsorted (TF's LowerBound/UpperBound: where each value
would go in its row of a sorted sequence) and tf.math.in_top_k (whether each target's score is among its row's
k largest, ties included). Neither is differentiable (integer and bool results)."""

from __future__ import annotations

import numpy as np

from .. import dtypes, shapes
from ..dispatch import apply, convert_inputs, convert_to_tensor
from ..errors import InvalidArgumentError
from ..registry import OpDef, register
from .array import known_ints
from .common import require, same_dtype

_INDEX_TYPES = (dtypes.int32, dtypes.int64)


# --- searchsorted -------------------------------------------------------------------------------------------
def _searchsorted_kernel(sorted_sequence, values, *, side, out_type):
    sorted_sequence, values = np.asarray(sorted_sequence), np.asarray(values)
    if sorted_sequence.ndim == 0 or values.ndim == 0:
        raise InvalidArgumentError("searchsorted needs sorted_sequence and values of rank at least 1")
    if sorted_sequence.shape[:-1] != values.shape[:-1]:
        raise InvalidArgumentError("Leading dim_size of both tensors must match.")
    # the leading dims counted explicitly: reshape(-1, 0) is ambiguous for an empty sequence
    leading = int(np.prod(values.shape[:-1], dtype=np.int64))
    rows = sorted_sequence.reshape(leading, sorted_sequence.shape[-1])
    wanted = values.reshape(leading, values.shape[-1])
    out = np.empty(wanted.shape, out_type.np)
    for r in range(rows.shape[0]):
        out[r] = np.searchsorted(rows[r], wanted[r], side=side)
    return out.reshape(values.shape)


def _infer_searchsorted(sorted_sequence, values, *, side, out_type):
    same_dtype(sorted_sequence, values)
    require(sorted_sequence.dtype, "numeric", "searchsorted")
    if out_type not in _INDEX_TYPES:
        raise TypeError(f"searchsorted: out_type must be int32 or int64, got {out_type.name}")
    s, v = sorted_sequence._shape, values._shape
    for name, shape in (("sorted_sequence", s), ("values", v)):
        if shape is not None and not shape:
            raise ValueError(f"searchsorted: {name} must have rank at least 1, got a scalar")
    if s is not None and v is not None and (len(s) != len(v) or not shapes.compatible(s[:-1], v[:-1])):
        raise ValueError(f"searchsorted: the leading dimensions of sorted_sequence {shapes.fmt(s)} and values "
                         f"{shapes.fmt(v)} must match")
    return out_type, v


searchsorted_op = register(OpDef("searchsorted", _searchsorted_kernel, _infer_searchsorted, differentiable=False,
                                 doc="TF's LowerBound (side left) / UpperBound (side right), row by row"))


def searchsorted(sorted_sequence, values, side="left", out_type=dtypes.int32, name=None):
    """`tf.searchsorted`: for each value, the index in its row of sorted_sequence (the innermost dimension,
    sorted ascending) where it would be inserted: before equal entries (side "left") or after them ("right")."""
    if side not in ("left", "right"):
        raise ValueError(f"Argument `side` must be either 'right' or 'left'. Received: `side` = '{side}'.")
    sorted_sequence, values = convert_inputs((sorted_sequence, values), True)
    return apply(searchsorted_op, (sorted_sequence, values), {"side": side, "out_type": dtypes.as_dtype(out_type)},
                 name=name)


# --- in_top_k -----------------------------------------------------------------------------------------------
def _in_top_k_kernel(predictions, targets, *, k):
    predictions, targets = np.asarray(predictions), np.asarray(targets)
    if predictions.ndim != 2 or targets.ndim != 1 or predictions.shape[0] != targets.shape[0]:
        raise InvalidArgumentError(f"predictions must be [batch, classes] and targets [batch], got shapes "
                                   f"{list(predictions.shape)} and {list(targets.shape)}")
    batch, classes = predictions.shape
    valid = (targets >= 0) & (targets < classes)
    own = predictions[np.arange(batch), np.where(valid, targets, 0)]
    higher = np.sum(predictions > own[:, None], axis=1)
    # TF cannot rank a row holding a non-finite score: such rows (and out-of-range targets) are False
    finite = np.isfinite(predictions).all(axis=1)
    return valid & finite & (higher < k)


def _infer_in_top_k(predictions, targets, *, k):
    if predictions.dtype is not dtypes.float32:
        raise TypeError(f"in_top_k: predictions must be float32, got {predictions.dtype.name}")
    if targets.dtype not in _INDEX_TYPES:
        raise TypeError(f"in_top_k: targets must be int32 or int64, got {targets.dtype.name}")
    p, t = predictions._shape, targets._shape
    if p is not None and len(p) != 2:
        raise ValueError(f"in_top_k: predictions must be 2-dimensional, got shape {shapes.fmt(p)}")
    if t is not None and len(t) != 1:
        raise ValueError(f"in_top_k: targets must be 1-dimensional, got shape {shapes.fmt(t)}")
    batch = shapes.merge(None if p is None else p[:1], None if t is None else t[:1])
    if batch is False:
        raise ValueError(f"in_top_k: predictions {shapes.fmt(p)} and targets {shapes.fmt(t)} must have the same "
                         "first dimension")
    return dtypes.bool_, batch if batch is not None else (None,)


in_top_k_op = register(OpDef("in_top_k", _in_top_k_kernel, _infer_in_top_k, differentiable=False,
                             doc="TF's InTopKV2: is each target's score among the k largest of its row"))


def in_top_k(targets, predictions, k, name=None):
    """`tf.math.in_top_k` / `tf.nn.in_top_k`: True where predictions[i, targets[i]] is among the k largest of
    row i (ties at the boundary count as in); False for an out-of-range target or a row with a non-finite score."""
    predictions = convert_to_tensor(predictions, dtypes.float32)
    targets = convert_to_tensor(targets)
    return apply(in_top_k_op, (predictions, targets), {"k": known_ints(k, "in_top_k: k")}, name=name)


__all__ = ["searchsorted", "in_top_k"]
