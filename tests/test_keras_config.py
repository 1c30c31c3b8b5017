"""keras.config's switches beyond what the conformance programs record: where the progress bar goes with
interactive logging off (absl logging), set_backend's refusals, Lambda bytecode in .keras files both ways."""

import importlib.util
import logging
import os
import warnings

import numpy as np
import pytest

import tinytf as tf

keras = tf.keras


@pytest.fixture
def model():
    m = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    m.compile(optimizer="sgd", loss="mse")
    return m


def test_progress_goes_to_absl_logging_when_interactive_logging_is_off(model, capsys, caplog):
    x = np.ones((8, 2), np.float32)
    keras.config.disable_interactive_logging()
    try:
        with caplog.at_level(logging.INFO):
            model.fit(x, x[:, :1], batch_size=4, epochs=2, verbose=1)
    finally:
        keras.config.enable_interactive_logging()
    assert capsys.readouterr().out == ""
    messages = [r.getMessage() for r in caplog.records]
    assert "Epoch 1/2" in messages and "Epoch 2/2" in messages
    assert any(m.startswith("2/2") and "loss:" in m for m in messages)
    model.fit(x, x[:, :1], batch_size=4, epochs=2, verbose=2)
    assert "Epoch 2/2" in capsys.readouterr().out


def test_a_one_epoch_fit_prints_no_epoch_line(model, capsys):
    model.fit(np.ones((4, 2)), np.ones((4, 1)), epochs=1, verbose=2)
    out = capsys.readouterr().out
    assert "Epoch" not in out and out.startswith("1/1")


def test_set_backend_refuses_what_tinytf_cannot_run():
    before = os.environ.get("KERAS_BACKEND")
    try:
        with pytest.raises(ValueError, match="Unable to import backend : nope"):
            keras.config.set_backend("nope")
        expected = NotImplementedError if importlib.util.find_spec("jax") else ModuleNotFoundError
        with pytest.raises(expected):
            keras.config.set_backend("jax")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            keras.config.set_backend("tensorflow")
        assert any("set_backend` is dangerous" in str(w.message) for w in caught)
        assert keras.config.backend() == "tensorflow"
    finally:
        if before is None:
            os.environ.pop("KERAS_BACKEND", None)
        else:
            os.environ["KERAS_BACKEND"] = before


def test_max_epochs_caps_and_warns(model):
    keras.config.set_max_epochs(1)
    try:
        with pytest.warns(UserWarning, match="Limiting epochs to 1"):
            history = model.fit(np.ones((4, 2)), np.ones((4, 1)), epochs=4, verbose=0)
    finally:
        keras.config.set_max_epochs(None)
    assert len(history.history["loss"]) == 1


@pytest.mark.parametrize("run_eagerly", [False, True])
def test_lambda_bytecode_round_trip(tmp_path, run_eagerly):
    scale = 3.0
    model = keras.Sequential([keras.Input((2,)), keras.layers.Lambda(lambda x: x * scale, output_shape=(2,))])
    path = str(tmp_path / "m.keras")
    model.save(path)
    with pytest.raises(ValueError, match="safe_mode=False"):
        keras.models.load_model(path)
    restored = keras.models.load_model(path, safe_mode=False)
    x = np.array([[1.0, -2.0]], np.float32)
    restored.compile(loss="mse", run_eagerly=run_eagerly)
    np.testing.assert_allclose(restored.predict(x, verbose=0), x * 3.0)
    assert keras.config.in_safe_mode() is None  # the loader's scope is left as it was
    config = restored.layers[0].get_config()
    assert config["function"]["class_name"] == "__lambda__" and config["output_shape"] == (2,)


def test_lambda_from_config_outside_a_loader_is_safe():
    layer = keras.layers.Lambda(lambda x: x + 1)
    with pytest.raises(ValueError, match="Requested the deserialization of a `Lambda`"):
        keras.layers.Lambda.from_config(layer.get_config())
    rebuilt = keras.layers.Lambda.from_config(layer.get_config(), safe_mode=False)
    assert float(rebuilt(tf.constant(1.0))) == 2.0
