"""Depthwise convolutions of width and height stride 1 by one einsum per task: forward and both gradients.

With stride 1 the view of the padded input that window offset (i, j) sees is, per image and output row, a
contiguous run of OW * C values (the row shifted by j * dw pixels). With the channel multiplier folded in (each
input channel repeated M times while the input is padded into the task's buffer, so that value (ow, c, m) of a
row is output channel c * M + m), all KH * KW offsets' views are one strided array (KH, KW, images, rows,
OW * C * M), and the depthwise convolution of the task is one einsum against the filters laid out as one
(KH, KW, OW * C * M) row per offset ("ijnrx,ijx->nrx"), written straight into the output:

- numpy's einsum multiplies and adds in one pass (out += a * b) where ufuncs need two, and its inner loop runs
  over whole OW * C * M rows against a filter row that stays in L1 (a C-vector broadcast over the row would
  make numpy call its inner loop once per pixel; a 1-D filter row broadcast over the task's rows halves
  np.multiply's speed on this machine: the per-call overhead of numpy's strided loops);
- the input gradient is the same correlation of the output gradient, placed in a zero grid, with the filters
  turned 180 degrees, then summed over the multiplier;
- the filter gradient is one einsum per task and offset ("nrx,nrx->x": the offset's window times the output
  gradient, summed over images and rows), into conv_kernels.PARTIAL_SUMS partial sums fixed by the shapes,
  added in order, then summed over the OW positions.

Tasks are a few images, or rows of one image, whose padded rows and output rows fit in L2 (TASK_BYTES); they
depend on the shapes alone, so each value is computed by the same einsum on any number of threads: the same
bits on 1, 2 or 3 threads. No filter entry ever meets another channel's values (as the dense way's zeros do),
so infinities and NaNs stay in their own channels. Measured against the dense way it replaces (MobileNet's
block shape, 32x32x32x16, 3x3, multiplier 2, CPU time, 1 thread): see docs/performance.md."""

from __future__ import annotations

import threading

import numpy as np

from . import conv_kernels
from .thread_buffers import workspace
from .window_views import strided_view

TASK_BYTES = 1 << 20  # a task's padded input rows and output rows: inside a 2 MiB L2
MIN_TASKS = 4  # at least this many tasks when there are enough images: two threads finish together

_local = threading.local()


def _workspace(name, shape, dtype):
    return workspace(_local, name, shape, dtype)


def applies(geo, dtype) -> bool:
    """Stride 1 on both axes, float32 or float64 (any padding, any dilation)."""
    return tuple(geo.strides) == (1, 1) and np.dtype(dtype) in (np.float32, np.float64)


