"""ParameterServerStrategy, ClusterCoordinator and tf.distribute.Server on in-process clusters (and one ps task
in a subprocess): placement, sharding, scheduling, errors, worker failure, per-worker data, and the parameter
server tutorial's loop against the same training without a strategy. Every test stops its servers and its
coordinator's threads (checked), and every wait has a time-out."""

from __future__ import annotations

import contextlib
import operator
import os
import pickle
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import tinytf as tf
from tinytf.distribute import remote
from tinytf.distribute.server import Connection

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@contextlib.contextmanager
def cluster(num_workers=1, num_ps=1, partitioner=None):
    """(strategy, coordinator, workers, ps) on a fresh local cluster; everything stopped afterwards."""
    before = threading.active_count()
    workers, ps = tf.test.create_local_cluster(num_workers, num_ps)
    coordinator = None
    try:
        spec = tf.train.ClusterSpec({"worker": [w.target.split("//")[1] for w in workers],
                                     "ps": [p.target.split("//")[1] for p in ps]})
        resolver = tf.distribute.cluster_resolver.SimpleClusterResolver(spec, rpc_layer="grpc")
        strategy = tf.distribute.ParameterServerStrategy(resolver, variable_partitioner=partitioner)
        coordinator = tf.distribute.coordinator.ClusterCoordinator(strategy)
        yield strategy, coordinator, workers, ps
    finally:
        if coordinator is not None:
            coordinator.shutdown()
        for server in workers + ps:
            server.stop()
    deadline = time.monotonic() + 5
    while threading.active_count() > before and time.monotonic() < deadline:
        time.sleep(0.01)
    assert threading.active_count() <= before, [t.name for t in threading.enumerate()]


def sleep_then(seconds, value):
    """A tensor computed after a pause (numpy_function: the pause happens when the step runs, on its worker)."""
    def pause(v):
        time.sleep(seconds)
        return v
    return tf.numpy_function(pause, [value], value.dtype)


# --- tf.distribute.Server, ServerDef, create_local_cluster ----------------------------------------------------
def test_local_server_target_server_def_and_join():
    server = tf.distribute.Server.create_local_server()
    try:
        assert server.target.startswith("grpc://localhost:") and not server.target.endswith(":0")
        sd = server.server_def
        assert (sd.job_name, sd.task_index, sd.protocol) == ("localhost", 0, "grpc")
        assert isinstance(sd, tf.train.ServerDef)
        server.start()  # a second start does nothing
        joined = threading.Thread(target=server.join)
        joined.start()
        assert joined.is_alive()
    finally:
        server.stop()
    joined.join(timeout=5)
    assert not joined.is_alive()


def test_server_def_merge_and_overrides():
    spec = tf.train.ClusterSpec({"worker": ["localhost:1", "localhost:2"], "ps": ["localhost:3"]})
    base = tf.train.ServerDef(cluster=spec.as_cluster_def(), job_name="worker", task_index=1, protocol="grpc")
    merged = tf.train.ServerDef()
    merged.MergeFrom(base)
    assert merged == base and "task_index: 1" in repr(merged)
    with pytest.raises(TypeError):
        merged.MergeFrom(spec)
    server = tf.distribute.Server(base, job_name="ps", task_index=0, start=False)
    assert (server.server_def.job_name, server.server_def.task_index) == ("ps", 0)
    assert tf.compat.v1.train.Server is tf.distribute.Server


def test_server_runs_pickled_functions_and_raises_their_errors_over_tcp():
    with tf.distribute.Server.create_local_server() as server:
        connection = Connection(server.target)
        try:
            assert connection.call(("ping",)) == ("localhost", 0)
            payload = pickle.dumps((operator.add, (np.ones(2), np.arange(2.0)), {}))
            np.testing.assert_array_equal(connection.call(("run", ("pickled", payload))), [1.0, 2.0])
            with pytest.raises(ValueError, match="invalid literal"):
                connection.call(("run", ("pickled", pickle.dumps((int, ("x",), {})))))
            with pytest.raises(ValueError, match="unknown request"):
                connection.call(("bogus",))
        finally:
            connection.close()
    with pytest.raises(tf.errors.UnavailableError, match="could not connect"):
        Connection(server.target, timeout=1.0)


