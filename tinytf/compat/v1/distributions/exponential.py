"""Exponential(rate): TF 2.21's tf.compat.v1.distributions.Exponential, a Gamma with concentration 1 whose
samples are -log(U) / rate (U uniform on [tiny, 1)), differentiable in rate; seeded draws equal TF's."""

from __future__ import annotations

import numpy as np

import tinytf as tf

from .distribution import scope
from .gamma import Gamma


class Exponential(Gamma):
    """The exponential distribution: density rate * exp(-rate x) on x >= 0."""

    def __init__(self, rate, validate_args=False, allow_nan_stats=True, name="Exponential"):
        parameters = dict(locals())
        with scope(name) as name:
            self._rate = tf.convert_to_tensor(rate, name="rate")
        super().__init__(concentration=tf.ones([], dtype=self._rate.dtype), rate=self._rate,
                         allow_nan_stats=allow_nan_stats, validate_args=validate_args, name=name)
        self._parameters = {k: v for k, v in parameters.items() if k not in ("self", "__class__")}
        self._graph_parents += [self._rate]

    @staticmethod
    def _param_shapes(sample_shape):
        return {"rate": tf.convert_to_tensor(sample_shape, dtype=tf.int32)}

    @property
    def rate(self):
        return self._rate

    def _log_survival_function(self, value):
        return self._log_prob(value) - tf.math.log(self._rate)

    def _sample_n(self, n, seed=None):
        shape = tf.concat([[n], tf.shape(self._rate)], 0)
        sampled = tf.random.uniform(shape, minval=np.finfo(self.dtype.as_numpy_dtype).tiny, maxval=1.0, seed=seed,
                                    dtype=self.dtype)
        return -tf.math.log(sampled) / self._rate
