"""Keras' legacy HDF5 model files (`model.save("m.h5")`): files made by real Keras 3 / TF 2.21
(tests/keras_files/generate_legacy_h5.py) load here with the same outputs and optimizer step, and tinytf's own
files load back here (and in TF: tools/legacy_h5_read_by_tf.py) with the same outputs and compile state."""

import json
import os

import h5py
import numpy as np
import pytest

import tinytf as tf

keras = tf.keras
FILES = os.path.join(os.path.dirname(__file__), "keras_files")
EXPECTED = np.load(os.path.join(FILES, "legacy_h5.npz"))


def test_tf_made_trained_sequential_loads():
    model = keras.models.load_model(os.path.join(FILES, "legacy_trained.h5"))
    x = EXPECTED["x"]
    np.testing.assert_allclose(model.predict(x, verbose=0), EXPECTED["restored_out"], rtol=1e-5, atol=1e-6)
    assert int(model.optimizer.iterations.numpy()) == int(EXPECTED["iterations"]) == 8
    assert type(model.optimizer).__name__ == "Adam" and np.isclose(float(model.optimizer.learning_rate), 0.05)
    with h5py.File(os.path.join(FILES, "legacy_trained.h5")) as f:  # Adam's moments, as the file holds them
        saved = f["optimizer_weights"]
        momentum = np.asarray(saved["adam/sequential_hidden_kernel_momentum"])
    kernel = model.layers[0].kernel
    np.testing.assert_allclose(model.optimizer.get_slot(kernel, "momentum").numpy(), momentum)
    history = model.fit(x, EXPECTED["y"], batch_size=4, epochs=1, shuffle=False, verbose=0).history
    assert np.isfinite(history["loss"][0]) and "mae" in history


def test_tf_made_functional_loads_uncompiled():
    model = keras.models.load_model(os.path.join(FILES, "legacy_functional.h5"))
    first, second = model.predict(EXPECTED["x"], verbose=0)
    np.testing.assert_allclose(first, EXPECTED["functional_first"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(second, EXPECTED["functional_second"], rtol=1e-5, atol=1e-6)
    assert model.name == "two_outputs" and getattr(model, "optimizer", None) is None


def _trained_model():
    keras.utils.set_random_seed(5)
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="tanh", name="hidden"),
                              keras.layers.Dense(1, name="out")])
    model.compile(optimizer=keras.optimizers.Adam(0.05), loss=keras.losses.MeanSquaredError(),
                  metrics=[keras.metrics.MeanAbsoluteError(name="mae")])
    model.fit(EXPECTED["x"], EXPECTED["y"], batch_size=4, epochs=2, shuffle=False, verbose=0)
    return model


def test_round_trip_keeps_outputs_and_training_state(tmp_path):
    model = _trained_model()
    path = str(tmp_path / "m.h5")
    model.save(path)
    with h5py.File(path) as f:  # Keras' layout: what TF's loader reads
        config = json.loads(f.attrs["model_config"])
        assert config["class_name"] == "Sequential" and "module" not in config["config"]["layers"][1]
        assert list(f["model_weights"].attrs["layer_names"]) == [b"hidden", b"out"]
        assert "top_level_model_weights" in f["model_weights"]
        assert json.loads(f.attrs["training_config"])["optimizer_config"]["class_name"] == "Adam"
        # under the optimizer's name, each slot named after the model and its layer (adam/sequential_hidden_kernel_
        # momentum in a fresh session; the counters give adam_1, sequential_2 after other models were made)
        slots = list(f["optimizer_weights"][model.optimizer.name])
        assert f"{model.name}_hidden_kernel_momentum" in slots and f"{model.name}_out_bias_velocity" in slots
    loaded = keras.models.load_model(path)
    x = EXPECTED["x"]
    np.testing.assert_allclose(loaded.predict(x, verbose=0), model.predict(x, verbose=0), rtol=1e-6)
    assert int(loaded.optimizer.iterations.numpy()) == int(model.optimizer.iterations.numpy())
    # the same optimizer state: one more epoch gives the same loss as the original model's
    after = loaded.fit(x, EXPECTED["y"], batch_size=4, epochs=1, shuffle=False, verbose=0).history["loss"]
    again = model.fit(x, EXPECTED["y"], batch_size=4, epochs=1, shuffle=False, verbose=0).history["loss"]
    np.testing.assert_allclose(after, again, rtol=1e-5)


def test_save_format_and_arguments(tmp_path):
    model = _trained_model()
    model.save(str(tmp_path / "a.hdf5"), save_format="h5", include_optimizer=False)
    loaded = keras.models.load_model(str(tmp_path / "a.hdf5"))
    assert getattr(loaded, "optimizer", None) is None  # no training config without the optimizer
    uncompiled = keras.models.load_model(str(tmp_path / "a.hdf5"), compile=False)
    assert getattr(uncompiled, "optimizer", None) is None
    with pytest.raises(ValueError, match="save_format"):
        model.save(str(tmp_path / "a"), save_format="h5")
    with pytest.raises(ValueError, match="not supported"):
        model.save(str(tmp_path / "b.h5"), signatures=None)


def test_tinytf_files_give_what_tf_computed_from_them(tmp_path):
    """tools/legacy_h5_read_by_tf.py: TF 2.21 loaded the files tinytf writes and recorded its numbers."""
    import importlib.util

    tool = os.path.join(os.path.dirname(__file__), os.pardir, "tools", "legacy_h5_read_by_tf.py")
    spec = importlib.util.spec_from_file_location("legacy_h5_read_by_tf", tool)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.write(tf, str(tmp_path))
    with open(os.path.join(os.path.dirname(__file__), "tf_reference", "legacy_h5_read_by_tf.json")) as f:
        expected = json.load(f)
    got = module.read(tf, str(tmp_path))
    for key in ("trained_out", "functional_first", "functional_second", "loss", "mae", "learning_rate"):
        np.testing.assert_allclose(got[key], expected[key], rtol=2e-5, atol=1e-6, err_msg=key)
    for key in ("optimizer", "iterations", "layers", "functional_layers"):
        assert got[key] == expected[key], key
