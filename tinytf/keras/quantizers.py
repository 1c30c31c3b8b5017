"""keras.quantizers and keras.Quantizer as TF 2.21's Keras 3.15 has them: absmax int8 quantization
(`abs_max_quantize`, `AbsMaxQuantizer`), int4 nibble packing, fake quantization with a straight-through
gradient, and the float8 scaling helpers, written with tinytf ops so they run eagerly and inside tf.function.

abs_max_quantize_grouped_with_zero_point is in quantizers_grouped.py; the QuantizationConfig classes (what Keras'
`layer.quantize` takes; tinytf's layers have no quantize) in quantization_config.py.

Not here: float8 dtypes (tinytf has none, so `quantize_and_dequantize` takes the
16/32/64-bit float quantized dtypes and refuses float8 names)."""

from __future__ import annotations

import inspect

import numpy as np

import tinytf as _tf

from . import serialization
from .backend import epsilon as _epsilon


class Quantizer:
    """The base of Keras' quantizers: called on a tensor, it returns the quantized form (the identity here)."""

    def __init__(self, output_dtype="int8"):
        self.output_dtype = output_dtype

    def __call__(self, x):
        return x

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def get_config(self):
        raise NotImplementedError(f"{self} does not implement get_config()")


def _dtype_name(dtype) -> str:
    return dtype if isinstance(dtype, str) else _tf.as_dtype(dtype).name


def abs_max_quantize(inputs, axis, value_range=(-127, 127), dtype="int8", epsilon=_epsilon(), to_numpy=False):
    """(quantized, scale): scale = value_range[1] / (max|x| over `axis` + epsilon), quantized =
    clip(round(x * scale)) cast to `dtype` (rounding half to even, as tf.round does)."""
    if to_numpy:  # Keras' host path: numpy arithmetic, then tensors
        original_dtype = _tf.convert_to_tensor(inputs).dtype
        values = np.asarray(inputs.numpy() if hasattr(inputs, "numpy") else inputs)
        axis = tuple(axis) if isinstance(axis, (list, tuple)) else axis
        scale = np.divide(value_range[1], np.add(np.max(np.abs(values), axis=axis, keepdims=True), epsilon))
        outputs = np.clip(np.round(np.multiply(values, scale)), value_range[0], value_range[1]).astype(dtype)
        return _tf.convert_to_tensor(outputs), _tf.cast(_tf.convert_to_tensor(scale), original_dtype)
    inputs = _tf.convert_to_tensor(inputs)
    axis = list(axis) if isinstance(axis, (list, tuple)) else axis
    peak = _tf.reduce_max(_tf.abs(inputs), axis=axis, keepdims=True)
    scale = _tf.cast(value_range[1] / (peak + _tf.cast(epsilon, peak.dtype)), inputs.dtype)
    outputs = _tf.clip_by_value(_tf.round(inputs * scale), _tf.cast(value_range[0], inputs.dtype),
                                _tf.cast(value_range[1], inputs.dtype))
    return _tf.cast(outputs, dtype), scale


class AbsMaxQuantizer(Quantizer):
    """abs_max_quantize as an object: `quantizer(x, axis=None)` uses the constructor's axis, else -1."""

    def __init__(self, axis=None, value_range=(-127, 127), epsilon=_epsilon(), output_dtype="int8"):
        Quantizer.__init__(self, output_dtype=output_dtype)
        if axis is not None:
            self.axis = (axis,) if isinstance(axis, int) else tuple(axis)
        else:
            self.axis = None
        self.value_range = value_range
        self.epsilon = epsilon
        if output_dtype == "int8" and (value_range[0] < -128 or value_range[1] > 127):
            raise ValueError("Quantizer with output_dtype='int8' requires value_range to be within the interval "
                             f"[-128, 127]. Received: value_range={value_range}")

    def __call__(self, x, axis=None, to_numpy=False):
        axis = self.axis if axis is None else axis
        return abs_max_quantize(x, -1 if axis is None else axis, self.value_range, self.output_dtype, self.epsilon,
                                to_numpy)

    def get_config(self):
        config = {"value_range": self.value_range, "epsilon": self.epsilon, "output_dtype": self.output_dtype}
        if self.axis is not None:
            config["axis"] = self.axis
        return config


# --- int4 nibbles ----------------------------------------------------------------------------------------------
def _check_nibble_dtype(dtype):
    if dtype not in ("int8", "uint8"):
        raise ValueError(f"Expected dtype to be 'int8' or 'uint8', but got '{dtype}'.")


