"""Bernoulli(logits= | probs=): TF 2.21's tf.compat.v1.distributions.Bernoulli; samples of `dtype` (int32 by
default) drawn as U(0, 1) < probs, so seeded draws equal TF's."""

from __future__ import annotations

import tinytf as tf
from tinytf.runtime import dtypes

from . import kullback_leibler
from .distribution import NOT_REPARAMETERIZED, Distribution, scope
from .util import check_integer_event, get_logits_and_probs


class Bernoulli(Distribution):
    """A {0, 1} event with P(1) = probs = sigmoid(logits)."""

    def __init__(self, logits=None, probs=None, dtype=dtypes.int32, validate_args=False, allow_nan_stats=True,
                 name="Bernoulli"):
        parameters = dict(locals())
        with scope(name) as name:
            self._logits, self._probs = get_logits_and_probs(logits=logits, probs=probs,
                                                             validate_args=validate_args)
        super().__init__(dtype=tf.as_dtype(dtype), reparameterization_type=NOT_REPARAMETERIZED,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats, parameters=parameters,
                         graph_parents=[self._logits, self._probs], name=name)

    @staticmethod
    def _param_shapes(sample_shape):
        return {"logits": tf.convert_to_tensor(sample_shape, dtype=tf.int32)}

    @property
    def logits(self):
        return self._logits

    @property
    def probs(self):
        return self._probs

    def _batch_shape_tensor(self):
        return tf.shape(self._logits)

    def _batch_shape(self):
        return self._logits.shape

    def _event_shape_tensor(self):
        return tf.constant([], dtype=tf.int32)

    def _event_shape(self):
        return tf.TensorShape([])

    def _sample_n(self, n, seed=None):
        new_shape = tf.concat([[n], self.batch_shape_tensor()], 0)
        uniform = tf.random.uniform(new_shape, seed=seed, dtype=self.probs.dtype)
        return tf.cast(tf.less(uniform, self.probs), self.dtype)

    def _log_prob(self, event):
        if self.validate_args:
            event = check_integer_event(event, tf.bool)
        event = tf.cast(event, self.logits.dtype)
        logits = self.logits
        if not (event.shape.is_fully_defined() and logits.shape.is_fully_defined()
                and event.shape == logits.shape):
            logits, event = tf.ones_like(event) * logits, tf.ones_like(logits) * event
        return -tf.nn.sigmoid_cross_entropy_with_logits(labels=event, logits=logits)

    def _entropy(self):
        return -self.logits * (tf.math.sigmoid(self.logits) - 1) + tf.nn.softplus(-self.logits)

    def _mean(self):
        return tf.identity(self.probs)

    def _variance(self):
        return self._mean() * (1.0 - self.probs)

    def _mode(self):
        """1 where probs > 0.5, else 0 (ties go to 0)."""
        return tf.cast(self.probs > 0.5, self.dtype)


@kullback_leibler.RegisterKL(Bernoulli, Bernoulli)
def _kl_bernoulli_bernoulli(a, b, name=None):
    """Written with softplus of the logits so that probabilities of 0 or 1 stay finite where they can."""
    delta_probs0 = tf.nn.softplus(-b.logits) - tf.nn.softplus(-a.logits)
    delta_probs1 = tf.nn.softplus(b.logits) - tf.nn.softplus(a.logits)
    return tf.math.sigmoid(a.logits) * delta_probs0 + tf.math.sigmoid(-a.logits) * delta_probs1
