"""TF's node names (runtime/naming.py): eagerly `name=` changes nothing; in graphs it names the node, whichever
way the graph is built and run (tests/conformance/node_names.py compares the names themselves with TF 2.21)."""

import numpy as np
import pytest

import tinytf as tf


def test_eager_ops_ignore_name():
    x = tf.constant([1.0, -2.0])
    for named, plain in [(tf.add(x, 1.0, name="a"), tf.add(x, 1.0)), (tf.nn.relu(x, name="r"), tf.nn.relu(x)),
                         (tf.reduce_sum(x, name="s"), tf.reduce_sum(x)), (tf.identity(x, name="out"), x)]:
        np.testing.assert_array_equal(named.numpy(), plain.numpy())


@pytest.mark.parametrize("passes", [True, False])
def test_named_nodes_in_a_function_compute_the_same(passes):
    def body(x):
        a = tf.add(x, 1.0, name="a")
        with tf.name_scope("scope"):
            b = tf.multiply(a, 2.0, name="a")  # another `a`, under the scope
        return tf.identity(tf.reduce_sum(b, name="total") - x[0], name="out")

    tf.config.optimizer.set_experimental_options({"disable_all": not passes})
    try:
        function = tf.function(body)
        x = tf.constant([1.0, 2.0, 3.0])
        assert float(function(x)) == float(body(x)) == 17.0
        names = [n.name for n in function.get_concrete_function(x).unoptimized_graph.as_graph_def().node]
        assert {"a/y", "a", "scope/a/y", "scope/a", "total", "out"} <= set(names)
        optimized = [n.name for n in function.get_concrete_function(x).graph.as_graph_def().node]
        assert len(optimized) == len(set(optimized))  # the optimized graph exports with unique names too
    finally:
        tf.config.optimizer.set_experimental_options({"disable_all": False})


def test_tf1_names_are_unique_ignoring_case_and_lookups_follow_them():
    graph = tf.compat.v1.Graph()
    with graph.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [2], name="x")
        first = tf.identity(x, name="out")
        second = tf.identity(x * 2.0, name="OUT")
        third = tf.add(x, 1.0, name="out")
    assert [t.name for t in (first, second, third)] == ["out:0", "OUT_1:0", "out_2:0"]
    assert third.op.inputs[1].name == "out_2/y:0"
    with tf.compat.v1.Session(graph=graph) as sess:
        got = sess.run(["OUT_1:0", "out_2:0", "out_2/y:0"], {"x:0": np.array([1.0, 2.0], np.float32)})
    np.testing.assert_array_equal(got[0], [2.0, 4.0])
    np.testing.assert_array_equal(got[1], [2.0, 3.0])
    assert float(got[2]) == 1.0


def test_tf1_cond_and_loop_results_pass_identities_that_run():
    graph = tf.compat.v1.Graph()
    with graph.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [], name="x")
        y = tf.cond(x > 0.0, lambda: x * 2.0, lambda: -x, name="pick")
        i, total = tf.while_loop(lambda i, t: i < 3, lambda i, t: (i + 1, t + y), [0, 0.0])
    assert (y.name, y.op.type, total.name) == ("pick/Identity:0", "Identity", "while/Identity_3:0")
    with tf.compat.v1.Session(graph=graph) as sess:
        assert sess.run([y, total, i], {x: 2.0}) == [4.0, 12.0, 3]
        assert sess.run("while/Identity_3:0", {"x:0": -1.0}) == 3.0
