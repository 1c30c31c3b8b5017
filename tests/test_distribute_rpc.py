"""tf.distribute.experimental.rpc beyond the conformance program (distribute_rpc.py, TF-recorded): two clients
calling one server from threads at once, a variable updated by every call, a call's timeout, and stop()
leaving no thread behind."""

import socket
import threading
import time

import numpy as np
import pytest

import tinytf as tf


def _address():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return f"127.0.0.1:{port}"


@pytest.fixture
def served():
    before = set(threading.enumerate())
    address = _address()
    server = tf.distribute.experimental.rpc.Server.create("grpc", address)
    total = tf.Variable(0.0)

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def add_rows(x):
        total.assign_add(tf.reduce_sum(x))
        return tf.matmul(x, tf.constant([[1.0], [2.0]]))

    @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
    def slow(seconds):
        tf.py_function(lambda s: time.sleep(float(s)), [seconds], [])
        return seconds

    server.register("add_rows", add_rows)
    server.register("slow", slow.get_concrete_function())  # a concrete function registers as well
    server.start()
    yield address, total
    server.stop()
    deadline = time.time() + 5
    while set(threading.enumerate()) - before and time.time() < deadline:
        time.sleep(0.05)
    assert not set(threading.enumerate()) - before  # no serving thread left behind


def test_clients_in_threads_share_the_server(served):
    address, total = served
    clients = [tf.distribute.experimental.rpc.Client.create("grpc", address) for _ in range(2)]
    rng = np.random.default_rng(0)
    batches = [rng.normal(size=(3, 2)).astype(np.float32) for _ in range(8)]
    results = [None] * 8

    def work(k):
        results[k] = clients[k % 2].add_rows_blocking(tf.constant(batches[k])).numpy()

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for got, batch in zip(results, batches):
        np.testing.assert_allclose(got, batch @ np.array([[1.0], [2.0]], np.float32), rtol=1e-6)
    np.testing.assert_allclose(total.numpy(), sum(b.sum() for b in batches), rtol=1e-5)
    for client in clients:
        client.close()


def test_a_call_past_its_timeout_is_deadline_exceeded(served):
    address, _ = served
    client = tf.distribute.experimental.rpc.Client.create("grpc", address)
    assert float(client.slow_blocking(tf.constant(0.01))) == pytest.approx(0.01)
    late = client.slow(tf.constant(1.0), timeout_in_ms=100)
    assert not bool(late.is_ok()) and int(late.get_error()[0]) == tf.errors.DEADLINE_EXCEEDED
    with pytest.raises(tf.errors.DeadlineExceededError):
        late.get_value()
    client.close()


def test_made_inside_a_tf_function_raises_as_tf():
    @tf.function
    def make():
        tf.distribute.experimental.rpc.Server.create("grpc", _address())
        return tf.constant(1)

    with pytest.raises(NotImplementedError, match="outside tf.function"):
        make()
