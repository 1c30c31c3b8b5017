"""Fast paths of the pooling kernels.

Pools whose windows tile the input (ksize == strides, no padding needed) are a reshape: the input seen as
(N, OH, KH, OW, KW, C) has every window's elements on two small axes, so the forward pool is KH * KW
elementwise passes and the gradients write each window position's share straight into the matching view of
the result, with no window gathering and no scatter-add."""

from __future__ import annotations

import numpy as np

PARALLEL_MIN_ELEMENTS = 1 << 18  # pools and their gradients this large are split by images over threads
CHUNK_BYTES = 512 << 10  # the images of one task: their input, output and masks stay in L2 (_image_chunks)


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


def tiled_max_pool(view, out=None):
    """Maximum over each tile: one np.maximum pass per window position, into one result (`out` if given).
    A large pool (a CNN's first, over 64x28x28x32) is split by images over the convolution kernels' threads."""
    if out is None:
        out = np.empty(view.shape[:2] + view.shape[3:4] + view.shape[5:], view.dtype)
    from . import conv_kernels  # here: conv_kernels imports this module

    def work(task, _worker):
        _tiled_max_pool_into(view[task[0]:task[1]], out[task[0]:task[1]])

    count = conv_kernels.threads() if view.size >= PARALLEL_MIN_ELEMENTS else 1
    conv_kernels._run(_image_chunks(view), work, count)
    return out


def _image_chunks(view):
    """(a, b): images a:b of the pooled input, about CHUNK_BYTES each (the tasks of the kernels above and
    below). A pass over one window position reads a quarter of the input's cache lines (for 2x2 windows)
    and the next pass reads the lines beside them: over the whole of a 6.4 MB input (the CNN's first pool)
    each pass misses the cache, where over a chunk the second pass finds what the first one's prefetches
    brought in. CNN's first pool gradient (64x28x28x32), input not in cache, CPU time: 5.1 -> 3.7 ms."""
    n = view.shape[0]
    per = max(1, min(n, CHUNK_BYTES // max(1, view[0].nbytes)))
    return [(a, min(a + per, n)) for a in range(0, n, per)]


def _tiled_max_pool_into(view, out):
    kh, kw = view.shape[2], view.shape[4]
    if kw > 1:
        result = np.maximum(view[:, :, 0, :, 0], view[:, :, 0, :, 1], out=out)
    else:
        np.copyto(out, view[:, :, 0, :, 0])
        result = out
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


def all_finite(g) -> bool:
    """Whether a gradient has no inf or NaN, from one sum (a sum that overflows only costs the slow way)."""
    if g.dtype.kind not in "fc":
        return True
    with np.errstate(over="ignore", invalid="ignore"):
        return bool(np.isfinite(g.sum()))


def tiled_max_pool_grad(x_shape, view, pooled, g, positive_only=False, finite=None):
    """The gradient of a tiled max pool, from the forward's output `pooled` (TF's MaxPoolGrad takes it too, so
    the pool is not computed twice): each output's gradient goes to the first maximum of its tile (row-major,
    as TF picks), written straight into that tile position of the result. None when the pool has a NaN,
    whose tie rule the general path keeps.

    Every tile position is written once (the gradient times "this position is the first maximum"), so the
    result needs no zero fill unless VALID leaves rows or columns outside every tile; the search for the first
    maximum runs on the small (N, OH, OW, C) masks. Where g has an inf or NaN, g * False would be NaN, not
    the 0 TF leaves at the other positions: that (rare) case selects instead of multiplying.

    `positive_only` also drops the gradient of every window whose maximum is not positive: the gradient of
    relu(...) > 0 masking the result (a relu below the pool), folded into the small masks. `finite`: whether g
    is known to hold no inf or NaN (None: look)."""
    n, oh, kh, ow, kw, channels = view.shape
    if pooled.dtype.kind == "f" and np.isnan(pooled).any():
        return None
    covered = x_shape[1] == oh * kh and x_shape[2] == ow * kw
    result = (np.empty if covered else np.zeros)(x_shape, g.dtype)
    tiles = result[:, :oh * kh, :ow * kw].reshape(view.shape)
    finite = all_finite(g) if finite is None else finite

    def work(task, _worker):
        a, b = task
        _max_pool_grad_into(tiles[a:b], view[a:b], pooled[a:b], g[a:b], positive_only, finite)

    from . import conv_kernels  # here: conv_kernels imports this module

    count = conv_kernels.threads() if result.size >= PARALLEL_MIN_ELEMENTS else 1
    conv_kernels._run(_image_chunks(view), work, count)
    return result


def _max_pool_grad_into(tiles, view, pooled, g, positive_only, finite):
    """tiled_max_pool_grad's work for some images, written into their `tiles` of the result."""
    kh, kw = view.shape[2], view.shape[4]
    positions = [(i, j) for i in range(kh) for j in range(kw)]
    positive = np.greater(pooled, 0) if positive_only else None
    unclaimed = None  # outputs whose first maximum is still to be found
    for i, j in positions:
        if (i, j) == positions[-1] and unclaimed is not None:
            winner = unclaimed  # the maximum is somewhere in its tile: the last position takes what is left
        else:
            winner = np.equal(view[:, :, i, :, j], pooled)
            if unclaimed is None:
                unclaimed = ~winner
            else:
                winner &= unclaimed
                unclaimed ^= winner
        if positive is not None:
            winner = winner & positive  # a new array: `unclaimed` may be this very mask
        if finite:
            np.multiply(g, winner, out=tiles[:, :, i, :, j])
        else:
            tiles[:, :, i, :, j] = np.where(winner, g, g.dtype.type(0))


def tiled_avg_pool_grad(in_shape, ksize, g):
    """The gradient of a tiled average pool: g / (kh * kw) at every position of its tile."""
    kh, kw = ksize
    n, oh, ow, channels = g.shape
    covered = in_shape[1] == oh * kh and in_shape[2] == ow * kw  # else VALID leaves positions outside every tile
    result = (np.empty if covered else np.zeros)(in_shape, g.dtype)
    tiles = result[:, :oh * kh, :ow * kw].reshape(n, oh, kh, ow, kw, channels)
    share = g / g.dtype.type(kh * kw)
    for i in range(kh):
        for j in range(kw):
            tiles[:, :, i, :, j] = share
    return result
