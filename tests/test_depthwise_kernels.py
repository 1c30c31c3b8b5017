"""The depthwise kernels (runtime/ops/depthwise_kernels.py) against a float64 loop, in every code path: the
einsum kernels of stride 1 (depthwise_einsum.py), the direct kernels and the dense convolutions with
block-diagonal filters (depthwise_dense.py); width stride 1 (rows seen as OW * C values) and > 1, multiplier 1
(written straight into the output) and > 1, 1 to 5 channels, dilations, SAME/VALID/explicit padding, tasks of
one or several images or of rows of one image, on one or two threads; non-finite inputs give the direct
kernels' NaNs and infinities every way. The gradients are checked as the exact adjoints of the forward map in
float64 (for a linear map F, <g, F(x)> = <F^T(g), x> for every x and g, which is what a finite-difference
check approximates)."""

import itertools

import numpy as np
import pytest

from tinytf.runtime.ops import conv, conv_kernels, conv_variants, depthwise_dense, depthwise_einsum, depthwise_kernels

rng = np.random.default_rng(5)


def reference(x, f, strides, padding, dilations):
    """depthwise_conv2d by loops over output pixels, in float64."""
    kh, kw, channels, multiplier = f.shape
    geo = conv.conv_geometry(x.shape[1:3], (kh, kw), strides, dilations, padding)
    top, bottom, left, right = geo.pads
    out_h, out_w = geo.out_hw
    padded = np.zeros((x.shape[0], x.shape[1] + top + bottom + kh * dilations[0],
                       x.shape[2] + left + right + kw * dilations[1], channels))
    padded[:, top:top + x.shape[1], left:left + x.shape[2]] = x
    y = np.zeros((x.shape[0], out_h, out_w, channels, multiplier))
    for h, w, i, j in itertools.product(range(out_h), range(out_w), range(kh), range(kw)):
        y[:, h, w] += padded[:, h * strides[0] + i * dilations[0], w * strides[1] + j * dilations[1], :, None] * f[i, j]
    return y.reshape(x.shape[0], out_h, out_w, channels * multiplier)


CASES = [  # x shape, filter shape, strides, padding, dilations
    ((3, 7, 8, 3), (3, 3, 3, 2), (1, 1), "SAME", (1, 1)),
    ((4, 9, 6, 1), (2, 3, 1, 1), (2, 2), "SAME", (1, 1)),
    ((2, 9, 9, 4), (3, 2, 4, 3), (1, 2), "VALID", (1, 1)),
    ((2, 10, 11, 5), (3, 3, 5, 1), (1, 1), "SAME", (2, 2)),
    ((3, 8, 8, 2), (3, 3, 2, 2), (2, 1), ((1, 2), (0, 3)), (1, 1)),
    ((2, 9, 10, 3), (3, 3, 3, 2), (2, 2), "SAME", (2, 2)),  # Keras allows strides and dilations together
    ((2, 6, 7, 3), (1, 1, 3, 2), (3, 3), "VALID", (1, 1)),
]


@pytest.fixture(params=["einsum", "direct", "dense"])
def way(request, monkeypatch):
    """The einsum kernels (stride 1; other strides then take the direct ones), the direct kernels (no input counts
    as few channels) or the dense convolutions (all of these do)."""
    if request.param != "einsum":
        monkeypatch.setattr(depthwise_einsum, "applies", lambda geo, dtype: False)
    monkeypatch.setattr(depthwise_dense, "MAX_CHANNELS", 64 if request.param == "dense" else 0)
    return request.param


@pytest.fixture(params=["one task, one thread", "many tasks, two threads"])
def tasking(request, monkeypatch, way):
    if request.param != "one task, one thread":
        monkeypatch.setattr(depthwise_kernels, "TASK_BYTES", 1)  # one image per task
        monkeypatch.setattr(depthwise_einsum, "TASK_BYTES", 1)  # one row of one image per task
        monkeypatch.setattr(depthwise_kernels, "PARALLEL_MIN_ELEMENTS", 0)
        monkeypatch.setattr(conv_kernels, "TASK_BYTES", 1)  # the dense way's conv kernels: one row per task
        monkeypatch.setattr(conv_kernels, "PARALLEL_MIN_FLOPS", 0)
        monkeypatch.setattr(conv_kernels, "threads", lambda: 2)
    return request.param


def _kernels(x, f, strides, padding, dilations):
    attrs = {"strides": strides, "padding": padding, "dilations": dilations}
    forward = conv_variants._depthwise_kernel(x, f, **attrs)
    return forward, (lambda g: conv_variants._depthwise_input_kernel(g, f, shape=x.shape[1:], **attrs),
                     lambda g: conv_variants._depthwise_filter_kernel(x, g, filter_shape=f.shape, **attrs))