def test_create_local_cluster_names_every_task():
    workers, ps = tf.test.create_local_cluster(2, 2)
    try:
        assert len({s.target for s in workers + ps}) == 4
        spec = tf.train.ClusterSpec(workers[1].server_def.cluster)
        assert sorted(spec.jobs) == ["ps", "worker"] and spec.num_tasks("worker") == 2
        assert [(s.server_def.job_name, s.server_def.task_index) for s in workers + ps] == \
            [("worker", 0), ("worker", 1), ("ps", 0), ("ps", 1)]
        assert spec.task_address("ps", 1) == ps[1].target.split("//")[1]
    finally:
        for s in workers + ps:
            s.stop()


# --- the strategy: placement, sharding, errors ------------------------------------------------------------------
def test_variables_round_robin_on_the_ps_tasks():
    with cluster(1, 2) as (strategy, _, _, ps):
        with strategy.scope():
            made = [tf.Variable(1.0), tf.Variable([1.0, 2.0]), tf.Variable(3)]
        assert [v.device for v in made] == [f"/job:ps/replica:0/task:{i}/device:CPU:0" for i in (0, 1, 0)]
        assert len(ps[0].variables) == 2 and len(ps[1].variables) == 1  # the values live in the servers' stores
        made[0].assign_add(2.0)
        assert made[0].numpy() == 3.0 and 3.0 in [float(np.sum(a)) for a in ps[0].variables.values()]
        assert strategy.num_replicas_in_sync == 1
        assert strategy.extended.parameter_devices == ("/job:ps/replica:0/task:0/device:CPU:0",
                                                       "/job:ps/replica:0/task:1/device:CPU:0")
        assert tf.distribute.experimental.ParameterServerStrategy is tf.distribute.ParameterServerStrategy


def test_sharded_variable_reads_assigns_and_gradients():
    partitioner = tf.distribute.experimental.partitioners.FixedShardsPartitioner(3)
    with cluster(1, 2, partitioner) as (strategy, _, _, _):
        table = np.arange(21.0, dtype=np.float32).reshape(7, 3)
        with strategy.scope():
            sharded = tf.Variable(table)
            scalar = tf.Variable(2.0)  # rank 0: never sharded
        assert [v.shape.as_list() for v in sharded.variables] == [[3, 3], [2, 3], [2, 3]]
        assert [v.device[-13:] for v in sharded.variables] == ["task:0/device:CPU:0"[-13:], "task:1/device:CPU:0"[-13:],
                                                               "task:0/device:CPU:0"[-13:]]
        assert sharded.shape.as_list() == [7, 3] and scalar.device.endswith("task:1/device:CPU:0")
        np.testing.assert_array_equal(tf.nn.embedding_lookup(sharded, [6, 0, 3]).numpy(), table[[6, 0, 3]])

        @tf.function
        def graph_loss():
            return tf.reduce_sum(tf.square(tf.convert_to_tensor(sharded)) * scalar)

        def eager_loss():
            return tf.reduce_sum(tf.square(tf.convert_to_tensor(sharded)) * scalar)

        for loss_fn in (eager_loss, graph_loss):
            with tf.GradientTape() as tape:
                loss = loss_fn()
            grads = tape.gradient(loss, sharded.variables)
            np.testing.assert_allclose(loss.numpy(), np.sum(table ** 2) * 2.0)
            np.testing.assert_allclose(np.concatenate([g.numpy() for g in grads]), 4.0 * table)
        sharded.assign_add(np.ones((7, 3), np.float32))
        np.testing.assert_array_equal(sharded.numpy(), table + 1)
        sharded.assign(np.zeros((7, 3), np.float32))
        assert sharded.variables[2].numpy().sum() == 0
        with pytest.raises(ValueError, match="Cannot assign value of shape"):
            sharded.assign(np.zeros((6, 3), np.float32))


