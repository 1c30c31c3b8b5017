"""TF1's tf.compat.v1.distribute (helper v1rest): the V1 strategy classes, their extended's TF1 flags,
make_dataset_iterator / make_input_fn_iterator / experimental_run in a Session, get_loss_reduction."""

from __future__ import annotations

from . import outcome, program, val


def describe(tf, strategy):
    extended = strategy.extended
    with strategy.scope():
        variable = tf.Variable(2.0)
        replica = strategy.run(lambda: tf.distribute.get_replica_context().replica_id_in_sync_group)
    return [type(strategy).__name__, strategy.num_replicas_in_sync, type(extended).__name__,
            isinstance(extended, tf.compat.v1.distribute.StrategyExtended),
            isinstance(strategy, tf.compat.v1.distribute.Strategy), extended.experimental_between_graph,
            extended.experimental_should_init, extended.should_checkpoint, extended.should_save_summary,
            list(extended.non_slot_devices([])), val(extended.read_var(variable)), val(replica),
            val(strategy.experimental_run(lambda: tf.constant(3.0))),
            type(strategy.update_config_proto(tf.compat.v1.ConfigProto())).__name__]


@program
def p_v1rest_strategy_classes(tf):
    d = tf.compat.v1.distribute
    return {
        "mirrored": describe(tf, d.MirroredStrategy()),
        "one_device": describe(tf, d.OneDeviceStrategy("/cpu:0")),
        "multi_worker": describe(tf, d.experimental.MultiWorkerMirroredStrategy()),
        "tpu": outcome(lambda: d.experimental.TPUStrategy(), "TPU"),
        "loss_reduction": str(d.get_loss_reduction()),
        "replica_context": d.ReplicaContext.__name__,
    }


@program
def p_v1rest_strategy_iterators_session(tf):
    v1 = tf.compat.v1
    graph = tf.Graph()
    with graph.as_default():
        strategy = v1.distribute.MirroredStrategy()
        with strategy.scope():
            reduction = str(v1.distribute.get_loss_reduction())
        iterator = strategy.make_dataset_iterator(tf.data.Dataset.range(6).batch(2))
        from_fn = strategy.make_input_fn_iterator(lambda ctx: tf.data.Dataset.from_tensors(
            [ctx.num_input_pipelines, ctx.input_pipeline_id, ctx.num_replicas_in_sync]))
        result = strategy.experimental_run(lambda x: x * 10, iterator)
        total = strategy.reduce("SUM", result, None)
        context_values = from_fn.get_next()
        inits = [iterator.initialize(), from_fn.initialize()]
        shape = str(result.shape)
    with v1.Session(graph=graph) as sess:
        sess.run(inits)
        first, second = sess.run(result).tolist(), sess.run(total).tolist()
        again = sess.run(context_values).tolist()
    return {"reduction": reduction, "shape": shape, "values": [first, second, again]}
