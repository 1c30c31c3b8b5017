"""TF1's raw_rnn (a loop_fn that feeds each step, with examples finishing at their own lengths, an emit structure
of its own, a loop state) and static_state_saving_rnn (state from and back to a state saver), in TF1 sessions and
eagerly, with fixed weights and gradients. Recorded like tf1_rnn (TF_USE_LEGACY_KERAS=1, tf_keras 2.21)."""

from __future__ import annotations

import numpy as np

from . import outcome, program
from .tf1_rnn import fixed, inputs, set_fixed_weights


def _docstring_raw_rnn(tf, v1, x, lengths, cell, emit_squares=False):
    """The loop of raw_rnn's docstring: read the step from a TensorArray until each example's length."""
    max_time, batch = x.shape[0], x.shape[1]
    inputs_ta = tf.TensorArray(tf.float32, size=max_time).unstack(x)

    def loop_fn(time, cell_output, cell_state, loop_state):
        if cell_output is None:  # time == 0
            next_cell_state = cell.zero_state(batch, tf.float32)
            emit = tf.zeros([4]) if emit_squares else None
            next_loop_state = tf.zeros([batch])
        else:
            next_cell_state = cell_state
            emit = tf.square(cell_output) if emit_squares else cell_output
            next_loop_state = loop_state + tf.reduce_sum(cell_output, axis=1)
        finished = time >= lengths
        all_done = tf.reduce_all(finished)
        next_input = tf.cond(all_done, lambda: tf.zeros([batch, x.shape[2]], tf.float32),
                             lambda: inputs_ta.read(tf.minimum(time, max_time - 1)))
        return finished, next_input, next_cell_state, emit, next_loop_state

    emit_ta, final_state, loop_state = v1.nn.raw_rnn(cell, loop_fn)
    return emit_ta.stack(), final_state, loop_state


@program
def p_tf1_more_raw_rnn_graph(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [5, 3, 2])
        lengths = v1.placeholder(tf.int32, [3])
        cell = v1.nn.rnn_cell.LSTMCell(4)
        outputs, state, loop_state = _docstring_raw_rnn(tf, v1, x, lengths, cell)
        loss = tf.reduce_sum(outputs * outputs) + tf.reduce_sum(state.h) + tf.reduce_sum(loop_state)
        grads = tf.gradients(loss, [x] + cell.trainable_variables)
        names = [v.name for v in v1.global_variables()]
        variables = v1.global_variables()
        init = v1.global_variables_initializer()
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        set_fixed_weights(variables, sess)
        out, final, looped, g = sess.run([outputs, state, loop_state, grads],
                                         {x: inputs([5, 3, 2]), lengths: [5, 2, 3]})
    return {"names": names, "outputs": out.tolist(), "c": final.c.tolist(), "h": final.h.tolist(),
            "loop_state": looped.tolist(), "grads": [v.tolist() for v in g]}


@program
def p_tf1_more_raw_rnn_emit_structure(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        x = tf.constant(inputs([4, 2, 3]))
        lengths = tf.constant([4, 1])
        cell = v1.nn.rnn_cell.GRUCell(4)
        outputs, state, loop_state = _docstring_raw_rnn(tf, v1, x, lengths, cell, emit_squares=True)
        variables = v1.global_variables()
        init = v1.global_variables_initializer()
        shape = outputs.shape.as_list()
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        set_fixed_weights(variables, sess)
        out, final = sess.run([outputs, state])
    return {"outputs": out.tolist(), "state": final.tolist(), "shape": shape}


@program
def p_tf1_more_raw_rnn_eager(tf):
    v1 = tf.compat.v1
    cell = v1.nn.rnn_cell.BasicRNNCell(3)
    x = tf.constant(inputs([3, 2, 2]))

    def loop_fn(time, cell_output, cell_state, loop_state):
        state = cell.zero_state(2, tf.float32) if cell_output is None else cell_state
        emit = None if cell_output is None else cell_output
        finished = time >= tf.constant([3, 2])
        next_input = x[tf.minimum(time, 2)]
        return finished, next_input, state, emit, None

    cell.build(tf.TensorShape([2, 2]))
    cell.set_weights([fixed(w.shape.as_list(), salt=i) for i, w in enumerate(cell.weights)])
    emit_ta, final_state, loop_state = v1.nn.raw_rnn(cell, loop_fn)
    return {"outputs": emit_ta.stack().numpy().tolist(), "state": final_state.numpy().tolist(),
            "loop_state": loop_state, "not_callable": outcome(lambda: v1.nn.raw_rnn(cell, 3), "must be a callable")}


class _VariableSaver:
    """A state saver keeping each named state in a variable (what TF's SequenceQueueingStateSaver provides)."""

    def __init__(self, tf, sizes):
        self.tf = tf
        self.variables = {name: tf.Variable(tf.zeros([2, size]) + 0.1 * (i + 1), name=f"saved_{name}")
                          for i, (name, size) in enumerate(sizes.items())}

    def state(self, name):
        return self.tf.identity(self.variables[name])

    def save_state(self, name, value):
        return self.variables[name].assign(value)


@program
def p_tf1_more_static_state_saving_rnn(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        steps = [tf.constant(inputs([2, 3], salt=float(t))) for t in range(3)]
        cell = v1.nn.rnn_cell.BasicLSTMCell(4)
        saver = _VariableSaver(tf, {"c": 4, "h": 4})
        outputs, state = v1.nn.static_state_saving_rnn(cell, steps, saver, ("c", "h"))
        single = v1.nn.rnn_cell.GRUCell(4, name="gru")
        single_saver = _VariableSaver(tf, {"s": 4})
        with v1.variable_scope("second"):
            gru_outputs, gru_state = v1.nn.static_state_saving_rnn(single, steps, single_saver, "s",
                                                                   sequence_length=tf.constant([3, 1]))
        weights = cell.trainable_variables + single.trainable_variables
        names = sorted(v.name for v in v1.global_variables())
        init = v1.global_variables_initializer()
        errors = [outcome(lambda: v1.nn.static_state_saving_rnn(cell, steps, saver, "c"), "should be the same type"),
                  outcome(lambda: v1.nn.static_state_saving_rnn(cell, steps, saver, ("c", "h", "x")), "mismatched")]
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        for i, w in enumerate(weights):
            w.load(fixed(w.shape.as_list(), salt=float(i)), sess)
        first = sess.run([outputs[-1], state, gru_outputs[-1], gru_state])
        second = sess.run([outputs[-1], gru_state])  # starts from the state the first run saved
        saved = sess.run(saver.variables["h"])
    return {"names": names, "first": [first[0].tolist(), first[1].c.tolist(), first[1].h.tolist(),
                                      first[2].tolist(), first[3].tolist()],
            "second": [v.tolist() for v in second], "saved": np.asarray(saved).tolist(), "errors": errors}
