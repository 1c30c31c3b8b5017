"""model.fit / evaluate / predict: graph steps agree with run_eagerly, the partial last batch costs at most
one extra trace, a failing step leaves the state untouched, every input form (arrays, tensors, dicts,
generators), callbacks, overridden train_step (the Keras guide's pattern), and the progress output."""

from __future__ import annotations

import re

import numpy as np
import pytest

import tinytf as tf

keras = tf.keras
L = keras.layers


@pytest.fixture(autouse=True)
def fresh_names():
    keras.backend.clear_session()


def data(n=100, features=4, classes=3, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, features)).astype(np.float32)
    y = (np.abs(x[:, 0] * 3).astype(int) % classes).astype(np.int32)
    return x, y


def model_with_weights(seed=0, classes=3):
    model = keras.Sequential([keras.Input((4,)), L.Dense(8, activation="relu"), L.Dense(classes)])
    rng = np.random.default_rng(seed)
    model.set_weights([rng.uniform(-0.5, 0.5, w.shape) for w in model.get_weights()])
    return model


def compiled(run_eagerly=False, **kwargs):
    model = model_with_weights()
    model.compile(optimizer=keras.optimizers.Adam(0.01),
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True), metrics=["accuracy"],
                  run_eagerly=run_eagerly, **kwargs)
    return model


def test_graph_fit_matches_eager_fit_and_traces_twice_at_most():
    x, y = data(100)
    graph, eager = compiled(), compiled(run_eagerly=True)
    h_graph = graph.fit(x, y, batch_size=32, epochs=3, shuffle=False, verbose=0)
    h_eager = eager.fit(x, y, batch_size=32, epochs=3, shuffle=False, verbose=0)
    for key in ("loss", "accuracy"):
        np.testing.assert_allclose(h_graph.history[key], h_eager.history[key], rtol=1e-5)
    assert len(graph._train_function.experimental_get_concrete_functions()) <= 2
    np.testing.assert_allclose(graph.predict(x, verbose=0), eager.predict(x, verbose=0), rtol=1e-5, atol=1e-6)


