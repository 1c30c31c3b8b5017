"""The loop_saved_slabs pass (runtime/passes/loop_saved_slabs.py): a forward loop's saved values in rows of buffers
kept across calls (runtime/ops/gradient_slab.py), written there by their producers."""

import threading

import numpy as np
import pytest
from ways import traced_with

import tinytf as tf
from benchmarks import workloads
from tinytf.runtime.ops.gradient_slab import SlabPool, slab_push_op, slab_stack_op
from tinytf.runtime.ops.gradient_stack import stack_new_op

rng = np.random.default_rng(7)


def _flat(result):
    return [np.asarray(x) for x in tf.nest.flatten(result)]


def _nodes(compiled, args, op):
    graph = compiled.get_concrete_function(*args).graph
    return [n for n in graph.walk() if n.op is op]


def _pools(compiled, args):
    return [n.attrs["pool"] for n in _nodes(compiled, args, slab_stack_op)]


def rnn(steps, width=256):
    """A tanh RNN whose final state is returned: the state saved at every step escapes the call at the last."""
    def run(xs):
        with tf.GradientTape() as tape:
            tape.watch(xs)
            h = tf.zeros([8, width], xs.dtype)
            for t in tf.range(steps):
                h = tf.tanh(xs[t] * 0.5 + h)
            loss = tf.reduce_sum(h * h)
        return h, tape.gradient(loss, xs)
    return run


def test_lstm_step_saves_into_rows_and_keeps_its_results():
    work = workloads.lstm_step(steps=6, batch=16, n_in=16, hidden=128)
    slabs = traced_with(work.fn, work.args, disable_all=False)
    lists = traced_with(work.fn, work.args, disable_all=False, loop_saved_slabs=False)
    assert len(_nodes(slabs, work.args, slab_stack_op)) >= 6  # the gates, tanh(c), h and the previous c
    assert not _nodes(lists, work.args, slab_stack_op)
    code = slabs.get_concrete_function(*work.args).code
    assert code.count(".row(") >= 5  # the fused gate blocks write their saved outputs into the rows
    first = _flat(slabs(*work.args))
    for _ in range(3):  # the rows of one call are the next call's: the same bits every time
        for a, b in zip(_flat(slabs(*work.args)), first):
            np.testing.assert_array_equal(a, b)
    # the saved states' rows lie one after another: the weight gradient's flushes read them in place, their
    # terms summed in another order than the list stacks' copies (loop_accumulate._adjacent_rows)
    for a, b in zip(first, _flat(lists(*work.args))):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    for a, b in zip(_flat(slabs(*work.args)), _flat(work.numpy_fn(*work.numpy_args))):
        np.testing.assert_allclose(a, b, rtol=2e-4, atol=1e-5)


def test_rows_are_reused_by_later_calls():
    work = workloads.lstm_step(steps=5, batch=16, n_in=16, hidden=128)
    slabs = traced_with(work.fn, work.args, disable_all=False)
    for _ in range(4):
        slabs(*work.args)
    pools = _pools(slabs, work.args)
    assert pools and all(len(pool.stacks) == 1 for pool in pools)
    assert all(pool.nbytes >= 5 * 16 * 128 * 4 for pool in pools)


def test_a_saved_value_returned_is_not_overwritten_by_the_next_call():
    steps = 5
    run = rnn(steps)
    first, second = (tf.constant(rng.standard_normal((steps, 8, 256)).astype(np.float32)) for _ in range(2))
    slabs = traced_with(run, (first,), disable_all=False)
    lists = traced_with(run, (first,), disable_all=False, loop_saved_slabs=False)
    assert _nodes(slabs, (first,), slab_push_op)
    kept = slabs(first)
    expected = _flat(lists(first))
    slabs(second)  # a call that could have reused the rows the first call's `h` lives in
    for a, b in zip(_flat(kept), expected):
        np.testing.assert_array_equal(a, b)
    del kept
    for a, b in zip(_flat(slabs(second)), _flat(lists(second))):
        np.testing.assert_array_equal(a, b)


