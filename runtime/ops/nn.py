"""Neural-network ops (tf.nn): activations, softmax, bias_add, dropout, losses and moments.

Activations and losses with a fused, numerically careful numpy form are ops of their own; gelu and moments
are built from math ops, as TF builds them, so their gradients come from those ops' rules."""

from __future__ import annotations

import numpy as np

from .. import dtypes, shapes
from ..dispatch import NO_ATTRS, apply, convert_inputs, convert_to_tensor
from ..naming import composite
from ..registry import OpDef, register
from . import random as _random
from .array import shape, squeeze, zeros_like
from .common import normalize_axis, require, same_dtype, unary_infer, unless_bfloat16
from .gradient_helpers import stop_gradient
from .indexing import where
from .math import cast, erfc, multiply, sigmoid, squared_difference, tanh
from .reduce import canonical_axis, reduce_mean, reduced_shape
from .sum_of_squares import sum_of_squares


def _activation(name, kernel, allowed, render=None):
    return register(OpDef(name, kernel, unary_infer(allowed), render=render, elementwise=True))


# --- activations --------------------------------------------------------------------------------------
def _relu(x):
    return np.maximum(x, 0)


def _relu6(x):
    return np.minimum(np.maximum(x, 0), 6)


def _elu(x):
    # max(x, 0) + expm1(min(x, 0)) is x for x > 0 and expm1(x) otherwise, without overflow in expm1
    return np.maximum(x, 0) + np.expm1(np.minimum(x, 0))


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def _selu(x):
    typed = x.dtype.type  # a Python float would turn bfloat16 into float32 (see unless_bfloat16)
    return typed(_SELU_SCALE) * (np.maximum(x, 0) + typed(_SELU_ALPHA) * np.expm1(np.minimum(x, 0)))


def _softplus(x):
    return np.logaddexp(x, 0)  # log(1 + exp(x)) without overflow


def _softsign(x):
    return x / (1 + np.abs(x))


relu_op = _activation("relu", _relu, "numeric", "np.maximum({0}, 0)")
relu6_op = _activation("relu6", _relu6, "numeric", "np.minimum(np.maximum({0}, 0), 6)")
elu_op = _activation("elu", _elu, "float", "np.maximum({0}, 0) + np.expm1(np.minimum({0}, 0))")
selu_op = _activation("selu", _selu, "float")
softplus_op = _activation("softplus", _softplus, "float", "np.logaddexp({0}, 0)")
softsign_op = _activation("softsign", _softsign, "float", "{0} / (1 + np.abs({0}))")


def _leaky_relu(x, *, alpha):
    # for alpha <= 1, max(x, alpha * x) picks x above zero and alpha * x below; min does it for alpha > 1
    alpha = x.dtype.type(alpha)  # a Python float would turn bfloat16 into float32
    return np.maximum(x, x * alpha) if alpha <= 1 else np.minimum(x, x * alpha)


def _render_leaky_relu(node):
    if node.inputs[0].dtype.name == "bfloat16":
        return None
    return "np.maximum({0}, {0} * {alpha})" if node.attrs["alpha"] <= 1 else "np.minimum({0}, {0} * {alpha})"


leaky_relu_op = register(OpDef("leaky_relu", _leaky_relu, lambda x, *, alpha: unary_infer("float")(x),
                               render=_render_leaky_relu, elementwise=True))


def _silu(x, *, beta):
    typed = x.dtype.type  # a Python float would turn bfloat16 into float32
    # x * sigmoid(beta * x), the sigmoid in the form of math.py's (the tanh form cancelled to 0 below beta * x = -17)
    return x * np.reciprocal(np.exp(np.negative(x * typed(beta))) + typed(1))


silu_op = register(OpDef("silu", _silu, lambda x, *, beta: unary_infer("float")(x), elementwise=True,
                         render=unless_bfloat16("{0} * np.reciprocal(np.exp(-({0} * {beta})) + 1)")))


def _unary(op, x, name=None):
    return apply(op, (convert_to_tensor(x),), NO_ATTRS, name)  # positional: the eager hot path


def relu(features, name=None):
    """max(features, 0)."""
    return _unary(relu_op, features, name)


