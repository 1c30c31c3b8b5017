"""MirroredStrategy with its replicas as processes (tinytf/distribute/process_replicas.py): replica 0 is this
process, the others are forked and sum gradients through shared memory. They must train to one process's
weights on the same global batches, give the thread replicas' numbers bit for bit, keep the per-replica state
(metrics, BatchNormalization's statistics) that cross-replica reads see, follow this process's variables when
they change between steps, stop cleanly, and turn a dead or failing replica into an error here."""

import os
import signal
import time

import numpy as np
import pytest

import tinytf as tf
from tests.distribute_helpers import GLOBAL_BATCH, data, make_model, per_example_loss, reference_weights
from tinytf.distribute.process_collective import ReplicaProcessError
from tinytf.distribute.replica_backend import Calibration


def _strategy(monkeypatch, replicas=2, backend="processes"):
    monkeypatch.setenv("TINYTF_MIRRORED_REPLICAS", backend)
    return tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(replicas)])


def _gone(pids) -> bool:
    for pid in pids:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            continue
        return False
    return True


def _custom_loop(strategy, use_function=True, optimizer="adam"):
    x, y = data()
    with strategy.scope():
        model = make_model()
        opt = tf.keras.optimizers.get(optimizer)

    def step(bx, by):
        with tf.GradientTape() as tape:
            loss = tf.nn.compute_average_loss(per_example_loss(by, model(bx, training=True)))
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    step = tf.function(step) if use_function else step
    dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(GLOBAL_BATCH)
    losses = [float(strategy.reduce("SUM", strategy.run(step, args=batch), axis=None))
              for batch in strategy.experimental_distribute_dataset(dataset)]
    return [w.numpy() for w in model.weights], losses


@pytest.mark.parametrize("replicas,use_function", [(2, True), (2, False), (4, True)])
def test_process_replicas_train_to_one_process_weights(monkeypatch, replicas, use_function):
    strategy = _strategy(monkeypatch, replicas)
    weights, losses = _custom_loop(strategy, use_function)
    assert len(strategy.replica_pids) == replicas - 1  # they really ran as processes
    for got, want in zip(weights, reference_weights()):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    pids = strategy.replica_pids
    strategy.shutdown()
    assert strategy.replica_pids == [] and _gone(pids)


def test_processes_give_the_thread_replicas_numbers_bit_for_bit(monkeypatch):
    threads = _custom_loop(_strategy(monkeypatch, 2, "threads"), optimizer="sgd")
    strategy = _strategy(monkeypatch, 2, "processes")
    processes = _custom_loop(strategy, optimizer="sgd")
    strategy.shutdown()
    assert threads[1] == processes[1]
    for a, b in zip(threads[0], processes[0]):
        np.testing.assert_array_equal(a, b)


def _keras_fit(strategy, batchnorm=False):
    tf.keras.utils.set_random_seed(3)
    x, y = data(70, seed=4)
    with strategy.scope():
        layers = [tf.keras.Input((5,)), tf.keras.layers.Dense(6, activation="relu")]
        if batchnorm:
            layers.append(tf.keras.layers.BatchNormalization())
        model = tf.keras.Sequential([*layers, tf.keras.layers.Dense(3)])
        model.compile(optimizer="adam", metrics=["accuracy"],
                      loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    history = model.fit(x, y, batch_size=16, epochs=2, verbose=0, validation_split=0.2)  # uneven last batches
    evaluated = model.evaluate(x, y, batch_size=15, verbose=0, return_dict=True)
    predicted = model.predict(x[:9], batch_size=4, verbose=0)
    local = [[np.asarray(c) for c in strategy.experimental_local_results(v)] for v in model.weights]
    return history.history, evaluated, predicted, local


@pytest.mark.parametrize("batchnorm", [False, True])
def test_keras_fit_evaluate_predict_as_processes_equal_threads(monkeypatch, batchnorm):
    want = _keras_fit(_strategy(monkeypatch, 2, "threads"), batchnorm)
    strategy = _strategy(monkeypatch, 2, "processes")
    got = _keras_fit(strategy, batchnorm)
    assert strategy.replica_pids
    strategy.shutdown()
    assert got[0] == want[0] and got[1] == want[1]  # logs: every replica's metric state reached this process
    np.testing.assert_array_equal(got[2], want[2])
    assert len(got[3]) == len(want[3])
    for got_copies, want_copies in zip(got[3], want[3]):  # BatchNormalization: each replica's own statistics
        for a, b in zip(got_copies, want_copies):
            np.testing.assert_array_equal(a, b)
    if batchnorm:  # the moving mean: the replicas' copies really differ
        assert not np.array_equal(*want[3][4])


def test_a_change_made_here_between_steps_reaches_the_replica_processes(monkeypatch):
    strategy = _strategy(monkeypatch)
    with strategy.scope():
        v = tf.Variable([1.0, 2.0])

    @tf.function
    def read():
        return v.read_value() * 1.0

    assert [r.numpy().tolist() for r in strategy.experimental_local_results(strategy.run(read))] == [[1, 2]] * 2
    first = strategy.replica_pids
    v.assign([5.0, 6.0])  # cross-replica: the forked copies are out of date, new processes are forked
    assert [r.numpy().tolist() for r in strategy.experimental_local_results(strategy.run(read))] == [[5, 6]] * 2
    assert strategy.replica_pids != first and _gone(first)
    again = strategy.replica_pids
    strategy.run(read)
    assert strategy.replica_pids == again  # nothing changed: the same processes
    strategy.shutdown()


def test_variable_aggregation_in_replica_processes(monkeypatch):
    strategy = _strategy(monkeypatch)
    with strategy.scope():
        steps = tf.Variable(0, aggregation=tf.VariableAggregation.ONLY_FIRST_REPLICA)
        total = tf.Variable(0.0, aggregation=tf.VariableAggregation.SUM)
        own = tf.Variable(0.0)

    @tf.function
    def step():
        replica = tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32)
        steps.assign_add(1)
        total.assign_add(replica + 1.0)
        own.assign(replica * 10.0)
        return own.read_value()

    out = strategy.run(step)
    assert [float(r) for r in strategy.experimental_local_results(out)] == [0.0, 10.0]
    assert (steps.numpy(), total.numpy(), own.numpy()) == (1, 3.0, 0.0)
    assert [float(v) for v in strategy.experimental_local_results(own)] == [0.0, 10.0]
    strategy.shutdown()


