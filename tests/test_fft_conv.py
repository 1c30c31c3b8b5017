"""conv2d and its two gradients in the frequency domain (runtime/ops/fft_conv_kernels.py): against the loop
references of test_conv_chunks (float64 sums) at the direct kernels' tolerances, for every stride-1 geometry
(SAME, VALID, explicit and lopsided padding, dilations, windows larger than the input), float32 and float64;
the dispatch rule and its switch TINYTF_CONV_ALGO; eager against @tf.function, gradients against finite
differences; the fused epilogue; the same bits on 1, 2 or 3 threads."""

import numpy as np
import pytest
from test_conv import reference_conv2d
from test_conv_chunks import reference_grads

import tinytf as tf
from tinytf.runtime import chunked
from tinytf.runtime.ops import conv, conv_kernels, fft_conv_kernels, nn_grad
from tinytf.runtime.ops.conv import _conv2d_kernel

RNG = np.random.default_rng(11)

# input shape, filter shape, padding, dilations (stride 1: the frequency domain's reach)
CASES = [
    ((3, 9, 8, 3), (3, 3, 3, 4), "SAME", (1, 1)),
    ((3, 9, 8, 3), (5, 5, 3, 2), "VALID", (1, 1)),
    ((2, 10, 9, 2), (4, 3, 2, 3), "SAME", (1, 1)),  # even window: the extra pad bottom/right
    ((2, 11, 10, 2), (3, 3, 2, 3), "SAME", (2, 2)),
    ((2, 9, 10, 1), (3, 3, 1, 2), "VALID", (1, 2)),
    ((3, 5, 5, 4), (1, 1, 4, 6), "VALID", (1, 1)),
    ((1, 4, 5, 2), (5, 6, 2, 2), "SAME", (1, 1)),  # window larger than the input
    ((2, 6, 7, 2), (3, 3, 2, 2), ((1, 2), (0, 3)), (1, 1)),
    ((2, 6, 7, 2), (2, 2, 2, 2), ((3, 0), (0, 0)), (1, 1)),  # more padding than the window
    ((4, 14, 14, 8), (5, 5, 8, 6), "SAME", (1, 1)),  # the CNN's second conv, fewer channels
    ((2, 3, 3, 2), (3, 3, 2, 2), "SAME", (3, 3)),  # dilated window wider than the padded input
]
TOL = {np.float32: dict(rtol=1e-4, atol=1e-4), np.float64: dict(rtol=1e-10, atol=1e-10)}


@pytest.fixture
def algo(monkeypatch):
    """Set TINYTF_CONV_ALGO for the test."""
    def use(name):
        monkeypatch.setenv("TINYTF_CONV_ALGO", name)
    return use


