"""A loop's reduce_sum accumulator flushing on the flush thread (runtime/ops/loop_accumulate.py,
SUM_THREAD_MIN_ELEMENTS): the same bits as on the caller's thread, whether all, some or none of its flushes go
there, also beside matmul flushes of the same loop (an RNN's bias and weight gradients), and an error on that
thread reaches the caller."""

import threading

import numpy as np
import pytest
from ways import traced_with

import tinytf as tf
from tinytf.runtime import chunked
from tinytf.runtime.ops import loop_accumulate

rng = np.random.default_rng(17)
STEPS, ROWS, N_IN, N_OUT = 45, 32, 12, 40
XS = rng.standard_normal((STEPS, ROWS, N_IN)).astype(np.float32)
DZ = rng.standard_normal((STEPS, ROWS, N_OUT)).astype(np.float32)


def _weight_and_bias_gradients(xs, dz):
    def body(i, w, b, total):
        return i + 1, w + tf.matmul(xs[i], dz[i], transpose_a=True), b + tf.reduce_sum(dz[i], axis=0), \
            total + tf.reduce_sum(dz[i])
    init = (tf.constant(0), tf.zeros([N_IN, N_OUT]), tf.ones([N_OUT]), tf.constant(2.0))
    return tf.while_loop(lambda i, *_: i < STEPS, body, init)[1:]


def _run(thread_min_work, sum_min_elements, threads=2):
    """The three sums, with the flush thresholds given, on `threads` threads; which threads ran sum flushes."""
    compiled = traced_with(_weight_and_bias_gradients, (tf.constant(XS), tf.constant(DZ)),
                           disable_all=False, loop_accumulation=True)
    seen, real = [], loop_accumulate._add_sum

    def spy(*args):
        seen.append(threading.current_thread().name)
        return real(*args)

    saved = (loop_accumulate.THREAD_MIN_WORK, loop_accumulate.SUM_THREAD_MIN_ELEMENTS, loop_accumulate._add_sum,
             chunked.num_threads)
    loop_accumulate.THREAD_MIN_WORK, loop_accumulate.SUM_THREAD_MIN_ELEMENTS = thread_min_work, sum_min_elements
    loop_accumulate._add_sum, chunked.num_threads = spy, (lambda: threads)
    try:
        return [np.asarray(x) for x in compiled(tf.constant(XS), tf.constant(DZ))], seen
    finally:
        (loop_accumulate.THREAD_MIN_WORK, loop_accumulate.SUM_THREAD_MIN_ELEMENTS, loop_accumulate._add_sum,
         chunked.num_threads) = saved


def test_the_pass_makes_accumulators_of_the_sums():
    compiled = traced_with(_weight_and_bias_gradients, (tf.constant(XS), tf.constant(DZ)),
                           disable_all=False, loop_accumulation=True)
    ops = [n.op for n in compiled.get_concrete_function(tf.constant(XS), tf.constant(DZ)).graph.walk()]
    assert ops.count(loop_accumulate.accumulate_sum_op) == 2 and loop_accumulate.accumulate_matmul_op in ops


@pytest.mark.parametrize("thread_min_work, sum_min_elements", [(0, 0), (10 ** 12, 0), (10 ** 12, 4000),
                                                               (0, 10 ** 12)])
def test_sum_flushes_on_the_flush_thread_give_the_same_bits(thread_min_work, sum_min_elements):
    here, seen = _run(10 ** 12, 10 ** 12, threads=1)
    assert seen and not any(name.startswith("tinytf-loop-flush") for name in seen)
    for _ in range(2):
        there, seen = _run(thread_min_work, sum_min_elements)
        for a, b in zip(there, here):
            np.testing.assert_array_equal(a, b)
        if sum_min_elements == 0:
            assert all(name.startswith("tinytf-loop-flush") for name in seen), seen
        if sum_min_elements == 4000:  # the first flushes (one step: 1280 elements) stay, the later ones go
            assert not seen[0].startswith("tinytf-loop-flush") and seen[-1].startswith("tinytf-loop-flush"), seen
    np.testing.assert_allclose(here[0], np.einsum("tri,tro->io", XS, DZ), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(here[1], 1 + DZ.sum(axis=(0, 1)), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(here[2], 2 + DZ.sum(), rtol=1e-4, atol=1e-2)
    no_passes = traced_with(_weight_and_bias_gradients, (tf.constant(XS), tf.constant(DZ)), disable_all=True)
    for a, b in zip(here, no_passes(tf.constant(XS), tf.constant(DZ))):
        np.testing.assert_allclose(a, b.numpy(), rtol=1e-4, atol=1e-3)


def test_an_error_of_a_sum_flush_on_the_thread_reaches_the_caller(monkeypatch):
    def failing(*args):
        raise MemoryError("no memory for the sum")

    compiled = traced_with(_weight_and_bias_gradients, (tf.constant(XS), tf.constant(DZ)),
                           disable_all=False, loop_accumulation=True)
    monkeypatch.setattr(loop_accumulate, "SUM_THREAD_MIN_ELEMENTS", 0)
    monkeypatch.setattr(loop_accumulate, "_add_sum", failing)
    monkeypatch.setattr(chunked, "num_threads", lambda: 2)
    with pytest.raises(Exception, match="no memory for the sum"):
        compiled(tf.constant(XS), tf.constant(DZ))
