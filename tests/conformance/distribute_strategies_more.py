"""The rest of tf.distribute as TF 2.21 runs it on the CPU: OneDeviceStrategy, strategy.extended
(StrategyExtended: devices, update, reduce_to, batch_reduce_to, call_for_each_replica), the cross-device
algorithms (ReductionToOneDevice, HierarchicalCopyAllReduce, NcclAllReduce: reduce, batch_reduce, broadcast,
as MirroredStrategy's cross_device_ops), DistributedDataset / DistributedIterator (get_next_as_optional),
RunOptions, experimental_set_strategy, the cluster resolvers reading TF_CONFIG, and MultiWorkerMirroredStrategy
of one worker, whose training equals the same program without a strategy."""

from __future__ import annotations

import json
import os

from . import data, outcome, program, val

_strategies: dict = {}


def _two_replicas(tf):
    """The CPU split into two logical devices (before TF reads its devices: record this module in a fresh
    process), then undone where the library allows it, as distribute_mirrored_fit does."""
    if tf.__name__ in _strategies:
        return _strategies[tf.__name__]
    cpu = tf.config.list_physical_devices("CPU")[0]
    try:
        tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    except RuntimeError:
        pass
    # one strategy per process: TF's collectives of a second 2-replica MirroredStrategy in one process clash
    strategies = {"default": tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"],
                                                            cross_device_ops=tf.distribute.HierarchicalCopyAllReduce())}
    try:
        tf.config.set_logical_device_configuration(cpu, None)
    except (RuntimeError, TypeError):
        pass
    _strategies[tf.__name__] = strategies
    return strategies


def _replica_values(tf, strategy):
    def fn():
        replica = tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32)
        return tf.stack([replica + 1.0, 10.0 * replica - 2.0])

    return strategy.run(fn)


def _mirrored(value):
    """A Mirrored / PerReplica value as its class name and components."""
    return [type(value).__name__, [val(v) for v in getattr(value, "values", (value,))]]


@program
def p_one_device_strategy_run_reduce_and_input(tf):
    strategy = tf.distribute.OneDeviceStrategy("/cpu:0")
    out = [strategy.num_replicas_in_sync, type(strategy.extended).__name__,
           isinstance(strategy.extended, tf.distribute.StrategyExtended), list(strategy.extended.worker_devices),
           list(strategy.extended.parameter_devices), strategy.cluster_resolver is None]
    doubled = strategy.run(lambda x: x * 2.0, args=(tf.constant([1.0, 2.0]),))
    out += [val(doubled), val(strategy.reduce("SUM", doubled, axis=None)),
            val(strategy.reduce("MEAN", doubled, axis=0)), len(strategy.experimental_local_results(doubled))]
    dataset = strategy.experimental_distribute_dataset(tf.data.Dataset.range(5).batch(2))
    iterator = iter(dataset)
    out += [isinstance(dataset, tf.distribute.DistributedDataset),
            isinstance(iterator, tf.distribute.DistributedIterator), str(dataset.element_spec),
            str(iterator.element_spec), val(next(iterator))]
    optional = iterator.get_next_as_optional()
    out += [val(optional.has_value()), val(optional.get_value()), val(iterator.get_next())]
    out += [val(iterator.get_next_as_optional().has_value()),
            outcome(lambda: iterator.get_next(), "End of sequence")]
    contexts = []

    def dataset_fn(context):
        contexts.append([context.num_input_pipelines, context.input_pipeline_id, context.num_replicas_in_sync,
                         context.get_per_replica_batch_size(4)])
        return tf.data.Dataset.range(3).batch(2)

    out += [[val(x) for x in strategy.distribute_datasets_from_function(dataset_fn)], contexts]

    @tf.function
    def in_graph(x):
        return strategy.run(lambda y: y + 1.0, args=(x,))

    out.append(val(in_graph(tf.constant(1.0))))
    return out


@program
def p_one_device_strategy_extended_and_variables(tf):
    strategy = tf.distribute.OneDeviceStrategy("/cpu:0")
    extended = strategy.extended
    with strategy.scope():
        v = tf.Variable(1.0)
        inside = [tf.distribute.has_strategy(), tf.distribute.get_strategy() is strategy]
    outside = tf.Variable(2.0)
    updated = extended.update(v, lambda var, d: var.assign_add(d), args=(tf.constant(2.0),))
    return [inside, extended.variable_created_in_scope(v), extended.variable_created_in_scope(outside),
            val(updated.read_value()), val(v), val(extended.reduce_to(tf.distribute.ReduceOp.SUM, tf.constant(3.0), v)),
            [val(t) for t in extended.batch_reduce_to("SUM", [(tf.constant(3.0), v), (tf.constant(4), "/cpu:0")])],
            [extended.experimental_require_static_shapes, extended.should_checkpoint, extended.should_save_summary],
            extended.value_container(v) is v,
            outcome(lambda: extended.colocate_vars_with(v).__enter__(), "strategy.scope()")]


