"""keras.layers.TFSMLayer on tinytf's own SavedModels: the reloaded endpoint against a numpy forward pass of
the exported model, eager vs tf.function, gradients with respect to the inputs against finite differences, the
weights it tracks and Keras' errors. TF's numbers are in conformance/keras_gaps_tfsm_layer.py."""

from __future__ import annotations

import numpy as np
import pytest
from gradcheck import check_gradients
from ways import run_all_ways

import tinytf as tf

keras = tf.keras


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="tanh"),
                              keras.layers.Dense(2)])
    rng = np.random.default_rng(0)
    model.set_weights([rng.normal(size=w.shape).astype("float32") for w in model.get_weights()])
    path = str(tmp_path_factory.mktemp("tfsm") / "artifact")
    model.export(path, verbose=False)
    return model, path


def test_serve_endpoint_against_numpy(exported):
    model, path = exported
    layer = keras.layers.TFSMLayer(path)
    k1, b1, k2, b2 = model.get_weights()
    x = np.random.default_rng(1).normal(size=(4, 3)).astype("float32")
    want = np.tanh(x @ k1 + b1) @ k2 + b2
    run_all_ways(lambda t: layer(t), x, expected=want, rtol=1e-5)


def test_weights_mirror_the_saved_variables(exported):
    model, path = exported
    layer = keras.layers.TFSMLayer(path)
    assert layer.built and len(layer.trainable_weights) == 4 and not layer.non_trainable_weights
    for mine, theirs in zip(layer.get_weights(), model.get_weights()):
        np.testing.assert_array_equal(mine, theirs)
    assert all("/" not in w.name for w in layer.weights)
    frozen = keras.layers.TFSMLayer(path, trainable=False)
    assert not frozen.trainable_weights and len(frozen.weights) == 4


def test_gradient_wrt_inputs_matches_finite_differences(exported, tmp_path):
    # float64 copy of the model: finite differences need double precision
    model, _ = exported
    double = keras.Sequential([keras.Input((3,), dtype="float64"),
                               keras.layers.Dense(4, activation="tanh", dtype="float64"),
                               keras.layers.Dense(2, dtype="float64")])
    double.set_weights([w.astype("float64") for w in model.get_weights()])
    path = str(tmp_path / "double")
    double.export(path, verbose=False)
    layer = keras.layers.TFSMLayer(path, dtype="float64")  # a float32 policy would cast the inputs down, as Keras'
    check_gradients(lambda t: layer(t), [np.random.default_rng(2).normal(size=(2, 3))])


def test_in_a_functional_model_and_errors(exported):
    _, path = exported
    inputs = keras.Input((3,))
    outputs = keras.layers.Dense(1)(keras.layers.TFSMLayer(path)(inputs))
    model = keras.Model(inputs, outputs)
    assert model.predict(np.zeros((2, 3), "float32"), verbose=0).shape == (2, 1)
    with pytest.raises(ValueError, match="'nope' is neither an attribute"):
        keras.layers.TFSMLayer(path, call_endpoint="nope")
    layer = keras.layers.TFSMLayer(path)
    with pytest.raises(ValueError, match="TFSMLayer"):
        keras.layers.TFSMLayer.from_config(layer.get_config())
    again = keras.layers.TFSMLayer.from_config(layer.get_config(), safe_mode=False)
    np.testing.assert_allclose(again(np.ones((1, 3), "float32")), layer(np.ones((1, 3), "float32")))


def test_weights_are_the_endpoints_variables_so_fit_trains_them(tmp_path):
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="zeros")])
    path = str(tmp_path / "linear")
    model.export(path, verbose=False)
    layer = keras.layers.TFSMLayer(path)
    layer.trainable_weights[1].assign([1.5])  # the bias: the endpoint sees it, as in Keras on TF
    np.testing.assert_allclose(layer(np.zeros((1, 2), "float32")).numpy(), [[1.5]])
    wrapper = keras.Sequential([keras.Input((2,)), layer])
    wrapper.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
    x = np.random.default_rng(3).normal(size=(32, 2)).astype("float32")
    y = x @ np.array([[2.0], [-1.0]], "float32")
    history = wrapper.fit(x, y, epochs=30, verbose=0)
    assert history.history["loss"][-1] < 0.01 * history.history["loss"][0]
    np.testing.assert_allclose(layer.get_weights()[0], [[2.0], [-1.0]], atol=0.05)
