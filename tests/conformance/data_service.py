"""tf.data.experimental.service (TF 2.21): the docstring examples of data_service_ops.py, server_lib.py and
service/__init__.py, each ShardingPolicy, job sharing, coordinated reads, the cross-trainer cache, dataset ids,
the configs, and the errors of `distribute` / `from_dataset_id`. Elements are compared sorted where TF's docs
say their order is not deterministic (several workers). Every program stops the servers it starts."""

from __future__ import annotations

import socket
import threading

from . import outcome, program, val


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("localhost", 0))
        return s.getsockname()[1]


def _cluster(tf, workers=2, static=False):
    """A dispatcher and `workers` workers; with `static`, the dispatcher lists the workers' addresses (which
    the static sharding policies need)."""
    S = tf.data.experimental.service
    ports = [_free_port() for _ in range(workers)]
    config = S.DispatcherConfig(worker_addresses=[f"localhost:{p}" for p in ports]) if static else None
    dispatcher = S.DispatchServer(config)
    address = dispatcher.target.split("://")[1]
    servers = [S.WorkerServer(S.WorkerConfig(dispatcher_address=address, port=p if static else 0)) for p in ports]
    return dispatcher, servers


def _stop(dispatcher, workers):
    for worker in workers:
        worker._stop()
    dispatcher._stop()


def _ints(dataset):
    return [int(x) for x in dataset]


@program
def p_data_service_docstring_examples(tf):
    S = tf.data.experimental.service
    dispatcher, workers = _cluster(tf, 2)
    try:
        parallel = tf.data.Dataset.range(10).apply(S.distribute(processing_mode="parallel_epochs",
                                                                service=dispatcher.target))
        distributed = tf.data.Dataset.range(10).apply(S.distribute(processing_mode="distributed_epoch",
                                                                   service=dispatcher.target))
        mapped = tf.data.Dataset.range(5).map(lambda x: x * x)
        mapped = mapped.apply(S.distribute("parallel_epochs", dispatcher.target)).map(lambda x: x + 1)
        return [dispatcher.target.startswith("grpc://localhost:"), dispatcher._num_workers(),
                sorted(a.item() for a in parallel.as_numpy_iterator()),
                sorted(a.item() for a in distributed.as_numpy_iterator()),
                sorted(a.item() for a in mapped.as_numpy_iterator()),
                str(parallel.element_spec), int(parallel.cardinality())]
    finally:
        _stop(dispatcher, workers)


@program
def p_data_service_one_worker_examples(tf):
    S = tf.data.experimental.service
    dispatcher, workers = _cluster(tf, 1)
    try:
        off = tf.data.Dataset.range(10).apply(S.distribute(processing_mode=S.ShardingPolicy.OFF,
                                                           service=dispatcher.target))
        dataset = tf.data.Dataset.range(10)
        dataset_id = S.register_dataset(dispatcher.target, dataset)
        by_id = S.from_dataset_id(processing_mode="parallel_epochs", service=dispatcher.target,
                                  dataset_id=dataset_id, element_spec=dataset.element_spec)
        spec_fetched = S.from_dataset_id("parallel_epochs", dispatcher.target, dataset_id)
        named = S.register_dataset(dispatcher.target, dataset, dataset_id="my_dataset")
        pairs = tf.data.Dataset.from_tensor_slices(({"a": [1, 2, 3]}, ["x", "y", "z"]))
        pair_id = S.register_dataset(dispatcher.target, pairs)
        return [[a.item() for a in off.as_numpy_iterator()], [a.item() for a in by_id.as_numpy_iterator()],
                val(dataset_id.dtype.name), dataset_id.shape.as_list(), str(spec_fetched.element_spec),
                [a.item() for a in spec_fetched.as_numpy_iterator()], named.numpy().decode(),
                str(S.from_dataset_id("parallel_epochs", dispatcher.target, pair_id).element_spec),
                [[e[0]["a"].item(), e[1].decode()] for e in
                 S.from_dataset_id("parallel_epochs", dispatcher.target, pair_id).as_numpy_iterator()]]
    finally:
        _stop(dispatcher, workers)


