"""The conv_epilogue pass and its kernel (runtime/passes/conv_epilogue.py, runtime/ops/conv_fused.py): a conv's
bias add, relu and tiled max pool applied chunk by chunk give bit for bit the separate ops' results, in any
chunks and on one or two threads; the pass fuses only values nothing else reads, so a training step keeps its
relu output for the pool's gradient; graphs with the pass, without it, without any pass and eager agree."""

import numpy as np
import pytest
from ways import traced_with

import tinytf as tf
from tinytf.runtime import chunked
from tinytf.runtime.ops import conv, conv_kernels, pool_kernels

RNG = np.random.default_rng(11)


def _run(fn, args, **options):
    compiled = traced_with(fn, args, **options)
    return compiled.get_concrete_function(*args).graph.op_types(), compiled(*args)


def _bits(a):
    a = np.asarray(a)
    return a.view(np.uint32 if a.dtype == np.float32 else np.uint64)


@pytest.fixture(params=[(1, 1 << 20), (1, 64), (2, 1 << 20), (2, 64), (2, 700)],
                ids=["1 thread whole", "1 thread rows", "2 threads whole", "2 threads rows", "2 threads images"])
def chunking(request, monkeypatch):
    count, task_bytes = request.param
    monkeypatch.setattr(conv_kernels, "TASK_BYTES", task_bytes)
    monkeypatch.setattr(conv_kernels, "ROW_TASKS_BYTES", 0)
    monkeypatch.setattr(conv_kernels, "PARALLEL_MIN_FLOPS", 0)
    chunked.set_num_threads(count)
    yield count
    chunked.set_num_threads(0)


# input shape, filter shape, strides, padding, pool
CASES = [
    ((3, 8, 8, 3), (3, 3, 3, 4), (1, 1), "SAME", (2, 2)),
    ((2, 9, 7, 2), (3, 3, 2, 5), (1, 1), "SAME", (2, 2)),  # odd sizes: VALID pooling drops a row and a column
    ((2, 11, 10, 6), (3, 2, 6, 3), (1, 1), "VALID", (3, 2)),  # more channels than FEW_CHANNELS
    ((2, 9, 9, 2), (3, 3, 2, 3), (2, 1), "SAME", (1, 2)),
    ((3, 12, 12, 1), (5, 5, 1, 4), (1, 1), "SAME", None),
]


def _unfused(x, w, b, strides, padding, pool):
    """The separate ops' kernels, in the generated code's order."""
    y = conv._conv2d_kernel(x, w, strides=strides, padding=padding, dilations=(1, 1))
    if b is not None:
        y = np.add(y, b)
    y = np.maximum(y, 0)
    return y if pool is None else conv._max_pool_kernel(y, ksize=pool, strides=pool, padding="VALID")


