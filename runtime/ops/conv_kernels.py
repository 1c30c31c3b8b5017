"""The convolution kernels: im2col + GEMM in cache-sized chunks, on up to two threads.

One im2col matrix for the whole batch is big (the CNN's second conv, 64x14x14 windows of 5x5x32: 40 MB):
copied out once and read back by the GEMM, it streams through memory twice, and the copy alone cost as much
as a third of the GEMM. So the output is cut into tasks (a few images, or rows of one image) whose window
matrix is about TASK_BYTES; each task pads its input rows into a small buffer, copies its windows into
another and does its GEMM while both are still in L2. Conv 5x5x32->64 on 64x14x14, 1 BLAS thread, CPU time:
33 ms whole, 16.5 ms in chunks of 2-8 images.

Tasks run on `threads()` threads taking them from one counter, with BLAS on one thread meanwhile
(runtime/blas_threads.py says why). The filter gradient sums its chunks into PARTIAL_SUMS fixed partial
sums, added in order: its result does not depend on the thread count or on which thread took which task.
The input gradient runs one GEMM per window row (width stride 1) or per window offset on tasks of a few
images, added into a padded input in cache.

Each thread keeps its chunk buffers (`_workspace`) across calls: a steady-state call allocates only its
result, and threads never share a buffer.

Stride-1 float convolutions with large windows and enough channels and images go by the frequency domain
instead (fft_conv_kernels.py; its `choose` decides, TINYTF_CONV_ALGO=direct|fft|auto), in all three kernels."""

from __future__ import annotations

import itertools
import threading

import numpy as np

from .. import blas_threads, chunked
from . import fft_conv_kernels, pool_kernels
from .thread_buffers import workspace
from .window_views import strided_view

TASK_BYTES = 1 << 20  # one task's window matrix: with its input rows and output it stays in a 2 MiB L2
OFFSET_TASK_BYTES = 256 << 10  # the input gradient's padded input, products and output gradient rows
ROWS_TASK_BYTES = 1 << 20  # the input gradient's window-row matrix (_input_grad_by_rows)
ROW_TASKS_BYTES = 4 << 20  # images whose window matrix is larger than this are cut into tasks of rows
FEW_CHANNELS = 4  # inputs with at most this many channels build their window matrix by offset
PARALLEL_MIN_FLOPS = 4_000_000  # below this, handing tasks to a second thread costs more than it saves
PARTIAL_SUMS = 4  # the filter gradient's partial sums: the threads take them from a counter, as other tasks
TASK_THREADS = PARTIAL_SUMS  # tasks are cut as for this many threads whatever the count (_split_count)

_local = threading.local()


class Geometry:
    """A convolution's window, strides, dilations, padding (top, bottom, left, right) and output size."""

    __slots__ = ("window", "strides", "dilations", "pads", "out_hw")

    def __init__(self, window, strides, dilations, pads, out_hw):
        self.window, self.strides, self.dilations = tuple(window), tuple(strides), tuple(dilations)
        self.pads, self.out_hw = tuple(pads), tuple(out_hw)


# --- threads and buffers -----------------------------------------------------------------------------------
def threads() -> int:
    """How many threads the kernels use: what the user asked for (tf.config.threading's intra-op count,
    TINYTF_NUM_THREADS, OMP_NUM_THREADS or OPENBLAS_NUM_THREADS, see runtime/chunked.py), else as many as
    numpy's BLAS would use for the same GEMMs. One when BLAS's count cannot be set."""
    if not blas_threads.available():
        return 1
    requested = chunked.requested_threads()
    return max(1, requested if requested is not None else blas_threads.count())


def _workspace(name, shape, dtype):
    """This thread's buffer `name` of this module, seen as `shape`."""
    return workspace(_local, name, shape, dtype)


