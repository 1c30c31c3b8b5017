"""Shape-like arguments given as tensors (issue 9, section 1): eagerly, in graphs with the shape known or
only partly known at trace time, with passes on and off, against numpy, and through gradients."""

import numpy as np
import pytest
from ways import run_all_ways

import tinytf as tf
from tinytf.runtime.errors import InvalidArgumentError

X = np.arange(12, dtype=np.float32).reshape(3, 4)


def _issue_example(x, n):
    a = tf.zeros([tf.shape(x)[0], 3])
    b = tf.zeros(tf.shape(x))
    c = tf.reshape(x, [tf.shape(x)[0], -1])
    d = tf.fill([n, 2], 7.0)
    e = tf.eye(tf.shape(x)[1])
    y = tf.constant(0.0)
    for i in tf.range(3):  # from the AutoGraph guide
        y += tf.reduce_sum(tf.zeros([4 - i, 10]) + 1.0)
    return a, b, c, d, e, y


def test_the_issue_example_runs_every_way():
    run_all_ways(_issue_example, tf.constant(X), tf.constant(2),
                 expected=(np.zeros((3, 3)), np.zeros((3, 4)), X, np.full((2, 2), 7.0), np.eye(4), 90.0))


def test_static_shapes_keep_what_is_knowable():
    concrete = tf.function(_issue_example).get_concrete_function(tf.TensorSpec([None, 4]),
                                                                tf.TensorSpec([], tf.int32))
    # as TF 2.21 infers them (checked with tf.function there)
    assert [o._shape for o in concrete.outputs] == [(None, 3), (None, 4), (None, None), (None, 2), (4, 4), ()]
    a, b, c, d, e, y = concrete(tf.constant(X), tf.constant(5))
    assert a.shape == (3, 3) and b.shape == (3, 4) and d.shape == (5, 2) and e.shape == (4, 4)
    np.testing.assert_array_equal(c.numpy(), X)


def _partial(fn, *specs):
    return tf.function(fn).get_concrete_function(*specs)


SPEC = tf.TensorSpec([None, 4])
N = tf.TensorSpec([], tf.int32)


@pytest.mark.parametrize("fn, inferred, expected", [
    (lambda x, n: tf.tile(x, [n, 1]), (None, 4), np.tile(X, [2, 1])),
    (lambda x, n: tf.tile(x, [tf.shape(x)[0], 1]), (None, 4), np.tile(X, [3, 1])),
    (lambda x, n: tf.pad(x, [[n, 0], [0, 1]]), (None, 5), np.pad(X, [[2, 0], [0, 1]])),
    (lambda x, n: tf.pad(x, [[1, 1], [0, 2]]), (None, 6), np.pad(X, [[1, 1], [0, 2]])),
    (lambda x, n: tf.slice(x, [0, 0], [tf.shape(x)[0], n]), (None, None), X[:, :2]),
    (lambda x, n: tf.slice(x, [1, 1], [-1, 2]), (None, 2), X[1:, 1:3]),
    (lambda x, n: tf.broadcast_to(tf.constant([1., 2, 3, 4]), tf.shape(x)), (None, 4), np.tile([1, 2, 3, 4], [3, 1])),
    (lambda x, n: tf.broadcast_to(1.0, [n, tf.shape(x)[1]]), (None, 4), np.ones((2, 4))),
    (lambda x, n: tf.reshape(x, [-1, tf.shape(x)[1]]), (None, 4), X),
    (lambda x, n: tf.reshape(x, [2, -1]), (2, None), X.reshape(2, -1)),
    (lambda x, n: tf.reshape(x, tf.shape(x)), (None, 4), X),
    (lambda x, n: tf.zeros(tf.shape(x)[1:]), (4,), np.zeros(4)),
    (lambda x, n: tf.ones([tf.shape(x)[1]], tf.int32), (4,), np.ones(4)),
    (lambda x, n: tf.range(tf.shape(x)[1] * 2), (8,), np.arange(8)),
    (lambda x, n: tf.eye(tf.shape(x)[0], n), (None, None), np.eye(3, 2)),
    (lambda x, n: tf.random.uniform([tf.shape(x)[0], 2]) * 0, (None, 2), np.zeros((3, 2))),
    (lambda x, n: tf.random.normal([tf.shape(x)[1], 2]) * 0, (4, 2), np.zeros((4, 2))),
    (lambda x, n: tf.random.truncated_normal(tf.shape(x)[1:]) * 0, (4,), np.zeros(4)),
    (lambda x, n: tf.strided_slice(x, [0, 1], [n, 3]), (None, None), X[:2, 1:3]),  # as TF: a run-time bound
    (lambda x, n: tf.strided_slice(x, [0, 0], tf.stack([n, n]), [1, 2]), (None, None), X[:2, :2:2]),
    (lambda x, n: x[:n, n:], (None, None), X[:2, 2:]),
])
def test_partial_shapes_infer_as_tf_and_run(fn, inferred, expected):
    concrete = _partial(fn, SPEC, N)
    assert concrete.outputs[0]._shape == inferred
    got = concrete(tf.constant(X), tf.constant(2))
    np.testing.assert_allclose(got.numpy(), expected)
    eager = fn(tf.constant(X), tf.constant(2))
    assert eager.dtype is got.dtype


