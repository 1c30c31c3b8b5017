"""The loop accumulators' join buffers (runtime/ops/loop_accumulate.py: JoinPool): a flush joins its pending
operands into buffers its compiled function keeps across calls instead of fresh arrays. Checked: the same bits
as fresh joins for every transposition, a lower traced peak per call, the buffers reused by the next call, a
pool's buffers never shared by two running loops (threads), and eager == graph == no passes."""


import numpy as np
import pytest
from ways import in_threads, traced_with

import tinytf as tf
from tinytf.bench.run import peak_bytes as _peak
from tinytf.runtime.ops.loop_accumulate import POOL_BUFFERS, JoinPool

rng = np.random.default_rng(11)
STEPS, ROWS, N_IN, N_OUT = 40, 16, 24, 32  # 640 contracted rows: flushes of 1, 2, 4, 8, 16, 16 steps, a remainder
XS = rng.standard_normal((STEPS, ROWS, N_IN)).astype(np.float32)
DZ = rng.standard_normal((STEPS, ROWS, N_OUT)).astype(np.float32)

def _a_t_b(xs, dz, i):
    return tf.matmul(xs[i], dz[i], transpose_a=True)


def _a_t_b_t(xs, dz, i):
    return tf.matmul(xs[i], tf.transpose(dz[i]), transpose_a=True, transpose_b=True)


def _a_b(xs, dz, i):
    return tf.matmul(tf.transpose(xs[i]), dz[i])


def _a_b_t(xs, dz, i):
    return tf.matmul(tf.transpose(xs[i]), tf.transpose(dz[i]), transpose_b=True)


# acc += term(i): the four ways matmul can contract the rows of two steps' operands
TERMS = {"a^T b": _a_t_b, "a^T b^T": _a_t_b_t, "a b": _a_b, "a b^T": _a_b_t}


def _loop(term):
    def run(xs, dz):
        init = tf.zeros(term(xs, dz, 0).shape)
        _, acc = tf.while_loop(lambda i, acc: i < STEPS, lambda i, acc: (i + 1, acc + term(xs, dz, i)),
                               (tf.constant(0), init))
        return acc
    return run


ARGS = (tf.constant(XS), tf.constant(DZ))


def _pools(compiled):
    """The join pools of a compiled function's accumulator nodes."""
    graph = compiled.get_concrete_function(*ARGS).graph
    return [n.attrs["pool"] for n in graph.walk() if isinstance(n.attrs.get("pool"), JoinPool)]


def _without_join_buffers(compiled):
    """The same compiled function, its pools handing out no buffers: flushes join into fresh arrays."""
    for pool in _pools(compiled):
        pool.take = lambda: None
    return compiled




