"""The stacked-reduction rules of simplification (runtime/passes/stacked_reductions.py): reduce_sum of a
TensorArray's stack becomes tensor_array_sum and its gradient's unstack(broadcast_reduced(g)) becomes
gradient_list_fill, so neither big array is built; a loop-accumulated gradient that starts from a fill keeps
only the fill's value. Checked against numpy, eagerly, with the passes on, with simplification off and with
every pass off, for reduce_mean, integers, zero iterations, mismatched element shapes, and on peak memory."""

import gc
import tracemalloc

import numpy as np
import pytest
from ways import run_all_ways, traced_with

import tinytf as tf
from benchmarks import workloads
from tinytf.runtime.errors import InvalidArgumentError
from tinytf.runtime.ops.array import fill_op
from tinytf.runtime.ops.gradient_helpers import broadcast_reduced_op
from tinytf.runtime.ops.loop_accumulate import accumulated_matmul_op
from tinytf.runtime.ops.tensor_array import stack_op
from tinytf.runtime.ops.tensor_list_reduce import _fill_kernel, gradient_list_fill_op, tensor_array_sum_op

rng = np.random.default_rng(3)
STEPS, BATCH, N_IN, HIDDEN = 12, 4, 5, 6
XS = rng.standard_normal((STEPS, BATCH, N_IN)).astype(np.float32)
WX = rng.standard_normal((N_IN, HIDDEN)).astype(np.float32) * 0.5
WH = rng.standard_normal((HIDDEN, HIDDEN)).astype(np.float32) * 0.5


def _rnn(reduce):
    wx, wh = tf.Variable(WX), tf.Variable(WH)

    def run(xs):
        with tf.GradientTape() as tape:
            h = tf.zeros([BATCH, HIDDEN])
            outputs = tf.TensorArray(tf.float32, size=STEPS)
            for t in tf.range(STEPS):
                h = tf.tanh(xs[t] @ wx + h @ wh)
                outputs = outputs.write(t, h)
            loss = reduce(outputs.stack())
        return loss, tape.gradient(loss, [wx, wh])

    return run


def _rnn_numpy(mean):
    hs = [np.zeros((BATCH, HIDDEN), np.float64)]
    for t in range(STEPS):
        hs.append(np.tanh(XS[t] @ WX + hs[-1] @ WH))
    total = sum(h.sum() for h in hs[1:])
    scale = 1.0 / (STEPS * BATCH * HIDDEN) if mean else 1.0
    dwx, dwh, dh = np.zeros_like(WX, np.float64), np.zeros_like(WH, np.float64), np.zeros((BATCH, HIDDEN))
    for t in reversed(range(STEPS)):
        dpre = (dh + scale) * (1 - hs[t + 1] ** 2)
        dwx += XS[t].T @ dpre
        dwh += hs[t].T @ dpre
        dh = dpre @ WH.T
    return total * scale, [dwx, dwh]


def _ops(fn, args, **options):
    passes = {"disable_all": False, "simplification": True, "loop_accumulation": True, "pruning": True}
    compiled = traced_with(fn, args, **{**passes, **options})
    return compiled, [n.op for n in compiled.get_concrete_function(*args).graph.walk()]


@pytest.mark.parametrize("mean", [False, True])
def test_rnn_loss_and_gradients_match_numpy_every_way(mean):
    fn = _rnn(tf.reduce_mean if mean else tf.reduce_sum)
    run_all_ways(fn, tf.constant(XS), expected=_rnn_numpy(mean), rtol=2e-5, atol=2e-5)
    compiled, ops = _ops(fn, (tf.constant(XS),))
    if not mean:  # the sum of the stack is computed element by element
        assert tensor_array_sum_op in ops and stack_op not in ops
    assert gradient_list_fill_op in ops and broadcast_reduced_op not in ops
    unsimplified, ops_off = _ops(fn, (tf.constant(XS),), simplification=False)
    assert tensor_array_sum_op not in ops_off and gradient_list_fill_op not in ops_off
    for a, b in zip(tf.nest.flatten(compiled(tf.constant(XS))), tf.nest.flatten(unsimplified(tf.constant(XS)))):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=2e-6, atol=2e-6)


