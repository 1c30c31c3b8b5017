"""Fast paths of the convolution kernels, and the buffers they may be handed.

Convolutions copy their windows once into an im2col matrix and do one GEMM; both the matrix (`scratch`) and
the result (`out`) may be buffers the code generator planned (runtime/buffer_plan.py), so a steady-state call
allocates neither."""

from __future__ import annotations

import numpy as np


def im2col(windows, scratch=None):
    """The windows (N, OH, OW, KH, KW, C) as one (N * OH * OW, KH * KW * C) matrix, copied into `scratch`
    when it is given and holds exactly that many elements of the right dtype."""
    n, oh, ow, kh, kw, c = windows.shape
    if scratch is None or scratch.size != windows.size or scratch.dtype != windows.dtype:
        return windows.reshape(n * oh * ow, kh * kw * c)
    columns = scratch.reshape(windows.shape)
    np.copyto(columns, windows)
    return columns.reshape(n * oh * ow, kh * kw * c)


def gemm(a, b, out=None):
    """a @ b, into `out` when it is given with the result's shape and dtype."""
    if out is not None and out.shape == (a.shape[0], b.shape[1]) and out.dtype == np.result_type(a, b):
        return np.matmul(a, b, out=out)
    return a @ b


def add_window_products(g, filters, padded, out_hw, strides, dilations, block=None):
    """The input gradient of a convolution, added into the zero, padded NHWC input `padded`: for each window
    offset (i, j), one GEMM `g @ filters[i, j].T` (rows N * OH * OW, the input's C columns) added at that
    offset's strided positions. One GEMM of all offsets at once would give their columns interleaved, and
    adding those back reads 25 strided slices of a 40 MB matrix; per offset, each GEMM's output is a
    contiguous block that is still in cache when it is added (conv 5x5x32->64 on 64x14x14: 37 ms instead of
    58 ms of CPU time, 1 BLAS thread). `block`: an optional (rows, C) buffer for the GEMMs' output."""
    kh, kw, channels, out_channels = filters.shape
    n, out_h, out_w = padded.shape[0], out_hw[0], out_hw[1]
    rows = n * out_h * out_w
    g_rows = g.reshape(rows, out_channels)
    dtype = np.result_type(g, filters)
    if block is None or block.size < rows * channels or block.dtype != dtype or dtype.kind != "f":
        block = np.empty(rows * channels, dtype)
    block = block.reshape(-1)[:rows * channels].reshape(rows, channels)
    for i in range(kh):
        for j in range(kw):
            product = np.matmul(g_rows, filters[i, j].T, out=block) if dtype.kind == "f" and \
                dtype.itemsize >= 4 else g_rows @ filters[i, j].T
            r, c = i * dilations[0], j * dilations[1]
            padded[:, r:r + (out_h - 1) * strides[0] + 1:strides[0], c:c + (out_w - 1) * strides[1] + 1:strides[1],
                   :] += product.reshape(n, out_h, out_w, channels)
    return padded