@program
def p_data_service_static_sharding(tf):
    S = tf.data.experimental.service
    dispatcher, workers = _cluster(tf, 2, static=True)
    try:
        ds = tf.data.Dataset.range(10)
        hinted = ds.shard(tf.data.experimental.SHARD_HINT, tf.data.experimental.SHARD_HINT)
        return [sorted(_ints(ds.apply(S.distribute(S.ShardingPolicy.DATA, dispatcher.target)))),
                sorted(_ints(ds.apply(S.distribute(S.ShardingPolicy.FILE_OR_DATA, dispatcher.target)))),
                sorted(_ints(ds.apply(S.distribute(S.ShardingPolicy.HINT, dispatcher.target)))),
                sorted(_ints(hinted.apply(S.distribute(S.ShardingPolicy.HINT, dispatcher.target)))),
                outcome(lambda: _ints(ds.apply(S.distribute(S.ShardingPolicy.FILE, dispatcher.target))),
                        "unshardable source dataset"),
                outcome(lambda: _ints(hinted.apply(S.distribute(S.ShardingPolicy.OFF, dispatcher.target))), "")]
    finally:
        _stop(dispatcher, workers)


@program
def p_data_service_static_sharding_needs_worker_list(tf):
    S = tf.data.experimental.service
    dispatcher, workers = _cluster(tf, 1)
    try:
        return outcome(lambda: _ints(tf.data.Dataset.range(4).apply(S.distribute(S.ShardingPolicy.DATA,
                                                                                 dispatcher.target))),
                       "is not in the workers list")
    finally:
        _stop(dispatcher, workers)


@program
def p_data_service_dynamic_sharding(tf):
    S = tf.data.experimental.service
    dispatcher, workers = _cluster(tf, 2)
    try:
        batches = tf.data.Dataset.range(10).map(lambda x: x * 10).batch(3).apply(
            S.distribute("distributed_epoch", dispatcher.target))
        got = [b.numpy().tolist() for b in batches]
        single = tf.data.Dataset.from_tensors([1, 2]).apply(S.distribute("distributed_epoch", dispatcher.target))
        repeated = tf.data.Dataset.range(4).repeat(2).apply(S.distribute("distributed_epoch", dispatcher.target))
        return [sorted(x for b in got for x in b), all(1 <= len(b) <= 3 for b in got),
                [x.numpy().tolist() for x in single], sorted(_ints(repeated))]
    finally:
        _stop(dispatcher, workers)


@program
def p_data_service_job_sharing(tf):
    S = tf.data.experimental.service
    dispatcher, workers = _cluster(tf, 2)
    try:
        ds = tf.data.Dataset.range(10)
        first = iter(ds.apply(S.distribute("parallel_epochs", dispatcher.target, job_name="shared")))
        second = iter(ds.apply(S.distribute("parallel_epochs", dispatcher.target, job_name="shared")))
        a, b = [int(x) for x in first], [int(x) for x in second]
        del first, second
        again = _ints(ds.apply(S.distribute("parallel_epochs", dispatcher.target, job_name="shared")))
        return [len(a), len(b), sorted(a + b), sorted(again)]
    finally:
        _stop(dispatcher, workers)


