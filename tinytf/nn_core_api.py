"""tf.nn names built from other tinytf ops (their gradients follow): normalization helpers, losses, crelu, local
response normalization, 1-D pooling and transposed convolutions, the rank-dispatching convolution / pool /
conv_transpose, separable and atrous convolutions, depth_to_space / space_to_depth. Formulas are TF's own
(tensorflow/python/ops/nn_impl.py and nn_ops.py), so results agree to rounding."""

from __future__ import annotations

import math

from tinytf.runtime import dtypes
from tinytf.runtime.dispatch import apply, convert_to_tensor
from tinytf.runtime.errors import InvalidArgumentError
from tinytf.runtime.ops import array as _a
from tinytf.runtime.ops import conv as _conv
from tinytf.runtime.ops import conv3d as _conv3d
from tinytf.runtime.ops import conv_variants as _variants
from tinytf.runtime.ops import indexing as _i
from tinytf.runtime.ops import math as _m
from tinytf.runtime.ops import nn as _nn
from tinytf.runtime.ops import pool3d as _pool3d
from tinytf.runtime.ops import reduce as _r
from tinytf.runtime.ops.static_value import constant_value


# --- normalization and statistics -------------------------------------------------------------------------
def batch_normalization(x, mean, variance, offset, scale, variance_epsilon, name=None):
    """(x - mean) * scale / sqrt(variance + epsilon) + offset, computed as TF does: x * inv + (offset - mean * inv)
    with inv = rsqrt(variance + epsilon) * scale (offset and scale may be None)."""
    x = convert_to_tensor(x)
    inv = _m.rsqrt(convert_to_tensor(variance) + variance_epsilon)
    if scale is not None:
        inv = inv * convert_to_tensor(scale)
    shift = -convert_to_tensor(mean) * inv if offset is None else convert_to_tensor(offset) - convert_to_tensor(
        mean) * inv
    return x * _m.cast(inv, x.dtype) + _m.cast(shift, x.dtype)


def normalize_moments(counts, mean_ss, variance_ss, shift, name=None):
    """(mean, variance) from sufficient statistics: counts, the (shifted) sums and sums of squares."""
    divisor = _m.reciprocal(convert_to_tensor(counts))
    shifted_mean = convert_to_tensor(mean_ss) * divisor
    mean = shifted_mean if shift is None else shifted_mean + convert_to_tensor(shift)
    variance = convert_to_tensor(variance_ss) * divisor - _m.square(shifted_mean)
    return mean, variance


def _axes(axes):
    return [int(a) for a in (axes if isinstance(axes, (list, tuple)) else [axes])]


def sufficient_statistics(x, axes, shift=None, keepdims=False, name=None):
    """(count, sum of x - shift, sum of (x - shift)^2, shift) over `axes`: the inputs of normalize_moments."""
    x = convert_to_tensor(x)
    axes = _axes(axes)
    shape = x._shape
    if shape is not None and all(shape[a] is not None for a in axes):
        count = 1
        for a in axes:
            count *= shape[a]
        counts = convert_to_tensor(float(count), dtype=x.dtype)
    else:
        sizes = _i.gather(_a.shape(x), axes)
        counts = _m.cast(_r.reduce_prod(sizes), x.dtype)
    if shift is not None:
        shift = convert_to_tensor(shift, dtype=x.dtype)
        centered = x - shift
    else:
        centered = x
    m_ss = _r.reduce_sum(centered, axes, keepdims=keepdims)
    v_ss = _r.reduce_sum(_m.square(centered), axes, keepdims=keepdims)
    return counts, m_ss, v_ss, shift


def weighted_moments(x, axes, frequency_weights, keepdims=False, name=None):
    """The frequency-weighted mean and variance of x over `axes` (weights broadcast against x)."""
    x = convert_to_tensor(x)
    weights = _m.cast(convert_to_tensor(frequency_weights), x.dtype)
    axes = _axes(axes)
    weighted_sum = _r.reduce_sum(weights * x, axes, keepdims=True)
    total_weight = _r.reduce_sum(weights + _a.zeros_like(x), axes, keepdims=True)
    divisor = _m.reciprocal(total_weight)
    mean = weighted_sum * divisor
    variance = _r.reduce_sum(weights * _m.squared_difference(x, mean), axes, keepdims=True) * divisor
    if not keepdims:
        mean, variance = _a.squeeze(mean, axes), _a.squeeze(variance, axes)
    return mean, variance


