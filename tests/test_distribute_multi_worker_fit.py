"""Keras fit / evaluate / predict under MultiWorkerMirroredStrategy with two worker processes (TF_CONFIG,
127.0.0.1): each worker trains on its half of every global batch, the gradients are summed over the workers,
and both end with the same weights, logs and predictions as one worker on the global batches.

TF 2.21 itself cannot run this with two workers (Keras 3's fit fails on the PerReplica inputs of
MultiWorkerMirroredStrategy: keras-team/keras#20585, tensorflow/tensorflow#72388), so the reference is what
TF 2.21 gives for the same program with one worker (testdata/multi_worker_fit_tf.json, recorded by
/work/.../mw_fit_tf.py's `program` with TF_CONFIG unset): exactly the numbers the brief asks two workers to
reproduce. Workers are forked from this process, as in test_distribute_strategies_more.py."""

import json
import os
import pathlib
import socket

import numpy as np
import pytest

import tinytf as tf

REFERENCE = json.loads((pathlib.Path(__file__).parent / "testdata" / "multi_worker_fit_tf.json").read_text())


def _dataset(x, y, hint):
    dataset = tf.data.Dataset.from_tensor_slices((x, y))
    if not hint:
        return dataset.batch(12)
    # HINT sharding: worker i of N reads elements i, i + N, ...; each worker's batches of 12 are rebatched to its
    # share (6 of 2 workers): the union of the workers' k-th batches is the k-th global batch of the plain dataset
    dataset = dataset.shard(tf.data.experimental.SHARD_HINT, tf.data.experimental.SHARD_HINT).batch(12)
    options = tf.data.Options()
    options.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.HINT
    return dataset.with_options(options)


def _program(tmp, checkpoints=False, hint=False):
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    rng = np.random.default_rng(0)
    x = rng.normal(size=(48, 4)).astype(np.float32)
    y = (x @ rng.normal(size=(4, 3))).argmax(1).astype(np.int32)
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(6, activation="tanh"),
                                     tf.keras.layers.Dense(3)])
        model.set_weights([np.random.default_rng(i).normal(scale=0.5, size=w.shape).astype(np.float32)
                           for i, w in enumerate(model.get_weights())])
        model.compile(optimizer=tf.keras.optimizers.Adam(0.05), metrics=["accuracy"],
                      loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    seen, sizes = [], []

    class Steps(tf.keras.callbacks.Callback):
        def on_train_batch_end(self, batch, logs=None):
            seen.append(batch)

    callbacks, written = [Steps()], []
    if checkpoints:  # the paths each worker's callbacks write to
        save_weights = model.save_weights
        model.save_weights = lambda path, **kw: (written.append(os.path.relpath(path, tmp)),
                                                 save_weights(path, **kw))
        callbacks += [tf.keras.callbacks.ModelCheckpoint(os.path.join(tmp, "ckpt", "m.weights.h5"),
                                                         save_weights_only=True),
                      tf.keras.callbacks.BackupAndRestore(os.path.join(tmp, "backup"), delete_checkpoint=False)]
    dataset = _dataset(x, y, hint)
    history = model.fit(dataset, epochs=2, verbose=0, callbacks=callbacks)
    after_fit = [w.ravel().tolist() for w in model.get_weights()]
    arrays = model.fit(x, y, batch_size=12, epochs=1, shuffle=False, verbose=0)
    evaluated = model.evaluate(dataset, verbose=0, return_dict=True)
    predicted = model.predict(x[:5], verbose=0)
    # the loss tracker's state after evaluate: read in a replica, this worker's own (its count is the samples its
    # steps saw); read outside, summed over the workers (an all-reduce, as TF reads ON_READ metric variables)
    sizes = strategy.run(lambda: [float(v.numpy()) for v in model.metrics[0].variables])
    sizes.append(float(model.metrics[0].variables[1].numpy()))
    result = {"history": history.history, "history_arrays": arrays.history,
              "evaluate": {k: float(v) for k, v in evaluated.items()}, "predict": predicted.tolist(), "steps": seen,
              "weights": [w.ravel().tolist() for w in model.get_weights()], "sizes": sizes, "written": written,
              "after_fit": after_fit,
              "replicas": strategy.num_replicas_in_sync, "should_checkpoint": strategy.extended.should_checkpoint}
    strategy.shutdown()
    return result


def _worker(config, tmp, checkpoints, hint, connection):
    os.environ["TF_CONFIG"] = json.dumps(config)
    try:
        connection.send(("ok", _program(tmp, checkpoints, hint)))
    except BaseException as error:  # noqa: BLE001 - reported to the test
        connection.send(("error", f"{type(error).__name__}: {error}"))
    finally:
        os._exit(0)


def _free_ports(n):
    sockets = [socket.socket() for _ in range(n)]
    for s in sockets:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in sockets]
    for s in sockets:
        s.close()
    return ports


