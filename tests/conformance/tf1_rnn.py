"""TF1's RNNs (tf.compat.v1.nn.rnn_cell, dynamic_rnn, static_rnn and the bidirectional forms) in TF1 graphs
and sessions, and eagerly: variable names as TF1 checkpoints hold them, outputs and final states with weights
set from fixed arrays, gradients through the loop, a TF1 LSTM classifier trained a few steps, and the errors.

TensorFlow 2.21 keeps these cells in the tf_keras package (with Keras 3 they raise "not available with
Keras 3"), so this module is recorded with tf_keras 2.21 installed and TF_USE_LEGACY_KERAS=1:

    pip install --target /tmp/tfk --no-deps tf-keras==2.21.0
    cd /tmp && TF_USE_LEGACY_KERAS=1 PYTHONPATH=/tmp/tfk:REPO TF_CPP_MIN_LOG_LEVEL=3 python \
        REPO/tools/record_tf_reference.py tf1_rnn
"""

from __future__ import annotations

import numpy as np

from . import outcome, program, val


def fixed(shape, salt=0.0):
    """Deterministic weights of any shape, small enough that tanh and sigmoid stay away from saturation."""
    size = int(np.prod(shape))
    return (0.5 * np.sin(np.arange(size) * 0.37 + salt)).reshape(shape).astype(np.float32)


def inputs(shape, salt=1.0):
    size = int(np.prod(shape))
    return np.cos(np.arange(size) * 0.23 + salt).reshape(shape).astype(np.float32)


def set_fixed_weights(variables, sess):
    """Every variable set to fixed() of its shape, salted by its position."""
    for i, variable in enumerate(variables):
        variable.load(fixed(variable.shape.as_list(), salt=float(i)), sess)


def names(v1):
    return [v.name for v in v1.global_variables()]


@program
def p_tf1_dynamic_rnn_basic_lstm(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [3, 5, 2])
        lengths = v1.placeholder(tf.int32, [3])
        cell = v1.nn.rnn_cell.BasicLSTMCell(4)
        outputs, state = v1.nn.dynamic_rnn(cell, x, sequence_length=lengths, dtype=tf.float32)
        loss = tf.reduce_sum(outputs * outputs) + tf.reduce_sum(state.c)
        grads = tf.gradients(loss, [x] + cell.trainable_variables)
        init = v1.global_variables_initializer()
        variables = v1.global_variables()
        variable_names = names(v1)
        shapes = [outputs.shape.as_list(), state.c.shape.as_list(), state.h.shape.as_list()]
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        set_fixed_weights(variables, sess)
        feed = {x: inputs([3, 5, 2]), lengths: [5, 2, 0]}
        out, final, g = sess.run([outputs, state, grads], feed)
    return [variable_names, shapes, val(out), val(list(final)), val(g),
            [v.name for v in cell.trainable_variables], type(final).__name__]


@program
def p_tf1_lstm_cell_options(tf):
    """LSTMCell with peepholes, cell_clip, a projection and proj_clip, time-major inputs and a given state;
    and a concatenated (state_is_tuple=False) BasicLSTMCell."""
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [4, 2, 3])  # time-major
        cell = v1.nn.rnn_cell.LSTMCell(5, use_peepholes=True, cell_clip=0.4, num_proj=3, proj_clip=0.3)
        c0 = tf.constant(fixed([2, 5], 7.0))
        h0 = tf.constant(fixed([2, 3], 8.0))
        start = v1.nn.rnn_cell.LSTMStateTuple(c0, h0)
        outputs, state = v1.nn.dynamic_rnn(cell, x, initial_state=start, time_major=True)
        flat_cell = v1.nn.rnn_cell.BasicLSTMCell(2, state_is_tuple=False, forget_bias=0.5)
        flat_out, flat_state = v1.nn.dynamic_rnn(flat_cell, x, dtype=tf.float32, time_major=True, scope="flat")
        grads = tf.gradients(tf.reduce_sum(outputs) + tf.reduce_sum(flat_state), v1.trainable_variables())
        init = v1.global_variables_initializer()
        variables = v1.global_variables()
        variable_names = names(v1)
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        set_fixed_weights(variables, sess)
        result = sess.run([outputs, state, flat_out, flat_state, grads], {x: inputs([4, 2, 3])})
    return [variable_names, cell.state_size, cell.output_size, flat_cell.state_size,
            val([result[0], list(result[1]), result[2], result[3], result[4]])]


