"""TF's quantized dtypes and tf.quantization.quantize / dequantize / quantized_concat: TF's reference-kernel
numbers where TF's oneDNN build differs (recorded with TF_ENABLE_ONEDNN_OPTS=0; the conformance module
toplevel2_quantized covers the rest), eager against tf.function with passes on and off, errors and dtypes."""

from __future__ import annotations

import numpy as np
import pytest

import tinytf as tf

X = [1.0, -2.0, 3.5, -4.5, 0.3, 7.0, -0.0196]

# (T, mode, round_mode, narrow_range) -> (levels, output_min, output_max) from TF 2.21's reference CPU kernels
REFERENCE_KERNELS = {
    ("qint8", "SCALED", "HALF_TO_EVEN", False): ([32, -64, 111, -128, 10, 127, -1], -4.031496, 4.0),
    ("quint8", "MIN_FIRST", "HALF_AWAY_FROM_ZERO", False): ([160, 64, 240, 0, 138, 255, 127], -4.0, 4.0),
    ("qint32", "SCALED", "HALF_TO_EVEN", False): (
        [536870912, -1073741824, 1879048192, -2147483648, 161061280, -2147483648, -10522670], -4.0, 4.0),
}


@pytest.mark.parametrize("key", sorted(REFERENCE_KERNELS))
def test_reference_kernel_levels(key, passes):
    name, mode, round_mode, narrow_range = key
    levels, low, high = REFERENCE_KERNELS[key]

    def run(x):
        return tf.quantization.quantize(x, -4.0, 4.0, tf.as_dtype(name), mode=mode, round_mode=round_mode,
                                        narrow_range=narrow_range)
    for result in (run(tf.constant(X)), tf.function(run)(tf.constant(X))):
        assert result.output.dtype == tf.as_dtype(name)
        assert result.output.numpy().tolist() == levels
        np.testing.assert_allclose([float(result.output_min), float(result.output_max)], [low, high], rtol=1e-6)


def test_dequantize_reference_kernels():
    q = tf.quantization.quantize(tf.constant(X), -4.0, 4.0, tf.quint8, mode="MIN_FIRST")
    back = tf.quantization.dequantize(q.output, q.output_min, q.output_max, mode="MIN_FIRST")
    np.testing.assert_array_equal(back.numpy(), np.float32(
        [1.0352940559387207, -1.976470708847046, 3.545098304748535, -3.98431396484375, 0.34509801864624023,
         4.01568603515625, 0.0]))
    q = tf.quantization.quantize(tf.constant(X), -4.0, 4.0, tf.qint32, mode="SCALED")
    back = tf.quantization.dequantize(q.output, q.output_min, q.output_max, mode="SCALED")
    np.testing.assert_array_equal(back.numpy(), np.float32([1.0, -2.0, 3.5, -4.0, 0.30000001192092896, -4.0,
                                                            -0.019600000232458115]))


@pytest.mark.parametrize("mode", ["MIN_COMBINED", "MIN_FIRST", "SCALED"])
@pytest.mark.parametrize("name", ["qint8", "quint8", "qint16", "quint16", "qint32"])
def test_graph_matches_eager(name, mode, passes):
    T = tf.as_dtype(name)
    x = tf.constant(np.linspace(-6.0, 6.0, 25, dtype=np.float32))

    def round_trip(x, low, high):
        q = tf.quantization.quantize(x, low, high, T, mode=mode)
        return q.output, tf.quantization.dequantize(q.output, q.output_min, q.output_max, mode=mode), \
            q.output_min, q.output_max
    eager = round_trip(x, tf.constant(-3.0), tf.constant(5.0))
    graph = tf.function(round_trip)(x, tf.constant(-3.0), tf.constant(5.0))
    assert graph[0].dtype == T and graph[1].dtype == tf.float32
    np.testing.assert_array_equal(graph[0].numpy(), eager[0].numpy())
    np.testing.assert_array_equal(graph[1].numpy(), eager[1].numpy())
    if name == "qint32":  # TF's float-to-int32 cast wraps the top of the range to INT_MIN (the checks above hold)
        return
    # a round trip is within one level of the input clamped to the range used
    low, high = float(eager[2]), float(eager[3])
    step = (high - low) / (2 ** (8 * T.size) - 1)
    np.testing.assert_allclose(eager[1].numpy(), np.clip(x.numpy(), low, high), atol=1.01 * step + 1e-6)


def test_quantized_dtypes_as_tf():
    assert tf.dtypes.QUANTIZED_DTYPES == frozenset([tf.qint8, tf.quint8, tf.qint16, tf.quint16, tf.qint32])
    assert tf.compat.v1.QUANTIZED_DTYPES is tf.dtypes.QUANTIZED_DTYPES
    assert tf.qint8.as_numpy_dtype == np.dtype([("qint8", np.int8)])
    assert tf.as_dtype(np.dtype([("quint16", np.uint16)])) is tf.quint16
    assert tf.as_dtype(np.int8) is tf.int8 and tf.qint8 != tf.int8
    assert not tf.qint32.is_integer and tf.qint32.is_quantized and not tf.int32.is_quantized
    with pytest.raises(TypeError, match="quantized type"):
        tf.qint8.max  # noqa: B018
    with pytest.raises(tf.errors.InvalidArgumentError, match="qint8"):
        tf.constant([1], tf.qint8) + tf.constant([1], tf.qint8)
    q = tf.constant([[1, 2]], tf.quint8)
    assert q.numpy().dtype == np.uint8 and tf.transpose(q).dtype is tf.quint8