def test_strategy_and_coordinator_errors():
    spec = tf.train.ClusterSpec({"worker": ["localhost:1"]})
    with pytest.raises(ValueError, match="at least one ps"):
        tf.distribute.ParameterServerStrategy(tf.distribute.cluster_resolver.SimpleClusterResolver(spec))
    spec = tf.train.ClusterSpec({"ps": ["localhost:1"], "trainer": ["localhost:2"]})
    with pytest.raises(ValueError, match="Unrecognized task_type"):
        tf.distribute.ParameterServerStrategy(tf.distribute.cluster_resolver.SimpleClusterResolver(spec))
    with pytest.raises(ValueError, match="Only `tf.distribute.experimental.ParameterServerStrategy`"):
        tf.distribute.coordinator.ClusterCoordinator(tf.distribute.MirroredStrategy())
    with cluster() as (strategy, coordinator, _, _):
        assert tf.distribute.coordinator.ClusterCoordinator(strategy) is coordinator  # one per strategy
        assert coordinator.strategy is strategy
        with pytest.raises(TypeError, match="only accepts a `tf.function`"):
            coordinator.schedule(lambda: 1)
        remote_value = coordinator.schedule(tf.function(lambda: tf.constant(1)))
        with pytest.raises(ValueError, match="RemoteValue` used as an input"):
            coordinator.schedule(tf.function(lambda x: x), args=(remote_value,))
        with pytest.raises(NotImplementedError):
            iter(coordinator.create_per_worker_dataset(lambda: tf.data.Dataset.range(2))).__next__()
    resolver = tf.distribute.cluster_resolver.SimpleClusterResolver(tf.train.ClusterSpec(
        {"worker": ["localhost:1"], "ps": ["localhost:1"]}))
    with pytest.raises(tf.errors.UnavailableError, match="start a tf.distribute.Server"):
        tf.distribute.ParameterServerStrategy(resolver)


def test_run_works_without_a_coordinator():
    workers, ps = tf.test.create_local_cluster(1, 1)
    try:
        spec = tf.train.ClusterSpec({"worker": [workers[0].target[7:]], "ps": [ps[0].target[7:]]})
        strategy = tf.distribute.ParameterServerStrategy(tf.distribute.cluster_resolver.SimpleClusterResolver(spec))
        assert strategy.run(lambda: 1) == 1  # TF 2.21 runs it on the coordinator
        assert strategy.reduce("SUM", strategy.run(lambda: tf.constant(2.0)), axis=None).numpy() == 2.0
    finally:
        for s in workers + ps:
            s.stop()


# --- scheduling ---------------------------------------------------------------------------------------------------
def test_schedule_fetch_get_join_done():
    with cluster(1, 1) as (strategy, coordinator, _, _):
        with strategy.scope():
            v = tf.Variable(1.0)

        @tf.function
        def add(x):
            v.assign_add(x)
            return {"v": v.read_value(), "index": tf.distribute.coordinator.experimental_get_current_worker_index()}

        results = [coordinator.schedule(add, args=(tf.constant(float(i)),)) for i in range(4)]
        coordinator.join()
        assert coordinator.done()
        assert [r.fetch()["v"] for r in results] == [1.0, 2.0, 4.0, 7.0]  # one worker: in order
        got = results[3].get()
        assert isinstance(got["v"], tf.Tensor) and got["index"].numpy() == 0
        assert isinstance(results[0].fetch()["v"], np.floating)
        assert coordinator.fetch([results[1], 5]) == [{"v": 2.0, "index": 0}, 5]
        assert v.numpy() == 7.0
        with pytest.raises(RuntimeError, match="Cannot retrieve the worker index"):
            tf.distribute.coordinator.experimental_get_current_worker_index()