@program
def p_one_device_strategy_keras_fit_equals_no_strategy(tf):
    x, y = data((32, 4), seed=1), data((32, 2), seed=2)

    def train(strategy):
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(3, activation="tanh"),
                                         tf.keras.layers.Dense(2)])
            model.set_weights([data(w.shape, seed=5 + i, scale=0.5) for i, w in enumerate(model.get_weights())])
            model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
        history = model.fit(x, y, batch_size=8, epochs=2, shuffle=False, verbose=0)
        return model, history

    model, history = train(tf.distribute.OneDeviceStrategy("/cpu:0"))
    plain, plain_history = train(tf.distribute.get_strategy())
    return {"weights": [val(w) for w in model.get_weights()],
            "same_as_no_strategy": all(bool((a == b).all()) for a, b in zip(model.get_weights(), plain.get_weights())),
            "loss": [round(float(v), 5) for v in history.history["loss"]],
            "plain_loss": [round(float(v), 5) for v in plain_history.history["loss"]],
            "strategy": type(model.distribute_strategy).__name__}


@program
def p_cross_device_ops_reduce_batch_reduce_broadcast(tf):
    out = {}
    for name, strategy in _two_replicas(tf).items():
        values = _replica_values(tf, strategy)
        out[name] = [val(strategy.reduce("SUM", values, axis=None)), val(strategy.reduce("MEAN", values, axis=None))]
    # (TF runs NcclAllReduce's reductions on GPUs only: "No OpKernel was registered" on the CPU; tinytf's tests
    # check its sums against numpy)
    cls = {"one_device": tf.distribute.ReductionToOneDevice, "hierarchical": tf.distribute.HierarchicalCopyAllReduce}
    strategy = _two_replicas(tf)["default"]
    values = _replica_values(tf, strategy)
    for name, make in cls.items():
        ops = make()
        several = values
        out[name + "_ops"] = [
            _mirrored(ops.reduce(tf.distribute.ReduceOp.SUM, values, destinations="/cpu:0")),
            _mirrored(ops.reduce(tf.distribute.ReduceOp.MEAN, values, destinations=several)),
            [_mirrored(r) for r in ops.batch_reduce(tf.distribute.ReduceOp.SUM,
                                                    [(values, several), (values, several)])],
            _mirrored(ops.broadcast(tf.constant(5.0), values)),
            outcome(lambda ops=ops: ops.reduce("SUM", values, destinations="/cpu:0"), "must be Reduce.SUM"),
            isinstance(ops, tf.distribute.CrossDeviceOps)]
    out["accumulation_fn"] = _mirrored(tf.distribute.ReductionToOneDevice(
        accumulation_fn=lambda parts: tf.math.add_n(parts) * 10.0).reduce(tf.distribute.ReduceOp.SUM, values, "/cpu:0"))
    out["nccl"] = isinstance(tf.distribute.NcclAllReduce(), tf.distribute.CrossDeviceOps)
    out["num_packs"] = [outcome(lambda: tf.distribute.HierarchicalCopyAllReduce(num_packs=-1), "num_packs >= 0"),
                        outcome(lambda: tf.distribute.NcclAllReduce(num_packs=-1), "num_packs >= 0")]
    return out


@program
def p_mirrored_extended_update_reduce_to(tf):
    strategy = _two_replicas(tf)["default"]
    extended = strategy.extended
    with strategy.scope():
        v = tf.Variable(1.0)
    values = _replica_values(tf, strategy)
    updated = extended.update(v, lambda var, d: var.assign_add(d), args=(tf.constant(2.0),))
    return [type(extended).__name__, list(extended.worker_devices), list(extended.parameter_devices),
            extended.variable_created_in_scope(v), extended.variable_created_in_scope(tf.Variable(0.0)),
            _mirrored(updated), val(v),
            _mirrored(extended.reduce_to("SUM", values, v)), _mirrored(extended.reduce_to("MEAN", values, "/cpu:0")),
            [_mirrored(r) for r in extended.batch_reduce_to("SUM", [(values, v), (values, v)])],
            _mirrored(extended.call_for_each_replica(
                lambda: tf.distribute.get_replica_context().replica_id_in_sync_group)),
            val(strategy.gather(values, axis=0)),
            _mirrored(strategy.experimental_distribute_values_from_function(
                lambda ctx: tf.constant(float(ctx.replica_id_in_sync_group * 10 + ctx.num_replicas_in_sync))))]


