"""TF's tutorial "Custom training loop with Keras and MultiWorkerMirroredStrategy" (multi_worker_with_ctl),
run by two forked worker processes on 127.0.0.1 with their TF_CONFIG: distribute_datasets_from_function
sharding by input context, the CNN with L2 regularizers, RMSprop, compute_average_loss and
scale_regularization_loss, strategy.run / reduce in a tf.function, the epoch and step variables checkpointed
by a CheckpointManager written by the chief (the others write to workertemp_<id> and remove it), and the
restart that resumes from the chief's checkpoint. Also the pattern `train_step(iterator)` with
`next(iterator)` inside the tf.function: each run takes the next batch.

Changes for this machine: MNIST is not downloadable here, so the data are synthetic arrays of MNIST's shapes
and dtypes (float32 images in [0, 1] of 28 x 28, int64 labels in [0, 10)); the dataset is not shuffled (so
that one worker can replay the same global batches); the sizes are small (per-worker batch 8, 3 steps, 2
epochs); Keras 3 has no tf.keras.losses.Reduction, so the loss takes reduction="none" (TF 2.21 raises on the
tutorial's Reduction.NONE too); the epoch counters are advanced before the checkpoint is saved, not after (the
tutorial's order checkpoints step_in_epoch == num_steps_per_epoch, so a restart runs no step in the restored
epoch and divides its total loss by zero batches, in TF as here)."""

import json
import os
import socket

import numpy as np

import tinytf as tf

PER_WORKER_BATCH, STEPS, EPOCHS = 8, 3, 2


def _mnist_like():
    rng = np.random.default_rng(0)
    x = rng.random((PER_WORKER_BATCH * 2 * STEPS, 28, 28), dtype=np.float32)
    y = rng.integers(0, 10, size=len(x)).astype(np.int64)
    return x, y


def _build_cnn_model():
    regularizer = tf.keras.regularizers.L2(1e-5)
    model = tf.keras.Sequential([
        tf.keras.Input(shape=(28, 28)), tf.keras.layers.Reshape(target_shape=(28, 28, 1)),
        tf.keras.layers.Conv2D(4, 3, activation="relu", kernel_regularizer=regularizer),
        tf.keras.layers.Flatten(), tf.keras.layers.Dense(16, activation="relu", kernel_regularizer=regularizer),
        tf.keras.layers.Dense(10, kernel_regularizer=regularizer)])
    model.set_weights([np.random.default_rng(i).normal(scale=0.1, size=w.shape).astype(np.float32)
                       for i, w in enumerate(model.get_weights())])
    return model


def _write_filepath(filepath, task_type, task_id, cluster_spec):
    """The tutorial's helpers: the chief writes to filepath, the others under workertemp_<task_id>."""
    chief = task_type is None or task_type == "chief" or (
        task_type == "worker" and task_id == 0 and "chief" not in cluster_spec.as_dict())
    dirpath, base = os.path.dirname(filepath), os.path.basename(filepath)
    if not chief:
        dirpath = os.path.join(dirpath, "workertemp_" + str(task_id))
        tf.io.gfile.makedirs(dirpath)
    return os.path.join(dirpath, base), chief