def zero_fraction(value, name=None):
    """The fraction of zeros in `value`, as float32."""
    value = convert_to_tensor(value)
    zero = _m.cast(_m.equal(value, _a.zeros_like(value)), dtypes.float32)
    return _r.reduce_mean(zero)


def local_response_normalization(input, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, name=None):  # noqa: A002
    """input / (bias + alpha * sqr_sum) ** beta, sqr_sum the sum of squares over the channels within depth_radius
    of each channel (the last axis of a 4-D input)."""
    x = convert_to_tensor(input)
    if not x.dtype.is_floating:
        raise TypeError(f"local_response_normalization: the input must be floating, got {x.dtype.name}")
    if x._shape is not None and len(x._shape) != 4:
        raise ValueError(f"local_response_normalization: the input must be 4-D, got shape {list(x._shape)}")
    r = int(depth_radius)
    squared = _a.pad(_m.square(x), [[0, 0], [0, 0], [0, 0], [r, r]])
    channels = _a.shape(x)[3] if x._shape is None or x._shape[3] is None else x._shape[3]
    total = None
    for k in range(2 * r + 1):
        window = squared[:, :, :, k:k + channels]
        total = window if total is None else total + window
    return x / _m.pow(bias + alpha * total, beta)


lrn = local_response_normalization


# --- losses and activations -------------------------------------------------------------------------------
def weighted_cross_entropy_with_logits(labels, logits, pos_weight, name=None):
    """The sigmoid cross entropy with positive examples weighted by pos_weight, in TF's stable form
    (1 - z) * x + (1 + (q - 1) * z) * (log1p(exp(-|x|)) + max(-x, 0))."""
    logits = convert_to_tensor(logits)
    labels = convert_to_tensor(labels, dtype=logits.dtype)
    log_weight = 1.0 + (convert_to_tensor(pos_weight, dtype=logits.dtype) - 1.0) * labels
    return (1.0 - labels) * logits + log_weight * (_m.log1p(_m.exp(-_m.abs(logits))) + _nn.relu(-logits))


def log_poisson_loss(targets, log_input, compute_full_loss=False, name=None):
    """exp(log_input) - log_input * targets; with compute_full_loss, Stirling's approximation of log(targets!)
    added where targets > 1."""
    log_input = convert_to_tensor(log_input)
    targets = convert_to_tensor(targets, dtype=log_input.dtype)
    if targets._shape is not None and log_input._shape is not None and targets._shape != log_input._shape:
        raise ValueError(f"log_input and targets must have the same shape ({list(log_input._shape)} vs "
                         f"{list(targets._shape)})")
    result = _m.exp(log_input) - log_input * targets
    if compute_full_loss:
        safe = _m.maximum(targets, _a.ones_like(targets))  # no log(0) where the mask drops the term anyway
        stirling = safe * _m.log(safe) - safe + 0.5 * _m.log((2.0 * math.pi) * safe)
        mask = _m.logical_and(_m.greater(targets, 0.0), _m.less_equal(targets, 1.0))
        result = result + _i.where(mask, _a.zeros_like(targets), _i.where(_m.greater(targets, 1.0), stirling,
                                                                              _a.zeros_like(targets)))
    return result


def crelu(features, axis=-1, name=None):
    """concat([relu(x), relu(-x)], axis): the positive and negative parts as separate channels."""
    x = convert_to_tensor(features)
    return _a.concat([_nn.relu(x), _nn.relu(-x)], axis)


