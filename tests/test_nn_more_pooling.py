"""max_pool_with_argmax, dilation2d / erosion2d, with_space_to_batch, approx_max_k / approx_min_k,
isotonic_regression, batch_norm_with_global_normalization: against numpy transcriptions, eager against
tf.function (passes on and off), gradients against finite differences. TF's numbers:
tests/conformance/nn_more_pooling.py."""

from __future__ import annotations

import numpy as np
import pytest
from gradcheck import check_gradients

import tinytf as tf

RNG = np.random.default_rng(3)
IMAGE = RNG.normal(size=(2, 5, 6, 3))


def _numpy_pool_argmax(x, k, s):
    """VALID pooling with the first maximum of each window, TF's flattened index."""
    n, h, w, c = x.shape
    oh, ow = (h - k) // s + 1, (w - k) // s + 1
    values, index = np.zeros((n, oh, ow, c)), np.zeros((n, oh, ow, c), np.int64)
    for b in range(n):
        for i in range(oh):
            for j in range(ow):
                for ch in range(c):
                    win = x[b, i * s:i * s + k, j * s:j * s + k, ch]
                    dy, dx = np.unravel_index(np.argmax(win), win.shape)
                    values[b, i, j, ch] = win[dy, dx]
                    index[b, i, j, ch] = ((i * s + dy) * w + j * s + dx) * c + ch
    return values, index


@pytest.mark.parametrize("include_batch", [False, True])
def test_max_pool_with_argmax_against_numpy(include_batch, passes):
    values, index = _numpy_pool_argmax(IMAGE, 2, 2)
    if include_batch:
        index = index + np.arange(2)[:, None, None, None] * (5 * 6 * 3)
    fn = lambda x: tf.nn.max_pool_with_argmax(x, 2, 2, "VALID", include_batch_in_index=include_batch)  # noqa: E731
    for got in (fn(IMAGE), tf.function(fn)(IMAGE)):
        np.testing.assert_array_equal(got[0].numpy(), values)
        np.testing.assert_array_equal(got[1].numpy(), index)
    # the pooled values equal max_pool's; the argmax indexes the flattened input
    np.testing.assert_array_equal(fn(IMAGE)[0].numpy(), tf.nn.max_pool2d(IMAGE, 2, 2, "VALID").numpy())
    flat = IMAGE.reshape(-1) if include_batch else IMAGE.reshape(2, -1)
    picked = flat[index] if include_batch else np.take_along_axis(flat, index.reshape(2, -1), 1).reshape(index.shape)
    np.testing.assert_array_equal(picked, values)


def test_max_pool_with_argmax_gradient():
    check_gradients(lambda x: tf.nn.max_pool_with_argmax(x, 3, 2, "SAME")[0], [IMAGE])


def _numpy_dilation(x, f, stride, rate):
    """VALID dilation: max over the dilated window of x + f."""
    n, h, w, c = x.shape
    kh, kw, _ = f.shape
    oh, ow = (h - (kh - 1) * rate - 1) // stride + 1, (w - (kw - 1) * rate - 1) // stride + 1
    out = np.full((n, oh, ow, c), -np.inf)
    for dy in range(kh):
        for dx in range(kw):
            patch = x[:, dy * rate:dy * rate + (oh - 1) * stride + 1:stride,
                      dx * rate:dx * rate + (ow - 1) * stride + 1:stride]
            out = np.maximum(out, patch + f[dy, dx])
    return out


def test_dilation_and_erosion_against_numpy(passes):
    f = RNG.normal(size=(2, 3, 3))
    for stride, rate in ((1, 1), (2, 1), (1, 2)):
        want = _numpy_dilation(IMAGE, f, stride, rate)
        fn = lambda x, k: tf.nn.dilation2d(x, k, [1, stride, stride, 1], "VALID", "NHWC", [1, rate, rate, 1])  # noqa
        np.testing.assert_allclose(fn(IMAGE, f).numpy(), want, rtol=1e-12)
        np.testing.assert_allclose(tf.function(fn)(IMAGE, f).numpy(), want, rtol=1e-12)
        eroded = tf.nn.erosion2d(IMAGE, f, [1, stride, stride, 1], "VALID", "NHWC", [1, rate, rate, 1])
        np.testing.assert_allclose(eroded.numpy(), -_numpy_dilation(-IMAGE, f[::-1, ::-1], stride, rate), rtol=1e-12)


@pytest.mark.parametrize("padding", ["SAME", "VALID"])
def test_dilation_gradients(padding):
    f = RNG.normal(size=(2, 2, 3))
    check_gradients(lambda x, k: tf.nn.dilation2d(x, k, [1, 1, 1, 1], padding, "NHWC", [1, 2, 1, 1]), [IMAGE, f])
    check_gradients(lambda x, k: tf.nn.erosion2d(x, k, [1, 2, 2, 1], padding, "NHWC", [1, 1, 1, 1]), [IMAGE, f])


