"""Fast paths of the convolution and pooling kernels, and the buffers they may be handed.

Pools whose windows tile the input (ksize == strides, no padding needed) are a reshape: the input seen as
(N, OH, KH, OW, KW, C) has every window's elements on two small axes, so the forward pool is KH * KW
elementwise passes and the gradients write each window position's share straight into the matching view of
the result, with no window gathering and no scatter-add. Convolutions copy their windows once into an
im2col matrix and do one GEMM; both the matrix (`scratch`) and the result (`out`) may be buffers the
code generator planned (runtime/buffer_plan.py), so a steady-state call allocates neither."""

from __future__ import annotations

import numpy as np


def tiles(height, width, ksize, strides, padding) -> bool:
    """Whether pooling windows tile an input of this size with no padding (VALID drops the rows and columns
    past the last whole window, as TF does)."""
    (kh, kw) = ksize
    if tuple(ksize) != tuple(strides) or height < kh or width < kw:
        return False
    return padding == "VALID" or (padding == "SAME" and height % kh == 0 and width % kw == 0)


def tiled_view(x, ksize, strides, padding):
    """The (N, OH, KH, OW, KW, C) view of `x` when pooling windows tile it, else None."""
    n, height, width, channels = x.shape
    if not tiles(height, width, ksize, strides, padding):
        return None
    (kh, kw), oh, ow = ksize, height // ksize[0], width // ksize[1]
    return x[:, :oh * kh, :ow * kw].reshape(n, oh, kh, ow, kw, channels)


def tiled_max_pool(view):
    """Maximum over each tile: one np.maximum pass per window position, into one result."""
    kh, kw = view.shape[2], view.shape[4]
    result = np.maximum(view[:, :, 0, :, 0], view[:, :, 0, :, 1]) if kw > 1 else view[:, :, 0, :, 0].copy()
    for i in range(kh):
        for j in range(kw):
            if i or j > 1:
                np.maximum(result, view[:, :, i, :, j], out=result)
    return result


def tiled_avg_pool(view):
    kh, kw = view.shape[2], view.shape[4]
    total = np.add(view[:, :, 0, :, 0], view[:, :, 0, :, 1]) if kw > 1 else view[:, :, 0, :, 0].copy()
    for i in range(kh):
        for j in range(kw):
            if i or j > 1:
                np.add(total, view[:, :, i, :, j], out=total)
    return np.divide(total, total.dtype.type(kh * kw), out=total)


def tiled_max_pool_grad(x, view, g):
    """The gradient of a tiled max pool: each output's gradient to the first maximum of its tile (row-major,
    as TF picks), written straight into the tile positions of a zero result. None when the pool has a NaN,
    whose tie rule the general path keeps."""
    kh, kw = view.shape[2], view.shape[4]
    pooled = tiled_max_pool(view)
    if pooled.dtype.kind == "f" and np.isnan(pooled).any():
        return None
    result = np.zeros(x.shape, g.dtype)
    tiles = result[:, :view.shape[1] * kh, :view.shape[3] * kw].reshape(view.shape)
    taken = None
    for i in range(kh):
        for j in range(kw):
            winner = view[:, :, i, :, j] == pooled
            if taken is None:
                taken = winner.copy()
            else:
                winner &= ~taken
                taken |= winner
            np.multiply(g, winner, out=tiles[:, :, i, :, j])
    return result


def tiled_avg_pool_grad(in_shape, ksize, g):
    """The gradient of a tiled average pool: g / (kh * kw) at every position of its tile."""
    kh, kw = ksize
    n, oh, ow, channels = g.shape
    result = np.zeros(in_shape, g.dtype)
    tiles = result[:, :oh * kh, :ow * kw].reshape(n, oh, kh, ow, kw, channels)
    share = g / g.dtype.type(kh * kw)
    for i in range(kh):
        for j in range(kw):
            tiles[:, :, i, :, j] = share
    return result


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
