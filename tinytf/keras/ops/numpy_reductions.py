"""keras.ops.numpy's reductions: sums, means, extremes, arg-extremes, cumulative and NaN-ignoring variants,
quantiles and histograms, with Keras' accumulation dtypes."""

from __future__ import annotations

import builtins

import numpy as np

import tinytf as tf

from .. import config
from .core import cast, convert_to_tensor
from .dtype_rules import result_type, standardize_dtype
from .numpy_creation import linspace
from .numpy_shapes import moveaxis, take_along_axis


def _axis(axis):
    return list(axis) if isinstance(axis, tuple) else axis


def sum(x, axis=None, keepdims=False):  # noqa: A001
    """The sum; bool and small ints accumulate in int32, small unsigned in uint32 (as jax)."""
    x = convert_to_tensor(x)
    name = standardize_dtype(x.dtype)
    if name in ("bool", "int8", "int16"):
        x = cast(x, "int32")
    elif name in ("uint8", "uint16"):
        x = cast(x, "uint32")
    return tf.reduce_sum(x, axis=_axis(axis), keepdims=keepdims)


def prod(x, axis=None, keepdims=False, dtype=None):
    x = convert_to_tensor(x)
    if dtype is None:
        name = standardize_dtype(x.dtype)
        dtype = {"bool": "int32", "int8": "int32", "int16": "int32", "uint8": "uint32", "uint16": "uint32"}.get(
            name, name)
    return tf.reduce_prod(cast(x, dtype), axis=_axis(axis), keepdims=keepdims)


def mean(x, axis=None, keepdims=False):
    """The mean, in float (integers average as floatx, float16 accumulates in float32)."""
    x = convert_to_tensor(x)
    name = standardize_dtype(x.dtype)
    out_dtype = config.floatx() if name == "int64" else result_type(name, float)
    compute = result_type(out_dtype, "float32")
    return cast(tf.reduce_mean(cast(x, compute), axis=_axis(axis), keepdims=keepdims), out_dtype)


def var(x, axis=None, keepdims=False):
    x = convert_to_tensor(x)
    compute, out = result_type(x.dtype, "float32"), result_type(x.dtype, float)
    return cast(tf.math.reduce_variance(cast(x, compute), axis=_axis(axis), keepdims=keepdims), out)


def std(x, axis=None, keepdims=False):
    x = convert_to_tensor(x)
    name = standardize_dtype(x.dtype)
    if "int" in name or name == "bool":
        x = cast(x, config.floatx())
    return tf.math.reduce_std(x, axis=_axis(axis), keepdims=keepdims)


def max(x, axis=None, keepdims=False, initial=None):  # noqa: A001
    """The maximum; `initial` joins the comparison; an empty reduction without it is an error."""
    x = convert_to_tensor(x)
    if initial is None and 0 in [d for d in x.shape if d is not None] and axis is None:
        raise tf.errors.InvalidArgumentError("Cannot compute the max of an empty tensor.")
    if x.dtype == tf.bool:
        out = tf.reduce_any(x, axis=_axis(axis), keepdims=keepdims)
        return out if initial is None else tf.logical_or(out, bool(initial))
    out = tf.reduce_max(x, axis=_axis(axis), keepdims=keepdims)
    return out if initial is None else tf.maximum(out, tf.cast(initial, out.dtype))


def min(x, axis=None, keepdims=False, initial=None):  # noqa: A001
    x = convert_to_tensor(x)
    if initial is None and 0 in [d for d in x.shape if d is not None] and axis is None:
        raise tf.errors.InvalidArgumentError("Cannot compute the min of an empty tensor.")
    if x.dtype == tf.bool:
        out = tf.reduce_all(x, axis=_axis(axis), keepdims=keepdims)
        return out if initial is None else tf.logical_and(out, bool(initial))
    out = tf.reduce_min(x, axis=_axis(axis), keepdims=keepdims)
    return out if initial is None else tf.minimum(out, tf.cast(initial, out.dtype))


def amax(x, axis=None, keepdims=False):
    """max without `initial` (Keras 3's amax takes none)."""
    return max(x, axis=axis, keepdims=keepdims)


