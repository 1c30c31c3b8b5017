"""ParameterServerStrategy with ClusterCoordinator on an in-process cluster (one worker, two ps tasks, on free
localhost ports), as TF 2.21 runs it: variables placed round robin on the ps tasks, sharded variables, scheduled
training steps of a fixed-weights Keras model and of plain variables (the parameter-server tutorial's loop with
synthetic data), per-worker datasets, RemoteValue fetch/get, errors raised at join and fetch, and the variable
partitioners. TF's servers cannot be stopped; tinytf's are stopped at the end of the program (`stop`)."""

from __future__ import annotations

import os
import socket
import tempfile

from . import data, outcome, program, val


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("localhost", 0))
        return s.getsockname()[1]


def _cluster(tf, num_workers, num_ps):
    """Servers for every task of a cluster on free ports (tf.test.create_local_cluster needs `portpicker` in TF)."""
    jobs = {"worker": [f"localhost:{_free_port()}" for _ in range(num_workers)],
            "ps": [f"localhost:{_free_port()}" for _ in range(num_ps)]}
    spec = tf.train.ClusterSpec(jobs)
    servers = [tf.distribute.Server(spec, job_name=job, task_index=i, protocol="grpc", start=True)
               for job in ("worker", "ps") for i in range(len(jobs[job]))]
    resolver = tf.distribute.cluster_resolver.SimpleClusterResolver(spec, rpc_layer="grpc")
    return servers, resolver


def _stop(servers, coordinator=None):
    if coordinator is not None and hasattr(coordinator, "shutdown"):  # tinytf's clean-up; TF's live on
        coordinator.shutdown()
    for server in servers:
        if hasattr(server, "stop"):
            server.stop()


@program
def p_parameter_server_training(tf):
    servers, resolver = _cluster(tf, 1, 2)
    # 60 bytes of `table` make 2 shards; the others (24 bytes and less) stay whole
    partitioner = tf.distribute.experimental.partitioners.MinSizePartitioner(min_shard_bytes=24, max_shards=2)
    strategy = tf.distribute.ParameterServerStrategy(resolver, variable_partitioner=partitioner)
    coordinator = tf.distribute.coordinator.ClusterCoordinator(strategy)
    try:
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.Input(shape=(3,)), tf.keras.layers.Dense(2, activation="tanh")])
            optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)
            w = tf.Variable(data([3, 1], seed=5), name="w")
            table = tf.Variable(tf.reshape(tf.range(15.0), [5, 3]), name="table")
            counter = tf.Variable(0, name="counter")
        model.set_weights([data([3, 2], seed=1, scale=0.5), data([2], seed=2, scale=0.5)])
        out = {"devices": [w.device, counter.device],
               "shards": [[x.shape.as_list(), x.device] for x in table.variables],
               "num_replicas_in_sync": strategy.num_replicas_in_sync,
               "sharded_value": val(tf.convert_to_tensor(table)),
               "lookup": val(tf.nn.embedding_lookup(table, [0, 4]))}

        def dataset_fn():
            x = data([8, 3], seed=3)
            y = data([8, 2], seed=4, scale=0.8)
            return tf.data.Dataset.from_tensor_slices((x, y)).batch(4).repeat()

        per_worker_iterator = iter(coordinator.create_per_worker_dataset(dataset_fn))

        @tf.function
        def step_fn(iterator):
            def replica_fn(x, y):
                with tf.GradientTape() as tape:
                    pred = model(x, training=True)
                    plain = tf.matmul(x, w)
                    loss = tf.reduce_mean(tf.square(pred - y)) + tf.reduce_mean(tf.square(plain - y[:, :1]))
                variables = model.trainable_variables + [w]
                grads = tape.gradient(loss, variables)
                optimizer.apply_gradients(zip(grads, variables))
                counter.assign_add(1)
                return loss

            x, y = next(iterator)
            loss = strategy.run(replica_fn, args=(x, y))
            return strategy.reduce(tf.distribute.ReduceOp.SUM, loss, axis=None)

        losses = [coordinator.schedule(step_fn, args=(per_worker_iterator,)) for _ in range(3)]
        coordinator.join()
        out["losses"] = [round(float(r.fetch()), 5) for r in losses]
        out["get"] = val(losses[0].get())
        out["done"] = coordinator.done()
        out["weights"] = val(model.get_weights()) + [val(w), val(counter)]
        out["fetch_structure"] = val(coordinator.fetch({"a": losses[1], "b": 3}))

        @tf.function
        def bad():
            tf.debugging.assert_equal(counter.read_value(), 100, message="counter is not 100")
            return counter.read_value()

        failed = coordinator.schedule(bad)
        out["join_error"] = outcome(coordinator.join, "counter is not 100")
        out["fetch_error"] = outcome(failed.fetch, "counter is not 100")

        @tf.function
        def index_and_counter():
            return tf.distribute.coordinator.experimental_get_current_worker_index(), counter.read_value()

        out["after_error"] = val(coordinator.schedule(index_and_counter).fetch())
        out["not_a_tf_function"] = outcome(lambda: coordinator.schedule(lambda: 1), "only accepts a `tf.function`")
        out["index_outside"] = outcome(tf.distribute.coordinator.experimental_get_current_worker_index,
                                       "Cannot retrieve the worker index")

        finite = iter(coordinator.create_per_worker_dataset(lambda: tf.data.Dataset.range(5).batch(2)))

        @tf.function
        def take(iterator):
            return next(iterator)

        taken = [coordinator.schedule(take, args=(finite,)) for _ in range(4)]
        out["taken"] = [outcome(r.fetch, "End of sequence") for r in taken]
        out["join_after_end"] = outcome(coordinator.join, "End of sequence")

        # a sharded variable is saved whole (it restores into any sharding, or into a plain variable)
        with tempfile.TemporaryDirectory() as directory:
            path = tf.train.Checkpoint(table=table, w=w).save(os.path.join(directory, "ckpt"))
            out["checkpoint"] = [[name, shape] for name, shape in tf.train.list_variables(path)]
            table.assign(tf.zeros([5, 3]))
            tf.train.Checkpoint(table=table, w=w).restore(path)
            plain = tf.Variable(tf.zeros([5, 3]))
            tf.train.Checkpoint(table=plain).restore(path).expect_partial()
            out["restored"] = [val(tf.convert_to_tensor(table)), val(plain)]

        # TF 2.21's Keras 3 refuses fit / evaluate under this strategy, whatever the data
        with strategy.scope():
            model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
        x, y = data([8, 3], seed=6), data([8, 2], seed=7)
        phrase = "pass this dataset to ClusterCoordinator.create_per_worker_dataset"
        out["fit"] = outcome(lambda: model.fit(tf.data.Dataset.from_tensor_slices((x, y)).batch(4).repeat(), epochs=1,
                                               steps_per_epoch=2, verbose=0), phrase)
        out["fit_arrays"] = outcome(lambda: model.fit(x, y, batch_size=4, verbose=0), phrase)
        out["evaluate"] = outcome(lambda: model.evaluate(x, y, verbose=0), phrase)
        out["weights_after_fit"] = val(model.get_weights()[1])
        return out
    finally:
        _stop(servers, coordinator)