@program
def p_tf1_multi_rnn_and_wrappers(tf):
    v1 = tf.compat.v1
    rnn_cell = v1.nn.rnn_cell
    graph = v1.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [2, 3, 3])
        stack = rnn_cell.MultiRNNCell([
            rnn_cell.DropoutWrapper(rnn_cell.GRUCell(3), output_keep_prob=1.0, input_keep_prob=1.0),
            rnn_cell.ResidualWrapper(rnn_cell.BasicRNNCell(3)),
            rnn_cell.BasicLSTMCell(2),
        ])
        outputs, state = v1.nn.dynamic_rnn(stack, x, dtype=tf.float32)
        grads = tf.gradients(tf.reduce_sum(outputs), stack.trainable_variables)
        zero = stack.zero_state(2, tf.float32)
        init = v1.global_variables_initializer()
        variables = v1.global_variables()
        variable_names = names(v1)
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        set_fixed_weights(variables, sess)
        out, final, g, z = sess.run([outputs, state, grads, zero], {x: inputs([2, 3, 3])})
    return [variable_names, [v.name for v in stack.weights], str(stack.state_size), stack.output_size,
            val(out), val([final[0], final[1], list(final[2])]), val(g), [np.shape(part).__repr__() for part in
                                                                          [z[0], z[1], z[2][0]]]]


@program
def p_tf1_bidirectional_and_static(tf):
    v1 = tf.compat.v1
    rnn_cell = v1.nn.rnn_cell
    graph = v1.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [2, 4, 3])
        lengths = tf.constant([4, 2])
        (fw, bw), (state_fw, state_bw) = v1.nn.bidirectional_dynamic_rnn(
            rnn_cell.BasicLSTMCell(3), rnn_cell.GRUCell(2), x, sequence_length=lengths, dtype=tf.float32)
        steps = tf.unstack(x, axis=1)
        static_out, static_state = v1.nn.static_rnn(rnn_cell.BasicRNNCell(3), steps, dtype=tf.float32,
                                                    sequence_length=lengths)
        bi_out, bi_fw, bi_bw = v1.nn.static_bidirectional_rnn(rnn_cell.GRUCell(2), rnn_cell.BasicRNNCell(2), steps,
                                                              dtype=tf.float32, sequence_length=lengths,
                                                              scope="static_bi")
        grads = tf.gradients(tf.reduce_sum(bw) + tf.reduce_sum(bi_out[0]), x)
        init = v1.global_variables_initializer()
        variables = v1.global_variables()
        variable_names = names(v1)
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        set_fixed_weights(variables, sess)
        result = sess.run([fw, bw, list(state_fw), state_bw, static_out, static_state, bi_out, bi_fw, bi_bw, grads],
                          {x: inputs([2, 4, 3])})
    return [variable_names, val(result)]


@program
def p_tf1_rnn_eager(tf):
    """dynamic_rnn and a cell called step by step, eagerly (TF 2.21 runs them without a graph)."""
    v1 = tf.compat.v1
    rnn_cell = v1.nn.rnn_cell
    cell = rnn_cell.LSTMCell(3, use_peepholes=True)
    x = tf.constant(inputs([2, 3, 2]))
    outputs, state = v1.nn.dynamic_rnn(cell, x, dtype=tf.float32)
    for i, variable in enumerate(cell.variables):
        variable.assign(fixed(variable.shape.as_list(), salt=float(i)))
    with tf.GradientTape() as tape:
        outputs, state = v1.nn.dynamic_rnn(cell, x, dtype=tf.float32, sequence_length=[3, 1])
        loss = tf.reduce_sum(outputs) + tf.reduce_sum(state.c)
    grads = tape.gradient(loss, cell.trainable_variables)
    gru = rnn_cell.GRUCell(2, name="my_gru")
    h = gru.zero_state(2, tf.float32)
    steps = []
    for t in range(3):
        out, h = gru(x[:, t], h)
        if t == 0:
            for i, variable in enumerate(gru.variables):
                variable.assign(fixed(variable.shape.as_list(), salt=10.0 + i))
            out, h = gru(x[:, t], gru.zero_state(2, tf.float32))
        steps.append(out)
    return [[v.name for v in cell.variables], [v.name for v in gru.variables], val(outputs), val(list(state)),
            val(grads), val(steps)]