def amin(x, axis=None, keepdims=False):
    """min without `initial` (Keras 3's amin takes none)."""
    return min(x, axis=axis, keepdims=keepdims)


def all(x, axis=None, keepdims=False):  # noqa: A001
    return tf.reduce_all(cast(x, "bool"), axis=_axis(axis), keepdims=keepdims)


def any(x, axis=None, keepdims=False):  # noqa: A001
    return tf.reduce_any(cast(x, "bool"), axis=_axis(axis), keepdims=keepdims)


def ptp(x, axis=None, keepdims=False):
    """max - min along axis."""
    x = convert_to_tensor(x)
    return tf.reduce_max(x, axis=_axis(axis), keepdims=keepdims) - tf.reduce_min(x, axis=_axis(axis),
                                                                                 keepdims=keepdims)


def average(x, axis=None, weights=None):
    """The (weighted) mean along axis; 1-D weights apply along that axis."""
    x = convert_to_tensor(x)
    if weights is None:
        x = cast(x, result_type(x.dtype, float))
        return tf.reduce_mean(x, axis=axis)
    weights = convert_to_tensor(weights)
    dtype = result_type(x.dtype, weights.dtype, float)
    x, weights = cast(x, dtype), cast(weights, dtype)
    if axis is None or len(weights.shape) == len(x.shape):
        return tf.reduce_sum(x * weights, axis=axis) / tf.reduce_sum(weights, axis=axis)
    shape = [1] * len(x.shape)
    shape[axis] = -1
    return tf.reduce_sum(x * tf.reshape(weights, shape), axis=axis) / tf.reduce_sum(weights)


def count_nonzero(x, axis=None):
    """The number of non-zero elements (int32, as Keras' TF backend)."""
    return cast(tf.math.count_nonzero(convert_to_tensor(x), axis=_axis(axis)), "int32")


def argmax(x, axis=None, keepdims=False):
    """Index of the (first) maximum, int32; axis None searches the flattened tensor."""
    return _arg_reduce(tf.argmax, x, axis, keepdims)


def argmin(x, axis=None, keepdims=False):
    return _arg_reduce(tf.argmin, x, axis, keepdims)


def _arg_reduce(fn, x, axis, keepdims):
    x = convert_to_tensor(x)
    if x.dtype == tf.bool:
        x = cast(x, "int32")
    if axis is None:
        out = fn(tf.reshape(x, [-1]), axis=0, output_type="int32")
        return tf.reshape(out, [1] * len(x.shape)) if keepdims else out
    out = fn(x, axis=axis, output_type="int32")
    return tf.expand_dims(out, axis) if keepdims else out


def cumsum(x, axis=None, dtype=None):
    x = convert_to_tensor(x, dtype=dtype)
    if standardize_dtype(x.dtype) == "bool":
        x = cast(x, "int32")
    if axis is None:
        x, axis = tf.reshape(x, [-1]), 0
    return tf.cumsum(x, axis=axis)


def cumprod(x, axis=None, dtype=None):
    x = convert_to_tensor(x, dtype=dtype)
    if standardize_dtype(x.dtype) == "bool":
        x = cast(x, "int32")
    if axis is None:
        x, axis = tf.reshape(x, [-1]), 0
    return tf.math.cumprod(x, axis=axis)


def _nan_masked(x, fill):
    x = convert_to_tensor(x)
    if not x.dtype.is_floating:
        return x
    return tf.where(tf.math.is_nan(x), tf.constant(fill, x.dtype), x)


def nansum(x, axis=None, keepdims=False):
    return sum(_nan_masked(x, 0.0), axis=axis, keepdims=keepdims)


def nanprod(x, axis=None, keepdims=False):
    return prod(_nan_masked(x, 1.0), axis=axis, keepdims=keepdims)


def nanmax(x, axis=None, keepdims=False):
    """The maximum ignoring NaN (NaN where a slice is all NaN)."""
    x = convert_to_tensor(x)
    if not x.dtype.is_floating:
        return max(x, axis=axis, keepdims=keepdims)
    out = tf.reduce_max(_nan_masked(x, -np.inf), axis=_axis(axis), keepdims=keepdims)
    all_nan = tf.reduce_all(tf.math.is_nan(x), axis=_axis(axis), keepdims=keepdims)
    return tf.where(all_nan, tf.constant(np.nan, x.dtype), out)


