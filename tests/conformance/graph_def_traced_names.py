"""A tf.function's graph as TF shows it: `concrete.graph.as_graph_def()` is the graph as traced, with TF's node
names and the output `Identity` ops (also last in `get_operations()`); the wrappers whose nodes TF names under
their scope (gelu with Erfc; moments' mean, StopGradient, SquaredDifference, variance
and Squeeze); an exported graph imported again (into a TF1 graph) gives the function's numbers."""

from __future__ import annotations

import numpy as np

from . import program, val

X = np.array([[-2.5, -0.3, 0.0, 0.7], [1.5, 3.0, -6.0, 0.25], [0.1, -0.9, 2.2, -4.0]], np.float32)


def _nodes(graph_def):
    """(name, op, inputs) of each top-level node, as TF's GraphDef lists them."""
    return [[n.name, n.op, list(n.input)] for n in graph_def.node]


def _non_const_operations(graph):
    # tinytf keeps an op's static axes and shapes as attributes: TF's Const for them is in the GraphDef only
    return [[op.name, op.type] for op in graph.get_operations() if op.type != "Const"]


def _round_trip(tf, concrete, *feeds):
    """Run `concrete`'s exported GraphDef in a TF1 graph (import_graph_def + Session) on `feeds`."""
    graph_def = concrete.graph.as_graph_def()
    outputs = [f"{n.name}:0" for n in graph_def.node if n.op == "Identity" and n.name.startswith("Identity")]
    inputs = [n.name for n in graph_def.node if n.op == "Placeholder"]
    graph = tf.compat.v1.Graph()
    with graph.as_default():
        fetches = tf.compat.v1.import_graph_def(graph_def, return_elements=outputs, name="")
    with tf.compat.v1.Session(graph=graph) as sess:
        return [val(v) for v in sess.run(fetches, dict(zip([f"{i}:0" for i in inputs], feeds)))]


@program
def p_traced_graph_with_scope_and_outputs(tf):
    @tf.function
    def f(x):
        with tf.name_scope("sc"):
            y = x * 2.0
        return tf.nn.relu(y + 1.0), tf.reduce_sum(y)

    concrete = f.get_concrete_function(tf.TensorSpec([3, 4]))
    return [_nodes(concrete.graph.as_graph_def()), _non_const_operations(concrete.graph),
            [val(t) for t in concrete(tf.constant(X))], _round_trip(tf, concrete, X)]


@program
def p_output_identities_after_a_user_identity(tf):
    @tf.function
    def f(x):
        return {"a": tf.identity(x, name="Identity"), "b": [x * 2.0]}

    concrete = f.get_concrete_function(tf.TensorSpec([2]))
    return [_nodes(concrete.graph.as_graph_def()), _non_const_operations(concrete.graph)]


@program
def p_gelu_graph_names_and_values(tf):
    @tf.function
    def f(x):
        return tf.nn.gelu(x), tf.nn.gelu(x, approximate=True)

    concrete = f.get_concrete_function(tf.TensorSpec([3, 4]))
    x = tf.constant(X)
    # the exact form's nodes (the tanh form computes TF's x ** 3 as x * x * x: numpy's float32 power is slow)
    nodes = [n for n in _nodes(concrete.graph.as_graph_def()) if n[0].startswith("Gelu/")]
    return [nodes, [val(t) for t in concrete(x)],
            [val(t) for t in f(x)] == [val(t) for t in (tf.nn.gelu(x), tf.nn.gelu(x, approximate=True))],
            _round_trip(tf, concrete, X)]


@program
def p_gelu_tail_and_gradients(tf):
    # erfc keeps the far negative tail that 0.5 * x * (1 + erf(x / sqrt 2)) rounds to zero
    x = tf.constant([-12.0, -9.0, -6.5, -3.0, -0.5, 0.5, 4.0], tf.float32)

    def grads(approximate):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.nn.gelu(x, approximate=approximate)
        return tape.gradient(y, x)

    graph_grads = tf.function(grads)
    return [val(tf.nn.gelu(x)), val(tf.nn.gelu(x, approximate=True)), val(grads(False)), val(grads(True)),
            val(graph_grads(False)), val(graph_grads(True))]


@program
def p_moments_graph_names_and_values(tf):
    @tf.function
    def f(x):
        mean, variance = tf.nn.moments(x, axes=[0])
        mean_all, variance_all = tf.nn.moments(x, axes=[0, 1], keepdims=True)
        return mean, variance, mean_all, variance_all

    concrete = f.get_concrete_function(tf.TensorSpec([3, 4]))
    return [_nodes(concrete.graph.as_graph_def()), [val(t) for t in concrete(tf.constant(X))],
            [val(t) for t in tf.nn.moments(tf.constant(X), axes=[1])], _round_trip(tf, concrete, X)]


@program
def p_moments_gradients(tf):
    x = tf.constant(X)

    def grads():
        with tf.GradientTape() as tape:
            tape.watch(x)
            mean, variance = tf.nn.moments(x, axes=[0])
            loss = tf.reduce_sum(mean * [1.0, 2.0, 3.0, 4.0]) + tf.reduce_sum(variance * variance)
        return tape.gradient(loss, x)

    return [val(grads()), val(tf.function(grads)())]


@program
def p_linspace_of_broadcast_bounds_round_trip(tf):
    """linspace of start and stop of different shapes (TF broadcasts them) exports and runs again."""
    @tf.function
    def f(a, b):
        return tf.linspace(a, b, 4, axis=1), tf.linspace(a, 5.0, 3), tf.linspace(b, a, 2, axis=-1)

    a = np.array([[0.0], [1.0]], np.float32)
    b = np.array([2.0, 4.0, 6.0], np.float32)
    concrete = f.get_concrete_function(tf.TensorSpec([2, 1]), tf.TensorSpec([3]))
    return [[val(t) for t in f(tf.constant(a), tf.constant(b))], _round_trip(tf, concrete, a, b)]
