"""tf.quantization.fake_quant_with_min_max_{args,vars,vars_per_channel} and their gradient ops: float inputs
clamped to a nudged [min, max] range and rounded onto its 2**num_bits levels (TF's FakeQuant kernels: the range
is nudged so that 0.0 is exactly representable, and the arithmetic is float32). The gradients pass the upstream
gradient where the input lies inside the nudged range; the vars forms also give min (max) the sum of the
gradient where the input lies below (above) it, per channel for the per-channel form."""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..dispatch import apply
from ..errors import InvalidArgumentError
from ..registry import OpDef, gradient, register


def _check_bits(num_bits, narrow_range, what):
    if not 2 <= num_bits <= 16:
        raise InvalidArgumentError(f"{what}: num_bits must be between 2 and 16, inclusive, got {num_bits}")


def _nudge(low, high, num_bits, narrow_range):
    """TF's Nudge: the scale and the [min, max] range moved so that zero falls on a quantization level."""
    low, high = np.float32(low), np.float32(high)
    quant_min = np.float32(1 if narrow_range else 0)
    quant_max = np.float32((1 << num_bits) - 1)
    scale = (high - low) / (quant_max - quant_min)
    zero_from_min = quant_min - low / scale
    zero = np.where(zero_from_min < quant_min, quant_min,
                    np.where(zero_from_min > quant_max, quant_max,
                             np.sign(zero_from_min) * np.floor(np.abs(zero_from_min) + np.float32(0.5))))
    zero = zero.astype(np.float32)
    return ((quant_min - zero) * scale).astype(np.float32), ((quant_max - zero) * scale).astype(np.float32), \
        np.asarray(scale, np.float32)


def _fake_quant(x, low, high, num_bits, narrow_range):
    nudged_min, nudged_max, scale = _nudge(low, high, num_bits, narrow_range)
    inv_scale = np.float32(1.0) / scale
    clamped = np.minimum(np.maximum(x, nudged_min), nudged_max)
    shifted = clamped - nudged_min
    # float32 throughout, as TF's kernel (whose Eigen build may fuse multiply-adds: 1-ulp differences)
    return (np.floor(shifted * inv_scale + np.float32(0.5)) * scale + nudged_min).astype(np.float32)


def _in_range(x, low, high, num_bits, narrow_range):
    nudged_min, nudged_max, _ = _nudge(low, high, num_bits, narrow_range)
    return nudged_min, nudged_max, (x >= nudged_min) & (x <= nudged_max)


def _float32_input(x, what):
    if x.dtype is not dtypes.float32:
        raise TypeError(f"Value for attr 'T' of {x.dtype.name} is not in the list of allowed values: float")


# ---- args: the range is an attribute --------------------------------------------------------------------------

def _args_kernel(x, *, min, max, num_bits, narrow_range):  # noqa: A002 - TF's attribute names
    return _fake_quant(x, min, max, num_bits, narrow_range)


def _args_infer(x, *, min, max, num_bits, narrow_range):  # noqa: A002
    _float32_input(x, "fake_quant_with_min_max_args")
    if not min < max:
        raise InvalidArgumentError(f"FakeQuantWithMinMaxArgs: min has to be smaller than max, was: {min} >= {max}")
    _check_bits(num_bits, narrow_range, "FakeQuantWithMinMaxArgs")
    return dtypes.float32, x._shape


def _args_gradient_kernel(g, x, *, min, max, num_bits, narrow_range):  # noqa: A002
    return (g * _in_range(x, min, max, num_bits, narrow_range)[2]).astype(np.float32)


def _args_gradient_infer(g, x, **attrs):
    _args_infer(x, **attrs)
    return dtypes.float32, x._shape


fake_quant_args_op = register(OpDef("fake_quant_with_min_max_args", _args_kernel, _args_infer,
                                    doc="x rounded onto 2**num_bits levels of a fixed range"))
