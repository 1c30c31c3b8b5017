"""TF1 variable checks (VarIsInitializedOp): `is_variable_initialized`, `report_uninitialized_variables`,
`variables_initializer`, each variable's `v/IsInitialized/VarIsInitializedOp`; eagerly, inside a tf.function
(passes on and off) and through an exported and re-imported GraphDef. TF 2.21's answers for the same programs:
tests/conformance/tf1_variable_checks.py."""

import numpy as np
import pytest

import tinytf as tf

v1 = tf.compat.v1


def _graph():
    graph = v1.Graph()
    with graph.as_default():
        w = v1.Variable(1.0, name="w")
        u = v1.get_variable("u", [2], initializer=v1.zeros_initializer())
    return graph, w, u


def test_checks_follow_each_session_and_never_raise():
    graph, w, u = _graph()
    with graph.as_default():
        ready = v1.is_variable_initialized(u)
        missing = v1.report_uninitialized_variables()
        read = u + 1.0
        init_u = v1.variables_initializer([u], name="init_u")
    assert (ready.dtype, ready.shape.as_list(), missing.dtype, missing.shape.as_list()) == (
        tf.bool, [], tf.string, [None])
    first, second = v1.Session(graph=graph), v1.Session(graph=graph)
    with pytest.raises(tf.errors.FailedPreconditionError, match="uninitialized"):
        first.run(read)
    assert not first.run(ready) and list(first.run(missing)) == [b"w", b"u"]
    first.run(init_u)
    assert bool(first.run(ready)) and list(first.run(missing)) == [b"w"]
    np.testing.assert_array_equal(first.run(read), [1.0, 1.0])
    # the other session never initialized anything
    assert not second.run(ready) and list(second.run(missing)) == [b"w", b"u"]
    first.close(), second.close()


def test_each_variable_has_tf_is_initialized_node():
    graph, w, u = _graph()
    ops = [(op.name, op.type) for op in graph.get_operations()]
    assert ops[:5] == [("w/Initializer/initial_value", "Const"), ("w", "VarHandleOp"),
                       ("w/IsInitialized/VarIsInitializedOp", "VarIsInitializedOp"), ("w/Assign", "AssignVariableOp"),
                       ("w/Read/ReadVariableOp", "ReadVariableOp")]
    check = graph.get_tensor_by_name("u/IsInitialized/VarIsInitializedOp:0")
    with v1.Session(graph=graph) as sess:
        assert not sess.run(check)
        sess.run(u.initializer)
        assert sess.run(check)


def test_report_of_no_variables_is_an_empty_string_vector():
    graph = v1.Graph()
    with graph.as_default():
        missing = v1.report_uninitialized_variables()
    assert missing.name == "report_uninitialized_variables/Const:0"
    with v1.Session(graph=graph) as sess:
        assert sess.run(missing).shape == (0,)


@pytest.mark.parametrize("passes", ["on", "none"])
def test_eager_and_function_variables_are_initialized(passes, monkeypatch):
    if passes == "none":
        monkeypatch.setenv("TINYTF_PASSES", "none")
    v = tf.Variable([1.0, 2.0])
    assert bool(v1.is_variable_initialized(v))

    @tf.function
    def f():
        return v1.is_variable_initialized(v), v * 2.0

    ready, value = f()
    assert bool(ready) and value.numpy().tolist() == [2.0, 4.0]
    ops = [op.type for op in f.get_concrete_function().graph.get_operations()]
    assert "VarIsInitializedOp" in ops
    with pytest.raises(AttributeError, match="eager execution"):
        v1.report_uninitialized_variables([v])


def test_checks_survive_a_graph_def_round_trip():
    graph, w, u = _graph()
    with graph.as_default():
        ready = v1.is_variable_initialized(w)
        missing = v1.report_uninitialized_variables(name="mine")
    graph_def = graph.as_graph_def()
    ops = {n.name: n.op for n in graph_def.node}
    assert ops["w/IsInitialized/VarIsInitializedOp"] == "VarIsInitializedOp"
    assert {"mine/boolean_mask/Where", "mine/boolean_mask/Squeeze"} <= set(ops)  # TF's boolean_mask composite
    imported = v1.Graph()
    with imported.as_default():
        ready2, missing2 = v1.import_graph_def(graph_def, return_elements=[ready.name, missing.name], name="")
    with v1.Session(graph=imported) as sess:
        assert not sess.run(ready2) and list(sess.run(missing2)) == [b"w", b"u"]
        sess.run("w/Assign")
        assert sess.run(ready2) and list(sess.run(missing2)) == [b"u"]


def test_reads_for_an_op_are_named_inside_its_scope():
    graph = v1.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [None, 2], name="x")
        with v1.variable_scope("dense"):
            k = v1.get_variable("kernel", [2, 3])
            y = tf.matmul(x, k)
        b = v1.Variable(0.5, name="b")
        z = y + b
        explicit = k.value()
    assert y.op.inputs[1].name == "dense/MatMul/ReadVariableOp:0"
    assert z.op.inputs[1].name == "add/ReadVariableOp:0"
    assert explicit.name == "ReadVariableOp:0"  # an explicit read keeps its own name
