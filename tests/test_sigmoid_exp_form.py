"""tf.sigmoid as 1 / (1 + exp(-x)) (runtime/ops/math.py, and the fused blocks' ufunc plan in
passes/fusion_codegen.py): the same bits eagerly, as a fused block (buffers and expressions), with every pass off
and against numpy's formula; accurate in the negative tail where the tanh form cancelled to 0; silent where exp
overflows; its gradient against finite differences. TF's own values are in tests/conformance/sigmoid_tails.py."""

import warnings

import numpy as np
import pytest
from ways import traced_with

import tinytf as tf

WIDE = np.concatenate([np.linspace(-120.0, 120.0, 4001), [0.0, -0.0, np.inf, -np.inf, np.nan, -1e4, 1e4]])


def _fused(v):
    return tf.sigmoid(v * 1.0) + 0.0  # a block of three steps: sigmoid is a middle one


def _alone(v):
    return tf.sigmoid(v)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("fn", [_fused, _alone])
def test_same_bits_eager_graph_no_passes_numpy(dtype, fn):
    x = WIDE.astype(dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # exp(1000) overflows: silent, as in TF
        eager = fn(tf.constant(x)).numpy()
        graph = traced_with(fn, (tf.constant(x),))(tf.constant(x)).numpy()
        plain = traced_with(fn, (tf.constant(x),), disable_all=True)(tf.constant(x)).numpy()
    wide = np.float32 if dtype is np.float16 else dtype  # float16 computes in float32, as TF does
    with np.errstate(over="ignore"):
        expected = np.reciprocal(np.exp(-x.astype(wide)) + wide(1)).astype(dtype)
    assert eager.dtype == dtype
    for got in (eager, graph, plain):
        np.testing.assert_array_equal(got, expected)


def test_scalar_and_small_blocks_use_the_expression():
    for value in (np.float32(-20.0), np.full((3,), -20.0, np.float32)):  # below the buffered blocks' size
        got = traced_with(_fused, (tf.constant(value),))(tf.constant(value)).numpy()
        np.testing.assert_array_equal(got, np.reciprocal(np.exp(-value) + np.float32(1)))
        assert np.all(got > 0)


def test_generated_block_computes_exp_not_tanh():
    x = tf.constant(np.zeros((32, 128), np.float32))
    code = traced_with(_fused, (x,)).get_concrete_function(x).code
    assert "np.exp(" in code and "np.reciprocal(" in code and "np.tanh(" not in code


def test_float32_within_four_ulp_of_exact_including_the_negative_tail():
    x = np.linspace(-87.0, 87.0, 200_001).astype(np.float32)
    got = tf.sigmoid(tf.constant(x)).numpy().astype(np.float64)
    exact = 1.0 / (1.0 + np.exp(-x.astype(np.float64)))
    ulps = np.abs(got - exact) / np.spacing(exact.astype(np.float32)).astype(np.float64)
    assert ulps.max() <= 4  # the tanh form was 100% off (0) below -17, where TF gives 2e-9
    assert tf.sigmoid(-20.0).numpy() == pytest.approx(2.0611536e-09, rel=1e-6)


def test_float16_tail_as_tf():
    x = tf.constant(np.array([-20.0, -12.0, -11.0, 0.0, 12.0], np.float16))
    for got in (tf.sigmoid(x), traced_with(_fused, (x,))(x)):
        assert got.dtype == tf.float16
        # TF 2.21's float16 values: float16's own exp overflows below -11.1 (the half form gave 0 at -12)
        np.testing.assert_array_equal(got.numpy(), np.array([0.0, 6.14e-06, 1.67e-05, 0.5, 1.0], np.float16))


def test_bfloat16_keeps_its_dtype():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    x = tf.constant(np.array([-20.0, 0.0, 3.0], ml_dtypes.bfloat16))
    eager, graph = tf.sigmoid(x), traced_with(_alone, (x,))(x)
    assert eager.dtype == graph.dtype == tf.bfloat16
    np.testing.assert_array_equal(eager.numpy().astype(np.float32), graph.numpy().astype(np.float32))
    assert 0 < float(eager.numpy()[0]) < 3e-9


def test_gradient_against_finite_differences():
    x = tf.constant([-30.0, -16.0, -3.0, 0.0, 2.5, 20.0], tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.math.log(tf.sigmoid(x))
    grad = tape.gradient(y, x).numpy()
    h = 1e-6
    numeric = (np.log(tf.sigmoid(x + h).numpy()) - np.log(tf.sigmoid(x - h).numpy())) / (2 * h)
    np.testing.assert_allclose(grad, numeric, rtol=1e-6, atol=1e-9)


def _silu(v):
    return tf.nn.silu(v * 1.0, beta=0.75) + 0.0


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_silu_same_bits_and_tail(dtype):
    x = WIDE.astype(dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        eager = _silu(tf.constant(x)).numpy()
        graph = traced_with(_silu, (tf.constant(x),))(tf.constant(x)).numpy()
        plain = traced_with(_silu, (tf.constant(x),), disable_all=True)(tf.constant(x)).numpy()
    with np.errstate(over="ignore", invalid="ignore"):
        expected = x * np.reciprocal(np.exp(-(x * dtype(0.75))) + dtype(1))
    for got in (eager, graph, plain):
        np.testing.assert_array_equal(got, expected)
    assert tf.nn.silu(tf.constant(-20.0)).numpy() == pytest.approx(-20.0 * 2.0611536e-09, rel=1e-6)


def test_silu_gradient_against_finite_differences():
    x = tf.constant([-30.0, -16.0, -3.0, 0.0, 2.5, 20.0], tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.silu(x, beta=1.5)
    h = 1e-6
    numeric = (tf.nn.silu(x + h, beta=1.5).numpy() - tf.nn.silu(x - h, beta=1.5).numpy()) / (2 * h)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), numeric, rtol=1e-6, atol=1e-12)
