"""TF's quantize / dequantize / quantized_concat: float32 tensors onto the integer levels of a quantized dtype
(qint8, quint8, qint16, quint16, qint32) and back, with the modes of TF's reference CPU kernels
(quantize_op.cc, dequantize_op.cc, quantized_concat_op.cc and quantization_utils.h):

- MIN_COMBINED: [min, max] spread over the type's whole range (signed types shifted by half of it);
- MIN_FIRST: the same spread, with min rounded onto a level first (what TF's quantized ops compute with);
- SCALED: a symmetric scale, so that 0.0 is level 0 (narrow_range drops the lowest level of signed types).

The arithmetic is float32 where TF's Eigen expressions are float32 and float64 where TF's scalar helpers use
double, so the levels are TF's exactly, including the wrap of float-to-int32 overflow (x86 gives INT_MIN).
None has a gradient in TF (they are not differentiable: quantized training uses fake_quant)."""

from __future__ import annotations

import numpy as np

from .. import dtypes, shapes
from ..errors import InvalidArgumentError, NotFoundError, UnimplementedError
from ..registry import OpDef, register

MODES = ("MIN_COMBINED", "MIN_FIRST", "SCALED")
ROUND_MODES = ("HALF_AWAY_FROM_ZERO", "HALF_TO_EVEN")
_F32 = np.float32


def _limits(dtype):
    info = np.iinfo(dtype.np)
    return int(info.min), int(info.max)


def _round_away(x):
    """std::round / Eigen's round: halves away from zero. A float32 value plus 0.5 is exact in float64 (and a
    float32 too large for that is already an integer), so one float64 add and trunc round it exactly."""
    x = np.asarray(x)
    y = x.astype(np.float64)
    y += np.copysign(np.float32(0.5), x)
    np.trunc(y, out=y)  # in place: fresh megabyte arrays cost page faults (docs/architecture.md)
    return y.astype(x.dtype)


def _to_storage(values, dtype):
    """static_cast<T>(float) as on x86: out-of-range floats (and NaN) of a 32-bit cast become INT_MIN."""
    low, high = _limits(dtype)
    values = np.asarray(values)
    if dtype.np.itemsize == 4:
        bad = ~((values >= -2147483648.0) & (values < 2147483648.0))
        safe = np.where(bad, 0, values)
        return np.where(bad, np.int32(-2147483648), safe.astype(np.int64).astype(np.int32)).astype(dtype.np)
    return np.clip(values, low, high).astype(np.int64).astype(dtype.np)


def _nudged_range(low, high, ensure_minimum_range):
    """TF widens a range too narrow to quantize, and always includes 0.0 in it."""
    low, high = _F32(low), _F32(high)
    min_range = min(_F32(0.0), low)
    epsilon = _F32(max(_F32(1.0), max(abs(low), abs(high))) * _F32(ensure_minimum_range))
    return min_range, max(_F32(0.0), max(high, _F32(min_range + epsilon)))


def _float_to_quantized_eigen(x, low, high, dtype):
    """quantization_utils.h's FloatTensorToQuantizedInPlaceUsingEigen (MIN_FIRST)."""
    lowest, highest = _limits(dtype)
    steps = float(1 << (8 * dtype.np.itemsize))
    scale = _F32(0.0) if high == low else _F32((steps - 1.0) / float(high - low))
    min_scaled = _round_away(np.asarray(_F32(low * scale)))
    result = _round_away((x * scale).astype(_F32)) - (min_scaled - _F32(lowest))
    result = np.clip(result, max(_F32(lowest), _F32(-2.147483648e9)), min(_F32(highest), _F32(2.147483520e9)))
    return _to_storage(result, dtype)


