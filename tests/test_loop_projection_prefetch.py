"""The input projection's next block computed ahead on the loop-flush thread (runtime/ops/loop_projection.py,
PREFETCH_MIN_WORK): the same bits as computing each block when its first step asks for it, in either
direction, whatever the block size; blocks really come from the other thread; rows kept after their step are
never overwritten by a block computed ahead; a loop that jumps or stops early gets its own rows; concurrent calls
keep their own blocks; a block whose task has not started when the loop needs it is computed by the loop; the
LSTM step's loss and gradients are unchanged."""

import threading

import numpy as np
import pytest
from ways import in_threads, traced_with

import tinytf as tf
from benchmarks import workloads
from tinytf.runtime import chunked
from tinytf.runtime.ops import loop_projection

rng = np.random.default_rng(5)
T, B, K, N = 37, 5, 6, 7
XS = rng.standard_normal((T, B, K)).astype(np.float32)
W = rng.standard_normal((K, N)).astype(np.float32)
PASSES = {"disable_all": False, "loop_variable_reads": True, "recurrent_projection": True}


@pytest.fixture
def ahead(monkeypatch):
    """Every block is computed ahead (two threads allowed) and waited for (not cancelled when the loop gets there
    first: the threads that ran them do not depend on timing); yields the names of the threads that computed
    blocks."""
    monkeypatch.setattr(loop_projection, "PREFETCH_MIN_WORK", 0)
    monkeypatch.setattr(loop_projection, "CANCEL_UNSTARTED", False)
    monkeypatch.setattr(chunked, "num_threads", lambda: 2)
    threads, real = [], loop_projection._product

    def spy(*args):
        threads.append(threading.current_thread().name)
        return real(*args)

    monkeypatch.setattr(loop_projection, "_product", spy)
    return threads


def _projected_sum(order="up", stop=T):
    def run(xs, w):
        def body(i, acc):
            t = i if order == "up" else stop - 1 - i
            return i + 1, acc + tf.tanh(xs[t] @ w)
        return tf.while_loop(lambda i, acc: i < stop, body, (tf.constant(0), tf.zeros([B, N])))[1]
    return run


def _inline(fn, args, monkeypatch_value=10 ** 12):
    saved = loop_projection.PREFETCH_MIN_WORK
    loop_projection.PREFETCH_MIN_WORK = monkeypatch_value
    try:
        return traced_with(fn, args, **PASSES)(*args).numpy()
    finally:
        loop_projection.PREFETCH_MIN_WORK = saved


@pytest.mark.parametrize("order", ["up", "down"])
@pytest.mark.parametrize("block_rows", [5, 5 * 4, 5 * 7 + 1, 10 ** 6])
def test_blocks_computed_ahead_give_the_same_bits(monkeypatch, ahead, order, block_rows):
    monkeypatch.setattr(loop_projection, "BLOCK_ROWS", block_rows)
    fn, args = _projected_sum(order), (tf.constant(XS), tf.constant(W))
    expected = _inline(fn, args)
    ahead.clear()
    got = traced_with(fn, args, **PASSES)(*args).numpy()
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_allclose(got, sum(np.tanh(XS[t] @ W) for t in range(T)), rtol=1e-5, atol=1e-5)
    if block_rows < T * B:  # several blocks: all after the first come from the flush thread (going up)
        assert any(name.startswith("tinytf-loop-flush") for name in ahead), ahead  # (9, 13) was taken at 9
    if order == "up" and block_rows < T * B:
        assert sum(not name.startswith("tinytf-loop-flush") for name in ahead) == 1, ahead


def test_nothing_is_computed_ahead_on_one_thread(monkeypatch, ahead):
    monkeypatch.setattr(chunked, "num_threads", lambda: 1)
    monkeypatch.setattr(loop_projection, "BLOCK_ROWS", 5 * 4)
    fn, args = _projected_sum(), (tf.constant(XS), tf.constant(W))
    traced_with(fn, args, **PASSES)(*args)
    assert ahead and not any(name.startswith("tinytf-loop-flush") for name in ahead)


