"""conv2d's input gradient by window rows (conv_kernels._input_grad_by_rows: width stride 1, more than
FEW_CHANNELS input channels), against float64 loops and against the per-offset way it replaces there, on
several geometries, in chunks of any size and on 1 or 2 threads; the cases it must leave to the offset way."""

import numpy as np
import pytest
from test_conv_chunks import TASKING_IDS, TASKINGS, count_calls, reference_grads, with_tasking

from tinytf.runtime import chunked
from tinytf.runtime.ops import conv, conv_kernels, nn_grad

RNG = np.random.default_rng(11)

# input shape, filter shape, strides, padding, dilations: all with width stride 1 and 5+ input channels
ROWS = [
    ((3, 14, 14, 6), (5, 5, 6, 8), (1, 1), "SAME", (1, 1)),  # the CNN's second conv, smaller
    ((2, 9, 8, 5), (3, 3, 5, 4), (1, 1), "VALID", (1, 1)),
    ((2, 10, 9, 5), (4, 2, 5, 3), (1, 1), "SAME", (1, 1)),  # even window: the extra pad at the bottom/right
    ((2, 11, 10, 5), (3, 3, 5, 3), (1, 1), "SAME", (2, 2)),  # dilated rows and columns
    ((2, 9, 8, 6), (3, 3, 6, 4), (2, 1), "SAME", (1, 2)),  # strided rows: each product added every 2nd row
    ((2, 9, 8, 5), (3, 1, 5, 4), (3, 1), "VALID", (1, 1)),  # one column: no shifted gradients
    ((1, 4, 5, 5), (5, 6, 5, 2), (1, 1), "SAME", (1, 1)),  # window larger than the input
    ((2, 6, 7, 5), (3, 3, 5, 2), (1, 1), ((1, 2), (0, 2)), (1, 1)),  # explicit padding, right = reach
    ((2, 6, 7, 5), (2, 2, 5, 2), (1, 1), ((3, 0), (3, 1)), (1, 1)),  # top and left wider than the window
]
OFFSETS = [  # the per-offset way: width strides, padding past the window on the right, few channels
    ((2, 9, 9, 5), (3, 2, 5, 3), (2, 3), "SAME", (1, 1)),
    ((2, 6, 7, 5), (2, 2, 5, 2), (1, 1), ((0, 0), (0, 3)), (1, 1)),
    ((2, 9, 8, 4), (3, 3, 4, 4), (1, 1), "SAME", (1, 1)),
]


def _geometry(x_shape, w_shape, strides, padding, dilations):
    return conv.conv_geometry(x_shape[1:3], w_shape[:2], strides, dilations, padding)


@pytest.fixture(params=TASKINGS, ids=TASKING_IDS)
def tasking(request, monkeypatch):
    yield from with_tasking(request.param, monkeypatch, conv_kernels, "ROWS_TASK_BYTES")


def _spied(monkeypatch):
    return count_calls(monkeypatch, conv_kernels, "_input_grad_by_rows")


@pytest.mark.parametrize("x_shape, w_shape, strides, padding, dilations", ROWS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_by_rows_matches_loops_and_the_offset_way(tasking, monkeypatch, x_shape, w_shape, strides, padding, dilations,
                                                  dtype):
    x = RNG.normal(size=x_shape).astype(dtype)
    w = RNG.normal(size=w_shape).astype(dtype)
    attrs = dict(strides=strides, padding=padding, dilations=dilations)
    geo = _geometry(x_shape, w_shape, strides, padding, dilations)
    g = RNG.normal(size=(x_shape[0], *geo.out_hw, w_shape[3])).astype(dtype)
    dx = reference_grads(x, w, g, strides, padding, dilations)[0]
    offsets = conv_kernels._input_grad_by_offsets(g, w, x_shape, geo, np.empty(x_shape, dtype))
    calls = _spied(monkeypatch)
    got = nn_grad._conv_backprop_input_kernel(g, w, shape=x_shape[1:], **attrs)
    assert calls and got.dtype == dtype and got.shape == x_shape
    tol = dict(rtol=1e-4, atol=1e-4) if dtype == np.float32 else dict(rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(got, dx, **tol)
    np.testing.assert_allclose(got, offsets, **tol)


@pytest.mark.parametrize("x_shape, w_shape, strides, padding, dilations", OFFSETS)
def test_other_geometries_keep_the_offset_way(monkeypatch, x_shape, w_shape, strides, padding, dilations):
    x = RNG.normal(size=x_shape)
    w = RNG.normal(size=w_shape)
    geo = _geometry(x_shape, w_shape, strides, padding, dilations)
    g = RNG.normal(size=(x_shape[0], *geo.out_hw, w_shape[3]))
    calls = _spied(monkeypatch)
    got = nn_grad._conv_backprop_input_kernel(g, w, shape=x_shape[1:], strides=strides, padding=padding,
                                              dilations=dilations)
    assert not calls
    np.testing.assert_allclose(got, reference_grads(x, w, g, strides, padding, dilations)[0], rtol=1e-10, atol=1e-10)


def test_same_bits_on_any_thread_count_and_into_a_given_buffer():
    x_shape, w_shape = (6, 14, 14, 8), (5, 5, 8, 16)
    w = RNG.normal(size=w_shape).astype(np.float32)
    g = RNG.normal(size=(6, 14, 14, 16)).astype(np.float32)
    geo = _geometry(x_shape, w_shape, (1, 1), "SAME", (1, 1))
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
