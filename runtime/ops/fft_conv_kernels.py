"""Convolutions with large windows in the frequency domain: conv2d, its input gradient and its filter gradient
for stride 1 (any dilation and padding), as discrete Fourier transforms done by GEMMs.

Why: the CNN's second conv (64x14x14x32, 5x5 window, 64 filters) is 642M multiply-adds direct, and the
im2col GEMMs already run near the cores' peak. In the frequency domain a convolution is a product per
frequency: (2 * out channels, 2 * in channels) @ (2 * in channels, batch) real GEMMs over 16 x 9 frequencies,
75M multiply-adds, plus the transforms.

Why not numpy.fft: a prototype with rfft2 / irfft2 (numpy 2.4's pocketfft, float32) took 21.6 ms of CPU for
that conv's forward against 13.7 ms direct, 8.5 ms of it for the input's 2048 small 18x18 transforms. The
images are small, so each 1-D transform is a small dense DFT matrix, and a batch of them is one GEMM of that
matrix with the batch's columns: 0.65 ms for the input's transform, 1.5 ms for the output's inverse. And
with explicit matrices, the padded size need not suit an FFT: 16 for SAME 5x5 on 14 (see `_sizes`), where an
FFT would take 18.

The transforms (signal positions t, frequencies u = 0 .. P - 1 along the height, v = 0 .. Q // 2 along the
width, the rest known by symmetry since the signals are real):
  spectrum:  S[u, v] = sum_{h, w} s[h, w] exp(-2 pi i (u * pos_h / P + v * pos_w / Q))
  spatial:   s[a, b] = Re sum_{u, v} c_v S[u, v] exp(+-2 pi i (u * pos_a / P + v * pos_b / Q)) / (P Q)
with c_v = 2 but for v = 0 and v = Q / 2. With x at positions h + top, w + left and the filter at i * dh,
j * dw:
  conv2d                 y  = spatial(conj(W) X) at positions (p, q), sign +
  conv2d_backprop_input  dx = spatial(W G) at positions (h + top, w + left), sign +
  conv2d_backprop_filter dw = spatial(sum over the batch of conj(X) G) at positions (i * dh, j * dw), sign -
all exact (no wrap-around) when P >= H + max(top, bottom) and Q >= W + max(left, right) (`_sizes`).

Layout: a signal (H, W, M) (M = channels x batch, batch last) goes, by one GEMM batched over rows and one
batched over the width frequencies, to (Vf, P, 2, M): for each frequency, the real and imaginary rows of
the (channels, batch) matrix one above the other, which is the operand of the per-frequency product as it
is. The product for the input gradient is [[Wr, -Wi], [Wi, Wr]] @ [Gr; Gi], conv2d uses the transpose of
that matrix (the adjoint), the filter gradient [Xr; Xi] @ [Gr; Gi]^T.

Threads: the work is cut into tasks fixed by the shapes alone (chunks of columns for the transforms, one
width frequency for the products, slices of rows for the copies) and run on conv_kernels' threads. Every
output element comes from the same BLAS calls whatever the thread count: the same bits on 1, 2 or 3
threads. The filter gradient sums over the batch inside one GEMM per frequency.

`choose(...)` is the dispatch rule conv_kernels asks (TINYTF_CONV_ALGO=direct|fft|auto, default auto)."""

from __future__ import annotations

import functools
import os
import threading

import numpy as np

from .. import blas_threads
from . import conv_kernels
from .thread_buffers import workspace

