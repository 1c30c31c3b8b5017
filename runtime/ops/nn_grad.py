"""Gradient rules of the neural-network ops: activations, softmax, losses, bias_add, and conv2d / pooling.

Convolution and pooling gradients are ops of their own (TF's Conv2DBackpropInput/Filter, MaxPoolGrad ...):
each adds window contributions back into a zero (padded) input with one strided slice per window
offset, never a loop over pixels. Their gradients are the forward ops again, so second derivatives work."""

from __future__ import annotations

import numpy as np

from .. import shapes
from ..dispatch import apply
from ..registry import OpDef, gradient, register, wants
from . import conv, conv_kernels, nn, pool_kernels
from . import math as m
from .array import expand_dims
from .conv import (
    avg_pool2d_op,
    conv2d_op,
    max_pool2d_op,
)
from .gradient_helpers import broadcast_reduced
from .nn import (
    bias_add_op,
    dropout_select_op,
    elu_op,
    l2_loss_op,
    leaky_relu_op,
    log_softmax_op,
    relu6_op,
    relu_op,
    selu_op,
    sigmoid_xent_op,
    silu_op,
    softmax_op,
    softplus_op,
    softsign_op,
    sparse_xent_op,
    xent_op,
)
from .reduce import reduce_sum


def _mask(condition, like):
    return m.cast(condition, like.dtype)


# --- dropout --------------------------------------------------------------------------------------------------
@gradient(dropout_select_op)
def _dropout_select_grad(record, g):
    # where's gradient: the kept elements' gradient, zeros for the dropped ones; none for the mask. With a scale,
    # the two ops' gradients in reverse order: where(keep, x * s, 0) gives where(keep, g, 0) * s and back
    scale = record.attrs.get("scale")
    if scale is None:
        return None, apply(dropout_select_op, (record.inputs[0], g), {})
    attrs = {"scale": scale, "scale_first": not record.attrs.get("scale_first", True)}
    return None, apply(dropout_select_op, (record.inputs[0], g), attrs)


# --- activations --------------------------------------------------------------------------------------------
@gradient(relu_op)
def _relu_grad(record, g):
    # from the output, as TF: the pre-activation need not be kept for the backward pass
    return g * _mask(m.greater(record.outputs[0], 0), g)


@gradient(relu6_op)
def _relu6_grad(record, g):
    y = record.outputs[0]
    return g * _mask(m.greater(y, 0), g) * _mask(m.less(y, 6), g)


@gradient(elu_op)
def _elu_grad(record, g):
    x, y = record.inputs[0], record.outputs[0]
    positive = _mask(m.greater(x, 0), g)
    return g * (positive + (1 - positive) * (y + 1))


@gradient(selu_op)
def _selu_grad(record, g):
    x, y = record.inputs[0], record.outputs[0]
    positive = _mask(m.greater(x, 0), g)
    return g * (positive * nn._SELU_SCALE + (1 - positive) * (y + nn._SELU_SCALE * nn._SELU_ALPHA))


@gradient(softplus_op)
def _softplus_grad(record, g):
    return g * m.sigmoid(record.inputs[0])


@gradient(softsign_op)
def _softsign_grad(record, g):
    denominator = 1 + m.abs(record.inputs[0])
    return g / (denominator * denominator)


@gradient(leaky_relu_op)
def _leaky_relu_grad(record, g):
    positive = _mask(m.greater(record.inputs[0], 0), g)
    return g * (positive + (1 - positive) * record.attrs["alpha"])


@gradient(silu_op)
def _silu_grad(record, g):
    x = record.inputs[0]
    beta = record.attrs["beta"]
    s = m.sigmoid(x * beta)
    return g * (s + x * beta * s * (1 - s))


# --- softmax and losses ------------------------------------------------------------------------------------
@gradient(softmax_op)
def _softmax_grad(record, g):
    y = record.outputs[0]
    return y * (g - reduce_sum(g * y, record.attrs["axis"], keepdims=True))


