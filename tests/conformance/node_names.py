"""Node names as TF 2.21 gives them, in a tf.function's graph and in a TF1 graph: the user's `name=` (made unique
ignoring case: `out`, `out_1`, `Add_3` after `add_2`), the wrappers' defaults (`add` for `x + y`, `Add` for
tf.add, `Sum`, `MatMul`), the constants a Python operand becomes (`add/y`, `sub/x`, `MatMul/b`, `a/y` under
`name="a"`), the `Const` a reduction over all axes makes, and name scopes. Each program lists the GraphDef's
nodes (name, op, inputs) as `graph.as_graph_def()` shows them, and the names of the tensors it built."""

from __future__ import annotations

from . import program


def _graph_of(function):
    """The graph as traced (TF's FuncGraph; tinytf's optimized graph is `graph`, the traced one
    `unoptimized_graph`)."""
    return getattr(function, "unoptimized_graph", function.graph)


def _nodes(graph_def):
    return [[n.name, n.op, list(n.input)] for n in graph_def.node]


def _named_ops(tf, x, y):
    r = [tf.add(x, 1.0, name="a"), tf.add(x, 1.0), x + 1.0, 1.0 - x, tf.maximum(x, 0.0),
         tf.multiply(x, 2.0, name="m"), tf.identity(x, name="out"), tf.identity(x, name="out"),
         tf.matmul(x, y, name="mm"), tf.matmul(x, [[1., 2.], [3., 4.]]), tf.reduce_sum(x, name="total"),
         tf.reduce_mean(x, axis=1), tf.constant(3.0, name="three"), tf.constant(1.0), tf.nn.relu(x, name="r"),
         tf.reshape(x, [-1], name="flat"), tf.cast(x, tf.int32, name="c"), tf.transpose(x, name="t"),
         tf.transpose(x), tf.concat([x, y], 0, name="cat"), tf.square(x, name="sq"), tf.nn.softmax(x, name="sm"),
         tf.sigmoid(x, name="s"), tf.subtract(x, y, name="d"), tf.identity(x, name="add"), tf.add(x, y)]
    with tf.name_scope("sc"):
        r += [tf.add(x, y, name="k"), x * 3.0]
        with tf.name_scope("inner"):
            r += [tf.nn.tanh(x), tf.reduce_max(x, name="peak")]
    r += [tf.math.divide(x, 2.0, name="q"), x / 2.0, tf.reduce_sum(x, axis=0, keepdims=True, name="rs"),
          tf.maximum(x, y, name="Out"), tf.nn.sigmoid(x, name="OUT"), x - y, tf.subtract(x, 1.0),
          tf.pow(x, 2.0), x ** 2.0, tf.reduce_prod(x, name="a")]
    return r


@program
def p_node_names_function_graph(tf):
    spec = tf.TensorSpec([2, 2], tf.float32)
    function = tf.function(lambda x, y: _named_ops(tf, x, y)).get_concrete_function(spec, spec)
    return _nodes(_graph_of(function).as_graph_def())


@program
def p_node_names_tf1_graph(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [2, 2], name="x")
        y = v1.placeholder(tf.float32, [2, 2], name="y")
        tensors = _named_ops(tf, x, y)
    operations = [[op.name, op.type] for op in graph.get_operations() if op.type != "Const"]
    found = [graph.get_tensor_by_name(name) is tensor for name, tensor in
             (("out_1:0", tensors[7]), ("a:0", tensors[0]), ("sc/inner/peak:0", tensors[29]))]
    return {"nodes": _nodes(graph.as_graph_def()), "tensors": [t.name for t in tensors],
            "operations": operations, "found": found}


def _flow(tf, x, n):
    y = tf.cond(x > 0.0, lambda: x * 2.0, lambda: x - 1.0)
    z = tf.cond(x < 5.0, lambda: y + 1.0, lambda: y, name="pick")
    i, total = tf.while_loop(lambda i, t: i < n, lambda i, t: (i + 1, t + x), [0, 0.0])
    j = tf.while_loop(lambda j: j < n, lambda j: j + 2, [i], name="steps")
    return z, total, j, tf.identity(total, name="total")


@program
def p_node_names_control_flow(tf):
    """cond and while_loop nodes (`cond`, `while`, the user's name), the constants around them."""
    function = tf.function(lambda x, n: _flow(tf, x, n)).get_concrete_function(
        tf.TensorSpec([], tf.float32), tf.TensorSpec([], tf.int32))
    return [node[:2] + [[i for i in node[2] if not i.startswith("^")]]
            for node in _nodes(_graph_of(function).as_graph_def())]


@program
def p_node_names_tf1_control_flow(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [], name="x")
        n = v1.placeholder(tf.int32, [], name="n")
        tensors = _flow(tf, x, n)
    return [t.name for t in tf.nest.flatten(tensors)]
