"""2-D convolution and pooling on NHWC tensors (tf.nn.conv2d, max_pool2d, avg_pool2d).

Windows are strided views of the (padded) input, never Python loops over pixels: conv2d lays them out as
im2col matrices, in cache-sized chunks, each multiplied by the HWIO filter seen as a 2-D matrix (one BLAS
GEMM per chunk, conv_kernels.py); pooling reduces the window axes of the view. Padding follows TensorFlow
exactly: SAME pads (out - 1) * stride + window - size, half before and the extra element after (bottom/right)."""

from __future__ import annotations

import numpy as np

from .. import shapes
from ..dispatch import apply, convert_to_tensor
from ..registry import OpDef, register
from . import conv_kernels, pool_kernels
from .common import require, same_dtype
from .window_views import strided_view


# --- geometry ----------------------------------------------------------------------------------------------
def _truncating_div(a: int, b: int) -> int:
    return a // b if a >= 0 else -((-a) // b)


def window_geometry(size, window, stride, dilation, padding):
    """(output size, pad before, pad after) along one spatial axis, by TF's rules. `padding` is "SAME",
    "VALID" or an explicit (before, after) pair. Unknown sizes give None where the value depends on them."""
    effective = (window - 1) * dilation + 1
    if padding == "SAME":
        if size is None:
            return None, None, None
        out = -(-size // stride)
        total = max((out - 1) * stride + effective - size, 0)
        return out, total // 2, total - total // 2
    before, after = (0, 0) if padding == "VALID" else padding
    if size is None:
        return None, before, after
    out = _truncating_div(size + before + after - effective + stride, stride)  # TF's formula, C++ division
    if out < 0:
        raise ValueError(f"Computed output size would be negative: {out} [input_size: {size}, "
                         f"effective_filter_size: {effective}, stride: {stride}]")
    return out, before, after


def _spatial_pair(value, what, op_name):
    """strides, dilations and ksize: an int, or a list of 1, 2 or 4 ints (N and C entries must be 1)."""
    if hasattr(value, "numpy"):
        value = value.numpy().tolist()
    if isinstance(value, (int, np.integer)):
        value = [int(value)]
    value = [int(v) for v in value]
    if len(value) == 1:
        pair = (value[0], value[0])
    elif len(value) == 2:
        pair = tuple(value)
    elif len(value) == 4:
        if value[0] != 1 or value[3] != 1:
            raise ValueError(f"{op_name}: {what} in the batch and depth dimensions must be 1 (NHWC), got {value}")
        pair = (value[1], value[2])
    else:
        raise ValueError(f"{op_name}: {what} must be an int or a list of 1, 2 or 4 ints, got {value}")
    if min(pair) < 1:
        raise ValueError(f"{op_name}: {what} must be positive, got {value}")
    return pair


def _padding(padding, op_name, explicit_ok):
    """'SAME' / 'VALID', or (conv2d) explicit [[0, 0], [top, bottom], [left, right], [0, 0]] for NHWC."""
    if isinstance(padding, str):
        upper = padding.upper()
        if upper in ("SAME", "VALID"):
            return upper
    elif explicit_ok and isinstance(padding, (list, tuple)) and len(padding) == 4:
        pairs = [tuple(int(v) for v in p) for p in padding]
        if pairs[0] != (0, 0) or pairs[3] != (0, 0) or min(min(p) for p in pairs) < 0:
            raise ValueError(f"{op_name}: explicit padding must be non-negative and zero for the batch and depth "
                             f"dimensions, got {padding}")
        return (pairs[1], pairs[2])
    accepted = "'SAME', 'VALID' or an explicit list of 4 [before, after] pairs" if explicit_ok else "'SAME' or 'VALID'"
    raise ValueError(f"{op_name}: padding must be {accepted}, got {padding!r}")


def _check_nhwc(data_format, op_name):
    if data_format not in (None, "NHWC"):
        raise ValueError(f"{op_name}: only the NHWC data format is supported (as on TF's CPU), got {data_format!r}")


def _padding_per_axis(padding):
    return (padding, padding) if isinstance(padding, str) else padding


def _windows(x, window, out, strides, dilations, padding, pad_value):
    """A read-only view (N, OH, OW, KH, KW, C) of every window of the NHWC array `x`, padded as TF pads."""
    n, height, width, channels = x.shape
    pad_h, pad_w = _padding_per_axis(padding)
    _, top, bottom = window_geometry(height, window[0], strides[0], dilations[0], pad_h)
    _, left, right = window_geometry(width, window[1], strides[1], dilations[1], pad_w)
    if top or bottom or left or right:
        x = np.pad(x, ((0, 0), (top, bottom), (left, right), (0, 0)), constant_values=pad_value)
    s_n, s_h, s_w, s_c = x.strides
    view_shape = (n, out[0], out[1], window[0], window[1], channels)
    view_strides = (s_n, s_h * strides[0], s_w * strides[1], s_h * dilations[0], s_w * dilations[1], s_c)
    return strided_view(x, view_shape, view_strides)


def _out_hw(x_shape, window, strides, dilations, padding):
    pad_h, pad_w = _padding_per_axis(padding)
    out_h = window_geometry(x_shape[1], window[0], strides[0], dilations[0], pad_h)[0]
    out_w = window_geometry(x_shape[2], window[1], strides[1], dilations[1], pad_w)[0]
    return out_h, out_w


# --- conv2d ------------------------------------------------------------------------------------------------
def conv_geometry(in_hw, window, strides, dilations, padding):
    """The conv_kernels.Geometry of a convolution of an input of spatial size `in_hw`, by TF's padding."""
    pad_h, pad_w = _padding_per_axis(padding)
    out_h, top, bottom = window_geometry(in_hw[0], window[0], strides[0], dilations[0], pad_h)
    out_w, left, right = window_geometry(in_hw[1], window[1], strides[1], dilations[1], pad_w)
    return conv_kernels.Geometry(window, strides, dilations, (top, bottom, left, right), (out_h, out_w))


def _conv2d_kernel(x, filters, *, strides, padding, dilations, out=None, scratch=None):
    """`out`: an optional planned buffer for the result. `scratch` is accepted and not needed any more (the
    kernel's chunks use per-thread buffers, see conv_kernels.py)."""
    geo = conv_geometry(x.shape[1:3], filters.shape[:2], strides, dilations, padding)
    return conv_kernels.conv2d(x, filters, geo, out)


def _rank4(t, what):
    if t._shape is None:
        return (None,) * 4
    if len(t._shape) != 4:
        raise ValueError(f"{what} must be 4-D, got shape {shapes.fmt(t._shape)}")
    return t._shape


def _infer_conv2d(x, filters, *, strides, padding, dilations):
    dtype = same_dtype(x, filters)
    require(dtype, "float", "conv2d")
    n, height, width, channels = _rank4(x, "input (NHWC)")
    kh, kw, in_channels, out_channels = _rank4(filters, "filters (HWIO)")
    if channels is not None and in_channels is not None and channels != in_channels:
        raise ValueError(f"the input depth {channels} does not match the filters' input depth {in_channels} "
                         f"(input {shapes.fmt(x._shape)}, filters {shapes.fmt(filters._shape)})")
    if kh is None or kw is None:
        out = (None, None)
    else:
        out = _out_hw((n, height, width, channels), (kh, kw), strides, dilations, padding)
    return dtype, (n, out[0], out[1], out_channels)


conv2d_op = register(OpDef("conv2d", _conv2d_kernel, _infer_conv2d,
                           doc="2-D convolution of an NHWC input with an HWIO filter (chunked im2col + GEMM)"))


def conv2d(input, filters, strides, padding, data_format="NHWC", dilations=None, name=None):  # noqa: A002
    """`tf.nn.conv2d`: NHWC input, HWIO filters; strides/dilations an int or a list of 1, 2 or 4 ints;
    padding 'SAME', 'VALID' or explicit [[0, 0], [top, bottom], [left, right], [0, 0]]."""
    _check_nhwc(data_format, "conv2d")
    attrs = {"strides": _spatial_pair(strides, "strides", "conv2d"),
             "padding": _padding(padding, "conv2d", explicit_ok=True),
             "dilations": _spatial_pair(1 if dilations is None else dilations, "dilations", "conv2d")}
    return apply(conv2d_op, (convert_to_tensor(input), convert_to_tensor(filters)), attrs, name=name)


# --- pooling -----------------------------------------------------------------------------------------------
_NO_DILATION = (1, 1)


def _window_offsets(x, ksize, strides, out, padding, pad_value):
    """For each of the kh*kw positions in a window, the strided (N, OH, OW, C) view of the (padded) input
    that this position sees across all windows. Pools reduce these few large views pairwise: much faster
    than reducing the small window axes of one 6-D view."""
    pad_h, pad_w = _padding_per_axis(padding)
    _, top, bottom = window_geometry(x.shape[1], ksize[0], strides[0], 1, pad_h)
    _, left, right = window_geometry(x.shape[2], ksize[1], strides[1], 1, pad_w)
    if top or bottom or left or right:
        x = np.pad(x, ((0, 0), (top, bottom), (left, right), (0, 0)), constant_values=pad_value)
    (oh, ow), (sh, sw) = out, strides
    return [x[:, i:i + (oh - 1) * sh + 1:sh, j:j + (ow - 1) * sw + 1:sw]
            for i in range(ksize[0]) for j in range(ksize[1])]


def _max_pool_kernel(x, *, ksize, strides, padding):
    # padding never wins the max: -inf for floats, the smallest value for integers
    tiles = pool_kernels.tiled_view(x, ksize, strides, padding)
    if tiles is not None:
        return pool_kernels.tiled_max_pool(tiles)
    lowest = -np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min
    out = _out_hw(x.shape, ksize, strides, _NO_DILATION, padding)
    views = _window_offsets(x, ksize, strides, out, padding, lowest)
    result = views[0].copy()
    for view in views[1:]:
        np.maximum(result, view, out=result)
    return result


def _real_counts(size, window, stride, out, before):
    """How many unpadded positions each output's window covers along one axis."""
    starts = np.arange(out) * stride - before
    return np.minimum(starts + window, size) - np.maximum(starts, 0)


def _avg_pool_kernel(x, *, ksize, strides, padding):
    tiles = pool_kernels.tiled_view(x, ksize, strides, padding)
    if tiles is not None:
        return pool_kernels.tiled_avg_pool(tiles)
    out = _out_hw(x.shape, ksize, strides, _NO_DILATION, padding)
    views = _window_offsets(x, ksize, strides, out, padding, 0)
    total = views[0].copy()
    for view in views[1:]:
        np.add(total, view, out=total)
    if padding == "VALID":
        return total / x.dtype.type(ksize[0] * ksize[1])
    # SAME: divide by the number of real elements in each window; the count is separable in rows and columns
    _, top, _ = window_geometry(x.shape[1], ksize[0], strides[0], 1, "SAME")
    _, left, _ = window_geometry(x.shape[2], ksize[1], strides[1], 1, "SAME")
    rows = _real_counts(x.shape[1], ksize[0], strides[0], out[0], top)
    cols = _real_counts(x.shape[2], ksize[1], strides[1], out[1], left)
    counts = np.outer(rows, cols).astype(x.dtype)
    return total / counts[None, :, :, None]


def _pool_infer(allowed, op_name):
    def infer(x, *, ksize, strides, padding):
        require(x.dtype, allowed, op_name)
        n, height, width, channels = _rank4(x, "input (NHWC)")
        out = _out_hw((n, height, width, channels), ksize, strides, _NO_DILATION, padding)
        return x.dtype, (n, out[0], out[1], channels)

    return infer


max_pool2d_op = register(OpDef("max_pool2d", _max_pool_kernel, _pool_infer("numeric", "max_pool2d"),
                               doc="maximum over each window of an NHWC input"))
avg_pool2d_op = register(OpDef("avg_pool2d", _avg_pool_kernel, _pool_infer("float", "avg_pool2d"),
                               doc="mean over the real (unpadded) elements of each window of an NHWC input"))


def _pool(op, input, ksize, strides, padding, data_format, name=None):  # noqa: A002
    _check_nhwc(data_format, op.name)
    x = convert_to_tensor(input)
    if op is max_pool2d_op and isinstance(padding, (list, tuple)):
        # TF's explicit padding of max_pool: the padded cells are the dtype's lowest value (they never win a
        # window that holds a real cell), then VALID windows; the pad's gradient is the slice back
        from .array import pad

        (top, bottom), (left, right) = _padding(padding, op.name, explicit_ok=True)
        lowest = -np.inf if x.dtype.is_floating else np.iinfo(x.dtype.np).min
        x = pad(x, [[0, 0], [top, bottom], [left, right], [0, 0]], constant_values=lowest)
        padding = "VALID"
    attrs = {"ksize": _spatial_pair(ksize, "ksize", op.name), "strides": _spatial_pair(strides, "strides", op.name),
             "padding": _padding(padding, op.name, explicit_ok=False)}
    if x._shape is not None and len(x._shape) != 4:
        raise ValueError(f"{op.name}: only 2-D pooling of 4-D NHWC inputs is supported, got shape "
                         f"{shapes.fmt(x._shape)}")
    return apply(op, (x,), attrs, name=name)


def max_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    """`tf.nn.max_pool2d`: the maximum of each ksize window, moved by strides, SAME or VALID padding."""
    return _pool(max_pool2d_op, input, ksize, strides, padding, data_format, name)


def avg_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    """`tf.nn.avg_pool2d`: the mean of each window; with SAME padding only real elements are averaged."""
    return _pool(avg_pool2d_op, input, ksize, strides, padding, data_format, name)


def max_pool(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002
    """`tf.nn.max_pool` on 4-D NHWC input (the 2-D case of TF's N-D pooling)."""
    return _pool(max_pool2d_op, input, ksize, strides, padding, data_format, name)


def avg_pool(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002
    """`tf.nn.avg_pool` on 4-D NHWC input (the 2-D case of TF's N-D pooling)."""
    return _pool(avg_pool2d_op, input, ksize, strides, padding, data_format, name)


__all__ = ["conv2d", "max_pool2d", "avg_pool2d", "max_pool", "avg_pool"]
