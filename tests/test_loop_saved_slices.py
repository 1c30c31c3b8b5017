"""The loop_saved_slices pass (runtime/passes/loop_saved_slices.py): a forward loop saving `xs[t]` and `t` for
its backward loop saves only `t`; the backward loop slices `xs` again. Checked: the graph after it, the same
bits as with the pass off, eager and unoptimized results, gradients against finite differences, the stacks'
memory, and loops outside the pattern left alone."""


import numpy as np
from ways import traced_with

import tinytf as tf
from tinytf.bench.run import peak_bytes as _peak
from tinytf.runtime.ops.control import while_op
from tinytf.runtime.ops.gradient_stack import stack_push_op
from tinytf.runtime.ops.strided_slice import strided_slice_op

rng = np.random.default_rng(9)
STEPS, BATCH, N_IN, HIDDEN = 12, 4, 5, 6
XS = rng.standard_normal((STEPS, BATCH, N_IN)).astype(np.float32)
WX = (rng.standard_normal((N_IN, HIDDEN)) * 0.4).astype(np.float32)
WH = (rng.standard_normal((HIDDEN, HIDDEN)) * 0.4).astype(np.float32)


def rnn_loss_and_grads(xs, wx, wh):
    """rnn_unroll's RNN: its outputs in a TensorArray, whose gradient reads back the `t` of each step."""
    with tf.GradientTape() as tape:
        tape.watch([wx, wh])
        h = tf.zeros([BATCH, HIDDEN])
        outputs = tf.TensorArray(tf.float32, size=STEPS)
        for t in tf.range(STEPS):
            h = tf.tanh(xs[t] @ wx + h @ wh)
            outputs = outputs.write(t, h)
        stacked = outputs.stack()
        loss = tf.reduce_sum(stacked * stacked)
    return [loss] + tape.gradient(loss, [wx, wh])


ARGS = tuple(tf.constant(a) for a in (XS, WX, WH))


def _loops(compiled):
    graph = compiled.get_concrete_function(*ARGS).graph
    return [n for n in graph.nodes if n.op is while_op]


def _pushed_slices(loop):
    body = loop.attrs["body_graph"]
    return [n for n in body.nodes if n.op is stack_push_op and n.inputs[2].node.op is strided_slice_op]


def _numpy_loss(xs, wx, wh):
    h = np.zeros((BATCH, HIDDEN), np.float64)
    loss = 0.0
    for t in range(STEPS):
        h = np.tanh(xs[t] @ wx + h @ wh)
        loss += float(np.sum(h * h))
    return loss


def test_the_backward_loop_slices_again_with_the_same_bits():
    on = traced_with(rnn_loss_and_grads, ARGS, disable_all=False)
    off = traced_with(rnn_loss_and_grads, ARGS, disable_all=False, loop_saved_slices=False)
    forward, backward = _loops(on)
    assert not _pushed_slices(forward) and _pushed_slices(_loops(off)[0])
    assert any(n.op is strided_slice_op for n in backward.attrs["body_graph"].nodes)
    for a, b in zip(on(*ARGS), off(*ARGS)):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    for other in (rnn_loss_and_grads(*ARGS), traced_with(rnn_loss_and_grads, ARGS, disable_all=True)(*ARGS)):
        for a, b in zip(on(*ARGS), other):
            np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-5)


def test_gradients_match_finite_differences():
    compiled = traced_with(rnn_loss_and_grads, ARGS, disable_all=False)
    _, dwx, dwh = (r.numpy() for r in compiled(*ARGS))
    xs, wx, wh = (a.astype(np.float64) for a in (XS, WX, WH))
    eps = 1e-5
    for grad, which in ((dwx, 0), (dwh, 1)):
        numeric = np.zeros_like(grad, dtype=np.float64)
        for index in np.ndindex(grad.shape):
            weights = [wx.copy(), wh.copy()]
            weights[which][index] += eps
            up = _numpy_loss(xs, *weights)
            weights[which][index] -= 2 * eps
            numeric[index] = (up - _numpy_loss(xs, *weights)) / (2 * eps)
        np.testing.assert_allclose(grad, numeric, rtol=2e-3, atol=2e-3)




def test_no_view_per_step_is_kept():
    on = traced_with(rnn_loss_and_grads, ARGS, disable_all=False)
    off = traced_with(rnn_loss_and_grads, ARGS, disable_all=False, loop_saved_slices=False)
    on(*ARGS)
    off(*ARGS)
    # each saved slice is a view (an ndarray object, about 100 bytes) kept until the backward loop reads it
    assert _peak(lambda: on(*ARGS)) <= _peak(lambda: off(*ARGS)) - STEPS * 64


def shifted(xs, w):
    """xs[t + 1] is a slice at a value the loop does not save: left alone."""
    with tf.GradientTape() as tape:
        tape.watch(w)
        h = tf.zeros([BATCH, N_IN])
        for t in tf.range(STEPS - 1):
            h = tf.tanh(xs[t + 1] * w + h)
        loss = tf.reduce_sum(h)
    return loss, tape.gradient(loss, w)


def test_a_slice_at_an_unsaved_index_is_kept():
    args = (tf.constant(XS), tf.constant(WX[:, 0] + 1.0))
    on = traced_with(shifted, args, disable_all=False)
    off = traced_with(shifted, args, disable_all=False, loop_saved_slices=False)
    for a, b in zip(on(*args), off(*args)):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    for a, b in zip(on(*args), shifted(*args)):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-5)