@pytest.mark.parametrize("x_shape, w_shape, padding, dilations", CASES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_kernels_match_loop_references(algo, x_shape, w_shape, padding, dilations, dtype):
    algo("fft")
    x = RNG.normal(size=x_shape).astype(dtype)
    w = RNG.normal(size=w_shape).astype(dtype)
    attrs = dict(strides=(1, 1), padding=padding, dilations=dilations)
    geo = conv.conv_geometry(x_shape[1:3], w_shape[:2], (1, 1), dilations, padding)
    assert fft_conv_kernels.choose(dtype, x_shape, w_shape, geo)
    expected = reference_conv2d(x, w, (1, 1), padding, dilations)
    g = RNG.normal(size=expected.shape).astype(dtype)
    dx, dw = reference_grads(x, w, g, (1, 1), padding, dilations)
    out = _conv2d_kernel(x, w, **attrs)
    assert out.dtype == dtype and out.flags.c_contiguous
    np.testing.assert_allclose(out, expected, **TOL[dtype])
    filter_grad = nn_grad._conv_backprop_filter_kernel(x, g, filter_shape=w.shape, **attrs)
    assert filter_grad.dtype == dtype and filter_grad.shape == w.shape
    np.testing.assert_allclose(filter_grad, dw, **TOL[dtype])
    np.testing.assert_allclose(nn_grad._conv_backprop_input_kernel(g, w, shape=x.shape[1:], **attrs), dx,
                               **TOL[dtype])


def test_kernels_write_into_the_given_buffers(algo):
    """A planned buffer (`out=`) receives the result, as with the direct kernels; a wrong one is replaced."""
    algo("fft")
    x = RNG.normal(size=(2, 8, 8, 3)).astype(np.float32)
    w = RNG.normal(size=(5, 5, 3, 4)).astype(np.float32)
    attrs = dict(strides=(1, 1), padding="SAME", dilations=(1, 1))
    buffer = np.full((2, 8, 8, 4), np.nan, np.float32)
    result = _conv2d_kernel(x, w, out=buffer, **attrs)
    assert result is buffer
    np.testing.assert_allclose(buffer, reference_conv2d(x, w, (1, 1), "SAME", (1, 1)), **TOL[np.float32])
    g = RNG.normal(size=(2, 8, 8, 4)).astype(np.float32)
    grad_buffer = np.full(x.shape, np.nan, np.float32)
    assert nn_grad._conv_backprop_input_kernel(g, w, shape=x.shape[1:], out=grad_buffer, **attrs) is grad_buffer
    np.testing.assert_allclose(grad_buffer, reference_grads(x, w, g, (1, 1), "SAME", (1, 1))[0], **TOL[np.float32])
    wrong = np.empty((3, 3), np.float32)
    np.testing.assert_allclose(_conv2d_kernel(x, w, out=wrong, **attrs), result, rtol=0, atol=0)


def test_empty_and_integer_inputs_stay_on_the_direct_kernels(algo):
    algo("fft")
    geo = conv.conv_geometry((6, 6), (5, 5), (1, 1), (1, 1), "SAME")
    assert not fft_conv_kernels.choose(np.int32, (1, 6, 6, 2), (5, 5, 2, 3), geo)
    x = np.zeros((0, 6, 6, 2), np.float32)
    assert _conv2d_kernel(x, np.ones((5, 5, 2, 3), np.float32), strides=(1, 1), padding="SAME",
                          dilations=(1, 1)).shape == (0, 6, 6, 3)
    w = np.zeros((5, 5, 2, 0), np.float32)
    assert conv_kernels.conv2d_filter_grad(np.ones((1, 6, 6, 2), np.float32), np.ones((1, 6, 6, 0), np.float32),
                                           w.shape, geo).shape == w.shape


def test_the_rule_picks_the_frequency_domain_for_the_cnns_second_conv_only(algo):
    """auto: the CNN's 5x5x32->64 on 64x14x14 by frequency (0.5-0.65x the direct CPU time, measured), its
    first conv (one input channel: the transforms cost more than the 40M multiply-adds direct), 3x3 windows,
    small batches and strided convs direct, as measured (fft_conv_kernels' cost model); `direct` and `fft`
    force the choice; other values are an error."""
    same = conv.conv_geometry((14, 14), (5, 5), (1, 1), (1, 1), "SAME")
    algo("auto")
    assert fft_conv_kernels.choose(np.float32, (64, 14, 14, 32), (5, 5, 32, 64), same)
    first = conv.conv_geometry((28, 28), (5, 5), (1, 1), (1, 1), "SAME")
    assert not fft_conv_kernels.choose(np.float32, (64, 28, 28, 1), (5, 5, 1, 32), first)
    assert not fft_conv_kernels.choose(np.float32, (4, 14, 14, 32), (5, 5, 32, 64), same)  # the blocks dominate
    sevens = conv.conv_geometry((16, 16), (7, 7), (1, 1), (1, 1), "SAME")
    assert fft_conv_kernels.choose(np.float32, (32, 16, 16, 32), (7, 7, 32, 64), sevens)  # 0.4x, measured
    threes = conv.conv_geometry((8, 8), (3, 3), (1, 1), (1, 1), "SAME")
    assert not fft_conv_kernels.choose(np.float32, (32, 8, 8, 128), (3, 3, 128, 128), threes)  # 1.4x, measured
    small = conv.conv_geometry((32, 32), (3, 3), (1, 1), (1, 1), "SAME")
    assert not fft_conv_kernels.choose(np.float32, (32, 32, 32, 3), (3, 3, 3, 32), small)  # the conv workload
    strided = conv.conv_geometry((14, 14), (5, 5), (2, 2), (1, 1), "SAME")
    assert not fft_conv_kernels.choose(np.float32, (64, 14, 14, 32), (5, 5, 32, 64), strided)
    tiny = conv.conv_geometry((4, 4), (2, 2), (1, 1), (1, 1), "SAME")
    assert not fft_conv_kernels.choose(np.float64, (1, 4, 4, 1), (2, 2, 1, 1), tiny)  # small: direct, exact sums
    algo("direct")
    assert not fft_conv_kernels.choose(np.float32, (64, 14, 14, 32), (5, 5, 32, 64), same)
    algo("fft")
    assert fft_conv_kernels.choose(np.float32, (1, 4, 4, 1), (3, 3, 1, 1), small)
    assert not fft_conv_kernels.choose(np.float32, (64, 14, 14, 32), (5, 5, 32, 64), strided)
    algo("winograd")
    with pytest.raises(ValueError, match="TINYTF_CONV_ALGO"):
        fft_conv_kernels.choose(np.float32, (64, 14, 14, 32), (5, 5, 32, 64), same)


def _cnn_step(x, w1, w2):
    with tf.GradientTape() as tape:
        tape.watch([x, w1, w2])
        h = tf.nn.relu(tf.nn.conv2d(x, w1, 1, "SAME"))
        h = tf.nn.max_pool2d(h, 2, 2, "VALID")
        loss = tf.reduce_sum(tf.tanh(tf.nn.conv2d(h, w2, 1, "SAME", dilations=(1, 2))))
    return loss, tape.gradient(loss, [x, w1, w2])


def test_frequency_domain_matches_direct_eager_and_in_graphs(algo):
    """A two-conv network's loss and gradients by each algorithm, eagerly and as a tf.function (whose passes
    fuse the bias/relu/pool epilogue into the conv): all agree."""
    x = tf.constant(RNG.normal(size=(3, 12, 12, 2)).astype(np.float32))
    w1 = tf.constant(RNG.normal(size=(5, 5, 2, 4)).astype(np.float32) * 0.3)
    w2 = tf.constant(RNG.normal(size=(3, 5, 4, 3)).astype(np.float32) * 0.3)
    results = {}
    for name in ("direct", "fft"):
        algo(name)
        results[name, "eager"] = _cnn_step(x, w1, w2)
        results[name, "graph"] = tf.function(_cnn_step)(x, w1, w2)
    reference = results["direct", "eager"]
    for key, (loss, grads) in results.items():
        np.testing.assert_allclose(loss.numpy(), reference[0].numpy(), rtol=1e-4, err_msg=str(key))
        for a, b in zip(grads, reference[1]):
            np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-4, atol=1e-4, err_msg=str(key))


