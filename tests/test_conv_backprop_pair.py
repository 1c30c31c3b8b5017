"""A conv's input and filter gradients as one op, sharing x's spectrum with the forward conv (the
conv_backprop_pair pass, runtime/ops/conv_backprop_pair.py): paired only where the frequency domain runs; the
paired kernel gives the separate kernels' bits (fft and direct), with or without the forward's spectrum, on 1,
2 or 3 threads; a train step gives the same bits with the pass on and off, eager and with passes off agree
within the kernels' tolerance, and the pair's input gradient and the spectrum are planned buffers."""

import contextlib

import numpy as np
import pytest
from test_conv_chunks import reference_grads

import tinytf as tf
from tinytf.runtime import chunked
from tinytf.runtime.ops import conv, conv_kernels, fft_conv_kernels

RNG = np.random.default_rng(5)
ON = {"disable_all": False, "conv_backprop_pair": True, "conv_epilogue": True, "pruning": True,
      "buffer_planning": True}


@contextlib.contextmanager
def _options(**options):
    saved = tf.config.optimizer.get_experimental_options()
    tf.config.optimizer.set_experimental_options(options)
    try:
        yield
    finally:
        tf.config.optimizer.set_experimental_options({key: saved.get(key, key != "disable_all") for key in options})


def _data(x_shape, w_shape, padding="SAME", dilations=(1, 1), dtype=np.float32):
    x = RNG.standard_normal(x_shape).astype(dtype)
    w = (RNG.standard_normal(w_shape) * 0.3).astype(dtype)
    geo = conv.conv_geometry(x_shape[1:3], w_shape[:2], (1, 1), dilations, padding)
    g = RNG.standard_normal((x_shape[0],) + tuple(geo.out_hw) + (w_shape[3],)).astype(dtype)
    return x, g, w, geo


def _separate(x, g, w, geo):
    return (conv_kernels.conv2d_input_grad(g, w, x.shape, geo), conv_kernels.conv2d_filter_grad(x, g, w.shape, geo))


@pytest.mark.parametrize("shared", [False, True])
@pytest.mark.parametrize("algo", ["fft", "direct"])
@pytest.mark.parametrize("case", [((3, 9, 8, 3), (3, 3, 3, 4), "SAME", (1, 1)),
                                  ((2, 10, 9, 2), (4, 3, 2, 3), "VALID", (1, 1)),
                                  ((2, 11, 10, 2), (3, 3, 2, 3), "SAME", (2, 2))])
