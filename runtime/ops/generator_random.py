"""The ops behind tf.random.Generator (Philox), bit for bit with TF 2.21: the numbers are a pure function of
the generator's state (int64[3]: the 128-bit counter in words 0-1, the 64-bit key in word 2) and the shape,
drawn by the samplers of TF's kernels (philox.py) from that key and counter, exactly as TF's Generator
draws them (it feeds its key and counter to the stateless V2 kernels). Each draw then moves the counter past
256 counters per output element (generator_advance), which is how far TF's read-and-skip moves it.

These ops are pure; the state variable's read and assignment around them (tinytf/random_generator.py) carry
the ordering, as any variable's read and assign do."""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..registry import OpDef, register
from . import philox
from .common import require
from .random import infer_shape_input
from .stateless_random import (
    FLOAT_SAMPLERS,
    full_int_words,
    infer_full_int,
    infer_int_bounds,
    int_sampled,
    sampled,
)

_MASK64 = (1 << 64) - 1


def generator_from_state(state) -> philox.PhiloxGenerator:
    counter_low, counter_high, key = (int(w) & _MASK64 for w in np.asarray(state).reshape(-1)[:3])
    return philox.PhiloxGenerator.from_key_counter(key, counter_low | (counter_high << 64))


def _check_state(state):
    if state.dtype is not dtypes.int64:
        raise TypeError(f"a Philox generator's state must be int64, got {state.dtype.name}")
    if state._shape is not None and tuple(state._shape) != (3,):
        raise ValueError(f"a Philox generator's state must have shape [3], not {list(state._shape)}")


def _infer_float(shape, state, *, dtype, kind):
    require(dtype, "float", f"Generator.{kind}")
    _check_state(state)
    return dtype, infer_shape_input(shape)


def _float_kernel(shape, state, *, dtype, kind):
    return sampled(FLOAT_SAMPLERS[kind], shape, generator_from_state(state), dtype.np)


generator_random_float_op = register(OpDef(
    "generator_random_float", _float_kernel, _infer_float, differentiable=False,
    doc="floats (uniform in [0, 1), standard normal or truncated normal) drawn at a Philox generator state"))


def _infer_int(shape, state, minval, maxval):
    _check_state(state)
    return infer_int_bounds(shape, minval, maxval)


def _int_kernel(shape, state, minval, maxval):
    return int_sampled(shape, generator_from_state(state), minval, maxval)


generator_random_int_op = register(OpDef(
    "generator_random_int", _int_kernel, _infer_int, differentiable=False,
    doc="integers uniform in [minval, maxval) drawn at a Philox generator state"))


def _infer_full_int(shape, state, *, dtype):
    _check_state(state)
    return infer_full_int(shape, dtype)


def _full_int_kernel(shape, state, *, dtype):
    return sampled(full_int_words, shape, generator_from_state(state), dtype.np)


generator_random_full_int_op = register(OpDef(
    "generator_random_full_int", _full_int_kernel, _infer_full_int, differentiable=False,
    doc="integers over their dtype's whole range drawn at a Philox generator state"))


def _infer_advance(state, shape):
    _check_state(state)
    infer_shape_input(shape)
    return dtypes.int64, (3,)


def _advance_kernel(state, shape):
    """The state after drawing prod(shape) values: the counter moves 256 per value, carrying into word 1."""
    count = int(np.prod(np.asarray(shape, dtype=np.int64)))
    low, high, key = (int(w) & _MASK64 for w in np.asarray(state).reshape(-1)[:3])
    counter = ((low | (high << 64)) + philox.RESERVED_PER_OUTPUT * count) & ((1 << 128) - 1)
    words = [counter & _MASK64, counter >> 64, key]
    return np.array([w - (1 << 64) if w >> 63 else w for w in words], dtype=np.int64)


generator_advance_op = register(OpDef(
    "generator_advance", _advance_kernel, _infer_advance, differentiable=False,
    doc="a Philox generator state moved past prod(shape) drawn values"))