SPLIT = 4  # a batched GEMM's leading axis is cut into this many slices at most (tasks for the threads)
CHUNK_BYTES = 1 << 20  # a chunk of columns through both DFTs: its input, intermediate and output stay in L2
# The cost model: CPU nanoseconds of the mean of the three directions, fitted (relative least squares) to 24
# shapes timed on this project's 2-core machine, one thread, float32: 3x3 to 9x9 windows, 1 to 256 channels,
# batches 4 to 128, images 7 to 64 (benchmarks/conv_algorithms.py times the CNN's). The frequency domain pays
# per transform multiply-add, per product multiply-add, per float of the filter's block matrices, per float
# of input and output (the copies to and from batch-last) and a fixed cost; the direct conv per multiply-add,
# per float of its window matrices and a fixed cost. On the 24 shapes the fit predicts the measured ratio
# within about 0.2 (load 10-20); ADVANTAGE keeps the frequency domain to where it wins clearly.
NS_PER_TRANSFORM_MAC = 0.047
NS_PER_PRODUCT_MAC = 0.027
NS_PER_BLOCK_FLOAT = 1.07
NS_PER_MOVED_FLOAT = 0.72
NS_FFT_FIXED = 0.45e6
NS_PER_DIRECT_MAC = 0.0177
NS_PER_WINDOW_FLOAT = 0.495
NS_DIRECT_FIXED = 1.13e6
ADVANTAGE = 0.8  # the frequency domain is chosen when its predicted time is at most this share of the direct
# The fit's fixed costs say nothing of small convs (the smallest shape measured does 28M multiply-adds, the
# smallest win 160M, an 80M one broke even): below this many the direct kernels keep them.
MIN_DIRECT_MACS = 100_000_000

_local = threading.local()
_MODES = ("auto", "direct", "fft")


def _workspace(name, shape, dtype):
    return workspace(_local, name, shape, dtype)


# --- the choice --------------------------------------------------------------------------------------------
def mode() -> str:
    """TINYTF_CONV_ALGO: `direct` (im2col + GEMM always), `fft` (the frequency domain wherever it applies),
    `auto` (by the cost model, the default)."""
    value = os.environ.get("TINYTF_CONV_ALGO", "auto").strip().lower() or "auto"
    if value not in _MODES:
        raise ValueError(f"TINYTF_CONV_ALGO must be one of {', '.join(_MODES)}, got {value!r}")
    return value


def applies(dtype, geo) -> bool:
    """The frequency-domain kernels handle float32 and float64, stride 1, any dilation and padding."""
    return np.dtype(dtype) in (np.float32, np.float64) and tuple(geo.strides) == (1, 1)


def choose(dtype, in_shape, filter_shape, geo) -> bool:
    """Whether the convolution (and each of its gradients: the same shapes, the same answer, so a train step
    runs one algorithm in all three) goes by the frequency domain."""
    wanted = mode()
    if wanted == "direct" or not applies(dtype, geo):
        return False
    if wanted == "fft":
        return True
    direct, transformed = costs(in_shape, filter_shape, geo)
    batch, _, _, channels = in_shape
    macs = batch * geo.out_hw[0] * geo.out_hw[1] * filter_shape[0] * filter_shape[1] * channels * filter_shape[3]
    return macs >= MIN_DIRECT_MACS and transformed <= ADVANTAGE * direct


def costs(in_shape, filter_shape, geo):
    """(direct, frequency-domain) predicted nanoseconds of CPU time, by the cost model above."""
    batch, height, width, channels = in_shape
    kh, kw, _, out_channels = filter_shape
    out_h, out_w = geo.out_hw
    windows = batch * out_h * out_w * kh * kw * channels
    direct = NS_PER_DIRECT_MAC * windows * out_channels + NS_PER_WINDOW_FLOAT * windows + NS_DIRECT_FIXED
    p, q = _sizes(in_shape, filter_shape, geo)
    vf = q // 2 + 1
    transforms = (height * 2 * vf * width + vf * 2 * p * 2 * height) * channels * batch  # the input's spectrum
    transforms += (vf * 2 * out_h * 2 * p + out_h * out_w * 2 * vf) * out_channels * batch  # back to the output
    blocks = vf * p * 4 * channels * out_channels
    moved = batch * (height * width * channels + out_h * out_w * out_channels)
    transformed = (NS_PER_TRANSFORM_MAC * transforms + NS_PER_PRODUCT_MAC * blocks * batch
                   + NS_PER_BLOCK_FLOAT * blocks + NS_PER_MOVED_FLOAT * moved + NS_FFT_FIXED)
    return direct, transformed