@gradient(log_softmax_op)
def _log_softmax_grad(record, g):
    y = record.outputs[0]
    return g - m.exp(y) * reduce_sum(g, record.attrs["axis"], keepdims=True)


def _softmax_minus_one_hot(labels, logits):
    shifted = logits - np.max(logits, axis=-1, keepdims=True)
    probs = np.exp(shifted)
    probs /= np.sum(probs, axis=-1, keepdims=True)
    rows = probs.reshape(-1, probs.shape[-1])  # a view: the update below lands in probs
    flat = np.asarray(labels).reshape(-1)
    rows[np.arange(flat.size), flat] -= 1
    return probs


sparse_xent_backprop_op = register(OpDef(
    "sparse_softmax_cross_entropy_backprop", _softmax_minus_one_hot,
    lambda labels, logits: (logits.dtype, logits._shape),
    doc="softmax(logits) - one_hot(labels): the gradient of sparse softmax cross-entropy, in one pass"))


@gradient(sparse_xent_op)
def _sparse_xent_grad(record, g):
    labels, logits = record.inputs
    return None, expand_dims(g, -1) * apply(sparse_xent_backprop_op, (labels, logits))


@gradient(sparse_xent_backprop_op)
def _sparse_xent_backprop_grad(record, dy):
    # the one-hot part is constant: what remains is the softmax's gradient
    probs = nn.softmax(record.inputs[1])
    return None, probs * (dy - reduce_sum(dy * probs, -1, keepdims=True))


@gradient(xent_op)
def _xent_grad(record, g):
    labels, logits = record.inputs
    axis = record.attrs["axis"]
    g_full = broadcast_reduced(g, logits, axis, False)
    log_probs = nn.log_softmax(logits, axis)
    # TF's kernel backpropagates softmax - labels: the derivative when each row of labels sums to one, as the
    # op requires. Labels that do not (multi-hot rows given to CategoricalCrossentropy) train as in TF.
    return -g_full * log_probs, g_full * (m.exp(log_probs) - labels)


@gradient(sigmoid_xent_op)
def _sigmoid_xent_grad(record, g):
    labels, logits = record.inputs
    return -g * logits, g * (m.sigmoid(logits) - labels)


@gradient(l2_loss_op)
def _l2_loss_grad(record, g):
    return g * record.inputs[0]


@gradient(bias_add_op)
def _bias_add_grad(record, g):
    value = record.inputs[0]
    if value._shape is None:
        raise ValueError("the gradient of bias_add needs the rank of the value to be known")
    rank = len(value._shape)
    channel = 1 if record.attrs["channels_first"] else rank - 1
    return g, reduce_sum(g, tuple(a for a in range(rank) if a != channel))


# --- convolution -------------------------------------------------------------------------------------------
def _pads(height, width, window, strides, dilations, padding):
    pad_h, pad_w = conv._padding_per_axis(padding)
    _, top, bottom = conv.window_geometry(height, window[0], strides[0], dilations[0], pad_h)
    _, left, right = conv.window_geometry(width, window[1], strides[1], dilations[1], pad_w)
    return top, bottom, left, right


def _add_windows(contributions, in_shape, window, strides, dilations, padding):
    """Sum window contributions (N, OH, OW, KH, KW, C) into a zero input (N, H, W, C): the transpose of
    reading the windows. One strided slice per window offset."""
    n, out_h, out_w, kh, kw, channels = contributions.shape
    height, width = in_shape[1], in_shape[2]
    top, bottom, left, right = _pads(height, width, window, strides, dilations, padding)
    padded = np.zeros((n, height + top + bottom, width + left + right, channels), contributions.dtype)
    for i in range(kh):
        for j in range(kw):
            r, c = i * dilations[0], j * dilations[1]
            padded[:, r:r + (out_h - 1) * strides[0] + 1:strides[0], c:c + (out_w - 1) * strides[1] + 1:strides[1],
                   :] += contributions[:, :, :, i, j, :]
    return padded[:, top:top + height, left:left + width, :]