def test_passes_off_agree():
    fn = tf.function(lambda x, n: (tf.tile(x, [n, 1]), tf.pad(x, [[n, 0], [0, 1]]), tf.fill([n, 2], 1.5)))
    saved = tf.config.optimizer.get_experimental_options()
    tf.config.optimizer.set_experimental_options({"disable_all": True})
    try:
        plain = [t.numpy() for t in fn.get_concrete_function(SPEC, N)(tf.constant(X), tf.constant(2))]
    finally:
        tf.config.optimizer.set_experimental_options({"disable_all": saved.get("disable_all", False)})
    optimized = [t.numpy() for t in fn(tf.constant(X), tf.constant(2))]
    for a, b in zip(plain, optimized):
        np.testing.assert_array_equal(a, b)


def test_gradients_flow_through_run_time_shapes():
    @tf.function(input_signature=[SPEC, N])
    def loss(x, n):
        tiled = tf.tile(x, [n, 1])
        padded = tf.pad(x, [[n, 0], [0, 1]], constant_values=1.0)
        cut = tf.slice(x, [0, 0], [tf.shape(x)[0], n])
        flat = tf.reshape(x, [tf.shape(x)[0], -1])
        spread = tf.broadcast_to(x[:1], [n, tf.shape(x)[1]])
        return (tf.reduce_sum(tiled * 2.0) + tf.reduce_sum(padded * 3.0) + tf.reduce_sum(cut)
                + tf.reduce_sum(flat * flat) + tf.reduce_sum(spread))

    x = tf.constant(X)
    with tf.GradientTape() as tape:
        tape.watch(x)
        value = loss(x, tf.constant(2))
    grad = tape.gradient(value, x).numpy()
    want = np.full_like(X, 2.0 * 2 + 3.0) + 2 * X
    want[:, :2] += 1
    want[0] += 2
    np.testing.assert_allclose(grad, want)
    assert np.isfinite(value.numpy())


def test_run_time_errors_name_the_op():
    concrete = _partial(lambda x, n: tf.reshape(x, [n, -1]), SPEC, N)
    with pytest.raises(InvalidArgumentError, match="requested shape requires a multiple of 5"):
        concrete(tf.constant(X), tf.constant(5))
    concrete = _partial(lambda x, n: tf.fill([n, 2], 1.0), SPEC, N)
    with pytest.raises(InvalidArgumentError, match="non-negative"):
        concrete(tf.constant(X), tf.constant(-1))


def test_trace_time_errors_still_surface():
    with pytest.raises(TypeError, match="float32"):  # the list packs as float32 (TF's rule), which no shape takes
        _partial(lambda x, n: tf.zeros([tf.cast(n, tf.float32), 2]), SPEC, N)
    with pytest.raises(ValueError, match="cannot broadcast"):  # TF: shape inference's ValueError while tracing
        _partial(lambda x, n: tf.broadcast_to(x, [n, 3]), SPEC, N)


@pytest.mark.parametrize("start, stop, axis", [(0.0, 1.0, 0), ([0.0, 5.0], [10.0, 40.0], 0),
                                               ([0.0, 5.0], [10.0, 40.0], -1), (2.0, 2.0, 0)])
@pytest.mark.parametrize("num", [1, 2, 5])
def test_linspace_with_a_run_time_num(start, stop, axis, num):
    concrete = _partial(lambda n: tf.linspace(start, stop, n, axis=axis), N)
    got = concrete(tf.constant(num))
    np.testing.assert_allclose(got.numpy(), np.linspace(start, stop, num, axis=axis, dtype=np.float32), rtol=1e-6)
    np.testing.assert_allclose(got.numpy(), tf.linspace(start, stop, num, axis=axis).numpy(), rtol=1e-6)


def test_linspace_with_a_run_time_num_is_differentiable():
    a, b = tf.constant(1.0), tf.constant(3.0)

    @tf.function(input_signature=[tf.TensorSpec([]), tf.TensorSpec([]), N])
    def f(a, b, n):
        return tf.reduce_sum(tf.linspace(a, b, n) * tf.linspace(1.0, 2.0, n))

    with tf.GradientTape() as tape:
        tape.watch([a, b])
        y = f(a, b, tf.constant(3))
    weights = np.array([1.0, 1.5, 2.0])
    fractions = np.array([0.0, 0.5, 1.0])
    np.testing.assert_allclose([g.numpy() for g in tape.gradient(y, [a, b])],
                               [np.sum(weights * (1 - fractions)), np.sum(weights * fractions)], rtol=1e-6)


def test_one_hot_and_tensor_array_with_a_run_time_size():
    @tf.function(input_signature=[N])
    def f(n):
        ta = tf.TensorArray(tf.float32, size=n).write(0, 1.0)
        return tf.one_hot([0, 2, -1], n), tf.one_hot([1, 0], n, axis=0), ta.stack()

    concrete = f.get_concrete_function()
    assert [o._shape for o in concrete.outputs[:2]] == [(3, None), (None, 2)]
    hot, hot0, stacked = f(tf.constant(3))
    np.testing.assert_array_equal(hot.numpy(), np.eye(3, dtype=np.float32)[[0, 2]].tolist() + [[0, 0, 0]])
    np.testing.assert_array_equal(hot0.numpy(), np.eye(3, dtype=np.float32)[[1, 0]].T)
    np.testing.assert_array_equal(stacked.numpy(), [1.0, 0.0, 0.0])
