"""DirichletMultinomial(total_count, concentration): TF 2.21's tf.compat.v1.distributions.DirichletMultinomial,
a Multinomial whose class probabilities are Dirichlet(concentration) draws. Samples: gamma draws as logits,
then total_count categorical draws (seeded by gen_new_seed(seed, "dirichlet_multinomial"), as TF)."""

from __future__ import annotations

import tinytf as tf

from .distribution import NOT_REPARAMETERIZED, Distribution, scope
from .util import (
    check_categorical_event_shape,
    check_nonnegative_integer_form,
    gen_new_seed,
    identity_after,
    log_combinations,
)


class DirichletMultinomial(Distribution):
    """P(counts) = n! / prod(counts!) * B(c + counts) / B(c)."""

    def __init__(self, total_count, concentration, validate_args=False, allow_nan_stats=True,
                 name="DirichletMultinomial"):
        parameters = dict(locals())
        with scope(name) as name:
            self._total_count = tf.convert_to_tensor(total_count, name="total_count")
            if validate_args:
                self._total_count = check_nonnegative_integer_form(self._total_count)
            self._concentration = self._maybe_assert_valid_concentration(
                tf.convert_to_tensor(concentration, name="concentration"), validate_args)
            self._total_concentration = tf.reduce_sum(self._concentration, -1)
        super().__init__(dtype=self._concentration.dtype, validate_args=validate_args,
                         allow_nan_stats=allow_nan_stats, reparameterization_type=NOT_REPARAMETERIZED,
                         parameters=parameters, graph_parents=[self._total_count, self._concentration], name=name)

    @property
    def total_count(self):
        return self._total_count

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
        return self.concentration.shape[-1:]

    def _sample_n(self, n, seed=None):
        n_draws = tf.cast(self.total_count, dtype=tf.int32)
        k = self.event_shape_tensor()[0]
        unnormalized_logits = tf.reshape(
            tf.math.log(tf.random.gamma(shape=[n], alpha=self.concentration, dtype=self.dtype, seed=seed)),
            shape=[-1, k])
        draws = tf.random.categorical(logits=unnormalized_logits, num_samples=n_draws,
                                      seed=gen_new_seed(seed, salt="dirichlet_multinomial"))
        x = tf.reduce_sum(tf.one_hot(draws, depth=k), -2)
        x = tf.reshape(x, tf.concat([[n], self.batch_shape_tensor(), [k]], 0))
        return tf.cast(x, self.dtype)

    def _log_prob(self, counts):
        counts = self._maybe_assert_valid_sample(counts)
        ordered_prob = tf.math.lbeta(self.concentration + counts) - tf.math.lbeta(self.concentration)
        return ordered_prob + log_combinations(self.total_count, counts)

    def _prob(self, counts):
        return tf.exp(self._log_prob(counts))

    def _mean(self):
        return self.total_count * (self.concentration / self.total_concentration[..., tf.newaxis])

    def _covariance(self):
        x = self._variance_scale_term() * self._mean()
        return tf.linalg.set_diag(-tf.matmul(x[..., tf.newaxis], x[..., tf.newaxis, :]), self._variance())

    def _variance(self):
        scale = self._variance_scale_term()
        x = scale * self._mean()
        return x * (self.total_count * scale - x)

    def _variance_scale_term(self):
        c0 = self.total_concentration[..., tf.newaxis]
        return tf.sqrt((1.0 + c0 / self.total_count) / (1.0 + c0))

    @staticmethod
    def _maybe_assert_valid_concentration(concentration, validate_args):
        if not validate_args:
            return concentration
        concentration = check_categorical_event_shape(concentration)
        return identity_after([tf.debugging.assert_positive(
            concentration, message="Concentration parameter must be positive.")], concentration, "concentration")

    def _maybe_assert_valid_sample(self, counts):
        if not self.validate_args:
            return counts
        counts = check_nonnegative_integer_form(counts)
        return identity_after([tf.debugging.assert_equal(
            self.total_count, tf.reduce_sum(counts, -1),
            message="counts last-dimension must sum to `self.total_count`")], counts, "counts")