def _run(tasks, work, count):
    """work(task, worker) for every task, on `count` threads taking tasks from one shared counter (a thread
    the loaded machine does not schedule delays the call by one task, not by half of them). A kernel called
    from inside a task (a pool on a task's rows) runs its tasks on that task's thread: the pool's threads are
    busy with the outer tasks, and one waiting for a task queued behind itself would wait forever."""
    if getattr(_local, "in_task", False):  # the outer task's region already holds BLAS at one thread
        for task in tasks:
            work(task, 0)
        return
    if len(tasks) < 2:
        # one thread at BLAS's count would be whatever a region that ended LINGER_S ago left it at, and
        # OpenBLAS's GEMM of a deep window matrix gives other bits on 2 threads than on 1 (blas_threads says
        # so): the one task's GEMMs run single-threaded as every task's do
        with blas_threads.single():
            for task in tasks:
                work(task, 0)
        return
    count = min(count, len(tasks))
    next_task = itertools.count()

    def loop(worker):
        while True:
            i = next(next_task)  # atomic under the GIL
            if i >= len(tasks):
                return
            work(tasks[i], worker)

    with blas_threads.single():  # also for one thread: a chunk's small GEMM on 2 BLAS threads costs 5x
        futures = [chunked.executor(count - 1, "conv").submit(_as_task, loop, w) for w in range(1, count)]
        try:
            _as_task(loop, 0)
        finally:
            for f in futures:
                # a helper the scheduler has not started yet would find no task left: cancelled, it is not
                # waited for (on a loaded machine that wait is a whole time slice); a started one is waited
                # for, and its error re-raised, before the result is used
                if not f.cancel():
                    f.result()


def _as_task(fn, *args):
    """fn(*args) marked as running inside a task of this thread (see _run)."""
    previous = getattr(_local, "in_task", False)
    _local.in_task = True
    try:
        fn(*args)
    finally:
        _local.in_task = previous


def _run_each(tasks, work, count):
    """work(own tasks, worker) on `count` threads, worker w taking tasks w, w + count, ...: a fixed split,
    for results summed per worker (on the caller's thread alone inside a task, as _run says)."""
    count = 1 if getattr(_local, "in_task", False) else max(1, min(count, len(tasks)))
    with blas_threads.single():
        futures = [chunked.executor(count - 1, "conv").submit(_as_task, work, tasks[w::count], w)
                   for w in range(1, count)]
        try:
            _as_task(work, tasks[0::count], 0)
        finally:
            for f in futures:
                f.result()


def _thread_count(rows, depth, width):
    """Threads for a GEMM of (rows, depth) @ (depth, width)."""
    return threads() if 2 * rows * depth * width >= PARALLEL_MIN_FLOPS else 1


def _split_count(rows, depth, width):
    """The thread count _tasks cuts the tasks of a GEMM of (rows, depth) @ (depth, width) for: TASK_THREADS
    or 1, from the shapes alone. OpenBLAS's float32 GEMM (0.3.31, Haswell kernels on this project's AMD EPYC)
    gives other bits when the same rows are multiplied as blocks of other sizes, so tasks cut for the thread
    count made results depend on it (a CNN's first conv differed in the last bit between 1 and 2 threads).
    TASK_THREADS is the filter gradient's PARTIAL_SUMS: a conv's forward tasks are then the filter gradient's,
    so the op doing both on one window matrix (conv_transpose_backprop) gives the separate ops' bits."""
    return TASK_THREADS if 2 * rows * depth * width >= PARALLEL_MIN_FLOPS else 1


