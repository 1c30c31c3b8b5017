"""StudentT(df, loc, scale): TF 2.21's tf.compat.v1.distributions.StudentT. Samples are
loc + scale * N / sqrt(G / df) with G ~ Gamma(df / 2, 1 / 2) seeded by gen_new_seed(seed, "student_t"), as TF."""

from __future__ import annotations

import numpy as np

import tinytf as tf

from .distribution import FULLY_REPARAMETERIZED, Distribution, same_float_dtype, scope
from .util import broadcast_shape_tensor, broadcast_static, gen_new_seed, identity_after, with_checks


class StudentT(Distribution):
    """Student's t with `df` degrees of freedom, location `loc` and scale `scale`."""

    def __init__(self, df, loc, scale, validate_args=False, allow_nan_stats=True, name="StudentT"):
        parameters = dict(locals())
        with scope(name) as name:
            checks = [tf.debugging.assert_positive(df)] if validate_args else []

            def params():
                return (tf.identity(df, name="df"), tf.identity(loc, name="loc"),
                        tf.identity(scale, name="scale"))

            self._df, self._loc, self._scale = with_checks(checks, params)
            same_float_dtype(self._df, self._loc, self._scale)
        super().__init__(dtype=self._scale.dtype, reparameterization_type=FULLY_REPARAMETERIZED,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats, parameters=parameters,
                         graph_parents=[self._df, self._loc, self._scale], name=name)

    @staticmethod
    def _param_shapes(sample_shape):
        shape = tf.convert_to_tensor(sample_shape, dtype=tf.int32)
        return {"df": shape, "loc": shape, "scale": shape}

    @property
    def df(self):
        return self._df

    @property
    def loc(self):
        return self._loc

    @property
    def scale(self):
        return self._scale

    def _batch_shape_tensor(self):
        return broadcast_shape_tensor(self.df, self.loc, self.scale)

    def _batch_shape(self):
        return broadcast_static(self.df, self.loc, self.scale)

    def _event_shape_tensor(self):
        return tf.constant([], dtype=tf.int32)

    def _event_shape(self):
        return tf.TensorShape([])

    def _ones(self):
        return tf.ones(self.batch_shape_tensor(), dtype=self.dtype)

    def _fill(self, value):
        return tf.fill(self.batch_shape_tensor(), np.array(value, dtype=self.dtype.as_numpy_dtype))

    def _sample_n(self, n, seed=None):
        shape = tf.concat([[n], self.batch_shape_tensor()], 0)
        normal_sample = tf.random.normal(shape, dtype=self.dtype, seed=seed)
        df = self.df * self._ones()
        gamma_sample = tf.random.gamma([n], 0.5 * df, beta=0.5, dtype=self.dtype,
                                       seed=gen_new_seed(seed, salt="student_t"))
        samples = normal_sample * tf.math.rsqrt(gamma_sample / df)
        return samples * self.scale + self.loc

    def _log_prob(self, x):
        return self._log_unnormalized_prob(x) - self._log_normalization()

    def _log_unnormalized_prob(self, x):
        y = (x - self.loc) / self.scale
        return -0.5 * (self.df + 1.0) * tf.math.log1p(y**2.0 / self.df)

    def _log_normalization(self):
        return (tf.math.log(tf.abs(self.scale)) + 0.5 * tf.math.log(self.df) + 0.5 * np.log(np.pi)
                + tf.math.lgamma(0.5 * self.df) - tf.math.lgamma(0.5 * (self.df + 1.0)))

    def _cdf(self, x):
        """Through the regularized incomplete beta function of df / (y^2 + df), by the sign of y."""
        y = (x - self.loc) / tf.abs(self.scale)
        x_t = self.df / (y**2.0 + self.df)
        neg_cdf = 0.5 * tf.math.betainc(0.5 * self.df, 0.5, x_t)
        return tf.where(y < 0.0, neg_cdf, 1.0 - neg_cdf)

    def _entropy(self):
        v = self._ones()[..., tf.newaxis]
        u = v * self.df[..., tf.newaxis]
        beta_arg = tf.concat([u, v], -1) / 2.0
        return (tf.math.log(tf.abs(self.scale)) + 0.5 * tf.math.log(self.df) + tf.math.lbeta(beta_arg)
                + 0.5 * (self.df + 1.0) * (tf.math.digamma(0.5 * (self.df + 1.0)) - tf.math.digamma(0.5 * self.df)))

    def _mean(self):
        """loc where df > 1; NaN (or an error without allow_nan_stats) where the mean does not exist."""
        mean = self.loc * self._ones()
        if self.allow_nan_stats:
            return tf.where(self.df > self._ones(), mean, self._fill(np.nan))
        return identity_after([tf.debugging.assert_less(tf.ones([], dtype=self.dtype), self.df,
                                                        message="mean not defined for components of df <= 1")],
                              mean, "mean")

    def _variance(self):
        """scale^2 df / (df - 2) for df > 2, infinity for 1 < df <= 2, NaN (or an error) for df <= 1."""
        denom = tf.where(self.df > 2.0, self.df - 2.0, tf.ones_like(self.df))
        var = self._ones() * tf.square(self.scale) * self.df / denom
        defined = tf.where(self.df > self._fill(2.0), var, self._fill(np.inf))
        if self.allow_nan_stats:
            return tf.where(self.df > self._ones(), defined, self._fill(np.nan))
        return identity_after([tf.debugging.assert_less(tf.ones([], dtype=self.dtype), self.df,
                                                        message="variance not defined for components of df <= 1")],
                              defined, "variance")

    def _mode(self):
        return tf.identity(self.loc)
