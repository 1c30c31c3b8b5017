"""TF1 session extras beyond their conformance programs (tests/conformance/tf1_more_session.py): take_grad waits
for gradients another thread applies (as synchronous replicas do), passes on and off give the same results, and
kept tensors feed back into later runs."""

from __future__ import annotations

import threading

import numpy as np

import tinytf as tf

v1 = tf.compat.v1


def test_take_grad_waits_for_gradients_applied_by_other_threads():
    graph = v1.Graph()
    with graph.as_default():
        acc = v1.ConditionalAccumulator(tf.float32, shape=[3])
        grad = v1.placeholder(tf.float32, [3])
        apply_op = acc.apply_grad(grad, local_step=0)
        take = acc.take_grad(4)
        with v1.Session() as sess:
            result = {}
            taker = threading.Thread(target=lambda: result.setdefault("mean", sess.run(take)))
            taker.start()
            workers = [threading.Thread(target=sess.run, args=(apply_op, {grad: np.full(3, i, np.float32)}))
                       for i in range(4)]
            for worker in workers:
                worker.start()
            for worker in workers:
                worker.join(30)
            taker.join(30)
            assert not taker.is_alive()
            np.testing.assert_allclose(result["mean"], np.full(3, 1.5))
            assert sess.run(acc.num_accumulated()) == 0


def test_sparse_mean_is_per_row_against_numpy():
    rng = np.random.default_rng(0)
    grads = [(rng.choice(6, size=3, replace=False), rng.normal(size=[3, 2]).astype(np.float32)) for _ in range(5)]
    graph = v1.Graph()
    with graph.as_default():
        acc = v1.SparseConditionalAccumulator(tf.float32, shape=[6, 2])
        ops = [acc.apply_grad(grad_indices=i, grad_values=v) for i, v in grads]
        dense = tf.convert_to_tensor(acc.take_indexed_slices_grad(5))
        with v1.Session() as sess:
            for op in ops:
                sess.run(op)
            got = sess.run(dense)
    total, count = np.zeros([6, 2]), np.zeros([6, 1])
    for indices, values in grads:
        total[indices] += values
        count[indices] += 1
    np.testing.assert_allclose(got, np.where(count > 0, total / np.maximum(count, 1), 0.0), rtol=1e-6)


def test_kept_tensor_fed_back_gives_the_value_itself():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    graph = v1.Graph()
    with graph.as_default():
        x = tf.constant(a)
        kept_op = v1.get_session_handle(tf.matmul(x, x, transpose_b=True))
        feed = v1.placeholder(tf.float32, [2, 2])
        with v1.Session() as sess:
            kept = sess.run(kept_op)
            np.testing.assert_allclose(sess.run(feed * 2.0, {feed: kept}), 2 * a @ a.T)


def test_a_take_waiting_in_a_closed_session_ends():
    graph = v1.Graph()
    with graph.as_default():
        acc = v1.ConditionalAccumulator(tf.float32, shape=[])
        take = acc.take_grad(1)
        sess = v1.Session()
        errors = []

        def run():
            try:
                sess.run(take)
            except Exception as e:  # noqa: BLE001 - the class is what the test checks
                errors.append(e)

        waiter = threading.Thread(target=run, daemon=True)
        waiter.start()
        waiter.join(0.2)
        assert waiter.is_alive()  # blocked: no gradient yet
        sess.close()
        waiter.join(10)
        assert not waiter.is_alive() and isinstance(errors[0], tf.errors.CancelledError)
