"""conv2d's input gradient for strides of 2 and more (tf.nn.conv2d_transpose's forward) by phases: one GEMM
per phase row.

With stride s, input row R (of the padded input) = s * u + p gets its gradient from the output rows
o = u - t, each through the window row i = p + s * t (t = 0 .. ceil(KH / s) - 1, while i < KH): every phase p
(the s * s positions of an s x s block) is a stride-1 convolution of the output gradient with its own taps.
The (images * U * V, TH * TW * out channels) window matrix of the output gradient (TH x TW windows, stride 1,
padded by TH - 1 rows and TW - 1 columns of zeros in front) is built once per task; for each phase row p_y,
the columns of its window rows times the (TH_p * TW * out channels, SW * in channels) matrix of its taps
(zeros where a phase column has fewer) give, for every block (u, v), the SW input positions of row
s * u + p_y side by side: the product's rows are whole input rows, copied in place as contiguous runs.

The per-offset way (conv_kernels._input_grad_by_offsets) does KH * KW GEMMs of depth `out channels` and as
many strided adds over the input; here there are SH GEMMs of depth up to TH * TW * out channels (128 and 64
for a 3x3 stride-2 window of 32 channels, against 32) and no add. Their price: the taps a phase column lacks
are zeros in the matrix (12 products for 9 taps with 3x3 / 2), and one im2col copy of the gradient per task.
One GEMM for all phases (16 products for 9 taps) needed a depth-to-space copy of 16-float runs after it.
Tasks of a few images on conv_kernels' threads, their buffers in L2. Measured on conv_transpose
(32x16x16x32 -> 32x32x32x16, 3x3 stride 2 SAME): see docs/performance.md."""

from __future__ import annotations

import numpy as np

from . import conv_kernels
from .window_views import strided_view

TASK_BYTES = 1 << 20  # a task's window matrix: with its product it stays in L2


def applies(geo) -> bool:
    """Strides of 2 and more (either axis) without dilation."""
    return max(geo.strides) >= 2 and geo.dilations == (1, 1)


def _phase_row_weights(filters, steps, dtype):
    """Per phase row p_y, the (TH_p * TW * out channels, SW * in channels) matrix of its taps: row
    (TH_p - 1 - t_y, TW - 1 - t_x, o), column (p_x, c) holds filters[p_y + SH * t_y, p_x + SW * t_x, c, o],
    zero past the window's width. TH_p = the window rows of phase row p_y (ceil((KH - p_y) / SH)): its rows
    are the last TH_p * TW * out channels columns of the window matrix, the others would meet only zeros."""
    kh, kw, channels, out_channels = filters.shape
    (sh, sw), (_, tw) = steps
    turned = np.asarray(filters, dtype).transpose(0, 1, 3, 2)  # (KH, KW, out channels, in channels)
    matrices = []
    for py in range(sh):
        rows = len(range(py, kh, sh))
        weights = np.zeros((rows, tw, out_channels, sw, channels), dtype)
        for ty in range(rows):
            for tx in range(tw):
                for px in range(sw):
                    j = px + sw * tx
                    if j < kw:
                        weights[rows - 1 - ty, tw - 1 - tx, :, px, :] = turned[py + sh * ty, j]
        matrices.append(weights.reshape(rows * tw * out_channels, sw * channels))
    return matrices


def input_grad(g, filters, in_shape, geo, out):
    """The gradient of conv2d (strides >= 2, no dilation) for its input of shape (N, H, W, C), into `out`."""
    kh, kw, channels, out_channels = filters.shape
    batch, out_h, out_w = g.shape[:3]
    height, width = in_shape[1], in_shape[2]
    (sh, sw), (top, _, left, _) = geo.strides, geo.pads
    dtype = out.dtype
    th, tw = -(-kh // sh), -(-kw // sw)
    u0, v0 = top // sh, left // sw
    nu, nv = (top + height - 1) // sh - u0 + 1, (left + width - 1) // sw - v0 + 1
    dy, dx = top - u0 * sh, left - v0 * sw  # where input row 0 / column 0 sits in block row u0 / column v0
    weights = _phase_row_weights(filters, ((sh, sw), (th, tw)), dtype)
    depth = th * tw * out_channels
    g = np.asarray(g, dtype)
    # the output gradient rows and columns the blocks read: o = u - t for u in u0..u0 + nu - 1, t < th
    o_lo, p_lo = u0 - th + 1, v0 - tw + 1
    rows, cols = nu + th - 1, nv + tw - 1
    a0, a1 = max(o_lo, 0), min(o_lo + rows, out_h)  # the rows of g inside that range
    b0, b1 = max(p_lo, 0), min(p_lo + cols, out_w)
    # phase row p_y holds input rows R = SH * u + p_y - dy: those of 0 <= R < H, as (first u, last u + 1)
    spans = [(max(0, -(-(dy - py) // sh)), min(nu, (height - 1 - py + dy) // sh + 1)) for py in range(sh)]
    count = conv_kernels._thread_count(batch * nu * nv, depth, sh * sw * channels)
    tasks = conv_kernels._tasks(batch, 1, nu * nv * depth * dtype.itemsize,
                                conv_kernels._split_count(batch * nu * nv, depth, sh * sw * channels), TASK_BYTES)

    def work(task, _worker):
        n0, n1 = task[:2]
        n = n1 - n0
        padded = conv_kernels._workspace("phase_g", (n, rows, cols, out_channels), dtype)
        if a1 > a0 and b1 > b0:
            padded[:, :a0 - o_lo] = 0
            padded[:, a1 - o_lo:] = 0
            padded[:, a0 - o_lo:a1 - o_lo, :b0 - p_lo] = 0
            padded[:, a0 - o_lo:a1 - o_lo, b1 - p_lo:] = 0
            padded[:, a0 - o_lo:a1 - o_lo, b0 - p_lo:b1 - p_lo] = g[n0:n1, a0:a1, b0:b1]
        else:
            padded[...] = 0
        s_n, s_h, s_w, s_c = padded.strides
        windows = strided_view(padded, (n, nu, nv, th, tw, out_channels), (s_n, s_h, s_w, s_h, s_w, s_c))
        columns = conv_kernels._workspace("phase_columns", windows.shape, dtype)
        np.copyto(columns, windows)
        columns = columns.reshape(n * nu * nv, depth)
        # one phase row at a time: its product's rows (u, then v and p_x side by side) are whole input rows
        # (n, u, V * SW, C), so they go in place with copies of contiguous rows, no depth-to-space shuffle
        product = conv_kernels._workspace("phase_row_product", (n, nu, nv * sw, channels), dtype)
        for py, (lo, hi) in enumerate(spans):
            if hi <= lo:
                continue
            matrix = weights[py]
            conv_kernels._matmul_into(columns[:, depth - matrix.shape[0]:], matrix,
                                      product.reshape(n * nu * nv, sw * channels))
            first = sh * lo + py - dy
            np.copyto(out[n0:n1, first:first + (hi - lo - 1) * sh + 1:sh], product[:, lo:hi, dx:dx + width])

    conv_kernels._run(tasks, work, count)
    return out
