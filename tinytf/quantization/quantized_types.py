"""tf.quantization.quantize / dequantize / quantized_concat and tf.compat.v1.quantize_v2: float32 tensors onto
TF's quantized dtypes (qint8, quint8, qint16, quint16, qint32) and back. The kernels are runtime/ops/quantize.py
(TF's reference CPU kernels, level for level); this module gives TF's Python signatures and result tuples."""

from __future__ import annotations

from collections import namedtuple

from tinytf.runtime import dtypes
from tinytf.runtime.dispatch import apply, convert_to_tensor
from tinytf.runtime.ops.quantize import dequantize_op, quantize_v2_op, quantized_concat_op
from tinytf.runtime.ops.static_value import constant_value

# TF's result types (gen_array_ops.QuantizeV2 and QuantizedConcat), named tuples of (output, output_min, output_max)
QuantizeV2 = namedtuple("QuantizeV2", ["output", "output_min", "output_max"])
QuantizedConcat = namedtuple("QuantizedConcat", ["output", "output_min", "output_max"])


def _axis(x, axis):
    if axis is None:
        return -1
    if axis < 0:
        if x._shape is None:
            raise ValueError("input should have known rank to use negative axis.")
        axis %= len(x._shape)
    return int(axis)


def _range(value):
    return convert_to_tensor(value, dtypes.float32)


def quantize_v2(input, min_range, max_range, T, mode="MIN_COMBINED", name=None,  # noqa: A002,N803 - TF's names
                round_mode="HALF_AWAY_FROM_ZERO", narrow_range=False, axis=None, ensure_minimum_range=0.01):
    """Quantize float32 `input` in [min_range, max_range] onto the levels of quantized dtype `T`; returns
    (output, output_min, output_max), the range actually used (TF widens it to hold 0.0 and to be at least
    `ensure_minimum_range` wide, relative to its largest bound)."""
    x = convert_to_tensor(input, dtypes.float32)
    attrs = {"T": dtypes.as_dtype(T), "mode": str(mode), "round_mode": str(round_mode),
             "narrow_range": bool(narrow_range), "axis": _axis(x, axis),
             "ensure_minimum_range": float(ensure_minimum_range)}
    return QuantizeV2(*apply(quantize_v2_op, (x, _range(min_range), _range(max_range)), attrs, name=name))


def quantize(input, min_range, max_range, T, mode="MIN_COMBINED",  # noqa: A002,N803 - TF's names
             round_mode="HALF_AWAY_FROM_ZERO", name=None, narrow_range=False, axis=None, ensure_minimum_range=0.01):
    """tf.quantization.quantize: quantize_v2 with TF 2's argument order."""
    return quantize_v2(input, min_range, max_range, T, mode=mode, name=name, round_mode=round_mode,
                       narrow_range=narrow_range, axis=axis, ensure_minimum_range=ensure_minimum_range)


def dequantize(input, min_range, max_range, mode="MIN_COMBINED", name=None, axis=None,  # noqa: A002
               narrow_range=False, dtype=dtypes.float32):
    """The float values (float32, or bfloat16) of the quantized `input` whose levels span [min_range, max_range]."""
    q = convert_to_tensor(input)
    attrs = {"T": q.dtype, "mode": str(mode), "narrow_range": bool(narrow_range), "axis": _axis(q, axis),
             "dtype": dtypes.as_dtype(dtype)}
    return apply(dequantize_op, (q, _range(min_range), _range(max_range)), attrs, name=name)


def quantized_concat(concat_dim, values, input_mins, input_maxes, name=None):
    """Concatenate quantized tensors (quint8 or qint32, as TF's kernel) along `concat_dim`, requantizing each into
    the range that holds all of theirs (symmetric for qint32); returns (output, output_min, output_max)."""
    values = [convert_to_tensor(v) for v in values]
    if not (len(values) == len(input_mins) == len(input_maxes)) or len(values) < 2:
        raise ValueError(f"quantized_concat needs at least 2 values and one min and max for each, got {len(values)} "
                         f"values, {len(input_mins)} mins and {len(input_maxes)} maxes")
    axis = concat_dim if isinstance(concat_dim, int) else constant_value(convert_to_tensor(concat_dim))
    if axis is None:
        raise ValueError("quantized_concat: concat_dim must be known when the graph is built (a Python int or a "
                         "constant)")
    inputs = values + [_range(v) for v in input_mins] + [_range(v) for v in input_maxes]
    return QuantizedConcat(*apply(quantized_concat_op, inputs, {"axis": int(axis), "N": len(values)}, name=name))