fake_quant_args_gradient_op = register(OpDef(
    "fake_quant_with_min_max_args_gradient", _args_gradient_kernel, _args_gradient_infer, differentiable=False,
    doc="the upstream gradient where x lies inside the nudged range"))


@gradient(fake_quant_args_op)
def _fake_quant_args_grad(record, g):
    return (apply(fake_quant_args_gradient_op, (g, record.inputs[0]), dict(record.attrs)),)


# ---- vars and vars_per_channel: the range is two tensors ---------------------------------------------------------

def _vars_kernel(x, low, high, *, num_bits, narrow_range):
    return _fake_quant(x, low, high, num_bits, narrow_range)


def _check_range(x, low, high, per_channel, what):
    _float32_input(x, what)
    for t in (low, high):
        if t.dtype is not dtypes.float32:
            raise TypeError(f"min and max must be float32, got {t.dtype.name}")
        if t._shape is not None:
            if per_channel and len(t._shape) != 1:
                raise ValueError(f"min and max must be rank 1, got shape {list(t._shape)}")
            if not per_channel and len(t._shape) != 0:
                raise ValueError(f"min and max must be scalars, got shape {list(t._shape)}")
    if per_channel and x._shape is not None and low._shape is not None:
        depth, channels = low._shape[0], x._shape[-1] if x._shape else None
        if depth is not None and channels is not None and depth != channels:
            raise ValueError(f"min and max must have {channels} elements (the input's last dimension), "
                             f"got {depth}")


def _vars_infer(x, low, high, *, num_bits, narrow_range):
    _check_range(x, low, high, False, "fake_quant_with_min_max_vars")
    _check_bits(num_bits, narrow_range, "FakeQuantWithMinMaxVars")
    return dtypes.float32, x._shape


def _per_channel_infer(x, low, high, *, num_bits, narrow_range):
    _check_range(x, low, high, True, "fake_quant_with_min_max_vars_per_channel")
    _check_bits(num_bits, narrow_range, "FakeQuantWithMinMaxVarsPerChannel")
    return dtypes.float32, x._shape


def _vars_gradient_kernel(g, x, low, high, *, num_bits, narrow_range):
    nudged_min, nudged_max, inside = _in_range(x, low, high, num_bits, narrow_range)
    axes = tuple(range(x.ndim - np.ndim(low)))  # everything but the channel axis (all axes for scalars)
    below = (g * (x < nudged_min)).sum(axis=axes, dtype=np.float32)
    above = (g * (x > nudged_max)).sum(axis=axes, dtype=np.float32)
    return (g * inside).astype(np.float32), np.asarray(below, np.float32), np.asarray(above, np.float32)


def _vars_gradient_infer(g, x, low, high, **attrs):
    return [(dtypes.float32, x._shape), (dtypes.float32, low._shape), (dtypes.float32, high._shape)]


fake_quant_vars_op = register(OpDef("fake_quant_with_min_max_vars", _vars_kernel, _vars_infer,
                                    doc="x rounded onto 2**num_bits levels of the range [min, max]"))
fake_quant_per_channel_op = register(OpDef(
    "fake_quant_with_min_max_vars_per_channel", _vars_kernel, _per_channel_infer,
    doc="x rounded onto 2**num_bits levels of each last-axis channel's range [min[c], max[c]]"))
fake_quant_vars_gradient_op = register(OpDef(
    "fake_quant_with_min_max_vars_gradient", _vars_gradient_kernel, _vars_gradient_infer, differentiable=False,
    doc="the gradients of fake_quant_with_min_max_vars (per channel too) with respect to x, min and max"))


@gradient(fake_quant_vars_op)
def _fake_quant_vars_grad(record, g):
    return apply(fake_quant_vars_gradient_op, (g, *record.inputs), dict(record.attrs))


gradient(fake_quant_per_channel_op)(_fake_quant_vars_grad)
