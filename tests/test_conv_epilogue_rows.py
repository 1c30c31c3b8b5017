"""The conv epilogue's row-wise steps (runtime/ops/conv_kernels.py): the bias added to whole (W * C) rows against
the bias repeated W times gives np.add's bits for every block layout the kernels pass (a task's rows of a
larger output, pooled rows, width 1, float64); the frequency-domain conv's bias and relu, run on each task's
rows as they leave the batch-last layout, give the unfused steps' bits on 1, 2 and 3 threads; a graph with a
biased conv + relu (a Conv2D layer's forward) against eager and against no passes."""

import numpy as np
import pytest
from ways import traced_with

import tinytf as tf
from tinytf.runtime import chunked
from tinytf.runtime.ops import conv, conv_kernels

RNG = np.random.default_rng(29)


def _bits(a):
    a = np.asarray(a)
    return a.view(np.uint32 if a.dtype == np.float32 else np.uint64)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape, rows", [
    ((3, 6, 7, 5), slice(None)),
    ((3, 6, 7, 5), slice(1, 4)),  # a task's rows of a larger output: not contiguous across images
    ((2, 5, 1, 4), slice(None)),  # width 1: the plain add
    ((2, 5, 4, 1), slice(0, 3)),  # one channel
])
def test_bias_on_whole_rows_is_numpys_add(shape, rows, dtype):
    values = RNG.normal(size=shape).astype(dtype) * 100
    bias = RNG.normal(size=shape[3]).astype(dtype)
    want = values.copy()
    want[:, rows] = np.add(want[:, rows], bias)
    got = values.copy()
    block = got[:, rows]
    conv_kernels._add_bias(block, bias)
    np.testing.assert_array_equal(_bits(got), _bits(want))
    strided = values.copy()[:, :, ::2]  # (W, C) not contiguous: the plain add
    want_strided = np.add(strided, bias)
    conv_kernels._add_bias(strided, bias)
    np.testing.assert_array_equal(_bits(strided), _bits(want_strided))


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("with_bias, relu", [(True, True), (True, False), (False, True)])
def test_frequency_domain_epilogue_on_task_rows_gives_the_unfused_bits(monkeypatch, threads, with_bias, relu):
    """conv2d by frequency with bias and relu applied to each task's rows as they are copied out, against the
    frequency-domain conv alone followed by the separate numpy steps: the same bits."""
    monkeypatch.setenv("TINYTF_CONV_ALGO", "fft")
    monkeypatch.setattr(conv_kernels, "PARALLEL_MIN_FLOPS", 0)
    x = RNG.normal(size=(3, 10, 9, 4)).astype(np.float32)
    w = RNG.normal(size=(5, 5, 4, 6)).astype(np.float32)
    b = RNG.normal(size=6).astype(np.float32) if with_bias else None
    geo = conv.conv_geometry((10, 9), (5, 5), (1, 1), (1, 1), "SAME")
    try:
        chunked.set_num_threads(threads)
        fused = conv_kernels.conv2d(x, w, geo, bias=b, relu=relu)
        into = np.full(fused.shape, np.nan, np.float32)
        assert conv_kernels.conv2d(x, w, geo, into, bias=b, relu=relu) is into
        plain = conv_kernels.conv2d(x, w, geo)
    finally:
        chunked.set_num_threads(0)
    if b is not None:
        plain = np.add(plain, b)
    if relu:
        plain = np.maximum(plain, 0)
    np.testing.assert_array_equal(_bits(fused), _bits(plain))
    np.testing.assert_array_equal(_bits(into), _bits(plain))


@pytest.mark.parametrize("algo", ["direct", "fft"])
def test_biased_conv_relu_graph_matches_eager_and_no_passes(monkeypatch, algo):
    monkeypatch.setenv("TINYTF_CONV_ALGO", algo)
    x = tf.constant(RNG.normal(size=(4, 12, 11, 3)).astype(np.float32))
    w = tf.constant(RNG.normal(size=(5, 5, 3, 8)).astype(np.float32))
    b = tf.constant(RNG.normal(size=8).astype(np.float32))

    def fn(x, w, b):
        return tf.nn.relu(tf.nn.conv2d(x, w, strides=1, padding="SAME") + b)

    fused = traced_with(fn, (x, w, b), disable_all=False)
    assert fused.get_concrete_function(x, w, b).graph.op_types() == ["conv2d_epilogue"]
    plain = traced_with(fn, (x, w, b), disable_all=True)
    eager = fn(x, w, b).numpy()
    np.testing.assert_array_equal(_bits(fused(x, w, b).numpy()), _bits(eager))
    np.testing.assert_array_equal(_bits(plain(x, w, b).numpy()), _bits(eager))
