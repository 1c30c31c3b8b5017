"""Keras' 1-D and 3-D layers beyond the TF-recorded numbers (tests/conformance/keras_layers_3d_and_1d.py):
eager against tf.function with an unknown batch, gradients for inputs and weights against finite differences,
against plain numpy where the layer is simple, .keras save and load, and SpatialDropout3D's whole-map masks."""

from __future__ import annotations

import numpy as np
import pytest

import tinytf as tf

L = tf.keras.layers


def _data(shape, seed=0, dtype="float64"):
    return np.random.default_rng(seed).uniform(-1, 1, shape).astype(dtype)


MAKERS = {
    "Conv3D": (lambda: L.Conv3D(2, 2, padding="same", dtype="float64"), (2, 3, 4, 3, 2)),
    "Conv3D_strided": (lambda: L.Conv3D(2, (2, 1, 2), strides=2, dtype="float64"), (1, 4, 3, 5, 1)),
    "Conv3DTranspose": (lambda: L.Conv3DTranspose(2, 2, strides=2, dtype="float64"), (2, 2, 3, 2, 2)),
    "Conv1DTranspose": (lambda: L.Conv1DTranspose(3, 3, strides=2, padding="same", dtype="float64"), (2, 5, 2)),
    "DepthwiseConv1D": (lambda: L.DepthwiseConv1D(3, depth_multiplier=2, dtype="float64"), (2, 6, 2)),
    "SeparableConv1D": (lambda: L.SeparableConv1D(3, 2, padding="same", dtype="float64"), (2, 5, 2)),
    "MaxPooling3D": (lambda: L.MaxPooling3D(2, dtype="float64"), (1, 4, 4, 2, 2)),
    "AveragePooling3D": (lambda: L.AveragePooling3D(2, padding="same", dtype="float64"), (1, 3, 4, 3, 2)),
    "GlobalAveragePooling3D": (lambda: L.GlobalAveragePooling3D(dtype="float64"), (2, 2, 3, 2, 2)),
    "GlobalMaxPooling3D": (lambda: L.GlobalMaxPooling3D(dtype="float64"), (2, 2, 3, 2, 2)),
    "UpSampling1D": (lambda: L.UpSampling1D(2, dtype="float64"), (2, 3, 2)),
    "UpSampling3D": (lambda: L.UpSampling3D((2, 1, 3), dtype="float64"), (1, 2, 2, 2, 1)),
    "ZeroPadding1D": (lambda: L.ZeroPadding1D((1, 2), dtype="float64"), (2, 3, 2)),
    "ZeroPadding3D": (lambda: L.ZeroPadding3D(1, dtype="float64"), (1, 2, 2, 2, 1)),
    "Cropping1D": (lambda: L.Cropping1D((1, 1), dtype="float64"), (2, 5, 2)),
    "Cropping3D": (lambda: L.Cropping3D(((1, 0), (0, 1), (1, 1)), dtype="float64"), (1, 3, 3, 4, 1)),
}


@pytest.mark.parametrize("name", sorted(MAKERS))
def test_graph_with_unknown_batch_matches_eager(name):
    make, shape = MAKERS[name]
    layer = make()
    x = tf.constant(_data(shape))
    eager = layer(x).numpy()
    spec = tf.TensorSpec([None, *shape[1:]], tf.float64)
    graph = tf.function(lambda v: layer(v), input_signature=[spec])
    np.testing.assert_allclose(graph(x).numpy(), eager, rtol=1e-12)
    np.testing.assert_allclose(graph(tf.constant(_data((3, *shape[1:]), seed=5))).numpy(),
                               layer(_data((3, *shape[1:]), seed=5)).numpy(), rtol=1e-12)
    assert tuple(layer.compute_output_shape((None, *shape[1:])))[1:] == eager.shape[1:]


@pytest.mark.parametrize("name", sorted(MAKERS))
def test_gradients_match_finite_differences(name):
    make, shape = MAKERS[name]
    layer = make()
    x = _data(shape, seed=1)
    if "Max" in name:  # keep the maxima apart so finite differences do not cross a tie
        x = x + np.arange(x.size).reshape(shape) * 0.05
    layer(tf.constant(x))
    weights = _data(layer(tf.constant(x)).shape, seed=2)
    variables = layer.trainable_weights

    def loss(v):
        return tf.reduce_sum(layer(v) * weights)

    v = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(v)
        value = loss(v)
    grads = tape.gradient(value, [v, *variables])
    numeric = np.zeros_like(x)
    for index in np.ndindex(x.shape):
        step = np.zeros_like(x)
        step[index] = 1e-6
        numeric[index] = (float(loss(tf.constant(x + step))) - float(loss(tf.constant(x - step)))) / 2e-6
    np.testing.assert_allclose(grads[0].numpy(), numeric, rtol=1e-6, atol=1e-8)
    for variable, grad in zip(variables, grads[1:]):
        original = variable.numpy()
        flat = np.zeros_like(original)
        for index in np.ndindex(original.shape):
            step = np.zeros_like(original)
            step[index] = 1e-6
            variable.assign(original + step)
            up = float(loss(v))
            variable.assign(original - step)
            flat[index] = (up - float(loss(v))) / 2e-6
        variable.assign(original)
        np.testing.assert_allclose(grad.numpy(), flat, rtol=1e-6, atol=1e-8)