def test_a_failing_replica_process_raises_its_error_here_and_the_next_step_recovers(monkeypatch):
    strategy = _strategy(monkeypatch)
    with strategy.scope():
        v = tf.Variable([1.0, 2.0])
        opt = tf.keras.optimizers.SGD(1.0)

    def step(fail):
        if tf.distribute.get_replica_context().replica_id_in_sync_group.numpy() == 1 and fail:
            raise ValueError("replica 1 refuses")
        opt.apply_gradients([(tf.constant([1.0, 1.0]), v)])
        return v.read_value()

    with pytest.raises(ValueError, match="replica 1 refuses"):
        strategy.run(step, args=(True,))
    assert strategy.replica_pids == []  # stopped
    np.testing.assert_array_equal(v.numpy(), [1.0, 2.0])  # replica 0 waited at the all-reduce: no update
    strategy.run(step, args=(False,))
    np.testing.assert_array_equal(v.numpy(), [-1.0, 0.0])  # both replicas' gradients, summed
    strategy.shutdown()


def test_a_replica_process_that_dies_mid_step_raises_instead_of_hanging(monkeypatch):
    strategy = _strategy(monkeypatch)
    with strategy.scope():
        v = tf.Variable([1.0, 2.0])
        opt = tf.keras.optimizers.SGD(1.0)

    def step(die):
        if tf.distribute.get_replica_context().replica_id_in_sync_group.numpy() == 1 and die:
            os.kill(os.getpid(), signal.SIGKILL)  # replica 0 is waiting for it at the all-reduce
        opt.apply_gradients([(tf.constant([1.0, 1.0]), v)])

    strategy.run(step, args=(False,))
    pids = strategy.replica_pids
    start = time.monotonic()
    with pytest.raises(ReplicaProcessError, match=r"replica 1 \(pid \d+\) died \(signal SIGKILL\)"):
        strategy.run(step, args=(True,))
    assert time.monotonic() - start < 8.0
    assert strategy.replica_pids == [] and _gone(pids)
    strategy.run(step, args=(False,))  # new processes, forked from this process's variables
    np.testing.assert_array_equal(v.numpy(), [-3.0, -2.0])
    strategy.shutdown()


def test_a_replica_process_killed_between_steps_is_replaced(monkeypatch):
    strategy = _strategy(monkeypatch)
    with strategy.scope():
        v = tf.Variable(1.0)

    @tf.function
    def step():
        return tf.distribute.get_replica_context().all_reduce("SUM", v.read_value())

    strategy.run(step)
    (pid,) = strategy.replica_pids
    os.kill(pid, signal.SIGKILL)
    time.sleep(0.3)
    try:  # found dead before the step is sent (the usual case): new processes are forked and the step runs
        out = strategy.run(step)
    except ReplicaProcessError:  # still dying when the step was sent: the error, and the next step recovers
        out = strategy.run(step)
    assert [float(r) for r in strategy.experimental_local_results(out)] == [2.0, 2.0]
    assert strategy.replica_pids != [pid]
    strategy.shutdown()


