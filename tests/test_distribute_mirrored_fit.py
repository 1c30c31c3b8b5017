"""Keras fit / evaluate / predict under MirroredStrategy: each global batch split over thread replicas, gradients
all-reduced (weighted by each shard's share of the batch) and applied once, metrics kept per replica
(SyncOnRead) and read summed. Everything must equal one replica on the same global batches: weights, the
logged loss and accuracy, evaluate and predict, for 1, 2 and 4 replicas, eagerly and as tf.function."""

import threading

import numpy as np
import pytest

import tinytf as tf
from tinytf.distribute.sync_on_read import SyncOnReadVariable


def _data(n=70, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 5)).astype(np.float32)
    y = (x @ rng.normal(size=(5, 3))).argmax(axis=1).astype(np.int32)
    return x, y


def _model(seed=1):
    model = tf.keras.Sequential([tf.keras.Input((5,)), tf.keras.layers.Dense(7, activation="tanh"),
                                 tf.keras.layers.Dense(3)])
    rng = np.random.default_rng(seed)
    model.set_weights([rng.normal(scale=0.5, size=w.shape).astype(np.float32) for w in model.get_weights()])
    return model


def _fit(replicas, run_eagerly=False, n=70, batch_size=16, epochs=2):
    """The fitted model, its history, evaluate and predict results; replicas=None: no strategy at all."""
    x, y = _data(n)
    strategy = tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(replicas)]) if replicas else None
    scope = strategy.scope() if strategy else tf.distribute.get_strategy().scope()
    with scope:
        model = _model()
        model.compile(optimizer=tf.keras.optimizers.Adam(0.05), run_eagerly=run_eagerly,
                      loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                      metrics=["accuracy", tf.keras.metrics.SparseCategoricalCrossentropy(from_logits=True)])
    history = model.fit(x, y, batch_size=batch_size, epochs=epochs, shuffle=False, verbose=0,
                        validation_data=(x[:20], y[:20]))
    evaluated = model.evaluate(x, y, batch_size=batch_size, verbose=0, return_dict=True)
    predicted = model.predict(x[:11], batch_size=4, verbose=0)
    return model, history.history, evaluated, predicted


@pytest.fixture(scope="module")
def one_process():
    return _fit(None)


@pytest.mark.parametrize("run_eagerly", [False, True])
@pytest.mark.parametrize("replicas", [1, 2, 4])
def test_fit_equals_one_replica_on_the_same_global_batches(one_process, replicas, run_eagerly):
    model, history, evaluated, predicted = _fit(replicas, run_eagerly)
    want_model, want_history, want_evaluated, want_predicted = one_process
    for got, want in zip(model.get_weights(), want_model.get_weights()):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    assert sorted(history) == sorted(want_history)
    for key in want_history:  # 70 = 4 x 16 + 6: the last batch's shards are uneven (2, 2, 1, 1 on 4 replicas)
        np.testing.assert_allclose(history[key], want_history[key], rtol=1e-5, atol=1e-6, err_msg=key)
    for key in want_evaluated:
        np.testing.assert_allclose(evaluated[key], want_evaluated[key], rtol=1e-5, atol=1e-6, err_msg=key)
    np.testing.assert_allclose(predicted, want_predicted, rtol=1e-5, atol=1e-6)
    assert predicted.shape == (11, 3)