@pytest.mark.parametrize("name", sorted(TERMS))
def test_joins_into_kept_buffers_give_the_bits_of_fresh_joins(name):
    fn = _loop(TERMS[name])
    kept = traced_with(fn, ARGS, disable_all=False)
    fresh = _without_join_buffers(traced_with(fn, ARGS, disable_all=False))
    assert len(_pools(kept)) == 1
    for _ in range(2):  # the second call joins into the buffers the first one grew
        np.testing.assert_array_equal(kept(*ARGS).numpy(), fresh(*ARGS).numpy())
    # eager and unoptimized graphs add the products one step at a time: the same sum in another order
    expected = sum(np.asarray(TERMS[name](*ARGS, i)) for i in range(STEPS))
    for other in (fn(*ARGS), traced_with(fn, ARGS, disable_all=True)(*ARGS)):
        np.testing.assert_allclose(other.numpy(), expected, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(kept(*ARGS).numpy(), expected, rtol=1e-4, atol=1e-4)


def test_join_buffers_are_reused_and_leave_the_call_peak():
    fn = _loop(TERMS["a^T b"])
    kept = traced_with(fn, ARGS, disable_all=False)
    fresh = _without_join_buffers(traced_with(fn, ARGS, disable_all=False))
    kept(*ARGS)
    fresh(*ARGS)
    (pool,) = _pools(kept)
    arrays = [id(x) for x in (pool.buffers[0].a, pool.buffers[0].b, pool.buffers[0].block)]
    # (no reference to the buffers kept here: the pool would take them for in use and make new ones)
    kept_peak, fresh_peak = _peak(lambda: kept(*ARGS)), _peak(lambda: fresh(*ARGS))
    # the largest flush's joins (16 steps of both operands) are no longer made per call (measured here: 11.9 KB
    # against 67.4 KB)
    assert kept_peak <= fresh_peak - 12 * ROWS * (N_IN + N_OUT) * 4
    assert len(pool.buffers) == 1  # reused, not grown again
    assert [id(x) for x in (pool.buffers[0].a, pool.buffers[0].b, pool.buffers[0].block)] == arrays
    # the largest flush joins 16 steps: (256, N_IN) and (256, N_OUT) float32
    assert pool.buffers[0].a.nbytes >= 16 * ROWS * N_IN * 4 and pool.buffers[0].b.nbytes >= 16 * ROWS * N_OUT * 4


def test_a_running_loop_keeps_its_buffers_to_itself():
    pool = JoinPool()
    first = pool.take()
    second = pool.take()  # `first` is held (a running accumulator): a new one
    assert second is not first
    del second
    assert pool.take() is pool.buffers[1]  # free again
    held = [pool.take() for _ in range(POOL_BUFFERS + 2)]  # more loops at once than the pool keeps
    assert len({id(b) for b in held}) == len(held) and len(pool.buffers) == POOL_BUFFERS


def test_concurrent_calls_give_their_own_sums():
    fn = _loop(TERMS["a^T b"])
    kept = traced_with(fn, ARGS, disable_all=False)
    expected = kept(*ARGS).numpy()
    scaled = [(tf.constant(XS * (k + 1)), tf.constant(DZ)) for k in range(4)]
    wanted = [traced_with(fn, ARGS, disable_all=False)(*a).numpy() for a in scaled]
    results = {}

    def worker(k):
        for _ in range(5):
            results[k] = kept(*scaled[k]).numpy()

    in_threads(worker, count=4)
    for k in range(4):
        np.testing.assert_array_equal(results[k], wanted[k])
    np.testing.assert_array_equal(kept(*ARGS).numpy(), expected)
    assert len(_pools(kept)[0].buffers) <= POOL_BUFFERS


def _fresh_operands_loop(xs, dz):
    """acc += a^T b with both operands computed in the iteration: only the accumulator keeps them."""
    init = tf.zeros([N_IN, N_OUT])

    def body(i, acc):
        return i + 1, acc + tf.matmul(tf.tanh(xs[i]), dz[i] * 2.0, transpose_a=True)

    return tf.while_loop(lambda i, acc: i < STEPS, body, (tf.constant(0), init))[1]


def test_small_operands_are_copied_into_rows_and_die_with_their_iteration():
    kept = traced_with(_fresh_operands_loop, ARGS, disable_all=False)
    fresh = _without_join_buffers(traced_with(_fresh_operands_loop, ARGS, disable_all=False))
    np.testing.assert_array_equal(kept(*ARGS).numpy(), fresh(*ARGS).numpy())
    kept(*ARGS)
    kept_peak, fresh_peak = _peak(lambda: kept(*ARGS)), _peak(lambda: fresh(*ARGS))
    # kept by reference, the largest flush's 16 steps of both operands are alive until it joins them (and their
    # joins beside them); copied into rows, one step's are (measured: 9.1 KB against 99.6 KB)
    assert kept_peak <= fresh_peak - 15 * ROWS * (N_IN + N_OUT) * 4
    (pool,) = _pools(kept)
    assert pool.buffers[0].a.shape[0] >= 16 * ROWS * N_IN  # the rows of the largest flush and one more step
    expected = sum(np.tanh(XS[i]).T @ (DZ[i] * 2) for i in range(STEPS))
    np.testing.assert_allclose(kept(*ARGS).numpy(), expected, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(_fresh_operands_loop(*ARGS).numpy(), expected, rtol=1e-4, atol=1e-4)
