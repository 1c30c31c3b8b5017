"""Fast paths of the pooling kernels.

Pools whose windows tile the input (ksize == strides, no padding needed) are a reshape: the input seen as
(N, OH, KH, OW, KW, C) has every window's elements on two small axes, so the forward pool is KH * KW
elementwise passes and the gradients write each window position's share straight into the matching view of
the result, with no window gathering and no scatter-add."""

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
