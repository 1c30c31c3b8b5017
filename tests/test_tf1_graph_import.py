"""TF1 GraphDefs written by TensorFlow 2.21 (tests/tf_files/tf1/, made by make_tf1_graphs.py there, outputs
recorded in tests/tf_reference/tf1_graph_import.json): reference variables with their initializer, tf.cond
as Switch/Merge and tf.while_loop as Enter/Exit/NextIteration/LoopCond frames (rebuilt as tinytf cond and
while_loop nodes), and NCHW conv/pool. Each is imported into a TF1 graph and run in a Session, and where
it has no variables also eagerly (input_map) and inside a tf.function."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

import tinytf as tf
from tinytf.runtime.ops.control import cond_op, while_op

graph_pb2 = pytest.importorskip("tensorboard.compat.proto.graph_pb2")

v1 = tf.compat.v1
HERE = os.path.dirname(os.path.abspath(__file__))
REFERENCE = json.load(open(os.path.join(HERE, "tf_reference", "tf1_graph_import.json")))
X = np.array(REFERENCE["x"], np.float32)


def load(name):
    graph_def = graph_pb2.GraphDef()
    with open(os.path.join(HERE, "tf_files", "tf1", f"{name}.pb"), "rb") as f:
        graph_def.ParseFromString(f.read())
    return graph_def


def ops_of(graph) -> set:
    return {node.op for node in graph.nodes}


def test_the_files_hold_tf1_ops():
    """The committed GraphDefs are TF1's (so the tests below exercise what they say)."""
    assert {"VariableV2", "Assign", "AssignAdd"} <= set(REFERENCE["variables_v2"]["ops"])
    assert {"Switch", "Merge"} <= set(REFERENCE["cond_v1"]["ops"])
    assert {"Enter", "Exit", "NextIteration", "LoopCond", "Merge", "Switch"} <= set(REFERENCE["while_v1"]["ops"])
    assert {n.attr["data_format"].s for n in load("nchw").node if n.op in ("Conv2D", "MaxPool", "AvgPool")} == {
        b"NCHW"}


def test_reference_variables_and_their_initializer():
    graph = v1.Graph()
    with graph.as_default():
        v1.import_graph_def(load("variables_v2"))
        assert v1.global_variables() == []  # TF's import_graph_def adds no variables to the collections
    reference = REFERENCE["variables_v2"]
    first, second = v1.Session(graph=graph), v1.Session(graph=graph)
    with pytest.raises(tf.errors.FailedPreconditionError, match="import/W"):
        first.run("import/y:0", {"import/x:0": X})
    first.run("import/init")
    np.testing.assert_allclose(first.run("import/y:0", {"import/x:0": X}), reference["first"], rtol=1e-6)
    first.run("import/step")
    first.run(graph.get_operation_by_name("import/step"))
    np.testing.assert_allclose(first.run("import/y:0", {"import/x:0": X}), reference["after_two_steps"], rtol=1e-6)
    with pytest.raises(tf.errors.FailedPreconditionError):  # the other session never ran the initializer
        second.run("import/y:0", {"import/x:0": X})
    second.run("import/init")
    np.testing.assert_allclose(second.run("import/y:0", {"import/x:0": X}), reference["first"], rtol=1e-6)
    np.testing.assert_allclose(first.run(graph.get_tensor_by_name("import/W:0")),
                               np.arange(6, dtype=np.float32).reshape(3, 2) / 4 + 0.2, rtol=1e-6)


def test_cond_v1_becomes_cond_nodes_and_gives_tfs_numbers():
    graph = v1.Graph()
    with graph.as_default():
        v1.import_graph_def(load("cond_v1"), name="")
    conds = [n for n in graph.nodes if n.op is cond_op]
    assert len(conds) == 3  # simple, pair (two results, one cond) and outer (its branches hold the inner conds)
    outer = next(n for n in conds if any(cond_op in ops_of(g) for g in n.attrs.values() if hasattr(g, "nodes")))
    assert outer is not None
    fetches = [graph.get_tensor_by_name(name) for name in ("y:0", "a:0", "b:0", "nested:0")]
    with v1.Session(graph=graph) as sess:
        for x, want in REFERENCE["cond_v1"]["results"].items():
            out = sess.run(fetches, {"x:0": float(x), "v:0": [1.0, 2.0, 3.0]})
            for got, expected in zip(out, want):
                np.testing.assert_allclose(got, expected, rtol=1e-6)
        assert sess.run("simple/Merge:1", {"x:0": 1.0}) == 1  # Merge's second output: the branch taken
        assert sess.run("simple/Merge:1", {"x:0": -1.0}) == 0


