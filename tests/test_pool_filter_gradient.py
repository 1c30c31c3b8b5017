"""The pool_filter_gradient pass and its kernel (runtime/passes/pool_filter_gradient.py,
runtime/ops/pool_filter_grad.py): a first conv layer's relu + pool gradient, filter gradient and bias gradient
as one op per chunk of images. The filter gradient is bit for bit the separate ops' in any chunks and on any
thread count; the bias gradient the same bits on 1, 2 and 3 threads and within float rounding of one sum;
graphs with the pass, without it, without any pass and eager agree, and the gradients match finite
differences; the pass leaves the pool gradient alone when anything else reads it."""

import numpy as np
import pytest
from ways import traced_with

import tinytf as tf
from tinytf.runtime import chunked
from tinytf.runtime.ops import conv, conv_kernels, nn_grad, pool_kernels, reduce
from tinytf.runtime.ops.pool_filter_grad import pool_filter_grad

pytestmark = pytest.mark.usefixtures("all_passes")  # about optimized graphs, whatever TINYTF_PASSES says
RNG = np.random.default_rng(5)


def _bits(a):
    a = np.asarray(a)
    return a.view(np.uint32 if a.dtype == np.float32 else np.uint64)


def _inputs(x_shape, w_shape, padding, dtype):
    """x, the conv's relu output r, its 2x2 VALID pool y and a gradient g for y."""
    x = RNG.standard_normal(x_shape).astype(dtype)
    w = (RNG.standard_normal(w_shape) * 0.5).astype(dtype)
    geo = conv.conv_geometry(x.shape[1:3], w.shape[:2], (1, 1), (1, 1), padding)
    r = np.maximum(conv_kernels.conv2d(x, w, geo), 0)
    y = conv._max_pool_kernel(r, ksize=(2, 2), strides=(2, 2), padding="VALID")
    g = RNG.standard_normal(y.shape).astype(dtype)
    return x, r, y, g, geo


def _separate(x, r, y, g, w_shape, geo):
    m = nn_grad._max_pool_relu_grad_kernel(r, y, g, ksize=(2, 2), strides=(2, 2), padding="VALID")
    return conv_kernels.conv2d_filter_grad(x, m, w_shape, geo), reduce._sum(m, axis=(0, 1, 2), keepdims=False)


CASES = [((6, 12, 12, 1), (5, 5, 1, 4), "SAME"),
         ((3, 9, 11, 2), (3, 3, 2, 5), "SAME"),  # odd sizes: the pool leaves a row and a column ungraded
         ((4, 10, 9, 3), (3, 2, 3, 6), "VALID")]


@pytest.fixture(params=[(1, 1 << 20), (2, 1 << 20), (2, 64), (3, 700)],
                ids=["1 thread", "2 threads", "2 threads rows", "3 threads images"])
def chunking(request, monkeypatch):
    count, task_bytes = request.param
    monkeypatch.setattr(conv_kernels, "TASK_BYTES", task_bytes)
    monkeypatch.setattr(conv_kernels, "ROW_TASKS_BYTES", 0)
    monkeypatch.setattr(conv_kernels, "PARALLEL_MIN_FLOPS", 0)
    chunked.set_num_threads(count)
    yield count
    chunked.set_num_threads(0)