def _input_shape(g, rest, shape):
    """(N, H, W, C) of the input: N from the gradient, H, W, C from the attribute or the `like` input."""
    spatial = shape if shape is not None else np.shape(rest[-1])[1:]
    return (g.shape[0],) + tuple(spatial)


def _conv_backprop_input_kernel(g, filters, *rest, shape, strides, padding, dilations, out=None, scratch=None):
    """One GEMM per window offset on tasks of a few images (conv_kernels.py), written into `out` (a planned
    buffer) when it is given; `scratch` is accepted, not needed."""
    kh, kw = filters.shape[:2]
    in_shape = _input_shape(g, rest, shape)
    geo = conv.conv_geometry(in_shape[1:3], (kh, kw), strides, dilations, padding)
    return conv_kernels.conv2d_input_grad(g, filters, in_shape, geo, out)


def _infer_input_shaped(g, *rest, shape, **window):
    """A gradient shaped like an NHWC input: g's batch, the other dimensions from `shape` or else from the
    input itself (passed last in `rest` when its shape was not static). The window attrs do not matter."""
    batch = None if g._shape is None else g._shape[0]
    spatial = shape if shape is not None else (None, None, None) if rest[-1]._shape is None else rest[-1]._shape[1:]
    return g.dtype, (batch,) + tuple(spatial)


conv2d_backprop_input_op = register(OpDef(
    "conv2d_backprop_input", _conv_backprop_input_kernel, _infer_input_shaped,
    doc="the gradient of conv2d for its input: each output gradient spread back over its window"))


def _conv_backprop_filter_kernel(x, g, *, filter_shape, strides, padding, dilations, scratch=None):
    """Chunked window matrices times the gradient (conv_kernels.py); `scratch` is accepted, not needed."""
    geo = conv.conv_geometry(x.shape[1:3], filter_shape[:2], strides, dilations, padding)
    return conv_kernels.conv2d_filter_grad(x, g, filter_shape, geo)


def _infer_backprop_filter(x, g, *, filter_shape, strides, padding, dilations):
    return g.dtype, filter_shape


conv2d_backprop_filter_op = register(OpDef(
    "conv2d_backprop_filter", _conv_backprop_filter_kernel, _infer_backprop_filter,
    doc="the gradient of conv2d for its filters: windows of the input times the output gradient"))


def _conv_attrs(attrs):
    return {"strides": attrs["strides"], "padding": attrs["padding"], "dilations": attrs["dilations"]}


def _backprop_input(g, filters, x, attrs):
    spatial = None if x._shape is None else tuple(x._shape[1:])
    if spatial is not None and None not in spatial:
        return apply(conv2d_backprop_input_op, (g, filters), {"shape": spatial, **_conv_attrs(attrs)})
    return apply(conv2d_backprop_input_op, (g, filters, x), {"shape": None, **_conv_attrs(attrs)})


def _backprop_filter(x, g, filters, attrs):
    shape = filters._shape
    if shape is None or None in shape:
        raise ValueError(f"the gradient of conv2d needs the filter shape to be known, got {shapes.fmt(shape)}")
    return apply(conv2d_backprop_filter_op, (x, g), {"filter_shape": tuple(shape), **_conv_attrs(attrs)})


@gradient(conv2d_op)
def _conv2d_grad(record, g):
    x, filters = record.inputs
    return (_backprop_input(g, filters, x, record.attrs) if wants(record, 0) else None,
            _backprop_filter(x, g, filters, record.attrs) if wants(record, 1) else None)


