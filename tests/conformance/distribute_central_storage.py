"""tf.distribute.experimental.CentralStorageStrategy as TF 2.21 runs it on the CPU: one replica by default,
two on a CPU split into two logical devices, the variables on the parameter device (one copy, assignments
from the replicas aggregated), strategy.run / reduce, a custom training loop, and Keras fit. Record this module
in a fresh process: the CPU must be split before TF reads its devices."""

from __future__ import annotations

import numpy as np

from . import KNOWN_DIFFERENCES, program, val

_made: dict = {}


def _strategies(tf):
    """The default CentralStorageStrategy and one over two logical CPUs (the split undone where the library
    allows it, as distribute_strategies_more does)."""
    if tf.__name__ in _made:
        return _made[tf.__name__]
    cpu = tf.config.list_physical_devices("CPU")[0]
    try:
        tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    except RuntimeError:
        pass
    central = tf.distribute.experimental.CentralStorageStrategy
    made = {"default": central(), "two": central(compute_devices=["/cpu:0", "/cpu:1"], parameter_device="/cpu:0")}
    try:
        tf.config.set_logical_device_configuration(cpu, None)
    except (RuntimeError, TypeError):
        pass
    _made[tf.__name__] = made
    return made


@program
def p_central_storage_devices_and_variables(tf):
    made = _strategies(tf)
    out = []
    for name in ("default", "two"):
        strategy = made[name]
        out.append([strategy.num_replicas_in_sync, list(strategy.extended.worker_devices),
                    list(strategy.extended.parameter_devices), type(strategy.extended).__name__,
                    strategy.extended.should_checkpoint, strategy.cluster_resolver is None])
    strategy = made["two"]
    with strategy.scope():
        v = tf.Variable([1.0, 2.0])
        w = tf.Variable(3.0, aggregation=tf.VariableAggregation.MEAN)
        s = tf.Variable(1.0, aggregation=tf.VariableAggregation.SUM)
    out.append([v.device, val(v), strategy.extended.variable_created_in_scope(v)])

    def times_replica():
        replica = tf.distribute.get_replica_context().replica_id_in_sync_group
        return v * tf.cast(replica + 1, tf.float32)

    result = strategy.run(times_replica)
    out.append([[val(x) for x in strategy.experimental_local_results(result)],
                val(strategy.reduce("SUM", result, axis=None)), val(strategy.reduce("MEAN", result, axis=0))])

    @tf.function
    def update():
        def replica_fn():
            r = tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32)
            w.assign_add(r + 1.0)
            s.assign_add(r + 1.0)

        strategy.run(replica_fn)

    update()
    out.append([val(w), val(s)])
    return out


def _xy():
    rng = np.random.default_rng(0)
    return rng.normal(size=(8, 3)).astype(np.float32), np.random.default_rng(1).normal(size=(8, 1)).astype(np.float32)


@program
def p_central_storage_custom_loop_and_fit(tf):
    strategy = _strategies(tf)["two"]
    x, y = _xy()
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])
        model.set_weights([np.ones((3, 1), np.float32), np.zeros(1, np.float32)])
        optimizer = tf.keras.optimizers.SGD(0.1)
    dataset = strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((x, y)).batch(4))

    @tf.function
    def step(xb, yb):
        def replica_step(xb, yb):
            with tf.GradientTape() as tape:
                per_example = tf.reduce_sum((model(xb) - yb) ** 2, axis=1)
                loss = tf.nn.compute_average_loss(per_example, global_batch_size=4)
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
            return loss

        return strategy.reduce("SUM", strategy.run(replica_step, args=(xb, yb)), axis=None)

    losses = [val(step(*batch)) for batch in dataset]
    return [losses, [np.asarray(w.numpy()).tolist() for w in model.weights]] + _fit(tf, strategy)[1:]


def _fit(tf, strategy):
    """Keras fit, evaluate and predict under the strategy: [logs, weights, predictions]."""
    x, y = _xy()
    with strategy.scope():
        fitted = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])
        fitted.set_weights([np.ones((3, 1), np.float32), np.zeros(1, np.float32)])
        fitted.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
    history = fitted.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0)
    weights = [np.asarray(w.numpy()).tolist() for w in fitted.weights]
    logs = [history.history, val(fitted.evaluate(x, y, batch_size=3, verbose=0, return_dict=True))]
    return [logs, weights, fitted.predict(x[:3], batch_size=2, verbose=0).tolist()]


KNOWN_DIFFERENCES["central_storage_fit_logs"] = (
    "TF 2.21's Keras 3 metrics under CentralStorageStrategy lose state: their AggregatingVariables are not reset "
    "between evaluate calls and drop part of the replicas' updates (evaluate of |0 - [1..8]| with batch 4 gives "
    "3.83, its state 46 / 12); tinytf logs the metrics of the whole global batch, as one replica would")


@program
def p_central_storage_fit_logs(tf):
    return _fit(tf, _strategies(tf)["two"])[0]
