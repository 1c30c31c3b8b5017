"""A max pool's gradient under a relu, the conv filter gradient that reads it and the bias gradient (its sum
over images and positions) as one op, per chunk of images (made by the pool_filter_gradient pass).

A CNN's first conv has no input gradient: its relu + pool gradient (max_pool2d_relu_grad, a 6.4 MB array
for the CNN step's 64x28x28x32) is read only by the conv's filter gradient and the bias gradient. As three
ops it is written to memory once and read back twice after it has left the cache. Here each task of the
filter gradient (a few images) writes its images' pool gradient into a buffer of its thread, sums it for the
bias and multiplies it with its window matrix while it is in L2; the full-size array is never made.

Bits: the filter gradient is the separate ops' (the tasks and the partial sums they go into are
conv_kernels.conv2d_filter_grad's, which depend on the shapes alone, and the pool gradient's values are
pool_kernels'); the bias gradient is summed per task (reduce's wide rows) into the same fixed partial sums,
added in order: the same bits on any thread count, but not those of one reduce_sum over the whole array (a
different order of float additions, and a more accurate one). Whenever a fast path does not apply (a NaN in
the pooled values, an inf or NaN in the gradient, windows that do not tile, row tasks that cut a pool
window, a conv in the frequency domain) the three kernels run one after the other as before."""

from __future__ import annotations

import threading

import numpy as np

from ..registry import OpDef, register
from . import conv, conv_kernels, fft_conv_kernels, pool_kernels, reduce
from .nn_grad import _max_pool_relu_grad_kernel
from .thread_buffers import workspace

_local = threading.local()


def pool_filter_grad(x, r, y, g, filter_shape, geo, pool, with_bias):
    """(conv2d_backprop_filter(x, m), [reduce_sum(m, (0, 1, 2))]) of m = max_pool2d_relu_grad(r, y, g),
    `pool` = (ksize, strides, padding) of the max pool of r (the conv's relu output) whose output is y."""
    ksize, pool_strides, pool_padding = pool
    dtype = np.result_type(x, g)
    tasks = _fast_tasks(x, r, y, g, filter_shape, geo, pool, dtype)
    if tasks is None:
        m = _max_pool_relu_grad_kernel(r, y, g, ksize=ksize, strides=pool_strides, padding=pool_padding)
        grads = (conv_kernels.conv2d_filter_grad(x, m, filter_shape, geo),)
        return grads + ((reduce._sum(m, axis=(0, 1, 2), keepdims=False),) if with_bias else ())
    kh, kw, channels, out_channels = filter_shape
    depth = kh * kw * channels
    (out_h, out_w), (ph, pw) = geo.out_hw, ksize
    view = pool_kernels.tiled_view(r, ksize, pool_strides, pool_padding)
    oh, ow = view.shape[1], view.shape[3]
    covered = out_h == oh * ph and out_w == ow * pw  # else VALID leaves rows or columns outside every window
    x, g = np.asarray(x, dtype), np.asarray(g, dtype)
    count = conv_kernels._thread_count(x.shape[0] * out_h * out_w, depth, out_channels)
    groups = [tasks[k::conv_kernels.PARTIAL_SUMS] for k in range(min(conv_kernels.PARTIAL_SUMS, len(tasks)))]
    partials = [None] * len(groups)
    bias_partials = [None] * len(groups)

    def work(group, _worker):
        total = np.zeros((depth, out_channels), dtype)
        bias = np.zeros(out_channels, dtype)
        product = workspace(_local, "product", (depth, out_channels), dtype)
        for task in groups[group]:
            n0, n1, r0, r1 = task
            grad = workspace(_local, "grad", (n1 - n0, r1 - r0, out_w, out_channels), dtype)
            if not covered:
                grad[...] = 0
            a, b = r0 // ph, min(-(-r1 // ph), oh)  # the pool windows of these rows (tasks cut none)
            tiles = grad[:, :(b - a) * ph, :ow * pw].reshape(n1 - n0, b - a, ph, ow, pw, out_channels)
            pool_kernels._max_pool_grad_into(tiles, view[n0:n1, a:b], y[n0:n1, a:b], g[n0:n1, a:b],
                                             positive_only=True, finite=True)
            rows = grad.reshape(-1, out_channels)
            if with_bias:
                bias += reduce._sum(rows, axis=0, keepdims=False)
            columns = conv_kernels._columns(conv_kernels._input_rows(x, task, geo), r1 - r0, geo)
            conv_kernels._matmul_into(columns.T, rows, product)
            total += product
        partials[group], bias_partials[group] = total, bias

    conv_kernels._run(list(range(len(groups))), work, count)
    total, bias = partials[0], bias_partials[0]
    for partial, partial_bias in zip(partials[1:], bias_partials[1:]):
        total += partial
        bias += partial_bias
    return (total.reshape(filter_shape), bias) if with_bias else (total.reshape(filter_shape),)


