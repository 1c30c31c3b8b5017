"""BatchNormalization under a 2-replica MirroredStrategy, as TF 2.21 with Keras 3 runs it. Keras 3 makes the
moving mean and variance with aggregation NONE, so TF's MirroredVariable lets each replica assign its own
copy in the replica context: the copies diverge (each holds the statistics of its own shards), a read in the
cross-replica context (get_weights, numpy, checkpoints) gives replica 0's copy, and evaluate / predict run each
replica with its own copy. The programs feed the two replicas shards of very different mean and scale, so
that averaging the replicas' statistics, or keeping the last replica's, gives other numbers."""

from __future__ import annotations

import numpy as np

from . import data, program, val
from .distribute_mirrored_fit import _two_replicas


def _batches(rows: int, width: int, seed: int):
    """Inputs whose second half of every global batch of 16 (replica 1's shard) is shifted and scaled."""
    x = data((rows, width), seed=seed)
    for start in range(8, rows, 16):
        x[start:start + 8] = x[start:start + 8] * 3.0 + 2.0
    return x.astype("float32")


def _moving_stats(tf, strategy, layer):
    """Each replica's copy of the moving mean and variance. Keras 3 wraps the tf.Variable (`.value`)."""
    out = {}
    for name in ("moving_mean", "moving_variance"):
        variable = getattr(layer, name)
        if tf.__name__ == "tensorflow":
            variable = variable.value
        out[name] = [val(np.asarray(c)) for c in strategy.experimental_local_results(variable)]
    return out


def _report(tf, strategy, model, bn, x, y, history):
    evaluated = model.evaluate(x, y, batch_size=16, verbose=0, return_dict=True)
    return {"weights": [val(w) for w in model.get_weights()],
            "per_replica": _moving_stats(tf, strategy, bn),
            "history": {k: [round(float(v), 5) for v in vs] for k, vs in sorted(history.history.items())},
            "evaluate": {k: round(float(v), 5) for k, v in sorted(evaluated.items())},
            "predict": val(model.predict(x[:16], batch_size=16, verbose=0))}


@program
def p_mirrored_fit_batchnorm_two_replicas(tf):
    strategy = _two_replicas(tf)
    x = _batches(32, 3, seed=11)
    y = data((32, 2), seed=12)
    with strategy.scope():
        bn = tf.keras.layers.BatchNormalization(momentum=0.5)
        model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4), bn,
                                     tf.keras.layers.Dense(2)])
        model.set_weights([data(w.shape, seed=13 + i, scale=0.5) if "moving" not in v.path else w
                           for i, (w, v) in enumerate(zip(model.get_weights(), model.weights))])
        model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    history = model.fit(x, y, batch_size=16, epochs=2, shuffle=False, verbose=0)
    return _report(tf, strategy, model, bn, x, y, history)


@program
def p_mirrored_custom_loop_batchnorm_two_replicas(tf):
    """A custom tf.function step under strategy.run: the same per-replica statistics, and a cross-replica
    assign (set_weights) makes the copies equal again."""
    strategy = _two_replicas(tf)
    x = _batches(32, 3, seed=21)
    with strategy.scope():
        bn = tf.keras.layers.BatchNormalization(momentum=0.75, center=False, scale=False)
        bn.build((None, 3))
    dataset = strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices(x).batch(16))

    @tf.function
    def step(batch):
        return bn(batch, training=True)

    outputs = [val(np.concatenate([np.asarray(o) for o in strategy.experimental_local_results(
        strategy.run(step, args=(batch,)))])) for batch in dataset]
    diverged = _moving_stats(tf, strategy, bn)
    bn.set_weights([np.full((3,), 0.5, "float32"), np.full((3,), 2.0, "float32")])
    return {"outputs": outputs, "diverged": diverged, "after_set_weights": _moving_stats(tf, strategy, bn),
            "read": val(bn.moving_mean.numpy())}


def _aggregated_variables(tf, strategy):
    with strategy.scope():
        return {"sum": tf.Variable(1.0, aggregation=tf.VariableAggregation.SUM),
                "sum_assign": tf.Variable(0.0, aggregation=tf.VariableAggregation.SUM),
                "mean": tf.Variable([1.0, 2.0], aggregation=tf.VariableAggregation.MEAN),
                "first": tf.Variable(0.0, aggregation=tf.VariableAggregation.ONLY_FIRST_REPLICA),
                "none": tf.Variable(0.0)}


def _assign_in_replicas(tf, variables):
    replica = tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32)
    variables["sum"].assign_add(replica + 1.0)  # SUM: the deltas summed, 1 + (1 + 2)
    variables["sum_assign"].assign(replica + 1.0)  # SUM: the values summed, 1 + 2
    variables["mean"].assign(variables["mean"] * 2.0 + replica)  # MEAN: the values averaged
    variables["first"].assign_sub(replica + 5.0)  # ONLY_FIRST_REPLICA: replica 0's delta
    variables["none"].assign(replica + 7.0)  # NONE: each replica its own copy
    return variables["none"].read_value() + variables["first"].read_value()


def _aggregation_report(tf, strategy, variables, returned):
    out = {"returned": [val(np.asarray(r)) for r in strategy.experimental_local_results(returned)]}
    for key, variable in variables.items():
        out[key] = {"read": val(variable.numpy()),
                    "per_replica": [val(np.asarray(c)) for c in strategy.experimental_local_results(variable)]}
    return out


@program
def p_mirrored_variable_aggregation_in_function(tf):
    """Assignments inside strategy.run of a tf.function, for every tf.VariableAggregation, run twice."""
    strategy = _two_replicas(tf)
    variables = _aggregated_variables(tf, strategy)
    step = tf.function(lambda: _assign_in_replicas(tf, variables))
    strategy.run(step)
    return _aggregation_report(tf, strategy, variables, strategy.run(step))


@program
def p_mirrored_variable_aggregation_eager(tf):
    """The same assignments in an eager strategy.run, then an assignment from the cross-replica context."""
    strategy = _two_replicas(tf)
    variables = _aggregated_variables(tf, strategy)
    returned = strategy.run(lambda: _assign_in_replicas(tf, variables))
    first = _aggregation_report(tf, strategy, variables, returned)
    variables["none"].assign(3.0)
    variables["sum"].assign_add(1.0)
    return {"after_run": first, "after_cross_replica_assign": _aggregation_report(tf, strategy, variables, 0.0)}
