"""tf.nn.conv2d and 2-D pooling against slow direct references that loop over every output pixel."""

import math

import numpy as np
import pytest
from ways import run_all_ways

import tinytf as tf

RNG = np.random.default_rng(1)


# --- slow references: TF's documented geometry, written out directly ------------------------------------
def reference_geometry(size, window, stride, dilation, padding):
    """(output size, pad before) of one spatial axis: TF's SAME puts the odd extra pad after."""
    effective = (window - 1) * dilation + 1
    if padding == "VALID":
        return (size - effective) // stride + 1, 0
    if padding == "SAME":
        out = math.ceil(size / stride)
        return out, max((out - 1) * stride + effective - size, 0) // 2
    before, after = padding
    return (size + before + after - effective) // stride + 1, before


def reference_conv2d(x, w, strides, padding, dilations=(1, 1)):
    n, h, wd, c = x.shape
    kh, kw, _, co = w.shape
    pad_h, pad_w = (padding, padding) if isinstance(padding, str) else padding
    oh, top = reference_geometry(h, kh, strides[0], dilations[0], pad_h)
    ow, left = reference_geometry(wd, kw, strides[1], dilations[1], pad_w)
    out = np.zeros((n, oh, ow, co))
    for b in range(n):
        for i in range(oh):
            for j in range(ow):
                for di in range(kh):
                    for dj in range(kw):
                        r = i * strides[0] - top + di * dilations[0]
                        s = j * strides[1] - left + dj * dilations[1]
                        if 0 <= r < h and 0 <= s < wd:
                            out[b, i, j] += x[b, r, s].astype(np.float64) @ w[di, dj].astype(np.float64)
    return out


def reference_pool(x, ksize, strides, padding, reduce):
    n, h, wd, c = x.shape
    oh, top = reference_geometry(h, ksize[0], strides[0], 1, padding)
    ow, left = reference_geometry(wd, ksize[1], strides[1], 1, padding)
    out = np.zeros((n, oh, ow, c))
    for i in range(oh):
        for j in range(ow):
            rows = [r for r in range(i * strides[0] - top, i * strides[0] - top + ksize[0]) if 0 <= r < h]
            cols = [s for s in range(j * strides[1] - left, j * strides[1] - left + ksize[1]) if 0 <= s < wd]
            out[:, i, j] = reduce(x[:, rows][:, :, cols].astype(np.float64), axis=(1, 2))  # real elements only
    return out


# --- conv2d ----------------------------------------------------------------------------------------------
CONV_CASES = [
    # input shape, filter shape, strides, padding, dilations
    ((2, 7, 6, 3), (3, 3, 3, 4), 1, "SAME", None),
    ((2, 7, 6, 3), (3, 3, 3, 4), 1, "VALID", None),
    ((1, 8, 9, 2), (2, 2, 2, 5), 2, "SAME", None),
    ((1, 8, 9, 2), (4, 3, 2, 5), [2, 3], "SAME", None),
    ((3, 9, 9, 1), (3, 2, 1, 2), [1, 3, 2, 1], "VALID", None),
    ((1, 10, 11, 2), (3, 3, 2, 3), 1, "SAME", 2),
    ((1, 10, 11, 2), (3, 2, 2, 3), 2, "VALID", [2, 3]),
    ((2, 5, 5, 3), (1, 1, 3, 6), 1, "VALID", None),
    ((1, 4, 5, 2), (5, 6, 2, 2), 1, "SAME", None),  # window larger than the input
    ((1, 6, 6, 2), (3, 3, 2, 2), 2, [[0, 0], [1, 2], [0, 3], [0, 0]], None),
]


def _pair(v):
    v = [v] if isinstance(v, int) else list(v)
    return (v[0], v[0]) if len(v) == 1 else (v[0], v[1]) if len(v) == 2 else (v[1], v[2])


@pytest.mark.parametrize("x_shape, w_shape, strides, padding, dilations", CONV_CASES)
def test_conv2d_matches_the_direct_reference(x_shape, w_shape, strides, padding, dilations):
    x = RNG.normal(size=x_shape).astype(np.float32)
    w = RNG.normal(size=w_shape).astype(np.float32)
    ref_padding = padding if isinstance(padding, str) else (tuple(padding[1]), tuple(padding[2]))
    expected = reference_conv2d(x, w, _pair(strides), ref_padding, _pair(1 if dilations is None else dilations))
    result = run_all_ways(lambda a, b: tf.nn.conv2d(a, b, strides, padding, dilations=dilations),
                          tf.constant(x), tf.constant(w), expected=expected, rtol=1e-4, atol=1e-4)
    assert result.dtype is tf.float32 and result.shape == expected.shape


