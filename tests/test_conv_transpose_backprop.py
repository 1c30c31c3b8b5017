"""conv2d(a, w) and conv2d_backprop_filter(a, b) on one window matrix (the conv_transpose_backprop pass,
runtime/ops/conv_transpose_backprop.py): the op gives the two kernels' bits on many geometries, float32 and
float64, on 1, 2 or 3 threads and in tasks of any size, into a given buffer; the pass pairs the gradients of
tf.nn.conv2d_transpose (and not a forward conv with its own filter gradient, nor a frequency-domain conv);
a transposed-conv step gives the same bits with the pass on and off, agrees with the unoptimized graph and
eager, and with float64 loops."""

import contextlib

import numpy as np
import pytest
from test_conv_chunks import reference_grads

import tinytf as tf
from tinytf.runtime import chunked
from tinytf.runtime.ops import conv, conv_kernels, conv_transpose_backprop

RNG = np.random.default_rng(15)

# a's shape, w's shape, strides, padding, dilations
GEOMETRIES = [
    ((3, 12, 12, 6), (3, 3, 6, 8), (2, 2), "SAME", (1, 1)),  # the conv_transpose workload's, smaller
    ((2, 9, 11, 5), (3, 3, 5, 4), (2, 2), "VALID", (1, 1)),
    ((2, 13, 7, 2), (4, 3, 2, 5), (3, 2), "SAME", (1, 1)),  # few channels: the window matrix by offset
    ((2, 9, 9, 3), (3, 3, 3, 4), (1, 1), ((2, 1), (0, 3)), (1, 1)),  # explicit padding, stride 1
    ((2, 11, 10, 4), (3, 3, 4, 3), (1, 1), "SAME", (2, 2)),  # dilated
    ((2, 40, 6, 8), (3, 3, 8, 4), (1, 1), "SAME", (1, 1)),  # images cut into tasks of rows (below)
]


@contextlib.contextmanager
def _options(**options):
    saved = tf.config.optimizer.get_experimental_options()
    tf.config.optimizer.set_experimental_options(options)
    try:
        yield
    finally:
        tf.config.optimizer.set_experimental_options({key: saved.get(key, key != "disable_all") for key in options})


def _data(a_shape, w_shape, strides, padding, dilations, dtype=np.float32):
    a = RNG.standard_normal(a_shape).astype(dtype)
    w = (RNG.standard_normal(w_shape) * 0.3).astype(dtype)
    geo = conv.conv_geometry(a_shape[1:3], w_shape[:2], strides, dilations, padding)
    b = RNG.standard_normal((a_shape[0],) + tuple(geo.out_hw) + (w_shape[3],)).astype(dtype)
    return a, w, b, geo