def _sizes(in_shape, filter_shape, geo):
    """(P, Q): the smallest transform sizes without wrap-around. A value y[p] sums x[h] w[i] over
    h + top - i * dh = p; modulo P, those positions range over [top - (KH - 1) dh, H - 1 + top] and the wanted
    p over [0, OH), so no other p' = p +- kP may fall in that range: P >= H + top and P >= OH + (KH - 1) dh - top
    = H + bottom. The gradients are the adjoints of the same maps: the same sizes serve them."""
    top, bottom, left, right = geo.pads
    return in_shape[1] + max(top, bottom), in_shape[2] + max(left, right)


# --- transform matrices ------------------------------------------------------------------------------------
@functools.lru_cache(maxsize=64)
def _rows_matrix(size, positions, dtype):
    """(Vf * 2, len(positions)), rows (real, imag) x v: the half-spectrum DFT of size `size` along the width
    of signals whose samples sit at `positions`."""
    vf = size // 2 + 1
    angle = 2 * np.pi * (np.outer(np.arange(vf), positions) % size) / size
    return np.concatenate([np.cos(angle), -np.sin(angle)]).astype(dtype)


@functools.lru_cache(maxsize=64)
def _columns_matrix(size, positions, dtype):
    """(size * 2, len(positions) * 2): the complex DFT of size `size` along the height, as a real matrix
    from rows (h, real/imag) to rows (u, real/imag): multiplication by exp(-i angle)."""
    angle = 2 * np.pi * (np.outer(np.arange(size), positions) % size) / size
    c, s = np.cos(angle), np.sin(angle)
    m = np.empty((size, 2, len(positions), 2))
    m[:, 0, :, 0], m[:, 0, :, 1] = c, s
    m[:, 1, :, 0], m[:, 1, :, 1] = -s, c
    return m.reshape(2 * size, 2 * len(positions)).astype(dtype)


@functools.lru_cache(maxsize=64)
def _inverse_columns_matrix(size, positions, sign, dtype):
    """(2 * len(positions), size * 2): from rows (u, real/imag) to rows (real/imag, a): the sum over u of
    exp(sign * i * 2 pi u * positions[a] / size) times the value."""
    angle = 2 * np.pi * (np.outer(positions, np.arange(size)) % size) / size
    c, s = np.cos(angle), sign * np.sin(angle)
    m = np.empty((2, len(positions), size, 2))
    m[0, :, :, 0], m[0, :, :, 1] = c, -s
    m[1, :, :, 0], m[1, :, :, 1] = s, c
    return m.reshape(2 * len(positions), 2 * size).astype(dtype)


@functools.lru_cache(maxsize=64)
def _inverse_rows_matrix(p, q, positions, sign, dtype):
    """(len(positions), Vf * 2): the real part of the half-spectrum inverse along the width, over rows
    (v, real/imag), with the weights c_v and the 1 / (P Q) of the whole inverse."""
    vf = q // 2 + 1
    weight = np.full(vf, 2.0)
    weight[0] = 1.0
    if q % 2 == 0:
        weight[-1] = 1.0
    angle = 2 * np.pi * (np.outer(positions, np.arange(vf)) % q) / q
    m = np.empty((len(positions), vf, 2))
    m[:, :, 0] = weight * np.cos(angle) / (p * q)
    m[:, :, 1] = -sign * weight * np.sin(angle) / (p * q)
    return m.reshape(len(positions), 2 * vf).astype(dtype)


