"""RayStrategy on a local Ray instance (2 CPUs, 127.0.0.1): N workers on a global batch give the weights of
one process on that batch (custom GradientTape loop via strategy.run/reduce, and model.fit under the scope),
the all-reduce cost is measured, and a killed worker is replaced and training resumed from a
CheckpointManager checkpoint ends with the same weights as an uninterrupted run. Kept few and quick: Ray
starts once for the module."""

import importlib.util
import os
import signal

import numpy as np
import pytest

ray = pytest.importorskip("ray")

import tinytf as tf  # noqa: E402
from tests.distribute_helpers import GLOBAL_BATCH, STEPS, data, make_model, per_example_loss, reference_weights  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(scope="module")
def ray_session():
    ray.init(num_cpus=2, include_dashboard=False, address="local", _node_ip_address="127.0.0.1",
             log_to_driver=False, runtime_env={"env_vars": {"PYTHONPATH": REPO}})  # workers import tests.*
    yield
    ray.shutdown()


@pytest.fixture(scope="module")
def two_workers(ray_session):
    strategy = tf.distribute.experimental.RayStrategy(num_workers=2)
    yield strategy
    strategy.shutdown()


def custom_loop(strategy, steps=STEPS, start=0, model=None, opt=None, build_on_driver=True):
    x, y = data()
    if model is None:
        with strategy.scope():
            model = make_model()
            opt = tf.keras.optimizers.Adam()
            if build_on_driver:
                opt.build(model.trainable_variables)

    @tf.function
    def step(bx, by):
        with tf.GradientTape() as tape:
            loss = tf.nn.compute_average_loss(per_example_loss(by, model(bx, training=True)))
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(GLOBAL_BATCH).skip(start).take(steps)
    losses = [float(strategy.reduce(tf.distribute.ReduceOp.SUM, strategy.run(step, args=batch), axis=None))
              for batch in strategy.experimental_distribute_dataset(dataset)]
    return model, opt, losses


def assert_weights(model, want):
    for got, expected in zip(model.weights, want):
        np.testing.assert_allclose(got.numpy(), expected, rtol=1e-5, atol=1e-6)


def test_custom_loop_matches_one_process(two_workers):
    strategy = two_workers
    assert strategy.num_replicas_in_sync == 2
    model, _, losses = custom_loop(strategy)
    assert_weights(model, reference_weights())
    assert len(losses) == STEPS and all(np.isfinite(losses))
    stats = strategy.allreduce_stats()
    assert stats["count"] >= STEPS and stats["mean"] > 0


@pytest.mark.parametrize("workers", [1, 4])
def test_custom_loop_with_one_and_four_workers(ray_session, workers):
    strategy = tf.distribute.experimental.RayStrategy(num_workers=workers, transport="object_store")
    try:
        model, _, _ = custom_loop(strategy)
        assert_weights(model, reference_weights())
    finally:
        strategy.shutdown()


HAS_TORCH = importlib.util.find_spec("torch") is not None


@pytest.mark.parametrize("transport", ["object_store", pytest.param("collective", marks=pytest.mark.skipif(
    not HAS_TORCH, reason="the gloo collective of Ray 2.60 runs on torch.distributed; torch is not installed"))])
def test_both_transports_give_one_process_weights(ray_session, transport):
    strategy = tf.distribute.experimental.RayStrategy(num_workers=2, transport=transport)
    try:
        assert strategy.transport == transport
        model, _, _ = custom_loop(strategy)
        assert_weights(model, reference_weights())
        replicas = ray.get([w.variable_values.remote(tok) for w in strategy.workers
                            for tok in [next(iter(strategy._shipped.values()))[0]]])
        for left, right in zip(*replicas):  # the replicas stay bit-identical whatever the transport
            np.testing.assert_array_equal(left, right)
    finally:
        strategy.shutdown()


def test_transport_names_and_requirements(ray_session, monkeypatch):
    from tinytf.distribute import ray_transports

    with pytest.raises(ValueError, match="transport must be one of"):
        tf.distribute.experimental.RayStrategy(num_workers=1, transport="nccl")
    monkeypatch.setattr(ray_transports.importlib.util, "find_spec", lambda name: None)
    assert ray_transports.resolve("auto") == "object_store"
    with pytest.raises(ImportError, match="needs torch"):
        ray_transports.resolve("collective")


