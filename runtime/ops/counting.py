"""Counting ops: tf.math.bincount (TF's DenseBincount: counts or summed weights per value, minlength/maxlength,
per-row counts with axis=-1, binary_output), tf.histogram_fixed_width (equal-width bins over a range, values
outside it counted in the first or last bin), and tf.math.confusion_matrix (weights summed at
(label, prediction); differentiable in the weights, as TF's scatter_nd composition is).

TF registers no gradient for DenseBincount: the op is differentiable with no rule, so a tape asked for the
gradient of the weights raises TF's LookupError."""

from __future__ import annotations

import numpy as np

from .. import dtypes, shapes
from ..dispatch import apply, convert_to_tensor
from ..errors import InvalidArgumentError
from ..registry import OpDef, gradient, register
from .array import known_ints, reshape, shape, stack
from .common import require
from .indexing import gather_nd
from .math import cast, floor, maximum, minimum
from .reduce import reduce_sum
from .shape_args import static_scalar_value

_INDEX_TYPES = (dtypes.int32, dtypes.int64)


# --- bincount -----------------------------------------------------------------------------------------------
def _bincount_size(arr, minlength, maxlength):
    """TF's output size: max(arr) + 1 (0 when empty), raised to minlength, capped at maxlength."""
    size = int(arr.max()) + 1 if arr.size else 0
    if minlength is not None:
        size = max(size, minlength)
    if maxlength is not None:
        size = min(size, maxlength)
    return size


def _count_row(values, weights, size, out_dtype, binary):
    kept = values < size  # values at or past maxlength are not counted
    values = values[kept]
    if weights is None:
        counts = np.bincount(values, minlength=size)
    else:
        counts = np.zeros(size, out_dtype)
        np.add.at(counts, values, weights[kept])
    if binary:
        counts = counts > 0
    return counts.astype(out_dtype, copy=False)


def _bincount_kernel(arr, *weights, minlength, maxlength, per_row, binary_output, dtype):
    arr = np.asarray(arr)
    weights = np.asarray(weights[0]) if weights else None
    if arr.size and arr.min() < 0:
        raise InvalidArgumentError("Input arr must be non-negative!")
    if weights is not None and weights.shape != arr.shape:
        raise InvalidArgumentError("`weights` must be the same shape as `arr` or a length-0 `Tensor`, in which case "
                                   f"it acts as all weights equal to 1. Received {list(weights.shape)}")
    size = _bincount_size(arr, minlength, maxlength)
    out_dtype = dtype.np
    if not per_row or arr.ndim < 2:
        flat_weights = None if weights is None else weights.reshape(-1)
        return _count_row(arr.reshape(-1), flat_weights, size, out_dtype, binary_output)
    return _count_rows(arr, weights, size, out_dtype, binary_output)


def _count_rows(arr, weights, size, out_dtype, binary):
    """Every row's counts in one pass: a value v of row r goes to bin r * size + v of one flat histogram (values
    at or past `size` are dropped). Weighted counts add in the output dtype in row order (np.add.at), as the
    row-by-row loop did, so float sums are bit-identical to it."""
    rows = arr.reshape(-1, arr.shape[-1])
    n_rows = rows.shape[0]
    kept = rows < size
    flat = (np.arange(n_rows, dtype=np.int64)[:, None] * size + rows)[kept]
    if weights is None:
        counts = np.bincount(flat, minlength=n_rows * size)
    else:
        counts = np.zeros(n_rows * size, out_dtype)
        np.add.at(counts, flat, weights.reshape(rows.shape)[kept].astype(out_dtype, copy=False))
    if binary:
        counts = counts > 0
    return counts.astype(out_dtype, copy=False).reshape(arr.shape[:-1] + (size,))


def _infer_bincount(arr, *weights, minlength, maxlength, per_row, binary_output, dtype):
    if arr.dtype not in _INDEX_TYPES:
        raise TypeError(f"bincount: arr must be int32 or int64, got {arr.dtype.name}")
    if weights:
        w = weights[0]
        require(w.dtype, "numeric", "bincount's weights")
        if w.dtype is not dtype:
            raise TypeError(f"bincount: weights of dtype {w.dtype.name} for an output of dtype {dtype.name}")
        if w._shape is not None and arr._shape is not None and not shapes.compatible(w._shape, arr._shape):
            raise ValueError(f"bincount: weights {shapes.fmt(w._shape)} must have the shape of arr "
                             f"{shapes.fmt(arr._shape)}")
    size = maxlength if maxlength is not None and maxlength == minlength else None
    if not per_row or arr._shape is None or len(arr._shape) < 2:
        return dtype, (size,)
    return dtype, tuple(arr._shape[:-1]) + (size,)


