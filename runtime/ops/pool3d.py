"""3-D pooling on NDHWC tensors (tf.nn.max_pool3d, avg_pool3d) and their gradient ops.

As the 2-D pools do (conv.py), a pool reduces, pairwise, the few large strided views that each window offset
(i, j, k) sees across all windows, never Python loops over windows. The max pool's gradient goes to every
position equal to its window's maximum (each tied maximum gets all of it), as TF's CPU MaxPool3DGrad does;
average pooling with SAME padding divides by the number of real (unpadded) elements, separable over the axes."""

from __future__ import annotations

import itertools

import numpy as np

from .. import shapes
from ..dispatch import apply, convert_to_tensor
from ..registry import OpDef, gradient, register
from . import conv
from .common import require
from .conv3d import check_ndhwc, out_dhw, padding_mode, triple

_NO_DILATION = (1, 1, 1)


def _geometry(in_dhw, ksize, strides, padding):
    """(output sizes, pads before, pads after) per spatial axis."""
    parts = [conv.window_geometry(size, k, s, 1, padding) for size, k, s in zip(in_dhw, ksize, strides)]
    return tuple(p[0] for p in parts), tuple(p[1] for p in parts), tuple(p[2] for p in parts)


def _padded(x, before, after, value):
    if any(before) or any(after):
        pads = ((0, 0),) + tuple(zip(before, after)) + ((0, 0),)
        return np.pad(x, pads, constant_values=value)
    return x


def _offset_slices(ksize, strides, out):
    """For each window offset, the strided slices of the padded input that offset reads in every window."""
    return [tuple(slice(o, o + (n - 1) * s + 1, s) for o, n, s in zip(offset, out, strides))
            for offset in itertools.product(*(range(k) for k in ksize))]


def _views(x, ksize, strides, padding, pad_value):
    out, before, after = _geometry(x.shape[1:4], ksize, strides, padding)
    padded = _padded(x, before, after, pad_value)
    return out, [padded[(slice(None),) + s] for s in _offset_slices(ksize, strides, out)]


def _lowest(dtype):
    """Eigen's lowest(): the most negative finite value, where TF's max reducer starts (so a window holding
    only -inf, NaN or padding gives it, not -inf)."""
    return np.finfo(dtype).min if dtype.kind == "f" else np.iinfo(dtype).min


def _max_pool3d_kernel(x, *, ksize, strides, padding):
    # TF's reducer starts from the lowest finite value and keeps it against a NaN (NaN compares false) and
    # -inf: fmax from that value does the same
    _, views = _views(x, ksize, strides, padding, _lowest(x.dtype))
    result = np.full(views[0].shape, _lowest(x.dtype), x.dtype)
    for view in views:
        np.fmax(result, view, out=result)
    return result


def _real_counts(in_dhw, ksize, strides, out, before, dtype):
    counts = [conv._real_counts(size, k, s, n, b) for size, k, s, n, b in zip(in_dhw, ksize, strides, out, before)]
    return np.einsum("i,j,k->ijk", *counts).astype(dtype)[None, :, :, :, None]


def _avg_pool3d_kernel(x, *, ksize, strides, padding):
    out, before, _ = _geometry(x.shape[1:4], ksize, strides, padding)
    _, views = _views(x, ksize, strides, padding, 0)
    total = views[0].copy()
    for view in views[1:]:
        np.add(total, view, out=total)
    if padding == "VALID":
        return total / x.dtype.type(ksize[0] * ksize[1] * ksize[2])
    return total / _real_counts(x.shape[1:4], ksize, strides, out, before, x.dtype)


def _pool_infer(allowed, op_name):
    def infer(x, *, ksize, strides, padding):
        # TF's MaxPool3D and AvgPool3D have no CPU kernel for float64 (and refuse integers): tinytf refuses
        # integers as TF does, and computes float64 too (finite-difference gradient checks need it)
        require(x.dtype, allowed, op_name)
        if x._shape is None:
            return x.dtype, None
        if len(x._shape) != 5:
            raise ValueError(f"{op_name}: the input must be 5-D (NDHWC), got shape {shapes.fmt(x._shape)}")
        n, *dhw, channels = x._shape
        return x.dtype, (n,) + out_dhw(dhw, ksize, strides, _NO_DILATION, padding) + (channels,)

    return infer


max_pool3d_op = register(OpDef("max_pool3d", _max_pool3d_kernel, _pool_infer("float", "max_pool3d"),
                               doc="maximum over each 3-D window of an NDHWC input"))
avg_pool3d_op = register(OpDef("avg_pool3d", _avg_pool3d_kernel, _pool_infer("float", "avg_pool3d"),
                               doc="mean over the real (unpadded) elements of each 3-D window of an NDHWC input"))


# --- gradients -----------------------------------------------------------------------------------------------
def _max_pool3d_grad_kernel(x, g, *, ksize, strides, padding):
    """TF's MaxPool3DGrad: each window's gradient added at every position equal to the window's maximum (TF's
    CPU kernel gives each tied maximum the whole gradient, unlike the 2-D pool's first maximum)."""
    out, before, after = _geometry(x.shape[1:4], ksize, strides, padding)
    pooled = _max_pool3d_kernel(x, ksize=ksize, strides=strides, padding=padding)
    source = _padded(x, before, after, _lowest(x.dtype))
    padded = np.zeros(source.shape, g.dtype)
    for s in _offset_slices(ksize, strides, out):
        index = (slice(None),) + s
        padded[index] += np.where(source[index] == pooled, g, 0)
    return padded[:, before[0]:before[0] + x.shape[1], before[1]:before[1] + x.shape[2],
                  before[2]:before[2] + x.shape[3]]