# --- pooling and convolution by rank -----------------------------------------------------------------------
def _one(value, what, op_name):
    """A 1-D window/stride: an int or a list of 1 or 3 ints (N and C of 3 must be 1)."""
    if hasattr(value, "numpy"):
        value = value.numpy().tolist()
    value = [int(value)] if isinstance(value, int) else [int(v) for v in value]
    if len(value) == 3:
        if value[0] != 1 or value[2] != 1:
            raise ValueError(f"{op_name}: {what} in the batch and channel dimensions must be 1 (NWC), got {value}")
        value = value[1:2]
    if len(value) != 1:
        raise ValueError(f"{op_name}: {what} must be an int or a list of 1 or 3 ints, got {value}")
    return value[0]


def _pool1d(pool2d, input, ksize, strides, padding, data_format, op_name):  # noqa: A002
    if data_format not in (None, "NWC"):
        raise ValueError(f"{op_name}: only the NWC data format is supported (as on TF's CPU), got {data_format!r}")
    x = _a.expand_dims(convert_to_tensor(input), 1)
    if isinstance(padding, (list, tuple)) and len(padding) == 3:  # explicit [[0, 0], [left, right], [0, 0]]
        padding = [padding[0], [0, 0], padding[1], padding[2]]
    out = pool2d(x, [1, _one(ksize, "ksize", op_name)], [1, _one(strides, "strides", op_name)], padding)
    return _a.squeeze(out, [1])


def max_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):  # noqa: A002
    """`tf.nn.max_pool1d`: the maximum of each window of an NWC input (a max_pool2d of height 1)."""
    return _pool1d(_conv.max_pool2d, input, ksize, strides, padding, data_format, "max_pool1d")


def avg_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):  # noqa: A002
    """`tf.nn.avg_pool1d`: the mean of each window of an NWC input (SAME averages real elements only)."""
    return _pool1d(_conv.avg_pool2d, input, ksize, strides, padding, data_format, "avg_pool1d")


def conv1d_transpose(input, filters, output_shape, strides, padding="SAME", data_format="NWC",  # noqa: A002
                     dilations=None, name=None):
    """`tf.nn.conv1d_transpose`: the gradient of conv1d for its input; filters (w, C_out, C_in)."""
    if data_format not in (None, "NWC"):
        raise ValueError(f"conv1d_transpose: only the NWC data format is supported, got {data_format!r}")
    out = [int(v) for v in (output_shape.numpy() if hasattr(output_shape, "numpy") else output_shape)]
    if len(out) != 3:
        raise ValueError(f"conv1d_transpose: output_shape must have 3 elements (NWC), got {out}")
    stride = _one(strides, "strides", "conv1d_transpose")
    dilation = 1 if dilations is None else _one(dilations, "dilations", "conv1d_transpose")
    x = _a.expand_dims(convert_to_tensor(input), 1)
    f = _a.expand_dims(convert_to_tensor(filters), 0)
    y = _variants.conv2d_transpose(x, f, [out[0], 1, out[1], out[2]], [1, stride], padding,
                                   dilations=[1, dilation])
    return _a.squeeze(y, [1])


def _rank(x, op_name):
    if x._shape is None:
        raise ValueError(f"{op_name}: the input's rank must be known")
    return len(x._shape)


def convolution(input, filters, strides=None, padding="VALID", data_format=None, dilations=None,  # noqa: A002
                name=None):
    """`tf.nn.convolution`: conv1d, conv2d or conv3d by the input's rank (3, 4 or 5)."""
    x, f = convert_to_tensor(input), convert_to_tensor(filters)
    rank = _rank(x, "convolution")
    strides = 1 if strides is None else strides
    dilations = 1 if dilations is None else dilations
    if rank == 3:
        return _variants.conv1d(x, f, strides, padding, data_format or "NWC", dilations=dilations)
    if rank == 4:
        return _conv.conv2d(x, f, strides, padding, data_format or "NHWC", dilations=dilations)
    if rank == 5:
        return _conv3d.conv3d(x, f, strides, padding, data_format or "NDHWC", dilations=dilations)
    raise ValueError(f"convolution: the input must have rank 3, 4 or 5 (1-3 spatial dimensions), got rank {rank}")


