"""fit's machinery and Keras 3 details around it: the step as tf.functions of flat tensors (one per batch
structure), whole-batch slicing (every sample once per epoch, shuffled or not), the backup that restores
weights and optimizer state when a step fails while its graph runs, logs made Python only for callbacks that
read them; and Keras 3's merges of masked values, unique optimizer names, predict with steps_per_execution
and ModelCheckpoint(mode="auto"). Values against TF 2.21 are in the conformance module keras_fit_more."""

from __future__ import annotations

import os
import warnings

import numpy as np
import pytest

import tinytf as tf
from tinytf.keras.callbacks import CallbackList

keras = tf.keras


@pytest.fixture(autouse=True)
def fresh_names():
    keras.backend.clear_session()


def _regression(n=20, features=3, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, features)).astype(np.float32)
    return x, (x @ np.arange(1, features + 1, dtype=np.float32))[:, None]


def _dense_model(features=3, optimizer="adam", **compile_kwargs):
    model = keras.Sequential([keras.Input((features,)), keras.layers.Dense(1)])
    model.compile(optimizer=optimizer, loss="mse", **compile_kwargs)
    return model


# --- the step as tf.functions of flat tensors ------------------------------------------------------------------
class SumOfInputs(keras.Model):
    """A model whose train step adds up every input sample it sees (to check batching) and trains a Dense."""

    def __init__(self):
        super().__init__()
        self.dense = keras.layers.Dense(1)
        self.seen = tf.Variable(np.zeros(3, np.float32), trainable=False)
        self.count = tf.Variable(0.0, trainable=False)

    def call(self, x):
        return self.dense(x)

    def train_step(self, data):
        x, y = data
        self.seen.assign_add(tf.reduce_sum(x, axis=0))
        self.count.assign_add(tf.cast(tf.shape(x)[0], tf.float32))
        return super().train_step(data)


@pytest.mark.parametrize("shuffle", [False, True])
@pytest.mark.parametrize("run_eagerly", [False, True])
def test_every_sample_once_per_epoch_and_two_traces_at_most(shuffle, run_eagerly):
    x, y = _regression(23)
    model = SumOfInputs()
    model(x[:1])  # built before fit: the traces below create no variable
    model.compile(optimizer="sgd", loss="mse", run_eagerly=run_eagerly)
    model.fit(x.astype(np.float64), y, batch_size=5, epochs=3, shuffle=shuffle, verbose=0)  # float64: cast once
    np.testing.assert_allclose(model.seen.numpy(), 3 * x.sum(0), rtol=1e-5, atol=1e-5)
    assert float(model.count.numpy()) == 3 * 23
    if not run_eagerly:  # full batches and the short last one, however many epochs
        assert model._train_function.experimental_get_tracing_count() <= 2


def test_dict_inputs_and_generators_with_changing_structure():
    inputs = {"a": keras.Input((2,), name="a"), "b": keras.Input((1,), name="b")}
    out = keras.layers.Dense(1)(keras.layers.Concatenate()([inputs["a"], inputs["b"]]))
    model = keras.Model(inputs, out)
    model.compile(optimizer="sgd", loss="mse")
    x = {"a": np.ones((8, 2), np.float32), "b": np.zeros((8, 1), np.float32)}
    y = np.ones((8, 1), np.float32)
    model.fit(x, y, batch_size=3, epochs=2, verbose=0)
    assert model._train_function.experimental_get_tracing_count() == 1

    def batches():
        yield x["a"][:4], y[:4]  # wrong structure for this model: a tuple of one array
        yield {"a": x["a"][:4], "b": x["b"][:4]}, y[:4], np.ones(4, np.float32)  # with sample weights

    with pytest.raises(Exception):  # noqa: B017 - the first batch does not fit the model's inputs
        model.fit(batches(), epochs=1, verbose=0)
    model.fit(iter([({"a": x["a"][:4], "b": x["b"][:4]}, y[:4], np.ones(4, np.float32)),
                    ({"a": x["a"][:4], "b": x["b"][:4]}, y[:4])]), epochs=1, verbose=0)
    assert model._train_function.experimental_get_tracing_count() == 2  # one more structure: with weights
    np.testing.assert_allclose(model.train_on_batch(x, y), model.test_on_batch(x, y), rtol=0.5)


def test_the_step_function_takes_flat_positional_tensors():
    x, y = _regression()
    model = _dense_model()
    model.fit(x, y, batch_size=10, epochs=1, verbose=0)
    (concrete,) = model._train_function.experimental_get_concrete_functions()
    assert concrete.code.split("def step(", 1)[1].startswith("data_0, data_1,")