def nanmin(x, axis=None, keepdims=False):
    x = convert_to_tensor(x)
    if not x.dtype.is_floating:
        return min(x, axis=axis, keepdims=keepdims)
    out = tf.reduce_min(_nan_masked(x, np.inf), axis=_axis(axis), keepdims=keepdims)
    all_nan = tf.reduce_all(tf.math.is_nan(x), axis=_axis(axis), keepdims=keepdims)
    return tf.where(all_nan, tf.constant(np.nan, x.dtype), out)


def nanmean(x, axis=None, keepdims=False):
    x = convert_to_tensor(x)
    if not x.dtype.is_floating:
        return mean(x, axis=axis, keepdims=keepdims)
    valid = cast(tf.logical_not(tf.math.is_nan(x)), x.dtype)
    return tf.reduce_sum(_nan_masked(x, 0.0), axis=_axis(axis), keepdims=keepdims) / tf.reduce_sum(
        valid, axis=_axis(axis), keepdims=keepdims)


def nanvar(x, axis=None, keepdims=False):
    x = convert_to_tensor(x)
    if not x.dtype.is_floating:
        return var(x, axis=axis, keepdims=keepdims)
    centered = x - nanmean(x, axis=axis, keepdims=True)
    return nanmean(centered * centered, axis=axis, keepdims=keepdims)


def nanstd(x, axis=None, keepdims=False):
    return tf.sqrt(nanvar(x, axis=axis, keepdims=keepdims))


def nancumsum(x, axis=None, dtype=None):
    return cumsum(_nan_masked(x, 0.0), axis=axis, dtype=dtype)


def nancumprod(x, axis=None, dtype=None):
    return cumprod(_nan_masked(x, 1.0), axis=axis, dtype=dtype)


def histogram(x, bins=10, range=None):  # noqa: A002
    """Counts of x in `bins` equal-width bins over range (default: x's min and max); returns (counts, edges)."""
    x = convert_to_tensor(x)
    if len(x.shape) != 1:
        raise ValueError(f"Input tensor must be 1-dimensional. Received: input.shape={tuple(x.shape)}")
    if range is None:
        lo, hi = tf.reduce_min(x), tf.reduce_max(x)
    else:
        lo, hi = tf.constant(range[0], x.dtype), tf.constant(range[1], x.dtype)
    edges = linspace(lo, hi, bins + 1, dtype=standardize_dtype(x.dtype))
    inside = tf.logical_and(x >= lo, x <= hi)
    index = tf.searchsorted(edges, tf.boolean_mask(x, inside), side="right") - 1
    index = tf.clip_by_value(index, 0, bins - 1)
    counts = tf.math.bincount(cast(index, "int32"), minlength=bins, maxlength=bins)
    return cast(counts, x.dtype), edges


def median(x, axis=None, keepdims=False):
    return quantile(x, 0.5, axis=axis, keepdims=keepdims)


def quantile(x, q, axis=None, method="linear", keepdims=False):
    """The q-th quantiles (q in [0, 1]) along axis, with numpy's interpolation methods."""
    return _quantile(x, q, axis, method, keepdims, ignore_nan=False)


def nanquantile(x, q, axis=None, method="linear", keepdims=False):
    """quantile over the non-NaN values of each slice (NaN where a slice has none)."""
    return _quantile(x, q, axis, method, keepdims, ignore_nan=True)