@pytest.mark.parametrize("x_shape, f_shape, strides, padding, dilations", CASES)
def test_kernels_match_the_loop_and_its_adjoints(x_shape, f_shape, strides, padding, dilations, tasking):
    x, f = rng.standard_normal(x_shape), rng.standard_normal(f_shape)
    y, (input_grad, filter_grad) = _kernels(x, f, strides, padding, dilations)
    expected = reference(x, f, strides, padding, dilations)
    np.testing.assert_allclose(y, expected, rtol=1e-12, atol=1e-12)
    g = rng.standard_normal(y.shape)
    dx, df = input_grad(g), filter_grad(g)
    assert dx.shape == x.shape and df.shape == f.shape
    for _ in range(3):  # random directions: <g, F(u, f)> = <dx, u> and <g, F(x, v)> = <df, v>
        u, v = rng.standard_normal(x_shape), rng.standard_normal(f_shape)
        np.testing.assert_allclose(np.sum(g * reference(u, f, strides, padding, dilations)), np.sum(dx * u),
                                   rtol=1e-10)
        np.testing.assert_allclose(np.sum(g * reference(x, v, strides, padding, dilations)), np.sum(df * v),
                                   rtol=1e-10)


def test_float32_results_are_float32_and_close_to_float64(tasking):
    x, f = rng.standard_normal((5, 12, 12, 6)), rng.standard_normal((3, 3, 6, 2))
    y32, (input_grad, filter_grad) = _kernels(x.astype(np.float32), f.astype(np.float32), (1, 1), "SAME", (1, 1))
    y64, (input_grad64, filter_grad64) = _kernels(x, f, (1, 1), "SAME", (1, 1))
    g = rng.standard_normal(y64.shape)
    for a, b in [(y32, y64), (input_grad(g.astype(np.float32)), input_grad64(g)),
                 (filter_grad(g.astype(np.float32)), filter_grad64(g))]:
        assert a.dtype == np.float32
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-4)


def test_the_filter_gradient_is_the_same_bits_on_any_thread_count(monkeypatch, way):
    """Which thread took which task, and how many threads there are, leave the float32 sums' order alone."""
    monkeypatch.setattr(conv_kernels, "TASK_BYTES", 1)
    monkeypatch.setattr(conv_kernels, "PARALLEL_MIN_FLOPS", 0)
    monkeypatch.setattr(depthwise_kernels, "TASK_BYTES", 1)
    monkeypatch.setattr(depthwise_einsum, "TASK_BYTES", 1)
    monkeypatch.setattr(depthwise_kernels, "PARALLEL_MIN_ELEMENTS", 0)
    x = rng.standard_normal((9, 6, 6, 4)).astype(np.float32)
    f = rng.standard_normal((3, 3, 4, 2)).astype(np.float32)
    g = rng.standard_normal((9, 6, 6, 8)).astype(np.float32)
    geo = conv.conv_geometry((6, 6), (3, 3), (1, 1), (1, 1), "SAME")
    monkeypatch.setattr(conv_kernels, "threads", lambda: 1)
    first = depthwise_kernels.filter_grad(x, g, f.shape, geo)
    for count in (2, 3, 1, 2):
        monkeypatch.setattr(conv_kernels, "threads", lambda count=count: count)
        for _ in range(3):
            np.testing.assert_array_equal(depthwise_kernels.filter_grad(x, g, f.shape, geo), first)


def test_empty_batch_and_steady_state_buffers():
    f = rng.standard_normal((3, 3, 2, 2)).astype(np.float32)
    geo = conv.conv_geometry((5, 5), (3, 3), (1, 1), (1, 1), "SAME")
    empty = np.zeros((0, 5, 5, 2), np.float32)
    assert depthwise_kernels.forward(empty, f, geo).shape == (0, 5, 5, 4)
    assert depthwise_kernels.input_grad(np.zeros((0, 5, 5, 4), np.float32), f, (0, 5, 5, 2), geo).shape == (0, 5, 5, 2)
    np.testing.assert_array_equal(depthwise_kernels.filter_grad(empty, np.zeros((0, 5, 5, 4), np.float32), f.shape,
                                                                geo), np.zeros(f.shape, np.float32))
    x = rng.standard_normal((2, 5, 5, 2)).astype(np.float32)
    first = depthwise_kernels.forward(x, f, geo)
    second = depthwise_kernels.forward(x, f, geo)  # the thread's reused buffers hold nothing stale
    assert first is not second
    np.testing.assert_array_equal(first, second)


