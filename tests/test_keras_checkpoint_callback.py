"""ModelCheckpoint, BackupAndRestore, optimizer state in .keras/.weights.h5 files and Keras 3's key names in
tf.train.Checkpoint: files written by real Keras 3 (tests/keras_files/trained_adam.*, tests/tf_files/
checkpoints/keras_adam.*) continue training here with TF's numbers; fits interrupted and resumed equal fits
that ran through; errors as Keras raises them. The conformance module keras_more compares file names, resumed
histories and checkpoint keys with TF 2.21."""

from __future__ import annotations

import os
import warnings

import numpy as np
import pytest

import tinytf as tf

keras = tf.keras
HERE = os.path.dirname(__file__)
KERAS_FILES = os.path.join(HERE, "keras_files")
TF_CHECKPOINTS = os.path.join(HERE, "tf_files", "checkpoints")


@pytest.fixture(autouse=True)
def fresh_names():
    keras.backend.clear_session()


def _model(run_eagerly=False, seed=0):
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="tanh"), keras.layers.Dense(1)])
    rng = np.random.default_rng(seed)
    model.set_weights([rng.uniform(-0.5, 0.5, w.shape).astype(np.float32) for w in model.get_weights()])
    model.compile(optimizer=keras.optimizers.Adam(0.05), loss="mse", metrics=["mae"], run_eagerly=run_eagerly)
    return model


def _data():
    x = np.sin(np.arange(72) * 0.37).reshape(24, 3).astype(np.float32)
    return x, (x @ np.array([[1.0], [-2.0], [0.5]], np.float32) + 0.3).astype(np.float32)


# --- ModelCheckpoint -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("run_eagerly", [False, True])
def test_best_only_saves_on_improvement_and_the_file_is_the_best_model(tmp_path, run_eagerly):
    model = _model(run_eagerly)
    x, y = _data()
    target = tmp_path / "ckpt" / "m-{epoch:02d}-{val_loss:.3f}.keras"
    callback = keras.callbacks.ModelCheckpoint(str(target), save_best_only=True)
    history = model.fit(x, y, batch_size=8, epochs=4, validation_data=(x[:8], y[:8]), shuffle=False, verbose=0,
                        callbacks=[callback])
    val_loss = history.history["val_loss"]
    improved = [i for i, v in enumerate(val_loss) if v < min(val_loss[:i], default=np.inf)]
    expected = sorted(f"m-{i + 1:02d}-{val_loss[i]:.3f}.keras" for i in improved)
    assert sorted(os.listdir(tmp_path / "ckpt")) == expected
    assert callback.best == pytest.approx(min(val_loss))
    best = keras.models.load_model(tmp_path / "ckpt" / expected[-1])
    if improved[-1] == 3:
        np.testing.assert_allclose(best.predict(x, verbose=0), model.predict(x, verbose=0), rtol=1e-6)


def test_weights_every_n_batches_and_max_mode(tmp_path, capsys):
    model = _model()
    x, y = _data()
    weights = keras.callbacks.ModelCheckpoint(str(tmp_path / "w{epoch}-{batch}.weights.h5"), save_weights_only=True,
                                              save_freq=4)
    highest = keras.callbacks.ModelCheckpoint(str(tmp_path / "hi.keras"), monitor="mae", mode="max",
                                              save_best_only=True, verbose=1)
    last = keras.callbacks.ModelCheckpoint(str(tmp_path / "last" / "e{epoch}.weights.h5"), save_weights_only=True,
                                           save_freq=3)
    model.fit(x, y, batch_size=8, epochs=3, shuffle=False, verbose=0, callbacks=[weights, highest, last])
    # 3 batches an epoch: batches 4 and 8 of the run are epoch 2 batch 1 and epoch 3 batch 2
    assert sorted(f for f in os.listdir(tmp_path) if f.endswith(".h5")) == ["w2-1.weights.h5", "w3-2.weights.h5"]
    text = capsys.readouterr().out
    assert "Epoch 1: mae improved from None to" in text and "saving model to" in text
    assert "mae did not improve from" in text
    twin = _model(seed=5)
    assert sorted(os.listdir(tmp_path / "last")) == ["e1.weights.h5", "e2.weights.h5", "e3.weights.h5"]
    twin.load_weights(tmp_path / "last" / "e3.weights.h5")
    np.testing.assert_allclose(twin.predict(x, verbose=0), model.predict(x, verbose=0), rtol=1e-6)