bincount_op = register(OpDef("bincount", _bincount_kernel, _infer_bincount,
                             doc="TF's DenseBincount: how often each value occurs (or its summed weights)"))


def _optional_length(value, what):
    if value is None:
        return None
    value = known_ints(value, f"bincount: {what}")
    if value < 0:
        raise ValueError(f"bincount: {what} must be non-negative, got {value}")
    return value


def bincount(arr, weights=None, minlength=None, maxlength=None, dtype=dtypes.int32, name=None, axis=None,
             binary_output=False):
    """`tf.math.bincount`: counts of each value of the non-negative int array `arr` (non-integer arrays are cast
    to int32, as TF does); with `weights`, their sums (in the weights' dtype). axis=None or 0 counts over the
    whole array; axis=-1 counts each row of the last dimension separately."""
    arr = convert_to_tensor(arr)
    if arr.dtype not in _INDEX_TYPES:
        arr = cast(arr, dtypes.int32)
    if axis not in (None, 0, -1):
        raise ValueError(f"Unsupported value for argument axis={axis}. Only 0 and -1 are currently supported.")
    inputs = [arr]
    out_dtype = dtypes.as_dtype(dtype)
    if weights is not None:
        if binary_output:
            raise ValueError("Arguments `binary_output` and `weights` are mutually exclusive. Please specify only "
                             "one.")
        weights = convert_to_tensor(weights)
        out_dtype = weights.dtype
        inputs.append(weights)
    return apply(bincount_op, tuple(inputs), {
        "minlength": _optional_length(minlength, "minlength"), "maxlength": _optional_length(maxlength, "maxlength"),
        "per_row": axis == -1, "binary_output": bool(binary_output), "dtype": out_dtype}, name=name)


# --- histogram_fixed_width -----------------------------------------------------------------------------------
def _histogram_kernel(values, value_range, nbins, *, dtype):
    values, value_range, nbins = np.asarray(values), np.asarray(value_range), int(nbins)
    if value_range.shape != (2,):
        raise InvalidArgumentError(f"value_range should be a vector of 2 elements, got shape {list(value_range.shape)}")
    low, high = value_range
    if not low < high:
        raise InvalidArgumentError(f"value_range should satisfy value_range[0] < value_range[1], but got "
                                   f"'[{low:g}, {high:g}]'")
    if nbins <= 0:
        raise InvalidArgumentError(f"nbins should be a positive number, but got '{nbins}'")
    flat = values.reshape(-1)
    if flat.dtype.kind == "f" and np.isnan(flat).any():
        raise InvalidArgumentError("Histogram values must not contain NaN")
    # TF's kernel: the bin width and the positions in float64, from the range's difference in its own dtype
    step = np.float64(high - low) / nbins
    bins = np.floor((flat.astype(np.float64) - np.float64(low)) / step)
    bins = np.clip(bins, 0, nbins - 1).astype(np.int64)
    return np.bincount(bins, minlength=nbins).astype(dtype.np)


def _infer_histogram(values, value_range, nbins, *, dtype):
    require(values.dtype, "numeric", "histogram_fixed_width")
    if value_range.dtype is not values.dtype:
        raise TypeError(f"histogram_fixed_width: value_range has dtype {value_range.dtype.name} but values have "
                        f"{values.dtype.name}")
    if nbins.dtype is not dtypes.int32 or nbins._shape not in (None, ()):
        raise TypeError(f"histogram_fixed_width: nbins must be a scalar int32, got {nbins.dtype.name} "
                        f"{shapes.fmt(nbins._shape)}")
    if dtype not in _INDEX_TYPES:
        raise TypeError(f"histogram_fixed_width: dtype must be int32 or int64, got {dtype.name}")
    return dtype, (static_scalar_value(nbins),)


histogram_op = register(OpDef("histogram_fixed_width", _histogram_kernel, _infer_histogram, differentiable=False,
                              doc="TF's HistogramFixedWidth: counts in nbins equal bins of value_range"))


def histogram_fixed_width(values, value_range, nbins=100, dtype=dtypes.int32, name=None):
    """`tf.histogram_fixed_width`: how many values fall in each of nbins equal-width bins spanning value_range
    (values below it count in the first bin, above it in the last)."""
    values = convert_to_tensor(values)
    value_range = convert_to_tensor(value_range, values.dtype)
    nbins = convert_to_tensor(nbins, dtypes.int32)
    return apply(histogram_op, (values, value_range, nbins), {"dtype": dtypes.as_dtype(dtype)}, name=name)


