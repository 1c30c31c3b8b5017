"""ConvLSTM1D/2D/3D: the step against a numpy LSTM with convolutions, eager against traced (passes on and off),
the while loop of an unknown number of steps against the unrolled steps, gradients against finite differences,
stateful sequences, and a .keras round trip. TF 2.21's numbers are in tests/conformance/keras_conv_lstm.py."""

import numpy as np
import pytest

import tinytf as tf

keras = tf.keras


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def _conv1d_same(x, kernel):
    """x (batch, steps, in), kernel (k, in, out), stride 1, 'same' padding (TF pads the extra one at the end)."""
    k = kernel.shape[0]
    left = (k - 1) // 2
    padded = np.pad(x, ((0, 0), (left, k - 1 - left), (0, 0)))
    return np.stack([np.einsum("bki,kio->bo", padded[:, t:t + k], kernel) for t in range(x.shape[1])], axis=1)


def test_conv_lstm1d_matches_a_numpy_conv_lstm():
    x = np.random.default_rng(0).standard_normal((2, 4, 6, 3)).astype("float32")
    layer = keras.layers.ConvLSTM1D(2, 3, padding="same", return_sequences=True, return_state=True)
    out, h_last, c_last = layer(x)
    kernel, recurrent, bias = (w.numpy().astype(np.float64) for w in layer.weights)
    h = c = np.zeros((2, 6, 2))
    outputs = []
    for t in range(4):
        z = _conv1d_same(x[:, t], kernel) + bias + _conv1d_same(h, recurrent)
        i, f, g, o = np.split(z, 4, axis=-1)
        c = _sigmoid(f) * c + _sigmoid(i) * np.tanh(g)
        h = _sigmoid(o) * np.tanh(c)
        outputs.append(h)
    np.testing.assert_allclose(out.numpy(), np.stack(outputs, axis=1), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(c_last.numpy(), c, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(h_last.numpy(), outputs[-1], rtol=1e-5, atol=1e-6)


def test_eager_traced_and_while_loop_agree(passes):
    x = tf.constant(np.random.default_rng(1).standard_normal((2, 3, 4, 4, 1)).astype("float32"))
    layer = keras.layers.ConvLSTM2D(2, 2, padding="same", return_sequences=True, go_backwards=True)
    eager = layer(x)
    traced = tf.function(lambda v: layer(v))(x)
    looped = tf.function(lambda v: layer(v), input_signature=[tf.TensorSpec([None, None, 4, 4, 1])])(x)
    np.testing.assert_allclose(traced.numpy(), eager.numpy(), rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(looped.numpy(), eager.numpy(), rtol=1e-6, atol=1e-7)


def test_gradients_match_finite_differences():
    x = np.random.default_rng(2).standard_normal((1, 2, 3, 3, 1))
    layer = keras.layers.ConvLSTM2D(1, 2, dtype="float64", kernel_initializer="glorot_uniform")
    layer(x)
    kernel = layer.weights[0]
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.square(layer(x)))
    grad = tape.gradient(loss, kernel).numpy()
    base, eps = kernel.numpy(), 1e-6
    numeric = np.zeros_like(base)
    for index in np.ndindex(*base.shape):
        for sign in (1, -1):
            shifted = base.copy()
            shifted[index] += sign * eps
            kernel.assign(shifted)
            numeric[index] += sign * float(tf.reduce_sum(tf.square(layer(x)))) / (2 * eps)
    kernel.assign(base)
    np.testing.assert_allclose(grad, numeric, rtol=1e-5, atol=1e-8)


def test_stateful_sequences_continue_and_reset():
    x = np.random.default_rng(3).standard_normal((1, 2, 5, 2)).astype("float32")
    layer = keras.layers.ConvLSTM1D(2, 2, stateful=True, batch_input_shape=(1, 2, 5, 2))
    model = keras.Sequential([keras.Input(batch_shape=(1, 2, 5, 2)), layer])
    first, second = model(x).numpy(), model(x).numpy()
    assert not np.allclose(first, second)
    layer.reset_states()
    np.testing.assert_allclose(model(x).numpy(), first, rtol=1e-6)


def test_keras_file_round_trip_and_summary(tmp_path):
    model = keras.Sequential([keras.Input((3, 4, 4, 2)), keras.layers.ConvLSTM2D(3, 3, padding="same"),
                              keras.layers.GlobalAveragePooling2D(), keras.layers.Dense(1)])
    x = np.random.default_rng(4).standard_normal((2, 3, 4, 4, 2)).astype("float32")
    path = str(tmp_path / "convlstm.keras")
    model.save(path)
    restored = keras.models.load_model(path)
    np.testing.assert_allclose(restored.predict(x, verbose=0), model.predict(x, verbose=0), rtol=1e-6)
    assert model.layers[0].count_params() == 3 * 3 * 2 * 12 + 3 * 3 * 3 * 12 + 12


def test_errors_name_the_layer_and_shape():
    with pytest.raises(ValueError, match="dilation_rate"):
        keras.layers.ConvLSTM2D(2, 2, strides=2, dilation_rate=2)
    with pytest.raises(ValueError, match="spatial dimension"):
        keras.layers.ConvLSTM2D(2, 2)(keras.Input((3, None, 4, 1)))
