"""keras.ops.nn: activations, convolution and pooling, normalization, cross-entropies and attention with
Keras 3's signatures and defaults (kernels shaped (*spatial, in, out), `padding="valid"`, data_format from
keras.config.image_data_format(), ops.gelu approximate by default), composed of tinytf's public functions."""

from __future__ import annotations

import math as _math

import numpy as np

import tinytf as tf

from .. import config
from .core import cast, convert_to_tensor
from .dtype_rules import result_type, standardize_dtype
from .numpy import _float_input, clip, log10, matmul, moveaxis
from .symbolic import export_all


def _activation_input(x):
    """Activations take tensors as they are: TF's kernels decide which dtypes they accept (relu keeps ints,
    sigmoid refuses them), as on Keras' TensorFlow backend."""
    return convert_to_tensor(x)


def relu(x):
    return tf.nn.relu(_activation_input(x))


def relu6(x):
    return tf.nn.relu6(_activation_input(x))


def sigmoid(x):
    return tf.sigmoid(_activation_input(x))


def sparse_sigmoid(x):
    """0 below -1, 1 above 1, (x + 1) / 2 between."""
    x = _activation_input(x)
    return tf.where(x <= -1, tf.zeros_like(x), tf.where(x >= 1, tf.ones_like(x), 0.5 * (x + 1)))


def softplus(x):
    return tf.nn.softplus(_activation_input(x))


def softsign(x):
    return tf.nn.softsign(_activation_input(x))


def soft_shrink(x, threshold=0.5):
    """x - threshold above it, x + threshold below -threshold, 0 between."""
    x = _activation_input(x)
    return tf.where(x > threshold, x - threshold, tf.where(x < -threshold, x + threshold, tf.zeros_like(x)))


def sparse_plus(x):
    """0 below -1, x above 1, (x + 1)**2 / 4 between: a smooth ReLU with compact support."""
    x = _activation_input(x)
    return tf.where(x <= -1, tf.zeros_like(x), tf.where(x < 1, 0.25 * tf.square(x + 1), x))


def silu(x):
    return tf.nn.silu(_activation_input(x))


swish = silu


def squareplus(x, b=4):
    """(x + sqrt(x**2 + b)) / 2."""
    x = _activation_input(x)
    return (x + tf.sqrt(tf.square(x) + tf.cast(b, x.dtype))) / 2


def log_sigmoid(x):
    return tf.math.log_sigmoid(_activation_input(x))


def leaky_relu(x, negative_slope=0.2):
    """x, times negative_slope below 0; integer inputs become floatx (as tf.nn.leaky_relu casts them)."""
    x = _activation_input(x)
    if x.dtype.is_integer:
        x = cast(x, config.floatx())
    return tf.nn.leaky_relu(x, alpha=negative_slope)


def hard_sigmoid(x):
    """relu6(x + 3) / 6."""
    x = _activation_input(x)
    # the constants take x's dtype first, as Keras' TF backend writes it (an int32 x is a TypeError there)
    return tf.nn.relu6(x + tf.constant(3.0, x.dtype)) / tf.constant(6.0, x.dtype)


def hard_silu(x):
    """x * hard_sigmoid(x)."""
    x = _activation_input(x)
    return x * hard_sigmoid(x)


hard_swish = hard_silu


def elu(x, alpha=1.0):
    x = _activation_input(x)
    out = tf.nn.elu(x)
    return out if alpha == 1.0 else tf.where(x > 0, x, alpha * out)


def selu(x):
    return tf.nn.selu(_activation_input(x))


def celu(x, alpha=1.0):
    """max(x, 0) + alpha * expm1(min(x, 0) / alpha)."""
    x = _activation_input(x)
    return tf.maximum(x, 0.0) + alpha * tf.math.expm1(tf.minimum(x, 0.0) / alpha)