def pack_int4(arr, axis=0, dtype="int8"):
    """Two int4 values (in [-8, 7]) a byte along `axis`: the first row in the low nibble, the second in the high
    one (an odd row count is padded with a zero row). Returns (packed, packed_shape, original length)."""
    _check_nibble_dtype(dtype)
    given = _dtype_name(arr.dtype)
    if given != dtype:
        raise TypeError(f"Expected {dtype} tensor for packing, got {given}.")
    values = np.asarray(arr.numpy() if hasattr(arr, "numpy") else arr)
    np_dtype = np.dtype(dtype)
    axis = axis + values.ndim if axis < 0 else axis
    values = np.moveaxis(values, axis, 0)
    n = values.shape[0]
    if n % 2 == 1:
        values = np.concatenate([values, np.zeros((1,) + values.shape[1:], values.dtype)], axis=0)
    mask = np.array(0x0F, dtype=np_dtype)
    low = np.bitwise_and(values[::2].astype(np_dtype), mask)
    high = np.bitwise_and(values[1::2].astype(np_dtype), mask)
    packed = np.bitwise_or(low, np.left_shift(high, np.array(4, dtype=np_dtype))).astype(np_dtype)
    packed = np.moveaxis(packed, 0, axis)
    return _tf.convert_to_tensor(packed), tuple(packed.shape), n


def unpack_int4(packed, orig_len, axis=0, dtype="int8"):
    """pack_int4 undone: each byte's low then high nibble (sign-extended for int8), padding dropped."""
    _check_nibble_dtype(dtype)
    packed = _tf.convert_to_tensor(packed)
    if packed.dtype.name not in ("int8", "uint8"):
        raise TypeError(f"Expected int8 or uint8 tensor for unpacking, got {packed.dtype.name}")
    rank = packed.shape.rank
    axis = axis + rank if axis < 0 else axis
    perm = [axis] + [i for i in range(rank) if i != axis]
    inverse = [perm.index(i) for i in range(rank)]
    moved = _tf.transpose(packed, perm)
    mask = _tf.constant(0x0F, packed.dtype)
    low = _tf.bitwise.bitwise_and(moved, mask)
    high = _tf.bitwise.bitwise_and(_tf.bitwise.right_shift(moved, _tf.constant(4, packed.dtype)), mask)
    if dtype == "int8":  # nibbles 8..15 are -8..-1: (x ^ 8) - 8
        eight = _tf.constant(8, packed.dtype)
        low = _tf.bitwise.bitwise_xor(low, eight) - eight
        high = _tf.bitwise.bitwise_xor(high, eight) - eight
    stacked = _tf.stack([_tf.cast(low, dtype), _tf.cast(high, dtype)], axis=1)
    unpacked = _tf.reshape(stacked, _tf.concat([[-1], _tf.shape(moved)[1:]], 0))[:orig_len]
    return _tf.transpose(unpacked, inverse)


# --- fake quantization -----------------------------------------------------------------------------------------
def _nudged_range(min_range, max_range, num_bits, narrow_range):
    """TF's Nudge (fake_quant_ops_functor.h): the zero point rounded (half away from zero, it is >= 0 here) into
    [quant_min, quant_max], and min/max moved so that 0.0 is exactly representable."""
    quant_max = float((1 << num_bits) - 1)
    quant_min = 1.0 if narrow_range else 0.0
    scale = (max_range - min_range) / (quant_max - quant_min)
    inv_scale = (quant_max - quant_min) / (max_range - min_range)
    zero_point = _tf.floor(_tf.clip_by_value(quant_min - min_range / scale, quant_min, quant_max) + 0.5)
    return (quant_min - zero_point) * scale, (quant_max - zero_point) * scale, scale, inv_scale


def fake_quant_with_min_max_vars(inputs, min_vals, max_vals, num_bits=8, narrow_range=False, axis=None):
    """Quantize into [0, 2**num_bits - 1] ([1, ...] when narrow) within the nudged [min, max], then dequantize,
    in float32 as TF's FakeQuantWithMinMaxVars(PerChannel) ops (Keras' TF backend calls them); `axis` makes
    min/max per channel. Gradient: straight through inside [min, max], to min where x < min, to max where
    x > max."""
    inputs = _tf.convert_to_tensor(inputs)
    min_vals, max_vals = _tf.convert_to_tensor(min_vals), _tf.convert_to_tensor(max_vals)
    num_bits = int(num_bits)
    if not 2 <= num_bits <= 16:
        raise ValueError(f"fake_quant_with_min_max_vars: num_bits must be between 2 and 16, got {num_bits}")
    dtype = inputs.dtype
    rank = inputs.shape.rank
    channels = None
    if axis is not None:
        axis = axis + rank if axis < 0 else axis
        channels = [1] * rank
        channels[axis] = -1
    reduce_axes = None if axis is None else [i for i in range(rank) if i != axis]

    @_tf.custom_gradient
    def fake_quant(x, min_val, max_val):
        low, high = _tf.cast(min_val, _tf.float32), _tf.cast(max_val, _tf.float32)
        low, high = (_tf.reshape(low, []), _tf.reshape(high, [])) if channels is None else (
            _tf.reshape(low, channels), _tf.reshape(high, channels))
        nudged_min, nudged_max, scale, inv_scale = _nudged_range(low, high, num_bits, narrow_range)
        x32 = _tf.cast(x, _tf.float32)
        shifted = _tf.minimum(_tf.maximum(x32, nudged_min), nudged_max) - nudged_min
        result = _tf.cast(_tf.floor(shifted * inv_scale + 0.5) * scale + nudged_min, dtype)
        inside = _tf.logical_and(x32 >= nudged_min, x32 <= nudged_max)

        def grad(upstream):
            zeros = _tf.zeros_like(upstream)
            below = _tf.where(x32 < nudged_min, upstream, zeros)
            above = _tf.where(x32 > nudged_max, upstream, zeros)
            return (_tf.where(inside, upstream, zeros),
                    _tf.cast(_tf.reshape(_tf.reduce_sum(below, axis=reduce_axes), _tf.shape(min_val)), min_val.dtype),
                    _tf.cast(_tf.reshape(_tf.reduce_sum(above, axis=reduce_axes), _tf.shape(max_val)), max_val.dtype))

        return result, grad

    return fake_quant(inputs, min_vals, max_vals)


