"""tf.quantization.quantize_and_dequantize(_v2): float values rounded onto the integer grid of `num_bits` bits
that the range [input_min, input_max] maps to, then scaled back, as TF's QuantizeAndDequantizeV2/V4 kernels: the
side of the range that needs the smaller scale decides it and the other side is widened to the grid, values are
clamped to the widened range when it is given (else the range is the input's own, per slice of `axis` when one
is given: TF 2.21's kernels refuse a given range per slice), and rounded half to even or half up. V2's gradient
passes the upstream gradient unchanged; V4's (quantize_and_dequantize_v2's) passes it where the input lies in the
given [input_min, input_max], and gives min and max zeros."""

from __future__ import annotations

import numpy as np

from ..dispatch import apply
from ..errors import InvalidArgumentError
from ..registry import OpDef, gradient, register

_FLOAT_MAX = np.finfo(np.float32).max


def _grid(signed_input, num_bits, narrow_range):
    if signed_input:
        return -(1 << (num_bits - 1)) + (1 if narrow_range else 0), (1 << (num_bits - 1)) - 1
    return 0, (1 << num_bits) - 1


def _kernel(x, input_min, input_max, *, signed_input, num_bits, range_given, round_mode, narrow_range, axis):
    x = np.asarray(x)
    kind = x.dtype.type
    if axis == -1:
        if range_given and (np.ndim(input_min) or np.ndim(input_max)):
            raise InvalidArgumentError("input_min must be a scalar.")
        low, high = (input_min, input_max) if range_given else (x.min(initial=0), x.max(initial=0)) if x.size \
            else (kind(0), kind(0))
        low, high = np.asarray(low, kind), np.asarray(high, kind)
    else:
        if range_given:  # TF 2.21's CPU kernels refuse a given range per slice, with these words
            if np.ndim(input_min) != 1:
                raise InvalidArgumentError("Shape must be rank 1 for input_min_tensor when the axis is specified")
            raise InvalidArgumentError("input_min must be a scalar.")
        others = tuple(d for d in range(x.ndim) if d != axis)
        low, high = x.min(axis=others, keepdims=True), x.max(axis=others, keepdims=True)
    if range_given and np.any(low > high):
        raise InvalidArgumentError(f"Invalid range: input_min {np.min(low)} > input_max {np.max(high)}")
    q_min, q_max = _grid(signed_input, num_bits, narrow_range)
    q_min, q_max = kind(q_min), kind(q_max)
    with np.errstate(divide="ignore", invalid="ignore"):
        from_min = np.where(q_min * low > 0, q_min / low, _FLOAT_MAX).astype(kind)
        from_max = np.where(q_max * high > 0, q_max / high, _FLOAT_MAX).astype(kind)
    min_side = from_min < from_max
    scale = np.where(min_side, from_min, from_max).astype(kind)
    with np.errstate(divide="ignore", invalid="ignore"):
        inverse = np.where(min_side, low / q_min if q_min else kind(0), high / q_max).astype(kind)
    low = np.where(min_side, low, q_min * inverse).astype(kind)
    high = np.where(min_side, q_max * inverse, high).astype(kind)
    if range_given:
        x = np.clip(x, low, high)
    scaled = (x * scale).astype(kind)
    rounded = np.rint(scaled) if round_mode == "HALF_TO_EVEN" else np.floor(scaled + kind(0.5))
    return (rounded * inverse).astype(kind)


def _infer(x, input_min, input_max, *, signed_input, num_bits, range_given, round_mode, narrow_range, axis):
    if not x.dtype.is_floating:
        raise TypeError(f"Value for attr 'T' of {x.dtype.name} is not in the list of allowed values: bfloat16, half, "
                        "float, double")
    for t in (input_min, input_max):
        if t.dtype is not x.dtype:
            raise TypeError(f"input_min and input_max must have the input's dtype {x.dtype.name}, got {t.dtype.name}")
    if round_mode not in ("HALF_TO_EVEN", "HALF_UP"):
        raise ValueError(f"round_mode must be HALF_TO_EVEN or HALF_UP, got {round_mode!r}")
    if not 1 <= num_bits <= (63 if signed_input else 62):
        raise ValueError(f"num_bits is out of range: {num_bits} with signed_input {signed_input}")
    if axis < -1 or (x._shape is not None and axis >= len(x._shape)):
        raise ValueError(f"Axis requested is larger than input dimensions. Axis: {axis}")
    return x.dtype, x._shape


quantize_and_dequantize_v2_op = register(OpDef(
    "quantize_and_dequantize_v2", _kernel, _infer,
    doc="x quantized onto a num_bits grid of [input_min, input_max] and back (TF's V2: identity gradient)"))
quantize_and_dequantize_v4_op = register(OpDef(
    "quantize_and_dequantize_v4", _kernel, _infer,
    doc="x quantized onto a num_bits grid of [input_min, input_max] and back (TF's V4: masked gradient)"))


@gradient(quantize_and_dequantize_v2_op)
def _v2_grad(record, g):
    return g, None, None


def _v4_grad_kernel(g, x, input_min, input_max, *, axis):
    low, high = np.asarray(input_min), np.asarray(input_max)
    if axis != -1 and low.ndim:
        shape = [1] * x.ndim
        shape[axis] = -1
        low, high = low.reshape(shape), high.reshape(shape)
    inside = (x >= low) & (x <= high)
    return (g * inside).astype(g.dtype), np.zeros_like(input_min), np.zeros_like(input_max)


quantize_and_dequantize_v4_grad_op = register(OpDef(
    "quantize_and_dequantize_v4_grad", _v4_grad_kernel,
    lambda g, x, lo, hi, *, axis: [(g.dtype, x._shape), (lo.dtype, lo._shape), (hi.dtype, hi._shape)],
    differentiable=False, doc="the gradient of quantize_and_dequantize_v4: g inside [input_min, input_max]"))


@gradient(quantize_and_dequantize_v4_op)
def _v4_grad(record, g):
    return apply(quantize_and_dequantize_v4_grad_op, (g, *record.inputs), {"axis": record.attrs["axis"]})