def test_no_process_or_shared_memory_is_left_behind(monkeypatch):
    import gc
    import multiprocessing

    before = set(os.listdir("/dev/shm")) if os.path.isdir("/dev/shm") else set()
    strategy = _strategy(monkeypatch, 3)
    _custom_loop(strategy)
    pids = strategy.replica_pids
    assert len(pids) == 2
    del strategy
    gc.collect()  # the strategy's finalizer stops its processes
    deadline = time.monotonic() + 5
    while not _gone(pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _gone(pids)
    assert not [p for p in multiprocessing.active_children() if p.pid in pids]
    after = set(os.listdir("/dev/shm")) if os.path.isdir("/dev/shm") else set()
    assert after <= before  # the buffer is an anonymous mapping, the semaphores are unlinked at creation


def test_auto_measures_both_backends_then_keeps_the_faster(monkeypatch):
    calibration = Calibration()
    order = []
    while not calibration.decided:
        backend = calibration.next_backend(True)
        order.append(backend)
        calibration.record(backend, 0.01 if backend == "threads" else 0.02)
    assert order == ["threads"] * 5 + ["processes"] * 5 and calibration.choice == "threads"
    assert calibration.next_backend(False) == "threads"
    faster = Calibration()
    while not faster.decided:
        backend = faster.next_backend(True)
        faster.record(backend, 0.03 if backend == "threads" else 0.01)
    assert faster.choice == "processes"
    assert Calibration().next_backend(False) == "threads"  # evaluate before training decided: threads

    strategy = _strategy(monkeypatch, 2, "auto")
    weights, _ = _custom_loop(strategy)  # 4 steps: all still measuring threads
    assert strategy.replica_pids == []
    for got, want in zip(weights, reference_weights()):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    monkeypatch.setenv("TINYTF_MIRRORED_REPLICAS", "fork")
    with pytest.raises(ValueError, match="TINYTF_MIRRORED_REPLICAS must be one of"):
        tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])


def test_auto_runs_a_fit_through_both_backends_with_one_process_weights(monkeypatch):
    x, y = data(GLOBAL_BATCH * 12, seed=5)

    def fit(strategy):
        with strategy.scope():
            model = make_model()
            model.compile(optimizer="sgd", loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
        model.fit(x, y, batch_size=GLOBAL_BATCH, epochs=1, shuffle=False, verbose=0)
        return model.get_weights()

    strategy = _strategy(monkeypatch, 2, "auto")
    got = fit(strategy)  # 12 steps: 5 as threads, 5 as processes, then the faster
    calibration = next(iter(strategy._calibration.values()))
    assert calibration.decided and set(calibration.medians) == {"threads", "processes"}
    strategy.shutdown()
    want = fit(tf.distribute.get_strategy())
    for a, b in zip(got, want):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("backend", ["threads", "processes"])
def test_keras_weight_aggregation_as_tf_2_21_combines_it(monkeypatch, backend):
    """Keras 3's assign_add is assign(value + delta): TF 2.21 sums the replicas' new values (recorded in
    tests/conformance/distribute_keras_aggregation.py); a tf.Variable's SUM sums the deltas."""
    strategy = _strategy(monkeypatch, 2, backend)
    with strategy.scope():
        layer = tf.keras.layers.Layer()
        keras_sum = layer.add_weight(shape=(), initializer="zeros", trainable=False, aggregation="sum")
        keras_mean = layer.add_weight(shape=(), initializer="zeros", trainable=False, aggregation="mean")
        plain_sum = tf.Variable(0.0, aggregation=tf.VariableAggregation.SUM)
    assert (keras_sum.aggregation, keras_mean.aggregation, keras_sum.synchronization) == ("sum", "mean", "auto")

    @tf.function
    def step():
        replica = tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32)
        for variable in (keras_sum, keras_mean, plain_sum):
            variable.assign_add(replica + 1.0)

    for _ in range(2):
        strategy.run(step)
    assert (keras_sum.numpy(), keras_mean.numpy(), plain_sum.numpy()) == (9.0, 3.0, 6.0)
    strategy.shutdown()
    with pytest.raises(ValueError, match="Invalid value for argument `aggregation`"):
        layer.add_weight(shape=(), aggregation="bogus")
    with pytest.raises(TypeError, match="unexpected keyword argument 'synchronization'"):
        layer.add_weight(shape=(), synchronization="on_read")


def test_replica_processes_with_empty_shards_in_the_last_batch(monkeypatch):
    """13 examples in batches of 6 over 3 replicas: the last batch of 1 leaves replicas 1 and 2 (processes)
    nothing, and they join the all-reduce with zero gradients, as thread replicas do."""
    x, y = data(13, seed=8)

    def fit(backend):
        strategy = _strategy(monkeypatch, 3, backend)
        with strategy.scope():
            model = make_model()
            model.compile(optimizer="adam", metrics=["accuracy"],
                          loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
        history = model.fit(x, y, batch_size=6, epochs=2, shuffle=False, verbose=0)
        pids = strategy.replica_pids
        strategy.shutdown()
        return history.history, model.get_weights(), pids

    threads, processes = fit("threads"), fit("processes")
    assert len(processes[2]) == 2 and threads[0] == processes[0]
    for a, b in zip(threads[1], processes[1]):
        np.testing.assert_array_equal(a, b)


def test_a_result_that_cannot_leave_its_replica_process_is_a_clear_error(monkeypatch):
    strategy = _strategy(monkeypatch)
    with pytest.raises(TypeError, match="replica 1's result cannot be sent to replica 0"):
        strategy.run(lambda: (lambda: 0))  # a function is no value to send back
    assert strategy.replica_pids == []
