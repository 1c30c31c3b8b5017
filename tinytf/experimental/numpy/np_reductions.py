"""tnp's reductions with NumPy's result dtypes: sum/prod/cumsum/cumprod widen integers and bools to int64,
mean/var/std/average/nanmean turn them into float64, amax/amin keep the dtype (bools too); all/any,
count_nonzero, argmax/argmin (int64), ptp and the nan-skipping sums."""

from __future__ import annotations

import tinytf as tf

from .np_arrays import asarray, promote
from .np_dtypes import is_inexact, result_type, tf_dtype

_TO_INT, _TO_FLOAT = "int", "float"


def _widened(a, promote_int):
    """a cast as NumPy accumulates it: narrow integers and bools to int64 (uint64 for unsigned), or to float64."""
    dtype = a.dtype
    if not (dtype.is_integer or dtype == tf.bool):
        return a
    if promote_int == _TO_INT:
        if dtype == tf.bool or (dtype.is_integer and dtype.size < 8):
            return tf.cast(a, tf.uint64 if dtype.is_unsigned else tf.int64)
        return a
    if promote_int == _TO_FLOAT:
        return tf.cast(a, tf.float64)
    return a


def _axis(axis):
    if isinstance(axis, (list, tuple)):
        return list(axis)
    return axis


def _reduce(fn, a, axis=None, dtype=None, keepdims=None, promote_int=_TO_INT, bool_fn=None, preserve_bool=False):
    dtype = tf_dtype(dtype) if dtype else None
    keepdims = bool(keepdims)
    a = asarray(a, dtype)
    if bool_fn is not None and (dtype == tf.bool or (preserve_bool and a.dtype == tf.bool)):
        return bool_fn(a, axis=_axis(axis), keepdims=keepdims)
    if dtype is None:
        a = _widened(a, promote_int)
    return fn(a, axis=_axis(axis), keepdims=keepdims)


def sum(a, axis=None, dtype=None, keepdims=None):  # noqa: A001 - NumPy's name
    return _reduce(tf.reduce_sum, a, axis, dtype, keepdims, bool_fn=tf.reduce_any)


def prod(a, axis=None, dtype=None, keepdims=None):
    return _reduce(tf.reduce_prod, a, axis, dtype, keepdims, bool_fn=tf.reduce_all)


def mean(a, axis=None, dtype=None, out=None, keepdims=None):
    if out is not None:
        raise ValueError("Setting out is not supported.")
    return _reduce(tf.reduce_mean, a, axis, dtype, keepdims, promote_int=_TO_FLOAT)


def amax(a, axis=None, out=None, keepdims=None):
    if out is not None:
        raise ValueError("Setting out is not supported.")
    return _reduce(tf.reduce_max, a, axis, None, keepdims, promote_int=None, bool_fn=tf.reduce_any,
                   preserve_bool=True)


def amin(a, axis=None, out=None, keepdims=None):
    if out is not None:
        raise ValueError("Setting out is not supported.")
    return _reduce(tf.reduce_min, a, axis, None, keepdims, promote_int=None, bool_fn=tf.reduce_all,
                   preserve_bool=True)


def max(a, axis=None, keepdims=None):  # noqa: A001 - NumPy's name
    return amax(a, axis=axis, keepdims=keepdims)


def min(a, axis=None, keepdims=None):  # noqa: A001 - NumPy's name
    return amin(a, axis=axis, keepdims=keepdims)


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=None):
    """The variance about the mean, divided by n - ddof."""
    if out is not None:
        raise ValueError("Setting out is not supported.")
    working = tf_dtype(dtype) if dtype else None
    if working is not None:
        working = result_type(a, working)

    def reduce_fn(x, axis, keepdims):
        centered = x - tf.reduce_mean(x, axis=axis, keepdims=True)
        squares = tf.math.real(centered * tf.math.conj(centered)) if x.dtype.is_complex else tf.square(centered)
        total = tf.reduce_sum(squares, axis=axis, keepdims=keepdims)
        count = tf.size(x) if axis is None else tf.reduce_prod(tf.gather(tf.shape(x), axis))
        return total / tf.cast(count - ddof, total.dtype)

    result = _reduce(reduce_fn, a, axis, working, keepdims, promote_int=_TO_FLOAT)
    return tf.cast(result, tf_dtype(dtype)) if dtype else result


def std(a, axis=None, keepdims=None):
    return _reduce(tf.math.reduce_std, a, axis, None, keepdims, promote_int=_TO_FLOAT)


def ptp(a, axis=None, keepdims=None):
    """max - min along axis."""
    return amax(a, axis=axis, keepdims=keepdims) - amin(a, axis=axis, keepdims=keepdims)