def relu6(features, name=None):
    """min(max(features, 0), 6)."""
    return _unary(relu6_op, features, name)


def elu(features, name=None):
    """features if > 0, else exp(features) - 1."""
    return _unary(elu_op, features, name)


def selu(features, name=None):
    """Scaled exponential linear unit (Klambauer et al. 2017)."""
    return _unary(selu_op, features, name)


def softplus(features, name=None):
    """log(exp(features) + 1)."""
    return _unary(softplus_op, features, name)


def softsign(features, name=None):
    """features / (abs(features) + 1)."""
    return _unary(softsign_op, features, name)


def leaky_relu(features, alpha=0.2, name=None):
    """features if > 0, else alpha * features."""
    return apply(leaky_relu_op, (convert_to_tensor(features),), {"alpha": float(alpha)}, name=name)


def silu(features, beta=1.0, name=None):
    """features * sigmoid(beta * features), also known as swish."""
    return apply(silu_op, (convert_to_tensor(features),), {"beta": float(beta)}, name=name)


swish = silu


@composite("Gelu")
def gelu(features, approximate=False, name=None):
    """Gaussian error linear unit: x * P(X <= x) for X ~ N(0, 1); the tanh approximation when `approximate`.
    Written as TF's wrapper writes it (0.5 x erfc(-x / sqrt 2): erfc keeps the tail's precision where 1 + erf
    cancels), so that a graph holds TF's nodes (`Gelu/Neg`, `Gelu/Erfc`) and TF's numbers."""
    x = convert_to_tensor(features)
    require(x.dtype, "float", "tf.nn.gelu")
    if approximate:
        coeff = convert_to_tensor(0.044715, x.dtype, name="Cast/x")  # TF's cast of a Python float: a Const
        # 0.79788...: sqrt(2 / pi). TF writes pow(x, 3): x * x * x here, as numpy's float32 power costs ~700x more
        return 0.5 * x * (1.0 + tanh(0.7978845608028654 * (x + coeff * (x * x * x))))
    return 0.5 * x * erfc(-x * convert_to_tensor(0.7071067811865476, x.dtype, name="Cast/x"))


# --- softmax -------------------------------------------------------------------------------------------
def _log_softmax(x, axis):
    shifted = x - np.max(x, axis=axis, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))


def _softmax(x, *, axis):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def _log_softmax_kernel(x, *, axis):
    return _log_softmax(x, axis)


def _infer_softmax(x, *, axis):
    require(x.dtype, "float", "softmax")
    rank = None if x._shape is None else len(x._shape)
    if rank == 0:
        raise ValueError("softmax needs a tensor of rank >= 1, got a scalar")
    normalize_axis(axis, rank)
    return x.dtype, x._shape


softmax_op = register(OpDef("softmax", _softmax, _infer_softmax))
log_softmax_op = register(OpDef("log_softmax", _log_softmax_kernel, _infer_softmax))


def softmax(logits, axis=None, name=None):
    """exp(logits) / reduce_sum(exp(logits), axis), computed after subtracting the max (axis -1 by default)."""
    axis = -1 if axis is None else int(canonical_axis(axis))
    return apply(softmax_op, (convert_to_tensor(logits),), {"axis": axis}, name=name)


def log_softmax(logits, axis=None, name=None):
    """logits - log(reduce_sum(exp(logits), axis)), numerically stable (axis -1 by default)."""
    axis = -1 if axis is None else int(canonical_axis(axis))
    return apply(log_softmax_op, (convert_to_tensor(logits),), {"axis": axis}, name=name)


# --- bias_add ------------------------------------------------------------------------------------------
def _bias_add(value, bias, *, channels_first):
    if channels_first:
        return value + bias.reshape((-1,) + (1,) * (value.ndim - 2))
    return value + bias