class FailsWhileRunning(keras.Model):
    """A train step whose graph raises after the optimizer has updated the weights, when y holds a NaN."""

    def __init__(self):
        super().__init__()
        self.dense = keras.layers.Dense(1)

    def call(self, x):
        return self.dense(x)

    def train_step(self, data):
        logs = super().train_step(data)
        tf.debugging.check_numerics(data[1], "labels")  # runs after the assignments of the update
        return logs


@pytest.mark.parametrize("run_eagerly", [False, True])
def test_a_step_failing_after_its_update_leaves_weights_and_optimizer_state(run_eagerly):
    x, y = _regression(12)
    model = FailsWhileRunning()
    model.compile(optimizer="adam", loss="mse", run_eagerly=run_eagerly)
    model.fit(x, y, batch_size=4, epochs=1, verbose=0)
    weights = [w.copy() for w in model.get_weights()]
    state = [v.numpy().copy() for v in model.optimizer.variables]
    bad = y.copy()
    bad[6] = np.nan  # the second batch fails
    with pytest.raises(tf.errors.InvalidArgumentError, match="labels"):
        model.fit(x, bad, batch_size=4, epochs=1, shuffle=False, verbose=0)
    after_first = [w for w in model.get_weights()]
    assert int(model.optimizer.iterations.numpy()) == int(state[0]) + 1  # the first batch trained
    model.set_weights(weights)
    for variable, value in zip(model.optimizer.variables, state):
        variable.assign(value)
    model.fit(x[:4], y[:4], batch_size=4, epochs=1, shuffle=False, verbose=0)
    for a, b in zip(after_first, model.get_weights()):  # the failed batch left exactly the first batch's result
        np.testing.assert_array_equal(a, b)


# --- callbacks and logs ---------------------------------------------------------------------------------------
class OldStyle(keras.callbacks.Callback):
    """Overrides only the old names, which Keras 3's train-batch hooks still call."""

    def __init__(self):
        super().__init__()
        self.begins, self.ends = [], []

    def on_batch_begin(self, batch, logs=None):
        self.begins.append(batch)

    def on_batch_end(self, batch, logs=None):
        self.ends.append((batch, logs))


def test_batch_logs_are_python_floats_for_readers_and_old_hook_names_are_called():
    x, y = _regression()
    model = _dense_model(metrics=["mae"])
    old = OldStyle()
    model.fit(x, y, batch_size=10, epochs=2, verbose=0, callbacks=[old])
    assert old.begins == [0, 1, 0, 1]
    assert [b for b, _ in old.ends] == [0, 1, 0, 1]
    for _, logs in old.ends:
        assert sorted(logs) == ["loss", "mae"] and all(type(v) is float for v in logs.values())


def test_callback_list_calls_only_the_callbacks_that_override_a_hook():
    history, old = keras.callbacks.History(), OldStyle()
    lam = keras.callbacks.LambdaCallback(on_epoch_end=lambda epoch, logs: None)
    callbacks = CallbackList([history, old, lam])
    assert callbacks.readers("on_train_batch_end") == [old]
    assert callbacks.readers("on_test_batch_end") == []
    assert callbacks.readers("on_epoch_end") == [history, lam]
    seen = []

    class Reads(keras.callbacks.Callback):
        def on_test_batch_end(self, batch, logs=None):
            seen.append(logs)

    callbacks.append(Reads())
    callbacks.on_test_batch_end(3, {"loss": tf.constant(2.5), "nested": {"mae": np.float32(1.5)}})
    assert seen == [{"loss": 2.5, "mae": 1.5}]  # Keras 3's pythonify_logs: flattened, floats


# --- Keras 3 details ------------------------------------------------------------------------------------------
def _masked_embedding(table):
    """An Embedding(mask_zero=True) with fixed weights."""
    layer = keras.layers.Embedding(len(table), table.shape[1], mask_zero=True)
    layer.build((None, None))
    layer.set_weights([table])
    return layer


