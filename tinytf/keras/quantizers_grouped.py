"""keras.quantizers.abs_max_quantize_grouped_with_zero_point, as Keras 3.15 computes it: asymmetric quantization
of a 2-D kernel (input_dim, output_dim) in groups of block_size rows (zero-padded at the end), each group and
column with its own scale (max - min + epsilon) / (qmax - qmin) and int8 zero point round(-min / scale) + qmin.
The tensor path follows Keras' compute_quantization_parameters (a group whose min equals its max is widened by
1 each way); the to_numpy path is Keras' numpy one (no widening), so the two can differ on constant groups."""

from __future__ import annotations

import math

import numpy as np

import tinytf as _tf

from .backend import epsilon as _epsilon


def _numpy_path(inputs, block_size, value_range, dtype, epsilon):
    original_dtype = _tf.convert_to_tensor(inputs).dtype
    values = np.asarray(inputs.numpy() if hasattr(inputs, "numpy") else inputs)
    input_dim, output_dim = values.shape
    n_groups = math.ceil(input_dim / block_size)
    qmin, qmax = value_range
    padded = n_groups * block_size
    if padded > input_dim:
        values = np.concatenate([values, np.zeros((padded - input_dim, output_dim), values.dtype)], axis=0)
    grouped = values.reshape(n_groups, block_size, output_dim)
    low, high = grouped.min(axis=1, keepdims=True), grouped.max(axis=1, keepdims=True)
    scale = np.divide(np.subtract(high, low) + epsilon, qmax - qmin)
    zero = np.clip(np.round(np.divide(-low, scale)) + qmin, qmin, qmax)
    outputs = np.clip(np.round(np.divide(grouped, scale)) + zero, qmin, qmax).astype(dtype)
    outputs = outputs.reshape(padded, output_dim)[:input_dim]
    return (_tf.convert_to_tensor(outputs), _tf.constant(np.squeeze(scale, 1), original_dtype),
            _tf.convert_to_tensor(np.squeeze(zero, 1).astype("int8")))


def _tensor_path(inputs, block_size, value_range, dtype, epsilon):
    inputs = _tf.convert_to_tensor(inputs)
    compute = inputs.dtype
    input_dim, output_dim = int(inputs.shape[0]), int(inputs.shape[1])
    qmin, qmax = value_range
    bits = int(math.log2(qmax - qmin + 1))
    n_groups = (input_dim + block_size - 1) // block_size if block_size > 0 else 1
    padded = n_groups * block_size
    x = inputs
    if n_groups > 1 and input_dim % block_size:
        x = _tf.pad(x, [[0, padded - input_dim], [0, 0]])
    grouped = _tf.reshape(x, [n_groups, -1, output_dim]) if n_groups > 1 else x[None]
    low, high = _tf.reduce_min(grouped, axis=1), _tf.reduce_max(grouped, axis=1)  # (n_groups, output_dim)
    flat = _tf.equal(low, high)
    low, high = _tf.where(flat, low - 1, low), _tf.where(flat, high + 1, high)
    spread = high - low
    if epsilon > 0:
        spread = spread + epsilon
    scale = spread / _tf.cast(2 ** bits - 1, compute)
    scale = _tf.where(scale <= 0, _tf.constant(1e-8, compute), scale)
    zero = _tf.clip_by_value(_tf.round(-low / scale) + qmin, qmin, 2 ** (bits - 1) - 1)
    zero = _tf.cast(zero, "int8")
    values = inputs
    if padded > input_dim:
        values = _tf.concat([inputs, _tf.zeros((padded - input_dim, output_dim), inputs.dtype)], axis=0)
    values = _tf.reshape(values, (n_groups, block_size, output_dim))
    outputs = _tf.round(values / scale[:, None]) + _tf.cast(zero[:, None], compute)
    outputs = _tf.cast(_tf.clip_by_value(outputs, qmin, qmax), dtype)
    return _tf.reshape(outputs, (padded, output_dim))[:input_dim], scale, zero


def abs_max_quantize_grouped_with_zero_point(inputs, block_size, value_range=(-8, 7), dtype="int8",
                                            epsilon=_epsilon(), to_numpy=False):
    """(quantized like inputs, scale (n_groups, output_dim), int8 zero point (n_groups, output_dim))."""
    if to_numpy:
        return _numpy_path(inputs, block_size, value_range, dtype, epsilon)
    return _tensor_path(inputs, block_size, value_range, dtype, epsilon)
