"""tf.nn.depthwise_conv2d, tf.nn.conv1d and tf.nn.conv2d_transpose (runtime/ops/conv_variants.py) against
direct numpy loops, eagerly, in tf.function and with every pass off; their gradients against finite
differences (first and second order for depthwise); the shape errors. TF's own outputs are checked by the
conformance module tests/conformance/conv_variants.py."""

import numpy as np
import pytest

import tinytf as tf
from tinytf.runtime.ops import conv

rng = np.random.default_rng(11)


def _pad(x, window, strides, dilations, padding):
    """x padded as TF pads it, and the output size."""
    pads, out = [], []
    for axis in (1, 2):
        pad = padding if isinstance(padding, str) else padding[axis]
        size, before, after = conv.window_geometry(x.shape[axis], window[axis - 1], strides[axis - 1],
                                                   dilations[axis - 1], pad if isinstance(pad, str) else tuple(pad))
        pads.append((before, after))
        out.append(size)
    return np.pad(x, ((0, 0), pads[0], pads[1], (0, 0))), out


def depthwise_reference(x, f, strides, padding, dilations=(1, 1)):
    kh, kw, c, m = f.shape
    xp, (oh, ow) = _pad(x, (kh, kw), strides, dilations, padding)
    y = np.zeros((x.shape[0], oh, ow, c * m), np.float64)
    for n in range(x.shape[0]):
        for h in range(oh):
            for w in range(ow):
                for ch in range(c):
                    for q in range(m):
                        total = 0.0
                        for i in range(kh):
                            for j in range(kw):
                                total += xp[n, h * strides[0] + i * dilations[0], w * strides[1] + j * dilations[1],
                                            ch] * f[i, j, ch, q]
                        y[n, h, w, ch * m + q] = total
    return y


def transpose_reference(x, f, out_shape, strides, padding):
    """Scatter each input pixel's filter-weighted contribution over its window of the (padded) output."""
    kh, kw, out_c, in_c = f.shape
    n, height, width = out_shape[:3]
    _, (oh, ow) = _pad(np.zeros(out_shape), (kh, kw), strides, (1, 1), padding)
    assert (oh, ow) == x.shape[1:3]
    top = conv.window_geometry(height, kh, strides[0], 1, padding)[1]
    left = conv.window_geometry(width, kw, strides[1], 1, padding)[1]
    y = np.zeros((n, height + kh + strides[0] * oh, width + kw + strides[1] * ow, out_c))
    for b in range(n):
        for h in range(oh):
            for w in range(ow):
                for i in range(kh):
                    for j in range(kw):
                        y[b, h * strides[0] + i, w * strides[1] + j] += f[i, j] @ x[b, h, w]
    return y[:, top:top + height, left:left + width]