def conv_transpose(input, filters, output_shape, strides, padding="SAME", data_format=None,  # noqa: A002
                   dilations=None, name=None):
    """`tf.nn.conv_transpose`: conv1d_transpose, conv2d_transpose or conv3d_transpose by len(output_shape)."""
    n = len(output_shape.numpy() if hasattr(output_shape, "numpy") else output_shape)
    if n == 3:
        return conv1d_transpose(input, filters, output_shape, strides, padding, data_format or "NWC", dilations)
    if n == 4:
        return _variants.conv2d_transpose(input, filters, output_shape, strides, padding, data_format or "NHWC",
                                          dilations)
    if n == 5:
        return _conv3d.conv3d_transpose(input, filters, output_shape, strides, padding, data_format or "NDHWC",
                                        dilations)
    raise ValueError(f"conv_transpose: output_shape must have 3, 4 or 5 elements, got {n}")


def pool(input, window_shape, pooling_type, strides=None, padding="VALID", data_format=None,  # noqa: A002
         dilations=None, name=None):
    """`tf.nn.pool`: MAX or AVG pooling with 1, 2 or 3 spatial dimensions (dilations must be 1)."""
    x = convert_to_tensor(input)
    n = len(window_shape)
    if pooling_type not in ("MAX", "AVG"):
        raise ValueError(f"pool: pooling_type must be 'MAX' or 'AVG', got {pooling_type!r}")
    strides = [1] * n if strides is None else list(strides)
    if dilations is not None and any(int(d) != 1 for d in dilations):
        raise NotImplementedError("pool: dilations > 1 (TF's space_to_batch form) is not implemented in tinytf")
    if n == 1:
        fn = max_pool1d if pooling_type == "MAX" else avg_pool1d
        return fn(x, window_shape, strides, padding, data_format or "NWC")
    if n == 2:
        fn = _conv.max_pool2d if pooling_type == "MAX" else _conv.avg_pool2d
        return fn(x, list(window_shape), strides, padding, data_format or "NHWC")
    if n == 3:
        fn = _pool3d.max_pool3d if pooling_type == "MAX" else _pool3d.avg_pool3d
        return fn(x, list(window_shape), strides, padding, data_format or "NDHWC")
    raise ValueError(f"pool: window_shape must have 1, 2 or 3 elements, got {list(window_shape)}")


def separable_conv2d(input, depthwise_filter, pointwise_filter, strides, padding, data_format=None,  # noqa: A002
                     dilations=None, name=None):
    """A depthwise convolution followed by a 1x1 convolution mixing its channels."""
    depthwise = _variants.depthwise_conv2d(input, depthwise_filter, strides, padding, data_format, dilations)
    return _conv.conv2d(depthwise, pointwise_filter, 1, "VALID")


def atrous_conv2d(value, filters, rate, padding, name=None):
    """A conv2d with holes: dilations=rate, stride 1."""
    return _conv.conv2d(value, filters, 1, padding, dilations=int(rate))


def atrous_conv2d_transpose(value, filters, output_shape, rate, padding, name=None):
    """The transpose of atrous_conv2d: conv2d_transpose with dilations=rate, stride 1."""
    if int(rate) < 1:
        raise ValueError(f"rate {rate} cannot be less than one")
    return _variants.conv2d_transpose(value, filters, output_shape, 1, padding, dilations=int(rate))


# --- depth_to_space / space_to_depth ---------------------------------------------------------------------------
def _dims(x, op_name):
    if x._shape is None or len(x._shape) != 4:
        raise ValueError(f"{op_name}: the input must be 4-D (NHWC), got shape "
                         f"{None if x._shape is None else list(x._shape)}")
    shape = _a.shape(x)
    return [shape[i] if x._shape[i] is None else x._shape[i] for i in range(4)]


def _check_format(data_format, op_name):
    if data_format not in (None, "NHWC"):
        raise ValueError(f"{op_name}: only the NHWC data format is supported (as on TF's CPU), got {data_format!r}")


