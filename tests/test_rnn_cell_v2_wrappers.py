"""tf.nn.RNNCellResidualWrapper / RNNCellDropoutWrapper / RNNCellDeviceWrapper around Keras cells (helper gapsa):
against numpy, eagerly and in tf.function, and inside keras.layers.RNN. TF's values: conformance toplevel_gaps."""

from __future__ import annotations

import numpy as np
import pytest

import tinytf as tf


def _cell():
    return tf.keras.layers.SimpleRNNCell(3, kernel_initializer="ones", recurrent_initializer="ones",
                                         bias_initializer="zeros")


X = np.arange(6, dtype=np.float32).reshape(2, 3) / 10
H = np.full((2, 3), 0.2, np.float32)
NEW_H = np.tanh(X @ np.ones((3, 3), np.float32) + H @ np.ones((3, 3), np.float32))


@pytest.mark.parametrize("in_function", [False, True])
def test_residual_adds_inputs(in_function):
    wrapper = tf.nn.RNNCellResidualWrapper(_cell())
    call = tf.function(lambda x, h: wrapper(x, [h])) if in_function else (lambda x, h: wrapper(x, [h]))
    out, state = call(tf.constant(X), tf.constant(H))
    np.testing.assert_allclose(out.numpy(), X + NEW_H, rtol=1e-6)
    np.testing.assert_allclose(state[0].numpy(), NEW_H, rtol=1e-6)
    assert wrapper.output_size == 3 and wrapper.wrapped_cell.units == 3


def test_residual_fn_device_and_full_keep():
    out, _ = tf.nn.RNNCellResidualWrapper(_cell(), residual_fn=lambda i, o: i * 2 + o)(tf.constant(X), [H])
    np.testing.assert_allclose(out.numpy(), 2 * X + NEW_H, rtol=1e-6)
    out, _ = tf.nn.RNNCellDeviceWrapper(_cell(), "/cpu:0")(tf.constant(X), [H])
    np.testing.assert_allclose(out.numpy(), NEW_H, rtol=1e-6)
    out, _ = tf.nn.RNNCellDropoutWrapper(_cell(), input_keep_prob=1.0)(tf.constant(X), [H])
    np.testing.assert_allclose(out.numpy(), NEW_H, rtol=1e-6)


def test_dropout_zeroes_and_scales():
    wrapper = tf.nn.RNNCellDropoutWrapper(tf.keras.layers.SimpleRNNCell(4, kernel_initializer="ones"),
                                          output_keep_prob=0.5, seed=3)
    out, _ = wrapper(tf.ones([64, 4]), [tf.zeros([64, 4])])
    values = out.numpy().reshape(-1)
    kept = values[values != 0]
    assert 0 < kept.size < values.size
    np.testing.assert_allclose(kept, np.tanh(4.0) * 2, rtol=1e-5)
    with pytest.raises(ValueError, match="must be between 0 and 1"):
        tf.nn.RNNCellDropoutWrapper(_cell(), input_keep_prob=1.5)


def test_inside_keras_rnn():
    layer = tf.keras.layers.RNN(tf.nn.RNNCellResidualWrapper(_cell()), return_sequences=True)
    out = layer(tf.ones([2, 4, 3]))
    assert out.shape == (2, 4, 3)
    with pytest.raises(TypeError, match="is not an RNNCell"):
        tf.nn.RNNCellResidualWrapper(object())
