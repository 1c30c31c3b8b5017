"""Variables made under a MirroredStrategy scope follow their tf.VariableAggregation when a replica assigns
them (TF's MirroredVariable): NONE keeps one copy per replica (so BatchNormalization's moving statistics are
each replica's own, replica 0's read outside the replicas, as TF 2.21 with Keras 3 gives), SUM and MEAN
combine the replicas' values, ONLY_FIRST_REPLICA takes replica 0's. Checked against numpy, eagerly and as
tf.function, for 2 and 4 replicas; tests/conformance/distribute_mirrored_batchnorm.py checks TF's numbers."""

import numpy as np
import pytest

import tinytf as tf
from tinytf.distribute.mirrored_variable import MirroredVariable


def _strategy(n=2):
    return tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(n)])


def _local(strategy, variable):
    return [np.asarray(c) for c in strategy.experimental_local_results(variable)]


def test_aggregation_is_kept_and_checked():
    assert tf.Variable(1.0).aggregation == tf.VariableAggregation.NONE
    assert tf.Variable(1.0, aggregation=tf.VariableAggregation.MEAN).aggregation == tf.VariableAggregation.MEAN
    assert tf.Variable(1.0, aggregation="only_first_replica").aggregation == \
        tf.VariableAggregation.ONLY_FIRST_REPLICA
    with pytest.raises(ValueError, match="Invalid variable aggregation mode"):
        tf.Variable(1.0, aggregation=7)


def test_only_variables_made_under_a_several_replica_scope_are_mirrored():
    outside = tf.Variable(1.0)
    with _strategy(2).scope():
        inside = tf.Variable(1.0)
        layer = tf.keras.layers.Dense(2)
        layer.build((None, 3))
    with _strategy(1).scope():
        single = tf.Variable(1.0)
    assert isinstance(inside, MirroredVariable) and isinstance(layer.kernel, MirroredVariable)
    assert not isinstance(outside, MirroredVariable) and not isinstance(single, MirroredVariable)
    assert type(inside).__name__ == "ResourceVariable"  # the class name programs print stays TF's


@pytest.mark.parametrize("n", [2, 4])
@pytest.mark.parametrize("as_function", [False, True])
def test_replica_assignments_follow_the_aggregation(n, as_function):
    strategy = _strategy(n)
    with strategy.scope():
        total = tf.Variable(1.0, aggregation=tf.VariableAggregation.SUM)
        mean = tf.Variable([1.0, 2.0], aggregation=tf.VariableAggregation.MEAN)
        count = tf.Variable(10, aggregation=tf.VariableAggregation.MEAN)  # integers: the floor of the mean
        first = tf.Variable(0.0, aggregation=tf.VariableAggregation.ONLY_FIRST_REPLICA)
        own = tf.Variable(0.0)

    def step():
        replica = tf.distribute.get_replica_context().replica_id_in_sync_group
        r = tf.cast(replica, tf.float32)
        total.assign_add(r + 1.0)
        mean.assign(mean * 2.0 + r)
        count.assign_sub(replica)
        first.assign(r + 5.0)
        own.assign(r * 10.0)
        return own.read_value() + first

    fn = tf.function(step) if as_function else step
    out = strategy.experimental_local_results(strategy.run(fn))
    ids = np.arange(n, dtype=np.float32)
    assert float(total.numpy()) == 1.0 + float(np.sum(ids + 1))
    np.testing.assert_allclose(mean.numpy(), [2.0 + ids.mean(), 4.0 + ids.mean()], rtol=1e-6)
    assert int(count.numpy()) == 10 - int(np.arange(n).sum()) // n
    assert float(first.numpy()) == 5.0
    assert [float(v) for v in _local(strategy, own)] == [10.0 * i for i in range(n)]  # one copy per replica
    assert float(own.numpy()) == 0.0  # outside the replicas: replica 0's copy (TF's primary)
    assert [float(v) for v in out] == [10.0 * i + 5.0 for i in range(n)]  # each replica read its own copy
    for variable in (total, mean, first):  # combined values: every replica holds the same
        parts = _local(strategy, variable)
        assert all(np.array_equal(p, parts[0]) for p in parts)

    own.assign(3.0)  # the cross-replica context assigns every copy
    assert [float(v) for v in _local(strategy, own)] == [3.0] * n
    assert [float(v) for v in strategy.experimental_local_results(strategy.run(fn))] == \
        [10.0 * i + 5.0 for i in range(n)]