def test_loss_decreases_and_evaluate_agrees_with_numpy():
    x, y = data(200)
    model = compiled(jit_compile=True, steps_per_execution=2)
    history = model.fit(x, y, batch_size=50, epochs=8, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
    loss, accuracy = model.evaluate(x, y, verbose=0)
    logits = model.predict(x, verbose=0)
    assert accuracy == pytest.approx(np.mean(np.argmax(logits, 1) == y), abs=1e-6)
    shifted = logits - logits.max(1, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(1, keepdims=True))
    assert loss == pytest.approx(-np.mean(log_probs[np.arange(200), y]), rel=1e-5)


def test_failed_step_leaves_weights_and_optimizer_state():
    class Flaky(keras.Sequential):
        fail = False

        def train_step(self, data):
            logs = super().train_step(data)
            if Flaky.fail:
                raise RuntimeError("step failed after the update")
            return logs

    model = Flaky([keras.Input((4,)), L.Dense(3)])
    model.compile(optimizer="adam", loss="mse", run_eagerly=True)
    x, y = data(8)
    model.fit(x, np.eye(3)[y], verbose=0, batch_size=8)
    weights = model.get_weights()
    optimizer_state = [v.numpy().copy() for v in model.optimizer.variables]
    Flaky.fail = True
    with pytest.raises(RuntimeError, match="step failed"):
        model.fit(x, np.eye(3)[y], verbose=0, batch_size=8)
    for before, after in zip(weights, model.get_weights()):
        np.testing.assert_array_equal(before, after)
    for before, after in zip(optimizer_state, model.optimizer.variables):
        np.testing.assert_array_equal(before, after.numpy())


def test_input_forms_tensors_dicts_generators():
    x, y = data(64)
    model = compiled()
    model.fit(tf.constant(x), tf.constant(y), batch_size=16, epochs=1, verbose=0)

    def batches():
        for start in range(0, 64, 16):
            yield x[start:start + 16], y[start:start + 16]

    history = model.fit(batches(), epochs=1, verbose=0)
    assert len(history.history["loss"]) == 1
    a, b = keras.Input((2,), name="a"), keras.Input((2,), name="b")
    two = keras.Model({"a": a, "b": b}, L.Dense(3)(L.Concatenate()([a, b])))
    two.compile(optimizer="sgd", loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    two.fit({"a": x[:, :2], "b": x[:, 2:]}, y, batch_size=16, verbose=0)
    assert two.predict({"a": x[:, :2], "b": x[:, 2:]}, verbose=0).shape == (64, 3)


def test_bad_input_errors():
    x, y = data(10)
    model = model_with_weights()
    with pytest.raises(ValueError, match="compile"):
        model.fit(x, y, verbose=0)
    model.compile(optimizer="sgd", loss="mse")
    with pytest.raises(ValueError, match="cardinality"):
        model.fit(x, y[:5], verbose=0)
    with pytest.raises(ValueError, match="Could not interpret optimizer"):
        model.compile(optimizer="nope")


def test_custom_train_step_as_in_the_keras_guide():
    class CustomModel(keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = L.Dense(1)
            self.loss_tracker = keras.metrics.Mean(name="loss")
            self.mae_metric = keras.metrics.MeanAbsoluteError(name="mae")

        def call(self, x):
            return self.dense(x)

        def train_step(self, data):
            x, y = data
            with tf.GradientTape() as tape:
                y_pred = self(x, training=True)
                loss = keras.losses.mean_squared_error(y, y_pred)
            gradients = tape.gradient(loss, self.trainable_variables)
            self.optimizer.apply_gradients(zip(gradients, self.trainable_variables))
            self.loss_tracker.update_state(loss)
            self.mae_metric.update_state(y, y_pred)
            return {"loss": self.loss_tracker.result(), "mae": self.mae_metric.result()}

        @property
        def metrics(self):
            return [self.loss_tracker, self.mae_metric]

    model = CustomModel()
    model.compile(optimizer="adam")
    x = np.random.default_rng(1).random((1000, 32)).astype(np.float32)
    y = np.random.default_rng(2).random((1000, 1)).astype(np.float32)
    history = model.fit(x, y, epochs=3, verbose=0)
    assert sorted(history.history) == ["loss", "mae"]
    assert history.history["loss"][-1] < history.history["loss"][0]


def test_callbacks_history_csv_and_nan(tmp_path):
    x, y = data(40)
    model = compiled()
    path = tmp_path / "log.csv"
    model.fit(x, y, batch_size=20, epochs=2, verbose=0, callbacks=[keras.callbacks.CSVLogger(str(path))])
    lines = path.read_text().splitlines()
    assert lines[0] == "epoch,accuracy,loss" and len(lines) == 3
    bad = np.full_like(x, np.nan)
    history = model.fit(bad, y, batch_size=10, epochs=3, verbose=0, callbacks=[keras.callbacks.TerminateOnNaN()])
    assert len(history.history["loss"]) == 1


def test_progress_output_line_by_line(capsys):
    x, y = data(64)
    model = compiled()
    model.fit(x, y, batch_size=16, epochs=2, verbose=1, validation_data=(x[:8], y[:8]))
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Epoch 1/2" and lines[2] == "Epoch 2/2"
    assert re.fullmatch(r"4/4 ━{20} \d+s \d+(us|ms|s)/step - accuracy: \d\.\d{4} - loss: \d\.\d{4} - "
                        r"val_accuracy: \d\.\d{4} - val_loss: \d\.\d{4}", lines[1]), lines[1]
    model.fit(x, y, batch_size=16, epochs=1, verbose=2)  # one epoch: no "Epoch 1/1" line, as in Keras 3
    line = capsys.readouterr().out.splitlines()[0]
    assert re.fullmatch(r"4/4 - \d+s - \d+(us|ms|s)/step - accuracy: \d\.\d{4} - loss: \d\.\d{4}", line), line
