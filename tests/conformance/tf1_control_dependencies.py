"""tf.control_dependencies in TF1 graphs run by a Session: an assign before a read, an Assert guarding a
result, control_dependencies(None) clearing the outer scope, nested scopes, and the UPDATE_OPS pattern of TF1
batch-norm training (the update runs when the train op runs)."""

from __future__ import annotations

from . import program


@program
def p_tf1_control_dependencies(tf):
    tf1 = tf.compat.v1
    graph = tf1.Graph()
    with graph.as_default():
        v = tf1.Variable(1.0)
        w = tf1.Variable(10.0)
        inc = tf1.assign_add(v, 1.0)
        with tf1.control_dependencies([inc]):
            after = tf.identity(v) * 10.0
            with tf1.control_dependencies(None):
                free = tf.identity(w) + 0.5
            dec = tf1.assign_sub(w, 1.0)
            with tf1.control_dependencies([dec]):
                both = v + w
        x = tf1.placeholder(tf.float32, [])
        check = tf1.assert_positive(x, message="x must be positive")
        with tf1.control_dependencies([check]):
            doubled = x * 2.0
        init = tf1.global_variables_initializer()
    out = []
    with tf1.Session(graph=graph) as sess:
        sess.run(init)
        out.append([float(sess.run(after)), float(sess.run(after)), float(sess.run(v))])
        out.append([float(sess.run(free)), float(sess.run(w)), float(sess.run(v))])
        out.append([float(sess.run(both)), float(sess.run(v)), float(sess.run(w))])
        out.append(float(sess.run(doubled, {x: 3.0})))
        try:
            sess.run(doubled, {x: -3.0})
            out.append("no error")
        except tf.errors.InvalidArgumentError as e:
            out.append(["InvalidArgumentError", "x must be positive" in str(e)])
    return out


@program
def p_tf1_update_ops_before_train_op(tf):
    tf1 = tf.compat.v1
    graph = tf1.Graph()
    with graph.as_default():
        x = tf1.placeholder(tf.float32, [None, 1])
        w = tf1.Variable([[0.5]])
        moving = tf1.Variable(0.0, trainable=False)
        update = tf1.assign(moving, moving * 0.9 + tf.reduce_mean(x) * 0.1)
        tf1.add_to_collection(tf1.GraphKeys.UPDATE_OPS, update)
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - 1.0))
        with tf1.control_dependencies(tf1.get_collection(tf1.GraphKeys.UPDATE_OPS)):
            train = tf1.train.GradientDescentOptimizer(0.1).minimize(loss)
        init = tf1.global_variables_initializer()
    with tf1.Session(graph=graph) as sess:
        sess.run(init)
        for _ in range(3):
            sess.run(train, {x: [[1.0], [2.0]]})
        return [round(float(sess.run(moving)), 6), round(float(sess.run(w)[0, 0]), 6)]
