"""conv2d(a, w) and conv2d_backprop_filter(a, b) as one op, on one window matrix of `a` (made by the
conv_transpose_backprop pass).

tf.nn.conv2d_transpose(x, w) is conv2d_backprop_input(x, w), so the gradients of y = conv2d_transpose(x, w)
for an output gradient g are conv2d(g, w) (for x) and conv2d_backprop_filter(g, x) (for w): two direct
kernels that each pad the rows of g and copy its window matrix (im2col), then do one GEMM with it,
`columns @ w` and `columns.T @ x`. As one op the window matrix of each task of a few images is built once
and both GEMMs read it while it is in L2. The conv_transpose workload (32x32x32x16 gradient, 3x3 stride 2):
see docs/performance.md.

Same bits as the two ops: the tasks, and the partial sums the filter gradient adds them into, are those of
conv_kernels.conv2d_filter_grad (they depend on the shapes alone), and every row of the input gradient's GEMM
is the same dot products in the same order whichever rows share its GEMM. Convolutions in the frequency
domain (fft_conv_kernels.choose, asked again at run time) and empty ones run the two kernels as before."""

from __future__ import annotations

import threading

import numpy as np

from ..registry import OpDef, register
from . import conv, conv_kernels, fft_conv_kernels
from .thread_buffers import workspace

_local = threading.local()


def conv2d_and_filter_grad(a, w, b, geo, out=None):
    """(conv2d(a, w), conv2d_backprop_filter(a, b)) for the geometry `geo` of a conv of `a` with `w`'s window;
    the first written into `out` when it fits."""
    kh, kw, channels, out_channels = w.shape
    batch, (out_h, out_w) = a.shape[0], geo.out_hw
    dtype = np.result_type(a, w, b)
    if a.size == 0 or w.size == 0 or b.size == 0 or fft_conv_kernels.choose(dtype, a.shape, w.shape, geo) or \
            conv_kernels._split_count(batch * out_h * out_w, kh * kw * channels, out_channels) != \
            conv_kernels.PARTIAL_SUMS:
        # a small conv2d runs as one task, the filter gradient in its fixed tasks: no shared window matrix
        # gives both their separate bits (conv_kernels._split_count), and there is little to share
        return (conv_kernels.conv2d(a, w, geo, out), conv_kernels.conv2d_filter_grad(a, b, w.shape, geo))
    if out is None or out.shape != (batch, out_h, out_w, out_channels) or out.dtype != dtype:
        out = np.empty((batch, out_h, out_w, out_channels), dtype)
    a, b = np.asarray(a, dtype), np.asarray(b, dtype)
    depth = kh * kw * channels
    weights = np.ascontiguousarray(w, dtype).reshape(depth, out_channels)
    count = conv_kernels._thread_count(batch * out_h * out_w, depth, out_channels)
    # conv2d_filter_grad's tasks and partial sums (its docstring): the filter gradient's bits do not depend on
    # the thread count, and are those of the separate op
    tasks = conv_kernels._tasks(batch, out_h, out_w * depth * dtype.itemsize, conv_kernels.PARTIAL_SUMS)
    groups = [tasks[k::conv_kernels.PARTIAL_SUMS] for k in range(min(conv_kernels.PARTIAL_SUMS, len(tasks)))]
    partials = [None] * len(groups)

    def work(group, _worker):
        total = np.zeros((depth, out_channels), dtype)
        product = workspace(_local, "filter_product", (depth, out_channels), dtype)
        for task in groups[group]:
            n0, n1, r0, r1 = task
            columns = conv_kernels._columns(conv_kernels._input_rows(a, task, geo), r1 - r0, geo)
            conv_kernels._matmul_into(columns, weights, out[n0:n1, r0:r1].reshape(-1, out_channels))
            conv_kernels._matmul_into(columns.T, b[n0:n1, r0:r1].reshape(-1, out_channels), product)
            total += product
        partials[group] = total

    conv_kernels._run(list(range(len(groups))), work, count)
    total = partials[0]
    for partial in partials[1:]:
        total += partial
    return out, total.reshape(w.shape)


def _kernel(a, w, b, *, strides, padding, dilations, out=None, scratch=None):
    """`out`: an optional buffer for the conv2d result; `scratch` is accepted and not needed."""
    geo = conv.conv_geometry(a.shape[1:3], w.shape[:2], strides, dilations, padding)
    return conv2d_and_filter_grad(a, w, b, geo, out)


def _infer(a, w, b, *, strides, padding, dilations):
    dtype, out_shape = conv._infer_conv2d(a, w, strides=strides, padding=padding, dilations=dilations)
    if b.dtype is not dtype:
        raise TypeError(f"conv2d_and_filter_grad: the output gradient must be {dtype.name}, got {b.dtype.name}")
    if b._shape is not None and None not in out_shape and tuple(b._shape) != tuple(out_shape):
        raise ValueError(f"conv2d_and_filter_grad: the output gradient of a conv of output shape {out_shape} "
                         f"must have that shape, got {b._shape}")
    return [(dtype, out_shape), (dtype, w._shape)]


conv2d_and_filter_grad_op = register(OpDef(
    "conv2d_and_filter_grad", _kernel, _infer, differentiable=False,
    doc="(conv2d(a, w), conv2d_backprop_filter(a, b)) in one kernel on one window matrix of a (made by the "
        "conv_transpose_backprop pass after differentiation, so it is never differentiated itself)"))