# --- float8 scaling --------------------------------------------------------------------------------------------
def compute_float8_scale(amax, scale, dtype_max, margin=0):
    """The next scale of a float8 tensor from its amax (Transformer Engine's update): 1 / (dtype_max / amax / 2**
    margin), keeping the old scale where amax is 0 or not finite."""
    amax = _tf.convert_to_tensor(amax)
    scale = _tf.math.reciprocal(_tf.cast(scale, amax.dtype))
    factor = dtype_max / amax / (2 ** margin)
    factor = _tf.where(amax > 0.0, factor, scale)
    factor = _tf.where(_tf.math.is_finite(amax), factor, scale)
    return _tf.math.reciprocal(factor)


def compute_float8_amax_history(x, amax_history):
    """The amax history rolled by one, with max|x| as its first entry."""
    amax_history = _tf.convert_to_tensor(amax_history)
    update = _tf.cast(_tf.reduce_max(_tf.abs(x)), amax_history.dtype)
    return _tf.tensor_scatter_nd_update(_tf.roll(amax_history, shift=-1, axis=0), [[0]], _tf.reshape(update, [1]))


def quantize_and_dequantize(inputs, scale, quantized_dtype, compute_dtype):
    """x / scale clipped to the quantized dtype's finite range, cast to it and back, times scale."""
    name = _dtype_name(quantized_dtype)
    if name.startswith("float8"):
        raise TypeError(f"quantize_and_dequantize: tinytf has no {name} dtype (no float8 types)")
    if name == "bfloat16":
        limit = 3.3895313892515355e38
    else:  # numpy's finfo: an integer dtype raises ValueError ("not inexact") as Keras' ml_dtypes.finfo does
        limit = float(np.finfo(np.dtype(name)).max)
    limit = _tf.cast(limit, compute_dtype)
    x = _tf.clip_by_value(_tf.cast(inputs, compute_dtype) / _tf.cast(scale, compute_dtype), -limit, limit)
    return _tf.cast(_tf.cast(x, name), compute_dtype) * _tf.cast(scale, compute_dtype)


# --- registry --------------------------------------------------------------------------------------------------
_CLASSES = {"Quantizer": Quantizer, "AbsMaxQuantizer": AbsMaxQuantizer}
_ALIASES = {"quantizer": Quantizer, "abs_max_quantizer": AbsMaxQuantizer}


def serialize(initializer):
    return serialization.serialize(initializer, "keras.quantizers")


def deserialize(config, custom_objects=None):
    return serialization.deserialize(config, _CLASSES, "quantizer", custom_objects)


def get(identifier, **kwargs):
    """A quantizer from a name, a config dict or an object (Keras 3 calls a class with the kwargs dict as its
    first argument, and so does this)."""
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        obj = deserialize(identifier)
    elif isinstance(identifier, str):
        obj = _CLASSES.get(identifier) or _ALIASES.get(identifier)
    else:
        obj = identifier
    if callable(obj):
        return obj(kwargs) if inspect.isclass(obj) else obj
    raise ValueError(f"Could not interpret quantizer identifier: {identifier}")


from .quantization_config import (  # noqa: E402
    AWQConfig,
    Float8QuantizationConfig,
    GPTQConfig,
    Int4QuantizationConfig,
    Int8QuantizationConfig,
    QuantizationConfig,
)
from .quantizers_grouped import abs_max_quantize_grouped_with_zero_point  # noqa: E402

__all__ = ["AWQConfig", "Float8QuantizationConfig", "GPTQConfig", "Int4QuantizationConfig", "Int8QuantizationConfig",
           "QuantizationConfig", "Quantizer", "AbsMaxQuantizer", "abs_max_quantize",
           "abs_max_quantize_grouped_with_zero_point", "compute_float8_amax_history", "compute_float8_scale",
           "deserialize", "fake_quant_with_min_max_vars", "get", "pack_int4", "quantize_and_dequantize", "serialize",
           "unpack_int4"]
