"""tf.quantization's fake quantization against an independent numpy model of TF's documented nudging, eagerly
and inside tf.function, with the straight-through gradients TF defines (checked against TF 2.21 values in
conformance toplevel_more: finite differences cannot see them, the op being piecewise constant)."""

from __future__ import annotations

import numpy as np
import pytest

import tinytf as tf

q = tf.quantization
X = np.linspace(-7.0, 7.0, 57).astype(np.float32)


def model(x, low, high, num_bits=8, narrow_range=False):
    """TF's documented adjustment: the range moved so that 0 is a level, inputs clamped and rounded to it (in
    float32, as TF's kernel: ties such as -6.0 in [-6, 6] round up there, where float64 would not)."""
    f = np.float32
    qmin, qmax = f(1 if narrow_range else 0), f(2**num_bits - 1)
    scale = (f(high) - f(low)) / (qmax - qmin)
    zero = np.clip(np.floor(qmin - f(low) / scale + f(0.5)), qmin, qmax)
    nmin, nmax = (qmin - zero) * scale, (qmax - zero) * scale
    x = np.asarray(x, np.float32)
    return np.floor((np.clip(x, nmin, nmax) - nmin) * (f(1) / scale) + f(0.5)) * scale + nmin, nmin, nmax


@pytest.mark.parametrize("low,high,bits,narrow", [(-6.0, 6.0, 8, False), (-1.3, 2.7, 4, True), (0.5, 3.0, 8, False),
                                                  (-4.0, -1.0, 6, True), (-0.1, 5.3, 5, False)])
def test_fake_quant_matches_the_model_eagerly_and_in_graphs(low, high, bits, narrow):
    want = model(X, low, high, bits, narrow)[0]
    args = q.fake_quant_with_min_max_args(X, low, high, bits, narrow)
    graph = tf.function(lambda x: q.fake_quant_with_min_max_args(x, low, high, bits, narrow))(tf.constant(X))
    varied = tf.function(lambda x, a, b: q.fake_quant_with_min_max_vars(x, a, b, bits, narrow))(
        tf.constant(X), tf.constant(low), tf.constant(high))
    for got in (args, graph, varied, q.fake_quant_with_min_max_vars(X, low, high, bits, narrow)):
        assert got.dtype is tf.float32
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, atol=1e-5)
    zero_in = 0.0 if low <= 0 <= high else None
    if zero_in is not None:  # the nudging's point: 0.0 is represented exactly
        assert q.fake_quant_with_min_max_args(tf.constant([0.0]), low, high, bits, narrow).numpy()[0] == 0.0


def test_gradients_are_straight_through_inside_the_nudged_range():
    x = tf.constant(X)
    low, high = tf.Variable(-2.1), tf.Variable(3.3)
    weights = tf.range(57.0)

    def loss():
        return tf.reduce_sum(q.fake_quant_with_min_max_vars(x, low, high) * weights)

    with tf.GradientTape() as tape:
        tape.watch(x)
        y = loss()
    dx, dlow, dhigh = tape.gradient(y, [x, low, high])

    @tf.function
    def graph_grads():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = loss()
        return tape.gradient(y, [x, low, high])

    _, nmin, nmax = model(X, -2.1, 3.3)
    w = np.arange(57.0)
    inside = (X >= nmin - 1e-6) & (X <= nmax + 1e-6)
    for got in (dx, dlow, dhigh), graph_grads():
        np.testing.assert_allclose(got[0].numpy(), w * inside)
        np.testing.assert_allclose(got[1].numpy(), w[X < nmin].sum())
        np.testing.assert_allclose(got[2].numpy(), w[X > nmax].sum())


def test_per_channel_ranges_and_gradients():
    x = tf.constant(X[:56].reshape(14, 4))
    low, high = tf.constant([-1.0, -2.0, 0.5, -6.0]), tf.constant([1.0, 3.0, 4.0, 0.25])
    got = q.fake_quant_with_min_max_vars_per_channel(x, low, high, 3).numpy()
    for ch in range(4):
        want = model(X[:56].reshape(14, 4)[:, ch], float(low[ch]), float(high[ch]), 3)
        np.testing.assert_allclose(got[:, ch], want[0], rtol=1e-5, atol=1e-5)
    g = tf.ones([14, 4])
    dx, dlow, dhigh = q.fake_quant_with_min_max_vars_per_channel_gradient(g, x, low, high, 3)
    assert dlow.shape == [4] and dhigh.shape == [4]
    with tf.GradientTape() as tape:
        tape.watch([x, low, high])
        y = tf.reduce_sum(q.fake_quant_with_min_max_vars_per_channel(x, low, high, 3))
    for a, b in zip(tape.gradient(y, [x, low, high]), (dx, dlow, dhigh)):
        np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_errors_name_the_op():
    with pytest.raises(tf.errors.InvalidArgumentError, match="min has to be smaller than max"):
        q.fake_quant_with_min_max_args(X, 2.0, 1.0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="num_bits"):
        q.fake_quant_with_min_max_vars(X, -1.0, 1.0, num_bits=17)
    # eagerly every failed check is TF's InvalidArgumentError; building a graph, a dtype mismatch is a TypeError
    with pytest.raises(tf.errors.InvalidArgumentError, match="float"):
        q.fake_quant_with_min_max_args(tf.constant([1.0], tf.float64))
    with pytest.raises(TypeError, match="float"):
        tf.function(lambda x: q.fake_quant_with_min_max_args(x))(tf.constant([1.0], tf.float64))
    with pytest.raises(tf.errors.InvalidArgumentError, match="rank 1"):
        q.fake_quant_with_min_max_vars_per_channel(X, -1.0, 1.0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="scalars"):
        q.fake_quant_with_min_max_vars(X, [-1.0], [1.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="must have 4 elements"):
        q.fake_quant_with_min_max_vars_per_channel(X[:8].reshape(2, 4), [-1.0] * 3, [1.0] * 3)
