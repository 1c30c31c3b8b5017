"""3-D convolution on NDHWC tensors (tf.nn.conv3d, conv3d_transpose) and its two gradient ops.

A 3-D convolution is a sum over the filter's depth taps of 2-D convolutions: tap `k` sees the input depth slices
k * dilation + d * stride (d over the output depths), which, with the batch and output depth merged into one
axis, are an ordinary NHWC batch for conv_kernels.conv2d (chunked im2col + GEMM) with the filter's slice
filters[k]. The gradients are the same sums of conv_kernels' 2-D gradient kernels. So the 3-D ops reuse the
2-D path's cache-sized chunks and threads instead of a second im2col. Padding follows TF per axis (SAME pads
(out - 1) * stride + window - size, the extra element after)."""

from __future__ import annotations

import numpy as np

from .. import shapes
from ..dispatch import apply, convert_to_tensor
from ..errors import InvalidArgumentError
from ..registry import OpDef, gradient, register, wants
from . import conv, conv_kernels
from .common import require, same_dtype


# --- geometry ----------------------------------------------------------------------------------------------
def triple(value, what, op_name):
    """strides, dilations, ksize: an int, or a list of 1, 3 or 5 ints (N and C entries of 5 must be 1)."""
    if hasattr(value, "numpy"):
        value = value.numpy().tolist()
    if isinstance(value, (int, np.integer)):
        value = [int(value)]
    value = [int(v) for v in value]
    if len(value) == 1:
        result = (value[0],) * 3
    elif len(value) == 3:
        result = tuple(value)
    elif len(value) == 5:
        if value[0] != 1 or value[4] != 1:
            raise InvalidArgumentError(f"{op_name}: {what} in the batch and depth dimensions must be 1 (NDHWC), "
                                       f"got {value}")
        result = tuple(value[1:4])
    else:
        raise InvalidArgumentError(f"{op_name}: {what} must be an int or a list of 1, 3 or 5 ints, got {value}")
    if min(result) < 1:
        raise InvalidArgumentError(f"{op_name}: {what} must be positive, got {value}")
    return result


def padding_mode(padding, op_name):
    if isinstance(padding, str) and padding.upper() in ("SAME", "VALID"):
        return padding.upper()
    raise ValueError(f"{op_name}: padding must be 'SAME' or 'VALID', got {padding!r}")


def check_ndhwc(data_format, op_name):
    if data_format not in (None, "NDHWC"):
        raise ValueError(f"{op_name}: only the NDHWC data format is supported (as on TF's CPU), got {data_format!r}")


def out_dhw(in_dhw, window, strides, dilations, padding):
    """The output's (D, H, W) (None where unknown) by TF's padding rules."""
    return tuple(conv.window_geometry(size, k, s, d, padding)[0] if k is not None else None
                 for size, k, s, d in zip(in_dhw, window, strides, dilations))


def _rank5(t, what, op_name):
    if t._shape is None:
        return (None,) * 5
    if len(t._shape) != 5:
        raise ValueError(f"{op_name}: {what} must be 5-D, got shape {shapes.fmt(t._shape)}")
    return t._shape


class _Taps:
    """For one convolution: the depth padding and, per filter depth tap, the input depth slice it reads, plus
    the 2-D geometry of each tap's convolution over (H, W)."""

    def __init__(self, in_dhw, window, strides, dilations, padding):
        out_d, self.front, self.back = conv.window_geometry(in_dhw[0], window[0], strides[0], dilations[0], padding)
        self.out_d, self.depth, self.stride, self.dilation = out_d, in_dhw[0], strides[0], dilations[0]
        self.geo = conv.conv_geometry(in_dhw[1:], window[1:], strides[1:], dilations[1:], padding)
        self.padded_depth = max(in_dhw[0] + self.front + self.back, (out_d - 1) * strides[0]
                                + (window[0] - 1) * dilations[0] + 1)

    def slices(self, tap):
        start = tap * self.dilation
        return slice(start, start + (self.out_d - 1) * self.stride + 1, self.stride)

    def pad(self, x):
        extra = self.padded_depth - x.shape[1] - self.front
        return np.pad(x, ((0, 0), (self.front, extra), (0, 0), (0, 0), (0, 0))) if self.front or extra else x

    def slab(self, padded, tap):
        """The input depth slices tap `tap` reads, as an NHWC batch of N * OD images."""
        part = padded[:, self.slices(tap)]
        return np.ascontiguousarray(part).reshape((-1,) + part.shape[2:])


