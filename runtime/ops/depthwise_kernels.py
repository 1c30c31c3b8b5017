"""The depthwise convolution kernels (tf.nn.depthwise_conv2d and its two gradients), on up to two threads.

A depthwise convolution is not a GEMM: each channel meets only its own `multiplier` filters, so per window
offset (i, j) it is one elementwise multiply-add of the offset's strided window view with a vector over the
channels. The kernels do exactly that, with `np.multiply(..., out=)` and `np.add(..., out=)` into buffers
kept per thread, over tasks of a few images whose padded input and accumulators stay in L2 (TASK_BYTES):

- the multiplier axis M is moved first ((M, images, OH, OW, C) accumulators), so every ufunc runs over
  channels-last data with one filter vector per (offset, m);
- with width stride 1 a window row is one contiguous run of OW * C values of the padded input, and the
  filter vector tiled OW times matches it, so each ufunc's inner loop is OW * C long even for 1-3 channels
  (broadcasting a C-vector would make it C long: 7x slower for 3 channels);
- the filter gradient multiplies window and output gradient per offset and sums the rows (np.add.reduce
  over the leading axis), into conv_kernels.PARTIAL_SUMS partial sums fixed by the shapes, added in order:
  the result does not depend on the thread count or on which thread took which task.

Measured against the per-channel conv2d composite Keras used before (32x32x32x16 input, 3x3, multiplier 2,
CPU time, 1 thread): see docs/performance.md. Stride-1 float convolutions take the einsum kernels instead
(depthwise_einsum.py: one multiply-add pass per offset where these make two, 2-3x faster); of the others,
inputs of at most depthwise_dense.MAX_CHANNELS channels run as dense convolutions with block-diagonal filters
(depthwise_dense.py says why and when)."""

from __future__ import annotations

import itertools
import threading

import numpy as np

from .. import chunked
from . import conv_kernels, depthwise_dense, depthwise_einsum
from .thread_buffers import workspace

TASK_BYTES = 1 << 20  # a task's padded input rows, accumulators and product: inside a 2 MiB L2
PARALLEL_MIN_ELEMENTS = 200_000  # multiply-adds below this cost less than handing tasks to a second thread

_local = threading.local()


def _workspace(name, shape, dtype):
    """This thread's buffer `name` of this module, seen as `shape`."""
    return workspace(_local, name, shape, dtype)


def _thread_count(elements):
    return conv_kernels.threads() if elements >= PARALLEL_MIN_ELEMENTS else 1


def _run(tasks, work, count):
    """work(task, worker) for every task on `count` threads taking tasks from one shared counter (a thread
    the loaded machine does not schedule delays the call by one task, not by half of them). numpy's ufuncs
    release the GIL on numeric arrays, so the threads run in parallel."""
    count = max(1, min(count, len(tasks)))
    next_task = itertools.count()

    def loop(worker):
        while True:
            i = next(next_task)  # atomic under the GIL
            if i >= len(tasks):
                return
            work(tasks[i], worker)

    futures = [chunked.executor(count - 1, "depthwise").submit(loop, w) for w in range(1, count)]
    try:
        loop(0)
    finally:
        for f in futures:
            # a helper the scheduler has not started yet would find no task left: cancelled, it is not waited
            # for (on a loaded machine that wait is a whole time slice); a started one is waited for, and its
            # error re-raised, before the result is used
            if not f.cancel():
                f.result()


