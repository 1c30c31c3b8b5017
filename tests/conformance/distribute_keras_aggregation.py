"""A custom Keras layer's weights made with add_weight(aggregation=...) under a 2-replica MirroredStrategy, as
TF 2.21 with Keras 3 runs them: each replica assigns in its step; SUM and MEAN combine the replicas' deltas and
every copy gets the result, ONLY_FIRST_REPLICA takes replica 0's, NONE leaves each replica its own copy (a
read outside the replicas gives replica 0's). Also the checks of the argument: Keras' ValueError for an unknown
aggregation, and add_weight's TypeError for `synchronization`, which Keras 3.15's add_weight does not take."""

from __future__ import annotations

import numpy as np

from . import outcome, program
from .distribute_mirrored_fit import _two_replicas

_AGGREGATIONS = ("sum", "mean", "only_first_replica", "none")


def _layer_class(tf):
    class Counting(tf.keras.layers.Layer):
        def build(self, input_shape):
            self.counters = [self.add_weight(shape=(2,), initializer="zeros", trainable=False, aggregation=a,
                                             name=a) for a in _AGGREGATIONS]

        def call(self, x):
            replica = tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32)
            for counter in self.counters:
                counter.assign_add(tf.stack([replica + 1.0, tf.reduce_sum(x)]))
            return x * 2.0

    return Counting


def _per_replica(tf, strategy, variable):
    if tf.__name__ == "tensorflow":  # Keras 3 wraps the tf.Variable
        variable = variable.value
    return [np.asarray(c).round(5).tolist() for c in strategy.experimental_local_results(variable)]


@program
def p_add_weight_aggregation_in_replica_steps(tf):
    strategy = _two_replicas(tf)
    with strategy.scope():
        layer = _layer_class(tf)()
        layer.build((None, 2))

    @tf.function
    def step(x):
        return layer(x)

    batch = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    dist = next(iter(strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices(batch).batch(2))))
    out = strategy.run(step, args=(dist,))
    strategy.run(step, args=(dist,))
    return {"out": [np.asarray(o).tolist() for o in strategy.experimental_local_results(out)],
            "aggregation": [str(c.aggregation) for c in layer.counters],
            "read": {a: np.asarray(c.numpy()).round(5).tolist() for a, c in zip(_AGGREGATIONS, layer.counters)},
            "per_replica": {a: _per_replica(tf, strategy, c) for a, c in zip(_AGGREGATIONS, layer.counters)}}


@program
def p_add_weight_aggregation_in_fit(tf):
    strategy = _two_replicas(tf)

    class Summing(tf.keras.layers.Layer):
        def build(self, input_shape):
            self.seen = self.add_weight(shape=(), initializer="zeros", trainable=False, aggregation="sum",
                                        name="seen")
            self.dense = tf.keras.layers.Dense(1, kernel_initializer="ones")

        def call(self, x, training=False):
            if training:
                self.seen.assign_add(tf.cast(tf.shape(x)[0], tf.float32))
            return self.dense(x)

    with strategy.scope():
        layer = Summing()
        model = tf.keras.Sequential([tf.keras.Input((2,)), layer])
        model.compile(optimizer=tf.keras.optimizers.SGD(0.01), loss="mse")
    x = np.arange(32, dtype="float32").reshape(16, 2) / 16.0
    y = x.sum(axis=1, keepdims=True)
    model.fit(x, y, batch_size=8, epochs=2, shuffle=False, verbose=0)
    return {"seen": float(layer.seen.numpy()), "per_replica": _per_replica(tf, strategy, layer.seen),
            "kernel": np.asarray(layer.dense.kernel.numpy()).round(5).tolist()}


@program
def p_add_weight_aggregation_errors(tf):
    class Bad(tf.keras.layers.Layer):
        def __init__(self, **kwargs):
            self.bad = kwargs.pop("bad")
            super().__init__(**kwargs)

        def build(self, input_shape):
            self.w = self.add_weight(shape=(), **self.bad)

    def build(bad):
        return lambda: Bad(bad=bad).build((None, 1))

    return {"aggregation": outcome(build({"aggregation": "bogus"}), "Invalid value for argument `aggregation`"),
            "synchronization": outcome(build({"synchronization": "on_read"}),
                                       "unexpected keyword argument 'synchronization'"),
            "default": str(tf.keras.layers.Dense(1).add_weight(shape=(), name="w").aggregation)}
