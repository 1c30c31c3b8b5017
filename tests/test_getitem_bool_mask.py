"""tensor[mask] with a boolean numpy array or tensor is tf.boolean_mask, as TF's __getitem__: eagerly, in a
graph (passes on or off, by the suite's two runs), with gradients; lists and scalars stay what they were."""

import numpy as np
import pytest

import tinytf as tf

X = np.arange(12, dtype=np.float32).reshape(4, 3)
ROWS = np.array([True, False, True, True])
CELLS = X % 2 == 0


@pytest.mark.parametrize("mask", [ROWS, CELLS])
def test_matches_numpy_eagerly_and_in_a_graph(mask):
    t = tf.constant(X)
    np.testing.assert_array_equal(t[mask].numpy(), X[mask])
    np.testing.assert_array_equal(t[tf.constant(mask)].numpy(), X[mask])
    graph = tf.function(lambda t, m: t[m])(t, tf.constant(mask))
    np.testing.assert_array_equal(graph.numpy(), X[mask])


def test_gradient_scatters_back_to_the_kept_rows():
    v = tf.Variable(X)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(v[ROWS] * 3.0)
    np.testing.assert_array_equal(tape.gradient(y, v).numpy(), np.where(ROWS[:, None], np.full_like(X, 3.0), 0.0))


def test_integer_arrays_and_scalar_tensors_still_slice():
    t = tf.constant(X)
    np.testing.assert_array_equal(t[tf.constant(1)].numpy(), X[1])
    np.testing.assert_array_equal(t[1:3, 0].numpy(), X[1:3, 0])