# --- batched GEMMs on the kernels' threads -----------------------------------------------------------------
def _matmul(a, b, out):
    """np.matmul(a, b, out=out) over the leading (batch) axis of `out`, cut into at most SPLIT slices fixed by
    the shapes; `a` or `b` may be one matrix for all. Each slice's matrices go to BLAS one by one, as the
    whole call's would: the bits do not depend on the cut or on the threads."""
    batch = out.shape[0]
    per = -(-batch // SPLIT)
    tasks = [(s, min(s + per, batch)) for s in range(0, batch, per)]
    flops = 2 * out.size * (a.shape[-1])
    count = conv_kernels.threads() if flops >= conv_kernels.PARALLEL_MIN_FLOPS else 1

    def work(task, _worker):
        s0, s1 = task
        np.matmul(a if a.ndim == 2 else a[s0:s1], b if b.ndim == 2 else b[s0:s1], out=out[s0:s1])

    conv_kernels._run(tasks, work, count)
    return out


def _spectrum(signal, row_positions, col_positions, p, q, name, into=None):
    """The (Vf, P, 2, M) half spectrum of the real (R, S, M) `signal` whose samples sit at the given row and
    column positions, in this thread's buffer `name`. Both DFTs run on one chunk of columns after another
    (_run_columns), the intermediate staying in cache."""
    rows, _, m = signal.shape
    vf, dtype = q // 2 + 1, signal.dtype
    by_width = _rows_matrix(q, col_positions, dtype)
    by_height = _columns_matrix(p, row_positions, dtype)
    out = _workspace(name, (vf, 2 * p, m), dtype) if into is None else into.reshape(vf, 2 * p, m)

    def work(task, _worker):
        c0, c1 = task
        mid = _workspace("spectrum_mid", (rows, 2 * vf, c1 - c0), dtype)  # (h, real/imag, v, columns)
        np.matmul(by_width, signal[:, :, c0:c1], out=mid)
        # for a fixed v, the (h, real/imag) rows are evenly spaced (h's step is twice real/imag's): one matrix
        np.matmul(by_height, mid.reshape(2 * rows, vf, c1 - c0).transpose(1, 0, 2), out=out[:, :, c0:c1])

    _run_columns(m, rows * signal.shape[1] + rows * 2 * vf + vf * 2 * p, work, out.size * 2 * rows)
    return out.reshape(vf, p, 2, m)


def _run_columns(m, floats_per_column, work, flops):
    """work((c0, c1), worker) over column chunks whose data (`floats_per_column` each) is about CHUNK_BYTES,
    on the kernels' threads. The chunks depend on the shapes alone: so do the bits."""
    per = max(16, (CHUNK_BYTES // 4 // floats_per_column) // 16 * 16)
    count = conv_kernels.threads() if flops >= conv_kernels.PARALLEL_MIN_FLOPS else 1
    conv_kernels._run([(c, min(c + per, m)) for c in range(0, m, per)], work, count)


def _spatial(spectrum, p, q, row_positions, col_positions, sign, name):
    """The real (A, B, M) signal at the given positions of the (Vf, P, 2, M) half spectrum (the module's
    `spatial`), in this thread's buffer `name`, by chunks of columns as _spectrum."""
    vf, m, dtype = spectrum.shape[0], spectrum.shape[3], spectrum.dtype
    a, b = len(row_positions), len(col_positions)
    by_height = _inverse_columns_matrix(p, row_positions, sign, dtype)
    by_width = _inverse_rows_matrix(p, q, col_positions, sign, dtype)
    flat = spectrum.reshape(vf, 2 * p, m)
    out = _workspace(name, (a, b, m), dtype)

    def work(task, _worker):
        c0, c1 = task
        mid = _workspace("spatial_mid", (vf, 2 * a, c1 - c0), dtype)  # (v, real/imag, a, columns)
        np.matmul(by_height, flat[:, :, c0:c1], out=mid)
        # (a, (v, real/imag), columns): evenly spaced rows again
        np.matmul(by_width, mid.reshape(2 * vf, a, c1 - c0).transpose(1, 0, 2), out=out[:, :, c0:c1])

    _run_columns(m, vf * 2 * p + vf * 2 * a + a * b, work, flat.size * 2 * a * 2)
    return out


def _times_filter(filters, spectrum, p, q, geo, adjoint, name):
    """Per frequency, the filter's spectrum W as the real matrix [[Wr, -Wi], [Wi, Wr]] (2C, 2O) times the
    (2O, N) spectrum (the input gradient), or its transpose times a (2C, N) one (`adjoint`: conv2d); the
    result (Vf, P, 2, rows * N) in this thread's buffer `name`.

    The right column of blocks, (-Wi, Wr), is the spectrum of i times the filter: the transform is linear, so
    after the width's DFT the filter's columns are doubled, the copy's (real, imag) rows turned to (-imag, real),
    and the height's DFT of both gives the whole block matrix (its columns are (C, 2, O)). That DFT runs per
    width frequency v, in a task that multiplies the P block matrices while they are in cache: written out
    whole they are 4.7 MB for the CNN's second conv, and writing and reading them back cost as much as the
    products."""
    kh, kw, channels, out_channels = filters.shape
    (dh, dw), dtype = geo.dilations, spectrum.dtype
    vf, batch = q // 2 + 1, spectrum.shape[3] // (channels if adjoint else out_channels)
    taps = np.ascontiguousarray(filters, dtype).reshape(kh, kw, channels * out_channels)
    by_rows = _workspace("filter_w", (kh, 2 * vf, channels * out_channels), dtype)
    _matmul(_rows_matrix(q, tuple(range(0, kw * dw, dw)), dtype), taps, by_rows)
    plain = by_rows.reshape(kh, 2, vf, channels, out_channels)
    doubled = _workspace("filter_doubled", (kh, 2, vf, channels, 2, out_channels), dtype)
    doubled[..., 0, :] = plain
    np.negative(plain[:, 1], out=doubled[:, 0, :, :, 1])
    doubled[:, 1, :, :, 1] = plain[:, 0]
    # for a fixed v, the (h, real/imag) rows are evenly spaced: one (2 KH, 2 C O) matrix
    per_v = doubled.reshape(2 * kh, vf, 2 * channels * out_channels).transpose(1, 0, 2)
    by_height = _columns_matrix(p, tuple(range(0, kh * dh, dh)), dtype)
    rows, depth = (out_channels, channels) if adjoint else (channels, out_channels)
    operand = spectrum.reshape(vf, p, 2 * depth, batch)
    out = _workspace(name, (vf, p, 2 * rows, batch), dtype)

    def work(task, _worker):
        for v in range(*task):
            blocks = _workspace("filter_blocks", (2 * p, 2 * channels * out_channels), dtype)
            np.matmul(by_height, per_v[v], out=blocks)
            blocks = blocks.reshape(p, 2 * channels, 2 * out_channels)
            np.matmul(blocks.transpose(0, 2, 1) if adjoint else blocks, operand[v], out=out[v])

    count = conv_kernels.threads() if out.size * 2 * depth >= conv_kernels.PARALLEL_MIN_FLOPS else 1
    conv_kernels._run([(v, v + 1) for v in range(vf)], work, count)
    return out.reshape(vf, p, 2, rows * batch)


def _batch_last(a, name):
    """(N, H, W, C) as (H, W, C * N), batch last, in this thread's buffer `name`; rows of h are tasks on the
    kernels' threads."""
    n, h, w, c = a.shape
    out = _workspace(name, (h, w, c, n), a.dtype)

    def work(task, _worker):
        np.copyto(out[task[0]:task[1]], a[:, task[0]:task[1]].transpose(1, 2, 3, 0))

    per = -(-h // SPLIT)
    count = conv_kernels.threads() if out.size >= 1 << 18 else 1
    conv_kernels._run([(s, min(s + per, h)) for s in range(0, h, per)], work, count)
    return out.reshape(h, w, c * n)


def _batch_first(signal, out, epilogue=None):
    """The (A, B, C * N) signal, batch last, copied into `out` (N, A, B, C). One 2-D transpose per (a, b): a
    single copy of the whole walks the source with a stride of A * B * C * N floats between consecutive reads
    of one output row and re-reads each cache line N / 16 times (4.4 ms for the CNN's 64x14x14x64 output,
    0.6 ms this way). Rows of a are tasks on the kernels' threads.

    `epilogue`: None or a function applied in place to each task's rows out[:, a0:a1] right after their copy,
    on the task's thread, while they are in cache (conv2d's bias and relu: as one pass over the whole output
    after the copy, they ran on one thread and read it back from memory)."""
    n, a, b, c = out.shape
    source = signal.reshape(a, b, c, n)

    def work(task, _worker):
        for i in range(task[0], task[1]):
            for j in range(b):
                np.copyto(out[:, i, j], source[i, j].T)
        if epilogue is not None:
            epilogue(out[:, task[0]:task[1]])

    per = -(-a // SPLIT)
    count = conv_kernels.threads() if out.size >= 1 << 18 else 1
    conv_kernels._run([(s, min(s + per, a)) for s in range(0, a, per)], work, count)
    return out


def _input_positions(in_shape, geo):
    top, _, left, _ = geo.pads
    return tuple(range(top, top + in_shape[1])), tuple(range(left, left + in_shape[2]))


# --- the kernels -------------------------------------------------------------------------------------------
def _conv2d(x, filters, geo, out, x_spectrum=None, epilogue=None):
    """conv2d of the NHWC `x` (float32/64, stride 1) with the HWIO `filters`, written into `out` (N, OH, OW, O);
    `x_spectrum`: x's spectrum (input_spectrum) when it is already known; `epilogue`: see _batch_first."""
    out_h, out_w = geo.out_hw
    p, q = _sizes(x.shape, filters.shape, geo)
    dtype = out.dtype
    spectrum = _x_spectrum(x, dtype, p, q, geo) if x_spectrum is None else x_spectrum.reshape(q // 2 + 1, p, 2, -1)
    product = _times_filter(filters, spectrum, p, q, geo, True, "product")
    y = _spatial(product, p, q, tuple(range(out_h)), tuple(range(out_w)), 1, "y")
    return _batch_first(y, out, epilogue)


def _conv2d_input_grad(g, filters, in_shape, geo, out):
    """The input gradient (N, H, W, C) of conv2d for the output gradient `g`, written into `out`."""
    p, q = _sizes(in_shape, filters.shape, geo)
    dtype = out.dtype
    out_h, out_w = geo.out_hw
    spectrum = _spectrum(_batch_last(np.asarray(g, dtype), "g"), tuple(range(out_h)), tuple(range(out_w)), p, q,
                         "g_spectrum")
    product = _times_filter(filters, spectrum, p, q, geo, False, "product")
    rows, cols = _input_positions(in_shape, geo)
    dx = _spatial(product, p, q, rows, cols, 1, "dx")
    return _batch_first(dx, out)


def _conv2d_filter_grad(x, g, filter_shape, geo):
    """The filter gradient (KH, KW, C, O) of conv2d: per frequency, the sum over the batch of conj(X) G in one
    GEMM, then back to the filter's taps."""
    dtype = np.result_type(x, g)
    p, q = _sizes(x.shape, filter_shape, geo)
    rows, cols = _input_positions(x.shape, geo)
    xs = _spectrum(_batch_last(np.asarray(x, dtype), "x"), rows, cols, p, q, "x_spectrum")
    return _filter_grad_of_spectra(xs, _output_grad_spectrum(g, dtype, p, q, geo), p, q, filter_shape, geo)


def _conv2d_backprop(x, g, filters, geo, dx_out, x_spectrum=None):
    """(input gradient into `dx_out`, filter gradient) of conv2d for the output gradient `g`: the two
    kernels above with the spectrum of g (its batch-last copy and both DFTs, 2 ms of CPU for the CNN's
    second conv) computed once for both; x's spectrum is taken from `x_spectrum` (input_spectrum, what the
    forward conv used) when it is given."""
    dtype = dx_out.dtype
    p, q = _sizes(x.shape, filters.shape, geo)
    gs = _output_grad_spectrum(g, dtype, p, q, geo)
    product = _times_filter(filters, gs, p, q, geo, False, "product")
    rows, cols = _input_positions(x.shape, geo)
    _batch_first(_spatial(product, p, q, rows, cols, 1, "dx"), dx_out)
    xs = _x_spectrum(x, dtype, p, q, geo) if x_spectrum is None else x_spectrum.reshape(q // 2 + 1, p, 2, -1)
    return dx_out, _filter_grad_of_spectra(xs, gs, p, q, filters.shape, geo)


def _x_spectrum(x, dtype, p, q, geo, into=None):
    rows, cols = _input_positions(x.shape, geo)
    return _spectrum(_batch_last(np.asarray(x, dtype), "x"), rows, cols, p, q, "x_spectrum", into)


def spectrum_shape(in_shape, filter_shape, geo):
    """The shape of input_spectrum's result: (Vf, 2 P, C * N)."""
    p, q = _sizes(in_shape, filter_shape, geo)
    return (q // 2 + 1, 2 * p, in_shape[3] * in_shape[0])


def _input_spectrum(x, filter_shape, geo, into):
    """The half spectrum of the conv input `x` as conv2d and its filter gradient use it, written into `into`
    (spectrum_shape: it outlives the call, as the forward conv and the backward pair of a train step both
    read it)."""
    p, q = _sizes(x.shape, filter_shape, geo)
    _x_spectrum(x, x.dtype, p, q, geo, into)
    return into


def _output_grad_spectrum(g, dtype, p, q, geo):
    out_h, out_w = geo.out_hw
    return _spectrum(_batch_last(np.asarray(g, dtype), "g"), tuple(range(out_h)), tuple(range(out_w)), p, q,
                     "g_spectrum")


def _filter_grad_of_spectra(xs, gs, p, q, filter_shape, geo):
    """The filter gradient from the (Vf, P, 2, C * N) and (Vf, P, 2, O * N) half spectra of the input and of
    the output gradient."""
    kh, kw, channels, out_channels = filter_shape
    dtype, vf = xs.dtype, q // 2 + 1
    batch = xs.shape[3] // channels
    (dh, dw) = geo.dilations
    xs = xs.reshape(vf, p, 2 * channels, batch)
    gs = gs.reshape(vf, p, 2 * out_channels, batch)
    d = _workspace("grad_spectrum", (vf, p, 2, channels, out_channels), dtype)

    def work(task, _worker):
        # [Xr; Xi] @ [Gr; Gi]^T per frequency: blocks (Xr Gr', Xr Gi'; Xi Gr', Xi Gi') of (2C, 2O), combined
        # while in cache (one v's P frequencies per task)
        for v in range(*task):
            blocks = _workspace("grad_blocks", (p, 2 * channels, 2 * out_channels), dtype)
            np.matmul(xs[v], gs[v].transpose(0, 2, 1), out=blocks)
            b = blocks.reshape(p, 2, channels, 2, out_channels)
            np.add(b[:, 0, :, 0], b[:, 1, :, 1], out=d[v, :, 0])  # Re conj(X) G = Xr Gr + Xi Gi
            np.subtract(b[:, 0, :, 1], b[:, 1, :, 0], out=d[v, :, 1])  # Im conj(X) G = Xr Gi - Xi Gr

    count = conv_kernels.threads() if d.size * 4 * batch >= conv_kernels.PARALLEL_MIN_FLOPS else 1
    conv_kernels._run([(v, v + 1) for v in range(vf)], work, count)
    taps = _spatial(d.reshape(vf, p, 2, -1), p, q, tuple(range(0, kh * dh, dh)),
                    tuple(range(0, kw * dw, dw)), -1, "dw")
    return taps.reshape(filter_shape).copy()


def _in_one_region(kernel):
    """The kernel inside one blas_threads.single() region: its batched GEMMs run as several rounds of tasks,
    each of which would otherwise open and close a region of its own, and closing the last one wakes BLAS's
    restorer thread (a GIL hand-off per round, which on a loaded machine costs a time slice)."""
    @functools.wraps(kernel)
    def run(*args):
        with blas_threads.single():
            return kernel(*args)
    return run


conv2d = _in_one_region(_conv2d)
conv2d_input_grad = _in_one_region(_conv2d_input_grad)
conv2d_filter_grad = _in_one_region(_conv2d_filter_grad)
conv2d_backprop = _in_one_region(_conv2d_backprop)
input_spectrum = _in_one_region(_input_spectrum)