def _tasks(batch, rows, row_bytes):
    """(n0, n1, r0, r1): images n0:n1, rows r0:r1, about TASK_BYTES each, at least MIN_TASKS when there are
    enough images; from the shapes alone, never the thread count (see the module docstring)."""
    image_bytes = max(1, rows * row_bytes)
    if image_bytes <= TASK_BYTES:
        per = max(1, min(TASK_BYTES // image_bytes, -(-batch // MIN_TASKS)))
        return [(a, min(a + per, batch), 0, rows) for a in range(0, batch, per)]
    step = max(1, TASK_BYTES // max(1, row_bytes))
    return [(n, n + 1, r, min(r + step, rows)) for n in range(batch) for r in range(0, rows, step)]


def _place(buffer, source, row0, col0, multiplier):
    """buffer (n, rows, cols, C, M) := zeros with `source` (n, rows', cols', C) at row `row0`, column `col0`
    (negative or past the end: clipped), each channel repeated M times."""
    _, rows, cols = buffer.shape[:3]
    a, b = max(row0, 0), min(row0 + source.shape[1], rows)
    c, d = max(col0, 0), min(col0 + source.shape[2], cols)
    if a >= b or c >= d:
        buffer[...] = 0
        return
    buffer[:, :a] = 0
    buffer[:, b:] = 0
    buffer[:, a:b, :c] = 0
    buffer[:, a:b, d:] = 0
    part = source[:, a - row0:b - row0, c - col0:d - col0]
    for m in range(multiplier):  # one channel-strided copy per m: one copy broadcasting over M runs 2 values long
        buffer[:, a:b, c:d, :, m] = part


def _windows(padded, geo, rows, width):
    """The (KH, KW, n, rows, width * C * M) view of the (n, rows', cols, C, M) buffer that each window offset
    sees, stride 1."""
    n, _, cols = padded.shape[:3]
    depth = padded.shape[3] * padded.shape[4]
    s_n, s_r, s_c = padded.strides[:3]
    item = padded.itemsize
    (kh, kw), (dh, dw) = geo.window, geo.dilations
    return strided_view(padded, (kh, kw, n, rows, width * depth), (dh * s_r, dw * s_c, s_n, s_r, item))


def _filter_rows(filters, width, dtype, turned=False):
    """(KH, KW, width * C * M): each offset's filter vector (C * M, channel c * M + m) repeated `width` times;
    `turned`: offsets in reverse order (the input gradient's correlation)."""
    kh, kw, channels, multiplier = filters.shape
    f = np.asarray(filters, dtype)
    if turned:
        f = f[::-1, ::-1]
    rows = np.broadcast_to(f.reshape(kh, kw, 1, channels * multiplier), (kh, kw, width, channels * multiplier))
    return np.ascontiguousarray(rows).reshape(kh, kw, width * channels * multiplier)


def forward(x, filters, geo, run, count, out):
    """depthwise_conv2d of the NHWC `x` (float, nonempty) with (KH, KW, C, M) `filters`, stride 1, into `out`
    (C-contiguous); `run(tasks, work, count)` runs the tasks on `count` threads."""
    kh, kw, channels, multiplier = filters.shape
    batch, (out_h, out_w) = x.shape[0], geo.out_hw
    dtype = x.dtype
    top, bottom, left, right = geo.pads
    (dh, dw) = geo.dilations
    cols = max(x.shape[2] + left + right, out_w + (kw - 1) * dw)
    depth = channels * multiplier
    tiles = _filter_rows(filters, out_w, dtype)
    tasks = _tasks(batch, out_h, (cols + out_w) * depth * dtype.itemsize)

    def work(task, _worker):
        n0, n1, r0, r1 = task
        rows = r1 - r0 + (kh - 1) * dh
        padded = _workspace("padded", (n1 - n0, rows, cols, channels, multiplier), dtype)
        _place(padded, x[n0:n1], top - r0, left, multiplier)  # input row r0 - top is the buffer's row 0
        target = out[n0:n1, r0:r1].reshape(n1 - n0, r1 - r0, out_w * depth)
        np.einsum("ijnrx,ijx->nrx", _windows(padded, geo, r1 - r0, out_w), tiles, out=target)

    run(tasks, work, count)
    return out


def input_grad(g, filters, in_shape, geo, run, count, out):
    """The gradient of depthwise_conv2d (stride 1) for its input of shape (N, H, W, C), into `out`
    (C-contiguous): the correlation of the output gradient, placed in a zero grid, with the turned filters,
    summed over the multiplier."""
    kh, kw, channels, multiplier = filters.shape
    batch, height, width = g.shape[0], in_shape[1], in_shape[2]
    dtype = g.dtype
    top, _, left, _ = geo.pads
    (dh, dw) = geo.dilations
    # input pixel (h, w) gets g[h + top - i * dh, w + left - j * dw] through offset (i, j): with g placed at row
    # (KH - 1) * dh - top, column (KW - 1) * dw - left of a zero grid, that is grid pixel (h + i' * dh,
    # w + j' * dw), i' = KH - 1 - i
    row0, col0 = (kh - 1) * dh - top, (kw - 1) * dw - left
    cols = width + (kw - 1) * dw
    depth = channels * multiplier
    tiles = _filter_rows(filters, width, dtype, turned=True)
    grad = g.reshape(*g.shape[:3], channels, multiplier)
    tasks = _tasks(batch, height, (cols + width * (1 + (multiplier > 1))) * depth * dtype.itemsize)

    def work(task, _worker):
        n0, n1, h0, h1 = task
        n, rows = n1 - n0, h1 - h0
        grid = _workspace("grid", (n, rows + (kh - 1) * dh, cols, channels, multiplier), dtype)
        _place(grid.reshape(*grid.shape[:3], depth, 1), grad[n0:n1].reshape(n, *g.shape[1:3], depth), row0 - h0,
               col0, 1)
        windows = _windows(grid, geo, rows, width)
        if multiplier == 1:
            np.einsum("ijnrx,ijx->nrx", windows, tiles, out=out[n0:n1, h0:h1].reshape(n, rows, width * channels))
            return
        sums = _workspace("sums", (n, rows, width, channels, multiplier), dtype)
        np.einsum("ijnrx,ijx->nrx", windows, tiles, out=sums.reshape(n, rows, width * depth))
        target = out[n0:n1, h0:h1]
        np.add(sums[..., 0], sums[..., 1], out=target)
        for m in range(2, multiplier):
            np.add(target, sums[..., m], out=target)

    run(tasks, work, count)
    return out


def filter_grad(x, g, filter_shape, geo, run, count):
    """The gradient of depthwise_conv2d (stride 1) for its filters: per task, every offset's window times the
    output gradient, summed over images and rows, into fixed partial sums added in order."""
    kh, kw, channels, multiplier = filter_shape
    batch, out_h, out_w = g.shape[:3]
    dtype = g.dtype
    top, bottom, left, right = geo.pads
    (dh, dw) = geo.dilations
    cols = max(x.shape[2] + left + right, out_w + (kw - 1) * dw)
    depth = channels * multiplier
    tasks = _tasks(batch, out_h, (cols + out_w) * depth * dtype.itemsize)
    sums = conv_kernels.PARTIAL_SUMS
    groups = [tasks[k::sums] for k in range(min(sums, len(tasks)))]
    partials = [np.zeros((kh, kw, out_w * depth), dtype) for _ in groups]

    def work(group, _worker):
        total = partials[group]
        for n0, n1, r0, r1 in groups[group]:
            rows = r1 - r0 + (kh - 1) * dh
            padded = _workspace("padded", (n1 - n0, rows, cols, channels, multiplier), dtype)
            _place(padded, x[n0:n1], top - r0, left, multiplier)
            grads = g[n0:n1, r0:r1].reshape(n1 - n0, r1 - r0, out_w * depth)
            part = _workspace("part", total.shape, dtype)
            windows = _windows(padded, geo, r1 - r0, out_w)
            for i in range(kh):  # one einsum per offset: as one "ijnrx,nrx->ijx" it took 1.6x the time
                for j in range(kw):
                    np.einsum("nrx,nrx->x", windows[i, j], grads, out=part[i, j])
            np.add(total, part, out=total)

    run(list(range(len(groups))), work, count)
    total = partials[0]
    for partial in partials[1:]:
        total += partial
    return total.reshape(kh, kw, out_w, channels, multiplier).sum(axis=2)
