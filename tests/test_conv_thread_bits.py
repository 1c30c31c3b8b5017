"""The GEMM-based convolution kernels give the same bits whatever the thread count and whatever BLAS's count
was left at: their tasks are cut from the shapes alone (conv_kernels._split_count: OpenBLAS's float32 GEMM
sums differently for tasks of other rows), and a call of one task runs its GEMM on one BLAS thread as every
task does (conv_kernels._run), not at the count a region that ended a moment ago left BLAS at."""

import numpy as np
import pytest

import tinytf as tf
from tinytf.runtime import blas_threads, chunked
from tinytf.runtime.ops import conv_kernels

RNG = np.random.default_rng(21)


def _kernels(x, w, g, b):
    """conv2d, its relu epilogue with a bias, and both gradients (compat.v1's ops: no pass in between)."""
    return [tf.nn.conv2d(x, w, 1, "SAME"),
            tf.function(lambda x, w, b: tf.nn.relu(tf.nn.conv2d(x, w, 1, "SAME") + b))(x, w, b),
            tf.compat.v1.nn.conv2d_backprop_input(list(x.shape), w, g, [1, 1, 1, 1], "SAME"),
            tf.compat.v1.nn.conv2d_backprop_filter(x, list(w.shape), g, [1, 1, 1, 1], "SAME")]


# a CNN's two convs at batch 4: the first conv's tasks and the second's input gradient depended on the count
@pytest.mark.parametrize("x_shape, w_shape", [((4, 28, 28, 1), (5, 5, 1, 32)), ((4, 14, 14, 32), (5, 5, 32, 64)),
                                              ((9, 12, 11, 3), (3, 3, 3, 8))])
def test_same_bits_on_one_two_three_threads(x_shape, w_shape):
    x = tf.constant(RNG.standard_normal(x_shape).astype(np.float32))
    w = tf.constant(RNG.standard_normal(w_shape).astype(np.float32))
    g = tf.constant(RNG.standard_normal(x_shape[:3] + w_shape[3:]).astype(np.float32))
    b = tf.constant(RNG.standard_normal(w_shape[3]).astype(np.float32))
    results = {}
    try:
        for count in (1, 2, 3):
            chunked.set_num_threads(count)
            results[count] = [t.numpy() for t in _kernels(x, w, g, b)]
    finally:
        chunked.set_num_threads(0)
    for count in (2, 3):
        for a, c in zip(results[1], results[count]):
            np.testing.assert_array_equal(a, c)


def test_task_split_follows_the_shapes_alone():
    assert conv_kernels._split_count(4 * 28 * 28, 25, 32) == conv_kernels.TASK_THREADS
    assert conv_kernels._split_count(2, 3, 4) == 1  # too small for a second thread, whatever the count


@pytest.mark.skipif(not blas_threads.available() or blas_threads.count() < 2, reason="needs a 2-thread OpenBLAS")
def test_one_task_runs_blas_on_one_thread():
    """A conv of one task, called while BLAS is at its own count (no region open, nothing lingering) and while
    it is held at one: the same bits, and BLAS's count is back afterwards."""
    x = RNG.standard_normal((1, 20, 20, 16)).astype(np.float32)  # one image: one task, a deep window matrix
    w = RNG.standard_normal((5, 5, 16, 64)).astype(np.float32)
    blas_threads.restore()
    full = blas_threads.count()
    seen = []

    def spy(a, b, out):
        seen.append(int(blas_threads._functions()[0]()))  # OpenBLAS's own count now (count() says the saved one)
        np.matmul(a, b, out=out)

    original = conv_kernels._matmul_into
    conv_kernels._matmul_into = spy
    try:
        free = tf.nn.conv2d(x, w, 1, "SAME").numpy()
        with blas_threads.single():
            held = tf.nn.conv2d(x, w, 1, "SAME").numpy()
    finally:
        conv_kernels._matmul_into = original
        blas_threads.restore()
    assert seen == [1, 1]
    np.testing.assert_array_equal(free, held)
    assert blas_threads.count() == full
