"""The normal and Laplace distribution functions of TF 2.21's distributions/special_math.py, written with
tinytf ops (so they are differentiable and work in graphs): ndtr through erf/erfc by region, and log_ndtr with
its asymptotic series below -20 (float64) / -10 (float32), where log(ndtr(x)) would underflow."""

from __future__ import annotations

import numpy as np

import tinytf as tf

_LOWER = {"float64": -20.0, "float32": -10.0}
_UPPER = {"float64": 8.0, "float32": 5.0}


def _float_input(x, what):
    x = tf.convert_to_tensor(x, name="x")
    if x.dtype not in (tf.float32, tf.float64):
        raise TypeError(f"{what}.dtype={x.dtype} is not handled, see docstring for supported types.")
    return x


def ndtr(x, name="ndtr"):
    """The standard normal CDF: 0.5 * (1 + erf(x / sqrt 2)) near 0, erfc-based in the tails (no cancellation)."""
    return _ndtr(_float_input(x, "x"))


def _ndtr(x):
    half_sqrt_2 = tf.constant(0.5 * np.sqrt(2.0), dtype=x.dtype)
    w = x * half_sqrt_2
    z = tf.abs(w)
    y = tf.where(z < half_sqrt_2, 1.0 + tf.math.erf(w),
                 tf.where(w > 0.0, 2.0 - tf.math.erfc(z), tf.math.erfc(z)))
    return 0.5 * y


def ndtri(p, name="ndtri"):
    return tf.math.ndtri(_float_input(p, "p"))


def log_ndtr(x, series_order=3, name="log_ndtr"):
    """log of the standard normal CDF, accurate far into the lower tail."""
    if not isinstance(series_order, int):
        raise TypeError("series_order must be a Python integer.")
    if series_order < 0:
        raise ValueError("series_order must be non-negative.")
    if series_order > 30:
        raise ValueError("series_order must be <= 30.")
    x = tf.convert_to_tensor(x, name="x")
    if x.dtype not in (tf.float32, tf.float64):
        raise TypeError(f"x.dtype={x.dtype} is not supported.")
    lower = tf.constant(_LOWER[x.dtype.name], x.dtype)
    upper = tf.constant(_UPPER[x.dtype.name], x.dtype)
    # each branch sees only inputs of its region, so no branch makes a NaN/inf that a gradient would carry
    return tf.where(x > upper, -_ndtr(-x),
                    tf.where(x > lower, tf.math.log(_ndtr(tf.maximum(x, lower))),
                             _log_ndtr_lower(tf.minimum(x, lower), series_order)))


def _log_ndtr_lower(x, series_order):
    log_scale = -0.5 * tf.square(x) - tf.math.log(-x) - 0.5 * np.log(2.0 * np.pi)
    return log_scale + tf.math.log(_asymptotic_series(x, series_order))


def _asymptotic_series(x, series_order):
    dtype = x.dtype.as_numpy_dtype
    if series_order <= 0:
        return np.array(1, dtype)
    x_2 = tf.square(x)
    even_sum = tf.zeros_like(x)
    odd_sum = tf.zeros_like(x)
    x_2n = x_2
    for n in range(1, series_order + 1):
        y = np.array(np.prod(np.arange(2 * n - 1, 1, -2)), dtype) / x_2n
        if n % 2:
            odd_sum += y
        else:
            even_sum += y
        x_2n *= x_2
    return 1.0 + even_sum - odd_sum


def log_cdf_laplace(x, name="log_cdf_laplace"):
    """log of the standard Laplace CDF: x - log 2 below 0, log1p(-exp(-x) / 2) above (no cancellation)."""
    x = tf.convert_to_tensor(x, name="x")
    lower_solution = -np.log(2.0) + x
    upper_solution = tf.math.log1p(-0.5 * tf.exp(-tf.abs(x)))
    return tf.where(x < 0.0, lower_solution, upper_solution)
