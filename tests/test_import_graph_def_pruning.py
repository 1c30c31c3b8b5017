"""An eager tf.graph_util.import_graph_def runs only what its return elements need, as TF runs only what is
fetched: a node nobody asked for (here an integer division by zero) never runs; asked for, it fails as in TF."""

import numpy as np
import pytest

import tinytf as tf


def _graph_def():
    graph = tf.compat.v1.Graph()
    with graph.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [2], name="x")
        n = tf.compat.v1.placeholder(tf.int32, [], name="n")
        tf.multiply(x, 2.0, name="y")
        tf.math.floordiv(n, 0, name="bad")  # fails when run
    return graph.as_graph_def()


def test_eager_import_runs_only_the_return_elements():
    graph_def = _graph_def()
    x, n = tf.constant([1.0, 2.0]), tf.constant(7)
    y, = tf.graph_util.import_graph_def(graph_def, input_map={"x": x, "n": n}, return_elements=["y:0"])
    np.testing.assert_allclose(y.numpy(), [2.0, 4.0])
    assert tf.graph_util.import_graph_def(graph_def, input_map={"x": x, "n": n}) is None  # nothing fetched, none run
    with pytest.raises(tf.errors.InvalidArgumentError, match="division by zero"):
        tf.graph_util.import_graph_def(graph_def, input_map={"x": x, "n": n}, return_elements=["y:0", "bad:0"])
    with pytest.raises(ValueError, match="not found in graph_def"):
        tf.graph_util.import_graph_def(graph_def, input_map={"x": x, "n": n}, return_elements=["nothing:0"])


def test_imported_into_a_graph_the_session_runs_only_the_fetches():
    graph_def = _graph_def()
    graph = tf.compat.v1.Graph()
    with graph.as_default():
        tf.compat.v1.import_graph_def(graph_def, name="")
    with tf.compat.v1.Session(graph=graph) as sess:
        np.testing.assert_allclose(sess.run("y:0", {"x:0": np.array([1.0, 2.0], np.float32), "n:0": 7}), [2.0, 4.0])
        with pytest.raises(tf.errors.InvalidArgumentError, match="division by zero"):
            sess.run("bad:0", {"x:0": np.array([1.0, 2.0], np.float32), "n:0": 7})


def test_in_a_function_the_import_is_pruned_with_the_graph():
    graph_def = _graph_def()

    @tf.function
    def f(x, n):
        return tf.graph_util.import_graph_def(graph_def, input_map={"x": x, "n": n}, return_elements=["y:0"])[0]

    np.testing.assert_allclose(f(tf.constant([1.0, 2.0]), tf.constant(7)).numpy(), [2.0, 4.0])