def all(a, axis=None, keepdims=None):  # noqa: A001 - NumPy's name
    return tf.reduce_all(asarray(a, tf.bool), axis=_axis(axis), keepdims=bool(keepdims))


def any(a, axis=None, keepdims=None):  # noqa: A001 - NumPy's name
    return tf.reduce_any(asarray(a, tf.bool), axis=_axis(axis), keepdims=bool(keepdims))


def count_nonzero(a, axis=None):
    """The number of nonzero entries (int64)."""
    return tf.math.count_nonzero(asarray(a), axis=_axis(axis), dtype=tf.int64)


def _cumulative(fn, a, axis, dtype):
    a = asarray(a, tf_dtype(dtype) if dtype else None)
    if dtype is None:
        a = _widened(a, _TO_INT)
    if axis is None:
        a, axis = tf.reshape(a, [-1]), 0
    return fn(a, axis=axis)


def cumsum(a, axis=None, dtype=None):
    return _cumulative(tf.math.cumsum, a, axis, dtype)


def cumprod(a, axis=None, dtype=None):
    return _cumulative(tf.math.cumprod, a, axis, dtype)


def _arg(fn, a, axis):
    a = asarray(a)
    if a.dtype == tf.bool:
        a = tf.cast(a, tf.int8)
    if axis is None:
        a, axis = tf.reshape(a, [-1]), 0
    return fn(a, axis=axis, output_type=tf.int64)


def argmax(a, axis=None):
    return _arg(tf.argmax, a, axis)


def argmin(a, axis=None):
    return _arg(tf.argmin, a, axis)


def average(a, axis=None, weights=None, returned=False):
    """The (weighted) mean along axis; with returned also the sum of the weights."""
    if axis is not None and not isinstance(axis, int):
        raise ValueError(f"Argument `axis` must be an integer. Received axis={axis} (of type {type(axis)})")
    a = asarray(a)
    if weights is None:
        avg = mean(a, axis=axis)
        if not returned:
            return avg
        count = tf.size(a) if axis is None else tf.shape(a)[axis]
        return avg, tf.cast(tf.broadcast_to(count, tf.shape(avg)), avg.dtype)
    a, weights = promote(a, weights)
    if not is_inexact(a.dtype):
        a, weights = tf.cast(a, tf.float64), tf.cast(weights, tf.float64)
    if axis is None:
        total = tf.reduce_sum(a * weights)
        weight_sum = tf.reduce_sum(tf.broadcast_to(weights, tf.shape(a)))
    elif len(weights.shape) == 1 and len(a.shape) > 1:
        total = tf.tensordot(a, weights, axes=[[axis], [0]])
        weight_sum = tf.reduce_sum(weights)
    else:
        total = tf.reduce_sum(a * weights, axis)
        weight_sum = tf.reduce_sum(tf.broadcast_to(weights, tf.shape(a)), axis)
    avg = total / weight_sum
    if returned:
        return avg, tf.broadcast_to(weight_sum, tf.shape(avg))
    return avg


def _nan_reduction(reduction, fill):
    def nan_reduce(a, axis=None, dtype=None, keepdims=False):
        a = asarray(a)
        if is_inexact(a.dtype):
            a = tf.where(tf.math.is_nan(a), tf.constant(fill, a.dtype), a)
        return reduction(a, axis=axis, dtype=dtype, keepdims=keepdims)
    return nan_reduce


nansum = _nan_reduction(sum, 0)
nanprod = _nan_reduction(prod, 1)


def nanmean(a, axis=None, dtype=None, keepdims=None):
    """The mean of the non-NaN entries."""
    a = asarray(a)
    if not is_inexact(a.dtype):
        return mean(a, axis=axis, dtype=dtype, keepdims=keepdims)
    present = tf.logical_not(tf.math.is_nan(a))
    total = nansum(a, axis=axis, dtype=dtype, keepdims=keepdims)
    count = sum(present, axis=axis, dtype=total.dtype, keepdims=keepdims)
    return total / count


def trace(a, offset=0, axis1=0, axis2=1, dtype=None):
    """The sum along the `offset` diagonal of the axis1/axis2 planes (in a's dtype: TF's tnp does not widen)."""
    from .np_shapes import diagonal
    if dtype:
        a = asarray(a, dtype)
    return tf.reduce_sum(diagonal(a, offset, axis1, axis2), -1)


__all__ = ["sum", "prod", "mean", "amax", "amin", "max", "min", "var", "std", "ptp", "all", "any",
           "count_nonzero", "cumsum", "cumprod", "argmax", "argmin", "average", "nansum", "nanprod", "nanmean",
           "trace"]