def test_two_workers_share_the_queue_and_report_their_index():
    with cluster(2, 1) as (strategy, coordinator, _, _):
        with strategy.scope():
            scale = tf.Variable(10)

        both_busy = threading.Barrier(2, timeout=30)  # the first two closures meet: they run on different workers
        started = []

        def meet(index):
            started.append(1)
            if len(started) <= 2:
                both_busy.wait()
            return index

        @tf.function
        def step(i):
            index = tf.numpy_function(meet, [tf.distribute.coordinator.experimental_get_current_worker_index()],
                                      tf.int64)
            return index, i * tf.cast(scale, tf.int64)

        results = [coordinator.schedule(step, args=(tf.constant(i, tf.int64),)) for i in range(12)]
        coordinator.join()
        fetched = [r.fetch() for r in results]
        assert {int(index) for index, _ in fetched} == {0, 1}  # both workers took closures from the one queue
        assert [int(value) for _, value in fetched] == [10 * i for i in range(12)]  # each closure its own args


def test_an_error_cancels_the_queued_closures_and_is_raised_once():
    with cluster(1, 1) as (strategy, coordinator, _, _):
        with strategy.scope():
            v = tf.Variable(0.0)

        release = threading.Event()  # the failing step waits until the others are queued behind it

        def wait_for_release(x):
            assert release.wait(30)
            return x

        @tf.function
        def bad():
            value = tf.numpy_function(wait_for_release, [v.read_value()], tf.float32)
            tf.debugging.assert_equal(value, 100.0, message="v is not 100")
            return v.read_value()

        @tf.function
        def good():
            return v.assign_add(1.0)

        failed = coordinator.schedule(bad)
        queued = [coordinator.schedule(good) for _ in range(3)]
        release.set()
        with pytest.raises(tf.errors.InvalidArgumentError, match="v is not 100"):
            coordinator.join()
        with pytest.raises(tf.errors.InvalidArgumentError, match="v is not 100"):
            failed.fetch()
        for r in queued:
            with pytest.raises(tf.errors.CancelledError, match="Please reschedule the function"):
                r.fetch()
        coordinator.join()  # raised once: the coordinator goes on
        assert coordinator.schedule(good).fetch() == 1.0
        failed = coordinator.schedule(bad)  # `release` is set: it fails at once
        with pytest.raises(tf.errors.InvalidArgumentError):
            failed.fetch()
        with pytest.raises(tf.errors.InvalidArgumentError):  # the next schedule raises the pending error
            coordinator.schedule(good)
        assert coordinator.done()


def test_a_lost_worker_hands_its_closures_to_the_others():
    with cluster(2, 1) as (strategy, coordinator, workers, _):
        with strategy.scope():
            v = tf.Variable(0)

        @tf.function
        def step():
            v.assign_add(1)
            return tf.distribute.coordinator.experimental_get_current_worker_index()

        workers[1].stop()
        results = [coordinator.schedule(step) for _ in range(6)]
        coordinator.join()
        assert [int(r.fetch()) for r in results] == [0] * 6 and v.numpy() == 6
        workers[0].stop()
        lost = coordinator.schedule(step)
        with pytest.raises(tf.errors.UnavailableError):
            lost.fetch()
        with pytest.raises(tf.errors.UnavailableError):
            coordinator.join()
        with pytest.raises(tf.errors.UnavailableError, match="every worker has failed"):
            coordinator.schedule(step)
        # the task restarts at its address: the coordinator reconnects and schedules on it again
        restarted = tf.distribute.Server(workers[0].server_def)
        try:
            deadline = time.monotonic() + 10
            while coordinator._workers[0].failed and time.monotonic() < deadline:
                time.sleep(0.05)
            assert int(coordinator.schedule(step).fetch()) == 0 and v.numpy() == 7
        finally:
            restarted.stop()