def _infer_bias_add(value, bias, *, channels_first):
    dtype = same_dtype(value, bias)
    require(dtype, "numeric", "bias_add")
    if bias._shape is not None and len(bias._shape) != 1:
        raise ValueError(f"bias must be 1-D, got shape {shapes.fmt(bias._shape)}")
    out = value._shape
    if out is None:
        return dtype, None
    if len(out) < 2:
        raise ValueError(f"value must have at least 2 dimensions, got shape {shapes.fmt(out)}")
    channel = 1 if channels_first else len(out) - 1
    size = None if bias._shape is None else bias._shape[0]
    if out[channel] is not None and size is not None and out[channel] != size:
        raise ValueError(f"bias of size {size} does not match the channel dimension {out[channel]} of "
                         f"value (shape {shapes.fmt(out)})")
    merged = out[channel] if out[channel] is not None else size
    return dtype, out[:channel] + (merged,) + out[channel + 1:]


bias_add_op = register(OpDef("bias_add", _bias_add, _infer_bias_add))


def bias_add(value, bias, data_format=None, name=None):
    """value + bias along the channel axis: the last one (N...C, default) or the second (NC...)."""
    if data_format not in (None, "NHWC", "NC", "NCHW", "NWC", "NCW", "NDHWC", "NCDHW", "N...C", "NC..."):
        raise ValueError(f"tf.nn.bias_add: unknown data_format {data_format!r}")
    channels_first = data_format is not None and data_format.startswith("NC")
    value, bias = binary_inputs(value, bias)
    return apply(bias_add_op, (value, bias), {"channels_first": channels_first}, name=name)


def binary_inputs(x, y):
    """Two op inputs where a Python value takes the dtype of the other (tensor) input."""

    return convert_inputs((x, y), True)


# --- dropout -------------------------------------------------------------------------------------------
def _dropout_keep(noise_shape, rate, *, dtype, stream):
    keep = _random.sample_uniform(stream.generator, tuple(noise_shape.tolist()), dtype) >= rate
    return keep[()] if keep.ndim == 0 else keep


def _infer_dropout_keep(noise_shape, rate, *, dtype, stream):
    if rate.dtype is not dtype:
        raise TypeError(f"rate must have the dtype of x ({dtype.name}), got {rate.dtype.name}")
    if rate._shape is not None and rate._shape != ():
        raise ValueError(f"rate must be a scalar, got shape {shapes.fmt(rate._shape)}")
    return dtypes.bool_, _random.infer_shape_input(noise_shape)


dropout_keep_op = register(OpDef(
    "dropout_keep", _dropout_keep, _infer_dropout_keep, stateful=True, differentiable=False,
    doc="a random keep mask: true with probability 1 - rate"))


_BITS = {2: (np.uint16, np.int16), 4: (np.uint32, np.int32), 8: (np.uint64, np.int64)}
_SELECT_CHUNK = 1 << 16  # elements a chunk: its mask and output stay in L2 between the passes


def _dropout_select(keep, x, *, scale=None, scale_first=True):
    """x where `keep`, +0.0 elsewhere: TF's where(keep, x, zeros_like(x)), as x's bits ANDed with a mask of all
    ones or all zeros (exact for every value, NaN, inf and -0.0 included; on a Dropout layer's 64x2704 floats,
    3x faster than np.where, which the forward and the gradient each paid).

    With `scale` (a float of x's dtype), dropout's multiplication joins the select: `scale_first` is TF's
    forward where(keep, x * scale, 0), otherwise its gradient where(keep, g, 0) * scale, each the same ufuncs
    in the same order as the two ops, so the same bits. Chunk by chunk, the one array made is the result (the
    two ops made three full-size arrays a call, each faulted in afresh: 290 of a Keras CNN step's 820 minor
    page faults)."""
    bits = _BITS.get(x.dtype.itemsize) if x.dtype.kind == "f" else None
    factor = None if scale is None else x.dtype.type(scale)
    if bits is None or x.ndim == 0 or keep.shape != x.shape:
        if factor is None:
            return np.where(keep, x, x.dtype.type(0))
        if scale_first:
            return np.where(keep, x * factor, x.dtype.type(0))
        return np.where(keep, x, x.dtype.type(0)) * factor
    unsigned, signed = bits
    if factor is None:
        mask = np.negative(keep.view(np.uint8), dtype=signed).view(unsigned)  # True (1) -> -1: every bit set
        return np.bitwise_and(x.view(unsigned), mask, out=mask).view(x.dtype)  # into the mask: one array a call
    out = np.empty(x.shape, x.dtype)
    flat_keep, flat_x, flat_out = keep.reshape(-1).view(np.uint8), x.reshape(-1), out.reshape(-1)
    words = flat_out.view(unsigned)
    mask = np.empty(min(_SELECT_CHUNK, x.size), signed)
    for a in range(0, x.size, _SELECT_CHUNK):
        b = min(a + _SELECT_CHUNK, x.size)
        chunk_mask = np.negative(flat_keep[a:b], dtype=signed, out=mask[:b - a]).view(unsigned)
        if scale_first:
            np.multiply(flat_x[a:b], factor, out=flat_out[a:b])
            np.bitwise_and(words[a:b], chunk_mask, out=words[a:b])
        else:
            np.bitwise_and(flat_x[a:b].view(unsigned), chunk_mask, out=words[a:b])
            np.multiply(flat_out[a:b], factor, out=flat_out[a:b])
    return out