def _fast_tasks(x, r, y, g, filter_shape, geo, pool, dtype):
    """conv2d_filter_grad's tasks when the fused way applies (the module's docstring), else None."""
    ksize, pool_strides, pool_padding = pool
    kh, kw, channels, out_channels = filter_shape
    if dtype not in (np.float32, np.float64) or not (r.dtype == y.dtype == g.dtype == dtype) or x.size == 0 \
            or g.size == 0 or tuple(r.shape) != (x.shape[0], *geo.out_hw, out_channels):
        return None
    if fft_conv_kernels.choose(dtype, x.shape, filter_shape, geo):
        return None
    view = pool_kernels.tiled_view(r, ksize, pool_strides, pool_padding)
    if view is None or tuple(y.shape) != (view.shape[0], view.shape[1], view.shape[3], out_channels) \
            or tuple(g.shape) != tuple(y.shape) or not pool_kernels.all_finite(g) or np.isnan(y).any():
        return None
    out_h, out_w = geo.out_hw
    tasks = conv_kernels._tasks(x.shape[0], out_h, out_w * kh * kw * channels * dtype.itemsize,
                                conv_kernels.PARTIAL_SUMS)
    ph = ksize[0]
    if any(r0 % ph or (r1 % ph and r1 != out_h) for _, _, r0, r1 in tasks):
        return None
    return tasks


def _kernel(x, r, y, g, *, filter_shape, strides, padding, dilations, ksize, pool_strides, pool_padding,
            with_bias, scratch=None):
    geo = conv.conv_geometry(x.shape[1:3], filter_shape[:2], strides, dilations, padding)
    grads = pool_filter_grad(x, r, y, g, tuple(filter_shape), geo, (ksize, pool_strides, pool_padding), with_bias)
    return grads if with_bias else grads[0]  # one output: the array itself


def _infer(x, r, y, g, *, filter_shape, strides, padding, dilations, ksize, pool_strides, pool_padding,
           with_bias):
    if not (x.dtype is r.dtype is y.dtype is g.dtype) or x.dtype.name not in ("float32", "float64"):
        raise TypeError(f"max_pool2d_relu_grad_filter: x, the relu output, the pool output and its gradient must "
                        f"be one float dtype, got {x.dtype.name}, {r.dtype.name}, {y.dtype.name}, {g.dtype.name}")
    specs = [(x.dtype, tuple(filter_shape))]
    return specs + [(x.dtype, (filter_shape[3],))] if with_bias else specs


max_pool2d_relu_grad_filter_op = register(OpDef(
    "max_pool2d_relu_grad_filter", _kernel, _infer, differentiable=False,
    doc="(conv2d_backprop_filter(x, m), reduce_sum(m, (0, 1, 2)) if with_bias) of m = max_pool2d_relu_grad(r, y, "
        "g), per chunk of images without making m (made by the pool_filter_gradient pass after differentiation, "
        "so it is never differentiated itself)"))