# --- kernels -----------------------------------------------------------------------------------------------
def _conv3d_kernel(x, filters, *, strides, padding, dilations):
    taps = _Taps(x.shape[1:4], filters.shape[:3], strides, dilations, padding)
    dtype = np.result_type(x, filters)
    n, out_d, (out_h, out_w), out_c = x.shape[0], taps.out_d, taps.geo.out_hw, filters.shape[4]
    out = np.zeros((n * out_d, out_h, out_w, out_c), dtype)
    if out.size and x.size:
        padded = taps.pad(x)
        for tap in range(filters.shape[0]):
            out += conv_kernels.conv2d(taps.slab(padded, tap), filters[tap], taps.geo)
    return out.reshape(n, out_d, out_h, out_w, out_c)


def _input_grad(g, filters, in_shape, strides, padding, dilations):
    taps = _Taps(in_shape[1:4], filters.shape[:3], strides, dilations, padding)
    n, channels = in_shape[0], in_shape[4]
    dtype = np.result_type(g, filters)
    padded = np.zeros((n, taps.padded_depth) + tuple(in_shape[2:]), dtype)
    if g.size and filters.size:
        rows = np.ascontiguousarray(g, dtype).reshape((-1,) + g.shape[2:])
        slab_shape = (n * taps.out_d,) + tuple(in_shape[2:])
        for tap in range(filters.shape[0]):
            part = conv_kernels.conv2d_input_grad(rows, filters[tap], slab_shape, taps.geo)
            padded[:, taps.slices(tap)] += part.reshape((n, taps.out_d) + tuple(in_shape[2:4]) + (channels,))
    return padded[:, taps.front:taps.front + in_shape[1]]


def _filter_grad(x, g, filter_shape, strides, padding, dilations):
    taps = _Taps(x.shape[1:4], filter_shape[:3], strides, dilations, padding)
    dtype = np.result_type(x, g)
    out = np.zeros(filter_shape, dtype)
    if g.size and x.size:
        padded = taps.pad(x)
        rows = np.ascontiguousarray(g, dtype).reshape((-1,) + g.shape[2:])
        for tap in range(filter_shape[0]):
            out[tap] = conv_kernels.conv2d_filter_grad(taps.slab(padded, tap), rows, filter_shape[1:], taps.geo)
    return out


# --- inference ---------------------------------------------------------------------------------------------
def _infer_conv3d(x, filters, *, strides, padding, dilations):
    dtype = same_dtype(x, filters)
    require(dtype, "float", "conv3d")
    n, depth, height, width, channels = _rank5(x, "input (NDHWC)", "conv3d")
    kd, kh, kw, in_channels, out_channels = _rank5(filters, "filters (DHWIO)", "conv3d")
    if channels is not None and in_channels is not None and channels != in_channels:
        raise ValueError(f"conv3d: the input depth {channels} does not match the filters' input depth "
                         f"{in_channels} (input {shapes.fmt(x._shape)}, filters {shapes.fmt(filters._shape)})")
    out = out_dhw((depth, height, width), (kd, kh, kw), strides, dilations, padding)
    return dtype, (n,) + out + (out_channels,)


conv3d_op = register(OpDef("conv3d", _conv3d_kernel, _infer_conv3d,
                           doc="3-D convolution of an NDHWC input with a DHWIO filter (a sum of 2-D GEMM convs)"))


def _input_shape(g, rest, shape):
    spatial = shape if shape is not None else np.shape(rest[-1])[1:]
    return (g.shape[0],) + tuple(spatial)


def _backprop_input_kernel(g, filters, *rest, shape, strides, padding, dilations):
    return _input_grad(g, filters, _input_shape(g, rest, shape), strides, padding, dilations)


def _infer_backprop_input(g, filters, *rest, shape, strides, padding, dilations):
    batch = None if g._shape is None else g._shape[0]
    if shape is not None:
        spatial = tuple(shape)
    else:
        spatial = (None,) * 4 if rest[-1]._shape is None else tuple(rest[-1]._shape[1:])
    return same_dtype(g, filters), (batch,) + spatial


conv3d_backprop_input_op = register(OpDef(
    "conv3d_backprop_input", _backprop_input_kernel, _infer_backprop_input,
    doc="the gradient of conv3d for its input (TF's Conv3DBackpropInputV2): conv3d_transpose"))


def _backprop_filter_kernel(x, g, *, filter_shape, strides, padding, dilations):
    return _filter_grad(x, g, filter_shape, strides, padding, dilations)


def _infer_backprop_filter(x, g, *, filter_shape, strides, padding, dilations):
    return same_dtype(x, g), tuple(filter_shape)


conv3d_backprop_filter_op = register(OpDef(
    "conv3d_backprop_filter", _backprop_filter_kernel, _infer_backprop_filter,
    doc="the gradient of conv3d for its filters (TF's Conv3DBackpropFilterV2)"))


