"""tf.distribute on one machine: contexts, the default strategy, ReduceOp, distributed datasets (TF's split of a
global batch), strategy.run/reduce, compute_average_loss, and MirroredStrategy with replicas as threads whose
training matches one process on the same global batches. Expected splits and reductions marked "TF 2.21" were
observed with TF 2.21 on two logical CPUs (tf.config.set_logical_device_configuration)."""

import numpy as np
import pytest

import tinytf as tf
from tests.distribute_helpers import GLOBAL_BATCH, STEPS, data, make_model, per_example_loss, reference_weights

TWO_CPUS = ["/cpu:0", "/cpu:1"]


def local(strategy, value):
    return [np.asarray(v).tolist() for v in strategy.experimental_local_results(value)]


def test_default_strategy_and_contexts():
    default = tf.distribute.get_strategy()
    assert default.num_replicas_in_sync == 1
    assert not tf.distribute.has_strategy() and not tf.distribute.in_cross_replica_context()
    assert tf.distribute.get_replica_context().num_replicas_in_sync == 1
    assert default.run(lambda a: a * 2, args=(tf.constant(3),)).numpy() == 6
    assert local(default, tf.constant([1, 2])) == [[1, 2]]
    strategy = tf.distribute.MirroredStrategy(TWO_CPUS)
    with strategy.scope():
        assert tf.distribute.get_strategy() is strategy
        assert tf.distribute.has_strategy() and tf.distribute.in_cross_replica_context()
        assert tf.distribute.get_replica_context() is None
        seen = strategy.run(lambda: (tf.distribute.in_cross_replica_context(),
                                     tf.distribute.get_replica_context().replica_id_in_sync_group))
    assert [v for v in strategy.experimental_local_results(seen[0])] == [False, False]
    assert local(strategy, seen[1]) == [0, 1]
    with pytest.raises(ValueError, match="Mixing different"):
        with strategy.scope(), tf.distribute.MirroredStrategy().scope():
            pass


def test_mirrored_defaults_and_bad_devices():
    assert tf.distribute.MirroredStrategy().num_replicas_in_sync == 1  # TF: one CPU device unless listed
    with pytest.raises(ValueError, match="duplicates"):
        tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:0"])
    # TF accepts GPU names on a machine without GPUs (soft placement runs the replicas on the CPU)
    gpus = tf.distribute.MirroredStrategy(["/gpu:0", "GPU:1"])
    assert gpus.extended.worker_devices == ("/job:localhost/replica:0/task:0/device:GPU:0",
                                            "/job:localhost/replica:0/task:0/device:GPU:1")
    assert [float(t) for t in gpus.experimental_local_results(gpus.run(lambda: tf.constant(2.0) + 1))] == [3.0, 3.0]


def test_reduce_op_and_reduce():
    assert tf.distribute.ReduceOp("SUM") is tf.distribute.ReduceOp.SUM
    assert str(tf.distribute.ReduceOp.MEAN) == "ReduceOp.MEAN"
    strategy = tf.distribute.MirroredStrategy(TWO_CPUS)
    dist = iter(strategy.experimental_distribute_dataset(tf.data.Dataset.range(8).batch(4)))
    batch = next(dist)
    assert local(strategy, batch) == [[0, 1], [2, 3]]
    assert strategy.reduce("SUM", batch, axis=None).numpy().tolist() == [2, 4]
    mean = strategy.reduce(tf.distribute.ReduceOp.MEAN, batch, axis=0)
    assert mean.dtype == tf.float64 and mean.numpy() == 1.5  # TF 2.21: int64 batch, MEAN over axis 0 -> 1.5 f64
    assert strategy.reduce("SUM", batch, axis=0).numpy() == 6
    assert strategy.reduce("MEAN", tf.constant(3.0), axis=None).numpy() == 3.0
    with pytest.raises(ValueError, match="cannot be reduced with the given reduce op ReduceOp.SUM"):
        strategy.reduce("SUM", tf.constant(3.0), axis=None)
    with pytest.raises(ValueError, match="not a valid ReduceOp"):
        strategy.reduce("MAX", batch)


def test_distributed_dataset_splits_as_tf():
    strategy = tf.distribute.MirroredStrategy(TWO_CPUS)
    got = [local(strategy, b) for b in strategy.experimental_distribute_dataset(tf.data.Dataset.range(7).batch(5))]
    assert got == [[[0, 1, 2], [3, 4]], [[5], [6]]]  # TF 2.21
    got = [local(strategy, b) for b in strategy.experimental_distribute_dataset(tf.data.Dataset.range(7).batch(3))]
    assert got == [[[0, 1], [2]], [[3, 4], [5]], [[6], []]]  # TF 2.21: a replica may get an empty batch
    got = [local(strategy, b) for b in strategy.experimental_distribute_dataset(
        tf.data.Dataset.range(7).batch(4, drop_remainder=True))]
    assert got == [[[0, 1], [2, 3]]]
    pairs = tf.data.Dataset.from_tensor_slices((np.arange(4.0), np.arange(4) * 10)).batch(4)
    (x, y), = list(strategy.experimental_distribute_dataset(pairs))
    assert local(strategy, x) == [[0.0, 1.0], [2.0, 3.0]] and local(strategy, y) == [[0, 10], [20, 30]]
    with pytest.raises(ValueError, match="batched dataset"):
        list(strategy.experimental_distribute_dataset(tf.data.Dataset.range(3)))
    assert tf.data.experimental.AutoShardPolicy.DATA == 2 and tf.data.experimental.AutoShardPolicy.OFF == -1
    options = tf.data.Options()
    options.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.DATA
    assert tf.data.Dataset.range(2).with_options(options).options().experimental_distribute.auto_shard_policy == 2