def tutorial(checkpoint_dir, num_workers=2, stop_after_epoch=None):
    global_batch_size = PER_WORKER_BATCH * num_workers
    x, y = _mnist_like()

    def dataset_fn(input_context):
        batch_size = input_context.get_per_replica_batch_size(global_batch_size)
        dataset = tf.data.Dataset.from_tensor_slices((x, y))
        dataset = dataset.shard(input_context.num_input_pipelines, input_context.input_pipeline_id)
        return dataset.batch(batch_size)

    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    with strategy.scope():
        model = _build_cnn_model()
        dataset = strategy.distribute_datasets_from_function(dataset_fn)
        optimizer = tf.keras.optimizers.RMSprop(learning_rate=0.001)
        train_accuracy = tf.keras.metrics.SparseCategoricalAccuracy(name="train_accuracy")

    @tf.function
    def train_step(iterator):
        def step_fn(inputs):
            bx, by = inputs
            with tf.GradientTape() as tape:
                predictions = model(bx, training=True)
                per_example_loss = tf.keras.losses.SparseCategoricalCrossentropy(
                    from_logits=True, reduction="none")(by, predictions)
                loss = tf.nn.compute_average_loss(per_example_loss)
                if model.losses:
                    loss += tf.nn.scale_regularization_loss(tf.add_n(model.losses))
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
            train_accuracy.update_state(by, predictions)
            return loss

        return strategy.reduce(tf.distribute.ReduceOp.SUM, strategy.run(step_fn, args=(next(iterator),)), axis=None)

    epoch = tf.Variable(tf.constant(0, tf.int64), name="epoch")
    step_in_epoch = tf.Variable(tf.constant(0, tf.int64), name="step_in_epoch")
    task_type, task_id = strategy.cluster_resolver.task_type, strategy.cluster_resolver.task_id
    cluster_spec = strategy.cluster_resolver.cluster_spec()
    checkpoint = tf.train.Checkpoint(model=model, epoch=epoch, step_in_epoch=step_in_epoch, optimizer=optimizer)
    write_dir, chief = _write_filepath(checkpoint_dir, task_type, task_id, cluster_spec)
    manager = tf.train.CheckpointManager(checkpoint, directory=write_dir, max_to_keep=1)
    latest = tf.train.latest_checkpoint(checkpoint_dir)
    resumed_at = None
    if latest:
        checkpoint.restore(latest)
        resumed_at = int(epoch.numpy())
    losses, accuracies = [], []
    while epoch.numpy() < EPOCHS:
        if stop_after_epoch is not None and epoch.numpy() == stop_after_epoch:
            break  # the job is stopped here (a preemption), to be restarted
        iterator = iter(dataset)
        total_loss, num_batches = 0.0, 0
        while step_in_epoch.numpy() < STEPS:
            total_loss += train_step(iterator)
            num_batches += 1
            step_in_epoch.assign_add(1)
        losses.append(float(total_loss / num_batches))
        accuracies.append(float(train_accuracy.result()))  # over every worker's examples, as TF reads it
        train_accuracy.reset_state()
        epoch.assign_add(1)  # before the save (see the module)
        step_in_epoch.assign(0)
        manager.save()
        if not chief:
            tf.io.gfile.rmtree(write_dir)
    strategy.shutdown()
    return {"losses": losses, "accuracies": accuracies, "resumed_at": resumed_at,
            "replicas": strategy.num_replicas_in_sync, "weights": [w.ravel().tolist() for w in model.get_weights()]}


def _worker(config, folder, stop_after_epoch, connection):
    os.environ["TF_CONFIG"] = json.dumps(config)
    try:
        connection.send(("ok", tutorial(folder, 2, stop_after_epoch)))
    except BaseException as error:  # noqa: BLE001 - reported to the test
        connection.send(("error", f"{type(error).__name__}: {error}"))
    finally:
        os._exit(0)


def _two_workers(folder, stop_after_epoch=None):
    import multiprocessing

    context = multiprocessing.get_context("fork")
    sockets = [socket.socket() for _ in range(2)]
    for s in sockets:
        s.bind(("127.0.0.1", 0))
    cluster = {"worker": [f"127.0.0.1:{s.getsockname()[1]}" for s in sockets]}
    for s in sockets:
        s.close()
    runs = []
    for index in range(2):
        receive, send = context.Pipe(duplex=False)
        config = {"cluster": cluster, "task": {"type": "worker", "index": index}}
        process = context.Process(target=_worker, args=(config, folder, stop_after_epoch, send), daemon=True)
        process.start()
        send.close()
        runs.append((process, receive))
    answers = []
    for process, receive in runs:
        answers.append(receive.recv() if receive.poll(180) else ("silent", None))
        process.join(30)
        if process.is_alive():
            process.kill()
            process.join()
    assert all(a[0] == "ok" for a in answers), answers
    return [a[1] for a in answers]


def test_two_workers_train_as_one_on_the_global_batches_and_resume(tmp_path, monkeypatch):
    monkeypatch.delenv("TF_CONFIG", raising=False)
    alone = tutorial(str(tmp_path / "alone" / "ckpt"))  # one worker reading the same global batches
    folder = str(tmp_path / "ckpt")
    first = _two_workers(folder, stop_after_epoch=1)  # epoch 0, checkpointed, then the job stops
    assert [r["replicas"] for r in first] == [2, 2] and first[0]["weights"] == first[1]["weights"]
    # the non-chief's checkpoint folder is gone (the tutorial removes workertemp_1/ckpt, not workertemp_1)
    assert sorted(os.listdir(tmp_path)) == ["alone", "ckpt", "workertemp_1"]
    assert os.listdir(tmp_path / "workertemp_1") == [] and os.listdir(tmp_path / "ckpt")
    second = _two_workers(folder)  # the restart: both read the chief's checkpoint
    assert [r["resumed_at"] for r in second] == [1, 1]
    assert second[0]["weights"] == second[1]["weights"] and second[0]["losses"] == second[1]["losses"]
    np.testing.assert_allclose(first[0]["losses"] + second[0]["losses"], alone["losses"], rtol=1e-5)
    assert first[0]["accuracies"] + second[0]["accuracies"] == alone["accuracies"]
    assert first[1]["accuracies"] == first[0]["accuracies"] and len(alone["accuracies"]) == EPOCHS
    for got, want in zip(second[0]["weights"], alone["weights"]):
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
