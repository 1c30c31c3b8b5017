"""OneDeviceStrategy, strategy.extended, the cross-device algorithms, distributed iterators, RunOptions,
experimental_set_strategy, the cluster resolvers and MultiWorkerMirroredStrategy (one worker here; two and
three worker processes meeting over TCP), each checked against numpy or against the same program without a
strategy. TF 2.21's own results for these are in tests/conformance/distribute_strategies_more.py."""

from __future__ import annotations

import json
import os
import socket

import numpy as np
import pytest

import tinytf as tf


def _replica_values(strategy, rows):
    """A PerReplica value whose replica i holds rows[i]."""
    table = tf.constant(np.asarray(rows, np.float32))

    def fn():
        return tf.gather(table, tf.distribute.get_replica_context().replica_id_in_sync_group)

    return strategy.run(fn)


@pytest.fixture(scope="module")
def four():
    return tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(4)])


ROWS = np.random.default_rng(0).normal(size=(4, 5)).astype(np.float32) * 1e3


@pytest.mark.parametrize("ops_class", [tf.distribute.ReductionToOneDevice, tf.distribute.HierarchicalCopyAllReduce,
                                       tf.distribute.NcclAllReduce])
def test_cross_device_ops_sum_mean_like_numpy_in_their_order(four, ops_class):
    values = _replica_values(four, ROWS)
    ops = ops_class()
    if ops_class is tf.distribute.HierarchicalCopyAllReduce:  # its tree: (0 + 1) + (2 + 3)
        expected = (ROWS[0] + ROWS[1]) + (ROWS[2] + ROWS[3])
    else:
        expected = ((ROWS[0] + ROWS[1]) + ROWS[2]) + ROWS[3]
    total = ops.reduce(tf.distribute.ReduceOp.SUM, values, destinations="/cpu:0")
    np.testing.assert_array_equal(total.numpy(), expected)
    mean = ops.reduce(tf.distribute.ReduceOp.MEAN, values, destinations=values)
    assert type(mean).__name__ == "Mirrored" and len(mean.values) == 4
    for component in mean.values:
        np.testing.assert_array_equal(component.numpy(), expected / np.float32(4))
    pairs = ops.batch_reduce(tf.distribute.ReduceOp.SUM, [(values, "/cpu:0"), (values, ["/cpu:0", "/cpu:1"])])
    np.testing.assert_array_equal(pairs[0].numpy(), expected)
    assert len(pairs[1].values) == 2
    broadcast = ops.broadcast(tf.constant(2.0), values)
    assert [float(v) for v in broadcast.values] == [2.0] * 4

    @tf.function
    def in_graph(a, b, c, d):
        from tinytf.distribute.values import PerReplica

        return ops.reduce(tf.distribute.ReduceOp.SUM, PerReplica([a, b, c, d]), destinations="/cpu:0")

    np.testing.assert_array_equal(in_graph(*[tf.constant(r) for r in ROWS]).numpy(), expected)


def test_cross_device_ops_errors_and_accumulation_fn(four):
    values = _replica_values(four, ROWS)
    with pytest.raises(ValueError, match="must be Reduce.SUM or Reduce.MEAN"):
        tf.distribute.ReductionToOneDevice().reduce("SUM", values, "/cpu:0")
    with pytest.raises(ValueError, match="destinations can not be None"):
        tf.distribute.ReductionToOneDevice().reduce(tf.distribute.ReduceOp.SUM, values, None)
    with pytest.raises(ValueError, match="list or tuple of tuples"):
        tf.distribute.NcclAllReduce().batch_reduce(tf.distribute.ReduceOp.SUM, [values])
    with pytest.raises(ValueError, match="HierarchicalCopy requires num_packs >= 0"):
        tf.distribute.HierarchicalCopyAllReduce(num_packs=-1)
    maxed = tf.distribute.ReductionToOneDevice(accumulation_fn=lambda parts: tf.reduce_max(tf.stack(parts), 0))
    np.testing.assert_array_equal(maxed.reduce(tf.distribute.ReduceOp.SUM, values, "/cpu:0").numpy(), ROWS.max(0))
    ints = _replica_values(four, [[1], [2], [3], [5]])
    assert tf.distribute.NcclAllReduce().reduce(tf.distribute.ReduceOp.MEAN, tf.cast(ints.values[0], tf.int32),
                                                "/cpu:0").numpy().tolist() == [1]


