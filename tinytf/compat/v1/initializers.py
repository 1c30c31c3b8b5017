"""TF1's initializers (`tf.compat.v1.zeros_initializer()`, `glorot_uniform_initializer()`, ...), as TF's
init_ops builds them: ops of the graph being built (a TF1 variable's initial value is computed in the session:
fresh random numbers each time its initializer runs), TF's random ops with the op seed given (TF's numbers
for the same graph seed), the dtype fixed at construction and `partition_info` accepted in calls."""

from __future__ import annotations

import math

from tinytf.runtime import dtypes
from tinytf.runtime.ops import random
from tinytf.runtime.ops.array import ones as _ones_op
from tinytf.runtime.ops.array import zeros as _zeros_op

from ...constant import constant as _constant_op
from ...weight_fans import compute_fans


class _V1Initializer:
    """A callable `(shape, dtype=None, partition_info=None) -> tensor` with its construction arguments."""

    def __init__(self, dtype, **config):
        self.dtype = None if dtype is None else dtypes.as_dtype(dtype)
        self._config = config

    def __call__(self, shape, dtype=None, partition_info=None):
        dtype = dtypes.as_dtype(dtype) if dtype is not None else (self.dtype or dtypes.float32)
        return self._make(list(shape), dtype)

    def get_config(self) -> dict:
        return {**self._config, "dtype": None if self.dtype is None else self.dtype.name}


class _Zeros(_V1Initializer):
    def _make(self, shape, dtype):
        return _zeros_op(shape, dtype)


class _Ones(_V1Initializer):
    def _make(self, shape, dtype):
        return _ones_op(shape, dtype)


class _Constant(_V1Initializer):
    def _make(self, shape, dtype):
        return _constant_op(self._config["value"], dtype=dtype, shape=shape)


class _RandomUniform(_V1Initializer):
    def _make(self, shape, dtype):
        c = self._config
        return random.uniform(shape, c["minval"], c["maxval"], dtype, seed=c["seed"])


class _RandomNormal(_V1Initializer):
    def _make(self, shape, dtype):
        c = self._config
        return random.normal(shape, c["mean"], c["stddev"], dtype, seed=c["seed"])


class _TruncatedNormal(_V1Initializer):
    def _make(self, shape, dtype):
        c = self._config
        return random.truncated_normal(shape, c["mean"], c["stddev"], dtype, seed=c["seed"])


class _VarianceScaling(_V1Initializer):
    def _make(self, shape, dtype):
        c = self._config
        fan_in, fan_out = compute_fans(shape)
        fan = {"fan_in": fan_in, "fan_out": fan_out}.get(c["mode"], (fan_in + fan_out) / 2.0)
        scale = c["scale"] / max(1.0, fan)
        if c["distribution"] in ("normal", "truncated_normal"):
            stddev = math.sqrt(scale) / 0.87962566103423978  # the stddev of a unit normal truncated at 2
            return random.truncated_normal(shape, 0.0, stddev, dtype, seed=c["seed"])
        if c["distribution"] == "untruncated_normal":
            return random.normal(shape, 0.0, math.sqrt(scale), dtype, seed=c["seed"])
        limit = math.sqrt(3.0 * scale)
        return random.uniform(shape, -limit, limit, dtype, seed=c["seed"])


def zeros_initializer(dtype=dtypes.float32):
    return _Zeros(dtype)


def ones_initializer(dtype=dtypes.float32):
    return _Ones(dtype)


def constant_initializer(value=0, dtype=dtypes.float32, verify_shape=False):
    return _Constant(dtype, value=value)


def random_normal_initializer(mean=0.0, stddev=1.0, seed=None, dtype=dtypes.float32):
    return _RandomNormal(dtype, mean=mean, stddev=stddev, seed=seed)


def truncated_normal_initializer(mean=0.0, stddev=1.0, seed=None, dtype=dtypes.float32):
    return _TruncatedNormal(dtype, mean=mean, stddev=stddev, seed=seed)


def random_uniform_initializer(minval=0.0, maxval=None, seed=None, dtype=dtypes.float32):
    return _RandomUniform(dtype, minval=minval, maxval=maxval, seed=seed)


def variance_scaling_initializer(scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None,
                                 dtype=dtypes.float32):
    if mode not in ("fan_in", "fan_out", "fan_avg"):
        raise ValueError(f"Invalid `mode` argument: {mode}")
    if distribution not in ("normal", "uniform", "truncated_normal", "untruncated_normal"):
        raise ValueError(f"Invalid `distribution` argument: {distribution}")
    return _VarianceScaling(dtype, scale=scale, mode=mode, distribution=distribution, seed=seed)


def glorot_uniform_initializer(seed=None, dtype=dtypes.float32):
    return variance_scaling_initializer(1.0, "fan_avg", "uniform", seed, dtype)


def glorot_normal_initializer(seed=None, dtype=dtypes.float32):
    return variance_scaling_initializer(1.0, "fan_avg", "truncated_normal", seed, dtype)


__all__ = ["constant_initializer", "glorot_normal_initializer", "glorot_uniform_initializer", "ones_initializer",
           "random_normal_initializer", "random_uniform_initializer", "truncated_normal_initializer",
           "variance_scaling_initializer", "zeros_initializer"]


# tf.compat.v1.initializers' own names: the same initializers (`initializers.zeros is zeros_initializer`), and
# the initializer ops of variables (not exported into tf.compat.v1 itself, whose `zeros` is the tensor op)
zeros = zeros_initializer
ones = ones_initializer
constant = constant_initializer
random_normal = random_normal_initializer
random_uniform = random_uniform_initializer
truncated_normal = truncated_normal_initializer
variance_scaling = variance_scaling_initializer
glorot_uniform = glorot_uniform_initializer
glorot_normal = glorot_normal_initializer


def global_variables():
    from . import global_variables_initializer

    return global_variables_initializer()


def local_variables():
    from . import local_variables_initializer

    return local_variables_initializer()


def variables(var_list, name="init"):
    from . import variables_initializer

    return variables_initializer(var_list, name=name)