def test_simple_layers_against_numpy():
    x = _data((2, 3, 4, 2, 3), dtype="float32")
    np.testing.assert_array_equal(L.UpSampling3D((2, 1, 3))(x).numpy(), x.repeat(2, 1).repeat(3, 3))
    np.testing.assert_array_equal(L.ZeroPadding3D(((1, 0), (0, 2), (1, 1)))(x).numpy(),
                                  np.pad(x, [(0, 0), (1, 0), (0, 2), (1, 1), (0, 0)]))
    np.testing.assert_array_equal(L.Cropping3D(((1, 0), (1, 1), (0, 1)))(x).numpy(), x[:, 1:, 1:3, :1])
    np.testing.assert_allclose(L.GlobalAveragePooling3D()(x).numpy(), x.mean(axis=(1, 2, 3)), rtol=1e-6)
    np.testing.assert_allclose(L.MaxPooling3D((1, 2, 2))(x).numpy(),
                               x.reshape(2, 3, 2, 2, 1, 2, 3).max(axis=(3, 5)))
    y = _data((2, 5, 3), dtype="float32")
    np.testing.assert_array_equal(L.UpSampling1D(3)(y).numpy(), y.repeat(3, 1))
    np.testing.assert_array_equal(L.Cropping1D((2, 1))(y).numpy(), y[:, 2:4])


def test_conv3d_against_a_numpy_loop():
    layer = L.Conv3D(2, (2, 2, 1), dtype="float64")
    x = _data((1, 3, 3, 2, 2))
    out = layer(x).numpy()
    kernel, bias = layer.get_weights()
    expected = np.zeros((1, 2, 2, 2, 2))
    for d in range(2):
        for h in range(2):
            for w in range(2):
                window = x[0, d:d + 2, h:h + 2, w:w + 1, :]
                expected[0, d, h, w] = np.tensordot(window, kernel, axes=4) + bias
    np.testing.assert_allclose(out, expected, rtol=1e-12)


def test_save_and_load_a_model_of_3d_and_1d_layers(tmp_path):
    volume = tf.keras.Sequential([tf.keras.Input((4, 4, 4, 1)), L.Conv3D(2, 3, padding="same"),
                                  L.SpatialDropout3D(0.2), L.MaxPooling3D(), L.ZeroPadding3D(1),
                                  L.Conv3DTranspose(2, 2, strides=2), L.Cropping3D(1), L.UpSampling3D(1),
                                  L.GlobalAveragePooling3D(), L.Dense(1)])
    sequence = tf.keras.Sequential([tf.keras.Input((6, 2)), L.SeparableConv1D(3, 3), L.DepthwiseConv1D(2),
                                    L.Conv1DTranspose(2, 2, strides=2), L.UpSampling1D(2), L.ZeroPadding1D(1),
                                    L.Cropping1D(1), L.Flatten(), L.Dense(1)])
    for model, x in ((volume, _data((2, 4, 4, 4, 1), dtype="float32")), (sequence, _data((2, 6, 2), dtype="float32"))):
        path = str(tmp_path / f"{model.name}.keras")
        model.save(path)
        restored = tf.keras.models.load_model(path)
        np.testing.assert_allclose(restored.predict(x, verbose=0), model.predict(x, verbose=0), rtol=1e-6)
        assert [w.shape for w in restored.weights] == [w.shape for w in model.weights]


def test_spatial_dropout3d_drops_whole_maps_in_training_only():
    layer = L.SpatialDropout3D(0.5, seed=3)
    x = np.ones((4, 3, 3, 3, 6), "float32")
    out = layer(x, training=True).numpy()
    per_map = out.reshape(4, 27, 6)
    assert np.all((per_map == per_map[:, :1, :]))  # each (example, channel) map is all kept or all dropped
    assert set(np.unique(out)) <= {0.0, 2.0} and 0 < (out == 0).mean() < 1
    np.testing.assert_array_equal(layer(x).numpy(), x)
    with pytest.raises(ValueError):
        layer(np.ones((2, 3, 3, 3), "float32"))


@pytest.mark.parametrize("make", [lambda: L.MaxPooling3D(data_format="channels_first"),
                                  lambda: L.GlobalAveragePooling3D(data_format="channels_first"),
                                  lambda: L.ZeroPadding3D(data_format="channels_first"),
                                  lambda: L.Conv3D(2, 2, data_format="channels_first")])
def test_channels_first_is_refused_not_misread(make):
    with pytest.raises(NotImplementedError, match="channels_last"):
        make()