def run_workers(tmp, n=2, checkpoints=False, hint=False):
    import multiprocessing

    context = multiprocessing.get_context("fork")
    cluster = {"worker": [f"127.0.0.1:{p}" for p in _free_ports(n)]}
    runs = []
    for index in range(n):
        receive, send = context.Pipe(duplex=False)
        config = {"cluster": cluster, "task": {"type": "worker", "index": index}}
        process = context.Process(target=_worker, args=(config, str(tmp), checkpoints, hint, send), daemon=True)
        process.start()
        send.close()
        runs.append((process, receive))
    answers = []
    for process, receive in runs:
        try:
            answer = receive.recv() if receive.poll(180) else ("silent", None)
        except EOFError:
            answer = ("gone", None)
        process.join(30)
        if process.is_alive():
            process.kill()
            process.join()
        answers.append(answer)
    for answer in answers:
        assert answer[0] == "ok", answer
    return [answer[1] for answer in answers]


def _assert_as_tf_one_worker(result):
    for key in ("history", "history_arrays"):
        for name, values in REFERENCE[key].items():
            np.testing.assert_allclose(result[key][name], values, rtol=2e-5, atol=1e-6, err_msg=f"{key} {name}")
    for name, value in REFERENCE["evaluate"].items():
        np.testing.assert_allclose(result["evaluate"][name], value, rtol=2e-5, atol=1e-6)
    np.testing.assert_allclose(result["predict"], REFERENCE["predict"], rtol=1e-4, atol=1e-5)
    for got, want in zip(result["weights"], REFERENCE["weights"]):
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=2e-5)
    assert result["steps"] == REFERENCE["steps"]


def test_one_worker_fit_gives_tf_numbers(monkeypatch, tmp_path):
    monkeypatch.delenv("TF_CONFIG", raising=False)
    result = _program(str(tmp_path))
    assert result["replicas"] == 1 and result["should_checkpoint"] and result["sizes"][1] == result["sizes"][2] == 48
    _assert_as_tf_one_worker(result)


@pytest.mark.parametrize("workers,hint", [(2, False), (3, False), (2, True)])
def test_workers_fit_to_one_worker_numbers(tmp_path, workers, hint):
    results = run_workers(tmp_path, workers, hint=hint)  # hint: each worker reads its own shard of the data
    first = results[0]
    assert [r["replicas"] for r in results] == [workers] * workers
    assert [r["should_checkpoint"] for r in results] == [True] + [False] * (workers - 1)
    counts = [r["sizes"][1] for r in results]  # samples each worker's evaluate steps saw, of the 48
    assert sum(counts) == 48 and counts == [48 // workers] * workers, counts
    assert [r["sizes"][2] for r in results] == [48.0] * workers
    for other in results[1:]:  # the same sums, the same updates: identical bits in every worker
        assert other["weights"] == first["weights"] and other["history"] == first["history"]
        assert other["predict"] == first["predict"] and other["evaluate"] == first["evaluate"]
    _assert_as_tf_one_worker(first)


def test_only_the_chief_writes_checkpoints_others_write_temporary_copies(tmp_path):
    chief, worker = run_workers(tmp_path, 2, checkpoints=True)
    ckpt, backup = os.path.join("ckpt", "m.weights.h5"), os.path.join("backup", "latest.weights.h5")
    assert chief["written"] == [ckpt, backup] * 2  # two epochs: ModelCheckpoint, then BackupAndRestore
    assert worker["written"] == [os.path.join("ckpt", "workertemp_1", "m.weights.h5"),
                                 os.path.join("backup", "workertemp_1", "latest.weights.h5")] * 2
    left = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*"))
    assert left == ["backup", backup, os.path.join("backup", "training_metadata.json"), "ckpt", ckpt]
    model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(6, activation="tanh"),
                                 tf.keras.layers.Dense(3)])
    model.load_weights(str(tmp_path / ckpt))  # the chief's file: the weights after the two epochs of fit
    assert chief["after_fit"] == [w.ravel().tolist() for w in model.get_weights()] == worker["after_fit"]
    with open(tmp_path / "backup" / "training_metadata.json") as f:
        assert json.load(f)["epoch"] == 2
