"""tf.nn.conv3d / conv3d_transpose / max_pool3d / avg_pool3d against plain numpy loops, eagerly and in
tf.function (an unknown batch size too, as Keras traces), and their errors. TF's own values and gradients are in
tests/conformance/core_api_conv3d.py; finite differences in tests/test_gradients_registry.py."""

import itertools

import numpy as np
import pytest

import tinytf as tf


def _pads(size, k, s, d, padding):
    eff = (k - 1) * d + 1
    if padding == "SAME":
        out = -(-size // s)
        total = max((out - 1) * s + eff - size, 0)
        return out, total // 2, total - total // 2
    return (size - eff) // s + 1, 0, 0


def _conv3d_numpy(x, f, strides, padding, dilations=(1, 1, 1)):
    geo = [_pads(n, k, s, d, padding) for n, k, s, d in zip(x.shape[1:4], f.shape[:3], strides, dilations)]
    xp = np.pad(x.astype(np.float64), ((0, 0),) + tuple((b, a) for _, b, a in geo) + ((0, 0),))
    out = np.zeros((x.shape[0],) + tuple(o for o, _, _ in geo) + (f.shape[4],))
    for a, b, c in itertools.product(*(range(o) for o, _, _ in geo)):
        for i, j, k in itertools.product(*(range(n) for n in f.shape[:3])):
            row = xp[:, a * strides[0] + i * dilations[0], b * strides[1] + j * dilations[1],
                     c * strides[2] + k * dilations[2]]
            out[:, a, b, c] += row @ f[i, j, k]
    return out


def _pool3d_numpy(x, k, s, padding, reduce):
    geo = [_pads(n, kk, ss, 1, padding) for n, kk, ss in zip(x.shape[1:4], k, s)]
    out = np.zeros((x.shape[0],) + tuple(o for o, _, _ in geo) + (x.shape[4],))
    for a, b, c in itertools.product(*(range(o) for o, _, _ in geo)):
        lo = [max(idx * st - before, 0) for idx, st, (_, before, _) in zip((a, b, c), s, geo)]
        hi = [min(idx * st - before + kk, n) for idx, st, (_, before, _), kk, n in
              zip((a, b, c), s, geo, k, x.shape[1:4])]
        out[:, a, b, c] = reduce(x[:, lo[0]:hi[0], lo[1]:hi[1], lo[2]:hi[2]], axis=(1, 2, 3))
    return out


CONV_CASES = [((1, 1, 1), "SAME", (1, 1, 1)), ((2, 1, 2), "VALID", (1, 1, 1)), ((1, 3, 1), "SAME", (1, 1, 1)),
              ((1, 1, 1), "SAME", (2, 1, 2)), ((1, 1, 1), "VALID", (1, 2, 1))]


@pytest.mark.parametrize("strides, padding, dilations", CONV_CASES)
@pytest.mark.parametrize("compiled", [False, True])
def test_conv3d_matches_numpy(strides, padding, dilations, compiled):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 5, 6, 7, 3)).astype(np.float32)
    f = rng.standard_normal((2, 3, 2, 3, 4)).astype(np.float32)

    def conv(a, b):
        return tf.nn.conv3d(a, b, [1, *strides, 1], padding, dilations=[1, *dilations, 1])

    fn = tf.function(conv) if compiled else conv
    np.testing.assert_allclose(fn(x, f).numpy(), _conv3d_numpy(x, f, strides, padding, dilations), rtol=1e-4,
                               atol=1e-4)


@pytest.mark.parametrize("ksize, strides, padding", [((2, 2, 2), (2, 2, 2), "VALID"), ((3, 2, 3), (2, 1, 2), "SAME"),
                                                     ((1, 3, 2), (1, 1, 1), "SAME")])