def test_mirrored_strategy_takes_cross_device_ops_for_its_reductions():
    tree = tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(4)],
                                          cross_device_ops=tf.distribute.HierarchicalCopyAllReduce())
    values = _replica_values(tree, ROWS)
    np.testing.assert_array_equal(tree.reduce("SUM", values, axis=None).numpy(),
                                  (ROWS[0] + ROWS[1]) + (ROWS[2] + ROWS[3]))
    np.testing.assert_array_equal(tree.extended.reduce_to("SUM", values, "/cpu:0").numpy(),
                                  (ROWS[0] + ROWS[1]) + (ROWS[2] + ROWS[3]))
    with pytest.raises(TypeError, match="CrossDeviceOps"):
        tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"], cross_device_ops="nccl")


def test_extended_update_and_scope_variables(four):
    with four.scope():
        v = tf.Variable([1.0, 2.0])
        with four.extended.colocate_vars_with(v):
            w = tf.Variable(0.0)
    assert four.extended.variable_created_in_scope(v) and four.extended.variable_created_in_scope(w)
    assert not four.extended.variable_created_in_scope(tf.Variable(1.0))
    result = four.extended.update(v, lambda var, delta: var.assign_add(delta), args=(tf.constant([1.0, 1.0]),))
    assert type(result).__name__ == "Mirrored" and len(result.values) == 4
    np.testing.assert_array_equal(v.numpy(), [2.0, 3.0])
    assert [r.numpy().tolist() for r in four.experimental_local_results(v)] == [[2.0, 3.0]] * 4
    ungrouped = four.extended.update(v, lambda var: var.assign(var * 2.0), group=False)
    assert isinstance(ungrouped, tuple) and len(ungrouped) == 4
    with pytest.raises(RuntimeError, match="cross-replica context"):
        four.run(lambda: four.extended.update(v, lambda var: var.assign(var)))
    with pytest.raises(RuntimeError, match="strategy.scope"):
        four.extended.colocate_vars_with(v).__enter__()
    ids = four.extended.call_for_each_replica(lambda: tf.distribute.get_replica_context().replica_id_in_sync_group)
    assert [int(i) for i in ids.values] == [0, 1, 2, 3]


def test_one_device_strategy_custom_loop_equals_no_strategy():
    x = np.random.default_rng(1).normal(size=(24, 3)).astype(np.float32)
    y = x @ np.array([[1.0], [-2.0], [0.5]], np.float32)

    def train(strategy):
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1, kernel_initializer="zeros")])
            optimizer = tf.keras.optimizers.Adam(0.1)
        dataset = strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((x, y)).batch(8))

        @tf.function
        def step(xb, yb):
            with tf.GradientTape() as tape:
                loss = tf.nn.compute_average_loss(tf.reduce_mean(tf.square(model(xb) - yb), 1), global_batch_size=8)
            optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
            return loss

        iterator = iter(dataset)
        losses = []
        while True:
            optional = iterator.get_next_as_optional()
            if not bool(optional.has_value()):
                break
            losses.append(float(strategy.reduce("SUM", strategy.run(step, args=optional.get_value()), axis=None)))
        return model.get_weights(), losses

    weights, losses = train(tf.distribute.OneDeviceStrategy("/cpu:0"))
    plain_weights, plain_losses = train(tf.distribute.get_strategy())
    assert losses == plain_losses and len(losses) == 3
    for a, b in zip(weights, plain_weights):
        np.testing.assert_array_equal(a, b)
    on_gpu_name = tf.distribute.OneDeviceStrategy("/gpu:0")  # TF accepts it without a GPU: runs on the CPU
    assert on_gpu_name.extended.worker_devices == ("/job:localhost/replica:0/task:0/device:GPU:0",)
    assert float(on_gpu_name.run(lambda: tf.constant(1.0) + 1)) == 2.0


def test_distributed_iterator_end_and_types(four):
    iterator = iter(four.experimental_distribute_dataset(tf.data.Dataset.range(5).batch(4)))
    assert isinstance(iterator, tf.distribute.DistributedIterator)
    assert [v.numpy().tolist() for v in iterator.get_next().values] == [[0], [1], [2], [3]]
    assert [v.numpy().tolist() for v in next(iterator).values] == [[4], [], [], []]
    assert not bool(iterator.get_next_as_optional().has_value())
    with pytest.raises(tf.errors.OutOfRangeError, match="End of sequence"):
        iterator.get_next()


def test_experimental_set_strategy_makes_variables_of_the_strategy():
    strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    tf.distribute.experimental_set_strategy(strategy)
    try:
        v = tf.Variable(1.0)
        assert tf.distribute.get_strategy() is strategy and strategy.extended.variable_created_in_scope(v)
        assert len(strategy.experimental_local_results(v)) == 2
        with pytest.raises(ValueError, match="Mixing different"):
            tf.distribute.OneDeviceStrategy("/cpu:0").scope().__enter__()
    finally:
        tf.distribute.experimental_set_strategy(None)
    assert not tf.distribute.has_strategy()
    with tf.distribute.OneDeviceStrategy("/cpu:0").scope():
        with pytest.raises(RuntimeError, match="inside a `tf.distribute.Strategy` scope"):
            tf.distribute.experimental_set_strategy(strategy)