def test_per_worker_datasets_shard_by_worker_index():
    with cluster(2, 1) as (_, coordinator, _, _):
        def dataset_fn():
            index = tf.distribute.coordinator.experimental_get_current_worker_index()
            return tf.data.Dataset.range(8).shard(2, index).batch(2).repeat()

        per_worker = coordinator.create_per_worker_dataset(tf.function(dataset_fn))
        iterator = iter(per_worker)

        @tf.function
        def take(it):
            return tf.distribute.coordinator.experimental_get_current_worker_index(), sleep_then(0.02, next(it))

        results = [coordinator.schedule(take, args=(iterator,)) for _ in range(6)]
        coordinator.join()
        by_worker = {0: [], 1: []}
        for index, batch in (r.fetch() for r in results):
            by_worker[int(index)].append(batch.tolist())
        shards = {0: [[0, 2], [4, 6]], 1: [[1, 3], [5, 7]]}
        for index, batches in by_worker.items():  # each worker's iterator: its shard, in order, from the start
            assert batches == (shards[index] * 3)[:len(batches)]
        assert [type(x).__name__ for x in (per_worker, iterator)] == ["PerWorkerDatasetFromDatasetFunction",
                                                                      "PerWorkerDistributedIterator"]
        assert len(coordinator.fetch(tf.distribute.coordinator.PerWorkerValue([1, 2]))) == 2


# --- the tutorial's custom training loop, with synthetic data --------------------------------------------------
def _tutorial_model(tf):
    model_input = tf.keras.layers.Input(shape=(3,), dtype=tf.int64, name="model_input")
    emb_layer = tf.keras.layers.Embedding(input_dim=8, output_dim=16)
    emb_output = tf.keras.layers.GlobalAveragePooling1D()(emb_layer(model_input))  # Keras 3: no tf op on inputs
    dense_output = tf.keras.layers.Dense(units=1, activation="sigmoid",
                                         kernel_regularizer=tf.keras.regularizers.L2(1e-4))(emb_output)
    model = tf.keras.Model({"features": model_input}, dense_output)
    rng = np.random.default_rng(0)
    model.set_weights([rng.normal(0, 0.3, w.shape).astype(np.float32) for w in model.get_weights()])
    return model


def _tutorial_examples():
    """The tutorial's feature ids (3 of 7 heroes each, label 1 when "avenger", id 1, is among them), made
    without its string lookups and random module: deterministic synthetic data of the same shapes."""
    rng = np.random.default_rng(1)
    features = np.stack([rng.choice(np.arange(1, 8), 3, replace=False) for _ in range(64)]).astype(np.int64)
    labels = (features == 1).any(axis=1, keepdims=True).astype(np.int64)
    return features, labels


def _tutorial_step(tf, model, optimizer, accuracy, strategy=None):
    def replica_fn(batch_data, labels):
        with tf.GradientTape() as tape:
            pred = model(batch_data, training=True)
            per_example_loss = tf.keras.losses.BinaryCrossentropy(reduction="none")(labels, pred)
            loss = tf.nn.compute_average_loss(per_example_loss)
            model_losses = model.losses
            if model_losses:
                loss += tf.nn.scale_regularization_loss(tf.add_n(model_losses))
        gradients = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(gradients, model.trainable_variables))
        actual_pred = tf.cast(tf.greater(pred, 0.5), tf.int64)
        accuracy.update_state(labels, actual_pred)
        return loss

    @tf.function
    def step_fn(iterator):
        batch_data, labels = next(iterator)
        if strategy is None:
            return replica_fn(batch_data, labels)
        losses = strategy.run(replica_fn, args=(batch_data, labels))
        return strategy.reduce(tf.distribute.ReduceOp.SUM, losses, axis=None)
    return step_fn


def _dataset(tf):
    features, labels = _tutorial_examples()
    return tf.data.Dataset.from_tensor_slices(({"features": features}, labels)).batch(16).repeat()


