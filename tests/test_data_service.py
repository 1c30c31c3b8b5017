"""tf.data.experimental.service: servers on 127.0.0.1, what each sharding policy gives against a numpy
reference, datasets travelling to a worker in another process, and no thread or socket left after the servers
stop. TF's own outputs for the documented examples are in tests/conformance/data_service.py."""

import os
import pickle
import socket
import subprocess
import sys
import threading

import numpy as np
import pytest

import tinytf as tf
from tinytf.data.service import travel
from tinytf.runtime.errors import FailedPreconditionError

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import data_service_helpers as helpers  # noqa: E402

S = tf.data.experimental.service


@pytest.fixture
def cluster():
    """A dispatcher and a way to add workers; everything is stopped after the test, and the test fails if a
    server thread is left running."""
    before = set(threading.enumerate())
    dispatcher = S.DispatchServer()
    workers = []

    def add(n=1):
        for _ in range(n):
            workers.append(S.WorkerServer(S.WorkerConfig(dispatcher_address=dispatcher._address)))
        return workers
    yield dispatcher, add
    for worker in workers:
        worker._stop()
    dispatcher._stop()
    left = [t for t in set(threading.enumerate()) - before if t.name.startswith("tf.data")]
    assert not left, f"server threads left running: {left}"


def _port_closed(address: str) -> bool:
    port = int(address.rsplit(":", 1)[1])
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) != 0


def test_stopped_servers_close_their_ports():
    dispatcher = S.DispatchServer()
    worker = S.WorkerServer(S.WorkerConfig(dispatcher_address=dispatcher._address))
    assert not _port_closed(dispatcher._address) and not _port_closed(worker._address)
    assert [int(x) for x in tf.data.Dataset.range(3).apply(S.distribute("parallel_epochs", dispatcher.target))] \
        == [0, 1, 2]
    worker._stop()
    dispatcher._stop()
    assert _port_closed(dispatcher._address) and _port_closed(worker._address)
    assert dispatcher._num_workers() == 0  # the stopped worker unregistered itself


@pytest.mark.parametrize("workers", [1, 3])
def test_distributed_epoch_gives_each_element_once(cluster, workers):
    dispatcher, add = cluster
    add(workers)
    ds = tf.data.Dataset.range(50).map(helpers.square).filter(helpers.is_even)
    got = sorted(int(x) for x in ds.apply(S.distribute("distributed_epoch", dispatcher.target)))
    expected = sorted(x * x for x in range(50) if x * x % 2 == 0)
    assert got == expected


def test_parallel_epochs_gives_the_dataset_per_worker(cluster):
    dispatcher, add = cluster
    add(3)
    rows = np.arange(12, dtype=np.float32).reshape(4, 3)
    ds = tf.data.Dataset.from_tensor_slices(rows).map(lambda r: r * 2.0)  # a lambda: served in this process
    got = [x.numpy() for x in ds.apply(S.distribute("parallel_epochs", dispatcher.target))]
    assert len(got) == 12
    np.testing.assert_allclose(sorted(g.tolist() for g in got), sorted((rows * 2).tolist() * 3))


def test_elements_in_a_tf_function(cluster):
    dispatcher, add = cluster
    add(2)
    ds = tf.data.Dataset.range(10).apply(S.distribute("distributed_epoch", dispatcher.target))

    @tf.function
    def total(dataset):
        return dataset.reduce(tf.constant(0, tf.int64), lambda s, x: s + x)
    assert int(total(ds)) == 45


def test_a_worker_that_stops_ends_its_task(cluster):
    dispatcher, add = cluster
    workers = add(2)
    it = iter(tf.data.Dataset.range(100).apply(S.distribute("parallel_epochs", dispatcher.target)))
    first = [int(next(it)) for _ in range(4)]
    workers[1]._stop()
    rest = [int(x) for x in it]
    assert len(first) + len(rest) >= 100 and sorted(set(first + rest)) == list(range(100))