def _bn_model():
    bn = tf.keras.layers.BatchNormalization(momentum=0.5, center=False, scale=False)
    model = tf.keras.Sequential([tf.keras.Input((3,)), bn, tf.keras.layers.Dense(1, use_bias=False)])
    return model, bn


@pytest.mark.parametrize("run_eagerly", [False, True])
def test_fit_keeps_each_replicas_batchnorm_statistics(run_eagerly):
    """Replica r of a 2-replica fit updates its copy with its half of each global batch, as in TF."""
    rng = np.random.default_rng(0)
    x = rng.normal(size=(32, 3)).astype(np.float32)
    x[8:16] = x[8:16] * 3 + 5  # replica 1's shard of the first batch
    x[24:] = x[24:] * 2 - 4  # and of the second
    y = rng.normal(size=(32, 1)).astype(np.float32)
    strategy = _strategy(2)
    with strategy.scope():
        model, bn = _bn_model()
        model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", run_eagerly=run_eagerly)
    model.fit(x, y, batch_size=16, epochs=1, shuffle=False, verbose=0)

    def expected(shards):  # the moving statistics after one update per shard, momentum 0.5
        mean, var = np.zeros(3), np.ones(3)
        for s in shards:
            mean, var = 0.5 * mean + 0.5 * s.mean(axis=0), 0.5 * var + 0.5 * s.var(axis=0)
        return mean, var

    for replica, shards in enumerate([(x[0:8], x[16:24]), (x[8:16], x[24:32])]):
        mean, var = expected(shards)
        np.testing.assert_allclose(_local(strategy, bn.moving_mean)[replica], mean, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(_local(strategy, bn.moving_variance)[replica], var, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(model.get_weights()[0], expected((x[0:8], x[16:24]))[0], rtol=1e-5, atol=1e-6)

    # predict runs each replica with its own statistics: the second half of a batch of 16 uses replica 1's
    kernel = model.get_weights()[2]
    got = model.predict(x[:16], batch_size=16, verbose=0)
    for replica, rows in enumerate([slice(0, 8), slice(8, 16)]):
        mean, var = (_local(strategy, v)[replica] for v in (bn.moving_mean, bn.moving_variance))
        np.testing.assert_allclose(got[rows], (x[rows] - mean) / np.sqrt(var + 1e-3) @ kernel, rtol=1e-4, atol=1e-5)


def test_checkpoint_saves_replica_zeros_copy_and_restore_sets_every_copy(tmp_path):
    strategy = _strategy(2)
    with strategy.scope():
        own = tf.Variable([0.0, 0.0])
    strategy.run(lambda: own.assign(tf.fill([2], tf.cast(tf.distribute.get_replica_context()
                                                              .replica_id_in_sync_group, tf.float32) + 1.0)))
    path = tf.train.Checkpoint(v=own).save(str(tmp_path / "ckpt"))
    own.assign([9.0, 9.0])
    tf.train.Checkpoint(v=own).restore(path)
    assert [v.tolist() for v in _local(strategy, own)] == [[1.0, 1.0], [1.0, 1.0]]


def test_a_pickled_mirrored_variable_is_a_plain_one_with_replica_zeros_value():
    import pickle

    strategy = _strategy(2)
    with strategy.scope():
        layer = tf.keras.layers.Dense(2)
        layer.build((None, 3))
        own = tf.Variable([0.0, 0.0])
    strategy.run(lambda: own.assign(tf.fill([2], tf.cast(tf.distribute.get_replica_context()
                                                              .replica_id_in_sync_group, tf.float32) + 1.0)))
    copy = pickle.loads(pickle.dumps(own))
    assert type(copy) is type(tf.Variable(0.0)) and not isinstance(copy, MirroredVariable)
    assert copy.numpy().tolist() == [1.0, 1.0]
    copy.assign_add([1.0, 1.0])
    assert copy.numpy().tolist() == [2.0, 2.0] and [float(v[0]) for v in _local(strategy, own)] == [1.0, 2.0]
    kernel = pickle.loads(pickle.dumps(layer.kernel))
    assert not isinstance(kernel, MirroredVariable) and kernel.path == layer.kernel.path
    np.testing.assert_array_equal(kernel.numpy(), layer.kernel.numpy())