def test_paired_kernel_gives_the_separate_kernels_bits(case, algo, shared, monkeypatch):
    monkeypatch.setenv("TINYTF_CONV_ALGO", algo)
    x, g, w, geo = _data(*case)
    spectrum = conv_kernels.input_spectrum(x, w.shape, geo) if shared else None
    assert not shared or (algo == "fft") == bool(spectrum.any())  # zeros when the conv goes direct
    y = conv_kernels.conv2d(x, w, geo, relu=True, x_spectrum=spectrum)
    np.testing.assert_array_equal(y, conv_kernels.conv2d(x, w, geo, relu=True))
    dx, dw = conv_kernels.conv2d_backprop(x, g, w, geo, x_spectrum=spectrum)
    want_dx, want_dw = _separate(x, g, w, geo)
    np.testing.assert_array_equal(dx, want_dx)
    np.testing.assert_array_equal(dw, want_dw)
    ref_dx, ref_dw = reference_grads(x, w, g, (1, 1), case[2], case[3])
    np.testing.assert_allclose(dx, ref_dx, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(dw, ref_dw, rtol=1e-4, atol=1e-4)


def test_paired_kernel_writes_into_the_given_buffer_float64(monkeypatch):
    monkeypatch.setenv("TINYTF_CONV_ALGO", "fft")
    x, g, w, geo = _data((2, 7, 6, 3), (3, 3, 3, 2), dtype=np.float64)
    out = np.empty(x.shape)
    dx, dw = conv_kernels.conv2d_backprop(x, g, w, geo, out)
    assert dx is out and dw.dtype == np.float64
    ref_dx, ref_dw = reference_grads(x, w, g, (1, 1), "SAME", (1, 1))
    np.testing.assert_allclose(dx, ref_dx, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(dw, ref_dw, rtol=1e-10, atol=1e-10)


def test_paired_kernel_gives_the_same_bits_on_1_2_3_threads(monkeypatch):
    monkeypatch.setenv("TINYTF_CONV_ALGO", "fft")
    monkeypatch.setattr(conv_kernels, "PARALLEL_MIN_FLOPS", 0)
    x, g, w, geo = _data((8, 14, 14, 8), (5, 5, 8, 6))
    results = []
    try:
        for count in (1, 2, 3):
            chunked.set_num_threads(count)
            results.append(conv_kernels.conv2d_backprop(x, g, w, geo))
    finally:
        chunked.set_num_threads(0)
    for dx, dw in results[1:]:
        np.testing.assert_array_equal(dx, results[0][0])
        np.testing.assert_array_equal(dw, results[0][1])


def _train_step(x, w1, w2):
    """Two convs (the first's gradients need only the filter's: no pair) and a loss."""
    v1, v2 = tf.Variable(w1), tf.Variable(w2)

    def step(x):
        with tf.GradientTape() as tape:
            h = tf.nn.relu(tf.nn.conv2d(x, v1, 1, "SAME"))
            h = tf.nn.conv2d(h, v2, 1, "SAME")
            loss = tf.reduce_sum(tf.square(h))
        return (loss,) + tuple(tape.gradient(loss, [v1, v2]))

    return step


def _run(step, x, **options):
    with _options(**options):
        fn = tf.function(step)
        graph = fn.get_concrete_function(x).graph
        return graph.op_types(), fn.get_concrete_function(x).code, [np.asarray(t) for t in fn(x)]


def test_train_step_pairs_the_gradients_of_a_frequency_domain_conv(monkeypatch):
    monkeypatch.setenv("TINYTF_CONV_ALGO", "fft")
    x = RNG.standard_normal((8, 16, 16, 3)).astype(np.float32)  # 32 kB gradients: planned
    w1, w2 = (RNG.standard_normal((3, 3, 3, 4)) * 0.3).astype(np.float32), \
        (RNG.standard_normal((5, 5, 4, 5)) * 0.3).astype(np.float32)
    ops, code, paired = _run(_train_step(x, w1, w2), tf.constant(x), **ON)
    assert "conv2d_backprop_input_filter" in ops and "conv2d_backprop_input" not in ops
    assert "conv2d_input_spectrum" in ops and "conv2d_epilogue_spectral" in ops  # x's spectrum shared
    for kernel in ("conv2d_backprop_input_filter_kernel(", "conv2d_input_spectrum_kernel(",
                   "conv2d_epilogue_spectral_kernel("):  # written into planned buffers
        assert kernel in code and "out=_buf" in code.split(kernel)[1].split("\n")[0]
    _, _, plain_forward = _run(_train_step(x, w1, w2), tf.constant(x), **{**ON, "conv_epilogue": False})
    ops, _, separate = _run(_train_step(x, w1, w2), tf.constant(x), **{**ON, "conv_backprop_pair": False})
    assert "conv2d_backprop_input_filter" not in ops
    for a, b, c in zip(paired, separate, plain_forward):
        np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(a, c)
    _, _, unoptimized = _run(_train_step(x, w1, w2), tf.constant(x), disable_all=True)
    eager = [np.asarray(t) for t in _train_step(x, w1, w2)(tf.constant(x))]
    for a, b, c in zip(paired, unoptimized, eager):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-4)
        np.testing.assert_array_equal(b, c)


def test_direct_convs_are_not_paired(monkeypatch):
    monkeypatch.setenv("TINYTF_CONV_ALGO", "direct")
    x = RNG.standard_normal((2, 8, 8, 3)).astype(np.float32)
    w1, w2 = (RNG.standard_normal((3, 3, 3, 4)) * 0.3).astype(np.float32), \
        (RNG.standard_normal((5, 5, 4, 5)) * 0.3).astype(np.float32)
    ops, _, _ = _run(_train_step(x, w1, w2), tf.constant(x), **ON)
    assert "conv2d_backprop_input_filter" not in ops and "conv2d_backprop_input" in ops


def test_a_pair_traced_for_the_frequency_domain_obeys_a_later_switch(monkeypatch):
    """The pass decides at trace time; the kernel asks again when it runs."""
    monkeypatch.setenv("TINYTF_CONV_ALGO", "fft")
    x = RNG.standard_normal((2, 8, 8, 3)).astype(np.float32)
    w1, w2 = (RNG.standard_normal((3, 3, 3, 4)) * 0.3).astype(np.float32), \
        (RNG.standard_normal((5, 5, 4, 5)) * 0.3).astype(np.float32)
    step = _train_step(x, w1, w2)
    with _options(**ON):
        fn = tf.function(step)
        assert "conv2d_backprop_input_filter" in fn.get_concrete_function(tf.constant(x)).graph.op_types()
        calls = []
        original = fft_conv_kernels.conv2d_backprop
        monkeypatch.setattr(fft_conv_kernels, "conv2d_backprop", lambda *a: calls.append(a[-1]) or original(*a))
        fft_result = [np.asarray(t) for t in fn(tf.constant(x))]
        monkeypatch.setenv("TINYTF_CONV_ALGO", "direct")
        direct_result = [np.asarray(t) for t in fn(tf.constant(x))]
    assert len(calls) == 1 and calls[0] is not None  # the forward's spectrum reached the pair
    for a, b in zip(fft_result, direct_result):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-4)


def test_the_pair_op_checks_its_output_gradient():
    from tinytf.runtime.dispatch import apply
    from tinytf.runtime.ops.conv_backprop_pair import conv2d_backprop_input_filter_op

    x = tf.constant(np.ones((1, 5, 5, 2), np.float32))
    w = tf.constant(np.ones((3, 3, 2, 2), np.float32))
    with pytest.raises((ValueError, tf.errors.InvalidArgumentError), match="output gradient"):
        apply(conv2d_backprop_input_filter_op, [x, tf.constant(np.ones((1, 4, 4, 2), np.float32)), w],
              {"strides": (1, 1), "padding": "SAME", "dilations": (1, 1)})
