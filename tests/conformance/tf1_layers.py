"""tf.compat.v1.layers in TF1 graphs and sessions: TF1 variable names (`dense/kernel:0`, `conv2d_1/bias:0`),
variable_scope reuse, values with weights set from fixed arrays, gradients, batch normalization's UPDATE_OPS and
moving statistics, and the errors. TensorFlow 2.21 keeps tf.layers in tf_keras: recorded as tests/conformance/
tf1_rnn.py says (tf_keras 2.21 installed, TF_USE_LEGACY_KERAS=1)."""

from __future__ import annotations

from . import outcome, program, val
from .tf1_rnn import fixed, inputs, set_fixed_weights


@program
def p_tf1_layers_dense_mlp(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [None, 4])
        hidden = v1.layers.dense(x, 5, activation=tf.nn.relu)
        hidden = v1.layers.dense(hidden, 3, activation="tanh")
        logits = v1.layers.dense(hidden, 2, name="logits")
        with v1.variable_scope("tower"):
            tower = v1.layers.dense(x, 2, name="shared")
        with v1.variable_scope("tower", reuse=True):
            tower_again = v1.layers.dense(x, 2, name="shared")
        layer = v1.layers.Dense(2, use_bias=False)
        seq = layer(tf.reshape(x, [-1, 2, 2]))
        loss = tf.reduce_sum(logits * logits) + tf.reduce_sum(seq)
        grads = tf.gradients(loss, [v for v in v1.trainable_variables() if "tower" not in v.name])
        init = v1.global_variables_initializer()
        variables = v1.global_variables()
        variable_names = [v.name for v in variables]
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        set_fixed_weights(variables, sess)
        result = sess.run([logits, tower, tower_again, seq, grads], {x: inputs([3, 4])})
    return [variable_names, layer.name, [v.name for v in layer.weights], seq.shape.as_list(), val(result)]


@program
def p_tf1_layers_convolutions_and_pooling(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        image = v1.placeholder(tf.float32, [2, 6, 6, 2])
        conv = v1.layers.conv2d(image, 3, 3, padding="same", activation=tf.nn.relu)
        pooled = v1.layers.max_pooling2d(conv, 2, 2)
        averaged = v1.layers.average_pooling2d(conv, 3, 2, padding="same")
        strided = v1.layers.conv2d(image, 2, (2, 3), strides=2, dilation_rate=1)
        up_valid = v1.layers.conv2d_transpose(pooled, 2, 3, strides=2)
        up_same = v1.layers.conv2d_transpose(pooled, 1, 2, strides=2, padding="same")
        flat = v1.layers.flatten(pooled)
        out = v1.layers.dense(flat, 2)
        seq = v1.placeholder(tf.float32, [2, 5, 3])
        conv1 = v1.layers.conv1d(seq, 2, 2, padding="valid")
        pooled1 = v1.layers.average_pooling1d(conv1, 2, 1)
        volume = tf.reshape(seq, [1, 2, 5, 3, 1])
        conv3 = v1.layers.conv3d(volume, 2, (1, 2, 2))
        pooled3 = v1.layers.max_pooling3d(conv3, (1, 2, 1), 1)
        grads = tf.gradients(tf.reduce_sum(out) + tf.reduce_sum(up_valid) + tf.reduce_sum(up_same), image)
        init = v1.global_variables_initializer()
        variables = v1.global_variables()
        variable_names = [v.name for v in variables]
        shapes = [t.shape.as_list() for t in [conv, pooled, averaged, strided, up_valid, up_same, flat, conv1,
                                              pooled1, conv3, pooled3]]
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        set_fixed_weights(variables, sess)
        result = sess.run([pooled, averaged, strided, up_valid, up_same, out, pooled1, pooled3, grads],
                          {image: inputs([2, 6, 6, 2]), seq: inputs([2, 5, 3], 2.0)})
    return [variable_names, shapes, val(result)]


@program
def p_tf1_layers_batch_norm_update_ops(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [4, 3, 3, 2])
        flat_x = v1.placeholder(tf.float32, [5, 3])
        is_training = v1.placeholder_with_default(True, [])
        y = v1.layers.batch_normalization(x, training=True, momentum=0.9)
        z = v1.layers.batch_normalization(flat_x, training=is_training, momentum=0.5, epsilon=0.01)
        update_ops = v1.get_collection(v1.GraphKeys.UPDATE_OPS)
        with tf.control_dependencies(update_ops):
            loss = tf.reduce_sum(y * y) + tf.reduce_sum(z * tf.constant(fixed([5, 3])))
        train_op = v1.train.GradientDescentOptimizer(0.1).minimize(loss)
        init = v1.global_variables_initializer()
        names = [v.name for v in v1.global_variables()]
        trainable = [v.name for v in v1.trainable_variables()]
        moving = [v for v in v1.global_variables() if "moving" in v.name]
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        feed = {x: inputs([4, 3, 3, 2]), flat_x: inputs([5, 3], 4.0)}
        first = sess.run([y, z], feed)
        sess.run(train_op, feed)
        sess.run(train_op, feed)
        after_training = sess.run(moving)
        inference = sess.run(z, {flat_x: inputs([5, 3], 4.0), is_training: False})
        unchanged = sess.run(moving)
    return [names, trainable, len(update_ops), val(first), val(after_training), val(inference), val(unchanged)]


@program
def p_tf1_layers_dropout_and_eager(tf):
    v1 = tf.compat.v1
    x = tf.constant(inputs([2, 4]))
    kept = v1.layers.dropout(x, rate=0.5, training=False)
    dense = v1.layers.Dense(3, kernel_initializer=v1.constant_initializer(0.25), name="eager_dense")
    out = dense(x)
    again = dense(x * 2.0)
    bn = v1.layers.BatchNormalization(momentum=0.5)
    normed = bn(x, training=True)
    return [val(kept), val(out), val(again), [v.name for v in dense.weights], val(normed),
            val(bn.moving_mean), val(bn.moving_variance)]


@program
def p_tf1_layers_errors(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [None, 4])
        unknown = v1.placeholder(tf.float32, [None, None])
        results = [
            outcome(lambda: v1.layers.dense(x, 2, name="missing", reuse=True), "does not exist"),
            outcome(lambda: v1.layers.dense(unknown, 2), "should be defined"),
        ]
        v1.layers.dense(x, 2, name="taken")
        results.append(outcome(lambda: v1.layers.dense(x, 2, name="taken"), "already exists"))
        results.append(outcome(lambda: v1.layers.conv2d(tf.zeros([1, 4, 4, 1]), 2, 3, padding="full"), "padding"))
    return results