def depth_to_space(input, block_size, data_format="NHWC", name=None):  # noqa: A002
    """Blocks of channels moved into block_size x block_size spatial blocks: (N, H, W, C) to
    (N, H * b, W * b, C / b^2), channel order (row, column, channel) as TF's DCR layout."""
    _check_format(data_format, "depth_to_space")
    x = convert_to_tensor(input)
    b = int(block_size)
    n, h, w, c = _dims(x, "depth_to_space")
    if isinstance(c, int) and c % (b * b):
        raise InvalidArgumentError(f"depth_to_space: the input depth {c} must be divisible by block_size * "
                                   f"block_size = {b * b}")
    y = _a.reshape(x, _a.stack([n, h, w, b, b, c // (b * b)]) if not _static(n, h, w, c) else
                   [n, h, w, b, b, c // (b * b)])
    y = _a.transpose(y, [0, 1, 3, 2, 4, 5])
    return _a.reshape(y, _a.stack([n, h * b, w * b, c // (b * b)]) if not _static(n, h, w, c) else
                      [n, h * b, w * b, c // (b * b)])


def space_to_depth(input, block_size, data_format="NHWC", name=None):  # noqa: A002
    """block_size x block_size spatial blocks moved into channels: (N, H, W, C) to (N, H / b, W / b, C * b^2)."""
    _check_format(data_format, "space_to_depth")
    x = convert_to_tensor(input)
    b = int(block_size)
    n, h, w, c = _dims(x, "space_to_depth")
    for size, what in ((h, "height"), (w, "width")):
        if isinstance(size, int) and size % b:
            raise InvalidArgumentError(f"space_to_depth: the input {what} {size} must be divisible by block_size {b}")
    y = _a.reshape(x, _a.stack([n, h // b, b, w // b, b, c]) if not _static(n, h, w, c) else
                   [n, h // b, b, w // b, b, c])
    y = _a.transpose(y, [0, 1, 3, 2, 4, 5])
    return _a.reshape(y, _a.stack([n, h // b, w // b, c * b * b]) if not _static(n, h, w, c) else
                      [n, h // b, w // b, c * b * b])


def _static(*dims):
    return all(isinstance(d, int) for d in dims)


# --- gradients of depthwise_conv2d as functions ------------------------------------------------------------------
def depthwise_conv2d_backprop_input(input_sizes, filter, out_backprop, strides, padding,  # noqa: A002
                                    data_format="NHWC", dilations=(1, 1, 1, 1), name=None):
    """The gradient of depthwise_conv2d for its input of shape input_sizes (NHWC)."""
    _check_format(data_format, "depthwise_conv2d_backprop_input")
    sizes = constant_value(convert_to_tensor(input_sizes))
    if sizes is None:
        raise ValueError("depthwise_conv2d_backprop_input: input_sizes must be known when the function is traced")
    attrs = {"shape": tuple(int(v) for v in sizes[1:]),
             "strides": _conv._spatial_pair(strides, "strides", "depthwise_conv2d_backprop_input"),
             "padding": _conv._padding(padding, "depthwise_conv2d_backprop_input", explicit_ok=True),
             "dilations": _conv._spatial_pair(dilations, "dilations", "depthwise_conv2d_backprop_input")}
    return apply(_variants.depthwise_backprop_input_op, (convert_to_tensor(out_backprop), convert_to_tensor(filter)),
                 attrs)


def depthwise_conv2d_backprop_filter(input, filter_sizes, out_backprop, strides, padding,  # noqa: A002
                                     data_format="NHWC", dilations=(1, 1, 1, 1), name=None):
    """The gradient of depthwise_conv2d for its filter of shape filter_sizes (h, w, C, multiplier)."""
    _check_format(data_format, "depthwise_conv2d_backprop_filter")
    sizes = constant_value(convert_to_tensor(filter_sizes))
    if sizes is None:
        raise ValueError("depthwise_conv2d_backprop_filter: filter_sizes must be known when the function is traced")
    attrs = {"filter_shape": tuple(int(v) for v in sizes),
             "strides": _conv._spatial_pair(strides, "strides", "depthwise_conv2d_backprop_filter"),
             "padding": _conv._padding(padding, "depthwise_conv2d_backprop_filter", explicit_ok=True),
             "dilations": _conv._spatial_pair(dilations, "dilations", "depthwise_conv2d_backprop_filter")}
    return apply(_variants.depthwise_backprop_filter_op, (convert_to_tensor(input), convert_to_tensor(out_backprop)),
                 attrs)