def _three_ways(fn, *args):
    """fn eagerly, as a tf.function with the default passes, and with every pass off."""
    tensors = [tf.constant(a) for a in args]
    eager = fn(*tensors).numpy()
    graph = tf.function(fn)(*tensors).numpy()
    saved = tf.config.optimizer.get_experimental_options()
    tf.config.optimizer.set_experimental_options({"disable_all": True})
    try:
        bare = tf.function(fn)(*tensors).numpy()
    finally:
        tf.config.optimizer.set_experimental_options({"disable_all": saved.get("disable_all", False)})
    np.testing.assert_allclose(graph, eager, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(bare, eager, rtol=1e-6, atol=1e-6)
    return eager


DEPTHWISE = [((2, 7, 6, 3), (3, 2, 3, 2), (1, 1), "SAME", (1, 1)),
             ((1, 8, 7, 2), (3, 3, 2, 1), (2, 2), "VALID", (1, 1)),
             ((1, 6, 6, 2), (2, 2, 2, 3), (1, 1), "SAME", (2, 2)),
             ((2, 5, 6, 1), (2, 3, 1, 2), (2, 1), [[0, 0], [1, 2], [0, 1], [0, 0]], (1, 1))]


@pytest.mark.parametrize("x_shape, f_shape, strides, padding, dilations", DEPTHWISE)
def test_depthwise_matches_loops(x_shape, f_shape, strides, padding, dilations):
    x = rng.standard_normal(x_shape).astype(np.float32)
    f = rng.standard_normal(f_shape).astype(np.float32)
    got = _three_ways(lambda a, b: tf.nn.depthwise_conv2d(a, b, [1, *strides, 1], padding, dilations=list(dilations)),
                      x, f)
    pad = padding if isinstance(padding, str) else [None, padding[1], padding[2]]
    np.testing.assert_allclose(got, depthwise_reference(x, f, strides, pad, dilations), rtol=1e-4, atol=1e-5)


def _numeric_grad(loss, value, points, eps=1e-3):
    out = []
    for idx in points:
        plus, minus = value.copy(), value.copy()
        plus[idx] += eps
        minus[idx] -= eps
        out.append((loss(plus) - loss(minus)) / (2 * eps))
    return np.array(out)


@pytest.mark.parametrize("x_shape, f_shape, strides, padding, dilations", DEPTHWISE[:3])
def test_depthwise_gradients_match_finite_differences(x_shape, f_shape, strides, padding, dilations):
    x = rng.standard_normal(x_shape)
    f = rng.standard_normal(f_shape)
    weights = rng.standard_normal(depthwise_reference(x, f, strides, padding, dilations).shape)

    def loss(a, b):
        y = tf.nn.depthwise_conv2d(a, b, [1, *strides, 1], padding, dilations=list(dilations))
        return tf.reduce_sum(tf.tanh(y) * weights)

    @tf.function
    def grads(a, b):
        with tf.GradientTape() as tape:
            tape.watch([a, b])
            value = loss(a, b)
        return tape.gradient(value, [a, b])

    gx, gf = [g.numpy() for g in grads(tf.constant(x), tf.constant(f))]
    points_x = [tuple(rng.integers(0, s) for s in x_shape) for _ in range(5)]
    points_f = [tuple(rng.integers(0, s) for s in f_shape) for _ in range(5)]
    fx = _numeric_grad(lambda v: float(loss(tf.constant(v), tf.constant(f))), x, points_x)
    ff = _numeric_grad(lambda v: float(loss(tf.constant(x), tf.constant(v))), f, points_f)
    np.testing.assert_allclose([gx[p] for p in points_x], fx, rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose([gf[p] for p in points_f], ff, rtol=1e-4, atol=1e-6)


def test_depthwise_second_derivative_matches_finite_differences():
    x = rng.standard_normal((1, 5, 5, 2))
    f = rng.standard_normal((2, 2, 2, 2))

    def filter_grad(b):
        a = tf.constant(x)
        with tf.GradientTape() as tape:
            tape.watch(b)
            loss = tf.reduce_sum(tf.nn.depthwise_conv2d(a, b, [1, 1, 1, 1], "SAME") ** 2)
        return tape.gradient(loss, b)

    b = tf.constant(f)
    with tf.GradientTape() as outer:
        outer.watch(b)
        g = tf.reduce_sum(filter_grad(b) * tf.constant(f))
    second = outer.gradient(g, b).numpy()
    points = [(0, 0, 0, 0), (1, 1, 1, 1), (0, 1, 1, 0)]
    numeric = _numeric_grad(lambda v: float(tf.reduce_sum(filter_grad(tf.constant(v)) * f)), f, points)
    np.testing.assert_allclose([second[p] for p in points], numeric, rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("stride, padding, dilation", [(1, "SAME", 1), (2, "VALID", 1), (1, "SAME", 2), (3, "SAME", 1)])
def test_conv1d_matches_loops_and_gradients(stride, padding, dilation):
    x = rng.standard_normal((2, 11, 3)).astype(np.float32)
    f = rng.standard_normal((3, 3, 4)).astype(np.float32)
    got = _three_ways(lambda a, b: tf.nn.conv1d(a, b, stride, padding, dilations=dilation), x, f)
    # a conv1d is a depthwise-free 2-D convolution of height 1: compare with the loops of depthwise summed
    expected = np.stack([depthwise_reference(x[:, None], f[None, :, :, o:o + 1], (1, stride), padding, (1, dilation))
                         .sum(axis=-1)[:, 0] for o in range(4)], axis=-1)
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-5)
    xt, ft = tf.constant(x.astype(np.float64)), tf.constant(f.astype(np.float64))
    with tf.GradientTape() as tape:
        tape.watch(ft)
        loss = tf.reduce_sum(tf.nn.conv1d(xt, ft, stride, padding, dilations=dilation) ** 2)
    gf = tape.gradient(loss, ft).numpy()
    point = (1, 2, 3)
    numeric = _numeric_grad(lambda v: float(tf.reduce_sum(tf.nn.conv1d(xt, tf.constant(v), stride, padding,
                                                                       dilations=dilation) ** 2)),
                            f.astype(np.float64), [point])
    np.testing.assert_allclose(gf[point], numeric[0], rtol=1e-4)


@pytest.mark.parametrize("in_hw, out_hw, strides, padding", [((4, 3), (8, 6), (2, 2), "SAME"),
                                                              ((4, 3), (9, 7), (2, 2), "VALID"),
                                                              ((4, 3), (4, 3), (1, 1), "SAME"),
                                                              ((3, 3), (7, 9), (2, 3), "VALID")])
def test_conv2d_transpose_matches_loops_and_gradients(in_hw, out_hw, strides, padding):
    x = rng.standard_normal((2, *in_hw, 3)).astype(np.float32)
    f = rng.standard_normal((3, 3, 5, 3)).astype(np.float32)
    out_shape = [2, *out_hw, 5]
    got = _three_ways(lambda a, b: tf.nn.conv2d_transpose(a, b, out_shape, list(strides), padding), x, f)
    np.testing.assert_allclose(got, transpose_reference(x, f, out_shape, strides, padding), rtol=1e-4, atol=1e-5)
    x64, f64 = x.astype(np.float64), f.astype(np.float64)

    def loss(a, b):
        return float(tf.reduce_sum(tf.sin(tf.nn.conv2d_transpose(tf.constant(a), tf.constant(b), out_shape,
                                                                 list(strides), padding))))
    a, b = tf.constant(x64), tf.constant(f64)
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        value = tf.reduce_sum(tf.sin(tf.nn.conv2d_transpose(a, b, out_shape, list(strides), padding)))
    gx, gf = [g.numpy() for g in tape.gradient(value, [a, b])]
    px, pf = [(1, 2, 1, 0), (0, 0, 2, 2)], [(0, 1, 4, 2), (2, 2, 0, 1)]
    np.testing.assert_allclose([gx[p] for p in px], _numeric_grad(lambda v: loss(v, f64), x64, px), rtol=1e-4)
    np.testing.assert_allclose([gf[p] for p in pf], _numeric_grad(lambda v: loss(x64, v), f64, pf), rtol=1e-4)


def test_shape_errors():
    x = tf.ones([1, 4, 4, 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="input depth 2"):
        tf.nn.depthwise_conv2d(x, tf.ones([2, 2, 3, 1]), [1, 1, 1, 1], "SAME")
    with pytest.raises(tf.errors.InvalidArgumentError, match="output_shape"):
        tf.nn.conv2d_transpose(x, tf.ones([3, 3, 5, 2]), [1, 9, 9, 5], 2, "SAME")
    with pytest.raises(tf.errors.InvalidArgumentError, match="filters' last dimension"):
        tf.nn.conv2d_transpose(x, tf.ones([3, 3, 5, 3]), [1, 8, 8, 5], 2, "SAME")
    with pytest.raises(ValueError, match="NWC"):
        tf.nn.conv1d(tf.ones([1, 4, 2]), tf.ones([2, 2, 2]), 1, "SAME", data_format="NCW")
    with pytest.raises(TypeError, match="padding"):
        tf.nn.conv1d(tf.ones([1, 5, 2]), tf.ones([2, 2, 2]), 1, [[0, 0], [1, 1], [0, 0]])
