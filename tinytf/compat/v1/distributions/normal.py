"""Normal(loc, scale): TF 2.21's tf.compat.v1.distributions.Normal. Samples are loc + scale * N(0, 1), so they
are differentiable in loc and scale (FULLY_REPARAMETERIZED), and seeded draws equal TF's."""

from __future__ import annotations

import math

import tinytf as tf

from . import kullback_leibler, special_math
from .distribution import scope
from .scalar_pair import ScalarPair


class Normal(ScalarPair):
    """The normal distribution with mean `loc` and standard deviation `scale`."""

    _names = ("loc", "scale")
    _dtype_index = 1

    def __init__(self, loc, scale, validate_args=False, allow_nan_stats=True, name="Normal"):
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
        sampled = tf.random.normal(shape=shape, mean=0.0, stddev=1.0, dtype=self.loc.dtype, seed=seed)
        return sampled * self.scale + self.loc

    def _log_prob(self, x):
        return self._log_unnormalized_prob(x) - self._log_normalization()

    def _log_cdf(self, x):
        return special_math.log_ndtr(self._z(x))

    def _cdf(self, x):
        return special_math.ndtr(self._z(x))

    def _log_survival_function(self, x):
        return special_math.log_ndtr(-self._z(x))

    def _survival_function(self, x):
        return special_math.ndtr(-self._z(x))

    def _log_unnormalized_prob(self, x):
        return -0.5 * tf.square(self._z(x))

    def _log_normalization(self):
        return 0.5 * math.log(2.0 * math.pi) + tf.math.log(self.scale)

    def _entropy(self):
        scale = self.scale * tf.ones_like(self.loc)
        return 0.5 * math.log(2.0 * math.pi * math.e) + tf.math.log(scale)

    def _mean(self):
        return self.loc * tf.ones_like(self.scale)

    def _quantile(self, p):
        return self._inv_z(special_math.ndtri(p))

    def _stddev(self):
        return self.scale * tf.ones_like(self.loc)

    def _mode(self):
        return self._mean()

    def _z(self, x):
        return (x - self.loc) / self.scale

    def _inv_z(self, z):
        return z * self.scale + self.loc


class NormalWithSoftplusScale(Normal):
    """Normal with scale = softplus(scale): any real `scale` argument gives a valid distribution."""

    def __init__(self, loc, scale, validate_args=False, allow_nan_stats=True, name="NormalWithSoftplusScale"):
        parameters = dict(locals())
        with scope(name) as name:
            super().__init__(loc=loc, scale=tf.nn.softplus(scale, name="softplus_scale"),
                             validate_args=validate_args, allow_nan_stats=allow_nan_stats, name=name)
        self._parameters = {k: v for k, v in parameters.items() if k not in ("self", "__class__")}


@kullback_leibler.RegisterKL(Normal, Normal)
def _kl_normal_normal(n_a, n_b, name=None):
    """(mu_a - mu_b)^2 / (2 s_b^2) + (r - 1 - log r) / 2, r = s_a^2 / s_b^2."""
    one = tf.constant(1, dtype=n_a.dtype)
    two = tf.constant(2, dtype=n_a.dtype)
    half = tf.constant(0.5, dtype=n_a.dtype)
    s_a_squared = tf.square(n_a.scale)
    s_b_squared = tf.square(n_b.scale)
    ratio = s_a_squared / s_b_squared
    return (tf.math.squared_difference(n_a.loc, n_b.loc) / (two * s_b_squared)
            + half * (ratio - one - tf.math.log(ratio)))