def _quantize_slice(x, low, high, dtype, mode, round_mode, narrow_range, ensure_minimum_range):
    if high < low:
        raise InvalidArgumentError("input_max_range must be larger than input_min_range.")
    lowest, highest = _limits(dtype)
    min_range, max_range = _nudged_range(low, high, ensure_minimum_range)
    if mode == "MIN_FIRST":
        return _float_to_quantized_eigen(x, min_range, max_range, dtype), min_range, max_range
    clamped = np.minimum(np.maximum(x, min_range), max_range).astype(_F32)
    if mode == "MIN_COMBINED":
        scale = _F32((float(highest) - float(lowest)) / float(max_range - min_range))
        if lowest < 0:
            half_range = _F32((float(highest) - float(lowest) + 1) / 2.0)
            levels = _round_away(((clamped - min_range) * scale - half_range).astype(_F32))
        else:
            levels = np.trunc(((clamped - min_range) * scale + _F32(0.5)).astype(_F32))
        return _to_storage(levels, dtype), min_range, max_range
    # SCALED: int arithmetic converted to float as C++ does
    min_output = lowest + (1 if narrow_range else 0)
    from_min = _F32(_F32(min_output) / min_range) if min_output * float(min_range) > 0 else np.finfo(_F32).max
    from_max = _F32(_F32(highest) / max_range) if highest * float(max_range) > 0 else np.finfo(_F32).max
    scale = min(from_min, from_max)
    min_range, max_range = _F32(_F32(min_output) / scale), _F32(_F32(highest) / scale)
    scaled = (np.minimum(np.maximum(x, min_range), max_range) * scale).astype(_F32)
    levels = np.rint(scaled) if round_mode == "HALF_TO_EVEN" else _round_away(scaled)
    return _to_storage(levels, dtype), min_range, max_range


def _slices(x, axis):
    """The slices along `axis` (TF's per-channel ranges), as index tuples."""
    return [tuple(slice(None) if d != axis else i for d in range(x.ndim)) for i in range(x.shape[axis])]


def _quantize_kernel(x, low, high, *, T, mode, round_mode, narrow_range, axis, ensure_minimum_range):
    x = np.asarray(x, _F32)
    if axis == -1:
        out, lo, hi = _quantize_slice(x, low.reshape(-1)[0], high.reshape(-1)[0], T, mode, round_mode,
                                      narrow_range, ensure_minimum_range)
        return out, np.asarray(lo, _F32), np.asarray(hi, _F32)
    if mode == "MIN_FIRST":
        raise UnimplementedError("MIN_FIRST mode is not implemented for Quantize with axis != -1.")
    out = np.empty(x.shape, T.np)
    lows, highs = np.empty(low.shape, _F32), np.empty(high.shape, _F32)
    for i, index in enumerate(_slices(x, axis)):
        out[index], lows[i], highs[i] = _quantize_slice(x[index], low[i], high[i], T, mode, round_mode,
                                                        narrow_range, ensure_minimum_range)
    return out, lows, highs


def _check_modes(mode, round_mode, what):
    if mode not in MODES:
        raise InvalidArgumentError(f"{what}: mode must be one of {', '.join(MODES)}, got '{mode}'")
    if round_mode not in ROUND_MODES:
        raise InvalidArgumentError(f"{what}: round_mode must be one of {', '.join(ROUND_MODES)}, got '{round_mode}'")
    if round_mode == "HALF_TO_EVEN" and mode != "SCALED":
        raise InvalidArgumentError(f"Round mode 'HALF_TO_EVEN' only supported for mode 'SCALED', but mode is "
                                   f"'{mode}'.")


def _check_quantized(dtype, what):
    if not dtype.is_quantized:
        raise TypeError(f"{what}: Value for attr 'T' of {dtype.name} is not in the list of allowed values: qint8, "
                        "quint8, qint32, qint16, quint16")


