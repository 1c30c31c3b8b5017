"""tnp.random: NumPy-style sampling (seed, rand, randn, random, uniform, standard_normal, randint, poisson) on
tinytf's global generator (tf.random's ops, so seeds give TF's draws); floats are float64 whatever prefer_float32
says, as TF's tnp draws them."""

from __future__ import annotations

import tinytf as tf

from .np_arrays import asarray
from .np_dtypes import tf_dtype


def seed(s):
    """Seed tnp's random functions (tf.random.set_seed underneath)."""
    tf.random.set_seed(int(s))


def _shape(size):
    if size is None:
        return []
    return [size] if isinstance(size, int) else list(size)


def standard_normal(size=None):
    return tf.random.normal(_shape(size), dtype=tf.float64)


def randn(*args):
    return standard_normal(args)


def uniform(low=0.0, high=1.0, size=None):
    """Samples from [low, high) (low and high broadcast against size)."""
    low = asarray(low, tf.float64)
    high = asarray(high, tf.float64)
    shape = _shape(size) if size is not None else tf.broadcast_dynamic_shape(tf.shape(low), tf.shape(high))
    return tf.random.uniform(shape, minval=low, maxval=high, dtype=tf.float64)


def random(size=None):
    return uniform(0.0, 1.0, size)


def rand(*size):
    return uniform(0.0, 1.0, size)


def randint(low, high=None, size=None, dtype="int64"):
    """Integers from [low, high) (or [0, low))."""
    dtype = tf_dtype(dtype)
    if dtype not in (tf.int32, tf.int64):
        raise ValueError(f"Argument `dtype` got an invalid value {dtype}. Only those convertible to "
                         "(<class 'numpy.int32'>, <class 'numpy.int64'>) are supported.")
    low = int(low)
    if high is None:
        low, high = 0, low
    return tf.random.uniform(_shape(size), minval=low, maxval=high, dtype=dtype)


def poisson(lam=1.0, size=None):
    """Poisson(lam) counts (int64) by inversion of one uniform draw each: k is the first count whose CDF reaches
    the draw. Correct in distribution, but not TF's stream of values (TF has a dedicated sampler op)."""
    lam = tf.cast(lam, tf.float64)
    u = tf.random.uniform(_shape(size), dtype=tf.float64)
    pmf = tf.exp(-lam) + tf.zeros_like(u)
    cdf = pmf
    k = tf.zeros_like(u)

    def step(k, pmf, cdf):
        below = cdf < u
        k_next = k + 1.0
        pmf = tf.where(below, pmf * lam / k_next, pmf)
        return tf.where(below, k_next, k), pmf, tf.where(below, cdf + pmf, cdf)

    def more(k, pmf, cdf):  # stop when every draw is reached (or the CDF stalls in float64 rounding)
        return tf.reduce_any(tf.logical_and(cdf < u, pmf > 0))

    k, _, _ = tf.while_loop(more, step, (k, pmf, cdf))
    return tf.cast(k, tf.int64)


__all__ = ["seed", "standard_normal", "randn", "uniform", "random", "rand", "randint", "poisson"]