@gradient(conv2d_backprop_input_op)
def _conv2d_backprop_input_grad(record, dy):
    g, filters = record.inputs[:2]
    attrs = record.attrs
    grads = (apply(conv.conv2d_op, (dy, filters), _conv_attrs(attrs)),  # linear in g: the forward conv
             _backprop_filter(dy, g, filters, attrs))  # and in the filters: dy plays the input
    return grads + (None,) * (len(record.inputs) - 2)


@gradient(conv2d_backprop_filter_op)
def _conv2d_backprop_filter_grad(record, dy):
    x, g = record.inputs
    return _backprop_input(g, dy, x, record.attrs), apply(conv.conv2d_op, (x, dy), _conv_attrs(record.attrs))


# --- pooling ----------------------------------------------------------------------------------------------------
_ONE = (1, 1)


def _pool_windows(x, ksize, strides, padding, pad_value):
    out = conv._out_hw(x.shape, ksize, strides, _ONE, padding)
    return conv._windows(x, ksize, out, strides, _ONE, padding, pad_value)


def _argmax_in_windows(x, ksize, strides, padding):
    """For each output, the offset (0 .. kh * kw - 1) of the first maximum in its window (as TF picks)."""
    windows = _pool_windows(x, ksize, strides, padding, -np.inf)
    n, oh, ow, kh, kw, c = windows.shape
    return np.argmax(windows.reshape(n, oh, ow, kh * kw, c), axis=3)


def _max_pool_grad_kernel(x, y, g, *, ksize, strides, padding):
    """TF's MaxPoolGrad(orig_input, orig_output, grad): `y` is the forward's max_pool2d(x), which the tiled path
    compares x against instead of pooling again."""
    tiles = pool_kernels.tiled_view(x, ksize, strides, padding)
    fast = None if tiles is None else pool_kernels.tiled_max_pool_grad(x.shape, tiles, y, g)
    if fast is not None:
        return fast
    winner = _argmax_in_windows(x, ksize, strides, padding)
    kh, kw = ksize
    offsets = np.arange(kh * kw).reshape(1, 1, 1, kh, kw, 1)
    contributions = np.where(winner[:, :, :, None, None, :] == offsets, g[:, :, :, None, None, :], 0)
    return _add_windows(contributions.astype(g.dtype, copy=False), x.shape, ksize, strides, _ONE, padding)


def _max_pool_relu_grad_kernel(x, y, g, *, ksize, strides, padding):
    """max_pool2d_grad(x, y, g) * cast(x > 0) in one kernel (what relu's gradient makes of the pool's when x is
    a relu's output). Bit for bit the two ops' result for finite g: the gradient reaches a window's first
    maximum only when that maximum is positive, and every other position gets g * 0 as before."""
    tiles = pool_kernels.tiled_view(x, ksize, strides, padding)
    # with an inf or NaN in g, g * 0 is NaN where the pool's kernel leaves 0: keep the two ops' order
    if tiles is not None and pool_kernels.all_finite(g):
        fast = pool_kernels.tiled_max_pool_grad(x.shape, tiles, y, g, positive_only=True, finite=True)
        if fast is not None:
            return fast
    return _max_pool_grad_kernel(x, y, g, ksize=ksize, strides=strides, padding=padding) * (x > 0).astype(g.dtype)


max_pool2d_relu_grad_op = register(OpDef(
    "max_pool2d_relu_grad", _max_pool_relu_grad_kernel, lambda x, y, g, **attrs: (g.dtype, x._shape),
    differentiable=False,
    doc="max_pool2d_grad(x, y, g) * cast(x > 0, g's dtype), made by the relu_pool_gradient pass after "
        "differentiation (so it is never differentiated itself)"))


def _max_pool_take_kernel(x, d, *, ksize, strides, padding):
    winner = _argmax_in_windows(x, ksize, strides, padding)
    windows = _pool_windows(d, ksize, strides, padding, 0)
    n, oh, ow, kh, kw, c = windows.shape
    flat = windows.reshape(n, oh, ow, kh * kw, c)
    return np.take_along_axis(flat, winner[:, :, :, None, :], axis=3)[:, :, :, 0, :]


