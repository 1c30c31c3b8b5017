"""Laplace(loc, scale): TF 2.21's tf.compat.v1.distributions.Laplace. Samples invert the CDF of a uniform draw
on (-1, 1) (so they are differentiable in loc and scale, and seeded draws equal TF's)."""

from __future__ import annotations

import math

import numpy as np

import tinytf as tf

from . import special_math
from .scalar_pair import ScalarPair


class Laplace(ScalarPair):
    """The Laplace (double exponential) distribution: density exp(-|x - loc| / scale) / (2 scale)."""

    _names = ("loc", "scale")
    _dtype_index = 0

    def __init__(self, loc, scale, validate_args=False, allow_nan_stats=True, name="Laplace"):
        parameters = dict(locals())
        self._loc, self._scale = self._init_pair(loc, scale, lambda: [tf.debugging.assert_positive(scale)], parameters,
                                                 validate_args, allow_nan_stats, name)

    @property
    def loc(self):
        return self._loc

    @property
    def scale(self):
        return self._scale

    def _sample_n(self, n, seed=None):
        shape = tf.concat([[n], self.batch_shape_tensor()], 0)
        # the open interval (-1, 1): at -1 the log1p below would be -inf
        np_dtype = self.dtype.as_numpy_dtype
        uniform = tf.random.uniform(shape=shape, minval=np.nextafter(np_dtype(-1.0), np_dtype(0.0)), maxval=1.0,
                                    dtype=self.dtype, seed=seed)
        return self.loc - self.scale * tf.sign(uniform) * tf.math.log1p(-tf.abs(uniform))

    def _log_prob(self, x):
        return self._log_unnormalized_prob(x) - self._log_normalization()

    def _prob(self, x):
        return tf.exp(self._log_prob(x))

    def _log_cdf(self, x):
        return special_math.log_cdf_laplace(self._z(x))

    def _log_survival_function(self, x):
        return special_math.log_cdf_laplace(-self._z(x))

    def _cdf(self, x):
        z = self._z(x)
        return 0.5 + 0.5 * tf.sign(z) * (1.0 - tf.exp(-tf.abs(z)))

    def _log_unnormalized_prob(self, x):
        return -tf.abs(self._z(x))

    def _log_normalization(self):
        return math.log(2.0) + tf.math.log(self.scale)

    def _entropy(self):
        scale = self.scale + tf.zeros_like(self.loc)
        return math.log(2.0) + 1.0 + tf.math.log(scale)

    def _mean(self):
        return self.loc + tf.zeros_like(self.scale)

    def _stddev(self):
        return math.sqrt(2.0) * self.scale + tf.zeros_like(self.loc)

    def _mode(self):
        return self._mean()

    def _z(self, x):
        return (x - self.loc) / self.scale