@pytest.mark.parametrize("padding", ["SAME", "VALID"])
@pytest.mark.parametrize("rate", [[2, 2], [3, 1]])
def test_with_space_to_batch_is_a_dilated_convolution(padding, rate, passes):
    x, f = RNG.normal(size=(2, 9, 8, 2)), RNG.normal(size=(3, 3, 2, 4))
    fn = lambda t: tf.nn.with_space_to_batch(t, rate, padding,  # noqa: E731
                                             lambda i, n, p: tf.nn.conv2d(i, f, 1, p), filter_shape=[3, 3])
    want = tf.nn.conv2d(x, f, 1, padding, dilations=rate).numpy()
    np.testing.assert_allclose(fn(x).numpy(), want, rtol=1e-10)
    np.testing.assert_allclose(tf.function(fn)(x).numpy(), want, rtol=1e-10)


def test_approx_top_k_is_exact():
    x = np.array([[3.0, 1, 3, 2], [1, 5, 5, 0]], np.float32)
    values, indices = tf.math.approx_min_k(x, 2)
    assert values.numpy().tolist() == [[1, 2], [0, 1]] and indices.numpy().tolist() == [[1, 3], [3, 0]]
    values, indices = tf.nn.approx_max_k(x, 1, reduction_dimension=0)
    assert values.numpy().tolist() == [[3, 5, 5, 2]] and indices.numpy().tolist() == [[0, 1, 1, 0]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="float"):
        tf.math.approx_max_k(x.astype(np.int32), 1)


def _brute_isotonic(row):
    """The decreasing least-squares fit by pool-adjacent-violators written out differently: repeatedly average
    the first adjacent pair of blocks in the wrong order."""
    blocks = [[v] for v in row]
    changed = True
    while changed:
        changed = False
        for i in range(len(blocks) - 1):
            if np.mean(blocks[i]) < np.mean(blocks[i + 1]):
                blocks[i:i + 2] = [blocks[i] + blocks[i + 1]]
                changed = True
                break
    return np.concatenate([[np.mean(b)] * len(b) for b in blocks])


def test_isotonic_regression_against_brute_force_and_gradient(passes):
    x = RNG.normal(size=(4, 7))
    fit, segments = tf.function(lambda t: tf.nn.isotonic_regression(t))(x)
    np.testing.assert_allclose(fit.numpy(), [_brute_isotonic(r) for r in x], rtol=1e-12)
    assert (np.diff(segments.numpy(), axis=1) >= 0).all()
    up, _ = tf.nn.isotonic_regression(x, decreasing=False, axis=0)
    np.testing.assert_allclose(up.numpy(), -np.array([_brute_isotonic(-c) for c in x.T]).T, rtol=1e-12)
    check_gradients(lambda t: tf.nn.isotonic_regression(t)[0], [x])


def test_batch_norm_with_global_normalization():
    x = RNG.normal(size=(2, 3, 4))
    m, v, b, g = RNG.normal(size=4), RNG.uniform(0.5, 2, 4), RNG.normal(size=4), RNG.normal(size=4)
    got = tf.nn.batch_norm_with_global_normalization(x, m, v, b, g, 1e-3, True)
    np.testing.assert_allclose(got.numpy(), (x - m) / np.sqrt(v + 1e-3) * g + b, rtol=1e-10)
    got = tf.nn.batch_norm_with_global_normalization(x, m, v, b, g, 1e-3, False)
    np.testing.assert_allclose(got.numpy(), (x - m) / np.sqrt(v + 1e-3) + b, rtol=1e-10)


@pytest.mark.parametrize("pseudo_random", [False, True])
@pytest.mark.parametrize("overlapping", [False, True])
def test_fractional_pooling_against_its_sequences(pseudo_random, overlapping, passes):
    x = RNG.normal(size=(2, 11, 13, 2))
    fn = lambda t: tf.nn.fractional_max_pool(t, [1.0, 1.4, 1.7, 1.0], pseudo_random, overlapping, seed=4)  # noqa
    pooled, rows, cols = fn(x)
    graph = tf.function(fn)(x)
    for a, b in zip((pooled, rows, cols), graph):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    rows, cols = rows.numpy(), cols.numpy()
    assert rows[0] == 0 and rows[-1] == 11 and set(np.diff(rows)) <= {1, 2} and len(rows) == 11 * 10 // 14 + 1
    assert cols[-1] == 13 and set(np.diff(cols)) <= {1, 2}
    extra = 1 if overlapping else 0
    want = [[x[:, rows[i]:min(rows[i + 1] + extra, 11), cols[j]:min(cols[j + 1] + extra, 13)].max(axis=(1, 2))
             for j in range(len(cols) - 1)] for i in range(len(rows) - 1)]
    np.testing.assert_array_equal(pooled.numpy(), np.transpose(want, (2, 0, 1, 3)))
    averaged = tf.nn.fractional_avg_pool(x, [1.0, 1.4, 1.7, 1.0], pseudo_random, overlapping, seed=4)
    np.testing.assert_array_equal(averaged[1].numpy(), rows)  # the same seed draws the same regions


def test_fractional_pooling_gradients():
    x = RNG.normal(size=(1, 7, 9, 2))
    check_gradients(lambda t: tf.nn.fractional_max_pool(t, [1.0, 1.44, 1.73, 1.0], overlapping=True, seed=5)[0],
                    [x])
    check_gradients(lambda t: tf.nn.fractional_avg_pool(t, 1.5, pseudo_random=True, seed=3)[0], [x])