def _check_ranges(x, low, high, axis, what):
    for name, r in (("min_range", low), ("max_range", high)):
        if r.dtype is not dtypes.float32:
            raise TypeError(f"{what}: {name} must be float32, got {r.dtype.name}")
    if axis == -1:
        for name, r in (("min_range", low), ("max_range", high)):
            if r._shape is not None and shapes.num_elements(r._shape) not in (None, 1):
                raise InvalidArgumentError(f"{what}: {name} must be a scalar or hold one value, got shape "
                                           f"{shapes.fmt(r._shape)}")
        return ()
    if x._shape is not None and not -1 < axis < len(x._shape):
        raise InvalidArgumentError(f"{what}: axis {axis} is out of range for an input of rank {len(x._shape)}")
    depth = None if x._shape is None else x._shape[axis]
    for name, r in (("min_range", low), ("max_range", high)):
        if r._shape is not None and (len(r._shape) != 1 or None not in (depth, r._shape[0]) and r._shape[0] != depth):
            raise InvalidArgumentError(f"{what}: {name} must be a vector of {depth} values (the size of axis "
                                       f"{axis}), got shape {shapes.fmt(r._shape)}")
    return (depth,)


def _quantize_infer(x, low, high, *, T, mode, round_mode, narrow_range, axis, ensure_minimum_range):
    _check_quantized(T, "QuantizeV2")
    _check_modes(mode, round_mode, "QuantizeV2")
    if x.dtype not in (dtypes.float32, dtypes.bfloat16):
        raise TypeError(f"QuantizeV2: input must be float32, got {x.dtype.name}")
    range_shape = _check_ranges(x, low, high, axis, "QuantizeV2")
    return [(T, x._shape), (dtypes.float32, range_shape), (dtypes.float32, range_shape)]


quantize_v2_op = register(OpDef("quantize_v2", _quantize_kernel, _quantize_infer, differentiable=False,
                                typed_attrs=("T",), doc="float32 onto the levels of a quantized dtype"))


# ---- dequantize ------------------------------------------------------------------------------------------------

def _dequantize_slice(q, low, high, dtype, mode, narrow_range):
    lowest, highest = _limits(dtype)
    low, high = _F32(low), _F32(high)
    values = q.astype(_F32)
    if mode == "MIN_COMBINED":
        half_range = _F32(0.0) if lowest == 0 else _F32((_F32(highest) - _F32(lowest) + _F32(1)) / _F32(2))
        scale = _F32((high - low) / (_F32(highest) - _F32(lowest)))
        return ((values + half_range) * scale + low).astype(_F32)
    if mode == "MIN_FIRST":
        steps = float(1 << (8 * dtype.np.itemsize))
        scale = _F32(float(high - low) / (steps - 1.0))
        min_rounded = low if high == low else _F32(_round_away(np.asarray(_F32(low / scale))) * scale)
        return ((min_rounded - _F32(lowest) * scale) + values * scale).astype(_F32)
    min_output = lowest + (1 if narrow_range else 0)
    if lowest == 0:
        scale = _F32(high / _F32(highest))
    else:
        scale = max(_F32(low / _F32(min_output)), _F32(high / _F32(highest)))
    return (q.astype(np.int32).astype(_F32) * scale).astype(_F32)


def _dequantize_kernel(q, low, high, *, T, mode, narrow_range, axis, dtype):
    q = np.asarray(q)
    if axis == -1:
        out = _dequantize_slice(q, low.reshape(-1)[0], high.reshape(-1)[0], T, mode, narrow_range)
    else:
        if mode == "MIN_FIRST":
            raise UnimplementedError("MIN_FIRST mode is not implemented for Dequantize with axis != -1.")
        out = np.empty(q.shape, _F32)
        for i, index in enumerate(_slices(q, axis)):
            out[index] = _dequantize_slice(q[index], low[i], high[i], T, mode, narrow_range)
    return out.astype(dtype.np)


def _dequantize_infer(q, low, high, *, T, mode, narrow_range, axis, dtype):
    _check_quantized(q.dtype, "Dequantize")
    _check_modes(mode, "HALF_AWAY_FROM_ZERO", "Dequantize")
    if dtype not in (dtypes.float32, dtypes.bfloat16):
        raise TypeError(f"Dequantize: Value for attr 'dtype' of {dtype.name} is not in the list of allowed values: "
                        "bfloat16, float")
    _check_ranges(q, low, high, axis, "Dequantize")
    return dtype, q._shape


dequantize_op = register(OpDef("dequantize", _dequantize_kernel, _dequantize_infer, differentiable=False,
                               typed_attrs=("T", "dtype"), doc="the levels of a quantized dtype back to floats"))


