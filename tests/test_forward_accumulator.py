"""tf.autodiff.ForwardAccumulator: JVPs equal the Jacobian applied to the tangent (from GradientTape's
jacobian) and central finite differences, eagerly and inside tf.function, for elementwise, matmul,
reduction, gather, softmax and loop programs; what is unconnected or integer gives None / zeros."""

import numpy as np
import pytest

import tinytf as tf

RNG = np.random.default_rng(7)


W = RNG.normal(size=(4, 3))


def elementwise(x):
    return tf.sin(x) * tf.exp(-x * x) + x ** 3


def matmul_tanh(x):
    return tf.tanh(tf.matmul(x, tf.constant(W)))


def softmax(x):
    return tf.nn.softmax(x * 2.0, axis=-1)


def reduce_and_gather(x):
    return tf.gather(tf.reduce_logsumexp(x, axis=1), [1, 0, 1])


def while_loop(x):
    acc = x
    for _ in tf.range(3):  # a while_loop node inside tf.function
        acc = tf.sin(acc) * x
    return acc


PROGRAMS = {f.__name__: f for f in (elementwise, matmul_tanh, softmax, reduce_and_gather, while_loop)}


def _finite_difference(fn, x, v, eps=1e-6):
    return (fn(tf.constant(x + eps * v)).numpy() - fn(tf.constant(x - eps * v)).numpy()) / (2 * eps)


def _jvp(fn, x, v):
    x = tf.constant(x)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(v)) as acc:
        y = fn(x)
    return acc.jvp(y).numpy()


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_jvp_matches_finite_differences_eagerly_and_in_a_function(name):
    fn = PROGRAMS[name]
    x = RNG.normal(size=(2, 4))
    v = RNG.normal(size=(2, 4))
    expected = _finite_difference(fn, x, v)
    np.testing.assert_allclose(_jvp(fn, x, v), expected, rtol=1e-6, atol=1e-8)
    in_function = tf.function(lambda x, v: _jvp_tensor(fn, x, v))
    np.testing.assert_allclose(in_function(tf.constant(x), tf.constant(v)).numpy(), expected, rtol=1e-6, atol=1e-8)


def _jvp_tensor(fn, x, v):
    with tf.autodiff.ForwardAccumulator(x, v) as acc:
        y = fn(x)
    return acc.jvp(y)


def test_jvp_is_the_jacobian_times_the_tangent():
    fn = matmul_tanh
    x = tf.constant(RNG.normal(size=(2, 4)))
    v = RNG.normal(size=(2, 4))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn(x)
    jacobian = tape.jacobian(y, x).numpy()
    np.testing.assert_allclose(_jvp(fn, x.numpy(), v), np.einsum("abij,ij->ab", jacobian, v), rtol=1e-10)


def test_variables_as_primals_and_a_hessian_vector_product():
    v = tf.Variable([1.0, 2.0, -1.0], dtype=tf.float64)
    direction = np.array([0.5, -1.0, 2.0])
    with tf.autodiff.ForwardAccumulator(v, tf.constant(direction)) as acc:
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(tf.exp(v) * v ** 2)
        grad = tape.gradient(y, v)
    x = v.numpy()
    hessian_diag = np.exp(x) * (x ** 2 + 4 * x + 2)
    np.testing.assert_allclose(acc.jvp(grad).numpy(), hessian_diag * direction, rtol=1e-12)


def test_unconnected_integer_and_repeated_jvp_calls():
    x = tf.constant([1.0, 2.0])
    with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 1.0])) as acc:
        y = x * x
        unrelated = tf.constant([3.0, 4.0]) + 1.0
        counts = tf.cast(x, tf.int32) * 2
    assert acc.jvp(unrelated) is None
    np.testing.assert_array_equal(acc.jvp(unrelated, unconnected_gradients="zero").numpy(), [0.0, 0.0])
    assert acc.jvp(counts) is None
    np.testing.assert_array_equal(acc.jvp(y).numpy(), [2.0, 4.0])
    np.testing.assert_array_equal(acc.jvp(y).numpy(), [2.0, 4.0])  # the tape is kept for every jvp call
    np.testing.assert_array_equal(acc.jvp(x).numpy(), [1.0, 1.0])  # a primal's JVP is its tangent
    after = x * 3.0  # computed after the context: not tracked, as in TF
    assert acc.jvp(after) is None


def test_bad_tangents_raise_value_errors_naming_the_problem():
    with pytest.raises(ValueError, match="shape"):
        tf.autodiff.ForwardAccumulator(tf.constant([1.0, 2.0]), tf.constant([1.0, 2.0, 3.0]))
    with pytest.raises(ValueError, match="dtype"):
        tf.autodiff.ForwardAccumulator(tf.constant([1.0]), tf.constant([1], tf.int32))
    with pytest.raises(ValueError, match="same structure"):
        tf.autodiff.ForwardAccumulator([tf.constant(1.0), tf.constant(2.0)], [tf.constant(1.0)])
    acc = tf.autodiff.ForwardAccumulator(tf.constant(1.0), tf.constant(1.0))
    with acc:
        pass
    with pytest.raises(ValueError, match="entered only once"):
        acc.__enter__()