def test_target_workers_local_reads_this_process_workers(cluster):
    dispatcher, add = cluster
    add(2)
    ds = tf.data.Dataset.range(4).apply(S.distribute("parallel_epochs", dispatcher.target, target_workers="local"))
    assert sorted(int(x) for x in ds) == [0, 0, 1, 1, 2, 2, 3, 3]


def test_datasets_of_module_functions_pickle():
    ds = tf.data.Dataset.range(8).map(helpers.square).filter(helpers.is_even).flat_map(helpers.as_range)
    ds = ds.interleave(helpers.as_range, cycle_length=2)
    copy = pickle.loads(travel.dumps(ds))
    assert list(copy.as_numpy_iterator()) == list(ds.as_numpy_iterator())
    with pytest.raises(Exception):  # noqa: B017 - pickle's own error for a lambda
        travel.dumps(tf.data.Dataset.range(3).map(lambda x: x + 1))


def _remote_worker(dispatcher):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.dirname(HERE), HERE]))
    process = subprocess.Popen([sys.executable, os.path.join(HERE, "data_service_helpers.py"),
                                dispatcher._address], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env,
                               text=True)
    address = process.stdout.readline().strip()
    assert address.startswith("localhost:"), address
    return process


def test_a_dataset_travels_to_a_worker_in_another_process(cluster):
    dispatcher, _ = cluster
    process = _remote_worker(dispatcher)
    try:
        ds = tf.data.Dataset.range(20).map(helpers.square).filter(helpers.is_even)
        got = sorted(int(x) for x in ds.apply(S.distribute("distributed_epoch", dispatcher.target)))
        assert got == [x * x for x in range(20) if x % 2 == 0]
        # a lambda cannot travel: that worker says why
        with pytest.raises(FailedPreconditionError, match="cannot travel"):
            list(tf.data.Dataset.range(3).map(lambda x: x + 1).apply(
                S.distribute("parallel_epochs", dispatcher.target)))
    finally:
        process.stdin.close()
        assert process.wait(timeout=60) == 0


def test_fault_tolerant_dispatcher_restores_registered_datasets(tmp_path):
    config = S.DispatcherConfig(work_dir=str(tmp_path), fault_tolerant_mode=True)
    dispatcher = S.DispatchServer(config)
    dataset_id = S.register_dataset(dispatcher.target, tf.data.Dataset.range(5).map(helpers.square))
    dispatcher._stop()
    restarted = S.DispatchServer(config)
    worker = S.WorkerServer(S.WorkerConfig(dispatcher_address=restarted._address))
    try:
        ds = S.from_dataset_id("parallel_epochs", restarted.target, dataset_id)
        assert [int(x) for x in ds] == [0, 1, 4, 9, 16]
        fresh = S.register_dataset(restarted.target, tf.data.Dataset.range(1))
        assert fresh.numpy() != dataset_id.numpy()  # ids keep counting after the restored ones
    finally:
        worker._stop()
        restarted._stop()


def test_distributed_save_loads_back(cluster, tmp_path):
    dispatcher, add = cluster
    add(2)
    path = str(tmp_path / "saved")
    values = np.arange(30, dtype=np.int64)
    ds = tf.data.Dataset.from_tensor_slices(values).map(lambda x: (x, tf.cast(x, tf.float32) / 4))
    assert tf.data.experimental.distributed_save(ds, path, dispatcher.target) is None
    loaded = tf.data.Dataset.load(path, wait=True)
    assert loaded.element_spec == (tf.TensorSpec([], tf.int64), tf.TensorSpec([], tf.float32))
    assert int(loaded.cardinality()) == 30
    got = sorted((int(a), float(b)) for a, b in loaded)
    assert got == [(int(v), v / 4) for v in values]
    # each worker wrote its own stream (a shard directory), every element once
    run = [d for d in os.listdir(path) if os.path.isdir(os.path.join(path, d))]
    assert len(run) == 1 and 1 <= len(os.listdir(os.path.join(path, run[0]))) <= 2
    with pytest.raises(ValueError, match="compression"):
        tf.data.experimental.distributed_save(ds, path + "2", dispatcher.target, compression="ZIP")
