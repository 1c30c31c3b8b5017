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


def qdq_model(x, low, high, signed=True, bits=8, narrow=False, given=True, half_up=False):
    """TF's documented quantize-and-dequantize: the side of the range needing the smaller scale decides it."""
    if not given:
        low, high = x.min(), x.max()
    q_min, q_max = ((-(2 ** (bits - 1)) + narrow, 2 ** (bits - 1) - 1) if signed else (0, 2**bits - 1))
    from_min = q_min / low if q_min * low > 0 else np.inf
    from_max = q_max / high if q_max * high > 0 else np.inf
    if from_min < from_max:
        scale, inverse = from_min, low / q_min
        high = q_max * inverse
    else:
        scale, inverse = from_max, high / q_max
        low = q_min * inverse
    if given:
        x = np.clip(x, low, high)
    scaled = x * scale
    return (np.floor(scaled + 0.5) if half_up else np.rint(scaled)) * inverse


@pytest.mark.parametrize("kw", [dict(input_min=-1.0, input_max=1.5, range_given=True),
                                dict(input_min=0.0, input_max=0.0),
                                dict(input_min=-2.0, input_max=2.0, range_given=True, num_bits=4, narrow_range=True),
                                dict(input_min=0.0, input_max=2.0, range_given=True, signed_input=False,
                                     round_mode="HALF_UP")])
def test_quantize_and_dequantize_matches_the_model_and_its_gradients(kw):
    x = X[::3]
    want = qdq_model(x.astype(np.float64), kw["input_min"], kw["input_max"], kw.get("signed_input", True),
                     kw.get("num_bits", 8), kw.get("narrow_range", False), kw.get("range_given", False),
                     kw.get("round_mode") == "HALF_UP")
    for fn in (q.quantize_and_dequantize, q.quantize_and_dequantize_v2):
        eager = fn(x, **kw)
        graph = tf.function(lambda t, fn=fn: fn(t, **kw))(tf.constant(x))
        for got in (eager, graph):
            np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, atol=1e-5)
    t, low, high = tf.constant(x), tf.constant(kw["input_min"]), tf.constant(kw["input_max"])
    rest = {k: v for k, v in kw.items() if k not in ("input_min", "input_max")}
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([t, low, high])
        v1 = tf.reduce_sum(q.quantize_and_dequantize(t, low, high, **rest) * 3.0)
        v2 = tf.reduce_sum(q.quantize_and_dequantize_v2(t, low, high, **rest) * 3.0)
    np.testing.assert_array_equal(tape.gradient(v1, t).numpy(), np.full_like(x, 3.0))  # the identity's
    inside = (x >= kw["input_min"]) & (x <= kw["input_max"])
    grads = tape.gradient(v2, [t, low, high])
    np.testing.assert_array_equal(grads[0].numpy(), 3.0 * inside)  # passed inside the given range only
    assert float(grads[1]) == 0.0 and float(grads[2]) == 0.0


def test_quantize_and_dequantize_per_slice_and_errors():
    xm = X[:16].reshape(4, 4)
    got = q.quantize_and_dequantize_v2(xm, [0.0] * 4, [0.0] * 4, axis=0).numpy()
    for row in range(4):
        np.testing.assert_allclose(got[row], qdq_model(xm[row].astype(np.float64), 0, 0, given=False), rtol=1e-5,
                                   atol=1e-6)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid range"):
        q.quantize_and_dequantize_v2(X, 2.0, 1.0, range_given=True)
    with pytest.raises(tf.errors.InvalidArgumentError, match="must be a scalar"):
        q.quantize_and_dequantize_v2(xm, [-1.0] * 4, [1.0] * 4, range_given=True, axis=1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="not in the list"):
        q.quantize_and_dequantize_v2(tf.constant([1, 2]), 0, 1)
