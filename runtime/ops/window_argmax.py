"""Window maxima that remember where they came from: tf.nn.max_pool_with_argmax (TF's MaxPoolWithArgmax, its
argmax a flattened index ((b * height + y) * width + x) * channels + c, b only with include_batch_in_index) and
tf.nn.dilation2d (grayscale morphological dilation, TF's Dilation2D: the max over a dilated window of input +
filter; tf.nn.erosion2d is its dual). Both pick the first maximum of a window in row-major order, as TF's
kernels (a strict `>`), and both send a gradient only to that element."""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..dispatch import apply, convert_to_tensor
from ..errors import InvalidArgumentError
from ..registry import OpDef, gradient, register
from .array import range as _range
from .array import reshape, shape, size
from .conv import _check_nhwc, _out_hw, _padding, _spatial_pair, _windows, window_geometry
from .math import add, cast, multiply
from .segment import unsorted_segment_sum


def _window_argmax(windows):
    """(max, window position kh * KW + kw) of an (N, OH, OW, KH, KW, C) view: the first maximum in row-major
    order (NaN never wins, as TF's strict comparison)."""
    n, oh, ow, kh, kw, c = windows.shape
    flat = windows.reshape(n, oh, ow, kh * kw, c)
    filled = np.where(np.isnan(flat), -np.inf, flat)
    position = np.argmax(filled, axis=3)
    best = np.take_along_axis(flat, position[:, :, :, None, :], axis=3)[:, :, :, 0, :]
    return best, position


def _source_rows_cols(position, kw, strides, dilations, pads, out_hw):
    """Input coordinates (unpadded) of each window's chosen element."""
    oh, ow = out_hw
    rows = np.arange(oh)[None, :, None, None] * strides[0] + (position // kw) * dilations[0] - pads[0]
    cols = np.arange(ow)[None, None, :, None] * strides[1] + (position % kw) * dilations[1] - pads[1]
    return rows, cols


def _pads(x_shape, window, strides, dilations, padding):
    top = window_geometry(x_shape[1], window[0], strides[0], dilations[0], padding)[1]
    left = window_geometry(x_shape[2], window[1], strides[1], dilations[1], padding)[1]
    return top, left


# --- max_pool_with_argmax ------------------------------------------------------------------------------------
def _argmax_pool_kernel(x, *, ksize, strides, padding, output_dtype, include_batch_in_index):
    out_hw = _out_hw(x.shape, ksize, strides, (1, 1), padding)
    lowest = -np.inf if np.issubdtype(x.dtype, np.floating) else np.iinfo(x.dtype).min
    windows = _windows(x, ksize, out_hw, strides, (1, 1), padding, lowest)
    best, position = _window_argmax(windows)
    rows, cols = _source_rows_cols(position, ksize[1], strides, (1, 1), _pads(x.shape, ksize, strides, (1, 1),
                                                                              padding), out_hw)
    n, height, width, channels = x.shape
    index = (rows * width + cols) * channels + np.arange(channels)
    if include_batch_in_index:
        index = index + np.arange(n)[:, None, None, None] * (height * width * channels)
    return best.astype(x.dtype), index.astype(output_dtype.np)


def _infer_argmax_pool(x, *, ksize, strides, padding, output_dtype, include_batch_in_index):
    if x._shape is not None and len(x._shape) != 4:
        raise ValueError(f"max_pool_with_argmax: input must be 4-D NHWC, got shape {list(x._shape)}")
    if not (x.dtype.is_floating or x.dtype.is_integer):
        raise TypeError(f"max_pool_with_argmax: input must be real, got {x.dtype.name}")
    if x._shape is None:
        return [(x.dtype, None), (output_dtype, None)]
    out = (x._shape[0], *_out_hw(x._shape, ksize, strides, (1, 1), padding), x._shape[3])
    return [(x.dtype, out), (output_dtype, out)]


max_pool_with_argmax_op = register(OpDef(
    "max_pool_with_argmax", _argmax_pool_kernel, _infer_argmax_pool,
    doc="TF's MaxPoolWithArgmax: window maxima and their flattened input positions"))


@gradient(max_pool_with_argmax_op)
def _argmax_pool_grad(record, g, g_argmax):
    """Each output gradient goes to the input element its argmax names (TF's MaxPoolGradWithArgmax)."""
    x = record.inputs[0]
    index = cast(record.outputs[1], dtypes.int64)
    if not record.attrs["include_batch_in_index"]:
        dims = shape(x, dtypes.int64)
        per_image = dims[1] * dims[2] * dims[3]
        batch = reshape(cast(_batch_ramp(x), dtypes.int64), [-1, 1, 1, 1])
        index = add(index, multiply(batch, per_image))
    flat = unsorted_segment_sum(reshape(g, [-1]), reshape(index, [-1]), size(x, dtypes.int64))
    return reshape(flat, shape(x))


def _batch_ramp(x):
    return _range(0, shape(x)[0])


def max_pool_with_argmax(input, ksize, strides, padding, data_format="NHWC",  # noqa: A002
                         output_dtype=dtypes.int64, include_batch_in_index=False, name=None):
    """`tf.nn.max_pool_with_argmax`: (max pooled output, argmax) with argmax the flattened index
    ((b * height + y) * width + x) * channels + c of each maximum (b only when include_batch_in_index)."""
    _check_nhwc(data_format, "max_pool_with_argmax")
    output_dtype = dtypes.as_dtype(output_dtype)
    if output_dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"max_pool_with_argmax: output_dtype must be int32 or int64, got {output_dtype.name}")
    attrs = {"ksize": _spatial_pair(ksize, "ksize", "max_pool_with_argmax"),
             "strides": _spatial_pair(strides, "strides", "max_pool_with_argmax"),
             "padding": _padding(padding, "max_pool_with_argmax", explicit_ok=False),
             "output_dtype": output_dtype, "include_batch_in_index": bool(include_batch_in_index)}
    return apply(max_pool_with_argmax_op, (convert_to_tensor(input),), attrs, name=name)


