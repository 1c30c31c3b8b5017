"""TF1 variables whose initial value is a tensor of the graph: the initializer computes it in the session that
runs it (fresh random numbers per run, TF's numbers for the graph seed, placeholders fed at init time, values
shared with other variables' initial values), the nodes a variable adds and their names, and name scopes made
unique as TF makes them (`sc`, `sc_1`)."""

from __future__ import annotations

import numpy as np

from . import outcome, program, val


def _ops(graph):
    """(name, type) of the graph's ops, each variable's `IsInitialized` check included."""
    return [[op.name, op.type] for op in graph.get_operations()]


@program
def p_tf1_random_initial_value_per_run(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        v1.set_random_seed(7)
        v = v1.Variable(tf.random.normal([3]), name="v")
        u = v1.Variable(tf.random.uniform([2, 2], seed=3))
        init = v1.global_variables_initializer()
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        first = sess.run([v, u])
        sess.run(v.initializer)  # a fresh draw for v only
        second = sess.run([v, u])
    return [val(first), val(second), v.name, u.name, v.initializer.name, init.name, init.type,
            sorted(op.name for op in init.control_inputs)]


@program
def p_tf1_initial_value_from_placeholder(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [3], name="x")
        v = v1.Variable(x * 2.0, name="v")
        init = v1.global_variables_initializer()
    with v1.Session(graph=graph) as sess:
        unfed = outcome(lambda: sess.run(init), "must feed a value for placeholder")
        sess.run(init, {x: [1.0, 2.0, 3.0]})
        first = sess.run(v)
        sess.run(v.initializer, {x: [0.5, 0.5, 0.5]})
        second = sess.run(v)
    return [unfed, val(first), val(second), v.shape.as_list(), v.dtype.name]


@program
def p_tf1_initial_values_shared_in_one_run(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        v1.set_random_seed(11)
        v = v1.Variable(tf.random.normal([4]), name="v")
        z = v1.Variable(v.initial_value + 1.0, name="z")  # the same random tensor: one draw per run
        init = v1.global_variables_initializer()
        names = [z.initial_value.name, v.initial_value.name]
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        a, b = sess.run([v, z])
    return [val(a), val(b), bool(np.allclose(b - a, 1.0)), names,
            outcome(lambda: v.initial_value, "not supported when eager execution is enabled")]


@program
def p_tf1_get_variable_initializers(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        v1.set_random_seed(3)
        with v1.variable_scope("layer"):
            k = v1.get_variable("k", [2, 3])  # glorot uniform
            b = v1.get_variable("b", [3], initializer=v1.zeros_initializer())
            n = v1.get_variable("n", [4], initializer=v1.random_normal_initializer(stddev=2.0, seed=5))
            t = v1.get_variable("t", [4], initializer=v1.truncated_normal_initializer(seed=6))
            u = v1.get_variable("u", [3], initializer=v1.random_uniform_initializer(-1.0, 1.0))
            s = v1.get_variable("s", [3, 3, 2, 4], initializer=v1.variance_scaling_initializer(seed=1))
            c = v1.get_variable("c", [2], initializer=v1.constant_initializer(0.5))
        init = v1.global_variables_initializer()
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        values = sess.run([k, b, n, t, u, c])
        summary = sess.run(s)
    return [val(values), [round(float(summary.mean()), 5), round(float(summary.std()), 5), list(summary.shape)],
            [x.name for x in (k, b, n, t, u, s, c)]]


@program
def p_tf1_variable_nodes(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        w = tf.Variable(2.0, name="w")
        x = v1.placeholder(tf.float32, [3])
        y = w * x
        with tf.name_scope("s"):
            w2 = tf.Variable([1.0, 2.0], name="w")
            w3 = v1.Variable(lambda: tf.zeros([2]))
        w4 = v1.get_variable("w", [2], initializer=v1.ones_initializer())
        init = v1.global_variables_initializer()
        initial = [w.initial_value.name, w3.initial_value.name]
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        values = sess.run([y, w2, w3, w4], {x: [1.0, 2.0, 3.0]})
    return [_ops(graph), [v.name for v in (w, w2, w3, w4)], initial, w.initializer.name, w.initializer.type,
            val(values)]


@program
def p_tf1_name_scopes_made_unique(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [2], name="x")
        with tf.name_scope("sc") as first:
            a = x + 1.0
        with tf.name_scope("sc") as second:
            b = a * 2.0
            with tf.name_scope("in") as inner:
                c = b - 1.0
        with tf.name_scope("sc"):
            with tf.name_scope("in") as inner2:
                d = tf.identity(c, name="out")
        with tf.name_scope("sc/in/") as absolute:  # a trailing "/" re-enters that exact scope
            e = tf.identity(d)
        f = tf.add(e, 1.0, name="sc")  # the scope names are taken: the op is sc_3
    return [first, second, inner, inner2, absolute, [t.name for t in (a, b, c, d, e, f)]]


@program
def p_eager_variable_with_random_initial_value(tf):
    tf.random.set_seed(5)
    v = tf.compat.v1.Variable(tf.random.normal([3]), name="v")
    w = tf.Variable(lambda: tf.random.uniform([2]))
    return [val(v), val(w), v.name]


def _scopes_of_new_ops(graph, build):
    """The first name component of every op `build()` adds to `graph`: the wrapper's name scope."""
    before = {op.name for op in graph.get_operations()}
    result = build()
    added = [op.name for op in graph.get_operations() if op.name not in before]
    return sorted({name.split("/")[0] for name in added}), result


@program
def p_tf1_composite_wrappers_scope_their_nodes(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [2, 3], name="x")
        scopes = [_scopes_of_new_ops(graph, build)[0] for build in (
            lambda: tf.nn.gelu(x), lambda: tf.nn.gelu(x, approximate=True, name="ga"),
            lambda: tf.nn.moments(x, axes=[0]), lambda: tf.nn.moments(x, axes=[1], name="stats"),
            lambda: tf.nn.dropout(x, rate=0.5, seed=1), lambda: tf.nn.l2_normalize(x, axis=1),
            lambda: tf.clip_by_norm(x, 1.0), lambda: tf.random.normal([2], name="noise"))]
        named = [tf.nn.l2_normalize(x, axis=1).name, tf.nn.l2_normalize(x, 1, name="unit").name,
                 tf.clip_by_norm(x, 2.0, name="clipped").name, tf.clip_by_norm(x, 2.0).name,
                 tf.random.normal([2]).name, tf.random.uniform([2], -1.0, 1.0, name="u").name,
                 tf.zeros([2, 2], name="z").name, tf.ones([40, 40]).name]
    return [scopes, named]


@program
def p_function_graph_operations_have_tf_names(tf):
    traced = []

    @tf.function
    def f(x):
        with tf.name_scope("sc"):
            y = tf.nn.relu(x * 2.0 + 1.0)
        with tf.name_scope("sc"):
            z = tf.identity(y, name="out")
        traced.extend([x.name, y.name, z.name])
        return tf.reduce_sum(z)

    graph = f.get_concrete_function(tf.TensorSpec([3], tf.float32)).graph
    # TF also lists the reduction's axis Const and the output's Identity, which tinytf's traced graph lacks
    ops = [[op.name, op.type] for op in graph.get_operations() if op.type not in ("Const", "Identity")]
    return [traced, ops, graph.get_operation_by_name("sc/mul").type, graph.get_tensor_by_name("sc_1/out:0").name,
            outcome(lambda: graph.get_operation_by_name("nothing"), "not in the graph")]


@program
def p_tf1_graph_does_not_take_the_eager_seed(tf):
    tf.random.set_seed(5)  # eager: a new TF1 graph starts unseeded all the same
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        r = tf.random.normal([2])
    seeded = v1.Graph()
    with seeded.as_default():
        v1.set_random_seed(5)
        s = tf.random.normal([2])
    with v1.Session(graph=seeded) as sess:
        first = sess.run(s)
    with v1.Session(graph=graph) as sess:
        drawn = sess.run(r)
    tf.random.set_seed(None)
    return [graph.seed, seeded.seed, val(first), list(drawn.shape)]


@program
def p_tf1_graph_def_in_creation_order(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        tf.Variable([[1.0, 2.0]], name="w")
        x = v1.placeholder(tf.float32, [2, 3], name="x")
        with v1.variable_scope("layer"):
            v1.get_variable("b", [3], initializer=v1.zeros_initializer())
        y = tf.reduce_sum(x * 2.0, name="total")  # (TF names a variable read inside an op's scope: not here)
        v1.global_variables_initializer()
    nodes = [[n.name, n.op] for n in graph.as_graph_def().node]
    return [nodes, y.name]