@pytest.mark.parametrize("x_shape, w_shape, strides, padding, pool", CASES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("with_bias", [True, False])
def test_kernel_is_bitwise_the_separate_ops_in_any_chunks(chunking, x_shape, w_shape, strides, padding, pool,
                                                          dtype, with_bias):
    x = RNG.normal(size=x_shape).astype(dtype)
    w = RNG.normal(size=w_shape).astype(dtype)
    b = RNG.normal(size=w_shape[3]).astype(dtype) if with_bias else None
    geo = conv.conv_geometry(x_shape[1:3], w_shape[:2], strides, (1, 1), padding)
    want = _unfused(x, w, b, strides, padding, pool)  # in the same chunks: the same GEMMs
    got = conv_kernels.conv2d(x, w, geo, bias=b, relu=True, pool=pool)
    assert got.shape == want.shape and got.dtype == want.dtype
    out = np.full(want.shape, np.nan, dtype)  # a planned buffer is written whole
    assert conv_kernels.conv2d(x, w, geo, out, bias=b, relu=True, pool=pool) is out
    if pool is not None and conv_kernels.TASK_BYTES < 1 << 20:
        # tasks of rows start at whole pool windows, so their GEMMs have other row counts than the unfused
        # conv's, and BLAS may round the last bit differently
        tol = dict(rtol=1e-5, atol=1e-5) if dtype == np.float32 else dict(rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(got, want, **tol)
        np.testing.assert_array_equal(_bits(out), _bits(got))
        return
    np.testing.assert_array_equal(_bits(got), _bits(want))
    np.testing.assert_array_equal(_bits(out), _bits(want))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_pooling_before_bias_and_relu_keeps_every_bit(dtype):
    """The kernel pools first and adds bias and relu to the pooled rows: bit for bit the separate ops'
    order, with windows all negative, all below -bias, holding a NaN or an inf, or mixed."""
    x = RNG.normal(size=(3, 8, 8, 3)).astype(dtype)
    x[0, 2, 3, 1] = np.nan
    x[1, 5, 5, 0] = np.inf
    x[2, 6, 1, 2] = -np.inf
    w = RNG.normal(size=(3, 3, 3, 4)).astype(dtype)
    w[..., 0] = -np.abs(w[..., 0])  # channel 0 mostly negative outputs
    b = np.array([0.5, -3.0, 0.0, 2.0], dtype)
    geo = conv.conv_geometry((8, 8), (3, 3), (1, 1), (1, 1), "SAME")
    for bias in (b, None):
        want = _unfused(x, w, bias, (1, 1), "SAME", (2, 2))
        got = conv_kernels.conv2d(x, w, geo, bias=bias, relu=True, pool=(2, 2))
        assert np.isnan(want).any() and (want == 0).any() and (want > 0).any()
        np.testing.assert_array_equal(_bits(got), _bits(want))


def test_kernel_matches_float64_numpy():
    x = RNG.normal(size=(4, 10, 10, 3)).astype(np.float32)
    w = RNG.normal(size=(3, 3, 3, 8)).astype(np.float32)
    b = RNG.normal(size=8).astype(np.float32)
    geo = conv.conv_geometry((10, 10), (3, 3), (1, 1), (1, 1), "SAME")
    padded = np.pad(x.astype(np.float64), ((0, 0), (1, 1), (1, 1), (0, 0)))
    windows = np.lib.stride_tricks.sliding_window_view(padded, (3, 3), axis=(1, 2))  # N, H, W, C, kh, kw
    y = np.einsum("nhwcij,ijco->nhwo", windows, w.astype(np.float64)) + b
    want = np.maximum(y, 0).reshape(4, 5, 2, 5, 2, 8).max(axis=(2, 4))
    got = conv_kernels.conv2d(x, w, geo, bias=b, relu=True, pool=(2, 2))
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_tiled_max_pool_into_out_keeps_nan():
    view = pool_kernels.tiled_view(np.array([1, np.nan, 3, 2], np.float32).reshape(1, 2, 2, 1), (2, 2), (2, 2),
                                   "VALID")
    out = np.zeros((1, 1, 1, 1), np.float32)
    assert pool_kernels.tiled_max_pool(view, out) is out and np.isnan(out[0, 0, 0, 0])


def _forward(x, w, b):
    return tf.nn.max_pool2d(tf.nn.relu(tf.nn.conv2d(x, w, 1, "SAME") + b), 2, 2, "VALID")


def _forward_bias_add(x, w, b):
    return tf.nn.max_pool2d(tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, w, 1, "SAME"), b)), 2, 2, "VALID")


def _relu_also_returned(x, w, b):
    h = tf.nn.relu(tf.nn.conv2d(x, w, 1, "SAME") + b)
    return tf.nn.max_pool2d(h, 2, 2, "VALID"), h


def _conv_also_returned(x, w, b):
    y = tf.nn.conv2d(x, w, 1, "SAME")
    return tf.nn.relu(y + b), y


def _args(dtype=np.float32):
    return (tf.constant(RNG.normal(size=(3, 8, 6, 2)).astype(dtype)),
            tf.constant(RNG.normal(size=(3, 3, 2, 4)).astype(dtype)),
            tf.constant(RNG.normal(size=4).astype(dtype)))


@pytest.mark.parametrize("fn, fused_ops, kept", [
    (_forward, ["conv2d_epilogue"], []),
    (_forward_bias_add, ["conv2d_epilogue"], []),
    (_relu_also_returned, ["conv2d_epilogue_pooled"], []),  # the relu is read twice: kept whole, pooled too
    (_conv_also_returned, [], ["conv2d"]),  # the conv output is read twice: nothing fused (relu joins a block)
])
def test_pass_fuses_only_values_read_once_and_keeps_every_bit(fn, fused_ops, kept):
    args = _args()
    ops, fused = _run(fn, args, disable_all=False)
    assert [op for op in ops if op in ("conv2d_epilogue", "conv2d_epilogue_pooled", "conv2d", "max_pool2d", "relu")] \
        == fused_ops + kept
    _, without = _run(fn, args, disable_all=False, conv_epilogue=False)
    _, plain = _run(fn, args, disable_all=True)
    eager = fn(*args)
    for got in (fused, without, plain):
        for a, b in zip(tf.nest.flatten(got), tf.nest.flatten(eager)):
            np.testing.assert_array_equal(_bits(a.numpy()), _bits(b.numpy()))


