"""TF1's RNN cells and drivers against numpy, eagerly and in a tf.function, with gradients checked by finite
differences, a Saver round trip by TF1 names, and variable sharing through variable_scope reuse. (The values
against TensorFlow 2.21 are in tests/conformance/tf1_rnn.py.)"""

from __future__ import annotations

import numpy as np
import pytest

import tinytf as tf

v1 = tf.compat.v1
rnn_cell = v1.nn.rnn_cell


def _sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def numpy_basic_lstm(x, kernel, bias, lengths, forget_bias=1.0):
    """The BasicLSTMCell recurrence over [batch, time, depth], states copied through past each length."""
    batch, steps, _ = x.shape
    units = bias.shape[0] // 4
    c = np.zeros([batch, units], np.float32)
    h = np.zeros([batch, units], np.float32)
    outputs = np.zeros([batch, steps, units], np.float32)
    for t in range(steps):
        gates = np.concatenate([x[:, t], h], 1) @ kernel + bias
        i, j, f, o = np.split(gates, 4, axis=1)
        new_c = c * _sigmoid(f + forget_bias) + _sigmoid(i) * np.tanh(j)
        new_h = np.tanh(new_c) * _sigmoid(o)
        alive = (t < lengths)[:, None]
        c, h = np.where(alive, new_c, c), np.where(alive, new_h, h)
        outputs[:, t] = np.where(alive, new_h, 0.0)
    return outputs, c, h


