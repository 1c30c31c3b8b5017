"""Beta(concentration1, concentration0): TF 2.21's tf.compat.v1.distributions.Beta on [0, 1]; samples are
G1 / (G1 + G0) of two gamma draws (the second seeded by gen_new_seed(seed, "beta"), as TF)."""

from __future__ import annotations

import numpy as np

import tinytf as tf

from . import kullback_leibler
from .distribution import FULLY_REPARAMETERIZED, Distribution, same_float_dtype, scope
from .util import gen_new_seed, identity_after


class Beta(Distribution):
    """Density x^(c1 - 1) (1 - x)^(c0 - 1) / B(c1, c0)."""

    def __init__(self, concentration1=None, concentration0=None, validate_args=False, allow_nan_stats=True,
                 name="Beta"):
        parameters = dict(locals())
        with scope(name) as name:
            self._concentration1 = self._maybe_assert_valid_concentration(
                tf.convert_to_tensor(concentration1, name="concentration1"), validate_args)
            self._concentration0 = self._maybe_assert_valid_concentration(
                tf.convert_to_tensor(concentration0, name="concentration0"), validate_args)
            same_float_dtype(self._concentration1, self._concentration0)
            self._total_concentration = self._concentration1 + self._concentration0
        super().__init__(dtype=self._total_concentration.dtype, validate_args=validate_args,
                         allow_nan_stats=allow_nan_stats, reparameterization_type=FULLY_REPARAMETERIZED,
                         parameters=parameters,
                         graph_parents=[self._concentration1, self._concentration0, self._total_concentration],
                         name=name)

    @staticmethod
    def _param_shapes(sample_shape):
        shape = tf.convert_to_tensor(sample_shape, dtype=tf.int32)
        return {"concentration1": shape, "concentration0": shape}

    @property
    def concentration1(self):
        return self._concentration1

    @property
    def concentration0(self):
        return self._concentration0

    @property
    def total_concentration(self):
        return self._total_concentration

    def _batch_shape_tensor(self):
        return tf.shape(self.total_concentration)

    def _batch_shape(self):
        return self.total_concentration.shape

    def _event_shape_tensor(self):
        return tf.constant([], dtype=tf.int32)

    def _event_shape(self):
        return tf.TensorShape([])

    def _sample_n(self, n, seed=None):
        ones = tf.ones_like(self.total_concentration, dtype=self.dtype)
        gamma1 = tf.random.gamma(shape=[n], alpha=ones * self.concentration1, dtype=self.dtype, seed=seed)
        gamma2 = tf.random.gamma(shape=[n], alpha=ones * self.concentration0, dtype=self.dtype,
                                 seed=gen_new_seed(seed, "beta"))
        return gamma1 / (gamma1 + gamma2)

    def _log_prob(self, x):
        return self._log_unnormalized_prob(x) - self._log_normalization()

    def _prob(self, x):
        return tf.exp(self._log_prob(x))

    def _log_cdf(self, x):
        return tf.math.log(self._cdf(x))

    def _cdf(self, x):
        return tf.math.betainc(self.concentration1, self.concentration0, x)

    def _log_unnormalized_prob(self, x):
        x = self._maybe_assert_valid_sample(x)
        return tf.math.xlogy(self.concentration1 - 1.0, x) + (self.concentration0 - 1.0) * tf.math.log1p(-x)

    def _log_normalization(self):
        return (tf.math.lgamma(self.concentration1) + tf.math.lgamma(self.concentration0)
                - tf.math.lgamma(self.total_concentration))

    def _entropy(self):
        return (self._log_normalization()
                - (self.concentration1 - 1.0) * tf.math.digamma(self.concentration1)
                - (self.concentration0 - 1.0) * tf.math.digamma(self.concentration0)
                + (self.total_concentration - 2.0) * tf.math.digamma(self.total_concentration))

    def _mean(self):
        return self._concentration1 / self._total_concentration

    def _variance(self):
        return self._mean() * (1.0 - self._mean()) / (1.0 + self.total_concentration)

    def _mode(self):
        """(c1 - 1) / (c1 + c0 - 2) where both concentrations exceed 1; NaN (or an error) elsewhere."""
        mode = (self.concentration1 - 1.0) / (self.total_concentration - 2.0)
        if self.allow_nan_stats:
            nan = tf.fill(self.batch_shape_tensor(), np.array(np.nan, dtype=self.dtype.as_numpy_dtype))
            is_defined = tf.logical_and(self.concentration1 > 1.0, self.concentration0 > 1.0)
            return tf.where(is_defined, mode, nan)
        one = tf.ones([], dtype=self.dtype)
        return identity_after([
            tf.debugging.assert_less(one, self.concentration1, message="Mode undefined for concentration1 <= 1."),
            tf.debugging.assert_less(one, self.concentration0, message="Mode undefined for concentration0 <= 1.")],
            mode, "mode")

    @staticmethod
    def _maybe_assert_valid_concentration(concentration, validate_args):
        if not validate_args:
            return concentration
        return identity_after([tf.debugging.assert_positive(
            concentration, message="Concentration parameter must be positive.")], concentration, "concentration")

    def _maybe_assert_valid_sample(self, x):
        if not self.validate_args:
            return x
        return identity_after([tf.debugging.assert_positive(x, message="sample must be positive"),
                               tf.debugging.assert_less(x, tf.ones([], self.dtype),
                                                        message="sample must be less than `1`.")], x, "x")


@kullback_leibler.RegisterKL(Beta, Beta)
def _kl_beta_beta(d1, d2, name=None):
    return (d2._log_normalization() - d1._log_normalization()
            - tf.math.digamma(d1.concentration1) * (d2.concentration1 - d1.concentration1)
            - tf.math.digamma(d1.concentration0) * (d2.concentration0 - d1.concentration0)
            + tf.math.digamma(d1.total_concentration) * (d2.total_concentration - d1.total_concentration))