def histogram_fixed_width_bins(values, value_range, nbins=100, dtype=dtypes.int32, name=None):
    """`tf.histogram_fixed_width_bins`: the bin index of each value (shape of values), composed as TF's own:
    floor(nbins * (v - lo) / (hi - lo)) in the values' dtype, clipped to [0, nbins - 1]."""
    values = convert_to_tensor(values)
    value_range = convert_to_tensor(value_range, values.dtype)
    nbins_float = cast(convert_to_tensor(nbins, dtypes.int32), values.dtype)
    flat = reshape(values, [-1])
    scaled = (flat - value_range[0]) / (value_range[1] - value_range[0])
    indices = minimum(maximum(floor(nbins_float * scaled), cast(0, values.dtype)), nbins_float - 1)
    return reshape(cast(indices, dtypes.as_dtype(dtype)), shape(values))


# --- confusion_matrix ----------------------------------------------------------------------------------------
def _check_classes(values, what, num):
    if values.size and values.min() < 0:
        raise InvalidArgumentError(f"`{what}` contains negative values.")
    if num is not None and values.size and values.max() >= num:
        raise InvalidArgumentError(f"`{what}` out of bound: {int(values.max())} is not below num_classes {num}")


def _confusion_kernel(labels, predictions, weights, num_classes):
    labels, predictions = np.asarray(labels, np.int64), np.asarray(predictions, np.int64)
    if labels.shape != predictions.shape:
        raise InvalidArgumentError(f"labels {list(labels.shape)} and predictions {list(predictions.shape)} must have "
                                   "the same shape")
    num = int(num_classes)
    num = None if num < 0 else num
    _check_classes(labels, "labels", num)
    _check_classes(predictions, "predictions", num)
    if num is None:
        num = int(max(labels.max(initial=-1), predictions.max(initial=-1))) + 1
    weights = np.broadcast_to(np.asarray(weights), labels.shape)
    out = np.zeros((num, num), weights.dtype)
    np.add.at(out, (labels, predictions), weights)
    return out


def _infer_confusion(labels, predictions, weights, num_classes):
    for name, t in (("labels", labels), ("predictions", predictions)):
        require(t.dtype, "int", f"confusion_matrix's {name}")
        if t._shape is not None and len(t._shape) != 1:
            raise ValueError(f"confusion_matrix: {name} must be 1-D, got shape {shapes.fmt(t._shape)}")
    if labels._shape is not None and predictions._shape is not None \
            and not shapes.compatible(labels._shape, predictions._shape):
        raise ValueError(f"confusion_matrix: labels {shapes.fmt(labels._shape)} and predictions "
                         f"{shapes.fmt(predictions._shape)} must have the same shape")
    require(weights.dtype, "number", "confusion_matrix's weights")
    num = static_scalar_value(num_classes)
    num = None if num is None or num < 0 else num
    return weights.dtype, (num, num)


confusion_op = register(OpDef("confusion_matrix", _confusion_kernel, _infer_confusion,
                              doc="weights summed at [label, prediction] of a num_classes square matrix"))


@gradient(confusion_op)
def _confusion_grad(record, g):
    labels, predictions, weights = record.inputs[:3]
    picked = gather_nd(g, stack([cast(labels, dtypes.int64), cast(predictions, dtypes.int64)], axis=1))
    if weights._shape == ():
        picked = reduce_sum(picked)
    return None, None, picked, None


def confusion_matrix(labels, predictions, num_classes=None, weights=None, dtype=dtypes.int32, name=None):
    """`tf.math.confusion_matrix`: entry [i, j] sums the weights (1 each by default) of the examples with label
    i and prediction j; num_classes defaults to the largest label or prediction + 1."""
    out_dtype = dtypes.as_dtype(dtype)
    labels, predictions = convert_to_tensor(labels), convert_to_tensor(predictions)
    weights = convert_to_tensor(1 if weights is None else weights)
    if weights.dtype is not out_dtype:
        weights = cast(weights, out_dtype)
    num = convert_to_tensor(-1 if num_classes is None else num_classes)
    return apply(confusion_op, (labels, predictions, weights, num), name=name)


__all__ = ["bincount", "histogram_fixed_width", "histogram_fixed_width_bins", "confusion_matrix"]