def test_dynamic_rnn_in_a_session_matches_numpy():
    rng = np.random.default_rng(0)
    data = rng.normal(size=[3, 5, 2]).astype(np.float32)
    lengths = np.array([5, 3, 1], np.int32)
    graph = v1.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [None, 5, 2])
        seq = v1.placeholder(tf.int32, [None])
        cell = rnn_cell.BasicLSTMCell(4)
        outputs, state = v1.nn.dynamic_rnn(cell, x, sequence_length=seq, dtype=tf.float32)
        assert outputs.shape.as_list() == [None, 5, 4]
        init = v1.global_variables_initializer()
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        kernel, bias = sess.run(cell.variables)
        bias = rng.normal(size=bias.shape).astype(np.float32)
        cell.variables[1].load(bias, sess)
        out, final = sess.run([outputs, state], {x: data, seq: lengths})
    want_out, want_c, want_h = numpy_basic_lstm(data, kernel, bias, lengths)
    np.testing.assert_allclose(out, want_out, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(final.c, want_c, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(final.h, want_h, rtol=1e-5, atol=1e-6)


def test_static_and_dynamic_rnn_agree_eagerly_and_in_a_function():
    x = tf.constant(np.random.default_rng(1).normal(size=[2, 4, 3]).astype(np.float32))
    cell = rnn_cell.GRUCell(3)
    dynamic_out, dynamic_state = v1.nn.dynamic_rnn(cell, x, dtype=tf.float32)
    static_out, static_state = v1.nn.static_rnn(cell, tf.unstack(x, axis=1), dtype=tf.float32)
    np.testing.assert_allclose(np.stack([o.numpy() for o in static_out], 1), dynamic_out.numpy(), rtol=1e-5)
    np.testing.assert_allclose(static_state.numpy(), dynamic_state.numpy(), rtol=1e-5)

    @tf.function
    def run(inputs):
        return v1.nn.dynamic_rnn(cell, inputs, dtype=tf.float32, sequence_length=[4, 2])

    traced_out, traced_state = run(x)
    eager_out, eager_state = v1.nn.dynamic_rnn(cell, x, dtype=tf.float32, sequence_length=[4, 2])
    np.testing.assert_allclose(traced_out.numpy(), eager_out.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(traced_state.numpy(), eager_state.numpy(), rtol=1e-5, atol=1e-6)
    assert np.all(traced_out.numpy()[1, 2:] == 0.0)  # past its length: zero outputs
    np.testing.assert_allclose(traced_state.numpy()[1], traced_out.numpy()[1, 1], rtol=1e-6)


@pytest.mark.parametrize("make_cell", [
    lambda: rnn_cell.LSTMCell(3, use_peepholes=True, num_proj=2, cell_clip=0.8),
    lambda: rnn_cell.MultiRNNCell([rnn_cell.GRUCell(2), rnn_cell.BasicRNNCell(2)]),
], ids=["lstm_peephole_projection", "multi_gru_rnn"])
def test_gradients_through_dynamic_rnn_match_finite_differences(make_cell):
    x = tf.constant(np.random.default_rng(2).normal(size=[2, 3, 2]))
    x = tf.cast(x, tf.float64)
    cell = make_cell()
    v1.nn.dynamic_rnn(cell, x, dtype=tf.float64)  # builds the weights
    weights = cell.trainable_variables
    assert weights

    def loss_of(inputs):
        outputs, _ = v1.nn.dynamic_rnn(cell, inputs, dtype=tf.float64)
        return tf.reduce_sum(tf.sin(outputs))

    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = loss_of(x)
    grads = tape.gradient(loss, [x] + weights)
    base = x.numpy()
    eps = 1e-6
    numeric = np.zeros_like(base)
    for index in np.ndindex(base.shape):
        up, down = base.copy(), base.copy()
        up[index] += eps
        down[index] -= eps
        numeric[index] = (loss_of(tf.constant(up)).numpy() - loss_of(tf.constant(down)).numpy()) / (2 * eps)
    np.testing.assert_allclose(grads[0].numpy(), numeric, rtol=1e-5, atol=1e-8)
    first = weights[0]
    value = first.numpy()
    index = (0,) * value.ndim
    numeric_w = []
    for sign in (1, -1):
        shifted = value.copy()
        shifted[index] += sign * eps
        first.assign(shifted)
        numeric_w.append(loss_of(x).numpy())
    first.assign(value)
    np.testing.assert_allclose(grads[1].numpy()[index], (numeric_w[0] - numeric_w[1]) / (2 * eps), rtol=1e-5)


def test_saver_restores_an_rnn_by_its_tf1_names(tmp_path):
    data = np.random.default_rng(3).normal(size=[2, 3, 2]).astype(np.float32)

    def build():
        x = v1.placeholder(tf.float32, [2, 3, 2])
        outputs, _ = v1.nn.dynamic_rnn(rnn_cell.BasicLSTMCell(3), x, dtype=tf.float32)
        return x, outputs

    first = v1.Graph()
    with first.as_default():
        x, outputs = build()
        init = v1.global_variables_initializer()
        saver = v1.train.Saver()
    with v1.Session(graph=first) as sess:
        sess.run(init)
        want = sess.run(outputs, {x: data})
        path = saver.save(sess, str(tmp_path / "model"))
    reader = tf.train.load_checkpoint(path)
    assert set(reader.get_variable_to_shape_map()) == {"rnn/basic_lstm_cell/kernel", "rnn/basic_lstm_cell/bias"}
    second = v1.Graph()
    with second.as_default():
        x, outputs = build()
        saver = v1.train.Saver()
    with v1.Session(graph=second) as sess:
        saver.restore(sess, path)
        np.testing.assert_allclose(sess.run(outputs, {x: data}), want, rtol=1e-6)


def test_reuse_shares_the_cell_weights_and_passes_none_agree():
    graph = v1.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [2, 3, 2])
        with v1.variable_scope("encoder"):
            first, _ = v1.nn.dynamic_rnn(rnn_cell.GRUCell(2), x, dtype=tf.float32)
        with v1.variable_scope("encoder", reuse=True):
            second, _ = v1.nn.dynamic_rnn(rnn_cell.GRUCell(2), x, dtype=tf.float32)
        assert len(v1.global_variables()) == 4
        init = v1.global_variables_initializer()
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        a, b = sess.run([first, second], {x: np.ones([2, 3, 2], np.float32)})
    np.testing.assert_allclose(a, b)


def test_dropout_wrapper_drops_and_scales():
    cell = rnn_cell.DropoutWrapper(rnn_cell.BasicRNNCell(200), output_keep_prob=0.5, seed=4)
    x = tf.ones([4, 3, 5])
    outputs, _ = v1.nn.dynamic_rnn(cell, x, dtype=tf.float32)
    plain, _ = v1.nn.dynamic_rnn(cell.cell, x, dtype=tf.float32)
    out = outputs.numpy()[:, 0]
    ref = plain.numpy()[:, 0]
    kept = out != 0
    assert 0.35 < kept.mean() < 0.65
    np.testing.assert_allclose(out[kept], 2 * ref[kept], rtol=1e-5)
    state_wrapped = rnn_cell.DropoutWrapper(rnn_cell.BasicLSTMCell(3), state_keep_prob=0.5)
    _, state = v1.nn.dynamic_rnn(state_wrapped, x, dtype=tf.float32)  # c is never dropped
    assert np.all(state.c.numpy() != 0)