def _infer_dropout_select(keep, x, *, scale=None, scale_first=True):
    if keep.dtype is not dtypes.bool_ or not x.dtype.is_floating:
        raise TypeError(f"needs a bool mask and a floating x, got {keep.dtype.name} and "
                        f"{x.dtype.name}")
    if keep._shape is not None and x._shape is not None and not shapes.compatible(keep._shape, x._shape):
        raise ValueError(f"mask shape {shapes.fmt(keep._shape)} and x shape "
                         f"{shapes.fmt(x._shape)} differ")
    return x.dtype, x._shape if x._shape is not None else keep._shape


dropout_select_op = register(OpDef(
    "dropout_select", _dropout_select, _infer_dropout_select,
    doc="x where a keep mask is true, +0.0 elsewhere (dropout's where(keep, x, zeros_like(x))); with a `scale`, "
        "where(keep, x * scale, 0) (scale_first) or where(keep, x, 0) * scale"))


def noise_shape_tensor(x, noise_shape):
    static = x._shape
    if noise_shape is None:
        if static is not None and None not in static:
            return _random.shape_tensor(static)
        return shape(x)
    if isinstance(noise_shape, (list, tuple, shapes.TensorShape)) and any(d is None for d in noise_shape):
        dims = list(noise_shape)
        if static is None or len(static) != len(dims) or any(d is None and s is None for d, s in zip(dims, static)):
            raise ValueError(f"tf.nn.dropout: noise_shape {dims} has None dimensions that x's static shape "
                             f"{shapes.fmt(static)} cannot fill in")
        noise_shape = [s if d is None else d for d, s in zip(dims, static)]
    return _random.shape_tensor(noise_shape)


def dropout_scaled(x, rate, op: str):
    """dropout's checks, as TF makes them, and its scale: (x, factor, rate), `factor` 1 / (1 - rate) as a
    scalar of x's dtype for a Python rate (TF computes it in double precision, then rounds it to x's dtype) and
    None for a tensor rate (TF divides by 1 - rate); None for rate 0 (TF's fast path: nothing is dropped)."""
    if isinstance(rate, (int, float)) and not isinstance(rate, bool) and not 0 <= rate < 1:
        raise ValueError(f"{op}: rate must be a scalar tensor or a float in the range [0, 1), got {rate}")
    x = convert_to_tensor(x)
    if not x.dtype.is_floating:
        raise ValueError(f"{op}: x has to be a floating point tensor since it's going to be scaled, "
                         f"got a {x.dtype.name} tensor instead")
    if isinstance(rate, (int, float)) and rate == 0:
        return None
    if isinstance(rate, (int, float)):
        return x, np.asarray(1.0 / (1.0 - rate), x.dtype.np)[()], convert_to_tensor(rate, x.dtype)
    return x, None, convert_to_tensor(rate, x.dtype)


def dropout_apply(keep, x, factor, rate, keep_like_x: bool):
    """TF's where(keep, x * factor (or x / (1 - rate)), zeros_like(x)); dropped elements are zeros, not x * 0
    (which is -0.0 for negative x). `keep_like_x`: the mask has x's shape, so dropout_select applies it (with
    a Python rate's factor, the multiplication too); a broadcasting mask (noise_shape) goes through where."""
    if factor is not None and keep_like_x:
        return apply(dropout_select_op, (keep, x), {"scale": float(factor), "scale_first": True})
    scaled = multiply(x, convert_to_tensor(factor)) if factor is not None else x / (1 - rate)
    if keep_like_x:
        return apply(dropout_select_op, (keep, scaled), {})
    return where(keep, scaled, zeros_like(x))


