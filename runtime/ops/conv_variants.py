"""tf.nn.conv1d, tf.nn.conv2d_transpose and tf.nn.depthwise_conv2d on the convolution kernels.

- conv1d is TF's own reduction: a 2-D convolution of height 1 (expand_dims, conv2d, squeeze), so it runs on
  conv2d's im2col + one GEMM and differentiates through conv2d's gradients.
- conv2d_transpose is TF's `conv2d_backprop_input` (the gradient of conv2d for its input) given the output
  shape: one GEMM of the input with the filter matrix, the window contributions added back (ops/nn_grad.py),
  with that op's gradients (conv2d and conv2d_backprop_filter).
- depthwise_conv2d convolves each input channel with its own `channel_multiplier` filters: not a GEMM, so its
  kernels (depthwise_kernels.py) multiply-add one window offset at a time over channels-last rows. Each of
  its three ops (forward, input and filter gradient) has gradients written with the others."""

from __future__ import annotations

import numpy as np

from .. import shapes
from ..dispatch import apply, convert_to_tensor
from ..errors import InvalidArgumentError
from ..registry import OpDef, register
from . import conv, depthwise_kernels, nn_grad, static_value
from .array import expand_dims, known_ints, squeeze
from .common import require, same_dtype


# --- conv1d ---------------------------------------------------------------------------------------------
def _width_only(value, what):
    """conv1d's stride/dilation: an int or a list of 1 or 3 ints (N, W, C) as (1, w) for conv2d."""
    if hasattr(value, "numpy"):
        value = value.numpy().tolist()
    if isinstance(value, (int, np.integer)):
        return [1, int(value)]
    value = [int(v) for v in value]
    if len(value) == 1:
        return [1, value[0]]
    if len(value) == 3 and value[0] == 1 and value[2] == 1:
        return [1, value[1]]
    raise ValueError(f"conv1d: {what} must be an int or a list of 1 or 3 ints (1, w, 1), got {value}")


def conv1d(input, filters, stride, padding, data_format="NWC", dilations=None, name=None):  # noqa: A002
    """`tf.nn.conv1d`: NWC input, (width, in, out) filters; TF computes it as a conv2d of height 1."""
    if data_format not in (None, "NWC"):
        raise ValueError(f"conv1d: only the NWC data format is supported (as on TF's CPU), got {data_format!r}")
    if not isinstance(padding, str):  # TF's conv1d takes no explicit padding
        raise TypeError(f"conv1d: expected string for argument 'padding' ('SAME' or 'VALID'), not {padding!r}")
    x = expand_dims(convert_to_tensor(input), 1)
    f = expand_dims(convert_to_tensor(filters), 0)
    y = conv.conv2d(x, f, strides=_width_only(stride, "stride"), padding=padding,
                    dilations=_width_only(1 if dilations is None else dilations, "dilations"))
    return squeeze(y, [1])


# --- conv2d_transpose ----------------------------------------------------------------------------------------
def conv2d_transpose(input, filters, output_shape, strides, padding="SAME", data_format="NHWC",  # noqa: A002
                     dilations=None, name=None):
    """`tf.nn.conv2d_transpose`: the gradient of conv2d for an input of `output_shape` (N, H, W, C_out), with
    filters (h, w, C_out, C_in): TF's conv2d_backprop_input."""
    conv._check_nhwc(data_format, "conv2d_transpose")
    out = _transpose_output_shape(output_shape)
    if len(out) != 4:
        raise ValueError(f"conv2d_transpose: output_shape must have 4 elements (N, H, W, C), got {out}")
    x, f = convert_to_tensor(input), convert_to_tensor(filters)
    attrs = {"strides": conv._spatial_pair(strides, "strides", "conv2d_transpose"),
             "padding": conv._padding(padding, "conv2d_transpose", explicit_ok=True),
             "dilations": conv._spatial_pair(1 if dilations is None else dilations, "dilations", "conv2d_transpose")}
    _check_transpose_shapes(x._shape, f._shape, out, attrs)
    return apply(nn_grad.conv2d_backprop_input_op, (x, f), {"shape": tuple(out[1:]), **attrs}, name=name)