@pytest.mark.parametrize("x", ["-3.0", "0.5", "3.0"])
def test_cond_v1_eagerly_and_in_a_function(x):
    want = REFERENCE["cond_v1"]["results"][x]
    inputs = {"x": tf.constant(float(x)), "v": tf.constant([1.0, 2.0, 3.0])}
    eager = tf.graph_util.import_graph_def(load("cond_v1"), input_map=inputs,
                                           return_elements=["y:0", "a:0", "b:0", "nested:0"])

    @tf.function
    def run(xv, vv):
        return tf.graph_util.import_graph_def(load("cond_v1"), input_map={"x": xv, "v": vv},
                                              return_elements=["y:0", "a:0", "b:0", "nested:0"])

    traced = run(inputs["x"], inputs["v"])
    for results in (eager, traced):
        for got, expected in zip(results, want):
            np.testing.assert_allclose(got.numpy(), expected, rtol=1e-6)


def test_while_v1_becomes_while_loop_nodes_and_gives_tfs_numbers():
    graph = v1.Graph()
    with graph.as_default():
        acc, vec = v1.import_graph_def(load("while_v1"), return_elements=["acc:0", "vec:0"])
    assert sum(n.op is while_op for n in graph.nodes) == 2
    with v1.Session(graph=graph) as sess:
        for key, (want_acc, want_vec) in REFERENCE["while_v1"]["results"].items():
            x, n = key.split(",")
            got_acc, got_vec = sess.run([acc, vec], {"import/x:0": float(x), "import/n:0": int(n)})
            np.testing.assert_allclose(got_acc, want_acc, rtol=1e-6)
            np.testing.assert_array_equal(got_vec, np.array(want_vec, np.float32))


def test_while_v1_eagerly_and_in_a_function():
    @tf.function
    def run(x, n):
        return tf.graph_util.import_graph_def(load("while_v1"), input_map={"x": x, "n": n},
                                              return_elements=["acc:0", "vec:0"])

    for key, (want_acc, want_vec) in REFERENCE["while_v1"]["results"].items():
        x, n = key.split(",")
        inputs = {"x": tf.constant(float(x)), "n": tf.constant(int(n))}
        eager = tf.graph_util.import_graph_def(load("while_v1"), input_map=inputs, return_elements=["acc:0", "vec:0"])
        for got_acc, got_vec in (eager, run(inputs["x"], inputs["n"])):
            np.testing.assert_allclose(got_acc.numpy(), want_acc, rtol=1e-6)
            np.testing.assert_array_equal(got_vec.numpy(), np.array(want_vec, np.float32))


def test_nchw_conv_and_pools():
    reference = REFERENCE["nchw"]
    image = np.array(reference["image"], np.float32)
    graph = v1.Graph()
    with graph.as_default():
        max_out, avg_out = v1.import_graph_def(load("nchw"), return_elements=["max:0", "avg:0"])
    assert max_out.shape == (2, 4, 3, 3)
    with v1.Session(graph=graph) as sess:
        got_max, got_avg = sess.run([max_out, avg_out], {"import/x:0": image})
    np.testing.assert_allclose(got_max, reference["max"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got_avg, reference["avg"], rtol=1e-5, atol=1e-6)
    eager_max, = tf.graph_util.import_graph_def(load("nchw"), input_map={"x": image}, return_elements=["max:0"])
    np.testing.assert_allclose(eager_max.numpy(), reference["max"], rtol=1e-5, atol=1e-6)


def test_unrebuildable_merge_is_a_clear_error():
    graph_def = load("cond_v1")
    kept = [n for n in graph_def.node if n.name != "simple/pred_id"]
    del graph_def.node[:]
    graph_def.node.extend(kept)
    with v1.Graph().as_default():
        with pytest.raises(ValueError, match="simple/Merge.*tf.cond"):
            v1.import_graph_def(graph_def)


def test_gradients_through_imported_cond_and_while_match_finite_differences():
    """The rebuilt cond and while_loop are tinytf's own nodes, so GradientTape differentiates them (the points
    take both branches of the outer cond and three of the four inner branches)."""
    def outputs(x):
        acc, nested = tf.graph_util.import_graph_def(
            load("while_v1"), input_map={"x": x, "n": tf.constant(4)}, return_elements=["acc:0"]) + \
            tf.graph_util.import_graph_def(load("cond_v1"), input_map={"x": x, "v": tf.constant([1.0, 2.0, 3.0])},
                                           return_elements=["nested:0"])
        return acc + nested

    for point in (-1.0, 0.5, 3.0):  # (the GraphDef's other loop runs too when imported eagerly: it ends for x > -1.5)
        x = tf.Variable(point)
        with tf.GradientTape() as tape:
            y = outputs(x)
        grad = float(tape.gradient(y, x).numpy())
        eps = 1e-2
        numeric = (float(outputs(tf.constant(point + eps)).numpy()) -
                   float(outputs(tf.constant(point - eps)).numpy())) / (2 * eps)
        np.testing.assert_allclose(grad, numeric, rtol=2e-3, atol=2e-3)