def test_multi_worker_rejects_a_task_outside_its_cluster(monkeypatch):
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": {"worker": ["localhost:1", "localhost:2"]},
                                                "task": {"type": "evaluator", "index": 0}}))
    with pytest.raises(ValueError, match="not a worker of the cluster"):
        tf.distribute.MultiWorkerMirroredStrategy()
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": {"worker": ["localhost:1"], "ps": ["localhost:2"]},
                                                "task": {"type": "worker", "index": 0}}))
    with pytest.raises(ValueError, match="ps"):
        tf.distribute.MultiWorkerMirroredStrategy()
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": {"worker": ["localhost:1"]},
                                                "task": {"type": "worker", "index": 0}}))
    strategy = tf.distribute.MultiWorkerMirroredStrategy()  # a cluster of one worker: no connection to make
    assert strategy.num_replicas_in_sync == 1
    assert strategy.extended.worker_devices == ("/job:worker/replica:0/task:0/device:CPU:0",)


# --- several worker processes ---------------------------------------------------------------------------------
# Worker processes are forked from this one (tinytf is imported already: starting a Python per worker took
# about 10 s each on the loaded test machine); each reads its own TF_CONFIG, as separately started workers do.
def _train(mode="train"):
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    if mode == "die" and strategy.cluster_resolver.task_id == 1:
        os._exit(3)  # a worker that ends after joining: the others must raise, not hang
    rng = np.random.default_rng(0)
    x = rng.normal(size=(48, 4)).astype(np.float32)
    y = (x @ rng.normal(size=(4, 3))).argmax(1).astype(np.int32)
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(6, activation="tanh"),
                                     tf.keras.layers.Dense(3)])
        model.set_weights([np.random.default_rng(i).normal(scale=0.5, size=w.shape).astype(np.float32)
                           for i, w in enumerate(model.get_weights())])
        optimizer = tf.keras.optimizers.Adam(0.05)
    dataset = strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((x, y)).batch(12))

    @tf.function
    def step(xb, yb):
        with tf.GradientTape() as tape:
            per_example = tf.keras.losses.sparse_categorical_crossentropy(yb, model(xb), from_logits=True)
            loss = tf.nn.compute_average_loss(per_example, global_batch_size=12)
        optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
        return loss

    losses, sizes = [], []
    for xb, yb in dataset:
        sizes.append(int(xb.shape[0]))
        losses.append(float(strategy.reduce("SUM", strategy.run(step, args=(xb, yb)), axis=None)))
    count = strategy.reduce("SUM", tf.constant(sum(sizes)), axis=None)
    mean_rows = strategy.reduce("MEAN", tf.ones([sizes[0], 2]), axis=0)  # over all workers' rows
    result = {"replicas": strategy.num_replicas_in_sync, "chief": strategy.extended.should_checkpoint,
              "losses": losses, "sizes": sizes, "count": int(count), "mean_rows": mean_rows.numpy().tolist(),
              "weights": [w.ravel().tolist() for w in model.get_weights()]}
    strategy.shutdown()
    return result


def _worker_process(config, mode, connection):
    os.environ["TF_CONFIG"] = json.dumps(config)
    try:
        connection.send(("ok", _train(mode)))
    except BaseException as error:  # noqa: BLE001 - reported to the test
        connection.send(("error", f"{type(error).__name__}: {error}"))
    finally:
        os._exit(0)


def _run_workers(cluster, tasks, mode="train"):
    import multiprocessing

    context = multiprocessing.get_context("fork")
    runs = []
    for task_type, index in tasks:
        receive, send = context.Pipe(duplex=False)
        config = {"cluster": cluster, "task": {"type": task_type, "index": index}}
        process = context.Process(target=_worker_process, args=(config, mode, send), daemon=True)
        process.start()
        send.close()
        runs.append((process, receive))
    results = []
    for process, receive in runs:
        try:
            answer = receive.recv() if receive.poll(120) else ("silent", None)
        except EOFError:  # the process ended without an answer
            answer = ("gone", None)
        process.join(30)
        results.append((process.exitcode, answer))
    return results


def _free_ports(n):
    sockets = [socket.socket() for _ in range(n)]
    for s in sockets:
        s.bind(("localhost", 0))
    ports = [s.getsockname()[1] for s in sockets]
    for s in sockets:
        s.close()
    return ports