max_pool2d_grad_op = register(OpDef(
    "max_pool2d_grad", _max_pool_grad_kernel, lambda x, y, g, **attrs: (g.dtype, x._shape),
    doc="the gradient of max_pool2d (x, its output y, the output's gradient g): each output gradient goes to the "
        "first maximum of its window"))
def _infer_max_pool_take(x, d, **attrs):
    return d.dtype, conv._pool_infer("numeric", "max_pool2d")(x, **attrs)[1]


max_pool2d_take_op = register(OpDef(
    "max_pool2d_take", _max_pool_take_kernel, _infer_max_pool_take,
    doc="d at the position of each window's maximum of x (the gradient of max_pool2d_grad)"))


def _pool_attrs(attrs):
    return {"ksize": attrs["ksize"], "strides": attrs["strides"], "padding": attrs["padding"]}


@gradient(max_pool2d_op)
def _max_pool2d_grad(record, g):
    return apply(max_pool2d_grad_op, (record.inputs[0], record.outputs[0], g), _pool_attrs(record.attrs))


@gradient(max_pool2d_grad_op)
def _max_pool2d_grad_grad(record, dy):
    return None, None, apply(max_pool2d_take_op, (record.inputs[0], dy), _pool_attrs(record.attrs))


@gradient(max_pool2d_take_op)
def _max_pool2d_take_grad(record, dy):
    x = record.inputs[0]
    pooled = apply(max_pool2d_op, (x,), _pool_attrs(record.attrs))
    return None, apply(max_pool2d_grad_op, (x, pooled, dy), _pool_attrs(record.attrs))


def _avg_pool_grad_kernel(g, *rest, shape, ksize, strides, padding):
    in_shape = _input_shape(g, rest, shape)
    n, out_h, out_w, channels = g.shape
    if pool_kernels.tiles(in_shape[1], in_shape[2], ksize, strides, padding):
        return pool_kernels.tiled_avg_pool_grad(in_shape, ksize, g)
    if padding == "VALID":
        scaled = g / g.dtype.type(ksize[0] * ksize[1])
    else:
        _, top, _ = conv.window_geometry(in_shape[1], ksize[0], strides[0], 1, "SAME")
        _, left, _ = conv.window_geometry(in_shape[2], ksize[1], strides[1], 1, "SAME")
        rows = conv._real_counts(in_shape[1], ksize[0], strides[0], out_h, top)
        cols = conv._real_counts(in_shape[2], ksize[1], strides[1], out_w, left)
        scaled = g / np.outer(rows, cols).astype(g.dtype)[None, :, :, None]
    contributions = np.broadcast_to(scaled[:, :, :, None, None, :], (n, out_h, out_w, ksize[0], ksize[1], channels))
    return _add_windows(contributions, in_shape, ksize, strides, _ONE, padding)


avg_pool2d_grad_op = register(OpDef(
    "avg_pool2d_grad", _avg_pool_grad_kernel, _infer_input_shaped,
    doc="the gradient of avg_pool2d: each output gradient shared over the real elements of its window"))


@gradient(avg_pool2d_op)
def _avg_pool2d_grad(record, g):
    x = record.inputs[0]
    spatial = None if x._shape is None else tuple(x._shape[1:])
    if spatial is not None and None not in spatial:
        return apply(avg_pool2d_grad_op, (g,), {"shape": spatial, **_pool_attrs(record.attrs)})
    return apply(avg_pool2d_grad_op, (g, x), {"shape": None, **_pool_attrs(record.attrs)})


@gradient(avg_pool2d_grad_op)
def _avg_pool2d_grad_grad(record, dy):
    return (apply(conv.avg_pool2d_op, (dy,), _pool_attrs(record.attrs)),) + (None,) * (len(record.inputs) - 1)