def test_conv2d_same_puts_the_extra_padding_bottom_right():
    x = np.arange(16, dtype=np.float64).reshape(1, 4, 4, 1)
    summed = tf.nn.conv2d(tf.constant(x), tf.ones([2, 2, 1, 1], tf.float64), 1, "SAME").numpy()[0, :, :, 0]
    assert summed[0, 0] == 0 + 1 + 4 + 5  # no padding above or left
    assert summed[3, 3] == 15  # the one padded row and column are below and right
    assert summed[3, 0] == 12 + 13
    strided = tf.nn.conv2d(tf.constant(x), tf.ones([3, 3, 1, 1], tf.float64), 2, "SAME").numpy()[0, :, :, 0]
    # out 2x2, total pad (2 - 1) * 2 + 3 - 4 = 1: it goes after, so the first window starts at row 0
    assert strided[0, 0] == x[0, 0:3, 0:3, 0].sum() and strided[1, 1] == x[0, 2:4, 2:4, 0].sum()


def test_conv2d_float64_and_partial_shapes():
    x = RNG.normal(size=(2, 5, 5, 3))
    w = RNG.normal(size=(3, 3, 3, 2))
    result = run_all_ways(lambda a, b: tf.nn.conv2d(a, b, 2, "VALID"), tf.constant(x), tf.constant(w),
                          expected=reference_conv2d(x, w, (2, 2), "VALID"), rtol=1e-10)
    assert result.dtype is tf.float64
    conv = tf.function(lambda a, b: tf.nn.conv2d(a, b, 2, "SAME"))
    cf = conv.get_concrete_function(tf.TensorSpec([None, None, 7, 3]), tf.TensorSpec([3, 3, 3, 8]))
    assert cf.outputs[0].shape.as_list() == [None, None, 4, 8]
    valid = tf.function(lambda a, b: tf.nn.conv2d(a, b, 1, "VALID")).get_concrete_function(
        tf.TensorSpec([None, 9, 7, 3]), tf.TensorSpec([3, 2, 3, 8]))
    assert valid.outputs[0].shape.as_list() == [None, 7, 6, 8]
    unknown = conv.get_concrete_function(tf.TensorSpec(None), tf.TensorSpec([3, 3, 3, 8]))
    assert unknown.outputs[0].shape.as_list() == [None, None, None, 8]
    batch = np.zeros((5, 7, 7, 3), np.float32)
    assert conv(tf.constant(batch), tf.zeros([3, 3, 3, 8])).shape == (5, 4, 4, 8)


def test_conv2d_errors_name_the_op_and_the_problem():
    x, w = tf.zeros([1, 5, 5, 3]), tf.zeros([3, 3, 3, 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"conv2d: the input depth 3 does not match .* 4"):
        tf.nn.conv2d(x, tf.zeros([3, 3, 4, 2]), 1, "SAME")
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"conv2d: Computed output size would be negative"):
        tf.nn.conv2d(tf.zeros([1, 2, 2, 3]), tf.zeros([5, 5, 3, 2]), 1, "VALID")
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"conv2d: input \(NHWC\) must be 4-D"):
        tf.nn.conv2d(tf.zeros([5, 5, 3]), w, 1, "SAME")
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"conv2d: .*int32"):
        tf.nn.conv2d(tf.zeros([1, 5, 5, 3], tf.int32), tf.zeros([3, 3, 3, 2], tf.int32), 1, "SAME")
    with pytest.raises(ValueError, match="conv2d: padding must be 'SAME', 'VALID'"):
        tf.nn.conv2d(x, w, 1, "FULL")
    with pytest.raises(ValueError, match="conv2d: strides in the batch and depth dimensions must be 1"):
        tf.nn.conv2d(x, w, [2, 1, 1, 1], "SAME")
    with pytest.raises(ValueError, match="conv2d: only the NHWC data format"):
        tf.nn.conv2d(x, w, 1, "SAME", data_format="NCHW")

    @tf.function
    def traced(a):
        return tf.nn.conv2d(a, tf.zeros([3, 3, 4, 2]), 1, "SAME")

    # building a graph, TF's shape inference fails with a ValueError (eagerly: InvalidArgumentError)
    with pytest.raises(ValueError, match=r"conv2d: the input depth 3 does not match") as raised:
        traced.get_concrete_function(tf.TensorSpec([None, 5, 5, 3]))
    assert type(raised.value) is ValueError