@composite("dropout")
def dropout(x, rate, noise_shape=None, seed=None, name=None):
    """Zero each element with probability `rate` and scale the others by 1 / (1 - rate), so the expected
    sum is unchanged. `noise_shape` (broadcast against x) shares one decision along some dimensions."""
    parts = dropout_scaled(x, rate, "tf.nn.dropout")
    if parts is None:
        return convert_to_tensor(x)
    x, factor, rate = parts
    noise = noise_shape_tensor(x, noise_shape)
    keep = apply(dropout_keep_op, (noise, rate), {"dtype": x.dtype, "stream": _random.stream_for(seed)})
    return dropout_apply(keep, x, factor, rate, noise_shape is None)


# --- losses ----------------------------------------------------------------------------------------------
def _check_labels(labels, classes):
    if labels.size and (labels.min() < 0 or labels.max() >= classes):
        flat = np.asarray(labels).reshape(-1)
        value = flat[(flat < 0) | (flat >= classes)][0]
        raise ValueError(f"Received a label value of {value} which is outside the valid range of [0, {classes})")


def _rows_and_labels(labels, logits):
    """(logits as rows of classes, row indices, label per row): plain fancy indexing picks one per row,
    several times faster than take_along_axis on small batches."""
    classes = logits.shape[-1]
    flat = np.asarray(labels).reshape(-1)
    return logits.reshape(-1, classes), np.arange(flat.size), flat


def _sparse_xent(labels, logits):
    _check_labels(np.asarray(labels), logits.shape[-1])
    rows, index, flat = _rows_and_labels(labels, logits)
    shifted = rows - np.max(rows, axis=-1, keepdims=True)
    # -log softmax at the label = log(sum(exp(shifted))) - shifted[label]
    loss = np.log(np.sum(np.exp(shifted), axis=-1)) - shifted[index, flat]
    loss = loss.reshape(np.shape(labels))
    return loss[()] if loss.ndim == 0 else loss


def _infer_sparse_xent(labels, logits):
    if labels.dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"labels must be int32 or int64 class indices, got {labels.dtype.name}")
    require(logits.dtype, "float", "the logits of sparse_softmax_cross_entropy_with_logits")
    if logits._shape is not None and len(logits._shape) == 0:
        raise ValueError("logits must have rank >= 1, got a scalar")
    batch = None if logits._shape is None else logits._shape[:-1]
    if labels._shape is not None and batch is not None:
        merged = shapes.merge(labels._shape, batch)
        if merged is False:
            raise ValueError(f"labels of shape {shapes.fmt(labels._shape)} do not match logits of shape "
                             f"{shapes.fmt(logits._shape)}: labels must have the shape of logits without its last "
                             "(class) dimension")
        batch = merged
    return logits.dtype, batch if batch is not None else labels._shape


sparse_xent_op = register(OpDef("sparse_softmax_cross_entropy_with_logits", _sparse_xent, _infer_sparse_xent))


def _xent(labels, logits, *, axis):
    return -np.sum(labels * _log_softmax(logits, axis), axis=axis)


def _infer_xent(labels, logits, *, axis):
    dtype = same_dtype(labels, logits)
    require(dtype, "float", "softmax_cross_entropy_with_logits")
    merged = shapes.merge(labels._shape, logits._shape)
    if merged is False:
        raise ValueError(f"labels and logits must have the same shape, got {shapes.fmt(labels._shape)} and "
                         f"{shapes.fmt(logits._shape)}")
    if merged is not None and not merged:
        raise ValueError("logits must have rank >= 1, got a scalar")
    return dtype, reduced_shape(merged, axis, False)


xent_op = register(OpDef("softmax_cross_entropy_with_logits", _xent, _infer_xent))


