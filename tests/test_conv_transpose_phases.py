"""conv2d's input gradient for strides of 2 and more by phases (runtime/ops/conv_variants_subpixel.py: every
window offset of a phase row in one GEMM, written in place as whole rows), which tf.nn.conv2d_transpose's
forward runs on: against float64 loops on many geometries (odd and even windows, windows smaller than, equal
to and larger than the stride, SAME, VALID and explicit padding, blocks that do and do not tile the input),
float32 and float64, in tasks of one image or many on 1 or 2 threads with the same bits, into a given buffer;
the dispatch (stride 1 and dilations keep their ways); and conv2d_transpose end to end, eager and traced, with
its gradients."""

import numpy as np
import pytest
from test_conv_chunks import TASKING_IDS, TASKINGS, count_calls, reference_grads, with_tasking
from ways import traced_with

import tinytf as tf
from tinytf.runtime import chunked
from tinytf.runtime.ops import conv, conv_kernels, conv_variants_subpixel, nn_grad

RNG = np.random.default_rng(21)

# input shape, filter shape, strides, padding
GEOMETRIES = [
    ((3, 12, 12, 6), (3, 3, 6, 8), (2, 2), "SAME"),  # conv_transpose's workload, smaller: pads (0, 1)
    ((2, 9, 11, 5), (3, 3, 5, 4), (2, 2), "SAME"),  # odd sizes: pads (1, 1), blocks past the input
    ((2, 8, 8, 3), (2, 2, 3, 4), (2, 2), "VALID"),  # window = stride: one tap per phase, no zeros
    ((2, 8, 10, 4), (4, 4, 4, 3), (2, 2), "SAME"),  # even window larger than the stride
    ((2, 10, 10, 3), (1, 1, 3, 2), (2, 2), "VALID"),  # window smaller than the stride: phases with no tap
    ((2, 13, 7, 2), (4, 3, 2, 5), (3, 2), "SAME"),  # different strides and windows per axis
    ((2, 9, 8, 3), (3, 3, 3, 2), (2, 1), "SAME"),  # stride 2 in height only
    ((2, 7, 9, 3), (3, 2, 3, 2), (1, 3), "VALID"),  # stride 3 in width only
    ((1, 5, 5, 2), (7, 7, 2, 3), (2, 2), "SAME"),  # window larger than the input
    ((2, 9, 9, 3), (3, 3, 3, 4), (2, 2), ((2, 1), (0, 3))),  # explicit padding, wider than the window
    ((2, 11, 11, 4), (5, 5, 4, 3), (4, 4), "VALID"),
]


def _geometry(x_shape, w_shape, strides, padding):
    return conv.conv_geometry(x_shape[1:3], w_shape[:2], strides, (1, 1), padding)


@pytest.fixture(params=TASKINGS, ids=TASKING_IDS)
def tasking(request, monkeypatch):
    yield from with_tasking(request.param, monkeypatch, conv_variants_subpixel, "TASK_BYTES")


def _spied(monkeypatch):
    return count_calls(monkeypatch, conv_variants_subpixel, "input_grad")