def _quantile(x, q, axis, method, keepdims, ignore_nan):
    x = convert_to_tensor(x)
    name = standardize_dtype(x.dtype)
    dtype = config.floatx() if name == "int64" else result_type(name, float)
    x = cast(x, dtype)
    q = convert_to_tensor(q, dtype)
    rank = len(x.shape)
    if axis is None:
        flat, keep_shape = tf.reshape(x, [1, -1]), [1] * rank
    else:
        axes = [a % rank for a in ([axis] if isinstance(axis, int) else axis)]
        other = [a for a in builtins.range(rank) if a not in axes]
        moved = tf.transpose(x, other + axes)
        flat = tf.reshape(moved, [x.shape[a] for a in other] + [-1])
        keep_shape = [1 if a in axes else x.shape[a] for a in builtins.range(rank)]
    nan = tf.math.is_nan(flat)
    if ignore_nan:
        # NaNs sort last as +inf; each slice's quantile positions count its valid values only
        sorted_x = tf.sort(tf.where(nan, tf.constant(np.inf, dtype), flat), axis=-1)
        n = tf.reduce_sum(cast(tf.logical_not(nan), dtype), axis=-1, keepdims=True)
    else:
        sorted_x = tf.sort(flat, axis=-1)
        n = tf.ones_like(sorted_x[..., :1]) * tf.cast(tf.shape(sorted_x)[-1], dtype)
    pos = tf.reshape(q, [-1]) * tf.maximum(n - 1.0, 0.0)  # (..., number of q)
    lo_i, hi_i = tf.floor(pos), tf.math.ceil(pos)
    lo_v = take_along_axis(sorted_x, cast(lo_i, "int32"), axis=-1)
    hi_v = take_along_axis(sorted_x, cast(hi_i, "int32"), axis=-1)
    if method == "linear":
        out = lo_v + (hi_v - lo_v) * (pos - lo_i)
    elif method == "lower":
        out = lo_v
    elif method == "higher":
        out = hi_v
    elif method == "midpoint":
        out = (lo_v + hi_v) / 2.0
    elif method == "nearest":
        out = take_along_axis(sorted_x, cast(tf.round(pos), "int32"), axis=-1)
    else:
        raise ValueError(f"Invalid value for `method`: {method}")
    empty = tf.equal(n, 0.0) if ignore_nan else tf.reduce_any(nan, axis=-1, keepdims=True)
    out = tf.where(tf.broadcast_to(empty, tf.shape(out)), tf.constant(np.nan, dtype), out)
    if axis is None:
        out = out[0]
    out = moveaxis(out, -1, 0)  # the q axis first, as numpy puts it
    if keepdims:
        out = tf.reshape(out, [-1] + keep_shape)
    if len(q.shape) == 0:
        out = out[0]
    return out


def percentile(x, q, axis=None, method="linear", keepdims=False):
    return quantile(x, convert_to_tensor(q, "float32") / 100.0, axis=axis, method=method, keepdims=keepdims)


def nanpercentile(x, q, axis=None, method="linear", keepdims=False):
    return nanquantile(x, convert_to_tensor(q, "float32") / 100.0, axis=axis, method=method, keepdims=keepdims)


def nanmedian(x, axis=None, keepdims=False):
    return nanquantile(x, 0.5, axis=axis, keepdims=keepdims)


def nanargmax(x, axis=None, keepdims=False):
    """argmax ignoring NaN (-1 where a slice is all NaN, as Keras' backends give)."""
    x = convert_to_tensor(x)
    if not x.dtype.is_floating:
        return argmax(x, axis=axis, keepdims=keepdims)
    out = argmax(_nan_masked(x, -np.inf), axis=axis, keepdims=keepdims)
    all_nan = tf.reduce_all(tf.math.is_nan(x), axis=_axis(axis), keepdims=keepdims)
    return tf.where(all_nan, tf.constant(-1, out.dtype), out)


def nanargmin(x, axis=None, keepdims=False):
    x = convert_to_tensor(x)
    if not x.dtype.is_floating:
        return argmin(x, axis=axis, keepdims=keepdims)
    out = argmin(_nan_masked(x, np.inf), axis=axis, keepdims=keepdims)
    all_nan = tf.reduce_all(tf.math.is_nan(x), axis=_axis(axis), keepdims=keepdims)
    return tf.where(all_nan, tf.constant(-1, out.dtype), out)


__all__ = ["all", "amax", "amin", "any", "argmax", "argmin", "average", "count_nonzero", "cumprod", "cumsum",
           "histogram", "max", "mean", "median", "min", "nanargmax", "nanargmin", "nancumprod", "nancumsum", "nanmax",
           "nanmean", "nanmedian", "nanmin", "nanpercentile", "nanprod", "nanquantile", "nanstd", "nansum", "nanvar",
           "percentile", "prod", "ptp", "quantile", "std", "sum", "var"]