def test_compute_average_loss_and_regularization_scaling():
    per_example = tf.constant([1.0, 2.0, 3.0, 4.0])
    assert tf.nn.compute_average_loss(per_example).numpy() == 2.5
    assert tf.nn.compute_average_loss(per_example, global_batch_size=8).numpy() == 1.25
    weighted = tf.nn.compute_average_loss(per_example, sample_weight=tf.constant([1.0, 0.0, 1.0, 0.0]))
    assert weighted.numpy() == pytest.approx(1.0)
    strategy = tf.distribute.MirroredStrategy(TWO_CPUS)
    batch = next(iter(strategy.experimental_distribute_dataset(tf.data.Dataset.range(8).batch(4))))

    def replica_loss(x):
        return tf.nn.compute_average_loss(tf.cast(x, tf.float32)), tf.nn.scale_regularization_loss(4.0)

    losses, regs = strategy.run(replica_loss, args=(batch,))
    assert local(strategy, losses) == [0.25, 1.25]  # TF 2.21: divided by the global batch, 4
    assert local(strategy, regs) == [2.0, 2.0]
    assert strategy.reduce("SUM", losses, axis=None).numpy() == 1.5
    with pytest.raises(TypeError, match="floating"):
        tf.nn.compute_average_loss(tf.constant([1, 2]))


def test_replica_all_reduce_eager_and_in_function():
    strategy = tf.distribute.MirroredStrategy(TWO_CPUS)
    batch = next(iter(strategy.experimental_distribute_dataset(
        tf.data.Dataset.from_tensor_slices(np.arange(4.0, dtype=np.float32)).batch(4))))

    def body(x):
        context = tf.distribute.get_replica_context()
        return context.all_reduce("SUM", tf.reduce_sum(x)), context.all_reduce("MEAN", {"v": x * 2})

    for fn in (body, tf.function(body)):
        total, mean = strategy.run(fn, args=(batch,))
        assert local(strategy, total) == [6.0, 6.0]
        assert local(strategy, mean["v"]) == [[2.0, 4.0], [2.0, 4.0]]


def _mirrored_weights(strategy, use_function: bool, steps=STEPS):
    x, y = data()
    with strategy.scope():
        model = make_model()
        opt = tf.keras.optimizers.Adam()

    def step(bx, by):
        with tf.GradientTape() as tape:
            loss = tf.nn.compute_average_loss(per_example_loss(by, model(bx, training=True)))
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    step = tf.function(step) if use_function else step
    dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(GLOBAL_BATCH)
    losses = []
    for bx, by in strategy.experimental_distribute_dataset(dataset).__iter__():
        losses.append(float(strategy.reduce("SUM", strategy.run(step, args=(bx, by)), axis=None)))
    assert len(losses) == steps
    return [w.numpy() for w in model.weights], losses


@pytest.mark.parametrize("replicas", [1, 2, 4])
@pytest.mark.parametrize("use_function", [False, True])
def test_mirrored_training_matches_one_process(replicas, use_function):
    strategy = tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(replicas)])
    weights, losses = _mirrored_weights(strategy, use_function)
    for got, want in zip(weights, reference_weights()):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    assert all(np.isfinite(losses))


def test_a_failing_replica_raises_and_the_strategy_recovers():
    strategy = tf.distribute.MirroredStrategy(TWO_CPUS)
    with strategy.scope():
        v = tf.Variable([1.0, 2.0])
        opt = tf.keras.optimizers.SGD(1.0)

    def step(scale):
        if tf.distribute.get_replica_context().replica_id_in_sync_group.numpy() == 1 and scale == 0:
            raise ValueError("replica 1 refused")
        opt.apply_gradients([(tf.constant([1.0, 1.0]) * scale, v)])
        return v.read_value()

    with pytest.raises(ValueError, match="replica 1 refused"):
        strategy.run(step, args=(0,))
    np.testing.assert_array_equal(v.numpy(), [1.0, 2.0])
    strategy.run(step, args=(1,))
    np.testing.assert_array_equal(v.numpy(), [-1.0, 0.0])  # both replicas' gradients summed, applied once