def test_fused_epilogue_gives_the_unfused_bits(algo):
    """conv + bias + relu + 2x2 max pool fused (conv_kernels.conv2d's epilogue) and as separate numpy steps
    after the frequency-domain conv: the same bits."""
    algo("fft")
    x = RNG.normal(size=(2, 10, 10, 3)).astype(np.float32)
    w = RNG.normal(size=(5, 5, 3, 4)).astype(np.float32)
    bias = RNG.normal(size=4).astype(np.float32)
    geo = conv.conv_geometry((10, 10), (5, 5), (1, 1), (1, 1), "SAME")
    fused = conv_kernels.conv2d(x, w, geo, bias=bias, relu=True, pool=(2, 2))
    plain = np.maximum(conv_kernels.conv2d(x, w, geo) + bias, 0)
    np.testing.assert_array_equal(fused, plain.reshape(2, 5, 2, 5, 2, 4).max(axis=(2, 4)))


def _numeric_grad(loss, value, points, eps=1e-6):
    out = []
    for idx in points:
        plus, minus = value.copy(), value.copy()
        plus[idx] += eps
        minus[idx] -= eps
        out.append((loss(plus) - loss(minus)) / (2 * eps))
    return np.array(out)


@pytest.mark.parametrize("x_shape, w_shape, padding, dilations", [CASES[2], CASES[3], CASES[7]])
def test_gradients_match_finite_differences(algo, x_shape, w_shape, padding, dilations):
    algo("fft")
    x, w = RNG.standard_normal(x_shape), RNG.standard_normal(w_shape)
    out_shape = reference_conv2d(x, w, (1, 1), padding, dilations).shape
    weights = RNG.standard_normal(out_shape)

    tf_padding = padding if isinstance(padding, str) else [[0, 0], *padding, [0, 0]]

    def loss(a, b):
        return tf.reduce_sum(tf.tanh(tf.nn.conv2d(a, b, 1, tf_padding, dilations=dilations)) * weights)

    @tf.function
    def grads(a, b):
        with tf.GradientTape() as tape:
            tape.watch([a, b])
            value = loss(a, b)
        return tape.gradient(value, [a, b])

    gx, gw = [g.numpy() for g in grads(tf.constant(x), tf.constant(w))]
    points_x = [tuple(RNG.integers(0, s) for s in x_shape) for _ in range(5)]
    points_w = [tuple(RNG.integers(0, s) for s in w_shape) for _ in range(5)]
    fx = _numeric_grad(lambda v: float(loss(tf.constant(v), tf.constant(w))), x, points_x)
    fw = _numeric_grad(lambda v: float(loss(tf.constant(x), tf.constant(v))), w, points_w)
    np.testing.assert_allclose([gx[p] for p in points_x], fx, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose([gw[p] for p in points_w], fw, rtol=1e-5, atol=1e-7)


def test_the_same_bits_on_any_thread_count(algo, monkeypatch):
    """Every GEMM's slices are fixed by the shapes and the batch sum of the filter gradient is inside one GEMM
    per frequency: 1, 2 or 3 threads give the same bits, call after call."""
    algo("fft")
    monkeypatch.setattr(conv_kernels, "PARALLEL_MIN_FLOPS", 0)
    x = RNG.normal(size=(8, 14, 14, 6)).astype(np.float32)
    w = RNG.normal(size=(5, 5, 6, 8)).astype(np.float32)
    geo = conv.conv_geometry((14, 14), (5, 5), (1, 1), (1, 1), "SAME")
    g = RNG.normal(size=(8, 14, 14, 8)).astype(np.float32)

    def all_three():
        return (conv_kernels.conv2d(x, w, geo), conv_kernels.conv2d_input_grad(g, w, x.shape, geo),
                conv_kernels.conv2d_filter_grad(x, g, w.shape, geo))

    try:
        chunked.set_num_threads(1)
        first = all_three()
        for count in (2, 3, 1, 2):
            chunked.set_num_threads(count)
            for a, b in zip(all_three(), first):
                np.testing.assert_array_equal(a, b)
    finally:
        chunked.set_num_threads(0)


def test_cnn_train_step_runs_by_frequency_and_is_the_same_bits_on_any_thread_count(algo):
    """The benchmark's CNN train step with its second conv by frequency (batch 8, forced): it trains, and 1 or
    2 threads give the same losses."""
    from benchmarks import workloads

    algo("fft")
    losses = {}
    try:
        for count in (1, 2):
            chunked.set_num_threads(count)
            w = workloads.cnn_train_step(batch=8)
            step = tf.function(w.fn)
            losses[count] = [step(*w.args).numpy() for _ in range(3)]
    finally:
        chunked.set_num_threads(0)
    assert losses[1][2] < losses[1][0]
    np.testing.assert_array_equal(losses[2], losses[1])
