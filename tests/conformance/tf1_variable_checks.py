"""TF1 variable checks: each variable's `w/IsInitialized/VarIsInitializedOp`, `is_variable_initialized`,
`report_uninitialized_variables` and `variables_initializer` in a session (before and after the initializers
run, without the FailedPreconditionError a read raises), eagerly, and through an exported and re-imported
GraphDef; and a variable read for an op's input named inside that op's scope (`dense/MatMul/ReadVariableOp`),
in a TF1 graph and in a tf.function."""

from __future__ import annotations

import numpy as np

from . import outcome, program, val


def _graph(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        w = v1.Variable(1.0, name="w")
        u = v1.get_variable("u", [2], initializer=v1.zeros_initializer())
        x = v1.placeholder(tf.float32, [None, 2], name="x")
        with v1.variable_scope("dense"):
            k = v1.get_variable("kernel", [2, 3], initializer=v1.ones_initializer())
            y = tf.matmul(x, k)
        z = y + w
    return graph, w, u, x, z


def _names(values):
    return sorted(v.decode() if isinstance(v, bytes) else str(v) for v in np.asarray(values).tolist())


@program
def p_tf1_is_initialized_and_report_in_a_session(tf):
    v1 = tf.compat.v1
    graph, w, u, x, z = _graph(tf)
    with graph.as_default():
        ready = v1.is_variable_initialized(w)
        report = v1.report_uninitialized_variables()
        mine = v1.report_uninitialized_variables([w, u], name="mine")
        init_w = v1.variables_initializer([w], name="init_w")
        init = v1.global_variables_initializer()
    runs = []
    with v1.Session(graph=graph) as sess:
        unread = outcome(lambda: sess.run(z, {x: [[1.0, 2.0]]}), "uninitialized")
        for step in (None, init_w, init):
            if step is not None:
                sess.run(step)
            got = sess.run([ready, report, mine])
            runs.append([bool(got[0]), _names(got[1]), _names(got[2])])
        value = sess.run(z, {x: [[1.0, 2.0]]})
    return [unread, runs, val(value), ready.name, ready.dtype.name, report.dtype.name, report.shape.as_list(),
            init_w.name, init_w.type, ready.op.type]


@program
def p_tf1_variable_nodes_and_reads_named_as_tf(tf):
    graph, w, u, x, z = _graph(tf)
    ops = [[op.name, op.type] for op in graph.get_operations()]
    nodes = [[n.name, n.op, list(n.input)] for n in graph.as_graph_def().node]
    return [ops, nodes, z.name, z.op.inputs[1].name]


@program
def p_tf1_checks_through_an_exported_graph_def(tf):
    v1 = tf.compat.v1
    graph, w, u, x, z = _graph(tf)
    with graph.as_default():
        ready = v1.is_variable_initialized(u)
        report = v1.report_uninitialized_variables()
        v1.variables_initializer([w, u], name="init_some")
    graph_def = graph.as_graph_def()
    imported = v1.Graph()
    with imported.as_default():
        ready2, report2, z2 = v1.import_graph_def(graph_def, return_elements=[ready.name, report.name, z.name],
                                                  name="")
    with v1.Session(graph=imported) as sess:
        before = [bool(sess.run(ready2)), _names(sess.run(report2))]
        sess.run("init_some")
        after = [bool(sess.run(ready2)), _names(sess.run(report2))]
        unread = outcome(lambda: sess.run(z2, {"x:0": [[1.0, 2.0]]}), "uninitialized")
        sess.run("dense/kernel/Assign")
        value = sess.run(z2, {"x:0": [[1.0, 2.0]]})
    return [before, after, unread, val(value)]


@program
def p_eager_variables_are_initialized(tf):
    v = tf.Variable([1.0, 2.0])
    ready = tf.compat.v1.is_variable_initialized(v)
    report = outcome(lambda: tf.compat.v1.report_uninitialized_variables([v]), "eager execution")
    return [val(ready), report]


@program
def p_function_reads_named_inside_the_op_scope(tf):
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    b = tf.Variable([0.5, -0.5])

    @tf.function
    def f(x):
        with tf.name_scope("dense"):
            y = tf.matmul(x, v) + b
        return tf.nn.relu(y) * v[0]

    concrete = f.get_concrete_function(tf.TensorSpec([None, 2]))
    # (TF names a captured variable's placeholder after its first reader, `dense/MatMul/ReadVariableOp/resource`;
    # tinytf after the variable: left out)
    ops = [[op.name, op.type] for op in concrete.graph.get_operations() if op.type not in ("Placeholder", "Const")]
    return [ops, val(f(tf.constant([[1.0, -1.0], [0.5, 2.0]])))]


@program
def p_function_reads_no_op_takes_keep_their_own_name(tf):
    v = tf.Variable([1.0, 2.0])

    @tf.function
    def returned():
        return v

    @tf.function
    def converted():
        return tf.convert_to_tensor(v), tf.identity(v), v + 1.0

    return [[[op.name, op.type] for op in fn.get_concrete_function().graph.get_operations() if op.type != "Placeholder"]
            for fn in (returned, converted)] + [[val(t) for t in converted()]]
