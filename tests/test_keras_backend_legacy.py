"""tf.keras.backend's Keras 2 convolution, pooling, resizing and padding functions, batch_dot and the focal
crossentropies against numpy, eagerly and in tf.function, with gradients against finite differences (the
TF-recorded programs are in tests/conformance/keras_backend_legacy.py)."""

from __future__ import annotations

import numpy as np
import pytest

import tinytf as tf

K = tf.keras.backend
rng = np.random.default_rng(0)


def _finite_difference(f, x, eps=1e-3):
    x = np.asarray(x, dtype="float64")
    grad = np.zeros_like(x)
    for index in np.ndindex(x.shape):
        plus, minus = x.copy(), x.copy()
        plus[index] += eps
        minus[index] -= eps
        grad[index] = (f(plus) - f(minus)) / (2 * eps)
    return grad


def _check_gradient(fn, x, weights):
    t = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(t)
        loss = tf.reduce_sum(fn(t) * weights)
    expected = _finite_difference(lambda v: float(tf.reduce_sum(fn(tf.constant(v, "float32")) * weights)), x)
    np.testing.assert_allclose(tape.gradient(loss, t).numpy(), expected, rtol=2e-2, atol=2e-3)


def test_batch_dot_against_einsum_eager_and_graph():
    x, y = rng.normal(size=(3, 4, 5)).astype("float32"), rng.normal(size=(3, 5, 2)).astype("float32")
    for fn in (K.batch_dot, tf.function(K.batch_dot)):
        np.testing.assert_allclose(fn(tf.constant(x), tf.constant(y)).numpy(), np.einsum("bij,bjk->bik", x, y),
                                   rtol=1e-5, atol=1e-6)
    a, b = rng.normal(size=(3, 4)).astype("float32"), rng.normal(size=(3, 4)).astype("float32")
    pairs = K.batch_dot(tf.constant(a), tf.constant(b), axes=1).numpy()  # Keras 2 keeps a trailing axis
    np.testing.assert_allclose(pairs, (a * b).sum(1, keepdims=True), rtol=1e-5)
    z = rng.normal(size=(3, 2, 4, 5)).astype("float32")
    np.testing.assert_allclose(K.batch_dot(tf.constant(z), tf.constant(y)).numpy(),
                               np.einsum("bmij,bjk->bmik", z, y), rtol=1e-5, atol=1e-6)


def test_conv2d_and_pool2d_against_numpy():
    x = rng.normal(size=(2, 5, 5, 3)).astype("float32")
    kernel = rng.normal(size=(3, 3, 3, 2)).astype("float32")
    out = K.conv2d(tf.constant(x), tf.constant(kernel)).numpy()
    expected = np.zeros((2, 3, 3, 2), "float32")
    for i in range(3):
        for j in range(3):
            expected[:, i, j] = np.einsum("bhwc,hwco->bo", x[:, i:i + 3, j:j + 3], kernel)
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-5)
    pooled = tf.function(lambda t: K.pool2d(t, (2, 2), strides=(2, 2), pool_mode="avg"))(tf.constant(x)).numpy()
    np.testing.assert_allclose(pooled, x[:, :4, :4].reshape(2, 2, 2, 2, 2, 3).mean((2, 4)), rtol=1e-5)


def test_resize_and_padding_against_numpy():
    v = rng.normal(size=(1, 2, 3, 2, 2)).astype("float32")
    np.testing.assert_array_equal(K.resize_volumes(tf.constant(v), 2, 1, 3, "channels_last").numpy(),
                                  v.repeat(2, 1).repeat(3, 3))
    np.testing.assert_array_equal(K.spatial_3d_padding(tf.constant(v), ((1, 0), (0, 2), (1, 1))).numpy(),
                                  np.pad(v, [(0, 0), (1, 0), (0, 2), (1, 1), (0, 0)]))
    x = rng.normal(size=(1, 2, 3, 1)).astype("float32")
    np.testing.assert_array_equal(K.resize_images(tf.constant(x), 2, 2, "channels_last").numpy(),
                                  x.repeat(2, 1).repeat(2, 2))