@pytest.mark.parametrize("compiled", [False, True])
def test_pool3d_matches_numpy(ksize, strides, padding, compiled):
    x = np.random.default_rng(1).standard_normal((2, 5, 4, 6, 3)).astype(np.float32)

    def pools(a):
        return tf.nn.max_pool3d(a, ksize, strides, padding), tf.nn.avg_pool3d(a, ksize, strides, padding)

    fn = tf.function(pools) if compiled else pools
    got_max, got_avg = fn(x)
    np.testing.assert_allclose(got_max.numpy(), _pool3d_numpy(x, ksize, strides, padding, np.max), rtol=1e-6)
    np.testing.assert_allclose(got_avg.numpy(), _pool3d_numpy(x, ksize, strides, padding, np.mean), rtol=1e-5,
                               atol=1e-6)


def test_gradients_with_an_unknown_batch_in_function():
    rng = np.random.default_rng(2)
    f = tf.Variable(rng.standard_normal((2, 2, 2, 3, 4)).astype(np.float32))

    @tf.function(input_signature=[tf.TensorSpec([None, 4, 5, 4, 3], tf.float32)])
    def step(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.nn.conv3d(x, f, [1, 2, 1, 2, 1], "SAME")
            y = tf.nn.max_pool3d(y, 2, 1, "SAME") + tf.nn.avg_pool3d(y, [1, 2, 2], 1, "VALID")[:, :, :1, :1]
            loss = tf.reduce_sum(y * y)
        return tape.gradient(loss, [x, f])

    x = rng.standard_normal((3, 4, 5, 4, 3)).astype(np.float32)
    got = step(x)
    with tf.GradientTape() as tape:
        xt = tf.constant(x)
        tape.watch(xt)
        y = tf.nn.conv3d(xt, f, [1, 2, 1, 2, 1], "SAME")
        y = tf.nn.max_pool3d(y, 2, 1, "SAME") + tf.nn.avg_pool3d(y, [1, 2, 2], 1, "VALID")[:, :, :1, :1]
        loss = tf.reduce_sum(y * y)
    want = tape.gradient(loss, [xt, f])
    for g, w in zip(got, want):
        np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-4, atol=1e-4)


def test_conv3d_transpose_is_the_input_gradient():
    rng = np.random.default_rng(3)
    x = tf.constant(rng.standard_normal((1, 5, 4, 6, 2)).astype(np.float32))
    f = tf.constant(rng.standard_normal((3, 2, 3, 2, 4)).astype(np.float32))
    g = tf.constant(rng.standard_normal((1, 3, 2, 3, 4)).astype(np.float32))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.conv3d(x, f, 2, "SAME")
    want = tape.gradient(y, x, output_gradients=g)
    got = tf.nn.conv3d_transpose(g, f, [1, 5, 4, 6, 2], 2, "SAME")
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-5, atol=1e-5)


def test_errors_name_the_op_and_shapes():
    x = tf.ones([1, 3, 3, 3, 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="input depth 2 does not match"):
        tf.nn.conv3d(x, tf.ones([2, 2, 2, 3, 1]), 1, "SAME")
    with pytest.raises(ValueError, match="5-D"):
        tf.nn.conv3d(tf.ones([1, 3, 3, 2]), tf.ones([2, 2, 2, 2, 1]), 1, "SAME")
    with pytest.raises(ValueError, match="5-D"):
        tf.nn.max_pool3d(tf.ones([1, 3, 3, 2]), 2, 1, "SAME")
    with pytest.raises(tf.errors.InvalidArgumentError, match="strides"):
        tf.nn.conv3d(x, tf.ones([2, 2, 2, 2, 1]), [1, 1, 1, 1], "SAME")
    with pytest.raises(ValueError, match="NDHWC"):
        tf.nn.avg_pool3d(x, 2, 1, "SAME", data_format="NCDHW")
    with pytest.raises(tf.errors.InvalidArgumentError, match="max_pool3d"):
        tf.nn.max_pool3d(tf.ones([1, 2, 2, 2, 1], tf.int32), 2, 1, "SAME")
    with pytest.raises(ValueError, match="output_shape"):
        tf.nn.conv3d_transpose(tf.ones([1, 2, 2, 2, 2]), tf.ones([2, 2, 2, 3, 2]), [1, 4, 4, 4, 5], 2)
