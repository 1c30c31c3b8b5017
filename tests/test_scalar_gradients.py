"""The scalar_gradients pass (runtime/passes/scalar_broadcasts.py): a sum's scalar gradient is used as the
scalar where its broadcast only meets add, subtract or multiply with arrays of the full shape; and fusion keeps
scalar steps out of blocks of arrays (runtime/passes/fusion.py), so the gradient's block stays buffered and
chunked. Bit for bit the pass-off, pass-free and eager results; gradients against finite differences."""

import numpy as np
import pytest
from ways import traced_with

import tinytf as tf
from tinytf.runtime.passes.fusion_codegen import buffered_block

pytestmark = pytest.mark.usefixtures("all_passes")  # about optimized graphs, whatever TINYTF_PASSES says
RNG = np.random.default_rng(3)


def _bits(a):
    a = np.asarray(a)
    return a.view({2: np.uint16, 4: np.uint32, 8: np.uint64}[a.dtype.itemsize])


def _ops(compiled, args):
    return compiled.get_concrete_function(*args).graph.op_types()


def _squares(x, f):
    """The conv-variant workloads' loss: sum(y * y) / 2 of a depthwise conv, and both gradients."""
    with tf.GradientTape() as tape:
        tape.watch([x, f])
        y = tf.nn.depthwise_conv2d(x, f, [1, 1, 1, 1], "SAME")
        loss = tf.reduce_sum(y * y) * 0.5
    return (loss,) + tuple(tape.gradient(loss, [x, f]))


def _squares_args(dtype=np.float32):
    return (tf.constant(RNG.standard_normal((2, 20, 20, 3)).astype(dtype)),
            tf.constant(RNG.standard_normal((3, 3, 3, 2)).astype(dtype)))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_loss_gradient_uses_the_scalar_and_keeps_every_bit(dtype):
    args = _squares_args(dtype)
    on = traced_with(_squares, args)
    off = traced_with(_squares, args, scalar_gradients=False)
    plain = traced_with(_squares, args, disable_all=True)
    assert "broadcast_reduced" not in _ops(on, args) and "broadcast_reduced" in _ops(off, args)
    fused = [n for n in on.get_concrete_function(*args).graph.nodes if n.op.name == "fused"]
    # the gradient's block, `0.5 * y + 0.5 * y`: ufunc steps into a buffer, not one new array per step
    assert any(buffered_block(n) and n.attrs["steps"][0].shape == tuple(args[0].shape[:3]) + (6,) for n in fused)
    got = on(*args)
    for other in (off(*args), plain(*args), _squares(*args)):
        for a, b in zip(got, other):
            np.testing.assert_array_equal(_bits(a.numpy()), _bits(b.numpy()))


def test_gradients_match_finite_differences():
    x, f = _squares_args(np.float64)
    _, dx, df = traced_with(_squares, (x, f))(x, f)
    eps = 1e-6
    for which, grad, index in [(0, dx, (1, 4, 7, 2)), (0, dx, (0, 0, 19, 0)), (1, df, (2, 1, 0, 1))]:
        values = [x.numpy(), f.numpy()]
        up, down = values[which].copy(), values[which].copy()
        up[index] += eps
        down[index] -= eps
        losses = []
        for v in (up, down):
            bumped = list(values)
            bumped[which] = v
            losses.append(float(_squares(tf.constant(bumped[0]), tf.constant(bumped[1]))[0]))
        np.testing.assert_allclose(grad.numpy()[index], (losses[0] - losses[1]) / (2 * eps), rtol=1e-6)


def test_broadcasts_that_must_stay():
    x = tf.constant(RNG.standard_normal((4, 5)).astype(np.float32))
    b = tf.constant(RNG.standard_normal(5).astype(np.float32))

    def sum_gradient(x, s):  # the broadcast of s is the result itself
        with tf.GradientTape() as tape:
            tape.watch(x)
            loss = tf.reduce_sum(x) * s
        return tape.gradient(loss, x)

    def mean_gradient(x, s):  # a mean's: the scalar is divided first
        with tf.GradientTape() as tape:
            tape.watch(x)
            loss = tf.reduce_mean(x * x) * s
        return tape.gradient(loss, x)

    def smaller_operand(x, b, s):  # d(x * b)/dx = g * b: b (5,) would not give the (4, 5) result
        with tf.GradientTape() as tape:
            tape.watch([x, b])
            loss = tf.reduce_sum(x * b) * s
        return tape.gradient(loss, [x, b])

    def other_reader(x):  # exp of the broadcast is no add, subtract or multiply
        with tf.GradientTape() as tape:
            tape.watch(x)
            loss = tf.reduce_sum(tf.exp(x))
        return tape.gradient(loss, x)

    s = tf.constant(np.float32(1.25))
    for fn, args, kept in [(sum_gradient, (x, s), True), (mean_gradient, (x, s), True),
                           (smaller_operand, (x, b, s), True), (other_reader, (x,), False)]:
        compiled = traced_with(fn, args, fusion=False)
        if kept:
            assert "broadcast_reduced" in _ops(compiled, args), fn.__name__
        got, want = compiled(*args), fn(*args)
        for a, c in zip(tf.nest.flatten(got), tf.nest.flatten(want)):
            assert a.shape == c.shape
            np.testing.assert_array_equal(_bits(a.numpy()), _bits(c.numpy()))


def test_fusion_keeps_scalar_steps_out_of_array_blocks():
    x = tf.constant(RNG.standard_normal((64, 1024)).astype(np.float32))
    s = tf.constant(np.float32(1.5))

    def fn(x, s):
        t = s * 2.0 + 1.0  # scalar steps
        return tf.tanh(x) * t + x, t * 3.0

    compiled = traced_with(fn, (x, s))
    graph = compiled.get_concrete_function(x, s).graph
    for node in graph.nodes:
        if node.op.name == "fused":
            shapes = {step.shape == () for step in node.attrs["steps"]}
            assert len(shapes) == 1, "a block mixes scalar and array steps"
    for a, b in zip(compiled(x, s), fn(x, s)):
        np.testing.assert_array_equal(_bits(a.numpy()), _bits(b.numpy()))
    plain = traced_with(fn, (x, s), disable_all=True)
    for a, b in zip(compiled(x, s), plain(x, s)):
        np.testing.assert_array_equal(_bits(a.numpy()), _bits(b.numpy()))