def _max_pool3d_grad_grad_kernel(x, dy, *, ksize, strides, padding):
    """The gradient of MaxPool3DGrad for its gradient input: each window sums dy over its maxima."""
    out, before, after = _geometry(x.shape[1:4], ksize, strides, padding)
    pooled = _max_pool3d_kernel(x, ksize=ksize, strides=strides, padding=padding)
    source = _padded(x, before, after, _lowest(x.dtype))
    padded = _padded(dy, before, after, 0)
    result = np.zeros(pooled.shape, dy.dtype)
    for s in _offset_slices(ksize, strides, out):
        index = (slice(None),) + s
        result += np.where(source[index] == pooled, padded[index], 0)
    return result


def _avg_pool3d_grad_kernel(g, *like, shape, ksize, strides, padding):
    """TF's AvgPool3DGrad: each window's gradient divided by its count, spread over the window. The input's
    shape is the attribute, or (when it was not static) the shape of the input itself, passed as `like`."""
    shape = shape if shape is not None else like[0].shape
    in_dhw = tuple(shape[1:4])
    out, before, after = _geometry(in_dhw, ksize, strides, padding)
    if padding == "VALID":
        share = g / g.dtype.type(ksize[0] * ksize[1] * ksize[2])
    else:
        share = g / _real_counts(in_dhw, ksize, strides, out, before, g.dtype)
    padded = np.zeros((shape[0],) + tuple(d + b + a for d, b, a in zip(in_dhw, before, after)) + (shape[4],),
                      g.dtype)
    for s in _offset_slices(ksize, strides, out):
        padded[(slice(None),) + s] += share
    return padded[:, before[0]:before[0] + in_dhw[0], before[1]:before[1] + in_dhw[1], before[2]:before[2] + in_dhw[2]]


def _like_first(x, *_rest, **_attrs):
    return x.dtype, x._shape


def _infer_avg_grad(g, *like, shape, ksize, strides, padding):
    return g.dtype, tuple(shape) if shape is not None else like[0]._shape


max_pool3d_grad_op = register(OpDef("max_pool3d_grad", _max_pool3d_grad_kernel, _like_first,
                                    doc="the gradient of max_pool3d: each window's gradient at its maximum"))
max_pool3d_grad_grad_op = register(OpDef(
    "max_pool3d_grad_grad", _max_pool3d_grad_grad_kernel,
    lambda x, dy, **a: (dy.dtype, _pool_infer("float", "max_pool3d")(x, **a)[1]),
    doc="the gradient of max_pool3d_grad for its gradient: dy at each window's maximum"))
avg_pool3d_grad_op = register(OpDef("avg_pool3d_grad", _avg_pool3d_grad_kernel, _infer_avg_grad,
                                    doc="the gradient of avg_pool3d: each window's share spread over it"))


def _window_attrs(attrs):
    return {"ksize": attrs["ksize"], "strides": attrs["strides"], "padding": attrs["padding"]}


@gradient(max_pool3d_op)
def _max_pool3d_grad(record, g):
    return apply(max_pool3d_grad_op, (record.inputs[0], g), _window_attrs(record.attrs))


@gradient(max_pool3d_grad_op)
def _max_pool3d_grad_grad(record, dy):
    # the input only chooses where each window's gradient goes: no gradient flows to it
    return None, apply(max_pool3d_grad_grad_op, (record.inputs[0], dy), _window_attrs(record.attrs))


@gradient(max_pool3d_grad_grad_op)
def _max_pool3d_grad_grad_grad(record, ddy):
    return None, apply(max_pool3d_grad_op, (record.inputs[0], ddy), _window_attrs(record.attrs))


@gradient(avg_pool3d_op)
def _avg_pool3d_grad(record, g):
    x = record.inputs[0]
    if x._shape is None or None in x._shape:  # the kernel reads the input's shape at run time
        return apply(avg_pool3d_grad_op, (g, x), {"shape": None, **_window_attrs(record.attrs)})
    return apply(avg_pool3d_grad_op, (g,), {"shape": tuple(x._shape), **_window_attrs(record.attrs)})


@gradient(avg_pool3d_grad_op)
def _avg_pool3d_grad_grad(record, dy):
    # linear in g: its adjoint is the pool; the input passed for its shape gets none
    return (apply(avg_pool3d_op, (dy,), _window_attrs(record.attrs)),) + (None,) * (len(record.inputs) - 1)


# --- the public functions ----------------------------------------------------------------------------------
def _pool3d(op, input, ksize, strides, padding, data_format, name):  # noqa: A002
    check_ndhwc(data_format, op.name)
    attrs = {"ksize": triple(ksize, "ksize", op.name), "strides": triple(strides, "strides", op.name),
             "padding": padding_mode(padding, op.name)}
    return apply(op, (convert_to_tensor(input),), attrs, name=name)


def max_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):  # noqa: A002
    """`tf.nn.max_pool3d`: the maximum of each ksize window of an NDHWC input, moved by strides."""
    return _pool3d(max_pool3d_op, input, ksize, strides, padding, data_format, name)


def avg_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):  # noqa: A002
    """`tf.nn.avg_pool3d`: the mean of each window; with SAME padding only real elements are averaged."""
    return _pool3d(avg_pool3d_op, input, ksize, strides, padding, data_format, name)