@program
def p_mirrored_distributed_iterator(tf):
    strategy = _two_replicas(tf)["default"]
    dataset = strategy.experimental_distribute_dataset(tf.data.Dataset.range(6).batch(4))
    iterator = iter(dataset)
    first = iterator.get_next()
    optional = iterator.get_next_as_optional()
    return [isinstance(dataset, tf.distribute.DistributedDataset),
            isinstance(iterator, tf.distribute.DistributedIterator), _mirrored(first), val(optional.has_value()),
            _mirrored(optional.get_value()),
            val(iterator.get_next_as_optional().has_value()), outcome(lambda: next(iterator), "")]


@program
def p_run_options_and_set_strategy(tf):
    options = tf.distribute.RunOptions()
    out = [str(options), options.experimental_enable_dynamic_batch_size,
           tf.distribute.RunOptions(experimental_enable_dynamic_batch_size=False).experimental_enable_dynamic_batch_size]
    strategy = tf.distribute.OneDeviceStrategy("/cpu:0")
    out.append(val(strategy.run(lambda: tf.constant(3.0), options=options)))
    tf.distribute.experimental_set_strategy(strategy)
    try:
        out += [tf.distribute.get_strategy() is strategy, tf.distribute.has_strategy(),
                tf.distribute.in_cross_replica_context()]
        with strategy.scope():
            out.append(outcome(lambda: tf.distribute.experimental_set_strategy(None), "inside a"))
        other = tf.distribute.OneDeviceStrategy("/cpu:0")
        tf.distribute.experimental_set_strategy(other)
        out.append(tf.distribute.get_strategy() is other)
    finally:
        tf.distribute.experimental_set_strategy(None)
    out.append(tf.distribute.has_strategy())
    return out


def _with_tf_config(config, fn):
    saved = os.environ.get("TF_CONFIG")
    if config is None:
        os.environ.pop("TF_CONFIG", None)
    else:
        os.environ["TF_CONFIG"] = json.dumps(config) if isinstance(config, dict) else config
    try:
        return fn()
    finally:
        if saved is None:
            os.environ.pop("TF_CONFIG", None)
        else:
            os.environ["TF_CONFIG"] = saved


@program
def p_cluster_resolvers(tf):
    resolvers = tf.distribute.cluster_resolver
    config = {"cluster": {"worker": ["localhost:12345", "localhost:23456"], "chief": ["localhost:1111"]},
              "task": {"type": "worker", "index": 1}, "rpc_layer": "grpc"}

    def tf_config():
        r = resolvers.TFConfigClusterResolver()
        fixed = resolvers.TFConfigClusterResolver(task_type="chief", task_id=0)
        before = [fixed.task_type, fixed.task_id, fixed.master()]
        fixed.task_type, fixed.task_id = "worker", 0
        return [str(r.cluster_spec()), r.task_type, r.task_id, r.master(), r.master("chief", 0), r.master(rpc_layer=""),
                r.master("worker", 0, rpc_layer="grpc"), r.rpc_layer, r.environment, dict(r.num_accelerators()),
                outcome(lambda: r.master("ps", 0), "No such job"), before,
                [fixed.task_type, fixed.task_id, fixed.master()], isinstance(r, resolvers.ClusterResolver)]

    simple = resolvers.SimpleClusterResolver(tf.train.ClusterSpec({"worker": ["a:1", "b:2"]}), task_type="worker",
                                             task_id=0)
    other = resolvers.SimpleClusterResolver(tf.train.ClusterSpec({"worker": ["a:1"]}), master="grpc://a:1",
                                            num_accelerators={"GPU": 2})
    return [_with_tf_config(config, tf_config),
            _with_tf_config("{}", lambda: [str(resolvers.TFConfigClusterResolver().cluster_spec()),
                                           resolvers.TFConfigClusterResolver().task_type,
                                           resolvers.TFConfigClusterResolver().master()]),
            _with_tf_config("not json", lambda: outcome(lambda: resolvers.TFConfigClusterResolver().cluster_spec(),
                                                        "Expecting value")),
            [str(simple.cluster_spec()), simple.master(), simple.task_type, simple.task_id, simple.environment,
             simple.num_accelerators(), simple.rpc_layer],
            [other.master(), other.num_accelerators(), other.task_type, other.task_id],
            outcome(lambda: resolvers.ClusterResolver(), "abstract")]