def glu(x, axis=-1):
    """a * sigmoid(b), a and b the two halves of x along axis."""
    x = _activation_input(x)
    if x.shape[axis] is not None and x.shape[axis] % 2 != 0:
        raise ValueError(f"axis size must be divisible by 2. Received: x.shape={tuple(x.shape)} with axis={axis}")
    a, b = tf.split(x, 2, axis=axis)
    return a * tf.sigmoid(b)


def hard_tanh(x):
    """x clipped to [-1, 1]."""
    x = _activation_input(x)
    return tf.clip_by_value(x, -1.0, 1.0)


def hard_shrink(x, threshold=0.5):
    """x where |x| > threshold, else 0."""
    x = _activation_input(x)
    return tf.where(tf.abs(x) > threshold, x, tf.zeros_like(x))


def tanh_shrink(x):
    """x - tanh(x)."""
    x = _activation_input(x)
    return x - tf.tanh(x)


def threshold(x, threshold, default_value):
    """x where x > threshold, else default_value."""
    x = convert_to_tensor(x)
    return tf.where(x > threshold, x, tf.cast(default_value, x.dtype))


def gelu(x, approximate=True):
    """The Gaussian error linear unit; keras.ops' default is the tanh approximation."""
    x = _activation_input(x)
    if not x.dtype.is_floating:
        raise ValueError(f"`features.dtype` must be a floating point tensor. Received: features.dtype={x.dtype.name}")
    return tf.nn.gelu(x, approximate=approximate)


def softmax(x, axis=-1):
    """exp(x) / sum(exp(x)) along axis (axis None: over every element)."""
    x = _activation_input(x)
    if axis is None:
        return tf.reshape(tf.nn.softmax(tf.reshape(x, [-1])), tf.shape(x))
    if isinstance(axis, (tuple, list)):
        shifted = x - tf.stop_gradient(tf.reduce_max(x, axis=list(axis), keepdims=True))
        e = tf.exp(shifted)
        return e / tf.reduce_sum(e, axis=list(axis), keepdims=True)
    return tf.nn.softmax(x, axis=axis)


def log_softmax(x, axis=-1):
    x = _activation_input(x)
    if axis is None:
        return tf.reshape(tf.nn.log_softmax(tf.reshape(x, [-1])), tf.shape(x))
    if isinstance(axis, (tuple, list)):
        shifted = x - tf.stop_gradient(tf.reduce_max(x, axis=list(axis), keepdims=True))
        return shifted - tf.math.log(tf.reduce_sum(tf.exp(shifted), axis=list(axis), keepdims=True))
    return tf.nn.log_softmax(x, axis=axis)


def sparsemax(x, axis=-1):
    """The Euclidean projection of x onto the probability simplex along axis: probabilities with exact zeros.
    tau = (sum of the k largest - 1) / k, k the size of the support (Martins & Astudillo, 2016)."""
    logits = _activation_input(x)
    rank = len(logits.shape)
    axis = axis % rank
    ordered = -tf.sort(-logits, axis=axis)
    cumulative = tf.cumsum(ordered, axis=axis)
    r_shape = [1] * rank
    r_shape[axis] = -1
    r = tf.reshape(tf.range(1, tf.shape(logits)[axis] + 1, dtype=logits.dtype), r_shape)
    support = tf.cast(ordered - (cumulative - 1) / r > 0, logits.dtype)
    k = tf.reduce_sum(support, axis=axis, keepdims=True)
    top_sum = tf.reduce_sum(support * ordered, axis=axis, keepdims=True)
    tau = (top_sum - 1) / k
    return tf.maximum(logits - tau, 0.0)


# --- convolution and pooling ---------------------------------------------------------------------------------
def _data_format(data_format):
    data_format = data_format or config.image_data_format()
    if data_format not in ("channels_last", "channels_first"):
        raise ValueError("The `data_format` argument must be one of {'channels_first', 'channels_last'}. "
                         f"Received: data_format={data_format}")
    return data_format


def _to_channels_last(x, data_format):
    return moveaxis(x, 1, -1) if data_format == "channels_first" else x


def _from_channels_last(x, data_format):
    return moveaxis(x, -1, 1) if data_format == "channels_first" else x


