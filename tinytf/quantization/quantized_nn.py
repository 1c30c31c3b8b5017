"""tf.compat.v1.nn.quantized_max_pool / quantized_avg_pool / quantized_conv2d: TF1's nn ops on quint8 tensors
(kernels: runtime/ops/quantized_nn.py), with TF's signatures and result tuples."""

from __future__ import annotations

from collections import namedtuple

from tinytf.runtime import dtypes
from tinytf.runtime.dispatch import apply, convert_to_tensor
from tinytf.runtime.ops.quantized_nn import quantized_avg_pool_op, quantized_conv2d_op, quantized_max_pool_op

QuantizedMaxPool = namedtuple("QuantizedMaxPool", ["output", "min_output", "max_output"])
QuantizedAvgPool = namedtuple("QuantizedAvgPool", ["output", "min_output", "max_output"])
QuantizedConv2D = namedtuple("QuantizedConv2D", ["output", "min_output", "max_output"])


def _ranges(*values):
    return [convert_to_tensor(v, dtypes.float32) for v in values]


def _ints(values, what):
    values = [int(v) for v in values]
    if len(values) != 4:
        raise ValueError(f"{what} must have 4 elements, got {values}")
    return tuple(values)


def quantized_max_pool(input, min_input, max_input, ksize, strides, padding, name=None):  # noqa: A002
    """The max over each window of a quint8 tensor's levels; the range is the input's."""
    attrs = {"ksize": _ints(ksize, "ksize"), "strides": _ints(strides, "strides"), "padding": str(padding)}
    return QuantizedMaxPool(*apply(quantized_max_pool_op, [convert_to_tensor(input)] + _ranges(min_input, max_input),
                                   attrs, name=name))


def quantized_avg_pool(input, min_input, max_input, ksize, strides, padding, name=None):  # noqa: A002
    """The average over each window (of the positions inside the input) of a quint8 tensor's levels, truncated as
    TF's kernel; the range is the input's."""
    attrs = {"ksize": _ints(ksize, "ksize"), "strides": _ints(strides, "strides"), "padding": str(padding)}
    return QuantizedAvgPool(*apply(quantized_avg_pool_op, [convert_to_tensor(input)] + _ranges(min_input, max_input),
                                   attrs, name=name))


def quantized_conv2d(input, filter, min_input, max_input, min_filter, max_filter, strides, padding,  # noqa: A002
                     out_type=dtypes.qint32, dilations=(1, 1, 1, 1), name=None):
    """The convolution of quint8 `input` (NHWC) with quint8 `filter` (HWIO), each offset by its zero point, as
    qint32 levels of the range of a product of one input level and one filter level."""
    if dtypes.as_dtype(out_type) is not dtypes.qint32:
        raise TypeError(f"quantized_conv2d: out_type must be qint32, got {dtypes.as_dtype(out_type).name}")
    attrs = {"strides": _ints(strides, "strides"), "padding": str(padding), "dilations": _ints(dilations, "dilations")}
    inputs = [convert_to_tensor(input), convert_to_tensor(filter)] + _ranges(min_input, max_input, min_filter,
                                                                             max_filter)
    return QuantizedConv2D(*apply(quantized_conv2d_op, inputs, attrs, name=name))
