"""TF1 graphs as TF 2.21 shows them: op types, node and tensor names (`Sum`, `MatMul`, `add_1:0`, scopes) looked
up by name, and variables that hold one value per Session (uninitialized until that session runs an
initializer)."""

from __future__ import annotations

import numpy as np

from . import outcome, program, val


@program
def p_tf1_op_types_and_names(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, shape=(None, 3))
        y = x + 1.0
        z = x + y
        total = tf.reduce_sum(z)
        m = tf.matmul(x, x, transpose_b=True)
        r = tf.nn.relu(m)
        prod = x * 2.0
        diff = x - y
        quot = x / 2.0
        mean = tf.reduce_mean(x, axis=0)
        t = tf.transpose(x)
        flat = tf.reshape(x, [-1])
        cast = tf.cast(x, tf.int32)
        sq = tf.square(x)
        with tf.name_scope("layer"):
            h = tf.matmul(x, tf.ones([3, 2]))
            out = tf.nn.sigmoid(h)
        with tf.name_scope("output"):
            named = tf.identity(out)
    tensors = [x, y, z, total, m, r, prod, diff, quot, mean, t, flat, cast, sq, h, out, named]
    return [[t.name, t.op.name, t.op.type] for t in tensors]


@program
def p_tf1_lookup_by_name(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, shape=(2,), name="x")
        y = tf.reduce_sum(x * x)
        z = y + 1.0
        w = z + y
    found = graph.get_tensor_by_name("add_1:0")
    op = graph.get_operation_by_name("Sum")
    with v1.Session(graph=graph) as sess:
        data = np.array([1.0, 2.0], np.float32)
        by_name = sess.run(["Sum:0", "add_1:0"], feed_dict={"x:0": data})
        direct = sess.run(w, {x: data})
    return [found is w, op.type, op.name, op.outputs[0] is y, val(by_name), val(direct),
            outcome(lambda: graph.get_operation_by_name("reduce_sum"), "not in the graph")]


@program
def p_tf1_variables_per_session(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        v = v1.Variable(1.0, name="v")
        w = v1.get_variable("w", shape=[2], initializer=v1.ones_initializer())
        bump = v.assign_add(1.0)
        scaled = w * v
        init = v1.global_variables_initializer()
    first, second = v1.Session(graph=graph), v1.Session(graph=graph)
    results = [outcome(lambda: first.run(v), "uninitialized"),
               outcome(lambda: first.run(scaled), "uninitialized")]
    first.run(init)
    first.run(bump)
    first.run(bump)
    results.append(outcome(lambda: second.run(scaled), "uninitialized"))
    second.run(init)
    second.run(bump)
    results += [val(first.run(v)), val(second.run(v)), val(first.run(scaled)), val(second.run(scaled))]
    first.run(init)
    results += [val(first.run(v)), val(second.run(v))]
    first.close()
    second.close()
    return results


@program
def p_tf1_variable_initializer_op(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        a = v1.Variable([1.0, 2.0], name="a")
        b = v1.Variable(3.0, name="b")
        total = tf.reduce_sum(a) + b
    with v1.Session(graph=graph) as sess:
        sess.run(a.initializer)
        partial = outcome(lambda: sess.run(total), "uninitialized")
        sess.run(b.initializer)
        return [partial, val(sess.run(total)), val(sess.run(a)), val(a.eval(sess))]
