"""The stack_release pass (runtime/passes/stack_release.py) and the release of loop containers after a while
loop (ops/control.py's emitter): a backward loop frees what the forward loop saved as it reads it, so a
recurrent model's peak memory stays at or below hand-written numpy's. Checked for values against the pass off,
every pass off and numpy, for which stacks it releases and which it must leave whole (a persistent tape read
twice, nested loops, second derivatives), and for the peak memory it saves."""


import numpy as np
import pytest
from ways import traced_with

import tinytf as tf
from benchmarks import workloads
from tinytf.bench.run import peak_bytes as _peak
from tinytf.runtime.ops.gradient_stack import stack_read_op, stack_take_op

rng = np.random.default_rng(3)
STEPS, BATCH, N_IN, HIDDEN = 30, 8, 6, 20
XS = rng.standard_normal((STEPS, BATCH, N_IN)).astype(np.float32)
WX = (rng.standard_normal((N_IN, HIDDEN)) * 0.3).astype(np.float32)
WH = (rng.standard_normal((HIDDEN, HIDDEN)) * 0.3).astype(np.float32)


def _rnn(wx, wh, persistent=False):
    """A tanh RNN over a TensorArray: the loss and its gradients (twice from one persistent tape if asked)."""
    def run(xs):
        with tf.GradientTape(persistent=persistent) as tape:
            h = tf.zeros([BATCH, HIDDEN])
            outputs = tf.TensorArray(tf.float32, size=STEPS)
            for t in tf.range(STEPS):
                h = tf.tanh(xs[t] @ wx + h @ wh)
                outputs = outputs.write(t, h)
            loss = tf.reduce_sum(tf.square(outputs.stack()))
        grads = tape.gradient(loss, [wx, wh])
        if persistent:
            return loss, grads, tape.gradient(loss, [wx, wh])
        return loss, grads
    return run


def _rnn_numpy(xs):
    hs = [np.zeros((BATCH, HIDDEN), np.float64)]
    for t in range(STEPS):
        hs.append(np.tanh(xs[t] @ WX + hs[-1] @ WH))
    loss = sum(np.sum(h * h) for h in hs[1:])
    dwx, dwh, dh = np.zeros(WX.shape), np.zeros(WH.shape), np.zeros((BATCH, HIDDEN))
    for t in reversed(range(STEPS)):
        dpre = (dh + 2 * hs[t + 1]) * (1 - hs[t + 1] ** 2)
        dwx += xs[t].T @ dpre
        dwh += hs[t].T @ dpre
        dh = dpre @ WH.T
    return loss, [dwx, dwh]


def _ops(compiled, args):
    return [n.op for n in compiled.get_concrete_function(*args).graph.walk()]


def _flat(result):
    return [np.asarray(r, np.float64) for r in tf.nest.flatten(result)]


def _assert_close(a, b, rtol=1e-4):
    for x, y in zip(_flat(a), _flat(b)):
        np.testing.assert_allclose(x, y, rtol=rtol, atol=rtol * max(1.0, float(np.max(np.abs(y)))))


def _variables():
    return tf.Variable(WX), tf.Variable(WH)


def test_backward_loop_takes_what_it_reads_and_values_are_unchanged():
    fn = _rnn(*_variables())
    args = (tf.constant(XS),)
    released = traced_with(fn, args, disable_all=False)
    kept = traced_with(fn, args, disable_all=False, stack_release=False)
    ops = _ops(released, args)
    assert stack_take_op in ops and stack_read_op not in ops
    assert stack_take_op not in _ops(kept, args)
    expected = _rnn_numpy(XS.astype(np.float64))
    for result in (released(*args), kept(*args), traced_with(fn, args, disable_all=True)(*args), fn(*args)):
        _assert_close(result, expected)
    _assert_close(released(*args), released(*args), rtol=0)  # the stacks are fresh for every call


def test_a_persistent_tape_asked_twice_keeps_its_stacks_whole():
    fn = _rnn(*_variables(), persistent=True)
    args = (tf.constant(XS),)
    compiled = traced_with(fn, args, disable_all=False)
    loss, first, second = compiled(*args)
    expected = _rnn_numpy(XS.astype(np.float64))
    _assert_close((loss, first), expected)
    _assert_close(second, expected[1])


