"""dropout_select with a scale: dropout's multiplication and select as one op (where(keep, x * scale, 0) forward,
where(keep, g, 0) * scale for the gradient), bit for bit the two ops TF runs, in every float dtype, over
several chunks; Keras' Dropout (stateless_dropout) and tf.nn.dropout use it eagerly, in graphs and with passes
off, and a graph exports it as TF's Mul and SelectV2."""

import numpy as np
import pytest

import tinytf as tf
from tests.ways import traced_with
from tinytf.runtime.ops import nn


def _bits(a):
    a = np.asarray(a)
    return a.view({2: np.uint16, 4: np.uint32, 8: np.uint64}[a.dtype.itemsize])


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("size", [7, nn._SELECT_CHUNK * 2 + 5])  # one chunk, and a last short chunk
def test_kernel_is_the_two_ops_bit_for_bit(dtype, size):
    rng = np.random.default_rng(0)
    x = (rng.standard_normal(size) * 100).astype(dtype)
    x[:6] = [np.nan, np.inf, -np.inf, -0.0, 0.0, -3.0]
    keep = rng.random(size) > 0.3
    keep[:6] = [True, True, False, True, False, False]
    scale = dtype(1 / 0.7)
    forward = nn._dropout_select(keep, x, scale=float(scale), scale_first=True)
    backward = nn._dropout_select(keep, x, scale=float(scale), scale_first=False)
    assert forward.dtype == backward.dtype == dtype
    np.testing.assert_array_equal(_bits(forward), _bits(np.where(keep, x * scale, dtype(0))))
    np.testing.assert_array_equal(_bits(backward), _bits(np.where(keep, x, dtype(0)) * scale))
    negative = nn._dropout_select(keep, x, scale=-2.0, scale_first=False)  # 0 * -2 is -0.0, as the two ops give
    np.testing.assert_array_equal(_bits(negative), _bits(np.where(keep, x, dtype(0)) * dtype(-2.0)))


def test_views_and_broadcast_fallback_match_where():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((6, 8)).astype(np.float32)
    keep = rng.random((6, 8)) > 0.5
    got = nn._dropout_select(keep[:, ::2], x[:, ::2], scale=2.0, scale_first=True)
    np.testing.assert_array_equal(got, np.where(keep[:, ::2], x[:, ::2] * np.float32(2), np.float32(0)))
    row = keep[:1]  # a mask that broadcasts: np.where's way
    np.testing.assert_array_equal(nn._dropout_select(row, x, scale=2.0, scale_first=False),
                                  np.where(row, x, np.float32(0)) * np.float32(2))


def _stateless(x):
    return tf.nn.experimental.stateless_dropout(x, 0.2, seed=[3, 4])


def test_stateless_dropout_is_tf_formula_in_every_way():
    x = tf.constant(np.random.default_rng(2).standard_normal((64, 300)).astype(np.float32))
    noise = tf.random.stateless_uniform([64, 300], seed=[3, 4]).numpy()
    expected = np.where(noise >= np.float32(0.2), x.numpy() * np.float32(1.25), np.float32(0))
    for run in (_stateless, traced_with(_stateless, (x,)), traced_with(_stateless, (x,), disable_all=True)):
        np.testing.assert_array_equal(_bits(run(x).numpy()), _bits(expected))
    ops = tf.function(_stateless).get_concrete_function(x).graph.op_types()
    assert "dropout_select" in ops and "where" not in ops


def test_gradients_against_the_formula_and_finite_differences():
    x = tf.constant(np.random.default_rng(3).standard_normal((30, 20)).astype(np.float64))
    weights = tf.constant(np.random.default_rng(4).standard_normal((30, 20)))
    keep = tf.random.stateless_uniform([30, 20], seed=[3, 4], dtype=tf.float64).numpy() >= 0.2

    def fn(x):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as tape:
                tape.watch(x)
                loss = tf.reduce_sum(_stateless(x) * weights)
            g = tape.gradient(loss, x)
            second = tf.reduce_sum(g * g * x)
        return loss, g, outer.gradient(second, x)

    for run in (fn, traced_with(fn, (x,)), traced_with(fn, (x,), disable_all=True)):
        loss, g, h = (t.numpy() for t in run(x))
        np.testing.assert_array_equal(g, np.where(keep, weights.numpy(), 0) * 1.25)
        np.testing.assert_array_equal(h, (np.where(keep, weights.numpy(), 0) * 1.25) ** 2)
    theoretical, numerical = tf.test.compute_gradient(lambda v: tf.reduce_sum(_stateless(v) * weights), [x])
    np.testing.assert_allclose(theoretical[0], numerical[0], atol=1e-6)


def test_tf_nn_dropout_scales_in_the_select():
    x = tf.constant(np.random.default_rng(5).standard_normal((8, 5)).astype(np.float32))

    @tf.function
    def fn(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.nn.dropout(x, 0.5, seed=1)
        return y, tape.gradient(y, x)

    tf.random.set_seed(2)
    y, g = (t.numpy() for t in fn(x))
    kept = y != 0
    np.testing.assert_array_equal(y, np.where(kept, x.numpy() * np.float32(2), 0))
    np.testing.assert_array_equal(g, np.where(kept, np.float32(2), 0))
    assert "multiply" not in fn.get_concrete_function(x).graph.op_types()


def test_graph_def_has_tfs_mul_and_select():
    x = tf.constant(np.random.default_rng(6).standard_normal((8, 5)).astype(np.float32))

    @tf.function
    def fn(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = _stateless(x)
        return y, tape.gradient(y, x)

    types = [node.op for node in fn.get_concrete_function(x).graph.as_graph_def().node]
    assert types.count("SelectV2") == 2 and types.count("Mul") >= 2


def test_tensor_rate_keeps_the_division():
    x = tf.ones([4, 4])

    @tf.function
    def fn(x, rate):
        return tf.nn.dropout(x, rate, seed=1)

    y = fn(x, tf.constant(0.5)).numpy()
    assert set(np.unique(y).tolist()) <= {0.0, 2.0}
    assert "divide" in fn.get_concrete_function(x, tf.constant(0.5)).unoptimized_graph.op_types()