@pytest.mark.parametrize("in_graph", [False, True])
def test_maximum_minimum_multiply_ignore_masked_values(in_graph):
    table = np.array([[9.0, -9.0], [1.0, 2.0], [-3.0, 0.5], [4.0, -1.0]], np.float32)
    ta, tb = [[1, 0, 2, 0], [3, 3, 0, 1]], [[0, 0, 1, 2], [2, 0, 0, 3]]  # both masked at [0, 1] and [1, 1]
    embed = _masked_embedding(table)
    merges = [keras.layers.Maximum(), keras.layers.Minimum(), keras.layers.Multiply(), keras.layers.Add()]

    def run(tokens_a, tokens_b):
        a, b = embed(tokens_a), embed(tokens_b)
        outs = [merge([a, b]) for merge in merges]
        return outs, [o._keras_mask for o in outs]

    outs, masks = (tf.function(run) if in_graph else run)(tf.constant(ta), tf.constant(tb))
    a, b = table[np.array(ta)], table[np.array(tb)]
    ma, mb = (np.array(ta) != 0)[..., None], (np.array(tb) != 0)[..., None]
    b_seen = np.where(mb, b, a)  # where b is masked it takes a's value, and where a is masked, b's
    a_seen = np.where(ma, a, b_seen)
    either = ma | mb
    expected = [np.maximum(a_seen, b_seen), np.minimum(a_seen, b_seen),
                np.where(either, np.where(ma, a, 1) * np.where(mb, b, 1), 0), a + b]
    for out, want in zip(outs, expected):
        np.testing.assert_allclose(out.numpy(), want)
    for mask in masks:
        np.testing.assert_array_equal(mask.numpy(), either[..., 0])


def test_merges_with_one_unmasked_input_give_no_mask():
    table = np.arange(8, dtype=np.float32).reshape(4, 2) - 3
    a = _masked_embedding(table)(tf.constant([[1, 0, 2]]))
    plain = tf.constant(table[[[0, 3, 3]]])
    maximum = keras.layers.Maximum()([a, plain])
    product = keras.layers.Multiply()([a, plain])
    assert maximum._keras_mask is None and product._keras_mask is None
    values = table[[[1, 0, 2]]]
    np.testing.assert_allclose(maximum.numpy(), np.maximum(values, table[[[0, 3, 3]]]))
    keep = np.array([[1, 0, 1]], bool)[..., None]  # the masked step counts as 1 in the product
    np.testing.assert_allclose(product.numpy(), np.where(keep, values, 1) * table[[[0, 3, 3]]])


def test_optimizer_names_are_unique_per_class_until_clear_session():
    opts = keras.optimizers
    assert [opts.Adam().name, opts.Adam().name, opts.SGD().name, opts.RMSprop().name, opts.AdamW().name] == \
        ["adam", "adam_1", "sgd", "rm_sprop", "adam_w"]
    assert opts.Adam(name="adam").name == "adam" and opts.get("adam").name == "adam_2"
    model = _dense_model()
    assert model.optimizer.name == "adam_3"
    model.fit(*_regression(4), verbose=0)
    assert all(v.name.startswith("adam_3/") for v in model.optimizer.variables)
    keras.backend.clear_session()
    assert opts.Adam().name == "adam"


@pytest.mark.parametrize("run_eagerly", [False, True])
def test_predict_runs_steps_per_execution_batches_per_call(run_eagerly):
    x, _ = _regression(11)
    reference = _dense_model().predict(x, batch_size=2, verbose=0)
    model = _dense_model(steps_per_execution=3, run_eagerly=run_eagerly)
    model.set_weights(_dense_model().get_weights())
    seen = []
    hooks = keras.callbacks.LambdaCallback(
        on_predict_batch_begin=lambda batch, logs: seen.append(("begin", batch)),
        on_predict_batch_end=lambda batch, logs: seen.append(("end", batch, np.shape(logs["outputs"]))))
    model.stop_predicting = True  # reset by predict, as in Keras 3
    predicted = model.predict(x, batch_size=2, verbose=0, callbacks=[hooks])
    keras.backend.clear_session()
    weights_model = _dense_model()
    weights_model.set_weights(model.get_weights())
    np.testing.assert_allclose(predicted, weights_model.predict(x, batch_size=2, verbose=0), rtol=1e-6)
    assert reference.shape == predicted.shape == (11, 1)
    assert seen == [("begin", 0), ("end", 2, (6, 1)), ("begin", 3), ("end", 5, (5, 1))]
    if not run_eagerly:
        assert model._predict_multi_function.experimental_get_tracing_count() == 2  # 3 batches; 2 (last short)


def test_predict_stops_when_a_callback_says_so():
    x, _ = _regression(10)
    model = _dense_model(steps_per_execution=2)

    class StopAfterFirst(keras.callbacks.Callback):
        def on_predict_batch_end(self, batch, logs=None):
            self.model.stop_predicting = True

    assert model.predict(x, batch_size=2, verbose=0, callbacks=[StopAfterFirst()]).shape == (4, 1)