@pytest.mark.parametrize("block_rows", [5, 5 * 3, 10 ** 6])
def test_rows_kept_after_their_step_are_never_overwritten(monkeypatch, ahead, block_rows):
    monkeypatch.setattr(loop_projection, "BLOCK_ROWS", block_rows)

    def run(xs, w):
        def body(t, kept):
            return t + 1, kept.write(t, xs[t] @ w)  # every step's row lives on in the TensorArray
        return tf.while_loop(lambda t, kept: t < T, body, (0, tf.TensorArray(tf.float32, size=T)))[1].stack()

    args = (tf.constant(XS), tf.constant(W))
    compiled = traced_with(run, args, **PASSES)
    for _ in range(3):
        np.testing.assert_allclose(compiled(*args).numpy(), np.einsum("tbk,kn->tbn", XS, W), rtol=1e-5, atol=1e-5)


def test_a_jump_or_a_turn_reads_its_own_rows(monkeypatch, ahead):
    monkeypatch.setattr(loop_projection, "BLOCK_ROWS", 5 * 4)  # blocks of 4 steps
    projection = loop_projection._new_kernel(uid=0)
    xs, w = XS.copy(), W.copy()
    for t in (0, 1, 17, 3, 2, 30, 29, 36, 4, 5, 6, 7, 8, 9, 10):  # jumps ahead, back, to the end, a walk up
        row = loop_projection._project_kernel(projection, xs, w, t, transpose_b=False)
        np.testing.assert_allclose(row, XS[t] @ W, rtol=1e-6, atol=1e-6)
    assert any(name.startswith("tinytf-loop-flush") for name in ahead), ahead  # (9, 13) was taken at 9


@pytest.mark.parametrize("cancel", [False, True])
def test_concurrent_calls_keep_their_own_blocks(monkeypatch, ahead, cancel):
    monkeypatch.setattr(loop_projection, "CANCEL_UNSTARTED", cancel)  # (True: some blocks here, some there)
    monkeypatch.setattr(loop_projection, "BLOCK_ROWS", 5 * 3)
    compiled = traced_with(_projected_sum(), (tf.constant(XS), tf.constant(W)), **PASSES)
    inputs = [XS * s for s in (1.0, -2.0, 0.5, 3.0)]
    expected = [sum(np.tanh(x[t] @ W) for t in range(T)) for x in inputs]

    def worker(k):
        for _ in range(8):
            got = compiled(tf.constant(inputs[k]), tf.constant(W)).numpy()
            np.testing.assert_allclose(got, expected[k], rtol=1e-5, atol=1e-5)

    in_threads(worker)


def test_the_lstm_step_is_bit_identical_with_blocks_computed_ahead(monkeypatch, ahead):
    monkeypatch.setattr(loop_projection, "BLOCK_ROWS", 8 * 3)  # blocks of 3 steps of batch 8
    work = workloads.lstm_step(steps=12, batch=8, n_in=16, hidden=24)
    expected = [np.asarray(x) for x in tf.nest.flatten(_inline_call(work))]
    ahead.clear()
    got = [np.asarray(x) for x in tf.nest.flatten(traced_with(work.fn, work.args, **PASSES)(*work.args))]
    assert any(name.startswith("tinytf-loop-flush") for name in ahead), ahead  # (9, 13) was taken at 9
    for g, e in zip(got, expected):
        np.testing.assert_array_equal(g, e)
    np_loss, np_grads = work.numpy_fn(*work.numpy_args)
    np.testing.assert_allclose(got[0], np_loss, rtol=1e-4)
    for g, e in zip(got[1:], np_grads):
        np.testing.assert_allclose(g, e, rtol=1e-4, atol=1e-4)


def _inline_call(work):
    saved = loop_projection.PREFETCH_MIN_WORK
    loop_projection.PREFETCH_MIN_WORK = 10 ** 12
    try:
        return traced_with(work.fn, work.args, **PASSES)(*work.args)
    finally:
        loop_projection.PREFETCH_MIN_WORK = saved


def test_a_block_whose_task_has_not_started_is_computed_by_the_loop(monkeypatch, ahead):
    monkeypatch.setattr(loop_projection, "CANCEL_UNSTARTED", True)
    monkeypatch.setattr(loop_projection, "BLOCK_ROWS", 5 * 4)
    fn, args = _projected_sum(), (tf.constant(XS), tf.constant(W))
    expected = _inline(fn, args)
    compiled = traced_with(fn, args, **PASSES)
    ahead.clear()
    release = threading.Event()
    busy = chunked.executor(1, "loop-flush").submit(release.wait, 30)  # the flush thread is held
    try:
        got = compiled(*args).numpy()
    finally:
        release.set()
        busy.result()
    np.testing.assert_array_equal(got, expected)
    assert ahead and not any(name.startswith("tinytf-loop-flush") for name in ahead), ahead  # all cancelled
