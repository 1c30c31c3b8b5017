"""Multinomial(total_count, logits= | probs=): TF 2.21's tf.compat.v1.distributions.Multinomial, counts of
total_count draws over K classes (the last axis is the event). Samples draw total_count classes per batch
member with the multinomial op and count them."""

from __future__ import annotations

import tinytf as tf

from .distribution import NOT_REPARAMETERIZED, Distribution, scope
from .util import check_nonnegative_integer_form, get_logits_and_probs, identity_after, log_combinations


class Multinomial(Distribution):
    """P(counts) = n! / prod(counts!) * prod(probs^counts)."""

    def __init__(self, total_count, logits=None, probs=None, validate_args=False, allow_nan_stats=True,
                 name="Multinomial"):
        parameters = dict(locals())
        with scope(name) as name:
            self._total_count = tf.convert_to_tensor(total_count, name="total_count")
            if validate_args:
                self._total_count = check_nonnegative_integer_form(self._total_count)
            self._logits, self._probs = get_logits_and_probs(logits=logits, probs=probs, multidimensional=True,
                                                             validate_args=validate_args)
            self._mean_val = self._total_count[..., tf.newaxis] * self._probs
        super().__init__(dtype=self._probs.dtype, reparameterization_type=NOT_REPARAMETERIZED,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats, parameters=parameters,
                         graph_parents=[self._total_count, self._logits, self._probs], name=name)

    @property
    def total_count(self):
        return self._total_count

    @property
    def logits(self):
        return self._logits

    @property
    def probs(self):
        return self._probs

    def _batch_shape_tensor(self):
        return tf.shape(self._mean_val)[:-1]

    def _batch_shape(self):
        return self._mean_val.shape[:-1]

    def _event_shape_tensor(self):
        return tf.shape(self._mean_val)[-1:]

    def _event_shape(self):
        return self._mean_val.shape[-1:]

    def _sample_n(self, n, seed=None):
        """Per batch member (tf.map_fn, as TF): n * total_count class draws, one-hot counted per sample."""
        n_draws = tf.cast(self.total_count, dtype=tf.int32)
        k = self.event_shape_tensor()[0]
        n_draws = tf.ones_like(self.logits[..., 0], dtype=n_draws.dtype) * n_draws
        logits = tf.ones_like(n_draws[..., tf.newaxis], dtype=self.logits.dtype) * self.logits
        flat_logits = tf.reshape(logits, [-1, k])
        flat_ndraws = n * tf.reshape(n_draws, [-1])

        def sample_single(args):
            member_logits, n_draw = args
            x = tf.random.categorical(member_logits[tf.newaxis, ...], n_draw, seed=seed)
            x = tf.reshape(x, shape=[n, -1])
            return tf.reduce_sum(tf.one_hot(x, depth=k, dtype=self.dtype), axis=-2)

        x = tf.map_fn(sample_single, [flat_logits, flat_ndraws], fn_output_signature=self.dtype)
        x = tf.transpose(x, perm=[1, 0, 2])
        return tf.reshape(x, tf.concat([[n], self.batch_shape_tensor(), [k]], 0))

    def _log_prob(self, counts):
        return self._log_unnormalized_prob(counts) - self._log_normalization(counts)

    def _log_unnormalized_prob(self, counts):
        counts = self._maybe_assert_valid_sample(counts)
        return tf.reduce_sum(counts * tf.nn.log_softmax(self.logits), -1)

    def _log_normalization(self, counts):
        counts = self._maybe_assert_valid_sample(counts)
        return -log_combinations(self.total_count, counts)

    def _mean(self):
        return tf.identity(self._mean_val)

    def _covariance(self):
        p = self.probs * tf.ones_like(self.total_count)[..., tf.newaxis]
        return tf.linalg.set_diag(-tf.matmul(self._mean_val[..., tf.newaxis], p[..., tf.newaxis, :]),
                                  self._variance())

    def _variance(self):
        p = self.probs * tf.ones_like(self.total_count)[..., tf.newaxis]
        return self._mean_val - self._mean_val * p

    def _maybe_assert_valid_sample(self, counts):
        if not self.validate_args:
            return counts
        counts = check_nonnegative_integer_form(counts)
        return identity_after([tf.debugging.assert_equal(self.total_count, tf.reduce_sum(counts, -1),
                                                         message="counts must sum to `self.total_count`")],
                              counts, "counts")