@pytest.mark.parametrize("x_shape, w_shape, padding", CASES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_kernel_filter_gradient_is_bitwise_the_separate_ops_in_any_chunks(chunking, x_shape, w_shape, padding,
                                                                          dtype):
    x, r, y, g, geo = _inputs(x_shape, w_shape, padding, dtype)
    want_filter, want_bias = _separate(x, r, y, g, w_shape, geo)
    got_filter, got_bias = pool_filter_grad(x, r, y, g, w_shape, geo, ((2, 2), (2, 2), "VALID"), True)
    np.testing.assert_array_equal(_bits(got_filter), _bits(want_filter))
    assert got_bias.dtype == dtype and got_bias.shape == (w_shape[3],)
    np.testing.assert_allclose(got_bias, want_bias, rtol=1e-5 if dtype == np.float32 else 1e-12, atol=1e-5)
    (alone,) = pool_filter_grad(x, r, y, g, w_shape, geo, ((2, 2), (2, 2), "VALID"), False)
    np.testing.assert_array_equal(_bits(alone), _bits(want_filter))


def test_bias_gradient_has_the_same_bits_on_any_thread_count(monkeypatch):
    monkeypatch.setattr(conv_kernels, "PARALLEL_MIN_FLOPS", 0)
    x, r, y, g, geo = _inputs((16, 12, 12, 1), (5, 5, 1, 8), "SAME", np.float32)
    results = []
    try:
        for count in (1, 2, 3):
            chunked.set_num_threads(count)
            results.append(pool_filter_grad(x, r, y, g, (5, 5, 1, 8), geo, ((2, 2), (2, 2), "VALID"), True))
    finally:
        chunked.set_num_threads(0)
    for filters, bias in results[1:]:
        np.testing.assert_array_equal(_bits(filters), _bits(results[0][0]))
        np.testing.assert_array_equal(_bits(bias), _bits(results[0][1]))


@pytest.mark.parametrize("bad", ["inf in g", "nan in y", "fft"])
def test_what_the_fast_way_cannot_do_runs_the_separate_kernels(monkeypatch, bad):
    x, r, y, g, geo = _inputs((4, 12, 12, 2), (5, 5, 2, 4), "SAME", np.float32)
    if bad == "inf in g":
        g[1, 2, 3, 1] = np.inf
    elif bad == "nan in y":
        r[0, 0, 0, 0] = y[0, 0, 0, 0] = np.nan
    else:
        monkeypatch.setenv("TINYTF_CONV_ALGO", "fft")
    want = _separate(x, r, y, g, (5, 5, 2, 4), geo)
    got = pool_filter_grad(x, r, y, g, (5, 5, 2, 4), geo, ((2, 2), (2, 2), "VALID"), True)
    for a, b in zip(got, want):
        np.testing.assert_array_equal(_bits(a), _bits(b))


def test_kernel_matches_float64_numpy():
    """Against a direct float64 computation of the three: the pool gradient at each window's first maximum
    when it is positive, the bias as its sum, the filter gradient as windows times it."""
    x, r, y, g, geo = _inputs((3, 8, 8, 2), (3, 3, 2, 3), "SAME", np.float64)
    m = np.zeros_like(r)
    for n, i, j, c in np.ndindex(y.shape):
        window = r[n, 2 * i:2 * i + 2, 2 * j:2 * j + 2, c].reshape(-1)
        if window.max() > 0:
            k = int(np.argmax(window))
            m[n, 2 * i + k // 2, 2 * j + k % 2, c] = g[n, i, j, c]
    padded = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    want = np.einsum("nhwijc,nhwo->ijco", np.lib.stride_tricks.sliding_window_view(padded, (3, 3), (1, 2))
                     .transpose(0, 1, 2, 4, 5, 3), m)
    filters, bias = pool_filter_grad(x, r, y, g, (3, 3, 2, 3), geo, ((2, 2), (2, 2), "VALID"), True)
    np.testing.assert_allclose(filters, want, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(bias, m.sum(axis=(0, 1, 2)), rtol=1e-12, atol=1e-12)


def _model_args(dtype=np.float32):
    x = tf.constant(RNG.standard_normal((4, 12, 12, 1)).astype(dtype))
    w = tf.constant((RNG.standard_normal((3, 3, 1, 4)) * 0.5).astype(dtype))
    b = tf.constant((RNG.standard_normal(4) * 0.1).astype(dtype))
    w2 = tf.constant((RNG.standard_normal((3, 3, 4, 3)) * 0.3).astype(dtype))
    return x, w, b, w2


def _first_layer(x, w, b):
    return tf.nn.max_pool2d(tf.nn.relu(tf.nn.conv2d(x, w, 1, "SAME") + b), 2, 2, "VALID")


def _loss(x, w, b, w2):
    h = _first_layer(x, w, b)
    return tf.reduce_sum(tf.nn.conv2d(h, w2, 1, "SAME") ** 2)


def _train_grads(x, w, b, w2):
    with tf.GradientTape() as tape:
        tape.watch([w, b, w2])
        loss = _loss(x, w, b, w2)
    return (loss,) + tuple(tape.gradient(loss, [w, b, w2]))


def _ops(compiled, args):
    return compiled.get_concrete_function(*args).graph.op_types()


def test_training_step_fuses_the_first_layer_and_matches_every_way():
    args = _model_args()
    fused = traced_with(_train_grads, args)
    ops = _ops(fused, args)
    assert "max_pool2d_relu_grad_filter" in ops and "max_pool2d_relu_grad" not in ops  # never made whole
    without = traced_with(_train_grads, args, pool_filter_gradient=False)
    assert "max_pool2d_relu_grad_filter" not in _ops(without, args)
    plain = traced_with(_train_grads, args, disable_all=True)
    eager = _train_grads(*args)
    got, separate = fused(*args), without(*args)
    np.testing.assert_array_equal(_bits(got[1].numpy()), _bits(separate[1].numpy()))  # the filter gradient
    for other in (separate, plain(*args), eager):
        for a, c in zip(got, other):
            np.testing.assert_allclose(a.numpy(), c.numpy(), rtol=2e-5, atol=2e-5)


def test_gradients_match_finite_differences():
    x, w, b, w2 = (tf.constant(a.numpy().astype(np.float64)) for a in _model_args())
    graph = traced_with(_train_grads, (x, w, b, w2))
    assert "max_pool2d_relu_grad_filter" in _ops(graph, (x, w, b, w2))
    _, dw, db, _ = graph(x, w, b, w2)
    eps = 1e-6
    for value, grad, index in [(w, dw, (0, 1, 0, 2)), (w, dw, (2, 2, 0, 3)), (b, db, (1,)), (b, db, (3,))]:
        up, down = value.numpy().copy(), value.numpy().copy()
        up[index] += eps
        down[index] -= eps
        loss = [float(_loss(x, tf.constant(v), b, w2) if value is w else _loss(x, w, tf.constant(v), w2))
                for v in (up, down)]
        np.testing.assert_allclose(grad.numpy()[index], (loss[0] - loss[1]) / (2 * eps), rtol=1e-5, atol=1e-6)


def test_pool_gradient_read_elsewhere_is_left_alone():
    args = _model_args()

    def also_input_grad(x, w, b, w2):
        with tf.GradientTape() as tape:
            tape.watch([x, w, b])
            loss = _loss(x, w, b, w2)
        return tape.gradient(loss, [x, w, b])  # the input's gradient reads the pool gradient too

    def no_bias(x, w, b, w2):
        with tf.GradientTape() as tape:
            tape.watch(w)
            loss = tf.reduce_sum(tf.nn.max_pool2d(tf.nn.relu(tf.nn.conv2d(x, w, 1, "SAME")), 2, 2, "VALID") ** 2)
        return tape.gradient(loss, w)

    compiled = traced_with(also_input_grad, args)
    assert "max_pool2d_relu_grad_filter" not in _ops(compiled, args)
    for a, c in zip(compiled(*args), also_input_grad(*args)):
        np.testing.assert_allclose(a.numpy(), c.numpy(), rtol=1e-5, atol=1e-5)
    compiled = traced_with(no_bias, args)  # no bias: the filter gradient alone is fused
    assert "max_pool2d_relu_grad_filter" in _ops(compiled, args)
    np.testing.assert_array_equal(_bits(compiled(*args).numpy()),
                                  _bits(traced_with(no_bias, args, pool_filter_gradient=False)(*args).numpy()))


def test_pool_tiles_checked_by_the_kernel():
    """Windows that do not tile (3x3 stride 2 SAME) never become max_pool2d_relu_grad; the kernel itself,
    asked for a pool whose view does not tile, runs the separate kernels."""
    x, r, y, g, geo = _inputs((2, 8, 8, 1), (3, 3, 1, 2), "SAME", np.float32)
    y3 = conv._max_pool_kernel(r, ksize=(3, 3), strides=(2, 2), padding="SAME")
    g3 = RNG.standard_normal(y3.shape).astype(np.float32)
    assert pool_kernels.tiled_view(r, (3, 3), (2, 2), "SAME") is None
    got = pool_filter_grad(x, r, y3, g3, (3, 3, 1, 2), geo, ((3, 3), (2, 2), "SAME"), True)
    m = nn_grad._max_pool_relu_grad_kernel(r, y3, g3, ksize=(3, 3), strides=(2, 2), padding="SAME")
    np.testing.assert_array_equal(_bits(got[0]), _bits(conv_kernels.conv2d_filter_grad(x, m, (3, 3, 1, 2), geo)))