def _transpose_output_shape(output_shape):
    """output_shape as 4 ints, except that its batch entry may be a symbolic tensor (`tf.shape(x)[0]`, as Keras
    passes it): the op takes its batch from the input, only the other three entries must be known."""
    if isinstance(output_shape, (list, tuple)) and len(output_shape) == 4:
        batch = output_shape[0]
        if not isinstance(batch, (int, np.integer)):
            batch = static_value.constant_value(convert_to_tensor(batch))
        rest = known_ints(list(output_shape[1:]), "conv2d_transpose: output_shape")
        return (None if batch is None else int(batch), *rest)
    return known_ints(output_shape, "conv2d_transpose: output_shape")


def _check_transpose_shapes(x_shape, f_shape, out, attrs):
    """What TF checks (InvalidArgumentError, as its kernels raise): channels match, and a conv2d of
    `output_shape` gives the input's spatial size."""
    if f_shape is not None and f_shape[3] is not None and x_shape is not None and x_shape[3] is not None \
            and f_shape[3] != x_shape[3]:
        raise InvalidArgumentError(f"conv2d_transpose: input depth {x_shape[3]} must equal the filters' last dimension "
                         f"{f_shape[3]} (filters are (h, w, out_channels, in_channels))")
    if f_shape is not None and f_shape[2] is not None and f_shape[2] != out[3]:
        raise InvalidArgumentError(f"conv2d_transpose: output_shape's depth {out[3]} must equal the filters' third "
                         f"dimension {f_shape[2]}")
    if f_shape is None or x_shape is None or None in f_shape[:2]:
        return
    pad_h, pad_w = conv._padding_per_axis(attrs["padding"])
    for axis, pad in ((1, pad_h), (2, pad_w)):
        expected = conv.window_geometry(out[axis], f_shape[axis - 1], attrs["strides"][axis - 1],
                                        attrs["dilations"][axis - 1], pad)[0]
        if x_shape[axis] is not None and expected != x_shape[axis]:
            raise InvalidArgumentError(
                f"conv2d_transpose: output_shape {out} does not fit the input {shapes.fmt(x_shape)}: a convolution "
                f"of it would have size {expected} in dimension {axis}, not {x_shape[axis]}")
    if x_shape[0] is not None and out[0] is not None and out[0] != x_shape[0]:
        raise InvalidArgumentError(
            f"conv2d_transpose: output_shape's batch {out[0]} must equal the input's {x_shape[0]}")


# --- depthwise_conv2d ---------------------------------------------------------------------------------------------
def _depthwise_kernel(x, filters, *, strides, padding, dilations, out=None):
    """`out`: an optional planned buffer for the result."""
    geo = conv.conv_geometry(x.shape[1:3], filters.shape[:2], strides, dilations, padding)
    return depthwise_kernels.forward(x, filters, geo, out)


def _depthwise_input_kernel(g, filters, *, shape, strides, padding, dilations, out=None):
    """`out`: an optional planned buffer for the result."""
    geo = conv.conv_geometry(shape[:2], filters.shape[:2], strides, dilations, padding)
    return depthwise_kernels.input_grad(g, filters, (g.shape[0], *shape), geo, out)


def _depthwise_filter_kernel(x, g, *, filter_shape, strides, padding, dilations):
    geo = conv.conv_geometry(x.shape[1:3], filter_shape[:2], strides, dilations, padding)
    return depthwise_kernels.filter_grad(x, g, tuple(filter_shape), geo)