def test_gradient_loops_start_from_the_fill_value_not_a_full_array():
    workload = workloads.lstm_step(steps=3)  # weights too big to fold: their zero gradients are fills
    compiled, ops = _ops(workload.fn, workload.args)
    graph = compiled.get_concrete_function(*workload.args).graph
    totals = [n for n in graph.nodes if n.op is accumulated_matmul_op]
    assert len(totals) == 2, (tf.config.optimizer.get_experimental_options(), [n.op.name for n in graph.nodes])
    assert all(n.attrs["shape"] is not None and n.inputs[1]._shape == () for n in totals)
    assert {n.outputs[0]._shape for n in totals} == {(64, 512), (128, 512)}
    assert not any(n.op is fill_op and len(n.outputs[0]._shape) == 2 for n in graph.nodes)
    off = traced_with(workload.fn, workload.args, disable_all=True)
    for a, b in zip(tf.nest.flatten(compiled(*workload.args)), tf.nest.flatten(off(*workload.args))):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=2e-5, atol=2e-4)


def test_integer_sum_and_zero_iterations():
    def run(n):
        ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True, element_shape=[3])
        for i in tf.range(n):
            ta = ta.write(i, tf.fill([3], i + 2_000_000_000 // 3))  # wraps around like the stacked sum
        return tf.reduce_sum(ta.stack())

    for n in (0, 1, 5):
        values = [i + 2_000_000_000 // 3 for i in range(n) for _ in range(3)]
        expected = np.sum(np.array(values, np.int32), dtype=np.int32)
        run_all_ways(run, tf.constant(n), expected=expected)
    assert tensor_array_sum_op in _ops(run, (tf.constant(3),))[1]


def test_elements_of_different_shapes_raise_as_the_stack_does():
    def run(n):
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True, infer_shape=False)
        for i in tf.range(n):
            ta = ta.write(i, tf.ones(tf.stack([i + 1])))
        return tf.reduce_sum(ta.stack())

    assert tensor_array_sum_op in _ops(run, (tf.constant(2),))[1]
    for options in ({"disable_all": False}, {"disable_all": True}):
        with pytest.raises(InvalidArgumentError, match="different shapes"):
            traced_with(run, (tf.constant(2),), **options)(tf.constant(2))
    assert float(traced_with(run, (tf.constant(1),))(tf.constant(1))) == 1.0


def test_filled_rows_are_one_read_only_array():
    rows = _fill_kernel(np.float32(2.0), shape=(4, 2, 3), mean=True)
    assert len(rows) == 4 and all(r is rows[0] for r in rows)
    np.testing.assert_array_equal(rows[0], np.full((2, 3), 2.0 / 24, np.float32))
    assert rows[0].dtype == np.float32
    with pytest.raises(ValueError):
        rows[0] += 1


def _peak(fn, *args):
    fn(*args)
    gc.collect()
    tracemalloc.start()
    try:
        fn(*args)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_peak_memory_drops_by_the_stacked_arrays():
    workload = workloads.rnn_unroll()
    simplified = traced_with(workload.fn, workload.args, disable_all=False)
    unsimplified = traced_with(workload.fn, workload.args, disable_all=False, simplification=False)
    stacked = 50 * 16 * 64 * 4  # one (T, B, H) float32 array: the stack, and the gradient's broadcast
    assert _peak(simplified, *workload.args) <= _peak(unsimplified, *workload.args) - 0.9 * stacked


def test_a_loop_that_ran_no_iteration_gives_the_fill():
    from tinytf.runtime.ops.loop_accumulate import Accumulator, _total_matmul_kernel

    total = _total_matmul_kernel(Accumulator(), np.float32(0.5), transpose_a=True, transpose_b=False, shape=(2, 3))
    assert total.dtype == np.float32 and total.shape == (2, 3) and np.all(total == 0.5)