def test_fit_matches_numpy_sgd_on_a_linear_model():
    """Against numpy: one SGD step of a linear least-squares model on a global batch of 6 over 4 replicas
    (shards 2, 2, 1, 1), the gradient of the mean over the whole batch."""
    rng = np.random.default_rng(3)
    x, y = rng.normal(size=(6, 3)).astype(np.float32), rng.normal(size=(6, 1)).astype(np.float32)
    w0 = rng.normal(size=(3, 1)).astype(np.float32)
    strategy = tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(4)])
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1, use_bias=False)])
        model.set_weights([w0])
        model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    history = model.fit(x, y, batch_size=6, epochs=1, verbose=0)
    residual = x @ w0 - y
    np.testing.assert_allclose(model.get_weights()[0], w0 - 0.1 * (2 / 6) * x.T @ residual, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(history.history["loss"][0], np.mean(residual ** 2), rtol=1e-5)


def test_a_replica_with_an_empty_shard_joins_the_all_reduce():
    """33 examples in batches of 16: the last batch has one example, so replica 1 gets none."""
    model, history, _, _ = _fit(2, n=33, epochs=1)
    want, want_history, _, _ = _fit(None, n=33, epochs=1)
    for got, expected in zip(model.get_weights(), want.get_weights()):
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(history["loss"], want_history["loss"], rtol=1e-5)


def test_metric_state_is_kept_per_replica_and_read_summed():
    model, history, _, _ = _fit(2, epochs=1)
    tracker = model.metrics[0]
    assert isinstance(tracker.total, SyncOnReadVariable) and len(tracker.total._copies) == 2
    assert tracker.total.synchronization == tf.VariableSynchronization.ON_READ
    assert tracker.total.aggregation == tf.VariableAggregation.SUM
    # after evaluate(70 examples in 16s): replica 0 saw 8+8+8+8+3, replica 1 the same
    counts = [float(c) for c in tracker.count._copies]
    assert counts == [35.0, 35.0]
    assert float(tracker.count.numpy()) == 70.0
    tracker.reset_state()  # a cross-replica assignment: every copy gets value / replicas
    assert [float(c) for c in tracker.count._copies] == [0.0, 0.0]


def test_sync_on_read_variable_in_and_out_of_the_replicas():
    strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    total = SyncOnReadVariable(strategy, 1.0, tf.VariableAggregation.SUM)
    mean = SyncOnReadVariable(strategy, 1.0, tf.VariableAggregation.MEAN)
    first = SyncOnReadVariable(strategy, 1.0, tf.VariableAggregation.ONLY_FIRST_REPLICA)

    @tf.function
    def step():
        replica = tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32)
        for v in (total, mean, first):
            v.assign_add(replica + 1.0)
        return total.read_value()

    local = strategy.experimental_local_results(strategy.run(step))
    assert [float(v) for v in local] == [2.0, 3.0]  # each replica reads its own copy
    assert float(total.numpy()) == 5.0 and float(mean.numpy()) == 2.5 and float(first.numpy()) == 2.0
    total.assign(8.0)
    assert [float(c) for c in total._copies] == [4.0, 4.0] and float(total.numpy()) == 8.0
    count = SyncOnReadVariable(strategy, 0, tf.VariableAggregation.SUM, dtype=tf.int64)
    count.assign(7)  # an integer split: 4 + 3, so the sum reads back exactly
    assert [int(c) for c in count._copies] == [4, 3] and int(count.numpy()) == 7
    with pytest.raises(ValueError, match="unsupported aggregation"):
        SyncOnReadVariable(strategy, 1.0, tf.VariableAggregation.NONE)


def test_each_replica_runs_on_its_own_thread_with_its_shard(monkeypatch):
    monkeypatch.setenv("TINYTF_MIRRORED_REPLICAS", "threads")  # (replicas as processes: test_distribute_processes)
    seen = []

    class Recording(tf.keras.Sequential):
        def train_step(self, data):
            seen.append((threading.current_thread().name, int(data[0].shape[0])))
            return super().train_step(data)

    strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1", "/cpu:2"])
    with strategy.scope():
        model = Recording([tf.keras.Input((5,)), tf.keras.layers.Dense(3)])
        model.compile(optimizer="sgd", loss="mse", run_eagerly=True)
    x, y = _data(10)
    model.fit(x, np.eye(3, dtype=np.float32)[y], batch_size=10, epochs=1, verbose=0)
    assert sorted(seen) == [("MainThread", 4), ("replica-1", 3), ("replica-2", 3)]


def test_a_custom_train_step_log_that_is_no_metric_is_averaged_over_the_replicas():
    class Custom(tf.keras.Sequential):
        def train_step(self, data):
            logs = super().train_step(data)
            return {**logs, "replica": tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group,
                                               tf.float32)}

    strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    with strategy.scope():
        model = Custom([tf.keras.Input((5,)), tf.keras.layers.Dense(3)])
        model.compile(optimizer="sgd", loss="mse")
    x, y = _data(8)
    batch_logs = []
    callback = tf.keras.callbacks.LambdaCallback(on_train_batch_end=lambda batch, logs: batch_logs.append(logs))
    model.fit(x, np.eye(3, dtype=np.float32)[y], batch_size=4, epochs=2, verbose=0, callbacks=[callback])
    assert [float(logs["replica"]) for logs in batch_logs] == [0.5] * 4  # replica ids 0 and 1, every step