def _checkpoint_direction(tmp_path, monitor, metrics, mode="auto"):
    x, y = _regression(16)
    y = (y > 0).astype(np.float32)
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1, activation="sigmoid")])
    model.compile(optimizer="sgd", loss="binary_crossentropy", metrics=metrics)
    checkpoint = keras.callbacks.ModelCheckpoint(os.fspath(tmp_path / "m{epoch}.weights.h5"), monitor=monitor,
                                                 mode=mode, save_best_only=True, save_weights_only=True)
    model.fit(x, y, batch_size=8, epochs=1, validation_data=(x, y), verbose=0, callbacks=[checkpoint])
    return checkpoint.monitor_op.__name__


@pytest.mark.parametrize("monitor, metrics, direction", [
    ("val_loss", [], "less"), ("loss", [], "less"), ("val_accuracy", ["accuracy"], "greater"),
    ("acc", ["acc"], "greater"), ("val_mae", ["mae"], "less"), ("val_auc", [keras.metrics.AUC(name="auc")], "greater"),
    ("precision", ["precision"], "greater"), ("val_binary_crossentropy", ["binary_crossentropy"], "less"),
    ("mean_squared_error", [keras.losses.mean_squared_error], "less"),  # a loss function as a metric: down
])
def test_model_checkpoint_auto_mode_reads_the_metric_direction(tmp_path, monitor, metrics, direction):
    assert _checkpoint_direction(tmp_path, monitor, metrics) == direction


def test_model_checkpoint_auto_mode_refuses_metrics_without_a_direction(tmp_path):
    def score(y_true, y_pred):
        return tf.reduce_mean(y_pred)

    with pytest.raises(ValueError, match="isn't able to automatically determine"):
        _checkpoint_direction(tmp_path, "val_score", [score])
    with pytest.raises(ValueError, match="monitor=val_accuracy_typo"):
        _checkpoint_direction(tmp_path, "val_accuracy_typo", ["accuracy"])
    assert _checkpoint_direction(tmp_path, "val_score", [score], mode="max") == "greater"


class _Terminal:
    """A stream that says it is a terminal and counts the redraws."""

    def __init__(self):
        self.text = ""

    def isatty(self):
        return True

    def write(self, text):
        self.text += text

    def flush(self):
        pass


def test_the_progress_bar_redraws_a_terminal_at_most_every_interval():
    from tinytf.keras.callbacks.progbar import Progbar

    throttled, every = _Terminal(), _Terminal()
    bars = [Progbar(200, stream=throttled), Progbar(200, interval=0.0, stream=every)]
    for step in range(1, 201):
        for bar in bars:
            bar.update(step, [("loss", 1.0 / step)])
    assert every.text.count("\r") == 200
    assert 2 <= throttled.text.count("\r") < 50  # the first step, the last, and one per 0.05 s between
    assert throttled.text.endswith("\n") and "200/200" in throttled.text.rsplit("\r", 1)[1]
    assert "loss: 0.0050" in throttled.text.rsplit("\r", 1)[1]


def test_early_stopping_and_plateau_read_the_metric_direction_too():
    x, y = _regression(16)
    y = (y > 0).astype(np.float32)

    def fit(monitor, metrics, mode="auto"):
        keras.backend.clear_session()
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1, activation="sigmoid")])
        model.compile(optimizer="sgd", loss="binary_crossentropy", metrics=metrics)
        early = keras.callbacks.EarlyStopping(monitor=monitor, mode=mode, patience=5)
        plateau = keras.callbacks.ReduceLROnPlateau(monitor=monitor, mode=mode, patience=5)
        model.fit(x, y, batch_size=8, epochs=2, validation_data=(x, y), verbose=0, callbacks=[early, plateau])
        return early.monitor_op.__name__, plateau.monitor_op.__name__, early.best

    assert fit("val_accuracy", ["accuracy"])[:2] == ("greater", "greater")
    assert fit("val_loss", [])[:2] == ("less", "less")
    assert fit("val_mae", ["mae"])[:2] == ("less", "less")

    def score(y_true, y_pred):
        return tf.reduce_mean(y_pred)

    with pytest.raises(ValueError, match="EarlyStopping callback received monitor=val_score"):
        fit("val_score", [score])
    assert fit("val_score", [score], mode="max")[:2] == ("greater", "greater")
    with pytest.warns(UserWarning, match="mode 'up' is unknown"):
        assert fit("loss", [], mode="up")[:2] == ("less", "less")


def test_fit_warns_that_a_datasets_order_is_its_own_as_keras_does():
    model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    data = tf.data.Dataset.from_tensor_slices((np.ones((4, 2), "float32"), np.ones((4, 1), "float32"))).batch(2)
    with pytest.warns(UserWarning, match="`shuffle=True` was passed, but will be ignored"):
        model.fit(data, verbose=0)  # fit's default shuffle=True
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model.fit(data, shuffle=False, verbose=0)