@program
def p_data_service_coordinated_reads(tf):
    S = tf.data.experimental.service
    dispatcher, workers = _cluster(tf, 2)
    try:
        infinite = tf.data.Dataset.range(100000).repeat()
        consumers = [iter(infinite.apply(S.distribute("parallel_epochs", dispatcher.target, job_name="rounds",
                                                      consumer_index=i, num_consumers=2))) for i in range(2)]
        out = [[], []]

        def read(i):  # consumers read in lockstep rounds (TF blocks one that runs ahead)
            for _ in range(4):
                out[i].append(int(next(consumers[i])))
        threads = [threading.Thread(target=read, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        consumers.clear()  # the consumers leave the job
        return out
    finally:
        _stop(dispatcher, workers)


@program
def p_data_service_cross_trainer_cache(tf):
    S = tf.data.experimental.service
    dispatcher, workers = _cluster(tf, 1)  # with two, which worker a trainer reads first varies in TF
    try:
        infinite = tf.data.Dataset.range(100000).repeat()
        trainers = [iter(infinite.apply(S.distribute(S.ShardingPolicy.OFF, dispatcher.target, job_name="cached",
                                                     cross_trainer_cache=S.CrossTrainerCache(f"trainer_{i}"))))
                    for i in range(2)]
        seen = [sorted(int(next(it)) for _ in range(4)) for it in trainers]
        del trainers
        finite = tf.data.Dataset.range(3)
        return [seen,
                outcome(lambda: list(finite.apply(S.distribute("parallel_epochs", dispatcher.target,
                                                               cross_trainer_cache=S.CrossTrainerCache("t")))),
                        "requires named jobs"),
                outcome(lambda: list(finite.apply(S.distribute("parallel_epochs", dispatcher.target, job_name="f",
                                                               cross_trainer_cache=S.CrossTrainerCache("t")))),
                        "requires the input dataset to be infinite"),
                outcome(lambda: S.CrossTrainerCache(""), "non-empty trainer ID")]
    finally:
        _stop(dispatcher, workers)


@program
def p_data_service_argument_errors(tf):
    S = tf.data.experimental.service
    dispatcher, workers = _cluster(tf, 1)
    try:
        ds = tf.data.Dataset.range(3)
        return [outcome(lambda: S.distribute("bogus", dispatcher.target), "processing mode should be"),
                outcome(lambda: S.distribute("parallel_epochs", dispatcher.target, job_name=""), "must not be empty"),
                outcome(lambda: S.distribute("parallel_epochs", dispatcher.target, job_name=3), "must be a string"),
                outcome(lambda: ds.apply(S.distribute("parallel_epochs", dispatcher.target, consumer_index=0,
                                                      num_consumers=2)), "`job_name` must be set"),
                outcome(lambda: S.distribute("parallel_epochs", dispatcher.target, compression="ZIP"),
                        "Invalid `compression` argument"),
                outcome(lambda: ds.apply(S.distribute("parallel_epochs", 5)), "`service` must be a string"),
                outcome(lambda: ds.apply(S.distribute("parallel_epochs", "")), "`service` must not be empty"),
                outcome(lambda: ds.apply(S.distribute("parallel_epochs", "a://b://c")), "multiple '://'"),
                outcome(lambda: ds.apply(S.distribute("parallel_epochs", dispatcher.target, target_workers="FOO")),
                        "Unrecognized target workers"),
                outcome(lambda: S.from_dataset_id("parallel_epochs", dispatcher.target, "no_such_id"),
                        "Failed to fetch element spec"),
                outcome(lambda: S.DispatchServer(S.DispatcherConfig(fault_tolerant_mode=True)),
                        "without configuring a work dir"),
                outcome(lambda: S.WorkerServer(S.WorkerConfig(dispatcher_address=None)),
                        "Must specify a `dispatcher_address`")]
    finally:
        _stop(dispatcher, workers)


@program
def p_data_service_configs(tf):
    S = tf.data.experimental.service
    worker = S.WorkerConfig(dispatcher_address="localhost:5050")
    return [str(S.DispatcherConfig()), list(S.DispatcherConfig._fields), list(S.WorkerConfig._fields),
            [worker.worker_address, worker.port, worker.protocol, worker.heartbeat_interval_ms,
             worker.data_transfer_address],
            str(S.DispatcherConfig(port=5050, job_gc_timeout_ms=0)),
            [[p.name, int(p)] for p in S.ShardingPolicy]]


@program
def p_data_service_restart_start_false(tf):
    S = tf.data.experimental.service
    dispatcher = S.DispatchServer(start=False)
    dispatcher.start()
    worker = S.WorkerServer(S.WorkerConfig(dispatcher_address=dispatcher._address), start=False)
    worker.start()
    try:
        ds = tf.data.Dataset.range(6).filter(lambda x: x % 2 == 0)
        return [_ints(ds.apply(S.distribute("parallel_epochs", dispatcher.target))), dispatcher._num_workers()]
    finally:
        _stop(dispatcher, [worker])


@program
def p_data_service_options(tf):
    options = tf.data.Options()
    before = options.experimental_service.pinned
    options.experimental_service.pinned = True
    ds = tf.data.Dataset.range(3).with_options(options)
    fresh = tf.data.experimental.ServiceOptions()
    return [before, ds.options().experimental_service.pinned, fresh.pinned,
            outcome(lambda: setattr(fresh, "pinned", 3), "must be of type"),
            outcome(lambda: setattr(fresh, "unknown", True), "unknown"), [int(x) for x in ds]]


@program
def p_data_get_model_proto_and_saveable(tf):
    E = tf.data.experimental
    options = tf.data.Options()
    options.autotune.enabled = False
    untuned = iter(tf.data.Dataset.range(3).with_options(options))

    @tf.function
    def in_graph():
        return E.get_model_proto(iter(tf.data.Dataset.range(3)))
    return [outcome(lambda: E.get_model_proto(untuned), "Cannot find this iterator's analytical model"),
            outcome(lambda: E.get_model_proto(tf.data.Dataset.range(3)), "Only supports `tf.data.Iterator`"),
            outcome(in_graph, "not supported in graph mode"),
            outcome(lambda: E.make_saveable_from_iterator(iter(tf.data.Dataset.range(3))),
                    "Tensor.name is undefined when eager execution is enabled")]
