"""Dirichlet(concentration): TF 2.21's tf.compat.v1.distributions.Dirichlet over the (K-1)-simplex (the last
axis is the event); samples are normalized gamma draws (seeded draws equal TF's)."""

from __future__ import annotations

import numpy as np

import tinytf as tf

from . import kullback_leibler
from .distribution import FULLY_REPARAMETERIZED, Distribution, scope
from .util import identity_after


class Dirichlet(Distribution):
    """Density prod(x_k^(c_k - 1)) / B(c) on vectors x >= 0 summing to 1."""

    def __init__(self, concentration, validate_args=False, allow_nan_stats=True, name="Dirichlet"):
        parameters = dict(locals())
        with scope(name) as name:
            self._concentration = self._maybe_assert_valid_concentration(
                tf.convert_to_tensor(concentration, name="concentration"), validate_args)
            self._total_concentration = tf.reduce_sum(self._concentration, -1)
        super().__init__(dtype=self._concentration.dtype, validate_args=validate_args,
                         allow_nan_stats=allow_nan_stats, reparameterization_type=FULLY_REPARAMETERIZED,
                         parameters=parameters, graph_parents=[self._concentration, self._total_concentration],
                         name=name)

    @property
    def concentration(self):
        return self._concentration

    @property
    def total_concentration(self):
        return self._total_concentration

    def _batch_shape_tensor(self):
        return tf.shape(self.total_concentration)

    def _batch_shape(self):
        return self.total_concentration.shape

    def _event_shape_tensor(self):
        return tf.shape(self.concentration)[-1:]

    def _event_shape(self):
        shape = self.concentration.shape
        return tf.TensorShape([None]) if shape.rank is None else shape[-1:]

    def _sample_n(self, n, seed=None):
        gamma_sample = tf.random.gamma(shape=[n], alpha=self.concentration, dtype=self.dtype, seed=seed)
        return gamma_sample / tf.reduce_sum(gamma_sample, -1, keepdims=True)

    def _log_prob(self, x):
        return self._log_unnormalized_prob(x) - self._log_normalization()

    def _prob(self, x):
        return tf.exp(self._log_prob(x))

    def _log_unnormalized_prob(self, x):
        x = self._maybe_assert_valid_sample(x)
        return tf.reduce_sum(tf.math.xlogy(self.concentration - 1.0, x), -1)

    def _log_normalization(self):
        return tf.math.lbeta(self.concentration)

    def _k(self):
        return tf.cast(self.event_shape_tensor()[0], self.dtype)

    def _entropy(self):
        return (self._log_normalization()
                + (self.total_concentration - self._k()) * tf.math.digamma(self.total_concentration)
                - tf.reduce_sum((self.concentration - 1.0) * tf.math.digamma(self.concentration), axis=-1))

    def _mean(self):
        return self.concentration / self.total_concentration[..., tf.newaxis]

    def _covariance(self):
        x = self._variance_scale_term() * self._mean()
        return tf.linalg.set_diag(-tf.matmul(x[..., tf.newaxis], x[..., tf.newaxis, :]), self._variance())

    def _variance(self):
        scale = self._variance_scale_term()
        x = scale * self._mean()
        return x * (scale - x)

    def _variance_scale_term(self):
        return tf.math.rsqrt(1.0 + self.total_concentration[..., tf.newaxis])

    def _mode(self):
        """(c - 1) / (sum(c) - K) where every concentration exceeds 1. As in TF, the per-batch condition is
        broadcast against the [..., K] mode from the right."""
        mode = (self.concentration - 1.0) / (self.total_concentration[..., tf.newaxis] - self._k())
        if self.allow_nan_stats:
            nan = tf.fill(tf.shape(mode), np.array(np.nan, dtype=self.dtype.as_numpy_dtype))
            return tf.where(tf.reduce_all(self.concentration > 1.0, axis=-1), mode, nan)
        return identity_after([tf.debugging.assert_less(tf.ones([], self.dtype), self.concentration,
                                                        message="Mode undefined when any concentration <= 1")],
                              mode, "mode")

    @staticmethod
    def _maybe_assert_valid_concentration(concentration, validate_args):
        if not validate_args:
            return concentration
        return identity_after([
            tf.debugging.assert_positive(concentration, message="Concentration parameter must be positive."),
            tf.debugging.assert_rank_at_least(concentration, 1,
                                              message="Concentration parameter must have >=1 dimensions."),
            tf.debugging.assert_less(1, tf.shape(concentration)[-1],
                                     message="Concentration parameter must have event_size >= 2.")],
            concentration, "concentration")

    def _maybe_assert_valid_sample(self, x):
        if not self.validate_args:
            return x
        return identity_after([
            tf.debugging.assert_positive(x, message="samples must be positive"),
            tf.debugging.assert_near(tf.ones([], dtype=self.dtype), tf.reduce_sum(x, -1),
                                     message="sample last-dimension must sum to `1`")], x, "x")


@kullback_leibler.RegisterKL(Dirichlet, Dirichlet)
def _kl_dirichlet_dirichlet(d1, d2, name=None):
    digamma_sum_d1 = tf.math.digamma(tf.reduce_sum(d1.concentration, axis=-1, keepdims=True))
    digamma_diff = tf.math.digamma(d1.concentration) - digamma_sum_d1
    concentration_diff = d1.concentration - d2.concentration
    return (tf.reduce_sum(concentration_diff * digamma_diff, axis=-1) - tf.math.lbeta(d1.concentration)
            + tf.math.lbeta(d2.concentration))