@program
def p_multi_worker_mirrored_one_worker_equals_no_strategy(tf):
    x, y = data((16, 3), seed=3), data((16, 1), seed=4)

    def train(strategy):
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])
            model.set_weights([data(w.shape, seed=7 + i, scale=0.5) for i, w in enumerate(model.get_weights())])
            optimizer = tf.keras.optimizers.SGD(0.2)
        dataset = strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((x, y)).batch(8))

        @tf.function
        def step(xb, yb):
            with tf.GradientTape() as tape:
                per_example = tf.reduce_mean(tf.square(model(xb) - yb), axis=1)
                loss = tf.nn.compute_average_loss(per_example, global_batch_size=8)
            optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
            return loss

        losses = [float(strategy.reduce("SUM", strategy.run(step, args=batch), axis=None)) for batch in dataset]
        return model, losses

    strategy = _with_tf_config(None, tf.distribute.MultiWorkerMirroredStrategy)
    model, losses = train(strategy)
    plain, plain_losses = train(tf.distribute.get_strategy())
    return {"replicas": strategy.num_replicas_in_sync, "extended": type(strategy.extended).__name__,
            "devices": list(strategy.extended.worker_devices),
            "resolver": type(strategy.cluster_resolver).__name__,
            "task": [strategy.cluster_resolver.task_type, strategy.cluster_resolver.task_id],
            "chief": [strategy.extended.should_checkpoint, strategy.extended.should_save_summary],
            "losses": [round(v, 5) for v in losses], "plain_losses": [round(v, 5) for v in plain_losses],
            "weights": [val(w) for w in model.get_weights()],
            "same_as_no_strategy": all(bool((a == b).all()) for a, b in zip(model.get_weights(), plain.get_weights())),
            "options": str(tf.distribute.experimental.CommunicationOptions()),
            "experimental_alias": issubclass(tf.distribute.experimental.MultiWorkerMirroredStrategy,
                                             tf.distribute.MultiWorkerMirroredStrategy)}


@program
def p_guide_default_strategy_reduce_and_function_around_run(tf):
    """distributed_training.ipynb: the default strategy's reduce in library code, and a custom loop whose
    tf.function wraps strategy.run, on two replicas."""
    default = tf.distribute.get_strategy()
    out = [repr(default.reduce("SUM", 1.0, axis=None)), val(default.reduce("SUM", tf.constant(2.0), axis=None))]
    strategy = _two_replicas(tf)["default"]  # two replicas: each global batch of 10 split 5 + 5
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(1,),
                                                           kernel_regularizer=tf.keras.regularizers.L2(1e-4))])
        model.set_weights([data(w.shape, seed=2 + i, scale=0.5) for i, w in enumerate(model.get_weights())])
        optimizer = tf.keras.optimizers.SGD()
    dataset = tf.data.Dataset.from_tensors(([1.0], [1.0])).repeat(40).batch(5 * strategy.num_replicas_in_sync)
    dist_dataset = strategy.experimental_distribute_dataset(dataset)
    loss_object = tf.keras.losses.BinaryCrossentropy(from_logits=True, reduction="none")

    def train_step(inputs):
        features, labels = inputs
        with tf.GradientTape() as tape:
            per_example_loss = loss_object(labels, model(features, training=True))
            loss = tf.nn.compute_average_loss(per_example_loss)
            if model.losses:
                loss += tf.nn.scale_regularization_loss(tf.add_n(model.losses))
        optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
        return loss

    @tf.function
    def distributed_train_step(dist_inputs):
        per_replica_losses = strategy.run(train_step, args=(dist_inputs,))
        return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica_losses, axis=None)

    out.append([round(float(distributed_train_step(x)), 5) for x in dist_dataset])
    iterator = iter(dist_dataset)
    out.append([round(float(distributed_train_step(next(iterator))), 5) for _ in range(3)])
    out.append([val(w) for w in model.get_weights()])
    return out


@program
def p_input_tutorial_element_spec_as_input_signature(tf):
    """input.ipynb: a distributed dataset's element_spec (PerReplicaSpec leaves on two replicas) as the
    input_signature of the step function."""
    strategy = _two_replicas(tf)["default"]
    dataset = tf.data.Dataset.from_tensors(([1.0], [1.0])).repeat(40).batch(16)
    dist_dataset = strategy.experimental_distribute_dataset(dataset)

    @tf.function(input_signature=[dist_dataset.element_spec])
    def train_step(per_replica_inputs):
        return strategy.run(lambda inputs: 2 * inputs[0] + inputs[1], args=(per_replica_inputs,))

    iterator = iter(dist_dataset)
    outputs = [train_step(next(iterator)) for _ in range(3)]
    return [str(dist_dataset.element_spec), [_mirrored(o) for o in outputs]]
