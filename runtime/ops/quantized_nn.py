"""TF1's quantized nn ops on quint8 tensors (tf.compat.v1.nn.quantized_max_pool / quantized_avg_pool /
quantized_conv2d), with the arithmetic of TF's reference CPU kernels: pooling works on the levels themselves and
keeps the input's range (an average truncates, as TF's integer division); the convolution multiplies the levels
offset by each operand's zero point, sums in int32 and reports the qint32 range of a product of one level each
(quantization_utils.h's QuantizationRangeForMultiplication). Padded positions hold the zero point, so they add
0.0. TF registers these kernels for quint8 only, and no gradient."""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..errors import InvalidArgumentError, NotFoundError
from ..registry import OpDef, register
from .quantize import _F32, _round_away


def _out_size(size, window, stride, padding):
    if padding == "VALID":
        return (size - window) // stride + 1
    return -(-size // stride)


def _pad_before(size, window, stride, padding, dilation=1):
    if padding == "VALID":
        return 0
    span = (window - 1) * dilation + 1
    return max((_out_size(size, window, stride, padding) - 1) * stride + span - size, 0) // 2


def _check_window(name, ksize, strides, padding):
    if len(ksize) != 4 or len(strides) != 4:
        raise InvalidArgumentError(f"{name}: ksize and strides must have 4 elements")
    if ksize[0] != 1 or ksize[3] != 1 or strides[0] != 1 or strides[3] != 1:
        raise InvalidArgumentError(f"{name}: pooling is not yet supported on the batch or depth dimension")
    if padding not in ("SAME", "VALID"):
        raise InvalidArgumentError(f"{name}: padding must be SAME or VALID, got {padding!r}")


def _pool(x, ksize, strides, padding, reduce):
    n, h, w, c = x.shape
    kh, kw, sh, sw = ksize[1], ksize[2], strides[1], strides[2]
    oh, ow = _out_size(h, kh, sh, padding), _out_size(w, kw, sw, padding)
    top, left = _pad_before(h, kh, sh, padding), _pad_before(w, kw, sw, padding)
    out = np.empty((n, oh, ow, c), x.dtype)
    for i in range(oh):
        r0 = i * sh - top
        rows = slice(max(r0, 0), min(r0 + kh, h))
        for j in range(ow):
            c0 = j * sw - left
            window = x[:, rows, max(c0, 0):min(c0 + kw, w), :]  # only the positions inside the input count
            out[:, i, j, :] = reduce(window)
    return out


def _max(window):
    return window.max(axis=(1, 2))


def _mean(window):
    count = window.shape[1] * window.shape[2]
    return window.astype(np.int64).sum(axis=(1, 2)) // count


def _pool_kernel(reduce):
    def kernel(x, low, high, *, ksize, strides, padding):
        return _pool(x, ksize, strides, padding, reduce), np.asarray(low, _F32), np.asarray(high, _F32)

    return kernel


def _check_quint8(what, *tensors):
    for t in tensors:
        if t.dtype is not dtypes.quint8:
            raise NotFoundError(f"{what}: no kernel for {t.dtype.name} (TF registers it for quint8 only)")


def _check_range(what, *ranges):
    for r in ranges:
        if r.dtype is not dtypes.float32 or r._shape not in (None, ()):
            raise ValueError(f"{what}: each min and max must be a float32 scalar")


def _pool_infer(name):
    def infer(x, low, high, *, ksize, strides, padding):
        _check_quint8(name, x)
        _check_range(name, low, high)
        _check_window(name, ksize, strides, padding)
        shape = None
        if x._shape is not None:
            if len(x._shape) != 4:
                raise InvalidArgumentError(f"{name}: input must be 4-dimensional, got shape {list(x._shape)}")
            n, h, w, c = x._shape
            sizes = [None if d is None else _out_size(d, k, s, padding)
                     for d, k, s in ((h, ksize[1], strides[1]), (w, ksize[2], strides[2]))]
            shape = (n, sizes[0], sizes[1], c)
        return [(x.dtype, shape), (dtypes.float32, ()), (dtypes.float32, ())]

    return infer


quantized_max_pool_op = register(OpDef("quantized_max_pool", _pool_kernel(_max), _pool_infer("QuantizedMaxPool"),
                                       differentiable=False, doc="max pooling of quint8 levels"))
quantized_avg_pool_op = register(OpDef("quantized_avg_pool", _pool_kernel(_mean), _pool_infer("QuantizedAvgPool"),
                                       differentiable=False, doc="average pooling of quint8 levels (truncated)"))


def _zero_point(low, high):
    """FloatToQuantizedUnclamped<quint8>(0.0, low, high): the level that stands for 0.0."""
    low, high = float(_F32(low)), float(_F32(high))
    if low == high:
        return 0
    scale = 256.0 / ((high - low) * (256.0 / 255.0))
    return int(_round_away(np.float64(0.0)) - _round_away(np.float64(low * scale)))


def product_range(low_a, high_a, low_b, high_b):
    """QuantizationRangeForMultiplication<quint8, quint8, qint32>: the qint32 range of one level times one."""
    level_a = _F32(_F32(high_a) - _F32(low_a)) / _F32(255.0)
    level_b = _F32(_F32(high_b) - _F32(low_b)) / _F32(255.0)
    level = _F32(level_a * level_b)
    return _F32(level * _F32(-2147483648.0)), _F32(level * _F32(2147483647.0))


def _conv_kernel(x, f, low_x, high_x, low_f, high_f, *, strides, padding, dilations):
    n, h, w, c = x.shape
    kh, kw, _, out_c = f.shape
    sh, sw, dh, dw = strides[1], strides[2], dilations[1], dilations[2]
    oh = _out_size(h, (kh - 1) * dh + 1, sh, padding)
    ow = _out_size(w, (kw - 1) * dw + 1, sw, padding)
    top, left = _pad_before(h, kh, sh, padding, dh), _pad_before(w, kw, sw, padding, dw)
    x_off, f_off = _zero_point(low_x, high_x), _zero_point(low_f, high_f)
    rows = max((oh - 1) * sh + (kh - 1) * dh + 1, h + top)
    cols = max((ow - 1) * sw + (kw - 1) * dw + 1, w + left)
    padded = np.zeros((n, rows, cols, c), np.int64)  # padding holds the zero point: offset, it adds 0
    padded[:, top:top + h, left:left + w, :] = x.astype(np.int64) - x_off
    filters = f.astype(np.int64) - f_off
    out = np.zeros((n, oh, ow, out_c), np.int64)
    for a in range(kh):
        for b in range(kw):
            patch = padded[:, a * dh:a * dh + (oh - 1) * sh + 1:sh, b * dw:b * dw + (ow - 1) * sw + 1:sw, :]
            out += patch @ filters[a, b]
    low, high = product_range(low_x, high_x, low_f, high_f)
    return np.clip(out, -2147483648, 2147483647).astype(np.int32), np.asarray(low, _F32), np.asarray(high, _F32)


def _conv_infer(x, f, low_x, high_x, low_f, high_f, *, strides, padding, dilations):
    _check_quint8("QuantizedConv2D", x, f)
    _check_range("QuantizedConv2D", low_x, high_x, low_f, high_f)
    if padding not in ("SAME", "VALID"):
        raise InvalidArgumentError(f"QuantizedConv2D: padding must be SAME or VALID, got {padding!r}")
    if len(strides) != 4 or strides[0] != 1 or strides[3] != 1:
        raise InvalidArgumentError("QuantizedConv2D: current implementation does not yet support strides in the "
                                   "batch and depth dimensions.")
    if strides[1] != strides[2]:
        raise InvalidArgumentError("QuantizedConv2D: Current implementation only supports equal length strides in "
                                   "the row and column dimensions.")
    if len(dilations) != 4 or dilations[0] != 1 or dilations[3] != 1:
        raise InvalidArgumentError("QuantizedConv2D: dilations in the batch and depth dimensions must be 1")
    shape = None
    if x._shape is not None and f._shape is not None:
        if len(x._shape) != 4 or len(f._shape) != 4:
            raise InvalidArgumentError("QuantizedConv2D: input and filter must be 4-dimensional")
        if None not in (x._shape[3], f._shape[2]) and x._shape[3] != f._shape[2]:
            raise InvalidArgumentError(f"QuantizedConv2D: input depth {x._shape[3]} must equal the filter's "
                                       f"{f._shape[2]}")
        sizes = [None if d is None or k is None else _out_size(d, (k - 1) * dl + 1, s, padding)
                 for d, k, s, dl in ((x._shape[1], f._shape[0], strides[1], dilations[1]),
                                     (x._shape[2], f._shape[1], strides[2], dilations[2]))]
        shape = (x._shape[0], sizes[0], sizes[1], f._shape[3])
    return [(dtypes.qint32, shape), (dtypes.float32, ()), (dtypes.float32, ())]


quantized_conv2d_op = register(OpDef("quantized_conv2d", _conv_kernel, _conv_infer, differentiable=False,
                                     doc="quint8 convolution into qint32 levels"))