def test_two_workers_train_as_one_process_on_the_global_batches(monkeypatch):
    ports = _free_ports(2)
    cluster = {"chief": [f"localhost:{ports[0]}"], "worker": [f"localhost:{ports[1]}"]}
    results = _run_workers(cluster, [("chief", 0), ("worker", 0)])
    for _, answer in results:
        assert answer[0] == "ok", answer
    chief, worker = (answer[1] for _, answer in results)
    monkeypatch.delenv("TF_CONFIG", raising=False)
    alone = _train()
    assert chief["replicas"] == worker["replicas"] == 2 and chief["chief"] and not worker["chief"]
    assert chief["sizes"] == worker["sizes"] == [6, 6, 6, 6]  # each worker's half of every global batch of 12
    assert chief["count"] == worker["count"] == 48 and chief["mean_rows"] == [1.0, 1.0]
    assert chief["weights"] == worker["weights"]  # the same sums, the same update, in both processes
    assert alone["replicas"] == 1 and alone["sizes"] == [12] * 4
    np.testing.assert_allclose(chief["losses"], alone["losses"], rtol=1e-5)
    for a, b in zip(chief["weights"], alone["weights"]):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)


def test_a_worker_that_ends_makes_the_others_raise_not_hang():
    ports = _free_ports(3)
    cluster = {"worker": [f"localhost:{p}" for p in ports]}
    results = _run_workers(cluster, [("worker", 0), ("worker", 1), ("worker", 2)], mode="die")
    assert results[1][0] == 3
    assert results[0][1][0] == "error" and "UnavailableError" in results[0][1][1] and "worker 1" in results[0][1][1]
    assert results[2][1][0] == "error" and "UnavailableError" in results[2][1][1]


# --- @tf.function around strategy.run: the pattern of TF's distributed training guides ----------------------------
@pytest.mark.parametrize("replicas", [1, 2, 4])
def test_tf_function_around_strategy_run_trains_as_one_process(replicas):
    from tests.distribute_helpers import GLOBAL_BATCH, data, make_model, per_example_loss, reference_weights

    strategy = tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(replicas)])
    x, y = data()
    with strategy.scope():
        model = make_model()
        optimizer = tf.keras.optimizers.Adam()

    def step(bx, by):
        with tf.GradientTape() as tape:
            loss = tf.nn.compute_average_loss(per_example_loss(by, model(bx, training=True)))
        optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
        return loss

    traces = []

    @tf.function
    def distributed_step(bx, by):
        traces.append(1)
        return strategy.reduce("SUM", strategy.run(step, args=(bx, by)), axis=None)

    dataset = strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((x, y)).batch(GLOBAL_BATCH))
    losses = [float(distributed_step(bx, by)) for bx, by in dataset]
    assert len(losses) == 4 and all(np.isfinite(losses))
    for got, want in zip(model.weights, reference_weights()):
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, atol=1e-6)
    assert len(traces) <= 2  # the step runs when the graph runs: no trace per step


@pytest.mark.parametrize("replicas", [1, 2, 3])
def test_a_loop_over_a_distributed_dataset_inside_tf_function(replicas):
    """The tutorial's distributed_train_epoch: `for x in dist_dataset` inside the tf.function is one graph loop,
    each global batch split over the replicas when it runs (22 rows in batches of 5: a short last batch, which
    leaves a replica of three empty); the weights equal a plain eager loop's on the global batches."""
    x = np.arange(22, dtype=np.float32).reshape(-1, 1) / 10

    def train(strategy, in_function):
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1, kernel_initializer="ones")])
            optimizer = tf.keras.optimizers.SGD(0.1)
        dataset = tf.data.Dataset.from_tensor_slices((x, 2 * x)).batch(5)

        def train_step(inputs):
            features, labels = inputs
            with tf.GradientTape() as tape:
                per_example = tf.reduce_mean(tf.square(model(features) - labels), 1)
                loss = tf.nn.compute_average_loss(per_example, global_batch_size=5)
            optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
            return loss

        def epoch(distributed):
            total, count = 0.0, 0
            for batch in distributed:
                total += strategy.reduce("SUM", strategy.run(train_step, args=(batch,)), axis=None)
                count += 1
            return total / tf.cast(count, tf.float32)

        run = tf.function(epoch) if in_function else epoch
        distributed = strategy.experimental_distribute_dataset(dataset)
        losses = [float(run(distributed)) for _ in range(2)]
        return model.get_weights(), losses, run

    weights, losses, run = train(tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(replicas)]), True)
    plain_weights, plain_losses, _ = train(tf.distribute.get_strategy(), False)
    np.testing.assert_allclose(losses, plain_losses, rtol=1e-5)
    for a, b in zip(weights, plain_weights):
        np.testing.assert_allclose(a, b, rtol=1e-5)
    assert run.experimental_get_tracing_count() == 1
