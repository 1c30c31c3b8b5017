"""TF's "Working with RNNs" guide on TF 2.21, with Keras' default seeds: keras.layers.RNN around a built-in
cell, a list of cells (StackedRNNCells), the guide's custom MinimalRNNCell, a stateful LSTM over a split
paragraph, TimeDistributed and a causal Conv1D."""

from __future__ import annotations

import numpy as np

from . import data, program, val


@program
def p_keras_rnn_guide_cells(tf):
    keras = tf.keras
    layers = keras.layers
    keras.backend.clear_session()
    keras.utils.set_random_seed(5)
    x = tf.constant(data((2, 4, 3)))

    class MinimalRNNCell(layers.Layer):
        def __init__(self, units, **kwargs):
            super().__init__(**kwargs)
            self.units = units
            self.state_size = units

        def build(self, input_shape):
            self.kernel = self.add_weight(shape=(input_shape[-1], self.units), initializer="uniform", name="kernel")
            self.recurrent_kernel = self.add_weight(shape=(self.units, self.units), initializer="uniform",
                                                    name="recurrent_kernel")

        def call(self, inputs, states):
            output = tf.matmul(inputs, self.kernel) + tf.matmul(states[0], self.recurrent_kernel)
            return output, [output]

    wrapped = layers.RNN(layers.LSTMCell(4), return_sequences=True)
    stacked = layers.RNN([layers.GRUCell(3), layers.SimpleRNNCell(2)])
    minimal = layers.RNN(MinimalRNNCell(5))
    results = [val(wrapped(x)), val(stacked(x)), [w.path for w in stacked.weights], val(minimal(x))]

    @tf.function(input_signature=[tf.TensorSpec([None, None, 3], tf.float32)])
    def unknown_time(inputs):
        return stacked(inputs)

    results.append(val(unknown_time(x)))
    lstm = layers.LSTM(4, stateful=True)
    paragraph = tf.constant(data((2, 6, 3), seed=1))
    first, second = lstm(paragraph[:, :3]), lstm(paragraph[:, 3:])
    lstm.reset_states()
    results.append([val(first), val(second), val(lstm(paragraph[:, :3]))])
    results.append([val(layers.TimeDistributed(layers.Dense(2))(x)),
                    val(layers.Conv1D(2, 2, padding="causal", activation="relu")(x))])
    dropped = layers.RNN([layers.GRUCell(3, dropout=0.5), layers.LSTMCell(2, recurrent_dropout=0.5)])
    inference = dropped(x)
    results.append([val(inference), bool(np.allclose(np.asarray(dropped(x, training=False)), np.asarray(inference)))])
    return results
