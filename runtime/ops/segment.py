"""Segment reductions: tf.math.segment_sum/mean/max/min/prod (sorted ids; the result has one row per id up to
the largest) and tf.math.unsorted_segment_sum/max/min/prod (any order, negative ids dropped, num_segments rows,
possibly given as a tensor); unsorted_segment_mean and sqrt_n are compositions, as in TF.

Empty segments are filled as TF fills them: the sorted ops give 0 for every reduction but prod (1); the
unsorted ones give each reduction's identity (0, 1, the dtype's lowest value for max, its highest for min)."""

from __future__ import annotations

import ml_dtypes
import numpy as np

from .. import shapes
from ..dispatch import apply, convert_to_tensor
from ..errors import InvalidArgumentError
from ..registry import OpDef, register
from .array import expand_dims, ones_like
from .common import require
from .math import maximum, sqrt
from .shape_args import static_scalar_value

_SORTED = ("sum", "mean", "max", "min", "prod")
_UNSORTED = ("sum", "max", "min", "prod")
_UFUNCS = {"sum": np.add, "mean": np.add, "max": np.maximum, "min": np.minimum, "prod": np.multiply}


def _identity(reduction, dtype):
    """The value an empty unsorted segment holds: the reduction's identity element."""
    if reduction in ("sum", "mean"):
        return 0
    if reduction == "prod":
        return 1
    info = np.iinfo(dtype) if np.issubdtype(dtype, np.integer) else ml_dtypes.finfo(dtype)  # bfloat16 too
    return info.min if reduction == "max" else info.max


def _reduce_into(data, ids, num, reduction):
    """out[k] = reduction of data[i] over i with ids[i] == k (ids flat, all in [0, num)), identities elsewhere.

    The rows are grouped by a stable sort (skipped when the ids are sorted already) and each group reduced by
    ufunc.reduceat, in the rows' order as TF's kernels do: ten times faster than ufunc.at on rows."""
    out = np.full((num,) + data.shape[1:], _identity(reduction, data.dtype), dtype=data.dtype)
    if not ids.size:
        return out
    if np.any(ids[1:] < ids[:-1]):
        order = np.argsort(ids, kind="stable")
        ids, data = ids[order], data[order]
    starts = np.flatnonzero(np.r_[True, ids[1:] != ids[:-1]])
    out[ids[starts]] = _UFUNCS[reduction].reduceat(data, starts, axis=0)
    return out