@program
def p_tf1_lstm_classifier_training(tf):
    """The TF1 tutorial pattern: an LSTM over sequences, the last output classified, trained with
    GradientDescentOptimizer.minimize in a Session."""
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [None, 6, 2], name="x")
        y = v1.placeholder(tf.int64, [None], name="y")
        cell = v1.nn.rnn_cell.BasicLSTMCell(8)
        outputs, state = v1.nn.dynamic_rnn(cell, x, dtype=tf.float32)
        with v1.variable_scope("softmax"):
            w = v1.get_variable("w", [8, 2])
            b = v1.get_variable("b", [2], initializer=v1.zeros_initializer())
        logits = tf.matmul(state.h, w) + b
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
        train_op = v1.train.GradientDescentOptimizer(0.5).minimize(loss)
        accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1), y), tf.float32))
        init = v1.global_variables_initializer()
        variables = v1.global_variables()
        variable_names = names(v1)
    data = inputs([16, 6, 2], salt=3.0)
    labels = (data.sum(axis=(1, 2)) > 0).astype(np.int64)
    losses = []
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        set_fixed_weights(variables, sess)
        for _ in range(8):
            _, current = sess.run([train_op, loss], {x: data, y: labels})
            losses.append(float(current))
        final_accuracy = sess.run(accuracy, {x: data, y: labels})
    return [variable_names, losses, float(final_accuracy)]


@program
def p_tf1_rnn_errors(tf):
    v1 = tf.compat.v1
    rnn_cell = v1.nn.rnn_cell
    graph = v1.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [2, 3, 4])
        results = [
            outcome(lambda: v1.nn.dynamic_rnn(rnn_cell.BasicLSTMCell(3), x), "argument `dtype` must be specified"),
            outcome(lambda: v1.nn.dynamic_rnn(rnn_cell.GRUCell(3), x, dtype=tf.float32,
                                              sequence_length=[[1, 2]]), "sequence_length must be a vector"),
            outcome(lambda: v1.nn.static_rnn(rnn_cell.GRUCell(3), x, dtype=tf.float32),
                    "Argument `inputs` must be a sequence"),
            outcome(lambda: v1.nn.static_rnn(rnn_cell.GRUCell(3), [], dtype=tf.float32), "must not be empty"),
            outcome(lambda: v1.nn.dynamic_rnn("not a cell", x, dtype=tf.float32), "is not an RNNCell"),
            outcome(lambda: rnn_cell.MultiRNNCell([]), "Must specify at least one cell"),
            outcome(lambda: rnn_cell.DropoutWrapper(rnn_cell.GRUCell(3), output_keep_prob=1.5),
                    "must be between 0 and 1"),
            outcome(lambda: rnn_cell.BasicRNNCell(3, dtype=tf.int32), "only supports floating point"),
        ]
        v1.nn.dynamic_rnn(rnn_cell.BasicLSTMCell(3), x, dtype=tf.float32)
        results.append(outcome(lambda: v1.nn.dynamic_rnn(rnn_cell.BasicLSTMCell(3), x, dtype=tf.float32),
                               "already exists, disallowed"))
        shared = rnn_cell.BasicLSTMCell(3)
        v1.nn.dynamic_rnn(shared, x, dtype=tf.float32, scope="shared")
        with v1.variable_scope("shared", reuse=True):
            v1.nn.dynamic_rnn(shared, x, dtype=tf.float32)
        results.append(names(v1))
    return results