# --- gradients (linear ops: each gradient is another of the three) -----------------------------------------
def _attrs(attrs):
    return {"strides": attrs["strides"], "padding": attrs["padding"], "dilations": attrs["dilations"]}


def backprop_input(g, filters, x_or_shape, attrs):
    """conv3d_backprop_input for an input `x_or_shape` (a tensor, or its static (D, H, W, C))."""
    if isinstance(x_or_shape, tuple):
        return apply(conv3d_backprop_input_op, (g, filters), {"shape": x_or_shape, **_attrs(attrs)})
    spatial = None if x_or_shape._shape is None else tuple(x_or_shape._shape[1:])
    if spatial is not None and None not in spatial:
        return apply(conv3d_backprop_input_op, (g, filters), {"shape": spatial, **_attrs(attrs)})
    return apply(conv3d_backprop_input_op, (g, filters, x_or_shape), {"shape": None, **_attrs(attrs)})


def _backprop_filter(x, g, filters, attrs):
    shape = filters._shape
    if shape is None or None in shape:
        raise ValueError(f"the gradient of conv3d needs the filter shape to be known, got {shapes.fmt(shape)}")
    return apply(conv3d_backprop_filter_op, (x, g), {"filter_shape": tuple(shape), **_attrs(attrs)})


@gradient(conv3d_op)
def _conv3d_grad(record, g):
    x, filters = record.inputs
    return (backprop_input(g, filters, x, record.attrs) if wants(record, 0) else None,
            _backprop_filter(x, g, filters, record.attrs) if wants(record, 1) else None)


@gradient(conv3d_backprop_input_op)
def _backprop_input_grad(record, dy):
    g, filters = record.inputs[:2]
    grads = (apply(conv3d_op, (dy, filters), _attrs(record.attrs)), _backprop_filter(dy, g, filters, record.attrs))
    return grads + (None,) * (len(record.inputs) - 2)


@gradient(conv3d_backprop_filter_op)
def _backprop_filter_grad(record, dy):
    x, g = record.inputs
    return backprop_input(g, dy, x, record.attrs), apply(conv3d_op, (x, dy), _attrs(record.attrs))


# --- the public functions ----------------------------------------------------------------------------------
def conv3d(input, filters, strides, padding, data_format="NDHWC", dilations=None, name=None):  # noqa: A002
    """`tf.nn.conv3d`: NDHWC input, DHWIO filters; strides (5 ints, or 1 or 3), padding 'SAME' or 'VALID'."""
    check_ndhwc(data_format, "conv3d")
    attrs = {"strides": triple(strides, "strides", "conv3d"), "padding": padding_mode(padding, "conv3d"),
             "dilations": triple(1 if dilations is None else dilations, "dilations", "conv3d")}
    return apply(conv3d_op, (convert_to_tensor(input), convert_to_tensor(filters)), attrs, name=name)


def conv3d_transpose(input, filters, output_shape, strides, padding="SAME", data_format="NDHWC",  # noqa: A002
                     dilations=None, name=None):
    """`tf.nn.conv3d_transpose`: the gradient of conv3d for its input; filters (d, h, w, C_out, C_in)."""
    check_ndhwc(data_format, "conv3d_transpose")
    attrs = {"strides": triple(strides, "strides", "conv3d_transpose"),
             "padding": padding_mode(padding, "conv3d_transpose"),
             "dilations": triple(1 if dilations is None else dilations, "dilations", "conv3d_transpose")}
    if hasattr(output_shape, "numpy"):
        output_shape = output_shape.numpy()
    out = tuple(int(v) for v in output_shape)
    if len(out) != 5:
        raise ValueError(f"conv3d_transpose: output_shape must have 5 elements (NDHWC), got {list(out)}")
    x, f = convert_to_tensor(input), convert_to_tensor(filters)
    if f._shape is not None and out[4] != f._shape[3]:
        raise ValueError(f"conv3d_transpose: output_shape's depth {out[4]} does not match the filters' output "
                         f"channels {f._shape[3]} (filters {shapes.fmt(f._shape)})")
    expected = out_dhw(out[1:4], f._shape[:3] if f._shape else (None,) * 3, attrs["strides"], attrs["dilations"],
                       attrs["padding"])
    got = None if x._shape is None else tuple(x._shape[1:4])
    if got is not None and None not in got and None not in expected and got != expected:
        raise ValueError(f"conv3d_transpose: the input's spatial shape {list(got)} is not what a conv3d of "
                         f"output_shape {list(out)} gives ({list(expected)})")
    return apply(conv3d_backprop_input_op, (x, f), {"shape": out[1:], **attrs}, name=name)