def _tuple(value, n):
    return (value,) * n if isinstance(value, int) else tuple(value)


def conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    """N-D convolution (1-D and 2-D here), kernel (*spatial, in_channels, out_channels)."""
    data_format = _data_format(data_format)
    x = _to_channels_last(convert_to_tensor(inputs), data_format)
    kernel = convert_to_tensor(kernel, x.dtype)
    spatial = len(x.shape) - 2
    strides, dilations = _tuple(strides, spatial), _tuple(dilation_rate, spatial)
    pad = padding.upper()
    if spatial == 1:
        out = tf.nn.conv1d(x, kernel, strides[0], pad, dilations=dilations[0])
    elif spatial == 2:
        out = tf.nn.conv2d(x, kernel, list(strides), pad, dilations=list(dilations))
    else:
        raise NotImplementedError(f"keras.ops.conv: {spatial}-D convolution is not available in tinytf yet "
                                  "(1-D and 2-D are).")
    return _from_channels_last(out, data_format)


def depthwise_conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    """2-D depthwise convolution, kernel (h, w, in_channels, channel_multiplier); 1-D as a height-1 2-D one."""
    data_format = _data_format(data_format)
    x = _to_channels_last(convert_to_tensor(inputs), data_format)
    kernel = convert_to_tensor(kernel, x.dtype)
    spatial = len(x.shape) - 2
    strides, dilations = _tuple(strides, spatial), _tuple(dilation_rate, spatial)
    if spatial == 1:
        x, kernel = tf.expand_dims(x, 1), tf.expand_dims(kernel, 0)
        strides, dilations = (1, *strides), (1, *dilations)
    elif spatial != 2:
        raise NotImplementedError("keras.ops.depthwise_conv supports 1-D and 2-D inputs.")
    out = tf.nn.depthwise_conv2d(x, kernel, [1, *strides, 1], padding.upper(), dilations=list(dilations))
    if spatial == 1:
        out = tf.squeeze(out, 1)
    return _from_channels_last(out, data_format)


def separable_conv(inputs, depthwise_kernel, pointwise_kernel, strides=1, padding="valid", data_format=None,
                   dilation_rate=1):
    """A depthwise convolution followed by a 1x1 convolution mixing the channels."""
    out = depthwise_conv(inputs, depthwise_kernel, strides, padding, data_format, dilation_rate)
    return conv(out, pointwise_kernel, 1, "valid", data_format)