def test_a_failing_fit_step_leaves_the_weights_and_the_strategy_usable():
    strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    with strategy.scope():
        model = _model()
        model.compile(optimizer="adam", loss="mse")
    before = [w.copy() for w in model.get_weights()]
    x, _ = _data(8)
    with pytest.raises(ValueError):
        model.fit(x, np.zeros((8, 4), np.float32), batch_size=8, epochs=1, verbose=0)  # 4 targets, 3 outputs
    for got, want in zip(model.get_weights(), before):
        np.testing.assert_array_equal(got, want)
    model.fit(x, np.zeros((8, 3), np.float32), batch_size=8, epochs=1, verbose=0)
    assert not np.array_equal(model.get_weights()[0], before[0])


def _fit_inputs(replicas, **fit_args):
    strategy = tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(replicas)])
    with strategy.scope():
        model = _model()
        model.compile(optimizer=tf.keras.optimizers.SGD(0.1), metrics=["accuracy"],
                      loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    history = model.fit(verbose=0, shuffle=False, **fit_args)
    return model.get_weights(), history.history


@pytest.mark.parametrize("how", ["dataset", "sample_weight_and_validation_split", "generator"])
def test_fit_inputs_other_than_arrays_split_the_same(how):
    x, y = _data(40)
    weights = np.linspace(0.2, 2.0, 40).astype(np.float32)
    if how == "dataset":
        make = lambda: {"x": tf.data.Dataset.from_tensor_slices((x, y)).batch(12), "epochs": 2}
    elif how == "generator":
        make = lambda: {"x": ((x[i:i + 12], y[i:i + 12]) for i in range(0, 40, 12)), "epochs": 1}
    else:
        make = lambda: {"x": x, "y": y, "sample_weight": weights, "batch_size": 12, "validation_split": 0.25,
                        "epochs": 2}
    want_weights, want_history = _fit_inputs(1, **make())
    got_weights, got_history = _fit_inputs(2, **make())
    for got, want in zip(got_weights, want_weights):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    for key in want_history:
        np.testing.assert_allclose(got_history[key], want_history[key], rtol=1e-5, atol=1e-6, err_msg=key)


def test_a_functional_model_with_dict_inputs_and_two_outputs():
    x, y = _data(24)

    def run(replicas):
        strategy = tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(replicas)])
        with strategy.scope():
            a, b = tf.keras.Input((3,), name="a"), tf.keras.Input((2,), name="b")
            hidden = tf.keras.layers.Dense(4, activation="relu")(tf.keras.layers.Concatenate()([a, b]))
            outputs = [tf.keras.layers.Dense(3)(hidden), tf.keras.layers.Dense(1)(hidden)]
            model = tf.keras.Model({"a": a, "b": b}, outputs)
            rng = np.random.default_rng(5)
            model.set_weights([rng.normal(scale=0.5, size=w.shape).astype(np.float32) for w in model.get_weights()])
            model.compile(optimizer="adam", loss=["mse", "mae"], loss_weights=[1.0, 0.5])
        inputs = {"a": x[:, :3], "b": x[:, 3:]}
        targets = [np.eye(3, dtype=np.float32)[y], x[:, :1] * 2.0]
        history = model.fit(inputs, targets, batch_size=10, epochs=2, verbose=0, shuffle=False)
        return model.get_weights(), history.history["loss"], model.predict(inputs, verbose=0)

    want, got = run(1), run(2)
    for g, w in zip(got[0], want[0]):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got[1], want[1], rtol=1e-5)
    for g, w in zip(got[2], want[2]):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("use_function", [False, True])
def test_a_metric_updated_inside_strategy_run_counts_every_replica(use_function):
    """The custom-loop pattern: train_loss.update_state(per_example) in each replica, result() outside. Each
    replica adds to its own copy (no two threads add to one variable), the result reads their sum."""
    strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1", "/cpu:2"])
    with strategy.scope():
        mean = tf.keras.metrics.Mean()
        accuracy = tf.keras.metrics.SparseCategoricalAccuracy()

    def step(values, labels, logits):
        mean.update_state(values)
        accuracy.update_state(labels, logits)
        return mean.result()

    step = tf.function(step) if use_function else step
    rng = np.random.default_rng(4)
    values = rng.normal(size=(50,)).astype(np.float32)
    labels, logits = rng.integers(0, 3, size=50).astype(np.int32), rng.normal(size=(50, 3)).astype(np.float32)
    dataset = tf.data.Dataset.from_tensor_slices((values, labels, logits)).batch(10)
    for batch in strategy.experimental_distribute_dataset(dataset):
        strategy.run(step, args=batch)
    np.testing.assert_allclose(float(mean.result()), values.mean(), rtol=1e-5)
    np.testing.assert_allclose(float(accuracy.result()), np.mean(logits.argmax(1) == labels), rtol=1e-6)
    assert float(mean.count.numpy()) == 50.0