def _truncating_mean(total, count, dtype):
    """TF's integer mean truncates toward zero (C++ division); float means divide."""
    if np.issubdtype(dtype, np.integer):
        return (np.sign(total) * (np.abs(total) // count)).astype(dtype)
    return (total / count).astype(dtype)


def _check_ids_dtype(ids, what):
    if not ids.dtype.is_integer or ids.dtype.name not in ("int32", "int64"):
        raise TypeError(f"{what}: segment_ids must be int32 or int64, got {ids.dtype.name}")


def _check_data_dtype(data, reduction, what):
    require(data.dtype, "number" if reduction in ("sum", "mean", "prod") else "numeric", what)


# --- sorted segments ------------------------------------------------------------------------------------------
def _segment_kernel(data, ids, *, reduction):
    data, ids = np.asarray(data), np.asarray(ids)
    if ids.ndim != 1:
        raise InvalidArgumentError("segment_ids should be a vector.")
    if data.ndim == 0 or ids.shape[0] != data.shape[0]:
        raise InvalidArgumentError("segment_ids should be the same size as dimension 0 of input.")
    if ids.size and (ids[0] < 0 or np.any(np.diff(ids) < 0)):
        raise InvalidArgumentError("segment ids are not increasing")
    num = int(ids[-1]) + 1 if ids.size else 0
    if reduction == "mean":
        count = np.bincount(ids, minlength=num).reshape((num,) + (1,) * (data.ndim - 1))
        total = _reduce_into(data, ids, num, "sum")
        return _truncating_mean(total, np.maximum(count, 1), data.dtype)
    out = _reduce_into(data, ids, num, reduction)
    if reduction in ("max", "min") and num:
        empty = np.bincount(ids, minlength=num) == 0
        out[empty] = 0  # TF's sorted max/min leave 0 in a segment no id names
    return out


def _infer_segment(data, ids, *, reduction):
    what = f"segment_{reduction}"
    _check_data_dtype(data, reduction, what)
    _check_ids_dtype(ids, what)
    d, i = data._shape, ids._shape
    if i is not None and len(i) != 1:
        raise ValueError(f"{what}: segment_ids should be a vector, got shape {shapes.fmt(i)}")
    if d is None:
        return data.dtype, None
    if not d:
        raise ValueError(f"{what}: data must have rank at least 1, got a scalar")
    if i is not None and not shapes.compatible(i, d[:1]):
        raise ValueError(f"{what}: segment_ids (shape {shapes.fmt(i)}) should be the same size as dimension 0 "
                         f"of data (shape {shapes.fmt(d)})")
    return data.dtype, (None,) + tuple(d[1:])


segment_op = register(OpDef("segment_reduction", _segment_kernel, _infer_segment,
                            doc="TF's SegmentSum/Mean/Max/Min/Prod: rows reduced by sorted segment ids"))


def _segment(reduction, data, segment_ids, name=None):
    return apply(segment_op, (convert_to_tensor(data), convert_to_tensor(segment_ids)), {"reduction": reduction},
                 name=name)


def segment_sum(data, segment_ids, name=None):
    """`tf.math.segment_sum`: output[k] is the sum of the rows of data whose (sorted) id is k."""
    return _segment("sum", data, segment_ids, name)


def segment_mean(data, segment_ids, name=None):
    """`tf.math.segment_mean`: the mean of each segment (integers truncate); 0 for an empty segment."""
    return _segment("mean", data, segment_ids, name)


def segment_max(data, segment_ids, name=None):
    """`tf.math.segment_max`: the largest row of each segment; 0 for an empty segment."""
    return _segment("max", data, segment_ids, name)


def segment_min(data, segment_ids, name=None):
    """`tf.math.segment_min`: the smallest row of each segment; 0 for an empty segment."""
    return _segment("min", data, segment_ids, name)


def segment_prod(data, segment_ids, name=None):
    """`tf.math.segment_prod`: the product of each segment; 1 for an empty segment."""
    return _segment("prod", data, segment_ids, name)


# --- unsorted segments ------------------------------------------------------------------------------------------
def _unsorted_kernel(data, ids, num_segments, *, reduction):
    data, ids = np.asarray(data), np.asarray(ids)
    if np.ndim(num_segments) != 0:
        raise InvalidArgumentError(f"num_segments should be a scalar, not shape {list(np.shape(num_segments))}")
    num = int(num_segments)
    if num < 0:
        raise InvalidArgumentError(f"Input num_segments == {num} must not be negative.")
    if data.shape[:ids.ndim] != ids.shape:
        raise InvalidArgumentError(f"data.shape = {list(data.shape)} does not start with segment_ids.shape = "
                                   f"{list(ids.shape)}")
    flat_ids = ids.reshape(-1)
    too_large = np.nonzero(flat_ids >= num)[0]
    if too_large.size:
        i = int(too_large[0])
        where = "".join(f"[{int(k)}]" for k in np.unravel_index(i, ids.shape)) if ids.ndim else ""
        raise InvalidArgumentError(f"segment_ids{where} = {flat_ids[i]} is out of range [0, {num})")
    rows = data.reshape((flat_ids.size,) + data.shape[ids.ndim:])
    kept = flat_ids >= 0  # TF drops the rows of negative ids
    return _reduce_into(rows[kept], flat_ids[kept], num, reduction)


def _infer_unsorted(data, ids, num_segments, *, reduction):
    what = f"unsorted_segment_{reduction}"
    _check_data_dtype(data, reduction, what)
    _check_ids_dtype(ids, what)
    if not num_segments.dtype.is_integer or num_segments.dtype.name not in ("int32", "int64"):
        raise TypeError(f"{what}: num_segments must be int32 or int64, got {num_segments.dtype.name}")
    if num_segments._shape not in (None, ()):
        raise ValueError(f"{what}: num_segments should be a scalar, not shape {shapes.fmt(num_segments._shape)}")
    d, i = data._shape, ids._shape
    if d is None or i is None:
        return data.dtype, None
    if len(i) > len(d) or not shapes.compatible(i, d[:len(i)]):
        raise ValueError(f"{what}: data.shape = {shapes.fmt(d)} does not start with segment_ids.shape = "
                         f"{shapes.fmt(i)}")
    num = static_scalar_value(num_segments)
    if num is not None and num < 0:
        raise ValueError(f"{what}: num_segments == {num} must not be negative")
    return data.dtype, (num,) + tuple(d[len(i):])


unsorted_segment_op = register(OpDef(
    "unsorted_segment_reduction", _unsorted_kernel, _infer_unsorted,
    doc="TF's UnsortedSegmentSum/Max/Min/Prod: rows reduced into num_segments segments, negative ids dropped"))


def _unsorted(reduction, data, segment_ids, num_segments, name=None):
    num_segments = convert_to_tensor(num_segments)
    return apply(unsorted_segment_op, (convert_to_tensor(data), convert_to_tensor(segment_ids), num_segments),
                 {"reduction": reduction}, name=name)


def unsorted_segment_sum(data, segment_ids, num_segments, name=None):
    """`tf.math.unsorted_segment_sum`: output[k] sums the rows of data whose id is k (ids in any order and of
    any leading shape of data; negative ids are dropped); 0 for an empty segment."""
    return _unsorted("sum", data, segment_ids, num_segments, name)


def unsorted_segment_max(data, segment_ids, num_segments, name=None):
    """`tf.math.unsorted_segment_max`: the largest row per segment; the dtype's lowest value when empty."""
    return _unsorted("max", data, segment_ids, num_segments, name)


def unsorted_segment_min(data, segment_ids, num_segments, name=None):
    """`tf.math.unsorted_segment_min`: the smallest row per segment; the dtype's highest value when empty."""
    return _unsorted("min", data, segment_ids, num_segments, name)


def unsorted_segment_prod(data, segment_ids, num_segments, name=None):
    """`tf.math.unsorted_segment_prod`: the product per segment; 1 when empty."""
    return _unsorted("prod", data, segment_ids, num_segments, name)


def _segment_counts(data, segment_ids, num_segments):
    """How many rows each segment has, at least 1, shaped to broadcast against the segment sums (TF's N)."""
    data, ids = convert_to_tensor(data), convert_to_tensor(segment_ids)
    counts = maximum(_unsorted("sum", ones_like(ids, data.dtype), ids, num_segments), 1)
    if data._shape is None or ids._shape is None:
        raise ValueError("unsorted_segment_mean/sqrt_n need data and segment_ids of known rank")
    for _ in range(len(data._shape) - len(ids._shape)):
        counts = expand_dims(counts, -1)
    return counts


def unsorted_segment_mean(data, segment_ids, num_segments, name=None):
    """`tf.math.unsorted_segment_mean`: the sum per segment divided by its number of rows; 0 when empty (as TF,
    a true division of the sum: integer data gives float64)."""
    data = convert_to_tensor(data)
    total = _unsorted("sum", data, segment_ids, num_segments)
    return total / _segment_counts(data, segment_ids, num_segments)


def unsorted_segment_sqrt_n(data, segment_ids, num_segments, name=None):
    """`tf.math.unsorted_segment_sqrt_n`: the sum per segment divided by the square root of its row count."""
    data = convert_to_tensor(data)
    if not data.dtype.is_inexact:
        raise TypeError(f"unsorted_segment_sqrt_n needs a floating-point data tensor, got {data.dtype.name}")
    total = _unsorted("sum", data, segment_ids, num_segments)
    return total / sqrt(_segment_counts(data, segment_ids, num_segments))


__all__ = ["segment_sum", "segment_mean", "segment_max", "segment_min", "segment_prod", "unsorted_segment_sum",
           "unsorted_segment_mean", "unsorted_segment_max", "unsorted_segment_min", "unsorted_segment_prod",
           "unsorted_segment_sqrt_n"]
