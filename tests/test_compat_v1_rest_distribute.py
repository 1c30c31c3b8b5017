"""TF1 strategy classes (helper v1rest) beyond TF's recorded results (tests/conformance/
compat_v1_rest_distribute.py): the local CentralStorage / ParameterServer V1 strategies (TF 2.21's fail on a machine
without GPUs), make_dataset_iterator splitting a batch across two replicas, eagerly and in a Session."""

import numpy as np
import pytest

import tinytf as tf

v1 = tf.compat.v1


@pytest.mark.parametrize("make", [v1.distribute.experimental.CentralStorageStrategy,
                                  v1.distribute.experimental.ParameterServerStrategy])
def test_local_v1_strategies_run_on_this_host(make):
    strategy = make()
    assert isinstance(strategy, v1.distribute.Strategy) and strategy.num_replicas_in_sync == 1
    with strategy.scope():
        v = tf.Variable(3.0)
    assert float(strategy.extended.read_var(v)) == 3.0
    assert float(strategy.experimental_run(lambda: v * 2)) == 6.0


def test_parameter_server_v1_with_a_cluster_says_it_is_unsupported():
    resolver = tf.distribute.cluster_resolver.SimpleClusterResolver(
        tf.train.ClusterSpec({"ps": ["localhost:1"], "worker": ["localhost:2"]}))
    with pytest.raises(NotImplementedError, match="between-graph"):
        v1.distribute.experimental.ParameterServerStrategy(resolver)


def test_make_dataset_iterator_eagerly_matches_numpy():
    strategy = v1.distribute.OneDeviceStrategy("/cpu:0")
    data = np.arange(6, dtype=np.float32)
    iterator = strategy.make_dataset_iterator(tf.data.Dataset.from_tensor_slices(data).batch(3))
    assert iterator.initialize() == []
    got = [strategy.experimental_run(lambda x: x * x, iterator).numpy() for _ in range(2)]
    np.testing.assert_array_equal(np.concatenate(got), data * data)


def test_make_dataset_iterator_splits_batches_across_replicas():
    strategy = v1.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    if strategy.num_replicas_in_sync != 2:
        pytest.skip("this tinytf build gives one replica for two CPU names")
    graph = tf.Graph()
    with graph.as_default():
        iterator = strategy.make_dataset_iterator(tf.data.Dataset.range(8).batch(4))
        parts = strategy.experimental_local_results(iterator.get_next())
        init = iterator.initialize()
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        assert [p.tolist() for p in sess.run(list(parts))] == [[0, 1], [2, 3]]