def test_gradient_matches_finite_differences():
    steps = 4
    xs = rng.standard_normal((steps, 8, 256)) * 0.3
    run = rnn(steps)
    slabs = traced_with(run, (tf.constant(xs),), disable_all=False)
    assert _nodes(slabs, (tf.constant(xs),), slab_stack_op)
    _, grad = slabs(tf.constant(xs))

    def loss(v):
        h = np.zeros((8, 256))
        for t in range(steps):
            h = np.tanh(v[t] * 0.5 + h)
        return np.sum(h * h)

    eps = 1e-6
    for index in [(0, 0, 0), (1, 3, 17), (3, 7, 255), (2, 5, 100)]:
        up, down = xs.copy(), xs.copy()
        up[index] += eps
        down[index] -= eps
        numeric = (loss(up) - loss(down)) / (2 * eps)
        assert abs(float(np.asarray(grad)[index]) - numeric) < 1e-6 * max(1.0, abs(numeric))


def test_concurrent_calls_get_stacks_of_their_own():
    work = workloads.lstm_step(steps=6, batch=16, n_in=16, hidden=128)
    slabs = traced_with(work.fn, work.args, disable_all=False)
    expected = _flat(slabs(*work.args))
    lists = _flat(traced_with(work.fn, work.args, disable_all=False, loop_saved_slabs=False)(*work.args))
    for a, b in zip(expected, lists):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    failures = []

    def worker():
        for _ in range(5):
            got = _flat(slabs(*work.args))
            if not all(np.array_equal(a, b) for a, b in zip(got, expected)):
                failures.append(got)

    threads = [threading.Thread(target=worker) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures


@pytest.mark.parametrize("steps", [0, 1, 3])
def test_few_iterations(steps):
    run = rnn(steps, width=256)
    xs = tf.constant(rng.standard_normal((max(steps, 1), 8, 256)).astype(np.float32))
    slabs = traced_with(run, (xs,), disable_all=False)
    lists = traced_with(run, (xs,), disable_all=True)
    for _ in range(2):
        for a, b in zip(_flat(slabs(xs)), _flat(lists(xs))):
            np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)


def test_small_and_unknown_shaped_values_stay_in_lists():
    def run(xs):
        with tf.GradientTape() as tape:
            tape.watch(xs)
            h = tf.zeros([2, 3])  # 24 bytes a step: below SLAB_MIN_BYTES
            for t in tf.range(4):
                h = tf.tanh(xs[t] + h)
            loss = tf.reduce_sum(h)
        return tape.gradient(loss, xs)

    xs = tf.constant(rng.standard_normal((4, 2, 3)).astype(np.float32))
    compiled = traced_with(run, (xs,), disable_all=False)
    assert not _nodes(compiled, (xs,), slab_stack_op) and _nodes(compiled, (xs,), stack_new_op)
    np.testing.assert_allclose(np.asarray(compiled(xs)), np.asarray(traced_with(run, (xs,), disable_all=True)(xs)),
                               rtol=1e-6)


def test_pool_hands_out_a_stack_only_when_nobody_holds_it():
    pool = SlabPool((4, 4), np.float32)
    first = pool.take()
    first.push(0, np.ones((4, 4), np.float32))
    assert pool.take() is not first  # in use by a running call
    assert pool.take() is pool.stacks[1]  # the second one is free again (the call above dropped it)
    view = first[0]
    del first
    assert pool.take() is not pool.stacks[0]  # a view of its rows is alive: not reused
    del view
    assert pool.take() is pool.stacks[0]
    stack = pool.take()
    row = stack.row(3)
    np.multiply(np.full((4, 4), 2.0, np.float32), 1.0, out=row)
    stack.push(3, row)  # written in place by its producer: no copy
    np.testing.assert_array_equal(stack[3], 2.0)
    assert len(stack) == 4
