"""tf.queue and TF1's queue runners: blocking across threads, queues inside a tf.function, a Coordinator stopping
on an error, several enqueue threads, a full queue cancelled on stop, and epoch limits on a variable the
training run does not hold. (The values against TensorFlow 2.21 are in tests/conformance/tf1_queues.py.)"""

from __future__ import annotations

import threading

import numpy as np
import pytest

import tinytf as tf

v1 = tf.compat.v1


def test_dequeue_blocks_until_another_thread_enqueues():
    q = tf.queue.FIFOQueue(1, tf.int32, shapes=[[]])
    got = []
    consumer = threading.Thread(target=lambda: got.extend(int(q.dequeue()) for _ in range(3)))
    consumer.start()
    for i in range(3):  # capacity 1: each enqueue waits for the consumer
        q.enqueue(i)
    consumer.join(10)
    assert got == [0, 1, 2] and not consumer.is_alive()


def test_a_queue_in_a_tf_function():
    q = tf.queue.FIFOQueue(10, [tf.float32, tf.int32], shapes=[[2], []])

    @tf.function
    def push(x, label):
        q.enqueue((x, label))

    @tf.function
    def pop_two():
        features, labels = q.dequeue_many(2)
        return tf.reduce_sum(features, axis=1), labels

    push(tf.constant([1.0, 2.0]), tf.constant(7))
    push(tf.constant([3.0, 4.0]), tf.constant(8))
    sums, labels = pop_two()
    np.testing.assert_allclose(sums.numpy(), [3.0, 7.0])
    assert labels.numpy().tolist() == [7, 8]
    assert int(q.size()) == 0


def test_several_enqueue_threads_fill_one_batch_queue():
    graph = v1.Graph()
    with graph.as_default():
        counter = tf.Variable(0, dtype=tf.int64)
        q = tf.queue.FIFOQueue(8, tf.int64, shapes=[[]])
        enqueue = q.enqueue(v1.count_up_to(counter, 1000))
        v1.train.add_queue_runner(v1.train.QueueRunner(q, [enqueue] * 3))
        batch = q.dequeue_many(4)
        init = v1.global_variables_initializer()
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        coord = v1.train.Coordinator()
        threads = v1.train.start_queue_runners(sess, coord)
        assert len(threads) == 4  # three enqueue threads and one that cancels on stop
        seen = np.concatenate([sess.run(batch) for _ in range(5)])
        coord.request_stop()
        coord.join(threads, stop_grace_period_secs=10)
    assert len(set(seen.tolist())) == 20  # every increment enqueued once, none lost between threads


def test_coordinator_reraises_a_thread_error_and_cleans_stops():
    coord = v1.train.Coordinator()

    def fail():
        with coord.stop_on_exception():
            raise ValueError("broken input")

    thread = threading.Thread(target=fail)
    coord.register_thread(thread)
    thread.start()
    with pytest.raises(ValueError, match="broken input"):
        coord.join(stop_grace_period_secs=5)
    assert coord.should_stop() and coord.joined
    clean = v1.train.Coordinator()
    clean.request_stop(tf.errors.OutOfRangeError(None, None, "end of input"))
    clean.join()  # an OutOfRangeError is a clean stop: nothing raised


def test_epoch_limit_ends_a_training_loop_with_variables(tmp_path):
    """The runner's epoch counter is a variable the training run does not use: the training run, waiting on
    the queue while it holds its variables, must let the runner's run count the epochs."""
    features = np.arange(12, dtype=np.float32).reshape(6, 2)
    graph = v1.Graph()
    with graph.as_default():
        (x,) = v1.train.slice_input_producer([features], num_epochs=3, shuffle=True, seed=1)
        batch = v1.train.shuffle_batch([x], batch_size=4, capacity=10, min_after_dequeue=2, seed=2,
                                       allow_smaller_final_batch=True)
        w = tf.Variable([[1.0], [1.0]])
        loss = tf.reduce_sum(tf.matmul(batch, w))
        step = v1.train.GradientDescentOptimizer(0.0).minimize(loss)
        init = [v1.global_variables_initializer(), v1.local_variables_initializer()]
    rows = []
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        coord = v1.train.Coordinator()
        threads = v1.train.start_queue_runners(sess, coord)
        try:
            while True:
                _, got = sess.run([step, batch])
                rows.extend(got.sum(1).tolist())
        except tf.errors.OutOfRangeError:
            pass
        finally:
            coord.request_stop()
            coord.join(threads, stop_grace_period_secs=10)
    assert sorted(rows) == sorted(features.sum(1).tolist() * 3)


def test_a_full_queue_is_cancelled_when_the_coordinator_stops():
    graph = v1.Graph()
    with graph.as_default():
        q = tf.queue.FIFOQueue(2, tf.int32, shapes=[[]])
        v1.train.add_queue_runner(v1.train.QueueRunner(q, [q.enqueue(1)]))
        take = q.dequeue()
    with v1.Session(graph=graph) as sess:
        coord = v1.train.Coordinator()
        threads = v1.train.start_queue_runners(sess, coord)
        assert sess.run(take) == 1
        coord.request_stop()  # the runner is blocked on the full queue: the stop cancels its enqueue
        coord.join(threads, stop_grace_period_secs=10)
        assert not any(t.is_alive() for t in threads)
        with pytest.raises(tf.errors.CancelledError):
            sess.run(q.enqueue(2))


def test_queue_graphs_export_as_tf_writes_them():
    """The GraphDef of a queue graph holds TF's ops (TensorFlow 2.21 imported this very export and ran it: the
    enqueue, both batched dequeues, close, is_closed, and ResourceCountUpTo up to its OutOfRangeError)."""
    graph = v1.Graph()
    with graph.as_default():
        q = tf.queue.FIFOQueue(5, [tf.int32, tf.float32], shapes=[[], [2]])
        q.enqueue_many(([1, 2, 3], [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), name="enq")
        q.dequeue_many(2, name="deq")
        q.dequeue_up_to(3, name="upto")
        q.dequeue(name="one")
        q.size(name="size")
        q.close(cancel_pending_enqueues=True, name="close")
        q.is_closed(name="closed")
        v1.count_up_to(tf.Variable(0, dtype=tf.int64, name="cnt"), 2, name="up")
    nodes = {n.name: n for n in graph.as_graph_def().node}
    assert nodes["queue"].op == "FIFOQueueV2"
    assert list(nodes["queue"].attr["component_types"].list.type) == [3, 1]  # DT_INT32, DT_FLOAT
    assert [list(d.size for d in s.dim) for s in nodes["queue"].attr["shapes"].list.shape] == [[], [2]]
    assert {name: nodes[name].op for name in ("enq", "deq", "upto", "one", "size", "close", "closed", "up")} == {
        "enq": "QueueEnqueueManyV2", "deq": "QueueDequeueManyV2", "upto": "QueueDequeueUpToV2",
        "one": "QueueDequeueV2", "size": "QueueSizeV2", "close": "QueueCloseV2", "closed": "QueueIsClosedV2",
        "up": "ResourceCountUpTo"}
    assert nodes["close"].attr["cancel_pending_enqueues"].b
    assert nodes["up"].attr["limit"].i == 2