def test_tutorial_loop_gives_the_weights_of_training_without_a_strategy():
    partitioner = tf.distribute.experimental.partitioners.MinSizePartitioner(min_shard_bytes=256 << 10, max_shards=2)
    with cluster(1, 2, partitioner) as (strategy, coordinator, _, _):
        with strategy.scope():
            model = _tutorial_model(tf)
            optimizer = tf.keras.optimizers.RMSprop(learning_rate=0.1)
            accuracy = tf.keras.metrics.Accuracy()
        assert [w.device[-19:] for w in model.weights] == ["task:0/device:CPU:0", "task:1/device:CPU:0",
                                                           "task:0/device:CPU:0"]
        step_fn = _tutorial_step(tf, model, optimizer, accuracy, strategy)

        @tf.function
        def per_worker_dataset_fn():
            return strategy.distribute_datasets_from_function(lambda _: _dataset(tf))

        per_worker_iterator = iter(coordinator.create_per_worker_dataset(per_worker_dataset_fn))
        accuracies = []
        for _ in range(2):
            accuracy.reset_state()
            for _ in range(3):
                coordinator.schedule(step_fn, args=(per_worker_iterator,))
            coordinator.join()
            accuracies.append(float(accuracy.result().numpy()))
        final_loss = coordinator.schedule(step_fn, args=(per_worker_iterator,)).fetch()
        distributed = [w.numpy() for w in model.weights]

    model = _tutorial_model(tf)
    optimizer = tf.keras.optimizers.RMSprop(learning_rate=0.1)
    accuracy = tf.keras.metrics.Accuracy()
    step_fn = _tutorial_step(tf, model, optimizer, accuracy)
    iterator = iter(_dataset(tf))
    expected_accuracies = []
    for _ in range(2):
        accuracy.reset_state()
        for _ in range(3):
            step_fn(iterator)
        expected_accuracies.append(float(accuracy.result().numpy()))
    expected_loss = step_fn(iterator).numpy()
    assert accuracies == expected_accuracies
    np.testing.assert_allclose(final_loss, expected_loss, rtol=1e-6)
    for got, want in zip(distributed, [w.numpy() for w in model.weights]):
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)


# --- a parameter server in another process -------------------------------------------------------------------------
def test_variables_on_a_ps_task_in_another_process_over_tcp():
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    code = ("import tinytf as tf; "
            f"tf.distribute.Server({{'ps': ['localhost:{port}']}}, job_name='ps', task_index=0).join()")
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""))
    process = subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    workers = []
    coordinator = None
    try:
        workers, _ = tf.test.create_local_cluster(1, 0)
        spec = tf.train.ClusterSpec({"worker": [workers[0].target[7:]], "ps": [f"localhost:{port}"]})
        tf.config.experimental_connect_to_cluster(spec, job_name="chief")  # waits for the ps task to answer
        assert [job.name for job in remote.current_server_def().cluster.job] == ["chief", "ps", "worker"]
        strategy = tf.distribute.ParameterServerStrategy(tf.distribute.cluster_resolver.SimpleClusterResolver(spec))
        coordinator = tf.distribute.coordinator.ClusterCoordinator(strategy)
        with strategy.scope():
            w = tf.Variable([[1.0], [2.0]])

        @tf.function
        def step(x):
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(tf.matmul(x, w) ** 2)
            w.assign_sub(0.1 * tape.gradient(loss, w))
            return loss

        x = np.array([[1.0, 1.0]], np.float32)
        losses = [coordinator.schedule(step, args=(x,)) for _ in range(2)]
        coordinator.join()
        expected_w, expected_losses = np.array([[1.0], [2.0]], np.float32), []
        for _ in range(2):
            y = x @ expected_w
            expected_losses.append(float(np.sum(y ** 2)))
            expected_w = expected_w - 0.1 * (x.T @ (2 * y))
        np.testing.assert_allclose([r.fetch() for r in losses], expected_losses, rtol=1e-6)
        np.testing.assert_allclose(w.numpy(), expected_w, rtol=1e-6)
        direct = Connection(f"localhost:{port}")  # the value is the ps process's, read without the variable
        try:
            np.testing.assert_allclose(direct.call(("read", w._key)), expected_w, rtol=1e-6)
        finally:
            direct.close()
    finally:
        if coordinator is not None:
            coordinator.shutdown()
            strategy._stores[0].connection.close()
        for server in workers:
            server.stop()
        if remote._current["server"] is not None:
            remote._current["server"].stop()
            remote._current["server"] = None
        process.kill()
        process.wait(timeout=10)


