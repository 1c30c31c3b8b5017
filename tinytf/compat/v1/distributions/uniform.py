"""Uniform(low, high): TF 2.21's tf.compat.v1.distributions.Uniform, on [low, high) (prob is 0 at `high`).
Samples are low + (high - low) * U(0, 1): differentiable in both bounds."""

from __future__ import annotations

import math

import tinytf as tf

from .scalar_pair import ScalarPair


class Uniform(ScalarPair):
    """The uniform distribution on [low, high)."""

    _names = ("low", "high")
    _dtype_index = 0

    def __init__(self, low=0.0, high=1.0, validate_args=False, allow_nan_stats=True, name="Uniform"):
        parameters = dict(locals())
        self._low, self._high = self._init_pair(
            low, high, lambda: [tf.debugging.assert_less(low, high, message="uniform not defined when low >= high.")],
            parameters, validate_args, allow_nan_stats, name)

    @property
    def low(self):
        return self._low

    @property
    def high(self):
        return self._high

    def range(self, name="range"):
        """high - low."""
        with self._name_scope(name):
            return self.high - self.low

    def _sample_n(self, n, seed=None):
        shape = tf.concat([[n], self.batch_shape_tensor()], 0)
        samples = tf.random.uniform(shape=shape, dtype=self.dtype, seed=seed)
        return self.low + self.range() * samples

    def _prob(self, x):
        broadcasted_x = x * tf.ones(self.batch_shape_tensor(), dtype=x.dtype)
        inside = tf.where(tf.logical_or(broadcasted_x < self.low, broadcasted_x >= self.high),
                          tf.zeros_like(broadcasted_x), tf.ones_like(broadcasted_x) / self.range())
        return tf.where(tf.math.is_nan(broadcasted_x), broadcasted_x, inside)

    def _cdf(self, x):
        shape = tf.broadcast_dynamic_shape(tf.shape(x), self.batch_shape_tensor())
        zeros = tf.zeros(shape, dtype=self.dtype)
        ones = tf.ones(shape, dtype=self.dtype)
        result_if_not_big = tf.where(x < self.low, zeros, (x * ones - self.low) / self.range())
        return tf.where(x >= self.high, ones, result_if_not_big)

    def _entropy(self):
        return tf.math.log(self.range())

    def _mean(self):
        return (self.low + self.high) / 2.0

    def _variance(self):
        return tf.square(self.range()) / 12.0

    def _stddev(self):
        return self.range() / math.sqrt(12.0)