def test_checkpoint_arguments_and_monitors_are_checked(tmp_path):
    with pytest.raises(ValueError, match="must end in `.keras`"):
        keras.callbacks.ModelCheckpoint(str(tmp_path / "m.ckpt"))
    with pytest.raises(ValueError, match="must end in `.weights.h5`"):
        keras.callbacks.ModelCheckpoint(str(tmp_path / "m.keras"), save_weights_only=True)
    with pytest.raises(ValueError, match="Unrecognized save_freq"):
        keras.callbacks.ModelCheckpoint(str(tmp_path / "m.keras"), save_freq=2.5)
    model = _model()
    x, y = _data()
    unknown = keras.callbacks.ModelCheckpoint(str(tmp_path / "m.keras"), monitor="val_f2", save_best_only=True)
    with pytest.raises(ValueError, match="maximized or minimized"):
        model.fit(x, y, epochs=1, verbose=0, callbacks=[unknown])
    missing = keras.callbacks.ModelCheckpoint(str(tmp_path / "m.keras"), monitor="val_loss", save_best_only=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model.fit(x, y, epochs=1, verbose=0, callbacks=[missing])   # no validation data: saved anyway, warned
    assert any("Can save best model only with val_loss available" in str(w.message) for w in caught)
    assert os.path.exists(tmp_path / "m.keras")
    os.makedirs(tmp_path / "dir.keras")
    with pytest.raises(OSError, match="non-directory filepath"):
        model.fit(x, y, epochs=1, verbose=0,
                  callbacks=[keras.callbacks.ModelCheckpoint(str(tmp_path / "dir.keras"))])
    with pytest.raises(KeyError, match="Failed to format this callback filepath"):
        model.fit(x, y, epochs=1, verbose=0,
                  callbacks=[keras.callbacks.ModelCheckpoint(str(tmp_path / "{nothing}.keras"))])


# --- BackupAndRestore ----------------------------------------------------------------------------------------
class _Interrupt(keras.callbacks.Callback):
    def __init__(self, epoch):
        super().__init__()
        self.epoch = epoch

    def on_epoch_end(self, epoch, logs=None):
        if epoch == self.epoch:
            raise KeyboardInterrupt


@pytest.mark.parametrize("run_eagerly", [False, True])
def test_an_interrupted_fit_resumes_to_the_same_result(tmp_path, run_eagerly):
    x, y = _data()
    straight = _model(run_eagerly)
    full = straight.fit(x, y, batch_size=8, epochs=4, shuffle=False, verbose=0).history
    backup = str(tmp_path / "backup")
    first = _model(run_eagerly)
    with pytest.raises(KeyboardInterrupt):
        first.fit(x, y, batch_size=8, epochs=4, shuffle=False, verbose=0,
                  callbacks=[keras.callbacks.BackupAndRestore(backup), _Interrupt(1)])
    second = _model(run_eagerly, seed=9)          # a fresh process would start from other weights
    resumed = second.fit(x, y, batch_size=8, epochs=4, shuffle=False, verbose=0,
                         callbacks=[keras.callbacks.BackupAndRestore(backup)])
    assert resumed.epoch == [2, 3]
    np.testing.assert_allclose(resumed.history["loss"], full["loss"][2:], rtol=1e-5)
    assert int(second.optimizer.iterations.numpy()) == int(straight.optimizer.iterations.numpy())
    for a, b in zip(second.get_weights(), straight.get_weights()):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-7)
    assert not os.path.exists(backup)             # deleted once fit finished


def test_double_checkpoint_falls_back_to_the_previous_backup(tmp_path):
    x, y = _data()
    backup = str(tmp_path / "backup")
    model = _model()
    with pytest.raises(KeyboardInterrupt):
        model.fit(x, y, batch_size=8, epochs=4, shuffle=False, verbose=0,
                  callbacks=[keras.callbacks.BackupAndRestore(backup, double_checkpoint=True), _Interrupt(2)])
    assert sorted(os.listdir(backup)) == ["latest.weights.h5", "latest.weights.h5.bkp", "training_metadata.json",
                                          "training_metadata.json.bkp"]
    with open(os.path.join(backup, "latest.weights.h5"), "wb") as f:
        f.write(b"killed while writing")
    again = _model(seed=4)
    resumed = again.fit(x, y, batch_size=8, epochs=4, shuffle=False, verbose=0,
                        callbacks=[keras.callbacks.BackupAndRestore(backup, double_checkpoint=True)])
    assert resumed.epoch == [2, 3]                # the previous backup: after epoch 2 (index 1)
    with pytest.raises(ValueError, match="Empty `backup_dir`"):
        keras.callbacks.BackupAndRestore("")


def test_batch_level_backups_record_the_batch(tmp_path):
    x, y = _data()
    backup = tmp_path / "b"
    model = _model()

    class StopMidway(keras.callbacks.Callback):
        def on_train_batch_end(self, batch, logs=None):
            if batch == 1:
                raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        model.fit(x, y, batch_size=8, epochs=2, verbose=0,
                  callbacks=[keras.callbacks.BackupAndRestore(str(backup), save_freq=2), StopMidway()])
    with open(backup / "training_metadata.json") as f:
        assert f.read() == '{"epoch": 0, "batch": 1}'


