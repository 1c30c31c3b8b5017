"""TensorFlow's stateless random ops (tf.random.stateless_uniform, stateless_normal, ...), bit for bit: the
numbers are a pure function of `seed` (two integers) and the shape, so these ops are not stateful, and CSE or
constant folding may merge or fold them.

TF derives a Philox key and counter from the seed by one Philox evaluation (StatelessRandomGetKeyCounter):
the seed's two 64-bit halves are the counter under a fixed key, and the four output words become the key
(first two) and the upper half of the counter (last two). From there the samplers are those of the stateful
kernels (philox.py), starting at counter zero.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..dispatch import apply, convert_to_tensor
from ..registry import OpDef, register
from . import philox
from .array import stack
from .common import require
from .math import add, multiply, subtract
from .random import infer_shape_input, shape_tensor

_SEED_KEY = (0x3EC8F720, 0x02461E29)  # the fixed key TF scrambles seeds with
_MASK64 = (1 << 64) - 1


def generator_from_seed(seed) -> philox.PhiloxGenerator:
    """The Philox generator TF's stateless kernels run for `seed` (an array of two integers)."""
    first, second = (int(s) & _MASK64 for s in np.asarray(seed).reshape(-1)[:2])
    mix = [int(w) for w in philox.blocks(_SEED_KEY, first | (second << 64), 1)[0]]
    return philox.PhiloxGenerator(mix[0] | (mix[1] << 32), mix[2] | (mix[3] << 32))


def _check_seed(seed):
    if seed.dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"seed must be an int32 or int64 tensor of shape [2], got {seed.dtype.name}")
    if seed._shape is not None and tuple(seed._shape) != (2,):
        raise ValueError(f"seed must have shape [2], not {list(seed._shape)}")


def sampled(sampler, shape, generator, dtype, *extra):
    """`sampler`'s values from `generator`, shaped by the 1-D `shape` (a 0-d array for a scalar)."""
    size = tuple(int(d) for d in np.asarray(shape).reshape(-1))
    values = sampler(generator, int(np.prod(size, dtype=np.int64)), *extra, dtype)
    values = values.reshape(size)
    return values[()] if values.ndim == 0 else values


def _infer_float(shape, seed, *, dtype, kind):
    require(dtype, "float", f"stateless_random_{kind}")
    _check_seed(seed)
    return dtype, infer_shape_input(shape)


FLOAT_SAMPLERS = {"uniform": philox.uniform, "normal": philox.normal, "truncated_normal": philox.truncated_normal}


def _float_kernel(shape, seed, *, dtype, kind):
    return sampled(FLOAT_SAMPLERS[kind], shape, generator_from_seed(seed), dtype.np)


stateless_random_float_op = register(OpDef(
    "stateless_random_float", _float_kernel, _infer_float, differentiable=False,
    doc="floats (uniform in [0, 1), standard normal or truncated normal) determined by a seed"))


def _infer_int(shape, seed, minval, maxval):
    _check_seed(seed)
    return infer_int_bounds(shape, minval, maxval)


def infer_int_bounds(shape, minval, maxval):
    if minval.dtype is not maxval.dtype or minval.dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"minval and maxval must both be int32 or int64, got {minval.dtype.name} and "
                        f"{maxval.dtype.name}")
    return minval.dtype, infer_shape_input(shape)


def int_sampled(shape, generator, minval, maxval):
    """Integers uniform in [minval, maxval) from `generator` (TF's error for an empty range)."""
    if np.prod(np.asarray(shape), dtype=np.int64) and minval >= maxval:
        raise ValueError(f"Need minval < maxval, got {minval} >= {maxval}")
    return sampled(lambda gen, count, dtype: philox.uniform_int(gen, count, int(minval), int(maxval), dtype),
                   shape, generator, minval.dtype)


def _int_kernel(shape, seed, minval, maxval):
    return int_sampled(shape, generator_from_seed(seed), minval, maxval)


stateless_random_int_op = register(OpDef(
    "stateless_random_int", _int_kernel, _infer_int, differentiable=False,
    doc="integers uniform in [minval, maxval) determined by a seed"))