def test_connect_to_cluster_checks_its_arguments_and_the_tasks():
    with pytest.raises(ValueError, match="must be a `ClusterSpec` or a `ClusterResolver`"):
        tf.config.experimental_connect_to_cluster({"worker": ["localhost:1"]})
    with pytest.raises(ValueError, match="Must provide at least one remote_host"):
        tf.config.experimental_connect_to_host(None)
    with tf.distribute.Server.create_local_server() as server:
        address = server.target[7:]
    with pytest.raises(tf.errors.UnavailableError, match="could not connect"):
        remote.connect_to_cluster(tf.train.ClusterSpec({"worker": [address]}), job_name="worker", task_index=1,
                                  timeout=0.3)


def test_keras_fit_under_the_strategy_raises_as_tf_2_21():
    with cluster() as (strategy, _, _, _):
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])
            model.compile(tf.keras.optimizers.SGD(0.1), loss="mse")
        before = [w.copy() for w in model.get_weights()]
        x, y = np.ones((8, 3), np.float32), np.ones((8, 2), np.float32)
        for run in (lambda: model.fit(x, y, batch_size=4, verbose=0), lambda: model.evaluate(x, y, verbose=0),
                    lambda: model.predict(x, verbose=0)):
            with pytest.raises(ValueError, match="pass this dataset to ClusterCoordinator.create_per_worker_dataset"):
                run()
        for got, want in zip(model.get_weights(), before):
            np.testing.assert_array_equal(got, want)


# --- TF's docstring examples (cluster_coordinator.py, remote_value.py, parameter_server_strategy_v2.py,
# sharded_variable.py), on a local cluster with one worker so that their asserted numbers are deterministic ------
def test_docstring_examples_of_the_coordinator_and_remote_value():
    with cluster(1, 3) as (strategy, _, _, _):
        coordinator = tf.distribute.experimental.coordinator.ClusterCoordinator(strategy=strategy)

        @tf.function
        def worker_fn(iterator):
            return next(iterator)

        def per_worker_dataset_fn():
            return strategy.distribute_datasets_from_function(lambda x: tf.data.Dataset.from_tensor_slices([3] * 3))

        per_worker_iter = iter(coordinator.create_per_worker_dataset(per_worker_dataset_fn))
        assert coordinator.schedule(worker_fn, args=(per_worker_iter,)).fetch() == 3

        with strategy.scope():
            v = tf.Variable(initial_value=0)

        @tf.function
        def add_fn(iterator):
            def replica_fn(x):
                v.assign_add(x)
                return v.read_value()
            return strategy.run(replica_fn, args=(next(iterator),))

        distributed_iterator = iter(coordinator.create_per_worker_dataset(
            lambda: tf.data.Dataset.from_tensor_slices([1, 1, 1])))
        assert coordinator.fetch(coordinator.schedule(add_fn, args=(distributed_iterator,))) == 1

        with strategy.scope():
            v1 = tf.Variable(initial_value=0.0)
            v2 = tf.Variable(initial_value=1.0)

        @tf.function
        def ratio_fn():
            v1.assign_add(0.1)
            v2.assign_sub(0.2)
            return v1.read_value() / v2.read_value()

        result = coordinator.schedule(ratio_fn)
        assert result.fetch() == np.float32(0.1) / np.float32(0.8) and abs(result.fetch() - 0.125) < 1e-7
        for _ in range(3):
            result = coordinator.schedule(ratio_fn)
        coordinator.join()
        np.testing.assert_allclose(result.fetch(), 0.4 / 0.2, rtol=1e-5)

        outside = tf.Variable(initial_value=0.0)  # made outside the scope: stays with the coordinator
        with strategy.scope():
            placed = [tf.Variable(initial_value=float(i)) for i in range(4)]
        assert outside.device == "/job:localhost/replica:0/task:0/device:CPU:0"
        # v, v1, v2 took ps 0, 1, 2: round robin goes on from ps 0
        assert [p.device for p in placed] == [f"/job:ps/replica:0/task:{i}/device:CPU:0" for i in (0, 1, 2, 0)]