def _image_tasks(batch, image_bytes, count):
    """(n0, n1) ranges of about TASK_BYTES each, at least two per thread when there are enough images."""
    per = max(1, TASK_BYTES // max(1, image_bytes))
    if count > 1:
        per = min(per, max(1, -(-batch // (2 * count))))
    return [(a, min(a + per, batch)) for a in range(0, batch, per)]


class _Layout:
    """How one convolution's windows are seen: with width stride 1 a window row is (OW * C,) contiguous
    values, else (OW, C); `tiles[i, j, m]` is the filter vector for offset (i, j), multiplier m, in that
    shape."""

    def __init__(self, filters, geo, channels, dtype):
        kh, kw, _, multiplier = filters.shape
        self.out_h, self.out_w = geo.out_hw
        self.flat = geo.strides[1] == 1
        per_offset = np.ascontiguousarray(np.asarray(filters, dtype).transpose(0, 1, 3, 2))  # (KH, KW, M, C)
        tiles = np.broadcast_to(per_offset[:, :, :, None, :], (kh, kw, multiplier, self.out_w, channels))
        tail = (self.out_w * channels,) if self.flat else (self.out_w, channels)
        self.tiles = np.ascontiguousarray(tiles).reshape(kh, kw, multiplier, *tail)
        self.channels = channels

    def rows_shape(self, images):
        return (images, self.out_h) + self.tiles.shape[3:]

    def window(self, padded, i, j, geo):
        """The (images, OH, ...) view of the padded input that window offset (i, j) sees."""
        (sh, sw), (dh, dw) = geo.strides, geo.dilations
        r, c = i * dh, j * dw
        view = padded[:, r:r + (self.out_h - 1) * sh + 1:sh, c:c + (self.out_w - 1) * sw + 1:sw]
        return view.reshape(view.shape[0], self.out_h, -1) if self.flat else view


def _padded_shape(x_shape, geo):
    top, bottom, left, right = geo.pads
    (kh, kw), (sh, sw), (dh, dw) = geo.window, geo.strides, geo.dilations
    out_h, out_w = geo.out_hw
    height = max(x_shape[1] + top + bottom, (out_h - 1) * sh + (kh - 1) * dh + 1)
    width = max(x_shape[2] + left + right, (out_w - 1) * sw + (kw - 1) * dw + 1)
    return height, width


def _padded_input(x, n0, n1, geo, padded_hw):
    """Images n0:n1 of `x` padded with zeros as TF pads: a view of `x` without padding, else this thread's
    buffer."""
    top, _, left, _ = geo.pads
    height, width = x.shape[1], x.shape[2]
    if padded_hw == (height, width) and top == left == 0:
        return x[n0:n1]
    padded = _workspace("padded", (n1 - n0, *padded_hw, x.shape[3]), x.dtype)
    padded[:, :top] = 0
    padded[:, top + height:] = 0
    padded[:, top:top + height, :left] = 0
    padded[:, top:top + height, left + width:] = 0
    padded[:, top:top + height, left:left + width] = x[n0:n1]
    return padded


def _multiplier_first(g, n0, n1, multiplier, channels, name):
    """Images n0:n1 of the (N, OH, OW, C * M) gradient as (M, images, OH, OW, C): a view when M is 1."""
    n, out_h, out_w = n1 - n0, g.shape[1], g.shape[2]
    part = g[n0:n1].reshape(n, out_h, out_w, channels, multiplier)
    if multiplier == 1:
        return part.transpose(4, 0, 1, 2, 3)
    turned = _workspace(name, (multiplier, n, out_h, out_w, channels), g.dtype)
    np.copyto(turned, part.transpose(4, 0, 1, 2, 3))
    return turned


def _result(out, shape, dtype):
    """`out` (a planned buffer) when it is a C-contiguous array of this shape and dtype, else a new one."""
    if out is not None and out.shape == shape and out.dtype == dtype and out.flags.c_contiguous:
        return out
    return np.empty(shape, dtype)


def forward(x, filters, geo, out=None):
    """depthwise_conv2d of the NHWC `x` with (KH, KW, C, M) `filters`: output channel c * M + m; written into
    `out` when it fits."""
    kh, kw, channels, multiplier = filters.shape
    batch, (out_h, out_w) = x.shape[0], geo.out_hw
    dtype = np.result_type(x, filters)
    out = _result(out, (batch, out_h, out_w, channels * multiplier), dtype)
    if out.size == 0:
        return out
    if x.size == 0:
        out[...] = 0
        return out
    x = np.asarray(x, dtype)
    if depthwise_einsum.applies(geo, dtype):
        return depthwise_einsum.forward(x, filters, geo, _run, _thread_count(out.size * kh * kw), out)
    if depthwise_dense.applies(channels, dtype, x):
        return depthwise_dense.forward(x, filters, geo, out)
    layout = _Layout(filters, geo, channels, dtype)
    padded_hw = _padded_shape(x.shape, geo)
    image_bytes = (padded_hw[0] * padded_hw[1] + (multiplier + 1) * out_h * out_w) * channels * dtype.itemsize
    count = _thread_count(out.size * kh * kw)
    tasks = _image_tasks(batch, image_bytes, count)

    def work(task, _worker):
        n0, n1 = task
        padded = _padded_input(x, n0, n1, geo, padded_hw)
        shape = layout.rows_shape(n1 - n0)
        direct = multiplier == 1  # the output itself is the accumulator
        acc = out[n0:n1].reshape(1, *shape) if direct else _workspace("acc", (multiplier, *shape), dtype)
        product = _workspace("product", shape, dtype)
        for m in range(multiplier):
            for i in range(kh):
                for j in range(kw):
                    window = layout.window(padded, i, j, geo)
                    if i == j == 0:
                        np.multiply(window, layout.tiles[i, j, m], out=acc[m])
                    else:
                        np.multiply(window, layout.tiles[i, j, m], out=product)
                        np.add(acc[m], product, out=acc[m])
        if not direct:  # (M, images, OH, OW, C) -> (images, OH, OW, C, M), one multiplier at a time: as one
            # transposed copy numpy's inner loop runs over the M axis, 2 values long (7x slower for M = 2)
            target = out[n0:n1].reshape(n1 - n0, out_h, out_w, channels, multiplier)
            for m in range(multiplier):
                np.copyto(target[..., m], acc[m].reshape(n1 - n0, out_h, out_w, channels))

    _run(tasks, work, count)
    return out


def input_grad(g, filters, in_shape, geo, out=None):
    """The gradient of depthwise_conv2d for its input of shape (N, H, W, C): per offset, the output gradient
    times the filters, summed over the multiplier, added at the offset's strided positions of a zero,
    padded input of the thread's own; written into `out` when it fits."""
    kh, kw, channels, multiplier = filters.shape
    batch, out_h, out_w = g.shape[:3]
    height, width = in_shape[1], in_shape[2]
    top, _, left, _ = geo.pads
    dtype = np.result_type(g, filters)
    out = _result(out, (batch, height, width, channels), dtype)
    if out.size == 0:
        return out
    if g.size == 0:
        out[...] = 0
        return out
    g = np.asarray(g, dtype)
    if depthwise_einsum.applies(geo, dtype):
        return depthwise_einsum.input_grad(g, filters, in_shape, geo, _run, _thread_count(g.size * kh * kw), out)
    if depthwise_dense.applies(channels, dtype, g):
        return depthwise_dense.input_grad(g, filters, in_shape, geo, out)
    layout = _Layout(filters, geo, channels, dtype)
    padded_hw = _padded_shape((batch, height, width), geo)
    image_bytes = (padded_hw[0] * padded_hw[1] + (multiplier + 1) * out_h * out_w) * channels * dtype.itemsize
    count = _thread_count(g.size * kh * kw)
    tasks = _image_tasks(batch, image_bytes, count)

    def work(task, _worker):
        n0, n1 = task
        padded = _workspace("padded", (n1 - n0, *padded_hw, channels), dtype)
        padded[...] = 0
        grads = _multiplier_first(g, n0, n1, multiplier, channels, "grads")
        shape = layout.rows_shape(n1 - n0)
        grads = [grads[m].reshape(shape) for m in range(multiplier)]
        block = _workspace("block", shape, dtype)
        product = _workspace("product", shape, dtype)
        for i in range(kh):
            for j in range(kw):
                np.multiply(grads[0], layout.tiles[i, j, 0], out=block)
                for m in range(1, multiplier):
                    np.multiply(grads[m], layout.tiles[i, j, m], out=product)
                    np.add(block, product, out=block)
                view = layout.window(padded, i, j, geo)
                np.add(view, block, out=view)
        out[n0:n1] = padded[:, top:top + height, left:left + width]

    _run(tasks, work, count)
    return out


def filter_grad(x, g, filter_shape, geo):
    """The gradient of depthwise_conv2d for its filters: per offset (i, j) and multiplier m, the window view
    times the output gradient, summed over images and positions."""
    kh, kw, channels, multiplier = filter_shape
    batch, out_h, out_w = g.shape[:3]
    dtype = np.result_type(x, g)
    if g.size == 0 or x.size == 0:
        return np.zeros(filter_shape, dtype)
    x, g = np.asarray(x, dtype), np.asarray(g, dtype)
    if depthwise_einsum.applies(geo, dtype):
        return depthwise_einsum.filter_grad(x, g, filter_shape, geo, _run, _thread_count(g.size * kh * kw))
    if depthwise_dense.applies(channels, dtype):
        return depthwise_dense.filter_grad(x, g, filter_shape, geo)
    geo_flat = geo.strides[1] == 1
    tail = out_w * channels if geo_flat else channels
    padded_hw = _padded_shape(x.shape, geo)
    image_bytes = (padded_hw[0] * padded_hw[1] + (multiplier + 1) * out_h * out_w) * channels * dtype.itemsize
    count = _thread_count(g.size * kh * kw)
    # the tasks and the partial sum each goes into follow the shapes alone, never the thread count: the same
    # bits on any number of threads (as conv_kernels.conv2d_filter_grad)
    tasks = _image_tasks(batch, image_bytes, conv_kernels.PARTIAL_SUMS)
    groups = [tasks[k::conv_kernels.PARTIAL_SUMS] for k in range(min(conv_kernels.PARTIAL_SUMS, len(tasks)))]
    partials = [np.zeros((kh, kw, multiplier, tail), dtype) for _ in groups]
    layout = _Layout(np.zeros((kh, kw, channels, multiplier), dtype), geo, channels, dtype)  # views only

    def work(group, _worker):
        total = partials[group]
        sums = _workspace("sums", (tail,), dtype)
        for n0, n1 in groups[group]:
            padded = _padded_input(x, n0, n1, geo, padded_hw)
            grads = _multiplier_first(g, n0, n1, multiplier, channels, "grads")
            shape = layout.rows_shape(n1 - n0)
            product = _workspace("product", shape, dtype)
            rows = product.reshape(-1, tail)
            for m in range(multiplier):
                grad = grads[m].reshape(shape)
                for i in range(kh):
                    for j in range(kw):
                        np.multiply(layout.window(padded, i, j, geo), grad, out=product)
                        np.add.reduce(rows, axis=0, out=sums)
                        np.add(total[i, j, m], sums, out=total[i, j, m])

    _run(list(range(len(groups))), work, count)
    total = partials[0]
    for partial in partials[1:]:
        total += partial
    if geo_flat:  # (KH, KW, M, OW * C): sum the OW positions
        total = total.reshape(kh, kw, multiplier, out_w, channels).sum(axis=3)
    return np.ascontiguousarray(total.transpose(0, 1, 3, 2))
