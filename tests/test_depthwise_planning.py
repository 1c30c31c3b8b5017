"""Depthwise convolutions in planned buffers (runtime/buffer_plan.py): the forward and the input gradient write
into the buffer they are given in every code path (einsum, dense, direct), or into a new array when it does not
fit; a training step's planned graph is bit for bit the unplanned one, the pass-free one and eager, and a
result it returned is not overwritten by the next call."""

import numpy as np
import pytest
from ways import traced_with

import tinytf as tf
from tinytf.runtime.ops import conv, depthwise_kernels

pytestmark = pytest.mark.usefixtures("all_passes")  # about optimized graphs, whatever TINYTF_PASSES says
RNG = np.random.default_rng(9)

PATHS = {  # x shape, filter shape, strides: einsum (stride 1), dense (stride 2, few channels), direct (many)
    "einsum": ((2, 9, 8, 3), (3, 3, 3, 2), (1, 1)),
    "dense": ((2, 9, 8, 3), (3, 3, 3, 2), (2, 2)),
    "direct": ((2, 9, 8, 20), (3, 3, 20, 1), (2, 1)),
}


@pytest.mark.parametrize("path", list(PATHS))
def test_kernels_write_into_the_buffer_given(path):
    x_shape, f_shape, strides = PATHS[path]
    x = RNG.standard_normal(x_shape).astype(np.float32)
    f = RNG.standard_normal(f_shape).astype(np.float32)
    geo = conv.conv_geometry(x.shape[1:3], f.shape[:2], strides, (1, 1), "SAME")
    want = depthwise_kernels.forward(x, f, geo)
    buffer = np.full(want.shape, np.nan, np.float32)
    got = depthwise_kernels.forward(x, f, geo, buffer)
    assert got is buffer
    np.testing.assert_array_equal(got, want)
    g = RNG.standard_normal(want.shape).astype(np.float32)
    want_dx = depthwise_kernels.input_grad(g, f, x.shape, geo)
    buffer = np.full(x.shape, np.nan, np.float32)
    got_dx = depthwise_kernels.input_grad(g, f, x.shape, geo, buffer)
    assert got_dx is buffer
    np.testing.assert_array_equal(got_dx, want_dx)
    wrong = np.empty(want.shape, np.float64)  # another dtype: a new array
    assert depthwise_kernels.forward(x, f, geo, wrong) is not wrong


def _two_layers(x, f1, f2):
    """Two depthwise layers: the second's input gradient is an intermediate (planned), the first's returned."""
    with tf.GradientTape() as tape:
        tape.watch([x, f1, f2])
        h = tf.nn.relu(tf.nn.depthwise_conv2d(x, f1, [1, 1, 1, 1], "SAME"))
        y = tf.nn.depthwise_conv2d(h, f2, [1, 1, 1, 1], "SAME")
        loss = tf.reduce_sum(y * y) * 0.5
    return (loss,) + tuple(tape.gradient(loss, [x, f1, f2]))


def _args(seed):
    rng = np.random.default_rng(seed)
    return (tf.constant(rng.standard_normal((4, 24, 24, 8)).astype(np.float32)),
            tf.constant((rng.standard_normal((3, 3, 8, 2)) * 0.3).astype(np.float32)),
            tf.constant((rng.standard_normal((3, 3, 16, 1)) * 0.3).astype(np.float32)))


def test_planned_training_step_is_bitwise_unplanned_and_keeps_its_results():
    args = _args(1)
    planned = traced_with(_two_layers, args)
    code = planned.get_concrete_function(*args).code
    assert "depthwise_conv2d_kernel(" in code and "out=_buf" in code.split("depthwise_conv2d_kernel(")[1]
    assert "depthwise_conv2d_backprop_input_kernel(" in code and \
        "out=_buf" in code.split("depthwise_conv2d_backprop_input_kernel(")[1].split("\n")[0]
    unplanned = traced_with(_two_layers, args, buffer_planning=False)
    plain = traced_with(_two_layers, args, disable_all=True)
    first = planned(*args)
    kept = [t.numpy().copy() for t in first]
    for other in (unplanned(*args), plain(*args), _two_layers(*args)):
        for a, b in zip(first, other):
            np.testing.assert_array_equal(a.numpy(), b.numpy())
    planned(*_args(2))  # the next call with other values must not write into what the first returned
    for a, b in zip(first, kept):
        np.testing.assert_array_equal(a.numpy(), b)
