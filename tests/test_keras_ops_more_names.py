"""keras.ops' bitwise functions, erfinv, i0, nextafter, view and the linalg decompositions against numpy, eagerly
and in tf.function, with gradients against finite differences (the TF-recorded programs are in
tests/conformance/keras_ops_more_names.py)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import tinytf as tf

ops = tf.keras.ops


def _both(fn, *args):
    """fn's result eagerly and inside tf.function, checked equal; the eager one returned as numpy."""
    eager = fn(*args)
    graph = tf.function(fn)(*args)
    for e, g in zip(tf.nest.flatten(eager), tf.nest.flatten(graph)):
        np.testing.assert_allclose(np.asarray(g), np.asarray(e), rtol=1e-6, atol=1e-7)
    return tf.nest.map_structure(lambda t: np.asarray(t), eager)


def _finite_difference(f, x, eps=1e-3):
    x = np.asarray(x, dtype="float64")
    grad = np.zeros_like(x)
    for index in np.ndindex(x.shape):
        plus, minus = x.copy(), x.copy()
        plus[index] += eps
        minus[index] -= eps
        grad[index] = (f(plus) - f(minus)) / (2 * eps)
    return grad


def test_bitwise_against_numpy():
    x, y = np.array([12, 10, -7, 255], "int32"), np.array([10, 3, 2, 1], "int32")
    for name, reference in [("bitwise_and", np.bitwise_and), ("bitwise_or", np.bitwise_or),
                            ("bitwise_xor", np.bitwise_xor), ("left_shift", np.left_shift),
                            ("right_shift", np.right_shift), ("bitwise_left_shift", np.left_shift),
                            ("bitwise_right_shift", np.right_shift)]:
        np.testing.assert_array_equal(_both(getattr(ops, name), tf.constant(x), tf.constant(y)), reference(x, y))
    np.testing.assert_array_equal(_both(ops.bitwise_invert, tf.constant(x)), np.invert(x))
    assert ops.bitwise_and(tf.constant([3], "uint8"), tf.constant([1], "int16")).dtype == tf.int16
    with pytest.raises((TypeError, ValueError, tf.errors.InvalidArgumentError)):  # TF: integer tensors only
        ops.bitwise_and(tf.constant([1.5]), tf.constant([2.5]))


def test_special_functions_against_numpy_and_their_gradients():
    x = np.array([-0.6, -0.2, 0.1, 0.45], "float32")
    np.testing.assert_allclose([math.erf(v) for v in _both(ops.erfinv, tf.constant(x))], x, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(_both(ops.i0, tf.constant(x)), np.i0(x), rtol=1e-6)
    assert ops.i0(tf.constant([1], "int64")).dtype == tf.float64
    np.testing.assert_array_equal(_both(ops.nextafter, tf.constant(x, "float64"), tf.constant(1.0, "float64")),
                                  np.nextafter(x.astype("float64"), 1.0))
    for fn in (ops.erfinv, ops.i0):
        t = tf.constant(x)
        with tf.GradientTape() as tape:
            tape.watch(t)
            total = tf.reduce_sum(fn(t) * tf.constant([1.0, 2.0, -1.0, 0.5]))
        expected = _finite_difference(lambda v, fn=fn: float(np.sum(fn(v).numpy() * [1.0, 2.0, -1.0, 0.5])), x)
        np.testing.assert_allclose(tape.gradient(total, t).numpy(), expected, rtol=1e-3, atol=1e-4)


def test_view_reinterprets_bytes_as_numpy_does():
    x = np.array([[1.0, -2.5], [3.0, 0.25]], "float32")
    for dtype in ["int32", "uint8", "int16", "float32"]:
        np.testing.assert_array_equal(_both(lambda t, d=dtype: ops.view(t, d), tf.constant(x)), x.view(dtype))
    wide = np.arange(8, dtype="int16").reshape(2, 4)
    np.testing.assert_array_equal(ops.view(tf.constant(wide), "int32").numpy(), wide.view("int32"))
    with pytest.raises(ValueError, match="divisible"):
        ops.view(tf.constant([1, 2, 3], "int16"), "int32")


def test_decompositions_against_numpy():
    rng = np.random.default_rng(0)
    a = rng.normal(size=(4, 3)).astype("float32")
    u, s, vh = _both(ops.svd, tf.constant(a))
    np.testing.assert_allclose(s, np.linalg.svd(a, compute_uv=False), rtol=1e-5)
    np.testing.assert_allclose((u[:, :3] * s) @ vh, a, rtol=1e-4, atol=1e-5)
    q, r = _both(ops.qr, tf.constant(a))
    np.testing.assert_allclose(q @ r, a, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(np.abs(r), np.abs(np.linalg.qr(a)[1]), rtol=1e-4, atol=1e-5)
    sym = a.T @ a
    w, v = _both(ops.eigh, tf.constant(sym))
    np.testing.assert_allclose(w, np.linalg.eigvalsh(sym), rtol=1e-4)
    b = rng.normal(size=(4, 2)).astype("float32")
    np.testing.assert_allclose(_both(ops.lstsq, tf.constant(a), tf.constant(b)), np.linalg.lstsq(a, b, rcond=None)[0],
                               rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(_both(ops.pinv, tf.constant(a)), np.linalg.pinv(a), rtol=1e-4, atol=1e-5)
    assert int(_both(ops.matrix_rank, tf.constant(np.outer([1.0, 2.0], [3.0, 4.0]).astype("float32")))) == 1


def test_decomposition_gradients_against_finite_differences():
    a = np.array([[2.0, 0.5], [0.3, 1.5], [1.0, -1.0]], "float32")
    weights = np.array([[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0]])
    target = np.array([1.0, 2.0, 2.0], "float32")
    cases = [(lambda m: tf.reduce_sum(ops.svd(m, compute_uv=False) * [1.0, 2.0])),
             (lambda m: tf.reduce_sum(ops.pinv(m) * weights.astype("float32"))),
             (lambda m: tf.reduce_sum(ops.lstsq(m, target) * [1.0, -2.0]))]
    for f in cases:
        t = tf.constant(a)
        with tf.GradientTape() as tape:
            tape.watch(t)
            loss = f(t)
        expected = _finite_difference(lambda v, f=f: float(f(tf.constant(v, "float32")).numpy()), a)
        np.testing.assert_allclose(tape.gradient(loss, t).numpy(), expected, rtol=2e-2, atol=2e-3)