@pytest.mark.parametrize("x_shape, w_shape, strides, padding", GEOMETRIES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_by_phases_matches_loops(tasking, monkeypatch, x_shape, w_shape, strides, padding, dtype):
    w = RNG.normal(size=w_shape).astype(dtype)
    geo = _geometry(x_shape, w_shape, strides, padding)
    g = RNG.normal(size=(x_shape[0], *geo.out_hw, w_shape[3])).astype(dtype)
    dx = reference_grads(np.zeros(x_shape, dtype), w, g, strides, padding, (1, 1))[0]
    calls = _spied(monkeypatch)
    got = nn_grad._conv_backprop_input_kernel(g, w, shape=x_shape[1:], strides=strides, padding=padding,
                                              dilations=(1, 1))
    assert calls and got.dtype == dtype and got.shape == x_shape
    tol = dict(rtol=1e-4, atol=1e-4) if dtype == np.float32 else dict(rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(got, dx, **tol)


@pytest.mark.parametrize("strides, dilations", [((1, 1), (1, 1)), ((2, 2), (2, 2)), ((1, 1), (2, 1))])
def test_stride_one_and_dilations_keep_their_ways(monkeypatch, strides, dilations):
    x_shape, w_shape = (2, 9, 9, 3), (3, 3, 3, 4)
    w = RNG.normal(size=w_shape)
    geo = conv.conv_geometry(x_shape[1:3], w_shape[:2], strides, dilations, "SAME")
    g = RNG.normal(size=(2, *geo.out_hw, 4))
    calls = _spied(monkeypatch)
    got = nn_grad._conv_backprop_input_kernel(g, w, shape=x_shape[1:], strides=strides, padding="SAME",
                                              dilations=dilations)
    assert not calls
    np.testing.assert_allclose(got, reference_grads(np.zeros(x_shape), w, g, strides, "SAME", dilations)[0],
                               rtol=1e-10, atol=1e-10)


def test_same_bits_on_any_thread_count_and_into_a_given_buffer(monkeypatch):
    x_shape, w_shape = (8, 16, 16, 8), (3, 3, 8, 16)
    w = RNG.normal(size=w_shape).astype(np.float32)
    g = RNG.normal(size=(8, 8, 8, 16)).astype(np.float32)
    geo = _geometry(x_shape, w_shape, (2, 2), "SAME")
    monkeypatch.setattr(conv_kernels, "PARALLEL_MIN_FLOPS", 0)
    monkeypatch.setattr(conv_variants_subpixel, "TASK_BYTES", 4096)  # several tasks
    try:
        chunked.set_num_threads(1)
        first = conv_kernels.conv2d_input_grad(g, w, x_shape, geo)
        for count in (2, 3):
            chunked.set_num_threads(count)
            out = np.full(x_shape, np.nan, np.float32)
            assert conv_kernels.conv2d_input_grad(g, w, x_shape, geo, out=out) is out
            np.testing.assert_array_equal(out, first)
    finally:
        chunked.set_num_threads(0)


def _transpose_step(x, f):
    with tf.GradientTape() as tape:
        tape.watch([x, f])
        y = tf.nn.conv2d_transpose(x, f, [3, 12, 12, 4], 2, "SAME")
        loss = tf.reduce_sum(y * y) * 0.5
    return y, tape.gradient(loss, [x, f])


@pytest.mark.parametrize("way", ["eager", "graph", "no_passes"])
def test_conv2d_transpose_end_to_end(way):
    x = RNG.normal(size=(3, 6, 6, 5)).astype(np.float32)
    f = RNG.normal(size=(3, 3, 4, 5)).astype(np.float32)
    args = (tf.constant(x), tf.constant(f))
    run = _transpose_step if way == "eager" else traced_with(_transpose_step, args, disable_all=way == "no_passes")
    y, (dx, df) = run(*args)
    # the transposed convolution is conv2d's input gradient: conv2d's loops give y, and its gradients of y
    geo = _geometry((3, 12, 12, 4), f.shape, (2, 2), "SAME")
    assert geo.out_hw == (6, 6)
    expected_y = reference_grads(np.zeros((3, 12, 12, 4)), f, x, (2, 2), "SAME", (1, 1))[0]
    np.testing.assert_allclose(y.numpy(), expected_y, rtol=1e-4, atol=1e-4)
    _, expected_df = reference_grads(expected_y, f, x, (2, 2), "SAME", (1, 1))  # d/df <y, y>/2 = sum y * dy/df
    np.testing.assert_allclose(df.numpy(), expected_df, rtol=1e-4, atol=1e-3)
    conv_y = tf.nn.conv2d(tf.constant(expected_y.astype(np.float32)), tf.constant(f), 2, "SAME")
    np.testing.assert_allclose(dx.numpy(), conv_y.numpy(), rtol=1e-4, atol=1e-4)
