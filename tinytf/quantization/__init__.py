"""tf.quantization: fake quantization and quantize_and_dequantize (float in, float out, as quantization-aware
training uses them) with TF's nudged or widened ranges and gradients; and quantize, dequantize and quantized_concat,
between float32 and TF's quantized dtypes (qint8, quint8, ...: quantized_types.py)."""

from __future__ import annotations

from tinytf.runtime.dispatch import apply, convert_to_tensor
from tinytf.runtime.ops.fake_quant import (
    fake_quant_args_gradient_op,
    fake_quant_args_op,
    fake_quant_per_channel_op,
    fake_quant_vars_gradient_op,
    fake_quant_vars_op,
)


def _args_attrs(min, max, num_bits, narrow_range):  # noqa: A002 - TF's argument names
    return {"min": float(min), "max": float(max), "num_bits": int(num_bits), "narrow_range": bool(narrow_range)}


def fake_quant_with_min_max_args(inputs, min=-6, max=6, num_bits=8, narrow_range=False, name=None):  # noqa: A002
    """Fake-quantize float32 `inputs` onto 2**num_bits levels (2**num_bits - 1 with `narrow_range`) of the range
    [min, max], nudged so that 0.0 is a level; the gradient passes where inputs lie in the nudged range."""
    return apply(fake_quant_args_op, (convert_to_tensor(inputs),), _args_attrs(min, max, num_bits, narrow_range),
                 name=name)


def fake_quant_with_min_max_args_gradient(gradients, inputs, min=-6, max=6, num_bits=8,  # noqa: A002
                                          narrow_range=False, name=None):
    """The gradient of fake_quant_with_min_max_args: `gradients` where `inputs` lie in the nudged range, else 0."""
    return apply(fake_quant_args_gradient_op, (convert_to_tensor(gradients), convert_to_tensor(inputs)),
                 _args_attrs(min, max, num_bits, narrow_range), name=name)


def fake_quant_with_min_max_vars(inputs, min, max, num_bits=8, narrow_range=False, name=None):  # noqa: A002
    """fake_quant_with_min_max_args with the range as scalar float32 tensors (variables, typically), which get
    gradients too: the sums of the upstream gradient below min and above max."""
    return apply(fake_quant_vars_op, (convert_to_tensor(inputs), convert_to_tensor(min), convert_to_tensor(max)),
                 {"num_bits": int(num_bits), "narrow_range": bool(narrow_range)}, name=name)


def fake_quant_with_min_max_vars_per_channel(inputs, min, max, num_bits=8, narrow_range=False,  # noqa: A002
                                             name=None):
    """fake_quant_with_min_max_vars with one range per channel of the last axis (min and max of shape [d])."""
    return apply(fake_quant_per_channel_op,
                 (convert_to_tensor(inputs), convert_to_tensor(min), convert_to_tensor(max)),
                 {"num_bits": int(num_bits), "narrow_range": bool(narrow_range)}, name=name)


def _vars_gradient(gradients, inputs, min, max, num_bits, narrow_range, name, per_channel):  # noqa: A002
    x, low, high = convert_to_tensor(inputs), convert_to_tensor(min), convert_to_tensor(max)
    check = fake_quant_per_channel_op if per_channel else fake_quant_vars_op
    check.infer(x, low, high, num_bits=int(num_bits), narrow_range=bool(narrow_range))  # the forward op's checks
    return tuple(apply(fake_quant_vars_gradient_op, (convert_to_tensor(gradients), x, low, high),
                       {"num_bits": int(num_bits), "narrow_range": bool(narrow_range)}, name=name))


def fake_quant_with_min_max_vars_gradient(gradients, inputs, min, max, num_bits=8,  # noqa: A002
                                          narrow_range=False, name=None):
    """(backprops wrt inputs, wrt min, wrt max) of fake_quant_with_min_max_vars."""
    return _vars_gradient(gradients, inputs, min, max, num_bits, narrow_range, name, False)


def fake_quant_with_min_max_vars_per_channel_gradient(gradients, inputs, min, max, num_bits=8,  # noqa: A002
                                                      narrow_range=False, name=None):
    """(backprops wrt inputs, wrt min, wrt max) of fake_quant_with_min_max_vars_per_channel, min and max per
    channel."""
    return _vars_gradient(gradients, inputs, min, max, num_bits, narrow_range, name, True)


def _quantize_and_dequantize(op, input, input_min, input_max, signed_input, num_bits, range_given,  # noqa: A002
                             round_mode, name, narrow_range, axis):
    from tinytf.runtime.dispatch import convert_to_tensor as _convert

    x = _convert(input)
    if axis is None:
        axis = -1
    elif axis < 0:
        if x._shape is None:
            raise ValueError("input should have known rank to use negative axis.")
        axis %= len(x._shape)
    attrs = {"signed_input": bool(signed_input), "num_bits": int(num_bits), "range_given": bool(range_given),
             "round_mode": str(round_mode), "narrow_range": bool(narrow_range), "axis": int(axis)}
    return apply(op, (x, _convert(input_min, x.dtype), _convert(input_max, x.dtype)), attrs, name=name)


def quantize_and_dequantize(input, input_min, input_max, signed_input=True, num_bits=8,  # noqa: A002
                            range_given=False, round_mode="HALF_TO_EVEN", name=None, narrow_range=False, axis=None):
    """Quantizes then dequantizes a tensor (TF's deprecated form: its gradient is the identity). `axis` gives one
    range per slice of that dimension."""
    from tinytf.runtime.ops.quantize_dequantize import quantize_and_dequantize_v2_op

    return _quantize_and_dequantize(quantize_and_dequantize_v2_op, input, input_min, input_max, signed_input,
                                    num_bits, range_given, round_mode, name, narrow_range, axis)


def quantize_and_dequantize_v2(input, input_min, input_max, signed_input=True, num_bits=8,  # noqa: A002
                               range_given=False, round_mode="HALF_TO_EVEN", name=None, narrow_range=False,
                               axis=None):
    """Quantizes then dequantizes a tensor; the gradient passes where the input lies in [input_min, input_max]
    (min and max get zeros). `axis` takes each slice's own range (TF 2.21 refuses a given range per slice)."""
    from tinytf.runtime.ops.quantize_dequantize import quantize_and_dequantize_v4_op

    return _quantize_and_dequantize(quantize_and_dequantize_v4_op, input, input_min, input_max, signed_input,
                                    num_bits, range_given, round_mode, name, narrow_range, axis)


# isort: split
# quantize / dequantize / quantized_concat (helper toplvl2): TF's quantized dtypes
from .quantized_types import dequantize, quantize, quantized_concat  # noqa: E402,F401
