"""The tiled pool kernels run in chunks of images (pool_kernels._image_chunks) on the conv kernels' threads:
any chunk size and thread count gives the bits of one pass over the whole batch, for the forward max pool,
its gradient (plain and relu-folded, ties and non-finite gradients included) and the average pool's
gradient."""

import numpy as np
import pytest
from test_conv_kernels import _loop_max_pool_grad

from tinytf.runtime import chunked
from tinytf.runtime.ops import conv, conv_kernels, nn_grad, pool_kernels

ATTRS = dict(ksize=(2, 2), strides=(2, 2), padding="VALID")


def _bits(a):
    return np.asarray(a).view(np.uint32 if a.dtype == np.float32 else np.uint64)


def _cases(rng):
    ties = np.maximum(rng.integers(-2, 3, (9, 8, 6, 3)).astype(np.float32), 0)  # relu outputs, tied zeros
    smooth = rng.standard_normal((7, 10, 9, 4))  # float64; VALID drops the last column
    return [ties, smooth]


@pytest.mark.parametrize("chunk_bytes,threads", [(1, 1), (1, 2), (700, 3), (1 << 30, 1), (1 << 30, 2)])
def test_pool_kernels_give_the_same_bits_whatever_the_chunks_and_threads(chunk_bytes, threads, monkeypatch):
    rng = np.random.default_rng(8)
    cases = _cases(rng)
    grads = [rng.standard_normal(conv._max_pool_kernel(x, **ATTRS).shape).astype(x.dtype) for x in cases]
    grads[0][0, 0, 0, 0] = np.inf  # a non-finite gradient: the relu-folded kernel keeps the two ops' order
    whole = []
    for x, g in zip(cases, grads):
        y = conv._max_pool_kernel(x, **ATTRS)
        whole.append((y, nn_grad._max_pool_grad_kernel(x, y, g, **ATTRS),
                      nn_grad._max_pool_relu_grad_kernel(x, y, g, **ATTRS)))
    monkeypatch.setattr(pool_kernels, "CHUNK_BYTES", chunk_bytes)
    monkeypatch.setattr(pool_kernels, "PARALLEL_MIN_ELEMENTS", 0)
    monkeypatch.setattr(conv_kernels, "PARALLEL_MIN_FLOPS", 0)
    chunked.set_num_threads(threads)
    try:
        for x, g, want in zip(cases, grads, whole):
            y = conv._max_pool_kernel(x, **ATTRS)
            got = (y, nn_grad._max_pool_grad_kernel(x, y, g, **ATTRS),
                   nn_grad._max_pool_relu_grad_kernel(x, y, g, **ATTRS))
            for a, b in zip(got, want):
                np.testing.assert_array_equal(_bits(a), _bits(b))
    finally:
        chunked.set_num_threads(0)


def test_chunked_max_pool_gradient_matches_window_loops(monkeypatch):
    monkeypatch.setattr(pool_kernels, "CHUNK_BYTES", 1)
    rng = np.random.default_rng(9)
    x = rng.integers(-2, 3, (5, 6, 6, 2)).astype(np.float32)
    y = conv._max_pool_kernel(x, **ATTRS)
    g = rng.standard_normal(y.shape).astype(np.float32)
    assert len(pool_kernels._image_chunks(pool_kernels.tiled_view(x, (2, 2), (2, 2), "VALID"))) == 5
    np.testing.assert_array_equal(nn_grad._max_pool_grad_kernel(x, y, g, **ATTRS), _loop_max_pool_grad(x, g, 2))


@pytest.mark.parametrize("shape", [(2, 6, 8, 3), (2, 7, 9, 3)])
def test_tiled_avg_pool_gradient_spreads_g_evenly(shape):
    rng = np.random.default_rng(10)
    g = rng.standard_normal((shape[0], shape[1] // 2, shape[2] // 2, shape[3])).astype(np.float32)
    got = pool_kernels.tiled_avg_pool_grad(shape, (2, 2), g)
    want = np.zeros(shape, np.float32)
    for i in range(2):
        for j in range(2):
            want[:, i:g.shape[1] * 2:2, j:g.shape[2] * 2:2] = g / np.float32(4)
    np.testing.assert_array_equal(got, want)  # and exact zeros in the row and column VALID drops