def test_training_step_keeps_the_relu_output_and_matches_eager_and_finite_differences():
    x, w, b = _args(np.float64)

    def loss_and_grads(x, w, b):
        with tf.GradientTape() as tape:
            tape.watch([w, b])
            loss = tf.reduce_sum(_forward(x, w, b) ** 2)
        return (loss,) + tuple(tape.gradient(loss, [w, b]))

    ops, graph = _run(loss_and_grads, (x, w, b), disable_all=False)
    # the pool's gradient reads the relu output: kept whole, and pooled in the same kernel
    assert "conv2d_epilogue_pooled" in ops and "max_pool2d" not in ops
    _, plain = _run(loss_and_grads, (x, w, b), disable_all=True)
    for k, (a, c, e) in enumerate(zip(graph, plain, loss_and_grads(x, w, b))):
        np.testing.assert_array_equal(c.numpy(), e.numpy())
        if k == 2:  # the bias gradient: summed per chunk by the pool_filter_gradient pass (a first conv's), not
            # in one reduce_sum: a different order of additions
            np.testing.assert_allclose(a.numpy(), e.numpy(), rtol=1e-13, atol=1e-13)
        else:
            np.testing.assert_array_equal(a.numpy(), e.numpy())
    eps, wv = 1e-6, w.numpy()
    for index in [(0, 0, 0, 0), (1, 2, 1, 3), (2, 1, 0, 2)]:
        bumped = [wv.copy(), wv.copy()]
        bumped[0][index] += eps
        bumped[1][index] -= eps
        up, down = (float(tf.reduce_sum(_forward(x, tf.constant(v), b) ** 2)) for v in bumped)
        np.testing.assert_allclose(graph[1].numpy()[index], (up - down) / (2 * eps), rtol=1e-5, atol=1e-6)


def test_pool_that_does_not_tile_is_not_fused():
    def fn(x, w, b):
        return tf.nn.max_pool2d(tf.nn.relu(tf.nn.conv2d(x, w, 1, "SAME") + b), 3, 2, "SAME")

    args = _args()
    ops, fused = _run(fn, args, disable_all=False)
    assert "max_pool2d" in ops and "conv2d_epilogue" in ops
    np.testing.assert_array_equal(fused.numpy(), fn(*args).numpy())


@pytest.mark.parametrize("threads", [1, 2])
def test_max_pool_gradient_split_over_threads_is_bitwise_the_whole(monkeypatch, threads):
    """The pool gradient of a training step runs on the kernels' threads, a few images per task."""
    from tinytf.runtime.ops import nn_grad

    x = np.maximum(RNG.integers(-2, 3, (9, 8, 7, 3)).astype(np.float32), 0)  # ties and zeros in windows
    attrs = dict(ksize=(2, 2), strides=(2, 2), padding="VALID")
    y = conv._max_pool_kernel(x, **attrs)
    g = RNG.normal(size=y.shape).astype(np.float32)
    whole = nn_grad._max_pool_relu_grad_kernel(x, y, g, **attrs), nn_grad._max_pool_grad_kernel(x, y, g, **attrs)
    monkeypatch.setattr(pool_kernels, "PARALLEL_MIN_ELEMENTS", 0)
    chunked.set_num_threads(threads)
    try:
        split = nn_grad._max_pool_relu_grad_kernel(x, y, g, **attrs), nn_grad._max_pool_grad_kernel(x, y, g, **attrs)
        g[0, 0, 0, 0] = np.inf  # the select path
        inf_whole = nn_grad._max_pool_grad_kernel(x, y, g, **attrs)
    finally:
        chunked.set_num_threads(0)
    for a, b in zip(split, whole):
        np.testing.assert_array_equal(_bits(a), _bits(b))
    assert np.isinf(inf_whole[0, :2, :2, 0]).sum() <= 1 and np.isfinite(inf_whole[1:]).all()


def test_max_pool_split_over_threads_is_bitwise_the_whole(monkeypatch):
    x = RNG.normal(size=(9, 8, 7, 3)).astype(np.float32)
    x[2, 1, 1, 0] = np.nan  # propagates as in the whole-batch pass
    attrs = dict(ksize=(2, 2), strides=(2, 2), padding="VALID")
    whole = conv._max_pool_kernel(x, **attrs)
    monkeypatch.setattr(pool_kernels, "PARALLEL_MIN_ELEMENTS", 0)
    chunked.set_num_threads(2)
    try:
        split = conv._max_pool_kernel(x, **attrs)
    finally:
        chunked.set_num_threads(0)
    np.testing.assert_array_equal(_bits(split), _bits(whole))
    assert np.isnan(split[2, 0, 0, 0])