def _sigmoid_xent(labels, logits):
    # max(x, 0) - x * z + log(1 + exp(-|x|)): no overflow for large |x|, as TF computes it
    return np.maximum(logits, 0) - logits * labels + np.log1p(np.exp(-np.abs(logits)))


def _infer_sigmoid_xent(labels, logits):
    dtype = same_dtype(labels, logits)
    require(dtype, "float", "sigmoid_cross_entropy_with_logits")
    merged = shapes.merge(labels._shape, logits._shape)
    if merged is False:
        raise ValueError(f"logits and labels must have the same shape ({shapes.fmt(logits._shape)} vs "
                         f"{shapes.fmt(labels._shape)})")
    return dtype, merged


sigmoid_xent_op = register(OpDef(
    "sigmoid_cross_entropy_with_logits", _sigmoid_xent, _infer_sigmoid_xent, elementwise=True,
    render="np.maximum({1}, 0) - {1} * {0} + np.log1p(np.exp(-np.abs({1})))"))


def _l2_loss(t):
    return sum_of_squares(t) / 2 if t.dtype in (np.float32, np.float64) else np.sum(np.square(t)) / 2


l2_loss_op = register(OpDef("l2_loss", _l2_loss, lambda t: (unary_infer("float")(t)[0], ())))


def _need(value, what, fn):
    if value is None:
        raise ValueError(f"{fn}: {what} must be given")
    return value


def sparse_softmax_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """Per-example -log(softmax(logits)[label]); labels are class indices of shape logits.shape[:-1]."""
    labels = convert_to_tensor(_need(labels, "labels", "sparse_softmax_cross_entropy_with_logits"))
    logits = convert_to_tensor(_need(logits, "logits", "sparse_softmax_cross_entropy_with_logits"))
    return apply(sparse_xent_op, (labels, logits), name=name)


def softmax_cross_entropy_with_logits(labels, logits, axis=-1, name=None):
    """Per-example -sum(labels * log_softmax(logits), axis); labels are distributions shaped like logits."""
    labels, logits = binary_inputs(labels, logits)
    return apply(xent_op, (labels, logits), {"axis": int(canonical_axis(axis))}, name=name)


def sigmoid_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """Elementwise logistic loss of `logits` against `labels` in [0, 1]."""
    labels = _need(labels, "labels", "sigmoid_cross_entropy_with_logits")
    logits = _need(logits, "logits", "sigmoid_cross_entropy_with_logits")
    labels, logits = binary_inputs(labels, logits)
    return apply(sigmoid_xent_op, (labels, logits), name=name)


def l2_loss(t, name=None):
    """sum(t ** 2) / 2."""
    return _unary(l2_loss_op, t, name)


# --- moments -------------------------------------------------------------------------------------------
@composite("moments")
def moments(x, axes, shift=None, keepdims=False, name=None):
    """(mean, variance) of x over `axes`. float16 is computed in float32, as TF does. Built as TF's wrapper
    builds it (`moments/mean`, `moments/StopGradient`, `moments/SquaredDifference`, `moments/variance`, then
    `Squeeze`s), so a graph holds TF's nodes; the stop_gradient changes no gradient (the deviations from the
    mean sum to zero) and costs nothing once the passes drop it."""
    x = convert_to_tensor(x)
    axes = canonical_axis(axes)
    axes = (axes,) if isinstance(axes, int) else axes
    computed = cast(x, dtypes.float32) if x.dtype is dtypes.float16 else x
    mean = reduce_mean(computed, axes, keepdims=True, name="mean")
    variance = reduce_mean(squared_difference(computed, stop_gradient(mean)), axes, keepdims=True, name="variance")
    if not keepdims:
        mean, variance = squeeze(mean, axes), squeeze(variance, axes)
    if computed is not x:
        mean, variance = cast(mean, x.dtype), cast(variance, x.dtype)
    return mean, variance


__all__ = [
    "relu", "relu6", "elu", "selu", "gelu", "leaky_relu", "sigmoid", "tanh", "softplus", "softsign", "silu",
    "swish", "softmax", "log_softmax", "bias_add", "dropout", "sparse_softmax_cross_entropy_with_logits",
    "softmax_cross_entropy_with_logits", "sigmoid_cross_entropy_with_logits", "l2_loss", "moments",
]