# --- dilation2d ----------------------------------------------------------------------------------------------
def _dilation_windows(x, filters, strides, rates, padding):
    if not np.issubdtype(x.dtype, np.floating):  # integers: compared in float64, so SAME can pad with -inf
        x, filters = x.astype(np.float64), filters.astype(np.float64)
    out_hw = _out_hw(x.shape, filters.shape[:2], strides, rates, padding)
    windows = _windows(x, filters.shape[:2], out_hw, strides, rates, padding, -np.inf)
    best, position = _window_argmax(windows + filters[None, None, None])
    return best, position, out_hw


def _dilation_kernel(x, filters, *, strides, rates, padding):
    return _dilation_windows(x, filters, strides, rates, padding)[0].astype(x.dtype)


def _infer_dilation(x, filters, *, strides, rates, padding):
    if x.dtype is not filters.dtype:
        raise TypeError(f"dilation2d: input and filters must have one dtype, got {x.dtype.name} and "
                        f"{filters.dtype.name}")
    if x._shape is not None and len(x._shape) != 4:
        raise ValueError(f"dilation2d: input must be 4-D NHWC, got shape {list(x._shape)}")
    if filters._shape is not None and len(filters._shape) != 3:
        raise ValueError(f"dilation2d: filters must be 3-D [height, width, depth], got shape {list(filters._shape)}")
    if x._shape is None or filters._shape is None or None in filters._shape[:2]:
        return x.dtype, None
    if None not in (x._shape[3], filters._shape[2]) and x._shape[3] != filters._shape[2]:
        raise ValueError(f"dilation2d: input depth {x._shape[3]} does not match filter depth {filters._shape[2]}")
    return x.dtype, (x._shape[0], *_out_hw(x._shape, filters._shape[:2], strides, rates, padding), x._shape[3])


dilation2d_op = register(OpDef("dilation2d", _dilation_kernel, _infer_dilation,
                               doc="TF's Dilation2D: max over a dilated window of input + filter"))


def _dilation_backprop_kernel(x, filters, g, *, strides, rates, padding):
    """(input gradient, filter gradient): each output gradient goes to the input element and the filter tap
    that won its window (TF's Dilation2DBackpropInput / Filter)."""
    _, position, out_hw = _dilation_windows(x, filters, strides, rates, padding)
    kh, kw = filters.shape[:2]
    rows, cols = _source_rows_cols(position, kw, strides, rates, _pads(x.shape, (kh, kw), strides, rates, padding),
                                   out_hw)
    n, _, _, channels = x.shape
    b = np.broadcast_to(np.arange(n)[:, None, None, None], g.shape)
    c = np.broadcast_to(np.arange(channels), g.shape)
    d_input = np.zeros(x.shape, np.float64)
    np.add.at(d_input, (b, rows, cols, c), g)
    d_filter = np.zeros(filters.shape, np.float64)
    np.add.at(d_filter, (position // kw, position % kw, c), g)
    return d_input.astype(x.dtype), d_filter.astype(filters.dtype)


def _infer_dilation_backprop(x, filters, g, **attrs):
    return [(x.dtype, x._shape), (filters.dtype, filters._shape)]


dilation2d_backprop_op = register(OpDef(
    "dilation2d_backprop", _dilation_backprop_kernel, _infer_dilation_backprop, differentiable=False,
    doc="The gradients of Dilation2D wrt its input and its filter (TF registers no gradient of these)"))


@gradient(dilation2d_op)
def _dilation_grad(record, g):
    x, filters = record.inputs
    return apply(dilation2d_backprop_op, (x, filters, g), record.attrs)


def dilation2d(input, filters, strides, padding, data_format, dilations, name=None):  # noqa: A002
    """`tf.nn.dilation2d`: output[b, y, x, c] = max over (dy, dx) of input[b, y * stride + dy * rate,
    x * stride + dx * rate, c] + filters[dy, dx, c] (padded with -inf for SAME)."""
    if data_format != "NHWC":
        raise ValueError(f"dilation2d: only the NHWC data format is supported, got {data_format!r}")
    x, filters = convert_to_tensor(input), convert_to_tensor(filters)
    attrs = {"strides": _spatial_pair(strides, "strides", "dilation2d"),
             "rates": _spatial_pair(dilations, "dilations", "dilation2d"),
             "padding": _padding(padding, "dilation2d", explicit_ok=False)}
    if not x.dtype.is_floating and not x.dtype.is_integer:
        raise InvalidArgumentError(f"dilation2d: input must be real, got {x.dtype.name}")
    return apply(dilation2d_op, (x, filters), attrs, name=name)