@pytest.mark.parametrize("case", GEOMETRIES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_op_gives_the_two_kernels_bits(case, dtype, monkeypatch):
    monkeypatch.setenv("TINYTF_CONV_ALGO", "direct")
    if case[0][1] == 40:  # 40 rows of 6 x 72 floats: tasks of rows
        monkeypatch.setattr(conv_kernels, "ROW_TASKS_BYTES", 4096)
        monkeypatch.setattr(conv_kernels, "TASK_BYTES", 4096)
    a, w, b, geo = _data(*case, dtype=dtype)
    y, dw = conv_transpose_backprop.conv2d_and_filter_grad(a, w, b, geo)
    np.testing.assert_array_equal(y, conv_kernels.conv2d(a, w, geo))
    np.testing.assert_array_equal(dw, conv_kernels.conv2d_filter_grad(a, b, w.shape, geo))
    assert y.dtype == dw.dtype == dtype
    # against float64 loops: y is the conv, dw the filter gradient of <conv(a, w), b>
    ref_da, ref_dw = reference_grads(a.astype(np.float64), w.astype(np.float64), b.astype(np.float64),
                                     case[2], case[3], case[4])
    tol = dict(rtol=1e-4, atol=1e-4) if dtype == np.float32 else dict(rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(dw, ref_dw, **tol)
    want_y = conv_kernels.conv2d(a.astype(np.float64), w.astype(np.float64), geo)
    np.testing.assert_allclose(y, want_y, **tol)


def test_op_same_bits_on_1_2_3_threads_into_a_given_buffer(monkeypatch):
    monkeypatch.setenv("TINYTF_CONV_ALGO", "direct")
    monkeypatch.setattr(conv_kernels, "PARALLEL_MIN_FLOPS", 0)
    a, w, b, geo = _data((9, 16, 16, 8), (3, 3, 8, 16), (2, 2), "SAME", (1, 1))
    results = []
    try:
        for count in (1, 2, 3):
            chunked.set_num_threads(count)
            out = np.full(b.shape, np.nan, np.float32)
            y, dw = conv_transpose_backprop.conv2d_and_filter_grad(a, w, b, geo, out)
            assert y is out
            results.append((y, dw))
    finally:
        chunked.set_num_threads(0)
    for y, dw in results[1:]:
        np.testing.assert_array_equal(y, results[0][0])
        np.testing.assert_array_equal(dw, results[0][1])


def test_op_falls_back_to_the_two_kernels_for_empty_and_frequency_domain_convs(monkeypatch):
    a, w, b, geo = _data((0, 8, 8, 3), (3, 3, 3, 2), (1, 1), "SAME", (1, 1))
    y, dw = conv_transpose_backprop.conv2d_and_filter_grad(a, w, b, geo)
    assert y.shape == (0, 8, 8, 2) and not dw.any() and dw.shape == w.shape
    monkeypatch.setenv("TINYTF_CONV_ALGO", "fft")
    a, w, b, geo = _data((2, 12, 12, 4), (5, 5, 4, 3), (1, 1), "SAME", (1, 1))
    y, dw = conv_transpose_backprop.conv2d_and_filter_grad(a, w, b, geo)
    np.testing.assert_array_equal(y, conv_kernels.conv2d(a, w, geo))
    np.testing.assert_array_equal(dw, conv_kernels.conv2d_filter_grad(a, b, w.shape, geo))


def _transpose_step(x, f):
    with tf.GradientTape() as tape:
        tape.watch([x, f])
        y = tf.nn.conv2d_transpose(x, f, [4, 16, 16, 6], 2, "SAME")
        loss = tf.reduce_sum(y * y) * 0.5
    return loss, tape.gradient(loss, [x, f])


def _traced(step, args, **options):
    with _options(**options):
        fn = tf.function(step)
        concrete = fn.get_concrete_function(*args)
        return concrete.graph.op_types(), [t.numpy() for t in tf.nest.flatten(fn(*args))]


def test_pass_pairs_conv2d_transpose_gradients_with_the_same_bits():
    x = RNG.standard_normal((4, 8, 8, 5)).astype(np.float32)
    f = (RNG.standard_normal((3, 3, 6, 5)) * 0.3).astype(np.float32)
    args = (tf.constant(x), tf.constant(f))
    ops, paired = _traced(_transpose_step, args, disable_all=False, conv_transpose_backprop=True)
    assert "conv2d_and_filter_grad" in ops and "conv2d" not in ops and "conv2d_backprop_filter" not in ops
    ops, separate = _traced(_transpose_step, args, disable_all=False, conv_transpose_backprop=False)
    assert "conv2d_and_filter_grad" not in ops and "conv2d" in ops and "conv2d_backprop_filter" in ops
    _, unoptimized = _traced(_transpose_step, args, disable_all=True)
    loss, (dx, df) = _transpose_step(*args)
    eager = [loss.numpy(), dx.numpy(), df.numpy()]
    for got, want, plain, now in zip(paired, separate, unoptimized, eager):
        np.testing.assert_array_equal(got, want)
        np.testing.assert_allclose(got, plain, rtol=1e-5, atol=1e-4)
        np.testing.assert_allclose(got, now, rtol=1e-5, atol=1e-4)
    # against float64 loops: y = conv2d_transpose(x, f), dx = conv2d(y, f), df = filter gradient of <y, y>/2
    y = reference_grads(np.zeros((4, 16, 16, 6)), f.astype(np.float64), x.astype(np.float64), (2, 2), "SAME",
                        (1, 1))[0]
    want_df = reference_grads(y, f.astype(np.float64), x.astype(np.float64), (2, 2), "SAME", (1, 1))[1]
    np.testing.assert_allclose(paired[2], want_df, rtol=1e-4, atol=1e-3)
    np.testing.assert_allclose(paired[0], 0.5 * np.sum(y * y), rtol=1e-5)


def test_pass_leaves_a_forward_conv_and_its_own_filter_gradient():
    """A train step's conv2d(x, w) and conv2d_backprop_filter(x, g) share x, but g comes from the conv."""
    def step(x, w):
        with tf.GradientTape() as tape:
            tape.watch(w)
            loss = tf.reduce_sum(tf.square(tf.nn.conv2d(x, w, 2, "SAME")))
        return loss, tape.gradient(loss, w)

    args = (tf.constant(RNG.standard_normal((2, 8, 8, 3)).astype(np.float32)),
            tf.constant(RNG.standard_normal((3, 3, 3, 4)).astype(np.float32)))
    ops, _ = _traced(step, args, disable_all=False)
    assert "conv2d_and_filter_grad" not in ops and "conv2d" in ops and "conv2d_backprop_filter" in ops


def test_pass_leaves_frequency_domain_convs(monkeypatch):
    monkeypatch.setenv("TINYTF_CONV_ALGO", "fft")

    def step(x, f):
        with tf.GradientTape() as tape:
            tape.watch([x, f])
            y = tf.nn.conv2d_transpose(x, f, [2, 12, 12, 4], 1, "SAME")
            loss = tf.reduce_sum(y * y)
        return tape.gradient(loss, [x, f])

    args = (tf.constant(RNG.standard_normal((2, 12, 12, 5)).astype(np.float32)),
            tf.constant(RNG.standard_normal((5, 5, 4, 5)).astype(np.float32)))
    ops, _ = _traced(step, args, disable_all=False)
    assert "conv2d_and_filter_grad" not in ops and "conv2d_backprop_filter" in ops
    monkeypatch.setenv("TINYTF_CONV_ALGO", "direct")  # the same step, direct: paired
    ops, _ = _traced(step, args, disable_all=False)
    assert "conv2d_and_filter_grad" in ops


def test_an_input_gradient_used_further_is_written_into_a_planned_buffer():
    """A decoder's Conv2DTranspose whose input gradient flows on (here into tanh's gradient) has it written
    into a planned buffer: the paired op takes out= for its conv2d result; the same bits as unpaired."""
    def step(x, f):
        with tf.GradientTape() as tape:
            tape.watch([x, f])
            y = tf.nn.conv2d_transpose(tf.tanh(x), f, [4, 16, 16, 6], 2, "SAME")
            loss = tf.reduce_sum(y * y) * 0.5
        dx, df = tape.gradient(loss, [x, f])
        return dx, df

    args = (tf.constant(RNG.standard_normal((4, 8, 8, 32)).astype(np.float32)),
            tf.constant((RNG.standard_normal((3, 3, 6, 32)) * 0.3).astype(np.float32)))
    results = {}
    for paired in (True, False):
        with _options(disable_all=False, conv_transpose_backprop=paired, buffer_planning=True):
            fn = tf.function(step)
            code = fn.get_concrete_function(*args).code
            results[paired] = [t.numpy() for t in fn(*args)]
        if paired:
            kernel = "conv2d_and_filter_grad_kernel("
            assert kernel in code and "out=_buf" in code.split(kernel)[1].split("\n")[0]
    for got, want in zip(results[True], results[False]):
        np.testing.assert_array_equal(got, want)