def conv_transpose(inputs, kernel, strides=1, padding="valid", output_padding=None, data_format=None,
                   dilation_rate=1):
    """The transpose (gradient) of a 2-D or 1-D convolution, kernel (*spatial, out_channels, in_channels);
    output sizes as Keras computes them."""
    data_format = _data_format(data_format)
    x = _to_channels_last(convert_to_tensor(inputs), data_format)
    kernel = convert_to_tensor(kernel, x.dtype)
    spatial = len(x.shape) - 2
    strides = _tuple(strides, spatial)
    paddings = [None] * spatial if output_padding is None else list(_tuple(output_padding, spatial))
    size = []
    for i in range(spatial):
        n, k, s = x.shape[1 + i], kernel.shape[i], strides[i]
        if paddings[i] is None:
            size.append(n * s if padding == "same" else n * s + max(k - s, 0))
        else:
            size.append((n - 1) * s + k - (2 * (k // 2) if padding == "same" else 0) + paddings[i])
    if spatial == 1:
        x, kernel, strides, size = tf.expand_dims(x, 1), tf.expand_dims(kernel, 0), (1, *strides), [1, *size]
    elif spatial != 2:
        raise NotImplementedError("keras.ops.conv_transpose supports 1-D and 2-D inputs.")
    batch = tf.shape(x)[0]
    out = tf.nn.conv2d_transpose(x, kernel, tf.stack([batch, *size, kernel.shape[-2]]), list(strides),
                                 padding.upper())
    if spatial == 1:
        out = tf.squeeze(out, 1)
    return _from_channels_last(out, data_format)


def _pool(fn, inputs, pool_size, strides, padding, data_format):
    data_format = _data_format(data_format)
    x = _to_channels_last(convert_to_tensor(inputs), data_format)
    spatial = len(x.shape) - 2
    pool_size = _tuple(pool_size, spatial)
    strides = pool_size if strides is None else _tuple(strides, spatial)
    if spatial == 1:
        out = tf.squeeze(fn(tf.expand_dims(x, 1), [1, 1, *pool_size, 1][1:] if False else [1, 1, pool_size[0], 1],
                            [1, 1, strides[0], 1], padding.upper()), 1)
    elif spatial == 2:
        out = fn(x, [1, *pool_size, 1], [1, *strides, 1], padding.upper())
    else:
        raise NotImplementedError("keras.ops pooling supports 1-D and 2-D inputs.")
    return _from_channels_last(out, data_format)


def max_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    return _pool(tf.nn.max_pool, inputs, pool_size, strides, padding, data_format)


def average_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    return _pool(tf.nn.avg_pool, inputs, pool_size, strides, padding, data_format)


# --- encodings, losses, normalization ------------------------------------------------------------------------
def one_hot(x, num_classes, axis=-1, dtype=None, sparse=False):
    """Integer labels as one-hot vectors (float32 unless dtype; negative labels give all zeros)."""
    if sparse:
        raise ValueError("keras.ops.one_hot(sparse=True) is not supported by tinytf; use sparse=False.")
    x = cast(x, "int64")
    dtype = "float32" if dtype is None else standardize_dtype(dtype)
    if dtype == "bool":
        return tf.one_hot(x, num_classes, on_value=True, off_value=False, axis=axis, dtype="bool")
    return tf.one_hot(x, num_classes, axis=axis, dtype=dtype)


def multi_hot(inputs, num_classes=None, axis=-1, dtype=None, sparse=False, **kwargs):
    """A batch of label lists (or one list) as one vector per row with a 1 at each label."""
    num_classes = kwargs.pop("num_tokens", num_classes)
    x = convert_to_tensor(inputs)
    reduction_axis = 1 if len(x.shape) > 1 else 0
    outputs = one_hot(x, num_classes, axis=axis, dtype=dtype, sparse=sparse)
    if standardize_dtype(outputs.dtype) == "bool":
        return tf.reduce_any(outputs, axis=reduction_axis)
    return tf.reduce_max(outputs, axis=reduction_axis)


def _check_same_shape(target, output):
    if len(target.shape) != len(output.shape):
        raise ValueError("Arguments `target` and `output` must have the same rank (ndim). Received: "
                         f"target.shape={tuple(target.shape)}, output.shape={tuple(output.shape)}")
    for a, b in zip(target.shape, output.shape):
        if a is not None and b is not None and a != b:
            raise ValueError("Arguments `target` and `output` must have the same shape. Received: "
                             f"target.shape={tuple(target.shape)}, output.shape={tuple(output.shape)}")


def binary_crossentropy(target, output, from_logits=False):
    """Elementwise binary cross-entropy (probabilities clipped to [eps, 1 - eps])."""
    target, output = convert_to_tensor(target), convert_to_tensor(output)
    _check_same_shape(target, output)
    target = cast(target, output.dtype)
    if from_logits:
        return tf.nn.sigmoid_cross_entropy_with_logits(labels=target, logits=output)
    eps = config.epsilon()
    output = tf.clip_by_value(output, eps, 1.0 - eps)
    return -(target * tf.math.log(output) + (1.0 - target) * tf.math.log(1.0 - output))


def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """Cross-entropy of one-hot targets along axis; probabilities are renormalized and clipped."""
    target, output = convert_to_tensor(target), convert_to_tensor(output)
    _check_same_shape(target, output)
    if len(target.shape) < 1:
        raise ValueError(f"Arguments `target` and `output` must be at least rank 1. Received: "
                         f"target.shape={tuple(target.shape)}, output.shape={tuple(output.shape)}")
    target = cast(target, output.dtype)
    if from_logits:
        return -tf.reduce_sum(target * tf.nn.log_softmax(output, axis=axis), axis=axis)
    output = output / tf.reduce_sum(output, axis=axis, keepdims=True)
    eps = config.epsilon()
    output = tf.clip_by_value(output, eps, 1.0 - eps)
    return -tf.reduce_sum(target * tf.math.log(output), axis=axis)


def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """Cross-entropy of integer targets against the last axis of output."""
    output = convert_to_tensor(output)
    if axis != -1 and axis != len(output.shape) - 1:
        raise ValueError(f"Only axis=-1 is currently supported. Received: axis={axis}")
    target = cast(target, "int64")
    if len(target.shape) == len(output.shape) and target.shape[-1] == 1:
        target = tf.squeeze(target, -1)
    if len(target.shape) != len(output.shape) - 1:
        raise ValueError("Argument `output` must have rank (ndim) `target.ndim - 1`. Received: "
                         f"target.shape={tuple(target.shape)}, output.shape={tuple(output.shape)}")
    if from_logits:
        log_probs = tf.nn.log_softmax(output, axis=-1)
    else:
        output = output / tf.reduce_sum(output, axis=-1, keepdims=True)
        eps = config.epsilon()
        log_probs = tf.math.log(tf.clip_by_value(output, eps, 1.0 - eps))
    picked = tf.one_hot(target, output.shape[-1] if output.shape[-1] is not None else tf.shape(output)[-1],
                        dtype=output.dtype)
    return -tf.reduce_sum(picked * log_probs, axis=-1)


def moments(x, axes, keepdims=False, synchronized=False):
    """(mean, variance) over axes; float16 statistics are computed in float32."""
    x = convert_to_tensor(x)
    original = standardize_dtype(x.dtype)
    if original in ("float16", "bfloat16"):
        x = cast(x, "float32")
    axes = list(axes) if isinstance(axes, (tuple, list)) else [axes]
    mean = tf.reduce_mean(x, axis=axes, keepdims=True)
    variance = tf.reduce_mean(tf.square(x - tf.stop_gradient(mean)), axis=axes, keepdims=True)
    if not keepdims:
        mean, variance = tf.squeeze(mean, axes), tf.squeeze(variance, axes)
    if original in ("float16", "bfloat16"):
        mean, variance = cast(mean, original), cast(variance, original)
    return mean, variance


def batch_normalization(x, mean, variance, axis, offset=None, scale=None, epsilon=1e-3):
    """(x - mean) / sqrt(variance + epsilon) * scale + offset, the 1-D statistics laid along `axis`."""
    x = convert_to_tensor(x)
    shape = [1] * len(x.shape)
    shape[axis] = -1

    def laid(v):
        return None if v is None else tf.reshape(convert_to_tensor(v, x.dtype), shape)

    mean, variance, offset, scale = laid(mean), laid(variance), laid(offset), laid(scale)
    inv = tf.math.rsqrt(variance + epsilon)
    if scale is not None:
        inv = inv * scale
    out = x * inv + ((offset - mean * inv) if offset is not None else -mean * inv)
    return out


def normalize(x, axis=-1, order=2, epsilon=None):
    """x divided by its `order`-norm along axis (at least epsilon)."""
    x = convert_to_tensor(x)
    epsilon = config.epsilon() if epsilon is None else epsilon
    if order == 2:
        square_sum = tf.reduce_sum(tf.square(x), axis=axis, keepdims=True)
        return x * tf.math.rsqrt(tf.maximum(square_sum, epsilon))
    norm = tf.reduce_sum(tf.abs(x) ** order, axis=axis, keepdims=True) ** (1.0 / order)
    return x / tf.maximum(norm, epsilon)


def rms_normalization(x, scale=None, axis=-1, epsilon=None):
    """x / sqrt(mean(x**2) + epsilon) * scale (no scale: 1)."""
    x = convert_to_tensor(x)
    epsilon = config.epsilon() if epsilon is None else epsilon
    rrms = tf.math.rsqrt(tf.reduce_mean(tf.square(x), axis=axis, keepdims=True) + epsilon)
    return x * rrms if scale is None else x * rrms * tf.cast(scale, x.dtype)


def layer_normalization(x, gamma=None, beta=None, axis=-1, epsilon=None, **kwargs):
    """(x - mean) / sqrt(var + epsilon) over axis, then * gamma + beta."""
    x = convert_to_tensor(x)
    epsilon = config.epsilon() if epsilon is None else epsilon
    axes = list(axis) if isinstance(axis, (tuple, list)) else [axis]
    mean, variance = moments(x, axes, keepdims=True)
    out = (x - mean) * tf.math.rsqrt(variance + epsilon)
    if gamma is not None:
        out = out * tf.cast(gamma, x.dtype)
    if beta is not None:
        out = out + tf.cast(beta, x.dtype)
    return out


def psnr(x1, x2, max_val):
    """Peak signal-to-noise ratio, 20 log10(max_val) - 10 log10(mse)."""
    x1, x2 = convert_to_tensor(x1), convert_to_tensor(x2)
    if tuple(x1.shape) != tuple(x2.shape):
        raise ValueError(f"Input shapes {tuple(x1.shape)} and {tuple(x2.shape)} must match for PSNR calculation. ")
    max_val = convert_to_tensor(max_val, x2.dtype)
    mse = tf.reduce_mean(tf.square(x1 - x2))
    return 20 * log10(max_val) - 10 * log10(mse)


def dot_product_attention(query, key, value, bias=None, mask=None, scale=None, is_causal=False,
                          flash_attention=None, attn_logits_soft_cap=None):
    """softmax(q k^T * scale + bias, masked) v for (batch, seq, heads, dim) inputs (grouped heads allowed)."""
    if flash_attention:
        raise ValueError("Flash attention is not supported in tensorflow backend.")
    query, key, value = convert_to_tensor(query), convert_to_tensor(key), convert_to_tensor(value)
    if len(query.shape) != 4:
        raise ValueError(f"`dot_product_attention` only supports 4D inputs. Received: query.shape={query.shape}, "
                         f"key.shape={key.shape}, value.shape={value.shape}.")
    dtype = result_type(query.dtype, key.dtype, value.dtype)
    query, key, value = cast(query, dtype), cast(key, dtype), cast(value, dtype)
    heads, kv_heads = query.shape[2], key.shape[2]
    if heads != kv_heads:
        groups = heads // kv_heads
        key = tf.gather(key, [h // groups for h in range(heads)], axis=2)
        value = tf.gather(value, [h // groups for h in range(heads)], axis=2)
    scale = 1.0 / _math.sqrt(query.shape[-1]) if scale is None else scale
    logits = tf.einsum("BTNH,BSNH->BNTS", query, key) * tf.cast(scale, dtype)
    if attn_logits_soft_cap is not None:
        logits = tf.tanh(logits / attn_logits_soft_cap) * attn_logits_soft_cap
    if bias is not None:
        logits = logits + cast(bias, dtype)
    large_negative = -0.7 * float(tf.as_dtype(dtype).max) if dtype != "float16" else -65500.0 * 0.7
    keep = None
    if mask is not None:
        keep = cast(mask, "bool")
    if is_causal:
        t, s = logits.shape[2], logits.shape[3]
        causal = tf.range(s)[None, :] <= tf.range(t)[:, None]
        keep = causal if keep is None else tf.logical_and(keep, causal)
    if keep is not None:
        logits = tf.where(keep, logits, tf.constant(large_negative, dtype))
    # half-precision logits are normalized in float32, as Keras does; float64 stays float64
    probs = cast(tf.nn.softmax(cast(logits, result_type(dtype, "float32")), axis=-1), dtype)
    return tf.einsum("BNTS,BSNH->BTNH", probs, value)



# --- rearrangements and adaptive pooling ---------------------------------------------------------------------
def depth_to_space(x, block_size, data_format="channels_last"):
    """(N, H, W, C) -> (N, H*b, W*b, C/b^2): channel blocks become b x b spatial blocks."""
    x = convert_to_tensor(x)
    if data_format == "channels_first":
        x = tf.transpose(x, [0, 2, 3, 1])
    b = block_size
    n, h, w, c = x.shape
    if c % (b * b):
        raise ValueError(f"The depth {c} is not divisible by block_size**2 = {b * b}.")
    batch = tf.shape(x)[0]
    y = tf.reshape(x, tf.stack([batch, h, w, b, b, c // (b * b)]))
    y = tf.transpose(y, [0, 1, 3, 2, 4, 5])
    y = tf.reshape(y, tf.stack([batch, h * b, w * b, c // (b * b)]))
    return tf.transpose(y, [0, 3, 1, 2]) if data_format == "channels_first" else y


def space_to_depth(x, block_size, data_format="channels_last"):
    """(N, H, W, C) -> (N, H/b, W/b, C*b^2): b x b spatial blocks become channels."""
    x = convert_to_tensor(x)
    if data_format == "channels_first":
        x = tf.transpose(x, [0, 2, 3, 1])
    b = block_size
    n, h, w, c = x.shape
    if h % b or w % b:
        raise ValueError(f"The spatial size {h}x{w} is not divisible by block_size {b}.")
    batch = tf.shape(x)[0]
    y = tf.reshape(x, tf.stack([batch, h // b, b, w // b, b, c]))
    y = tf.transpose(y, [0, 1, 3, 2, 4, 5])
    y = tf.reshape(y, tf.stack([batch, h // b, w // b, c * b * b]))
    return tf.transpose(y, [0, 3, 1, 2]) if data_format == "channels_first" else y


def _adaptive_bounds(size, out):
    """[start, end) of each of `out` windows over `size` positions (floor/ceil splits, as PyTorch and Keras)."""
    return [((i * size) // out, -((-(i + 1) * size) // out)) for i in range(out)]


def _adaptive_pool(inputs, output_size, data_format, reduce):
    data_format = _data_format(data_format)
    x = _to_channels_last(convert_to_tensor(inputs), data_format)
    spatial = len(x.shape) - 2
    if spatial not in (1, 2, 3):
        raise ValueError("adaptive pooling supports 1D, 2D, or 3D inputs only.")
    sizes = _tuple(output_size, spatial)
    for axis, out in zip(range(1, 1 + spatial), sizes):
        size = x.shape[axis]
        if size is None:
            raise ValueError("Input length must be statically known for adaptive pooling")
        pieces = []
        for start, end in _adaptive_bounds(size, out):
            index = [slice(None)] * len(x.shape)
            index[axis] = slice(start, end)
            pieces.append(reduce(x[tuple(index)], axis=axis, keepdims=True))
        x = tf.concat(pieces, axis=axis)
    return _from_channels_last(x, data_format)


def adaptive_average_pool(inputs, output_size, data_format=None):
    """Average pooling to a fixed output size: window i covers [floor(i*L/out), ceil((i+1)*L/out))."""
    return _adaptive_pool(inputs, output_size, data_format, tf.reduce_mean)


def adaptive_max_pool(inputs, output_size, data_format=None):
    """Max pooling to a fixed output size, with adaptive_average_pool's windows."""
    return _adaptive_pool(inputs, output_size, data_format, tf.reduce_max)


def _pair_arg(value):
    return (value, value) if isinstance(value, int) else tuple(value)


def unfold(x, kernel_size, dilation=1, padding=0, stride=1):
    """im2col of an NCHW batch: (N, C, H, W) -> (N, C*kH*kW, L), the sliding blocks as columns."""
    x = convert_to_tensor(x)
    (kh, kw), (dh, dw) = _pair_arg(kernel_size), _pair_arg(dilation)
    (ph, pw), (sh, sw) = _pair_arg(padding), _pair_arg(stride)
    n, c, h, w = x.shape
    x = tf.pad(x, [[0, 0], [0, 0], [ph, ph], [pw, pw]])
    nh = (h + 2 * ph - dh * (kh - 1) - 1) // sh + 1
    nw = (w + 2 * pw - dw * (kw - 1) - 1) // sw + 1
    rows = (np.arange(kh)[:, None] * dh + np.arange(nh)[None, :] * sh)  # (kh, nh)
    cols = (np.arange(kw)[:, None] * dw + np.arange(nw)[None, :] * sw)  # (kw, nw)
    y = tf.gather(x, tf.constant(rows.reshape(-1), "int32"), axis=2)  # (N, C, kh*nh, W)
    y = tf.gather(y, tf.constant(cols.reshape(-1), "int32"), axis=3)  # (N, C, kh*nh, kw*nw)
    batch = tf.shape(x)[0]
    y = tf.reshape(y, tf.stack([batch, c, kh, nh, kw, nw]))
    y = tf.transpose(y, [0, 1, 2, 4, 3, 5])
    return tf.reshape(y, tf.stack([batch, c * kh * kw, nh * nw]))


def fold(x, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """col2im, unfold's adjoint: (N, C*kH*kW, L) -> (N, C, oH, oW), overlapping blocks summed."""
    x = convert_to_tensor(x)
    (kh, kw), (dh, dw) = _pair_arg(kernel_size), _pair_arg(dilation)
    (ph, pw), (sh, sw), (oh, ow) = _pair_arg(padding), _pair_arg(stride), _pair_arg(output_size)
    c = x.shape[1] // (kh * kw)
    nh = (oh + 2 * ph - dh * (kh - 1) - 1) // sh + 1
    nw = (ow + 2 * pw - dw * (kw - 1) - 1) // sw + 1
    hp, wp = oh + 2 * ph, ow + 2 * pw
    rows = np.arange(kh)[:, None, None, None] * dh + np.arange(nh)[None, None, :, None] * sh
    cols = np.arange(kw)[None, :, None, None] * dw + np.arange(nw)[None, None, None, :] * sw
    targets = np.broadcast_to(rows * wp + cols, (kh, kw, nh, nw)).reshape(-1)
    batch = tf.shape(x)[0]
    blocks = tf.reshape(x, tf.stack([batch, c, kh * kw * nh * nw]))
    summed = tf.math.unsorted_segment_sum(tf.transpose(blocks, [2, 0, 1]), tf.constant(targets, "int32"), hp * wp)
    image = tf.reshape(tf.transpose(summed, [1, 2, 0]), tf.stack([batch, c, hp, wp]))
    return image[:, :, ph:ph + oh, pw:pw + ow]


def polar(abs_, angle):
    """The complex number abs_ * e^(i angle)."""
    abs_, angle = convert_to_tensor(abs_), convert_to_tensor(angle)
    return tf.complex(abs_ * tf.cos(angle), abs_ * tf.sin(angle))

del clip, matmul, _float_input

__all__ = ["adaptive_average_pool", "adaptive_max_pool", "depth_to_space", "fold", "polar", "space_to_depth",
           "unfold", "average_pool", "batch_normalization", "binary_crossentropy", "categorical_crossentropy",
           "celu", "conv",
           "conv_transpose", "depthwise_conv", "dot_product_attention", "elu", "gelu", "glu", "hard_shrink",
           "hard_sigmoid", "hard_silu", "hard_swish", "hard_tanh", "layer_normalization", "leaky_relu", "log_sigmoid",
           "log_softmax", "max_pool", "moments", "multi_hot", "normalize", "one_hot", "psnr", "relu", "relu6",
           "rms_normalization", "selu", "separable_conv", "sigmoid", "silu", "soft_shrink", "softmax", "softplus",
           "softsign", "sparse_categorical_crossentropy", "sparse_plus", "sparse_sigmoid", "sparsemax",
           "squareplus", "swish", "tanh_shrink", "threshold"]
export_all(globals(), __all__)