# --- chunks ------------------------------------------------------------------------------------------------
def _tasks(batch, out_h, row_bytes, count, budget=None, row_multiple=1):
    """(n0, n1, r0, r1): images n0:n1, output rows r0:r1, whose window matrix is about `budget` (TASK_BYTES);
    at least two tasks per thread when there are enough images, so that threads finish together. Tasks of
    rows start at multiples of `row_multiple` (a fused pool's window height: each task pools whole windows)."""
    budget = TASK_BYTES if budget is None else budget
    image_bytes = out_h * row_bytes
    if image_bytes <= max(budget, ROW_TASKS_BYTES):  # rows of one image are short GEMMs: only if they must
        per = max(1, budget // image_bytes)
        if count > 1:
            per = min(per, max(1, -(-batch // (2 * count))))
        return [(a, min(a + per, batch), 0, out_h) for a in range(0, batch, per)]
    rows = max(1, budget // row_bytes)
    rows = -(-rows // row_multiple) * row_multiple
    return [(n, n + 1, r, min(r + rows, out_h)) for n in range(batch) for r in range(0, out_h, rows)]


def _input_rows(x, task, geo):
    """The input rows that output rows r0:r1 of images n0:n1 read, padded with zeros as TF pads: a view of
    `x` when no padding is involved, else this thread's buffer."""
    n0, n1, r0, r1 = task
    (kh, _), (sh, _), (dh, _) = geo.window, geo.strides, geo.dilations
    top, _, left, right = geo.pads
    height, width = x.shape[1], x.shape[2]
    lo = r0 * sh - top
    hi = (r1 - 1) * sh + (kh - 1) * dh + 1 - top
    if lo >= 0 and hi <= height and left == 0 and right == 0:
        return x[n0:n1, lo:hi]
    rows = _workspace("rows", (n1 - n0, hi - lo, width + left + right, x.shape[3]), x.dtype)
    a = min(max(lo, 0), hi)
    b = max(min(hi, height), a)
    rows[:, :a - lo] = 0
    rows[:, b - lo:] = 0
    rows[:, a - lo:b - lo, :left] = 0
    rows[:, a - lo:b - lo, left + width:] = 0
    rows[:, a - lo:b - lo, left:left + width] = x[n0:n1, a:b]
    return rows


def _columns(rows, out_rows, geo):
    """The (images * out_rows * OW, KH * KW * C) window matrix of the padded input rows `rows`."""
    (kh, kw), (sh, sw), (dh, dw) = geo.window, geo.strides, geo.dilations
    n, _, _, channels = rows.shape
    out_w = geo.out_hw[1]
    shape = (n * out_rows * out_w, kh * kw * channels)
    if kh == kw == sh == sw == 1 and rows.shape[2] == out_w and rows.flags.c_contiguous:
        return rows.reshape(shape)  # a 1x1 convolution's windows are its input
    if channels <= FEW_CHANNELS:
        return _columns_by_offset(rows, out_rows, geo)
    s_n, s_h, s_w, s_c = rows.strides
    windows = strided_view(rows, (n, out_rows, out_w, kh, kw, channels),
                           (s_n, s_h * sh, s_w * sw, s_h * dh, s_w * dw, s_c))
    columns = _workspace("columns", windows.shape, rows.dtype)
    np.copyto(columns, windows)
    return columns.reshape(shape)


def _columns_by_offset(rows, out_rows, geo):
    """The window matrix of an input with few channels, built transposed, (KH * KW * C, images * out_rows * OW),
    one window offset at a time, and returned as its transpose (the matrix the callers multiply; BLAS takes
    either layout). Row-major, each window's C values sit apart from the next window's, so the copy moves
    C floats at a time: for a 64x28x28x1 input and a 3x3 window, 0.9 ms, against 0.2 ms by offset, where each
    copy reads whole input rows."""
    (kh, kw), (sh, sw), (dh, dw) = geo.window, geo.strides, geo.dilations
    n, _, _, channels = rows.shape
    out_w = geo.out_hw[1]
    columns = _workspace("offset_columns", (kh, kw, channels, n, out_rows, out_w), rows.dtype)
    # the rows turned channels-first once: each offset's copy then reads runs of a row's values, where from
    # the channels-last rows it gathered one value every C (32x34x34x3 rows, 3x3: 0.56 -> 0.40 ms CPU; the
    # conv workload 2.86 -> 2.75 ms CPU, load 10)
    if channels == 1:
        turned = rows.transpose(3, 0, 1, 2)  # already a channels-first view
    else:
        turned = _workspace("offset_turned", (channels,) + rows.shape[:3], rows.dtype)
        np.copyto(turned, rows.transpose(3, 0, 1, 2))
    for i in range(kh):
        for j in range(kw):
            window = turned[:, :, i * dh:i * dh + (out_rows - 1) * sh + 1:sh, j * dw:j * dw + (out_w - 1) * sw + 1:sw]
            np.copyto(columns[i, j], window)
    return columns.reshape(kh * kw * channels, n * out_rows * out_w).T


def _matmul_into(a, b, out):
    if out.dtype in (np.float32, np.float64) and a.dtype == b.dtype == out.dtype:
        np.matmul(a, b, out=out)
    else:
        out[...] = a @ b


# --- the kernels -------------------------------------------------------------------------------------------
def conv2d(x, filters, geo, out=None, bias=None, relu=False, pool=None, x_spectrum=None, pooled=None):
    """The NHWC convolution of `x` with the HWIO `filters`, written into `out` when it is given.

    The epilogue (the conv_epilogue pass fuses it in, runtime/passes/conv_epilogue.py) runs on each task's
    output rows while the GEMM has just left them in cache, on the task's thread: `bias` (C,) added, then
    relu, then, with `pool` = (KH, KW), a max pool whose windows tile the output (VALID; the rows and columns
    past the last whole window are dropped), so that `out` and the result are the pooled (N, OH/KH, OW/KW, C).
    Each step is the numpy ufunc the separate ops use: the results are bit for bit theirs (with a pool, bias
    and relu run after it, on the pooled rows: _epilogue says why that is exact).

    `pooled`, an (N, OH/KH, OW/KW, C) array, with `pool`: the full-size result is kept in `out` (a training
    step's pool gradient reads it) and its tiled max pool goes into `pooled`, each task pooling its own rows
    after their epilogue, while they are in cache (conv_fused.conv2d_epilogue_pooled_op)."""
    kh, kw, channels, out_channels = filters.shape
    batch, (out_h, out_w) = x.shape[0], geo.out_hw
    dtype = np.result_type(x, filters)
    result_shape = (batch, out_h, out_w, out_channels)
    if pool is not None and pooled is None:
        result_shape = (batch, out_h // pool[0], out_w // pool[1], out_channels)
    if out is None or out.shape != result_shape or out.dtype != dtype:
        out = np.empty(result_shape, dtype)
    if pooled is not None and (out.size == 0 or x.size == 0 or filters.size == 0 or
                               fft_conv_kernels.choose(dtype, x.shape, filters.shape, geo)):
        # no tasks of rows to pool in: the conv, then the pool over the whole result (the separate op's way)
        conv2d(x, filters, geo, out, bias, relu, None, x_spectrum)
        if pooled.size:
            pool_kernels.tiled_max_pool(pool_kernels.tiled_view(out, pool, pool, "VALID"), pooled)
        return out
    if out.size == 0:
        return out
    if x.size == 0 or filters.size == 0:
        out[...] = 0
        if bias is not None or pool is not None:  # the epilogue of all-zero products, the unfused ops' answer
            full = np.zeros((batch, out_h, out_w, out_channels), dtype)
            _epilogue(full, bias, relu)
            out[...] = full if pool is None else _pool_rows(full, pool, out.shape[1:3])
        return out
    x = np.asarray(x, dtype)
    if fft_conv_kernels.choose(dtype, x.shape, filters.shape, geo):
        return _conv2d_by_fft(x, filters, geo, out, bias, relu, pool, _usable(x_spectrum, x, filters, geo))
    weights = np.ascontiguousarray(filters, dtype).reshape(kh * kw * channels, out_channels)
    depth = kh * kw * channels
    count = _thread_count(batch * out_h * out_w, depth, out_channels)
    tasks = _tasks(batch, out_h, out_w * depth * dtype.itemsize, _split_count(batch * out_h * out_w, depth,
                                                                              out_channels),
                   row_multiple=1 if pool is None else pool[0])

    def work(task, _worker):
        n0, n1, r0, r1 = task
        columns = _columns(_input_rows(x, task, geo), r1 - r0, geo)
        if pool is None or pooled is not None:
            block = out[n0:n1, r0:r1]
        else:
            block = _workspace("epilogue", (n1 - n0, r1 - r0, out_w, out_channels), dtype)
        _matmul_into(columns, weights, block.reshape(-1, out_channels))
        if pool is None:
            _epilogue(block, bias, relu)
        elif pooled is not None:  # the full rows' epilogue, then their pool: the separate ops' order
            _epilogue(block, bias, relu)
            p0, p1 = r0 // pool[0], min(r1 // pool[0], pooled.shape[1])
            if p1 > p0:
                _pool_rows(block[:, p0 * pool[0] - r0:p1 * pool[0] - r0], pool, (p1 - p0, pooled.shape[2]),
                           pooled[n0:n1, p0:p1])
        else:  # max pool first, then bias and relu on the pooled rows (_epilogue says why that is exact)
            p0, p1 = r0 // pool[0], min(r1 // pool[0], out.shape[1])
            if p1 > p0:
                _pool_rows(block[:, p0 * pool[0] - r0:p1 * pool[0] - r0], pool, (p1 - p0, out.shape[2]),
                           out[n0:n1, p0:p1])
                _epilogue(out[n0:n1, p0:p1], bias, relu)

    _run(tasks, work, count)
    return out


def _conv2d_by_fft(x, filters, geo, out, bias, relu, pool, x_spectrum=None):
    """conv2d in the frequency domain (fft_conv_kernels.py), the epilogue on each task's rows of the output as
    they are copied out of the batch-last layout: the same ufuncs in the same order as the unfused ops, so
    fused and unfused give the same bits here too."""
    epilogue = None if bias is None and not relu else (lambda rows: _epilogue(rows, bias, relu))
    if pool is None:
        return fft_conv_kernels.conv2d(x, filters, geo, out, x_spectrum, epilogue)
    full = _workspace("fft_full", (x.shape[0],) + tuple(geo.out_hw) + (filters.shape[3],), out.dtype)
    fft_conv_kernels.conv2d(x, filters, geo, full, x_spectrum, epilogue)
    return _pool_rows(full, pool, out.shape[1:3], out)


def _epilogue(block, bias, relu):
    """block + bias, then relu, in place. Before a max pool they commute with it, bit for bit, so the conv
    applies them to the 4x smaller pooled rows (for 2x2): rounding is monotonic, so a >= c gives
    fl(a + b) >= fl(c + b), and relu is monotonic, so max(relu(a), relu(c)) is relu(max(a, c)); a NaN
    anywhere in the window is NaN either way (np.maximum propagates it). conv workload (32x32x32x32 output):
    relu 0.36 ms + pool 0.60 ms on the full rows, against the pool and a 0.09 ms relu on the pooled ones.

    The bias is added to whole (W * C) rows, against the bias repeated W times (_add_bias)."""
    if bias is not None:
        _add_bias(block, bias)
    if relu:
        np.maximum(block, 0, out=block)


def _add_bias(block, bias):
    """block + bias in place, `block` (..., W, C): by whole (W * C) rows against the bias repeated W times when
    (W, C) is contiguous, so that numpy's inner loop runs over W * C values instead of C (32 for the CNN's
    first conv, whose bias add went 0.165 -> 0.138 ms per 1.1 MB task, best of 30 interleaved rounds, 1
    thread). The same additions: the same bits."""
    width, channels = block.shape[-2:]
    if width > 1 and block.strides[-2] == block.strides[-1] * channels:
        row = _workspace("bias_row", (width, channels), bias.dtype)
        row[...] = bias
        rows = block.reshape(block.shape[:-2] + (width * channels,))  # a view: (W, C) merges
        np.add(rows, row.reshape(-1), out=rows)
    else:
        np.add(block, bias, out=block)


def _pool_rows(block, pool, pooled_hw, out=None):
    """The tiled max pool of `block`'s rows (whole windows), into `out`."""
    (kh, kw), (ph, pw) = pool, pooled_hw
    n, channels = block.shape[0], block.shape[3]
    view = block[:, :ph * kh, :pw * kw].reshape(n, ph, kh, pw, kw, channels)
    return pool_kernels._tiled_max_pool_into(view, out)  # on this task's thread: never split again


def conv2d_filter_grad(x, g, filter_shape, geo):
    """The gradient of conv2d for its filters: the window matrix of `x` transposed times the output gradient
    `g`, summed over chunks into PARTIAL_SUMS partial sums, then those added in order.

    The chunks and which partial sum each goes into depend on the shapes alone, never on the thread count:
    a train step gives the same bits on 1 thread or 2, whatever the load (the thread count seen by a call
    could differ between calls, and with it the order of the float32 sums: 1-ulp different losses)."""
    kh, kw, channels, out_channels = filter_shape
    depth = kh * kw * channels
    batch, out_h, out_w = g.shape[:3]
    dtype = np.result_type(x, g)
    if g.size == 0 or x.size == 0:
        return np.zeros(filter_shape, dtype)
    x, g = np.asarray(x, dtype), np.asarray(g, dtype)
    if fft_conv_kernels.choose(dtype, x.shape, filter_shape, geo):
        return fft_conv_kernels.conv2d_filter_grad(x, g, filter_shape, geo)
    count = _thread_count(batch * out_h * out_w, depth, out_channels)
    tasks = _tasks(batch, out_h, out_w * depth * dtype.itemsize, PARTIAL_SUMS)
    groups = [tasks[k::PARTIAL_SUMS] for k in range(min(PARTIAL_SUMS, len(tasks)))]
    partials = [None] * len(groups)

    def work(group, _worker):
        total = np.zeros((depth, out_channels), dtype)
        for task in groups[group]:
            n0, n1, r0, r1 = task
            columns = _columns(_input_rows(x, task, geo), r1 - r0, geo)
            product = _workspace("product", (depth, out_channels), dtype)
            _matmul_into(columns.T, g[n0:n1, r0:r1].reshape(-1, out_channels), product)
            total += product
        partials[group] = total

    _run(list(range(len(groups))), work, count)
    total = partials[0]
    for partial in partials[1:]:
        total += partial
    return total.reshape(filter_shape)


def conv2d_input_grad(g, filters, in_shape, geo, out=None):
    """The gradient of conv2d for its input (N, H, W, C), written into `out` when it is given.

    With width stride 1 and more than FEW_CHANNELS input channels, by window rows (_input_grad_by_rows: KH
    GEMMs and KH contiguous adds per task). Otherwise per task of a few images, for each window offset
    (i, j), one GEMM `g @ filters[i, j].T` (the task's N * OH * OW rows, C columns) added at that offset's
    strided positions of a zero, padded input of the thread's own. The products and the padded input stay
    in L2 (OFFSET_TASK_BYTES); one GEMM of all offsets would give a 40 MB matrix to add back from, and the
    transposed convolution on im2col chunks cost 39 ms of CPU against 27-29 ms this way (CNN conv 5x5x32->64
    on 64x14x14, 1 BLAS thread, load 9). Any strides, dilations and padding."""
    kh, kw, channels, out_channels = filters.shape
    batch, out_h, out_w = g.shape[:3]
    height, width = in_shape[1], in_shape[2]
    (_, sw), (_, dw), right = geo.strides, geo.dilations, geo.pads[3]
    dtype = np.result_type(g, filters)
    if out is None or out.shape != (batch, height, width, channels) or out.dtype != dtype:
        out = np.empty((batch, height, width, channels), dtype)
    if out.size == 0:
        return out
    if g.size == 0 or filters.size == 0:
        out[...] = 0
        return out
    if fft_conv_kernels.choose(dtype, (batch,) + tuple(in_shape[1:]), filters.shape, geo):
        return fft_conv_kernels.conv2d_input_grad(g, filters, in_shape, geo, out)
    if sw == 1 and right <= (kw - 1) * dw and channels > FEW_CHANNELS:
        return _input_grad_by_rows(np.ascontiguousarray(g, dtype), filters, in_shape, geo, out)
    return _input_grad_by_offsets(g, filters, in_shape, geo, out)


def _input_grad_by_offsets(g, filters, in_shape, geo, out):
    """conv2d_input_grad one window offset at a time (its docstring), into `out` of the result's shape; strides
    of 2 and more by phases instead, all window offsets in one GEMM (conv_variants_subpixel.py: 0.56x the CPU
    time for conv_transpose's 3x3 stride 2)."""
    from . import conv_variants_subpixel  # here: it builds on this module's chunks and threads

    if conv_variants_subpixel.applies(geo):
        return conv_variants_subpixel.input_grad(g, filters, in_shape, geo, out)
    kh, kw, channels, out_channels = filters.shape
    batch, out_h, out_w = g.shape[:3]
    height, width = in_shape[1], in_shape[2]
    (sh, sw), (dh, dw), (top, bottom, left, right) = geo.strides, geo.dilations, geo.pads
    dtype = out.dtype
    padded_h = max(height + top + bottom, (out_h - 1) * sh + (kh - 1) * dh + 1)
    padded_w = max(width + left + right, (out_w - 1) * sw + (kw - 1) * dw + 1)
    g = np.ascontiguousarray(g, dtype)
    turned = np.ascontiguousarray(filters.transpose(0, 1, 3, 2), dtype)  # (KH, KW, out channels, in channels)
    image_bytes = (padded_h * padded_w * channels + out_h * out_w * (channels + out_channels)) * dtype.itemsize
    count = _thread_count(batch * out_h * out_w, kh * kw * out_channels, channels)
    tasks = _tasks(batch, 1, image_bytes, _split_count(batch * out_h * out_w, kh * kw * out_channels, channels),
                   OFFSET_TASK_BYTES)

    def work(task, _worker):
        n0, n1 = task[:2]
        padded = _workspace("padded", (n1 - n0, padded_h, padded_w, channels), dtype)
        padded[...] = 0
        block = _workspace("block", ((n1 - n0) * out_h * out_w, channels), dtype)
        g_rows = g[n0:n1].reshape(-1, out_channels)
        products = block.reshape(n1 - n0, out_h, out_w, channels)
        for i in range(kh):
            for j in range(kw):
                _matmul_into(g_rows, turned[i, j], block)
                r, c = i * dh, j * dw
                padded[:, r:r + (out_h - 1) * sh + 1:sh, c:c + (out_w - 1) * sw + 1:sw] += products
        out[n0:n1] = padded[:, top:top + height, left:left + width]

    _run(tasks, work, count)
    return out


def _input_grad_by_rows(g, filters, in_shape, geo, out):
    """conv2d_input_grad for width stride 1, by window rows: for each window row i, one GEMM gives every
    input position's sum over the row's KW offsets at once, and one add puts it in place.

    An input column w (of the padded input, shifted by `left`) gets, from window row i, the sum over j of
    g[y, w + left - j * dw] @ filters[i, j].T: one row of the matrix whose row (y, w) holds the KW gradient
    vectors g[y, w + left - (KW - 1 - j') * dw] side by side (j' = KW - 1 - j, zeros outside g), times the
    (KW * out channels, in channels) stack of row i's turned filters. Those rows are windows of g padded by
    (KW - 1) * dw columns on the left: built once per task, used by all KH GEMMs (depth KW * out channels,
    320 for the CNN's 5x5x32->64, against 64 per offset), and each product is added, as one contiguous block
    of rows, at rows y * sh + i * dh of the task's zeroed (rows, W, C) gradient: KH adds where the offset way
    makes KH * KW strided ones, which cost that way as much as its GEMMs. CNN conv 5x5x32->64 on 64x14x14,
    one thread, CPU time: see docs/performance.md."""
    kh, kw, channels, out_channels = filters.shape
    batch, out_h, out_w = g.shape[:3]
    height, width = in_shape[1], in_shape[2]
    (sh, _), (dh, dw), (top, _, left, _) = geo.strides, geo.dilations, geo.pads
    dtype = out.dtype
    reach = (kw - 1) * dw
    g_width = width + left + reach  # g padded by `reach` columns on the left, and on the right as far as read
    rows_h = max(top + height, (out_h - 1) * sh + (kh - 1) * dh + 1)
    # (KH, KW * out channels, in channels): row i's filters, offsets reversed (j'), each transposed
    stacks = np.ascontiguousarray(np.asarray(filters, dtype)[:, ::-1].transpose(0, 1, 3, 2)).reshape(
        kh, kw * out_channels, channels)
    depth = kw * out_channels
    count = _thread_count(batch * out_h * width, kh * depth, channels)
    tasks = _tasks(batch, 1, out_h * width * depth * dtype.itemsize, _split_count(batch * out_h * width,
                                                                                 kh * depth, channels),
                   ROWS_TASK_BYTES)

    def work(task, _worker):
        n0, n1 = task[:2]
        n = n1 - n0
        padded = _workspace("g_padded", (n, out_h, g_width, out_channels), dtype)
        padded[:, :, :reach] = 0
        padded[:, :, reach + out_w:] = 0
        padded[:, :, reach:reach + out_w] = g[n0:n1, :, :g_width - reach]
        s_n, s_h, s_w, s_c = padded.strides
        windows = strided_view(padded, (n, out_h, width, kw, out_channels), (s_n, s_h, s_w, s_w * dw, s_c),
                               left * s_w)  # padded[:, :, left:]'s windows
        columns = _workspace("row_columns", windows.shape, dtype)
        np.copyto(columns, windows)
        columns = columns.reshape(n * out_h * width, depth)
        grad = _workspace("row_grad", (n, rows_h, width, channels), dtype)
        grad[...] = 0
        product = _workspace("row_product", (n, out_h, width, channels), dtype)
        for i in range(kh):
            _matmul_into(columns, stacks[i], product.reshape(-1, channels))
            target = grad[:, i * dh:i * dh + (out_h - 1) * sh + 1:sh]
            np.add(target, product, out=target)
        out[n0:n1] = grad[:, top:top + height]

    _run(tasks, work, count)
    return out


def conv2d_backprop(x, g, filters, geo, dx_out=None, x_spectrum=None):
    """(input gradient, filter gradient) of conv2d for the output gradient `g`, the input gradient written
    into `dx_out` when it is given: in the frequency domain the spectrum of g is computed once for both
    (fft_conv_kernels.conv2d_backprop), and x's is `x_spectrum` when that is input_spectrum's result for x;
    otherwise the two kernels above run one after the other."""
    dtype = np.result_type(x, g, filters)
    in_shape = x.shape
    if (dx_out is None or dx_out.shape != in_shape or dx_out.dtype != dtype) and x.size and g.size and filters.size:
        dx_out = np.empty(in_shape, dtype)
    if x.size and g.size and filters.size and fft_conv_kernels.choose(dtype, in_shape, filters.shape, geo):
        x, g = np.asarray(x, dtype), np.asarray(g, dtype)
        return fft_conv_kernels.conv2d_backprop(x, g, filters, geo, dx_out, _usable(x_spectrum, x, filters, geo))
    return (conv2d_input_grad(g, filters, in_shape, geo, dx_out),
            conv2d_filter_grad(x, g, filters.shape, geo))


def input_spectrum(x, filter_shape, geo, out=None):
    """x's half spectrum as the frequency-domain conv2d and its filter gradient use it, written into `out` when
    it is given (else a new array), for a forward conv and its gradients to share (conv_backprop_pair pass).
    Zeros when the conv goes direct (TINYTF_CONV_ALGO may differ from what it was at trace time): the kernels
    that take it ask the same rule and then ignore it."""
    x = np.asarray(x)
    shape = fft_conv_kernels.spectrum_shape(x.shape, filter_shape, geo)
    if out is None or out.shape != shape or out.dtype != x.dtype:
        out = np.empty(shape, x.dtype)
    if x.size == 0 or not fft_conv_kernels.choose(x.dtype, x.shape, filter_shape, geo):
        out[...] = 0
        return out
    return fft_conv_kernels.input_spectrum(x, filter_shape, geo, out)


def _usable(x_spectrum, x, filters, geo):
    """`x_spectrum` when it is x's spectrum for this conv (input_spectrum ran in the frequency domain), else
    None (the kernel computes it)."""
    if x_spectrum is None or x_spectrum.dtype != x.dtype or \
            x_spectrum.shape != fft_conv_kernels.spectrum_shape(x.shape, filters.shape, geo):
        return None
    return x_spectrum