def test_docstring_examples_of_the_partitioners_and_sharded_variable():
    partitioners = tf.distribute.experimental.partitioners
    shape = tf.TensorShape([6, 1])
    assert partitioners.FixedShardsPartitioner(num_shards=2)(tf.TensorShape([10, 3]), tf.float32) == [2, 1]
    assert partitioners.MinSizePartitioner(min_shard_bytes=4, max_shards=2)(shape, tf.float32) == [2, 1]
    assert partitioners.MinSizePartitioner(min_shard_bytes=4, max_shards=10)(shape, tf.float32) == [6, 1]
    assert partitioners.MaxSizePartitioner(max_shard_bytes=4)(shape, tf.float32) == [6, 1]
    assert partitioners.MaxSizePartitioner(max_shard_bytes=4, max_shards=2)(shape, tf.float32) == [2, 1]
    assert partitioners.MaxSizePartitioner(max_shard_bytes=1024)(shape, tf.float32) == [1, 1]

    from tinytf.distribute.sharded_variable import ShardedVariable

    class Model(tf.Module):
        def __init__(self):
            self.sharded_variable = ShardedVariable([tf.Variable([3.0], dtype=tf.float32),
                                                     tf.Variable([2.0], dtype=tf.float32)])

        @tf.function(input_signature=[tf.TensorSpec([], dtype=tf.int32)])
        def fn(self, x):
            return tf.nn.embedding_lookup(self.sharded_variable.variables, x)

    model = Model()
    assert model.fn(1).numpy() == 2.0
    assert model.fn(0).numpy() == 3.0


def test_a_worker_of_another_process_is_refused_without_leaking_threads():
    before = threading.active_count()
    workers, ps = tf.test.create_local_cluster(1, 1)
    try:
        spec = tf.train.ClusterSpec({"worker": [workers[0].target[7:], "localhost:1"], "ps": [ps[0].target[7:]]})
        strategy = tf.distribute.ParameterServerStrategy(tf.distribute.cluster_resolver.SimpleClusterResolver(spec))
        with pytest.raises(tf.errors.UnimplementedError, match="not a tf.distribute.Server of this process"):
            tf.distribute.coordinator.ClusterCoordinator(strategy)
        assert strategy._coordinator is None
    finally:
        for s in workers + ps:
            s.stop()
    deadline = time.monotonic() + 5
    while threading.active_count() > before and time.monotonic() < deadline:
        time.sleep(0.01)
    assert threading.active_count() <= before


def test_per_worker_dataset_from_a_dataset_or_a_distributed_dataset():
    with cluster(1, 1) as (strategy, coordinator, _, _):
        take = tf.function(lambda it: next(it))
        for source in (tf.data.Dataset.range(3), strategy.experimental_distribute_dataset(tf.data.Dataset.range(3))):
            iterator = iter(coordinator.create_per_worker_dataset(source))
            assert [int(coordinator.schedule(take, args=(iterator,)).fetch()) for _ in range(2)] == [0, 1]


def test_a_stopped_server_runs_no_closure_it_already_read():
    # a request read just as the server stops (or a connection accepted then) must not run: the coordinator
    # would take its result from a task the user stopped (test_a_lost_worker_... saw index 1 under load)
    (server,) = tf.test.create_local_cluster(1, 0)[0]
    server.stop()
    status, error = server._answer(("run", ("pickled", b"")))
    assert status == "error" and "has stopped" in str(error)
