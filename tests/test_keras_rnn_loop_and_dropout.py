"""RNN layers over a time axis of unknown length (a tf.while_loop over TensorArrays) give what the unrolled
steps give, forward and in their gradients, with masks, go_backwards and states; and Keras' cell dropout: one
mask per sequence (per gate with recurrent_dropout), scaled by 1 / (1 - rate), only in training."""

from __future__ import annotations

import numpy as np
import pytest

import tinytf as tf

keras = tf.keras
L = keras.layers


@pytest.fixture(autouse=True)
def fresh_names():
    keras.backend.clear_session()


def fixed(layer, x):
    layer(x)
    rng = np.random.default_rng(4)
    layer.set_weights([rng.uniform(-0.7, 0.7, w.shape).astype(np.float32) for w in layer.get_weights()])
    return layer


LAYERS = [lambda **k: L.SimpleRNN(3, **k), lambda **k: L.LSTM(3, **k), lambda **k: L.GRU(3, **k)]


@pytest.mark.parametrize("make", LAYERS)
@pytest.mark.parametrize("go_backwards", [False, True])
@pytest.mark.parametrize("masked", [False, True])
def test_loop_equals_unrolled(passes, make, go_backwards, masked):
    x = tf.constant(np.random.default_rng(0).normal(size=(2, 5, 4)).astype(np.float32))
    mask = tf.constant([[True, True, False, True, True], [True, False, False, False, True]]) if masked else None
    layer = fixed(make(return_sequences=True, return_state=True, go_backwards=go_backwards), x)

    @tf.function(input_signature=[tf.TensorSpec([None, None, 4], tf.float32), tf.TensorSpec([None, None], tf.bool)])
    def unknown_time(inputs, step_mask):
        return layer(inputs, mask=step_mask if masked else None)

    with tf.GradientTape() as tape:
        tape.watch(x)
        unrolled = layer(x, mask=mask)
        loss = tf.reduce_sum(unrolled[0] * unrolled[0]) + tf.reduce_sum(unrolled[1])
    unrolled_grads = tape.gradient(loss, [x, *layer.trainable_weights])
    looped = unknown_time(x, mask if masked else tf.ones([2, 5], tf.bool))
    for a, b in zip(looped, unrolled):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-6)

    @tf.function(input_signature=[tf.TensorSpec([None, None, 4], tf.float32), tf.TensorSpec([None, None], tf.bool)])
    def looped_grads(inputs, step_mask):
        with tf.GradientTape() as tape:
            tape.watch(inputs)
            out = layer(inputs, mask=step_mask if masked else None)
            loss = tf.reduce_sum(out[0] * out[0]) + tf.reduce_sum(out[1])
        return tape.gradient(loss, [inputs, *layer.trainable_weights])

    for a, b in zip(looped_grads(x, mask if masked else tf.ones([2, 5], tf.bool)), unrolled_grads):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-4, atol=1e-5)


def test_functional_model_with_unknown_time_trains_and_runs_every_length():
    inputs = keras.Input(shape=(None,), dtype="int32")
    hidden = L.LSTM(4)(L.Embedding(10, 3, mask_zero=True)(inputs))
    model = keras.Model(inputs, L.Dense(1)(hidden))
    assert model.output_shape == (None, 1)
    tokens = np.array([[1, 2, 3, 0], [4, 5, 0, 0]], "int32")
    # padding at the end is masked: the trailing zeros change nothing
    np.testing.assert_allclose(model(tokens).numpy(), model(tokens[:, :3]).numpy(), rtol=1e-6)
    model.compile(optimizer="sgd", loss="mse")
    before = [w.numpy().copy() for w in model.weights]
    model.fit(tokens, np.ones((2, 1), "float32"), epochs=1, verbose=0)
    assert any(not np.array_equal(a, w.numpy()) for a, w in zip(before, model.weights))


def test_input_dropout_mask_is_one_per_sequence_and_scaled():
    layer = L.SimpleRNN(64, dropout=0.5, use_bias=False, activation=None, return_sequences=True)
    x = tf.ones([3, 6, 64])
    layer(x)
    layer.set_weights([np.eye(64, dtype=np.float32), np.zeros((64, 64), np.float32)])
    out = layer(x, training=True).numpy()  # output = dropped input: the same mask at every step
    for t in range(1, 6):
        np.testing.assert_array_equal(out[:, t], out[:, 0])
    assert set(np.unique(out)) <= {0.0, 2.0}
    assert 0.25 < (out == 0).mean() < 0.75
    np.testing.assert_array_equal(layer(x, training=False).numpy(), np.ones((3, 6, 64), np.float32))
    assert layer.cell._dropout_mask is None  # the mask lives for one call only


def test_recurrent_dropout_masks_the_state_per_gate():
    layer = L.LSTM(8, recurrent_dropout=0.5, dropout=0.25)
    assert layer.cell._per_gate_masks()
    x = tf.constant(np.random.default_rng(1).normal(size=(2, 4, 3)).astype(np.float32))
    inference = layer(x).numpy()
    np.testing.assert_array_equal(layer(x, training=False).numpy(), inference)
    assert not np.allclose(layer(x, training=True).numpy(), inference)
    cell = layer.cell
    masks = cell._make_masks(tf.ones([2, 8]), 0.5)
    assert len(masks) == 4 and not all(np.array_equal(masks[0].numpy(), m.numpy()) for m in masks[1:])


def test_dropout_rates_are_clipped_as_keras_does():
    assert L.LSTM(2, dropout=1.5).cell.dropout == 1.0
    assert L.GRU(2, recurrent_dropout=-1).cell.recurrent_dropout == 0.0
    layer = L.GRU(2, dropout=1.0)  # a rate of 1 is no mask at all (Keras' 0 < rate < 1)
    x = tf.ones([1, 3, 2])
    np.testing.assert_array_equal(layer(x, training=True).numpy(), layer(x, training=False).numpy())
    assert L.SimpleRNN(2, dropout=0.3).get_config()["dropout"] == 0.3


def test_dropout_inside_a_traced_train_step_uses_fresh_masks_per_call():
    layer = L.SimpleRNN(16, dropout=0.5, return_sequences=True)
    x = tf.ones([2, 3, 16])
    layer(x)

    @tf.function
    def step(inputs):
        return layer(inputs, training=True)

    first, second = step(x).numpy(), step(x).numpy()
    assert not np.array_equal(first, second)
    assert step.experimental_get_tracing_count() == 1