# --- optimizer state in files ----------------------------------------------------------------------------------
def test_a_keras_3_file_continues_training_with_its_adam_state():
    expected = np.load(os.path.join(KERAS_FILES, "trained_adam.npz"))
    model = keras.models.load_model(os.path.join(KERAS_FILES, "trained_adam.keras"))
    assert int(model.optimizer.iterations.numpy()) == 8
    assert model.optimizer.get_slot(model.trainable_variables[0], "velocity").numpy().any()
    history = model.fit(expected["x"], expected["y"], batch_size=4, epochs=2, shuffle=False, verbose=0).history
    np.testing.assert_allclose(history["loss"], expected["loss"], rtol=2e-5)
    np.testing.assert_allclose(history["mae"], expected["mae"], rtol=2e-5)
    np.testing.assert_allclose(np.concatenate([w.reshape(-1) for w in model.get_weights()]), expected["weights"],
                               rtol=1e-5, atol=1e-6)


def test_save_then_load_continues_exactly_and_uncompiled_loads_skip_the_state(tmp_path):
    x, y = _data()
    model = _model()
    model.fit(x, y, batch_size=8, epochs=2, shuffle=False, verbose=0)
    model.save(tmp_path / "m.keras")
    restored = keras.models.load_model(tmp_path / "m.keras")
    assert restored.optimizer.get_config() == model.optimizer.get_config()
    for a, b in zip(model.optimizer.variables, restored.optimizer.variables):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    h1 = model.fit(x, y, batch_size=8, epochs=2, shuffle=False, verbose=0).history
    h2 = restored.fit(x, y, batch_size=8, epochs=2, shuffle=False, verbose=0).history
    assert h1 == h2
    bare = keras.models.load_model(tmp_path / "m.keras", compile=False)
    assert not bare.compiled
    fresh = _model()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model.save_weights(tmp_path / "m.weights.h5")
        fresh.load_weights(tmp_path / "m.weights.h5")   # its Adam has no slots yet: state skipped, as Keras does
    assert fresh.optimizer.name.startswith("adam_")  # unnamed optimizers are made unique, as in Keras 3
    assert any(f"Skipping variable loading for optimizer '{fresh.optimizer.name}'" in str(w.message) for w in caught)
    assert int(fresh.optimizer.iterations.numpy()) == 0


# --- tf.train.Checkpoint with Keras 3's keys -------------------------------------------------------------------
def test_a_tf_written_keras_checkpoint_restores_model_and_adam():
    values = np.load(os.path.join(TF_CHECKPOINTS, "keras_adam.npz"))
    arrays = [values[f"arr_{i}"] for i in range(len(values.files))]
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="relu"), keras.layers.Dense(2)])
    model.compile(optimizer=keras.optimizers.Adam(0.05), loss="mse")
    model.optimizer.build(model.trainable_variables)
    status = tf.train.Checkpoint(model=model, optimizer=model.optimizer).read(
        os.path.join(TF_CHECKPOINTS, "keras_adam"))
    status.assert_consumed()
    weights = model.weights
    for variable, value in zip(weights + model.optimizer.variables, arrays):
        np.testing.assert_array_equal(variable.numpy(), value)
    assert int(model.optimizer.iterations.numpy()) == 2


def test_checkpoint_keys_are_keras_3s(tmp_path):
    model = _model()
    x, y = _data()
    model.fit(x, y, batch_size=24, epochs=1, verbose=0)
    path = tf.train.Checkpoint(model=model, optimizer=model.optimizer).write(str(tmp_path / "c"))
    names = [name for name, _ in tf.train.list_variables(path)]
    assert "optimizer/_trainable_variables/0/.ATTRIBUTES/VARIABLE_VALUE" in names
    assert "model/optimizer/_trainable_variables/0/.ATTRIBUTES/VARIABLE_VALUE" not in names  # each value once
    plain = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="tanh"), keras.layers.Dense(1)])
    plain.set_weights(model.get_weights())
    lone = tf.train.Checkpoint(model=plain).write(str(tmp_path / "lone"))
    names = [name for name, _ in tf.train.list_variables(lone)]
    assert "model/_functional/_operations/1/_kernel/.ATTRIBUTES/VARIABLE_VALUE" in names
    # restored before the layers exist: the values wait for them (Keras' delayed restoration)
    later = keras.Sequential([keras.layers.Dense(4, activation="tanh"), keras.layers.Dense(1)])
    tf.train.Checkpoint(model=later).read(lone)
    later(tf.constant(x[:1]))
    np.testing.assert_allclose(later.predict(x, verbose=0), model.predict(x, verbose=0), rtol=1e-6)
