"""Gamma(concentration, rate): TF 2.21's tf.compat.v1.distributions.Gamma (density
rate^a x^(a-1) e^(-rate x) / Gamma(a)); samples come from the random_gamma op (seeded draws equal TF's)."""

from __future__ import annotations

import numpy as np

import tinytf as tf

from . import kullback_leibler
from .distribution import FULLY_REPARAMETERIZED, Distribution, same_float_dtype, scope
from .util import broadcast_shape_tensor, broadcast_static, identity_after, with_checks


class Gamma(Distribution):
    """The gamma distribution with shape `concentration` and inverse scale `rate`."""

    def __init__(self, concentration, rate, validate_args=False, allow_nan_stats=True, name="Gamma"):
        parameters = dict(locals())
        with scope(name) as name:
            checks = ([tf.debugging.assert_positive(concentration), tf.debugging.assert_positive(rate)]
                      if validate_args else [])

            def params():
                return tf.identity(concentration, name="concentration"), tf.identity(rate, name="rate")

            self._concentration, self._rate = with_checks(checks, params)
            same_float_dtype(self._concentration, self._rate)
        super().__init__(dtype=self._concentration.dtype, validate_args=validate_args,
                         allow_nan_stats=allow_nan_stats, reparameterization_type=FULLY_REPARAMETERIZED,
                         parameters=parameters, graph_parents=[self._concentration, self._rate], name=name)

    @staticmethod
    def _param_shapes(sample_shape):
        shape = tf.convert_to_tensor(sample_shape, dtype=tf.int32)
        return {"concentration": shape, "rate": shape}

    @property
    def concentration(self):
        return self._concentration

    @property
    def rate(self):
        return self._rate

    def _batch_shape_tensor(self):
        return broadcast_shape_tensor(self.concentration, self.rate)

    def _batch_shape(self):
        return broadcast_static(self.concentration, self.rate)

    def _event_shape_tensor(self):
        return tf.constant([], dtype=tf.int32)

    def _event_shape(self):
        return tf.TensorShape([])

    def _sample_n(self, n, seed=None):
        return tf.random.gamma(shape=[n], alpha=self.concentration, beta=self.rate, dtype=self.dtype, seed=seed)

    def _log_prob(self, x):
        return self._log_unnormalized_prob(x) - self._log_normalization()

    def _cdf(self, x):
        x = self._maybe_assert_valid_sample(x)
        return tf.math.igamma(self.concentration, self.rate * x)

    def _log_unnormalized_prob(self, x):
        x = self._maybe_assert_valid_sample(x)
        return tf.math.xlogy(self.concentration - 1.0, x) - self.rate * x

    def _log_normalization(self):
        return tf.math.lgamma(self.concentration) - self.concentration * tf.math.log(self.rate)

    def _entropy(self):
        return (self.concentration - tf.math.log(self.rate) + tf.math.lgamma(self.concentration)
                + (1.0 - self.concentration) * tf.math.digamma(self.concentration))

    def _mean(self):
        return self.concentration / self.rate

    def _variance(self):
        return self.concentration / tf.square(self.rate)

    def _stddev(self):
        return tf.sqrt(self.concentration) / self.rate

    def _mode(self):
        """(concentration - 1) / rate where concentration > 1; NaN elsewhere, or an error without
        allow_nan_stats."""
        mode = (self.concentration - 1.0) / self.rate
        if self.allow_nan_stats:
            nan = tf.fill(self.batch_shape_tensor(), np.array(np.nan, dtype=self.dtype.as_numpy_dtype))
            return tf.where(self.concentration > 1.0, mode, nan)
        check = tf.debugging.assert_less(tf.ones([], self.dtype), self.concentration,
                                         message="mode not defined when any concentration <= 1")
        return identity_after([check], mode, "mode")

    def _maybe_assert_valid_sample(self, x):
        tf.debugging.assert_same_float_dtype(tensors=[x], dtype=self.dtype)
        if not self.validate_args:
            return x
        return identity_after([tf.debugging.assert_positive(x)], x, "x")


@kullback_leibler.RegisterKL(Gamma, Gamma)
def _kl_gamma_gamma(g0, g1, name=None):
    return ((g0.concentration - g1.concentration) * tf.math.digamma(g0.concentration)
            + tf.math.lgamma(g1.concentration) - tf.math.lgamma(g0.concentration)
            + g1.concentration * tf.math.log(g0.rate) - g1.concentration * tf.math.log(g1.rate)
            + g0.concentration * (g1.rate / g0.rate - 1.0))