# --- pooling --------------------------------------------------------------------------------------------
POOL_CASES = [
    ((2, 6, 6, 3), 2, 2, "VALID"),
    ((2, 7, 5, 3), 2, 2, "SAME"),
    ((1, 7, 8, 2), 3, 2, "SAME"),
    ((1, 7, 8, 2), [3, 2], [1, 3], "SAME"),
    ((1, 9, 9, 1), [1, 3, 3, 1], [1, 2, 2, 1], "VALID"),
    ((1, 3, 4, 2), 5, 1, "SAME"),  # window larger than the input: every window is mostly padding
]


@pytest.mark.parametrize("x_shape, ksize, strides, padding", POOL_CASES)
@pytest.mark.parametrize("pool, reduce", [(tf.nn.max_pool2d, np.max), (tf.nn.avg_pool2d, np.mean),
                                          (tf.nn.max_pool, np.max), (tf.nn.avg_pool, np.mean)])
def test_pools_match_the_direct_reference(x_shape, ksize, strides, padding, pool, reduce):
    x = RNG.normal(size=x_shape).astype(np.float32) - 5  # all negative: zero padding would win a max
    expected = reference_pool(x, _pair(ksize), _pair(strides), padding, reduce)
    result = run_all_ways(lambda a: pool(a, ksize, strides, padding), tf.constant(x), expected=expected,
                          rtol=1e-5, atol=1e-5)
    assert result.dtype is tf.float32 and result.shape == expected.shape


def test_same_average_pooling_divides_by_real_elements():
    x = np.arange(1, 10, dtype=np.float32).reshape(1, 3, 3, 1)
    out = tf.nn.avg_pool2d(tf.constant(x), 2, 2, "SAME").numpy()[0, :, :, 0]
    np.testing.assert_allclose(out, [[(1 + 2 + 4 + 5) / 4, (3 + 6) / 2], [(7 + 8) / 2, 9]])


def test_max_pool_of_integers_and_partial_shapes():
    x = RNG.integers(-100, -1, size=(2, 5, 5, 2)).astype(np.int32)
    result = run_all_ways(lambda a: tf.nn.max_pool2d(a, 3, 2, "SAME"), tf.constant(x),
                          expected=reference_pool(x, (3, 3), (2, 2), "SAME", np.max))
    assert result.dtype is tf.int32
    cf = tf.function(lambda a: tf.nn.avg_pool2d(a, 3, 2, "SAME")).get_concrete_function(
        tf.TensorSpec([None, 9, None, 4]))
    assert cf.outputs[0].shape.as_list() == [None, 5, None, 4]
    valid = tf.function(lambda a: tf.nn.max_pool2d(a, [2, 3], [2, 1], "VALID")).get_concrete_function(
        tf.TensorSpec([None, 9, 8, 4]))
    assert valid.outputs[0].shape.as_list() == [None, 4, 6, 4]


def test_pool_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"avg_pool2d: .*int32"):
        tf.nn.avg_pool2d(tf.zeros([1, 4, 4, 1], tf.int32), 2, 2, "VALID")
    with pytest.raises(ValueError, match="max_pool2d: ksize in the batch and depth dimensions must be 1"):
        tf.nn.max_pool2d(tf.zeros([1, 4, 4, 1]), [2, 2, 2, 1], 2, "VALID")
    with pytest.raises(ValueError, match="max_pool2d: padding must be 'SAME' or 'VALID'"):
        tf.nn.max_pool2d(tf.zeros([1, 4, 4, 1]), 2, 2, "EXPLICIT")
    with pytest.raises(ValueError, match=r"avg_pool2d: only 2-D pooling of 4-D NHWC inputs"):
        tf.nn.avg_pool(tf.zeros([4, 4, 1]), 2, 2, "VALID")
    with pytest.raises(tf.errors.InvalidArgumentError, match="max_pool2d: Computed output size would be negative"):
        tf.nn.max_pool2d(tf.zeros([1, 2, 2, 1]), 4, 1, "VALID")