@pytest.mark.parametrize("channels, strides, way", [(3, (1, 1), "einsum"), (40, (1, 1), "einsum"),
                                                    (3, (2, 1), "dense"), (16, (1, 2), "dense"), (17, (2, 2), None)])
def test_each_input_takes_its_way(monkeypatch, channels, strides, way):
    """Stride 1: the einsum kernels; other strides: the dense convolutions up to 16 channels, else the direct
    kernels."""
    calls = []
    for module in (depthwise_einsum, depthwise_dense):
        for name in ("forward", "input_grad", "filter_grad"):
            monkeypatch.setattr(module, name, lambda *a, name=name, real=getattr(module, name), module=module:
                                calls.append((module, name)) or real(*a))
    x, f = rng.standard_normal((2, 6, 6, channels)), rng.standard_normal((3, 3, channels, 2))
    y, (input_grad, filter_grad) = _kernels(x, f, strides, "SAME", (1, 1))
    input_grad(y), filter_grad(y)
    module = {"einsum": depthwise_einsum, "dense": depthwise_dense, None: None}[way]
    assert calls == ([] if module is None else [(module, "forward"), (module, "input_grad"), (module, "filter_grad")])
    np.testing.assert_allclose(y, reference(x, f, strides, "SAME", (1, 1)), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("shape, task_bytes", [((9, 7, 6, 3), 1), ((9, 7, 6, 3), 1 << 20), ((2, 40, 40, 5), 4096)])
def test_the_einsum_kernels_give_the_same_bits_on_any_thread_count(monkeypatch, shape, task_bytes):
    """Their tasks follow the shapes alone (a few images, or rows of one image), and each value is computed by
    the same einsum whichever thread takes its task."""
    monkeypatch.setattr(depthwise_einsum, "TASK_BYTES", task_bytes)
    monkeypatch.setattr(depthwise_kernels, "PARALLEL_MIN_ELEMENTS", 0)
    x = rng.standard_normal(shape).astype(np.float32)
    f = rng.standard_normal((3, 3, shape[3], 2)).astype(np.float32)
    geo = conv.conv_geometry(shape[1:3], (3, 3), (1, 1), (2, 1), "SAME")
    g = rng.standard_normal((shape[0], *geo.out_hw, shape[3] * 2)).astype(np.float32)

    def results():
        return (depthwise_kernels.forward(x, f, geo), depthwise_kernels.input_grad(g, f, shape, geo),
                depthwise_kernels.filter_grad(x, g, f.shape, geo))

    monkeypatch.setattr(conv_kernels, "threads", lambda: 1)
    first = results()
    np.testing.assert_allclose(first[0], reference(x.astype(np.float64), f.astype(np.float64), (1, 1), "SAME", (2, 1)),
                               rtol=1e-4, atol=1e-4)
    for count in (2, 3, 2):
        monkeypatch.setattr(conv_kernels, "threads", lambda count=count: count)
        for got, want in zip(results(), first):
            np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("bad", [np.inf, -np.inf, np.nan])
def test_non_finite_inputs_give_the_direct_kernels_answers(monkeypatch, bad):
    """The einsum and the dense ways give the direct kernels' NaNs and infinities, in the same places."""
    x, f = rng.standard_normal((2, 6, 6, 4)), rng.standard_normal((3, 3, 4, 2))
    x[1, 2, 3, 1] = bad
    g = rng.standard_normal((2, 6, 6, 8))
    g[0, 4, 1, 5] = bad
    real_applies = depthwise_einsum.applies
    monkeypatch.setattr(depthwise_einsum, "applies", lambda geo, dtype: False)
    monkeypatch.setattr(depthwise_dense, "MAX_CHANNELS", 0)
    y, (input_grad, filter_grad) = _kernels(x, f, (1, 1), "SAME", (1, 1))
    expected = [y, input_grad(g), filter_grad(g)]
    assert np.isnan(y).any() or np.isinf(y).any()
    for einsum in (True, False):
        monkeypatch.setattr(depthwise_einsum, "applies", real_applies if einsum else lambda geo, dtype: False)
        monkeypatch.setattr(depthwise_dense, "MAX_CHANNELS", 16)
        y, (input_grad, filter_grad) = _kernels(x, f, (1, 1), "SAME", (1, 1))
        for got, want in zip([y, input_grad(g), filter_grad(g)], expected):
            np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
            np.testing.assert_allclose(got[~np.isnan(got)], want[~np.isnan(want)], rtol=1e-10, atol=1e-10)