# ---- quantized_concat ------------------------------------------------------------------------------------------

def concat_range(lows, highs, signed):
    """The output range of quantized_concat: every input's range, with 0.0, symmetric for signed types."""
    low = min(_F32(0.0), min(_F32(v) for v in lows))
    high = max(_F32(v) for v in highs)
    if signed:
        largest = max(abs(low), abs(high))
        return -largest, largest
    return low, high


def _concat_kernel(*arrays, axis, N):
    values, lows, highs = arrays[:N], arrays[N:2 * N], arrays[2 * N:]
    dtype = _STORAGE_TO_QUANTIZED[values[0].dtype]
    low, high = concat_range([v.reshape(-1)[0] for v in lows], [v.reshape(-1)[0] for v in highs],
                             _limits(dtype)[0] < 0)
    parts = []
    for value, lo, hi in zip(values, lows, highs):
        lo, hi = _F32(lo.reshape(-1)[0]), _F32(hi.reshape(-1)[0])
        same = lo == low and hi == high
        # TF's RequantizeCopier: Eigen's dequantize and quantize of MIN_FIRST, in float32
        parts.append(value if same else _float_to_quantized_eigen(_dequantize_slice(value, lo, hi, dtype, "MIN_FIRST",
                                                                                    False), low, high, dtype))
    return np.concatenate(parts, axis=axis), np.asarray(low, _F32), np.asarray(high, _F32)


_STORAGE_TO_QUANTIZED = {d.np: d for d in dtypes.QUANTIZED}
CONCAT_KERNELS = (dtypes.quint8, dtypes.qint32)  # the only types TF's CPU kernel is registered for


def _concat_infer(*tensors, axis, N):
    values, ranges = tensors[:N], tensors[N:]
    dtype = values[0].dtype
    if any(v.dtype is not dtype for v in values):
        raise TypeError("QuantizedConcat: all values must have the same dtype, got "
                        + ", ".join(v.dtype.name for v in values))
    if dtype not in CONCAT_KERNELS:
        raise NotFoundError(f"QuantizedConcat: no kernel for T={dtype.name} (TF registers it for quint8 and qint32 "
                            "only)")
    for r in ranges:
        if r.dtype is not dtypes.float32 or (r._shape is not None and shapes.num_elements(r._shape) not in (None, 1)):
            raise InvalidArgumentError(f"QuantizedConcat: every input min and max must be a float32 scalar, got "
                                       f"{shapes.typed(r.dtype, r._shape)}")
    known = [v._shape for v in values if v._shape is not None]
    if not known:
        return [(dtype, None), (dtypes.float32, ()), (dtypes.float32, ())]
    rank = len(known[0])
    if any(len(s) != rank for s in known):
        raise InvalidArgumentError("QuantizedConcat: ConcatOp : Ranks of all input tensors should match: shapes "
                                   + ", ".join(shapes.fmt(s) for s in known))
    if not 0 <= axis < rank:  # TF's kernel takes no negative axis
        raise InvalidArgumentError(f"QuantizedConcat: ConcatOp : Expected concatenating dimensions in the range "
                                   f"[0, {rank}), but got {axis}")
    out = []
    for d in range(rank):
        sizes = [s[d] for s in known]
        if d == axis:
            out.append(None if len(known) < N or None in sizes else sum(sizes))
            continue
        concrete = {x for x in sizes if x is not None}
        if len(concrete) > 1:
            raise InvalidArgumentError(f"QuantizedConcat: ConcatOp : Dimension {d} in both shapes must be equal: "
                                       + ", ".join(shapes.fmt(s) for s in known))
        out.append(concrete.pop() if concrete else None)
    return [(dtype, tuple(out)), (dtypes.float32, ()), (dtypes.float32, ())]


quantized_concat_op = register(OpDef("quantized_concat", _concat_kernel, _concat_infer, differentiable=False,
                                     typed_attrs=("N",), doc="quantized tensors joined, requantized to one range"))