def compiled():
    model = make_model()
    model.compile(optimizer="adam", loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    return model


def test_fit_under_scope_matches_one_process(two_workers):
    x, y = data()

    with two_workers.scope():
        model = compiled()
    history = model.fit(x, y, batch_size=GLOBAL_BATCH - 1, epochs=2, shuffle=False, verbose=0)  # uneven shards
    alone = compiled()
    expected = alone.fit(x, y, batch_size=GLOBAL_BATCH - 1, epochs=2, shuffle=False, verbose=0)
    assert_weights(model, [w.numpy() for w in alone.weights])
    for key in ("loss", "accuracy"):
        np.testing.assert_allclose(history.history[key], expected.history[key], rtol=1e-5)


class BatchLogs(tf.keras.callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.seen = []

    def on_train_batch_end(self, batch, logs=None):
        self.seen.append(dict(logs))


def test_fit_with_validation_and_batch_logs_matches_one_process(two_workers):
    x, y = data()

    with two_workers.scope():
        model = compiled()
    spread, alone_logs = BatchLogs(), BatchLogs()
    history = model.fit(x, y, batch_size=5, epochs=2, shuffle=False, verbose=0, validation_split=0.25,
                        callbacks=[spread])
    alone = compiled()
    expected = alone.fit(x, y, batch_size=5, epochs=2, shuffle=False, verbose=0, validation_split=0.25,
                         callbacks=[alone_logs])
    assert_weights(model, [w.numpy() for w in alone.weights])
    assert sorted(history.history) == sorted(expected.history) == ["accuracy", "loss", "val_accuracy", "val_loss"]
    for key in expected.history:
        np.testing.assert_allclose(history.history[key], expected.history[key], rtol=1e-5)
    assert len(spread.seen) == len(alone_logs.seen) == 2 * 5  # 24 training examples in batches of 5
    for got, want in zip(spread.seen, alone_logs.seen):
        assert sorted(got) == sorted(want)
        for key in want:
            np.testing.assert_allclose(got[key], want[key], rtol=1e-5)


def test_slots_made_on_the_workers_reach_the_driver(two_workers, tmp_path):
    model, opt, _ = custom_loop(two_workers, build_on_driver=False)  # Adam makes its slots on the workers
    assert_weights(model, reference_weights())
    x, y = data()
    alone, alone_opt = make_model(), tf.keras.optimizers.Adam()
    for i in range(STEPS):
        bx, by = x[i * GLOBAL_BATCH:(i + 1) * GLOBAL_BATCH], y[i * GLOBAL_BATCH:(i + 1) * GLOBAL_BATCH]
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(per_example_loss(by, alone(bx, training=True)))
        alone_opt.apply_gradients(zip(tape.gradient(loss, alone.trainable_variables), alone.trainable_variables))
    assert int(opt.iterations.numpy()) == STEPS
    for variable, twin in zip(model.trainable_variables, alone.trainable_variables):
        for name in ("momentum", "velocity"):
            np.testing.assert_allclose(opt.get_slot(variable, name).numpy(), alone_opt.get_slot(twin, name).numpy(),
                                       rtol=1e-5, atol=1e-7)
    path = tf.train.Checkpoint(optimizer=opt).write(str(tmp_path / "opt"))  # the moments are saved too
    reader = tf.train.load_checkpoint(path)
    assert len(opt.variables) == 2 + 2 * 4  # iterations, learning rate, two moments of each of 4 variables
    for index, slot in enumerate(opt.variables[2:], start=2):  # 0 and 1 are saved under their own names
        np.testing.assert_array_equal(reader.get_tensor(f"optimizer/_variables/{index}/.ATTRIBUTES/VARIABLE_VALUE"),
                                      slot.numpy())


def test_killed_worker_is_replaced_and_training_resumes_from_checkpoint(two_workers, tmp_path):
    strategy = two_workers
    model, opt, _ = custom_loop(strategy, steps=2)
    checkpoint = tf.train.Checkpoint(model=model, optimizer=opt)
    manager = tf.train.CheckpointManager(checkpoint, str(tmp_path), max_to_keep=2)
    manager.save()
    custom_loop(strategy, steps=1, start=2, model=model, opt=opt)  # progress after the checkpoint, then lost
    os.kill(ray.get(strategy.workers[1].pid.remote()), signal.SIGKILL)
    with pytest.raises(ray.exceptions.RayActorError):
        custom_loop(strategy, steps=1, start=3, model=model, opt=opt)
    strategy.restart_workers()
    checkpoint.restore(manager.latest_checkpoint)
    custom_loop(strategy, steps=STEPS - 2, start=2, model=model, opt=opt)
    assert_weights(model, reference_weights())


def test_file_sharded_input_reaches_each_worker(two_workers, tmp_path):
    files = []
    for i in range(4):
        path = tmp_path / f"f{i}.txt"
        path.write_text("\n".join(str(10 * i + j) for j in range(i + 2)) + "\n")
        files.append(str(path))
    options = tf.data.Options()
    options.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.FILE
    dataset = tf.data.TextLineDataset(files).map(lambda s: tf.strings.to_number(s)).batch(4).with_options(options)

    @tf.function
    def total(x):
        return tf.reduce_sum(x), tf.shape(x)[0]

    seen = []
    for batch in two_workers.experimental_distribute_dataset(dataset):
        sums, sizes = two_workers.run(total, args=(batch,))
        seen.append((two_workers.experimental_local_results(sums), two_workers.experimental_local_results(sizes)))
    worker0 = [0, 1, 20, 21, 22, 23]  # files 0 and 2, in batches of 2 (the worker's half of 4)
    worker1 = [10, 11, 12, 30, 31, 32, 33, 34]  # files 1 and 3
    assert [int(s[1][0]) for s in seen] == [2, 2, 2, 0] and [int(s[1][1]) for s in seen] == [2, 2, 2, 2]
    assert sum(float(s[0][0]) for s in seen) == sum(worker0) and sum(float(s[0][1]) for s in seen) == sum(worker1)


def _csv_files(tmp_path, rows_per_file=(4, 4, 4, 4)):
    """Files of "x0,x1,x2,x3,x4,label" lines from data(); returns the paths and the parsing dataset maker."""
    x, y = data(sum(rows_per_file))
    files, start = [], 0
    for i, rows in enumerate(rows_per_file):
        path = tmp_path / f"part{i}.csv"
        path.write_text("".join(",".join(f"{v:.6f}" for v in x[j]) + f",{y[j]}\n" for j in range(start, start + rows)))
        files.append(str(path))
        start += rows
    return files


def _parsed(files, batch, policy=None):
    def parse(line):
        fields = tf.strings.to_number(tf.strings.split(line, ","))
        return fields[:5], tf.cast(fields[5], tf.int32)

    dataset = tf.data.TextLineDataset(files).map(parse).batch(batch)
    if policy is not None:
        options = tf.data.Options()
        options.experimental_distribute.auto_shard_policy = policy
        dataset = dataset.with_options(options)
    return dataset


def test_fit_honours_the_auto_shard_policy(two_workers, tmp_path):
    """FILE: worker 0 reads files 0 and 2, worker 1 files 1 and 3, each in batches of 2 (its half of 4): the
    result is one process training on [worker 0's batch + worker 1's batch] per step. DATA: global batches of
    the whole stream split, i.e. one process on the dataset. OFF: both workers read everything in batches of 2,
    the same batch twice, i.e. one process on batches of 2."""
    policy = tf.data.experimental.AutoShardPolicy
    files = _csv_files(tmp_path)

    def fitted(dataset, strategy=None):
        if strategy is None:
            model = compiled()
        else:
            with strategy.scope():
                model = compiled()
        history = model.fit(dataset, epochs=2, verbose=0)
        return model, history.history

    per_step = tf.data.Dataset.zip((_parsed(files[0::2], 2), _parsed(files[1::2], 2))).map(
        lambda a, b: (tf.concat([a[0], b[0]], 0), tf.concat([a[1], b[1]], 0)))
    for shard_policy, reference in [(policy.FILE, per_step), (policy.AUTO, per_step), (policy.DATA, _parsed(files, 4)),
                                    (policy.OFF, _parsed(files, 2))]:
        model, history = fitted(_parsed(files, 4, shard_policy), two_workers)
        alone, expected = fitted(reference)
        assert_weights(model, [w.numpy() for w in alone.weights])
        np.testing.assert_allclose(history["loss"], expected["loss"], rtol=1e-5, err_msg=str(shard_policy))


def test_fit_with_uneven_file_shards_pads_the_short_worker(two_workers, tmp_path):
    """Worker 0's files hold 6 rows, worker 1's 2: after one step worker 1 trains on empty batches (zero
    gradients) while worker 0 finishes, as the distributed dataset reads them."""
    files = _csv_files(tmp_path, (4, 1, 2, 1))
    with two_workers.scope():
        model = compiled()
    history = model.fit(_parsed(files, 4, tf.data.experimental.AutoShardPolicy.FILE), epochs=1, verbose=0)
    worker0, worker1 = list(_parsed(files[0::2], 2)), list(_parsed(files[1::2], 2))
    alone = compiled()
    for i, (bx, by) in enumerate(worker0):
        if i < len(worker1):
            bx, by = tf.concat([bx, worker1[i][0]], 0), tf.concat([by, worker1[i][1]], 0)
        alone.train_on_batch(bx, by)
    assert_weights(model, [w.numpy() for w in alone.weights])
    assert np.isfinite(history.history["loss"][0])


def test_fit_raises_tf_errors_for_impossible_file_sharding(two_workers, tmp_path):
    file_policy = tf.data.experimental.AutoShardPolicy.FILE
    options = tf.data.Options()
    options.experimental_distribute.auto_shard_policy = file_policy
    x, y = data()
    with two_workers.scope():
        model = compiled()
    in_memory = tf.data.Dataset.from_tensor_slices((x, y)).batch(4).with_options(options)
    with pytest.raises(tf.errors.NotFoundError, match="reads no files"):
        model.fit(in_memory, epochs=1, verbose=0)
    one_file = _parsed(_csv_files(tmp_path, (4,)), 4, file_policy)
    with pytest.raises(tf.errors.InvalidArgumentError, match="less than the number of workers"):
        model.fit(one_file, epochs=1, verbose=0)


def test_fit_with_the_hint_policy_shards_where_the_pipeline_says(two_workers):
    """HINT: shard(SHARD_HINT, SHARD_HINT) becomes shard(2, i) on worker i, so worker 0 trains on the even
    rows and worker 1 on the odd ones, each in batches of 2 (its half of 4)."""
    x, y = data(16)
    options = tf.data.Options()
    options.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.HINT
    hint = tf.data.experimental.SHARD_HINT
    dataset = tf.data.Dataset.from_tensor_slices((x, y)).shard(hint, hint).batch(4).with_options(options)
    with two_workers.scope():
        model = compiled()
    history = model.fit(dataset, epochs=2, verbose=0)
    alone = compiled()
    per_step = [(np.concatenate([x[0::2][i:i + 2], x[1::2][i:i + 2]]), np.concatenate([y[0::2][i:i + 2],
                                                                                       y[1::2][i:i + 2]]))
                for i in range(0, 8, 2)]
    expected = alone.fit(tf.data.Dataset.from_generator(lambda: iter(per_step), output_signature=(
        tf.TensorSpec((None, 5), tf.float32), tf.TensorSpec((None,), tf.int32))), epochs=2, verbose=0)
    assert_weights(model, [w.numpy() for w in alone.weights])
    np.testing.assert_allclose(history.history["loss"], expected.history["loss"], rtol=1e-5)


def test_batchnorm_statistics_are_worker_zeros_as_mirrored_replica_zeros(two_workers):
    """Each worker updates BatchNormalization's moving statistics with its own shards; the driver gets worker
    0's, which is what a MirroredStrategy (and TF's MirroredVariable) reads outside the replicas."""
    x, y = data()
    x[4:8] = x[4:8] * 3 + 2  # the second shard of the first batch differs: averaging would show

    def fitted(strategy):
        with strategy.scope():
            bn = tf.keras.layers.BatchNormalization(momentum=0.5)
            model = tf.keras.Sequential([tf.keras.Input((5,)), tf.keras.layers.Dense(4), bn,
                                         tf.keras.layers.Dense(3)])
            model.set_weights([np.full(w.shape, 0.1 * (i + 1), np.float32) if i in (0, 6) else w
                               for i, w in enumerate(model.get_weights())])
            model.compile(optimizer=tf.keras.optimizers.SGD(0.1),
                          loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
        model.fit(x, y, batch_size=GLOBAL_BATCH, epochs=1, shuffle=False, verbose=0)
        return model.get_weights()

    mirrored = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    for got, want in zip(fitted(two_workers), fitted(mirrored)):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
