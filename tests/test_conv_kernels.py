"""The fast paths of the pooling and convolution kernels (runtime/ops/pool_kernels.py and conv_kernels.py)
against plain loops over windows: tiled pools (ksize == strides) forward and backward, with ties, NaN,
integer inputs, remainders that VALID drops; conv2d and its filter gradient writing into given buffers."""

import numpy as np
import pytest

import tinytf as tf
from tinytf.runtime.ops import conv, nn_grad, pool_kernels


def _loop_pool(x, k, reduce):
    n, h, w, c = x.shape
    oh, ow = h // k, w // k
    out = np.empty((n, oh, ow, c), x.dtype)
    for i in range(oh):
        for j in range(ow):
            out[:, i, j] = reduce(x[:, i * k:i * k + k, j * k:j * k + k].reshape(n, k * k, c), axis=1)
    return out


def _loop_max_pool_grad(x, g, k):
    """Each output's gradient to the first maximum of its window in row-major order."""
    n, h, w, c = x.shape
    result = np.zeros_like(x, dtype=g.dtype)
    for b in range(n):
        for i in range(h // k):
            for j in range(w // k):
                for ch in range(c):
                    window = x[b, i * k:i * k + k, j * k:j * k + k, ch]
                    r, s = np.unravel_index(np.argmax(window), window.shape)
                    result[b, i * k + r, j * k + s, ch] += g[b, i, j, ch]
    return result


ATTRS = [((2, 2), "VALID", (2, 8, 8, 3)), ((2, 2), "VALID", (1, 7, 9, 2)), ((3, 3), "SAME", (2, 9, 6, 2)),
         ((2, 2), "SAME", (1, 4, 6, 1))]


@pytest.mark.parametrize("ksize,padding,shape", ATTRS)
def test_tiled_pools_match_window_loops(ksize, padding, shape):
    rng = np.random.default_rng(0)
    x = rng.integers(-3, 4, shape).astype(np.float32)  # small integers: many ties inside windows
    k = ksize[0]
    attrs = dict(ksize=ksize, strides=ksize, padding=padding)
    assert pool_kernels.tiled_view(x, ksize, ksize, padding) is not None
    np.testing.assert_array_equal(conv._max_pool_kernel(x, **attrs), _loop_pool(x, k, np.max))
    np.testing.assert_allclose(conv._avg_pool_kernel(x, **attrs), _loop_pool(x, k, np.mean), rtol=1e-6)
    g = rng.standard_normal(conv._max_pool_kernel(x, **attrs).shape).astype(np.float32)
    pooled = conv._max_pool_kernel(x, **attrs)
    np.testing.assert_array_equal(nn_grad._max_pool_grad_kernel(x, pooled, g, **attrs),
                                  _loop_max_pool_grad(x, g, k))
    avg_grad = nn_grad._avg_pool_grad_kernel(g, shape=shape[1:], **attrs)
    expected = np.zeros_like(x)
    oh, ow = g.shape[1:3]
    expected[:, :oh * k, :ow * k] = np.repeat(np.repeat(g, k, axis=1), k, axis=2) / (k * k)
    np.testing.assert_allclose(avg_grad, expected, rtol=1e-6)


def test_tiled_pool_integers_and_nan():
    x = np.arange(-32, 32, dtype=np.int32).reshape(1, 8, 8, 1)
    np.testing.assert_array_equal(conv._max_pool_kernel(x, ksize=(2, 2), strides=(2, 2), padding="VALID"),
                                  _loop_pool(x, 2, np.max))
    f = np.ones((1, 4, 4, 1), np.float32)
    f[0, 1, 1, 0] = np.nan
    g = np.ones((1, 2, 2, 1), np.float32)
    attrs = dict(ksize=(2, 2), strides=(2, 2), padding="VALID")
    assert np.isnan(conv._max_pool_kernel(f, **attrs)[0, 0, 0, 0])
    pooled = conv._max_pool_kernel(f, **attrs)
    grad = nn_grad._max_pool_grad_kernel(f, pooled, g, **attrs)  # NaN windows take the general path's rule
    assert grad.sum() == 4 and grad[0, 1, 1, 0] == 1


def test_overlapping_pools_keep_the_general_path():
    x = np.random.default_rng(1).standard_normal((1, 5, 5, 2)).astype(np.float32)
    assert pool_kernels.tiled_view(x, (3, 3), (2, 2), "VALID") is None
    assert not pool_kernels.tiles(5, 5, (2, 2), (2, 2), "SAME")  # SAME pads 5 to 6: not a tiling


def test_conv_writes_into_given_buffers():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((2, 6, 6, 3)).astype(np.float32)
    w = rng.standard_normal((3, 3, 3, 4)).astype(np.float32)
    attrs = dict(strides=(1, 1), padding="SAME", dilations=(1, 1))
    expected = conv._conv2d_kernel(x, w, **attrs)
    out = np.empty((2, 6, 6, 4), np.float32)
    scratch = np.empty(2 * 6 * 6 * 27, np.float32)
    result = conv._conv2d_kernel(x, w, out=out, scratch=scratch, **attrs)
    assert np.shares_memory(result, out)
    np.testing.assert_allclose(result, expected, rtol=1e-5, atol=1e-6)
    wrong = np.empty(7, np.float32)  # a buffer of the wrong size is ignored, never half-used
    np.testing.assert_allclose(conv._conv2d_kernel(x, w, scratch=wrong, **attrs), expected, rtol=1e-5, atol=1e-6)
    g = rng.standard_normal(expected.shape).astype(np.float32)
    filter_grad = nn_grad._conv_backprop_filter_kernel(x, g, filter_shape=w.shape, scratch=scratch, **attrs)
    np.testing.assert_allclose(filter_grad, nn_grad._conv_backprop_filter_kernel(x, g, filter_shape=w.shape, **attrs),
                               rtol=1e-5, atol=1e-5)
    input_grad = nn_grad._conv_backprop_input_kernel(g, w, shape=x.shape[1:], scratch=scratch, **attrs)
    np.testing.assert_allclose(input_grad, nn_grad._conv_backprop_input_kernel(g, w, shape=x.shape[1:], **attrs),
                               rtol=1e-5, atol=1e-5)


def test_tiled_pool_gradients_in_graphs_match_eager():
    x = tf.constant(np.random.default_rng(3).standard_normal((2, 8, 8, 3)).astype(np.float32))

    def loss(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.nn.max_pool2d(x, 2, 2, "VALID") + tf.nn.avg_pool2d(x * x, 2, 2, "SAME")
            total = tf.reduce_sum(y * y)
        return tape.gradient(total, x)

    np.testing.assert_allclose(tf.function(loss)(x).numpy(), loss(x).numpy(), rtol=1e-5)