def test_focal_crossentropies_against_their_formulas():
    target = np.array([[0.0, 1.0, 1.0]], "float32")
    p = np.array([[0.2, 0.7, 0.9]], "float32")
    bce = -(target * np.log(p) + (1 - target) * np.log(1 - p))
    p_t = target * p + (1 - target) * (1 - p)
    np.testing.assert_allclose(K.binary_focal_crossentropy(tf.constant(target), tf.constant(p)).numpy(),
                               (1 - p_t) ** 2 * bce, rtol=1e-4)
    probs = p / p.sum()
    one_hot = np.array([[0.0, 1.0, 0.0]], "float32")
    np.testing.assert_allclose(K.categorical_focal_crossentropy(tf.constant(one_hot), tf.constant(p)).numpy(),
                               (0.25 * (1 - probs) ** 2 * -one_hot * np.log(probs)).sum(-1), rtol=1e-4)
    with pytest.raises(ValueError, match="incompatible"):
        K.categorical_focal_crossentropy(tf.ones((1, 2)), tf.constant(p))


def test_gradients_of_transposed_separable_and_3d_convolutions():
    kernel = tf.constant(rng.normal(size=(3, 3, 2, 3)).astype("float32"))
    _check_gradient(lambda t: K.conv2d_transpose(t, kernel, (1, 4, 4, 2), strides=(2, 2), padding="same"),
                    rng.normal(size=(1, 2, 2, 3)).astype("float32"), rng.normal(size=(1, 4, 4, 2)).astype("float32"))
    depthwise = tf.constant(rng.normal(size=(2, 2, 2, 2)).astype("float32"))
    pointwise = tf.constant(rng.normal(size=(1, 1, 4, 3)).astype("float32"))
    _check_gradient(lambda t: K.separable_conv2d(t, depthwise, pointwise),
                    rng.normal(size=(1, 3, 3, 2)).astype("float32"), rng.normal(size=(1, 2, 2, 3)).astype("float32"))
    kernel3d = tf.constant(rng.normal(size=(2, 2, 2, 1, 2)).astype("float32"))
    _check_gradient(lambda t: K.pool3d(K.conv3d(t, kernel3d, padding="same"), (2, 2, 2), pool_mode="avg"),
                    rng.normal(size=(1, 2, 2, 2, 1)).astype("float32"), np.ones((1, 1, 1, 1, 2), "float32"))


def _numpy_rnn(x, w, u, mask=None, backwards=False):
    """The reference loop: h_t = tanh(x_t w + h u), held where the mask is off; outputs as Keras 2 keeps them."""
    h = np.zeros((x.shape[0], w.shape[1]))
    outputs = []
    steps = range(x.shape[1])[::-1] if backwards else range(x.shape[1])
    for t in steps:
        new = np.tanh(x[:, t] @ w + h @ u)
        keep = mask[:, t:t + 1] if mask is not None else np.ones((x.shape[0], 1), bool)
        out = np.where(keep, new, outputs[-1] if outputs else 0.0)
        h = np.where(keep, new, h)
        outputs.append(out)
    return np.stack(outputs, 1), h


@pytest.mark.parametrize("unroll", [False, True])
def test_rnn_against_numpy_eager_and_graph(unroll):
    x = rng.normal(size=(2, 5, 3)).astype("float32")
    w, u = rng.normal(size=(3, 4)).astype("float32") * 0.5, rng.normal(size=(4, 4)).astype("float32") * 0.5
    mask = np.array([[1, 1, 0, 1, 0], [1, 0, 0, 1, 1]], bool)

    def step(x_t, states):
        h = tf.tanh(tf.matmul(x_t, w) + tf.matmul(states[0], u))
        return h, [h]

    for backwards in (False, True):
        for m in (None, mask):
            def run(t, m=m, backwards=backwards):
                return K.rnn(step, t, [tf.zeros((2, 4))], mask=None if m is None else tf.convert_to_tensor(m),
                             go_backwards=backwards, unroll=unroll)
            expected, state = _numpy_rnn(x, w, u, m, backwards)
            for fn in (run, tf.function(run)):
                last, outputs, states = fn(tf.constant(x))
                np.testing.assert_allclose(outputs.numpy(), expected, rtol=1e-5, atol=1e-6)
                np.testing.assert_allclose(last.numpy(), expected[:, -1], rtol=1e-5, atol=1e-6)
                np.testing.assert_allclose(states[0].numpy(), state, rtol=1e-5, atol=1e-6)


def test_rnn_gradient_with_a_mask_against_finite_differences():
    w = tf.constant(rng.normal(size=(3, 3)).astype("float32") * 0.5)
    mask = tf.constant([[True, False, True], [True, True, False]])

    def step(x_t, states):
        h = tf.tanh(tf.matmul(x_t, w) + states[0])
        return h, [h]

    weights = np.array([[1.0, -2.0, 0.5], [0.3, 0.2, -1.0]], "float32")
    _check_gradient(lambda t: K.rnn(step, t, [tf.zeros((2, 3))], mask=mask)[0],
                    rng.normal(size=(2, 3, 3)).astype("float32"), weights)