def full_int_words(generator, count, dtype):
    """Every bit pattern equally likely: one 32-bit word per value, or two (low, high) for 64 bits."""
    if np.dtype(dtype).itemsize == 4:
        return philox.blocks(generator.key, generator.reserve_outputs(count), -(-count // 4)).reshape(-1)[
            :count].view(dtype)
    words = philox.blocks(generator.key, generator.reserve_outputs(count), -(-count // 2)).reshape(-1, 2)[:count]
    return (words[:, 0].astype(np.uint64) | (words[:, 1].astype(np.uint64) << np.uint64(32))).view(dtype)


def _infer_full_int(shape, seed, *, dtype):
    _check_seed(seed)
    return infer_full_int(shape, dtype)


def infer_full_int(shape, dtype):
    if dtype not in (dtypes.int32, dtypes.int64, dtypes.uint32, dtypes.uint64):
        raise TypeError(f"full-range integers need int32, int64, uint32 or uint64, got {dtype.name}")
    return dtype, infer_shape_input(shape)


def _full_int_kernel(shape, seed, *, dtype):
    return sampled(full_int_words, shape, generator_from_seed(seed), dtype.np)


stateless_random_full_int_op = register(OpDef(
    "stateless_random_full_int", _full_int_kernel, _infer_full_int, differentiable=False,
    doc="integers over their dtype's whole range, determined by a seed"))


# --- Python-facing wrappers --------------------------------------------------------------------------------
def _seed_tensor(seed):
    seed = convert_to_tensor(seed)
    if seed.dtype not in (dtypes.int32, dtypes.int64):
        seed = convert_to_tensor(np.asarray(seed._value if hasattr(seed, "_value") else seed, np.int64))
    return seed


def stateless_uniform(shape, seed, minval=0, maxval=None, dtype=dtypes.float32, name=None, alg="auto_select"):
    """`tf.random.stateless_uniform`: floats in [minval, maxval) (maxval defaults to 1); integers in
    [minval, maxval), or over the dtype's whole range when both bounds are None."""
    dtype = dtypes.as_dtype(dtype)
    shape, seed = shape_tensor(shape), _seed_tensor(seed)
    if dtype.is_integer:
        if minval is None and maxval is None:
            return apply(stateless_random_full_int_op, (shape, seed), {"dtype": dtype})
        if minval is None or maxval is None:
            raise ValueError(f"For integer `dtype` argument {dtype!r}, argument `minval` and `maxval` must be both "
                             f"None or not None. Got `minval`={minval} and `maxval`={maxval}.")
        return apply(stateless_random_int_op, (shape, seed, convert_to_tensor(minval, dtype),
                                               convert_to_tensor(maxval, dtype)), {})
    sample = apply(stateless_random_float_op, (shape, seed), {"dtype": dtype, "kind": "uniform"})
    minval = convert_to_tensor(0 if minval is None else minval, dtype)
    maxval = convert_to_tensor(1 if maxval is None else maxval, dtype)
    return add(multiply(sample, subtract(maxval, minval)), minval)  # TF applies it even for [0, 1)


def _scaled(kind, shape, seed, mean, stddev, dtype):
    dtype = dtypes.as_dtype(dtype)
    sample = apply(stateless_random_float_op, (shape_tensor(shape), _seed_tensor(seed)),
                   {"dtype": dtype, "kind": kind})
    return add(multiply(sample, convert_to_tensor(stddev, dtype)), convert_to_tensor(mean, dtype))


def stateless_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None, alg="auto_select"):
    """`tf.random.stateless_normal`: normal samples determined by `seed`."""
    return _scaled("normal", shape, seed, mean, stddev, dtype)


def stateless_truncated_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None,
                               alg="auto_select"):
    """`tf.random.stateless_truncated_normal`: normal samples within two stddevs, determined by `seed`."""
    return _scaled("truncated_normal", shape, seed, mean, stddev, dtype)


def split(seed, num=2, alg="auto_select"):
    """`tf.random.split`: `num` new seeds (a [num, 2] tensor) derived from `seed`."""
    seed = _seed_tensor(seed)
    return stateless_uniform([num, 2], seed, minval=None, maxval=None, dtype=seed.dtype)


def fold_in(seed, data, alg="auto_select"):
    """`tf.random.fold_in`: a new seed from `seed` and the integer `data`."""
    seed = _seed_tensor(seed)
    first = stateless_uniform([], seed, minval=None, maxval=None, dtype=seed.dtype)
    return stack([first, convert_to_tensor(data, seed.dtype)])


__all__ = ["stateless_uniform", "stateless_normal", "stateless_truncated_normal", "split", "fold_in"]