def test_errors_name_the_op():
    x = tf.constant(X)
    with pytest.raises(tf.errors.InvalidArgumentError, match="only supported for mode 'SCALED'"):
        tf.quantization.quantize(x, -1.0, 1.0, tf.qint8, round_mode="HALF_TO_EVEN")
    with pytest.raises(tf.errors.InvalidArgumentError, match="must be larger than input_min_range"):
        tf.quantization.quantize(x, 1.0, -1.0, tf.qint8)
    with pytest.raises(tf.errors.UnimplementedError, match="MIN_FIRST"):
        tf.quantization.quantize(tf.reshape(x[:6], [2, 3]), [0.0, -1.0], [1.0, 2.0], tf.qint8, mode="MIN_FIRST",
                                 axis=0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="not in the list of allowed values"):
        tf.quantization.quantize(x, -1.0, 1.0, tf.int8)  # eagerly; building a graph, a TypeError as TF
    with pytest.raises(tf.errors.InvalidArgumentError, match="vector of 3 values"):
        tf.quantization.quantize(tf.reshape(x[:6], [2, 3]), [0.0, -1.0], [1.0, 2.0], tf.qint8, axis=1)
    with pytest.raises(tf.errors.NotFoundError, match="quint8 and qint32"):
        q = tf.constant([1], tf.qint8)
        tf.quantization.quantized_concat(0, [q, q], [-1.0, -1.0], [1.0, 1.0])


def test_compat_v1_names():
    v1 = tf.compat.v1
    result = v1.quantize_v2(tf.constant([0.5, -0.5]), -1.0, 1.0, tf.quint8)
    assert result.output.numpy().tolist() == [191, 64]
    assert v1.quantize is tf.quantization.quantize and v1.dequantize is tf.quantization.dequantize
    assert v1.quantized_concat is tf.quantization.quantized_concat
    assert tf.quantization.quantize(tf.constant([0.5]), -1.0, 1.0, tf.quint8).output.numpy().tolist() == [191]


def test_no_gradient():
    x = tf.constant([0.5, -0.5])
    with tf.GradientTape() as tape:
        tape.watch(x)
        q = tf.quantization.quantize(x, -1.0, 1.0, tf.quint8)
        y = tf.quantization.dequantize(q.output, q.output_min, q.output_max)
    assert tape.gradient(y, x) is None


def _quint8_input():
    rng = np.random.default_rng(5)
    x = tf.constant(rng.uniform(-1, 3, (2, 5, 6, 3)).astype(np.float32))
    return tf.quantization.quantize(x, -1.0, 3.0, tf.quint8)


# TF's reference kernel (TF_ENABLE_ONEDNN_OPTS=0) truncates the average; oneDNN's rounds it
AVG_POOL_REFERENCE = {
    ((1, 3, 2, 1), (1, 2, 2, 1), "SAME"): [130, 115, 96, 190, 155, 33, 154, 100, 141, 131, 143, 119],
    ((1, 2, 2, 1), (1, 1, 1, 1), "VALID"): [130, 115, 96, 104, 118, 46, 190, 155, 33, 193, 159, 105],
    ((1, 3, 3, 1), (1, 3, 3, 1), "SAME"): [137, 107, 100, 160, 138, 106, 146, 170, 149, 135, 94, 152],
}


@pytest.mark.parametrize("key", sorted(AVG_POOL_REFERENCE))
def test_quantized_avg_pool_reference_kernel(key, passes):
    ksize, strides, padding = key
    q = _quint8_input()

    def pool(x, low, high):
        return tf.compat.v1.nn.quantized_avg_pool(x, low, high, ksize, strides, padding)
    for result in (pool(q.output, q.output_min, q.output_max),
                   tf.function(pool)(q.output, q.output_min, q.output_max)):
        assert result.output.dtype is tf.quint8
        assert result.output.numpy().reshape(-1)[:12].tolist() == AVG_POOL_REFERENCE[key]
        assert float(result.min_output) == -1.0 and float(result.max_output) == 3.0
    # the truncated mean of the levels inside each window, against numpy
    levels = q.output.numpy().astype(np.int64)
    if padding == "VALID" and strides == (1, 1, 1, 1):
        want = (levels[:, :-1, :-1] + levels[:, 1:, :-1] + levels[:, :-1, 1:] + levels[:, 1:, 1:]) // 4
        np.testing.assert_array_equal(pool(q.output, q.output_min, q.output_max).output.numpy(), want)


def test_quantized_conv2d_against_float_convolution():
    q = _quint8_input()
    w = tf.quantization.quantize(tf.constant(np.linspace(-0.5, 0.7, 72, dtype=np.float32).reshape(3, 2, 3, 4)),
                                 -0.5, 0.7, tf.quint8)
    r = tf.compat.v1.nn.quantized_conv2d(q.output, w.output, q.output_min, q.output_max, w.output_min, w.output_max,
                                         [1, 1, 1, 1], "SAME")
    # the levels are exact products of zero-point-offset levels: scaled, they are the convolution of the dequantized
    # operands (MIN_FIRST dequantization is what zero points stand for)
    x = tf.quantization.dequantize(q.output, q.output_min, q.output_max, mode="MIN_FIRST")
    f = tf.quantization.dequantize(w.output, w.output_min, w.output_max, mode="MIN_FIRST")
    step = float(r.max_output) / 2147483647.0
    np.testing.assert_allclose(r.output.numpy() * step, tf.nn.conv2d(x, f, 1, "SAME").numpy(), atol=0.05)
