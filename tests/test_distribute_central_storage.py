"""CentralStorageStrategy (TF-recorded numbers: conformance/distribute_central_storage.py): its replicas are
threads sharing the one copy of the variables whatever TINYTF_MIRRORED_REPLICAS asks, and it trains as
MirroredStrategy does. Also: a step without outputs run by strategy.run inside a tf.function still runs (its
assignments were dropped from the graph before)."""

import numpy as np
import pytest

import tinytf as tf
from tests.distribute_helpers import GLOBAL_BATCH, data, make_model, per_example_loss, reference_weights


def test_replicas_are_threads_sharing_the_variables(monkeypatch):
    monkeypatch.setenv("TINYTF_MIRRORED_REPLICAS", "processes")
    strategy = tf.distribute.experimental.CentralStorageStrategy(["/cpu:0", "/cpu:1"])
    assert strategy.replica_backend == "threads"
    with pytest.raises(ValueError, match="threads"):
        strategy.replica_backend = "processes"
    assert strategy.extended.parameter_devices == ("/job:localhost/replica:0/task:0/device:CPU:0",)


@pytest.mark.parametrize("make", [lambda: tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"]),
                                  lambda: tf.distribute.experimental.CentralStorageStrategy(["/cpu:0", "/cpu:1"])])
def test_a_step_without_outputs_inside_tf_function_runs(make):
    strategy = make()
    with strategy.scope():
        total = tf.Variable(0.0, aggregation=tf.VariableAggregation.SUM)

    @tf.function
    def add():
        def replica():
            total.assign_add(tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32) + 1)

        strategy.run(replica)

    add()
    add()
    assert total.numpy() == 6.0  # (1 + 2) per call, summed over the replicas


def test_custom_loop_trains_to_one_process_weights():
    strategy = tf.distribute.experimental.CentralStorageStrategy(["/cpu:0", "/cpu:1"])
    x, y = data()
    with strategy.scope():
        model = make_model()
        optimizer = tf.keras.optimizers.Adam()

    @tf.function
    def step(bx, by):
        def replica(bx, by):
            with tf.GradientTape() as tape:
                loss = tf.nn.compute_average_loss(per_example_loss(by, model(bx, training=True)))
            optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
            return loss

        return strategy.reduce("SUM", strategy.run(replica, args=(bx, by)), axis=None)

    dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(GLOBAL_BATCH)
    for batch in strategy.experimental_distribute_dataset(dataset):
        step(*batch)
    for got, want in zip(model.weights, reference_weights()):
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, atol=1e-6)