@program
def p_parameter_server_partitioners(tf):
    partitioners = tf.distribute.experimental.partitioners
    shapes = [[5, 3], [1, 4], [100, 10], [7]]
    made = [partitioners.FixedShardsPartitioner(2), partitioners.FixedShardsPartitioner(4),
            partitioners.MinSizePartitioner(min_shard_bytes=16, max_shards=2),
            partitioners.MinSizePartitioner(min_shard_bytes=1000, max_shards=8),
            partitioners.MaxSizePartitioner(max_shard_bytes=16), partitioners.MaxSizePartitioner(400, max_shards=3)]
    out = [[p(tf.TensorShape(shape), tf.float32) for shape in shapes] for p in made]
    out.append(partitioners.MaxSizePartitioner(64)(tf.TensorShape([10, 2]), tf.string))
    out.append(outcome(lambda: partitioners.MinSizePartitioner(min_shard_bytes=0), "must be positive"))
    out.append(outcome(lambda: partitioners.MaxSizePartitioner(10, max_shards=-1), "must be positive"))
    out.append(outcome(lambda: tf.distribute.Server({"a": ["localhost:1"], "b": ["localhost:2"]}),
                       "Must specify an explicit `job_name`"))
    out.append(outcome(lambda: tf.distribute.Server({"a": ["localhost:1", "localhost:2"]}, job_name="a"),
                       "Must specify an explicit `task_index`"))
    out.append(outcome(lambda: tf.distribute.Server(42), "Could not convert"))
    resolver = tf.distribute.cluster_resolver.SimpleClusterResolver(tf.train.ClusterSpec({"worker": ["localhost:1"]}))
    out.append(outcome(lambda: tf.distribute.ParameterServerStrategy(resolver), "There must be at least one ps"))
    return out


@program
def p_variable_creator_sees_keras_weights(tf):
    """ParameterServerStrategy's partitioner is a variable creator: Keras weights go through creators too, with
    TF's keywords (tinytf's Keras weights get back only the keywords their class takes)."""
    seen = []

    def creator(next_creator, **kwargs):
        seen.append([kwargs.get("name"), kwargs.get("trainable")])
        return next_creator(**kwargs)

    with tf.variable_creator_scope(creator):
        layer = tf.keras.layers.Dense(2)
        layer.build((None, 3))
        plain = tf.Variable(1.0, name="plain")
    return [seen, [w.shape.as_list() if hasattr(w.shape, "as_list") else list(w.shape) for w in layer.weights],
            plain.name]