@pytest.mark.parametrize("x_shape, w_shape, strides, padding, pool", [case for case in CASES if case[4] is not None])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_kept_output_and_its_pool_are_bitwise_the_separate_ops_in_any_chunks(chunking, x_shape, w_shape, strides,
                                                                             padding, pool, dtype):
    """conv2d(..., pooled=): the full epilogue result in `out`, its pool in `pooled`, each task pooling its own
    rows: the same bits as the conv's epilogue and a separate max pool."""
    x = RNG.normal(size=x_shape).astype(dtype)
    w = RNG.normal(size=w_shape).astype(dtype)
    b = RNG.normal(size=w_shape[3]).astype(dtype)
    geo = conv.conv_geometry(x_shape[1:3], w_shape[:2], strides, (1, 1), padding)
    full = conv_kernels.conv2d(x, w, geo, bias=b, relu=True)  # in the same tasks as below when they are images
    want = conv._max_pool_kernel(full, ksize=pool, strides=pool, padding="VALID")
    pooled = np.full(want.shape, np.nan, dtype)
    out = np.full(full.shape, np.nan, dtype)
    assert conv_kernels.conv2d(x, w, geo, out, bias=b, relu=True, pool=pool, pooled=pooled) is out
    if conv_kernels.TASK_BYTES < 1 << 20:  # tasks of rows start at whole pool windows: other GEMM row counts
        tol = dict(rtol=1e-5, atol=1e-5) if dtype == np.float32 else dict(rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(out, full, **tol)
        np.testing.assert_array_equal(_bits(pooled), _bits(conv._max_pool_kernel(out, ksize=pool, strides=pool,
                                                                                 padding="VALID")))
        return
    np.testing.assert_array_equal(_bits(out), _bits(full))
    np.testing.assert_array_equal(_bits(pooled), _bits(want))


def test_kept_output_pool_in_the_frequency_domain_pools_the_whole_result(monkeypatch):
    monkeypatch.setenv("TINYTF_CONV_ALGO", "fft")
    x = RNG.normal(size=(2, 12, 12, 4)).astype(np.float32)
    w = RNG.normal(size=(5, 5, 4, 6)).astype(np.float32)
    geo = conv.conv_geometry((12, 12), (5, 5), (1, 1), (1, 1), "SAME")
    full = conv_kernels.conv2d(x, w, geo, relu=True)
    pooled = np.empty((2, 6, 6, 6), np.float32)
    got = conv_kernels.conv2d(x, w, geo, relu=True, pool=(2, 2), pooled=pooled)
    np.testing.assert_array_equal(_bits(got), _bits(full))
    np.testing.assert_array_equal(_bits(pooled), _bits(conv._max_pool_kernel(full, ksize=(2, 2), strides=(2, 2),
                                                                              padding="VALID")))


def test_training_step_on_a_frequency_domain_conv_keeps_its_separate_pool(monkeypatch):
    """conv_backprop_pair shares the input spectrum of a frequency-domain conv with its gradients: that conv's
    pool is left to the separate op."""
    monkeypatch.setenv("TINYTF_CONV_ALGO", "fft")
    x, w, b = _args(np.float64)

    def loss_and_grads(x, w, b):
        with tf.GradientTape() as tape:
            tape.watch([w, b])
            loss = tf.reduce_sum(_forward(x, w, b) ** 2)
        return (loss,) + tuple(tape.gradient(loss, [w, b]))

    ops, graph = _run(loss_and_grads, (x, w, b), disable_all=False)
    assert "conv2d_epilogue_pooled" not in ops and "max_pool2d" in ops
    _, plain = _run(loss_and_grads, (x, w, b), disable_all=True)
    for a, c in zip(graph, plain):
        np.testing.assert_allclose(a.numpy(), c.numpy(), rtol=1e-9, atol=1e-9)


def test_kept_output_pool_in_a_planned_training_step_is_bitwise_unplanned_and_unfused():
    """The kept full output goes into a planned buffer (the pooled one is allocated): a training step of
    float32 values gives the same bits with planning, without it, and without the pass."""
    x = tf.constant(RNG.normal(size=(4, 12, 12, 3)).astype(np.float32))
    w = tf.constant(RNG.normal(size=(3, 3, 3, 8)).astype(np.float32))
    b = tf.constant(RNG.normal(size=8).astype(np.float32))

    def loss_and_grads(x, w, b):
        with tf.GradientTape() as tape:
            tape.watch([w, b])
            loss = tf.reduce_sum(_forward(x, w, b) ** 2)
        return (loss,) + tuple(tape.gradient(loss, [w, b]))

    ops, planned = _run(loss_and_grads, (x, w, b), disable_all=False)
    assert "conv2d_epilogue_pooled" in ops
    _, unplanned = _run(loss_and_grads, (x, w, b), disable_all=False, buffer_planning=False)
    _, unfused = _run(loss_and_grads, (x, w, b), disable_all=False, conv_epilogue=False)
    for a, c, d in zip(planned, unplanned, unfused):
        np.testing.assert_array_equal(_bits(a.numpy()), _bits(c.numpy()))
        np.testing.assert_array_equal(_bits(a.numpy()), _bits(d.numpy()))
