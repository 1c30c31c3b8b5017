"""The shared frame of Normal, Laplace and Uniform: a distribution of scalar events whose batch is the broadcast
of two parameters (loc and scale, low and high), each made under the distribution's name scope, checked when
validate_args asks, and of one float dtype."""

from __future__ import annotations

import tinytf as tf

from .distribution import FULLY_REPARAMETERIZED, Distribution, same_float_dtype, scope
from .util import broadcast_shape_tensor, broadcast_static, with_checks


class ScalarPair(Distribution):
    """Subclasses name their two parameters (`_names`) and say whose dtype is the distribution's (TF's choice
    differs: Normal takes scale's, Laplace and Uniform their first parameter's)."""

    _names = ("loc", "scale")
    _dtype_index = 0

    def _init_pair(self, first, second, checks, parameters, validate_args, allow_nan_stats, name):
        """`checks`: a function giving the validate_args assertions (made inside the name scope, as TF's)."""
        with scope(name) as name:
            assertions = checks() if validate_args else []

            def params():
                return tf.identity(first, name=self._names[0]), tf.identity(second, name=self._names[1])

            self._pair = with_checks(assertions, params)
            same_float_dtype(*self._pair)
        super().__init__(dtype=self._pair[self._dtype_index].dtype, reparameterization_type=FULLY_REPARAMETERIZED,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats, parameters=parameters,
                         graph_parents=list(self._pair), name=name)
        return self._pair

    @classmethod
    def _param_shapes(cls, sample_shape):
        shape = tf.convert_to_tensor(sample_shape, dtype=tf.int32)
        return {name: shape for name in cls._names}

    def _batch_shape_tensor(self):
        return broadcast_shape_tensor(*self._pair)

    def _batch_shape(self):
        return broadcast_static(*self._pair)

    def _event_shape_tensor(self):
        return tf.constant([], dtype=tf.int32)

    def _event_shape(self):
        return tf.TensorShape([])