def test_second_derivatives_through_a_loop_are_unchanged():
    x0 = rng.standard_normal(3)

    def hvp(x):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                _, y = tf.while_loop(lambda i, y: i < 5, lambda i, y: (i + 1, tf.sin(y) * x + y * 0.5),
                                     (tf.constant(0), x))
                loss = tf.reduce_sum(y * y)
            g = inner.gradient(loss, x)
            first = tf.reduce_sum(g * tf.constant([1.0, -0.5, 0.25], tf.float64))
        return first, outer.gradient(first, x)

    args = (tf.constant(x0),)
    on = traced_with(hvp, args, disable_all=False)
    assert stack_take_op in _ops(on, args)
    _assert_close(on(*args), hvp(*args), rtol=1e-10)
    _assert_close(traced_with(hvp, args, disable_all=False, stack_release=False)(*args), hvp(*args), rtol=1e-10)


def test_a_stack_read_out_of_another_stack_is_left_whole():
    """Nested loops: the inner loop's stacks are kept in the outer loop's stack, one per outer iteration; a
    read of such a stack is never turned into a take (a second-order gradient may read it again)."""
    def nested(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x
            for _ in tf.range(3):
                for _ in tf.range(4):
                    y = tf.sin(y) * 1.1
            loss = tf.reduce_sum(y)
        return loss, tape.gradient(loss, x)

    args = (tf.constant(rng.standard_normal(4)),)
    compiled = traced_with(nested, args, disable_all=False)
    graph = compiled.get_concrete_function(*args).graph
    for node in graph.walk():
        if node.op is stack_take_op:
            assert node.inputs[0].node.op is not stack_read_op and node.inputs[0].node.op is not stack_take_op
    _assert_close(compiled(*args), nested(*args), rtol=1e-10)




def test_lstm_step_peak_memory_is_at_most_numpy_and_below_the_stacks_kept():
    batch, hidden = 16, 64
    work = workloads.lstm_step(steps=12, batch=batch, n_in=16, hidden=hidden)
    # list stacks (with loop_saved_slabs the saved values live in rows kept across calls: test_loop_saved_slabs.py)
    released = traced_with(work.fn, work.args, disable_all=False, loop_saved_slabs=False)
    kept = traced_with(work.fn, work.args, disable_all=False, stack_release=False, loop_saved_slabs=False)
    released(*work.args)
    kept(*work.args)
    numpy_peak = _peak(lambda: work.numpy_fn(*work.numpy_args))
    released_peak = _peak(lambda: released(*work.args))
    # the saved values go one step at a time: seven (batch, hidden) float32 arrays a step. Kept, they are all
    # alive at the backward loop's end with its largest flush (3.4 steps' worth above the released peak here;
    # 5.5 while the flushes joined their operands into fresh arrays, not into loop_accumulate's join buffers)
    assert released_peak <= numpy_peak
    assert released_peak < _peak(lambda: kept(*work.args)) - 3 * 7 * batch * hidden * 4
    _assert_close(released(*work.args), work.numpy_fn(*work.numpy_args), rtol=2e-4)


@pytest.mark.parametrize("steps", [0, 1, 5])
def test_few_iterations(steps):
    def run(xs):
        with tf.GradientTape() as tape:
            tape.watch(xs)
            h = tf.zeros([2, 3])
            for t in tf.range(steps):
                h = tf.tanh(xs[t] + h)
            loss = tf.reduce_sum(h)
        return loss, tape.gradient(loss, xs, unconnected_gradients=tf.UnconnectedGradients.ZERO)

    args = (tf.constant(rng.standard_normal((6, 2, 3)).astype(np.float32)),)
    _assert_close(traced_with(run, args, disable_all=False)(*args), run(*args))


def test_a_tensor_array_is_freed_after_the_loop_that_filled_it():
    """The body's last iteration names the TensorArray it wrote; after the loop that name is dropped, so the
    array goes at the last use of the loop's result (here: before the second, equally large loop runs)."""
    n, size = 20, 64 * 1024  # 20 elements of 256 KiB

    def two_loops(x):
        first = tf.TensorArray(tf.float32, size=n)
        for t in tf.range(n):
            first = first.write(t, x * tf.cast(t, tf.float32))
        total = tf.reduce_sum(first.stack())
        second = tf.TensorArray(tf.float32, size=n)
        for t in tf.range(n):
            second = second.write(t, x + tf.cast(t, tf.float32))
        return total + tf.reduce_sum(second.stack())

    args = (tf.constant(np.ones(size, np.float32)),)
    compiled = traced_with(two_loops, args, disable_all=False)
    compiled(*args)
    peak = _peak(lambda: compiled(*args))
    assert peak < 1.5 * n * size * 4, peak  # one array's elements alive at a time, not both
    np.testing.assert_allclose(np.asarray(compiled(*args)), np.asarray(two_loops(*args)), rtol=1e-5)
