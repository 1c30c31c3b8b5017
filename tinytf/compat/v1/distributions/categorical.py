"""Categorical(logits= | probs=): TF 2.21's tf.compat.v1.distributions.Categorical, a class index in
[0, K) per batch member; samples come from the multinomial op (seeded draws equal TF's)."""

from __future__ import annotations

import tinytf as tf
from tinytf.runtime import dtypes

from . import kullback_leibler
from .distribution import NOT_REPARAMETERIZED, Distribution, scope
from .util import check_categorical_event_shape, check_integer_event, get_logits_and_probs


def _broadcast_event_and_params(event, params, base_dtype):
    """Class indices and per-class parameters broadcast against each other (float events become int32)."""
    if event.dtype.is_integer:
        pass
    elif event.dtype.is_floating:
        event = tf.cast(event, dtype=tf.int32)
    else:
        raise TypeError(f"`value` should have integer `dtype` or `self.dtype` ({base_dtype})")
    known = (params.shape.rank is not None and params.shape[:-1].is_fully_defined()
             and event.shape.is_fully_defined())
    if not known or params.shape[:-1] != event.shape:
        params = params * tf.ones_like(event[..., tf.newaxis], dtype=params.dtype)
        event = event * tf.ones(tf.shape(params)[:-1], dtype=event.dtype)
    return event, params


class Categorical(Distribution):
    """One of K classes with probabilities softmax(logits) (or `probs`, normalized on the last axis)."""

    def __init__(self, logits=None, probs=None, dtype=dtypes.int32, validate_args=False, allow_nan_stats=True,
                 name="Categorical"):
        parameters = dict(locals())
        with scope(name) as name:
            self._logits, self._probs = get_logits_and_probs(logits=logits, probs=probs,
                                                             validate_args=validate_args, multidimensional=True)
            if validate_args:
                self._logits = check_categorical_event_shape(self._logits)
            static = self._logits.shape
            if static.rank is not None and static.rank < 1:
                raise ValueError(f"Shape {static} must have rank at least 1")
            self._batch_rank = (tf.constant(static.rank - 1, tf.int32) if static.rank is not None
                                else tf.rank(self._logits) - 1)
            logits_shape = tf.shape(self._logits)
            last = static[-1] if static.rank is not None else None
            self._event_size = (tf.constant(last, tf.int32) if last is not None
                                else logits_shape[self._batch_rank])
            if static.rank is not None and static[:-1].is_fully_defined():
                self._batch_shape_val = tf.constant(static[:-1].as_list(), dtype=tf.int32)
            else:
                self._batch_shape_val = logits_shape[:-1]
        super().__init__(dtype=tf.as_dtype(dtype), reparameterization_type=NOT_REPARAMETERIZED,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats, parameters=parameters,
                         graph_parents=[self._logits, self._probs], name=name)

    @property
    def event_size(self):
        """The number of classes K (an int32 tensor)."""
        return self._event_size

    @property
    def logits(self):
        return self._logits

    @property
    def probs(self):
        return self._probs

    def _batch_shape_tensor(self):
        return tf.identity(self._batch_shape_val)

    def _batch_shape(self):
        return self.logits.shape[:-1]

    def _event_shape_tensor(self):
        return tf.constant([], dtype=tf.int32)

    def _event_shape(self):
        return tf.TensorShape([])

    def _sample_n(self, n, seed=None):
        logits_2d = self.logits if self.logits.shape.rank == 2 else tf.reshape(self.logits, [-1, self.event_size])
        sample_dtype = tf.int64 if self.dtype.size > 4 else tf.int32
        draws = tf.random.categorical(logits_2d, n, seed=seed, dtype=sample_dtype)
        draws = tf.reshape(tf.transpose(draws), tf.concat([[n], self.batch_shape_tensor()], 0))
        return tf.cast(draws, self.dtype)

    def _cdf(self, k):
        """P(X < k): TF sums the probabilities of the classes below k (sequence_mask), a strict inequality."""
        k = tf.convert_to_tensor(k, name="k")
        if self.validate_args:
            k = check_integer_event(k, tf.int32)
        k, probs = _broadcast_event_and_params(k, self.probs, base_dtype=self.dtype)
        flat_probs = tf.reshape(probs, (-1, self._event_size))
        flat_k = tf.reshape(k, [-1])
        to_sum_over = tf.where(tf.sequence_mask(flat_k, self._event_size), flat_probs, tf.zeros_like(flat_probs))
        return tf.reshape(tf.reduce_sum(to_sum_over, axis=-1), tf.shape(k))

    def _log_prob(self, k):
        k = tf.convert_to_tensor(k, name="k")
        if self.validate_args:
            k = check_integer_event(k, tf.int32)
        k, logits = _broadcast_event_and_params(k, self.logits, base_dtype=self.dtype)
        return -tf.nn.sparse_softmax_cross_entropy_with_logits(labels=k, logits=logits)

    def _entropy(self):
        return -tf.reduce_sum(tf.nn.log_softmax(self.logits) * self.probs, axis=-1)

    def _mode(self):
        return tf.cast(tf.argmax(self.logits, axis=-1), self.dtype)  # the class axis (TF: axis=batch_rank)


@kullback_leibler.RegisterKL(Categorical, Categorical)
def _kl_categorical_categorical(a, b, name=None):
    delta_log_probs1 = tf.nn.log_softmax(a.logits) - tf.nn.log_softmax(b.logits)
    return tf.reduce_sum(tf.nn.softmax(a.logits) * delta_log_probs1, axis=-1)
