"""TF1 variables keep their initial value as a tensor of their graph: the initializer computes it in the session
that runs it (tests/conformance/tf1_initial_values.py checks the numbers and names against TF 2.21; here the
cases TF does not record: several sessions, eager and tf.function name scopes, the GraphDef, errors)."""

import numpy as np
import pytest

import tinytf as tf

v1 = tf.compat.v1


def _random_variable_graph():
    graph = v1.Graph()
    with graph.as_default():
        v1.set_random_seed(7)
        v = v1.Variable(tf.random.normal([3]), name="v")
        init = v1.global_variables_initializer()
    return graph, v, init


def test_random_initial_value_is_drawn_in_the_session_each_run():
    graph, v, init = _random_variable_graph()
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        first = sess.run(v)
        sess.run(init)
        second = sess.run(v)
    assert not np.allclose(first, second)  # a fresh draw per run of the initializer
    assert first.shape == (3,) and first.dtype == np.float32
    # The same graph seed gives the same first draw in a new graph, as in TF.
    graph2, v2, init2 = _random_variable_graph()
    with v1.Session(graph=graph2) as sess:
        sess.run(init2)
        np.testing.assert_array_equal(sess.run(v2), first)


def test_variable_outside_a_session_is_uninitialized():
    graph, v, init = _random_variable_graph()
    with v1.Session(graph=graph) as sess:
        with pytest.raises(tf.errors.FailedPreconditionError, match="uninitialized"):
            sess.run(v)


def test_initial_value_from_a_placeholder_needs_its_feed():
    graph = v1.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [None], name="x")
        v = v1.Variable(x + 1.0, name="v")
        init = v1.global_variables_initializer()
    assert v.shape.as_list() == [None]
    with v1.Session(graph=graph) as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="must feed a value for placeholder tensor 'x'"):
            sess.run(init)
        sess.run(init, {x: [1.0, 2.0]})
        np.testing.assert_array_equal(sess.run(v), [2.0, 3.0])
        sess.run(v.initializer, {x: np.arange(4, dtype=np.float32)})  # another length: the shape is [None]
        np.testing.assert_array_equal(sess.run(v), [1.0, 2.0, 3.0, 4.0])


def test_initial_value_reading_another_variable():
    graph = v1.Graph()
    with graph.as_default():
        a = v1.Variable([1.0, 2.0], name="a")
        b = v1.Variable(a.read_value() * 10.0, name="b")  # reads a's session value when b is initialized
        step = a.assign([5.0, 5.0])
    with v1.Session(graph=graph) as sess:
        sess.run(a.initializer)
        sess.run(step)
        sess.run(b.initializer)
        np.testing.assert_array_equal(sess.run(b), [50.0, 50.0])


def test_sessions_keep_their_own_initialized_values():
    graph = v1.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [2])
        v = v1.Variable(x, name="v")
    with v1.Session(graph=graph) as one, v1.Session(graph=graph) as two:
        one.run(v.initializer, {x: [1.0, 1.0]})
        two.run(v.initializer, {x: [2.0, 2.0]})
        np.testing.assert_array_equal(one.run(v), [1.0, 1.0])
        np.testing.assert_array_equal(two.run(v), [2.0, 2.0])


def test_constant_initial_value_also_held_outside_sessions():
    graph = v1.Graph()
    with graph.as_default():
        v = v1.Variable(np.arange(3, dtype=np.float32), name="v")
    np.testing.assert_array_equal(v.numpy(), [0.0, 1.0, 2.0])  # tinytf keeps a constant value outside sessions


def test_initial_value_is_a_graph_tensor_only_inside_the_graph():
    graph, v, _ = _random_variable_graph()
    with graph.as_default():
        assert v.initial_value.name == "random_normal:0"
        assert v.initial_value.graph is graph
    with pytest.raises(RuntimeError, match="not supported when eager execution is enabled"):
        getattr(v, "initial_value")  # noqa: B009 - the property raises


def test_variable_nodes_in_the_graph_def():
    graph = v1.Graph()
    with graph.as_default():
        w = tf.Variable([[1.0, 2.0]], name="w")
        with v1.variable_scope("layer"):
            k = v1.get_variable("k", [2, 3], initializer=v1.glorot_uniform_initializer(seed=1))
        y = tf.matmul(w, k)
    nodes = {n.name: n.op for n in graph.as_graph_def().node}
    assert nodes["w"] == "VarHandleOp" and nodes["w/Assign"] == "AssignVariableOp"
    assert nodes["w/Initializer/initial_value"] == "Const" and nodes["w/Read/ReadVariableOp"] == "ReadVariableOp"
    assert nodes["layer/k"] == "VarHandleOp" and nodes["layer/k/Assign"] == "AssignVariableOp"
    assert nodes["layer/k/Initializer/random_uniform/RandomUniform"] == "RandomUniform"
    assert nodes["layer/k/Initializer/random_uniform"] == "AddV2"
    assert y.name == "MatMul:0"


def test_glorot_uniform_stays_within_its_limit():
    graph = v1.Graph()
    with graph.as_default():
        k = v1.get_variable("k", [30, 50])  # get_variable's default initializer: Glorot uniform
    with v1.Session(graph=graph) as sess:
        sess.run(k.initializer)
        value = sess.run(k)
    limit = np.sqrt(6.0 / (30 + 50))
    assert np.abs(value).max() <= limit and np.abs(value).max() > 0.9 * limit


def test_variance_scaling_counts_the_receptive_field():
    init = v1.variance_scaling_initializer(scale=2.0, mode="fan_in", distribution="untruncated_normal", seed=1)
    value = init([3, 3, 64, 128]).numpy()  # eagerly, as TF2 code calls TF1 initializers
    assert value.shape == (3, 3, 64, 128)
    np.testing.assert_allclose(value.std(), np.sqrt(2.0 / (3 * 3 * 64)), rtol=0.05)
    with pytest.raises(ValueError, match="Invalid `mode`"):
        v1.variance_scaling_initializer(mode="fan_sideways")


def test_name_scopes_are_made_unique_in_graphs_but_not_eagerly():
    with tf.name_scope("sc"):
        a = tf.Variable(1.0)
    with tf.name_scope("sc"):
        b = tf.Variable(1.0)
    assert a.name == b.name == "sc/Variable:0"  # eager scopes are names only, as in TF

    @tf.function
    def f(x):
        with tf.name_scope("sc"):
            y = tf.reduce_sum(x)
        with tf.name_scope("sc"):
            z = tf.reduce_max(y)
        return z

    graph = f.get_concrete_function(tf.TensorSpec([3], tf.float32)).graph
    names = {n.name for n in graph.as_graph_def().node}
    assert {"sc/Sum", "sc_1/Max"} <= names


def test_import_graph_def_brings_its_own_variable_nodes():
    graph = v1.Graph()
    with graph.as_default():
        v = v1.Variable([1.0, 2.0], name="v")
        doubled = tf.multiply(v, 2.0, name="doubled")
    graph_def = graph.as_graph_def()
    target = v1.Graph()
    with target.as_default():
        v1.import_graph_def(graph_def, name="")
    assigns = [op for op in target.get_operations() if op.type == "AssignVariableOp"]
    assert len(assigns) == 1 and target.get_operation_by_name("v/Assign").type == "AssignVariableOp"
    with v1.Session(graph=target) as sess:
        sess.run("v/Assign")
        np.testing.assert_array_equal(sess.run("doubled:0"), [2.0, 4.0])
    assert doubled.name == "doubled:0"