def _infer_depthwise(x, filters, *, strides, padding, dilations):
    dtype = same_dtype(x, filters)
    require(dtype, "float", "depthwise_conv2d")
    xs, fs = conv._rank4(x, "input"), conv._rank4(filters, "filter")
    if xs[3] is not None and fs[2] is not None and xs[3] != fs[2]:
        raise ValueError(f"input depth {xs[3]} must equal the filter's in_channels {fs[2]}")
    out_h, out_w = _out_size(xs, fs, strides, dilations, padding)
    depth = None if fs[2] is None or fs[3] is None else fs[2] * fs[3]
    return dtype, (xs[0], out_h, out_w, depth)


def _out_size(xs, fs, strides, dilations, padding):
    pad_h, pad_w = conv._padding_per_axis(padding)
    out_h = None if fs[0] is None else conv.window_geometry(xs[1], fs[0], strides[0], dilations[0], pad_h)[0]
    out_w = None if fs[1] is None else conv.window_geometry(xs[2], fs[1], strides[1], dilations[1], pad_w)[0]
    return out_h, out_w


def _infer_depthwise_input(g, filters, *, shape, strides, padding, dilations):
    batch = None if g._shape is None else g._shape[0]
    return g.dtype, (batch,) + tuple(shape)


def _infer_depthwise_filter(x, g, *, filter_shape, strides, padding, dilations):
    return g.dtype, tuple(filter_shape)


depthwise_conv2d_op = register(OpDef(
    "depthwise_conv2d", _depthwise_kernel, _infer_depthwise,
    doc="each NHWC input channel convolved with its own channel_multiplier filters (HWCM), channels c * M + m"))
depthwise_backprop_input_op = register(OpDef(
    "depthwise_conv2d_backprop_input", _depthwise_input_kernel, _infer_depthwise_input,
    doc="the gradient of depthwise_conv2d for its input"))
depthwise_backprop_filter_op = register(OpDef(
    "depthwise_conv2d_backprop_filter", _depthwise_filter_kernel, _infer_depthwise_filter,
    doc="the gradient of depthwise_conv2d for its filters"))


def depthwise_conv2d(input, filter, strides, padding, data_format=None, dilations=None, name=None):  # noqa: A002
    """`tf.nn.depthwise_conv2d`: NHWC input, (h, w, in_channels, channel_multiplier) filters; strides a list of
    4 (or 1, 2) ints; padding 'SAME', 'VALID' or explicit pairs."""
    conv._check_nhwc(data_format, "depthwise_conv2d")
    strides = conv._spatial_pair(strides, "strides", "depthwise_conv2d")
    dilations = conv._spatial_pair(1 if dilations is None else dilations, "dilations", "depthwise_conv2d")
    if max(strides) > 1 and max(dilations) > 1:
        # TF 2.21 warns and returns a differently sized result (a 9x10 input, 3x3 window, strides 2, rate 2,
        # VALID: 3x4 where the convolution has 3x3): no semantics to copy, so refuse
        raise ValueError("depthwise_conv2d: strides > 1 together with dilations > 1 are not supported (TF 2.21 "
                         "warns and computes a differently sized result); Keras' DepthwiseConv2D computes them")
    return depthwise(input, filter, strides, padding, dilations, name)


def depthwise(input, filter, strides, padding, dilations, name=None):  # noqa: A002
    """The depthwise convolution itself, strides and dilations (pairs) in any combination: Keras'
    DepthwiseConv2D and SeparableConv2D allow strides and dilations > 1 together (Keras runs TF's op at
    stride 1 on the SAME-padded input and subsamples; this kernel computes only the kept outputs)."""
    attrs = {"strides": tuple(strides), "padding": conv._padding(padding, "depthwise_conv2d", explicit_ok=True),
             "dilations": tuple(dilations)}
    return apply(depthwise_conv2d_op, (convert_to_tensor(input), convert_to_tensor(filter)), attrs, name=name)


__all__ = ["conv1d", "conv2d_transpose", "depthwise_conv2d"]
