"""tf.compat.v1.nn: TF1's neural-network functions, with their TF1 arguments (`keep_prob`, `dim`, `keep_dims`,
`filter`, `value`, `rate`, the TF1 argument order of in_top_k) on tinytf's TF2 ops, as TF 2.21's compat.v1
wrappers call its TF2 functions. The other names of TF's compat.v1.nn are TF2's own (tf1_aliases.py)."""

from __future__ import annotations

from tinytf import nn as _nn

from .deprecated_args import one_of
from .tf1_aliases import install


def _tf():
    import tinytf

    return tinytf


def _ensure_xent_args(name, labels, logits):
    if labels is None or logits is None:
        raise ValueError(f"Both `labels` and `logits` must be provided for {name}. Received: labels={labels} and "
                         f"logits={logits}")


def softmax_cross_entropy_with_logits(labels=None, logits=None, dim=-1, name=None, axis=None):
    """TF1's version: no gradient flows into `labels` (TF's softmax_cross_entropy_with_logits_v2 lets it)."""
    dim = one_of("axis", axis, "dim", dim)
    _ensure_xent_args("softmax_cross_entropy_with_logits", labels, logits)
    labels = _tf().stop_gradient(labels)
    return _nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits, axis=dim, name=name)


def softmax_cross_entropy_with_logits_v2(labels, logits, axis=None, name=None, dim=None):
    axis = one_of("axis", axis, "dim", dim)
    return _nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits, axis=-1 if axis is None else axis,
                                                 name=name)


def sparse_softmax_cross_entropy_with_logits(labels=None, logits=None, name=None):
    _ensure_xent_args("sparse_softmax_cross_entropy_with_logits", labels, logits)
    return _nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits, name=name)


def weighted_cross_entropy_with_logits(labels=None, logits=None, pos_weight=None, name=None, targets=None):
    labels = one_of("labels", labels, "targets", targets)
    return _nn.weighted_cross_entropy_with_logits(labels, logits, pos_weight, name=name)


def softmax(logits, axis=None, name=None, dim=None):
    axis = one_of("axis", axis, "dim", dim)
    return _nn.softmax(logits, axis=-1 if axis is None else axis, name=name)


def log_softmax(logits, axis=None, name=None, dim=None):
    axis = one_of("axis", axis, "dim", dim)
    return _nn.log_softmax(logits, axis=-1 if axis is None else axis, name=name)


def dropout(x, keep_prob=None, noise_shape=None, seed=None, name=None, rate=None):
    """TF1's dropout takes the probability to KEEP an element (`keep_prob`), or TF2's `rate`."""
    try:
        rate_from_keep_prob = 1.0 - keep_prob if keep_prob is not None else None
    except TypeError:
        raise ValueError("`keep_prob` must be a floating point number or Tensor. Received: "
                         f"keep_prob={keep_prob}") from None
    rate = one_of("rate", rate, "keep_prob", rate_from_keep_prob)
    if rate is None:
        raise ValueError(f"`rate` must be provided. Received: rate={rate}")
    return _nn.dropout(x, rate, noise_shape=noise_shape, seed=seed, name=name)


def moments(x, axes, shift=None, name=None, keep_dims=None, keepdims=None):
    keepdims = one_of("keepdims", keepdims, "keep_dims", keep_dims)
    return _nn.moments(x, axes, shift=shift, keepdims=bool(keepdims), name=name)


def sufficient_statistics(x, axes, shift=None, keep_dims=None, name=None, keepdims=None):
    keepdims = one_of("keepdims", keepdims, "keep_dims", keep_dims)
    return _nn.sufficient_statistics(x, axes, shift=shift, keepdims=bool(keepdims), name=name)


def weighted_moments(x, axes, frequency_weights, name=None, keep_dims=None, keepdims=None):
    keepdims = one_of("keepdims", keepdims, "keep_dims", keep_dims)
    return _nn.weighted_moments(x, axes, frequency_weights, keepdims=bool(keepdims), name=name)


def in_top_k(predictions, targets, k, name=None):
    """TF1's argument order: predictions first."""
    return _nn.in_top_k(targets, predictions, k, name=name)


def max_pool(value, ksize, strides, padding, data_format="NHWC", name=None, input=None):  # noqa: A002 - TF's name
    value = one_of("input", input, "value", value)
    return _nn.max_pool(value, ksize, strides, padding, data_format=data_format, name=name)


def avg_pool(value, ksize, strides, padding, data_format="NHWC", name=None, input=None):  # noqa: A002 - TF's name
    value = one_of("input", input, "value", value)
    return _nn.avg_pool(value, ksize, strides, padding, data_format=data_format, name=name)


avg_pool2d = avg_pool


def conv2d(input, filter=None, strides=None, padding=None, use_cudnn_on_gpu=True,  # noqa: A002 - TF's names
           data_format="NHWC", dilations=(1, 1, 1, 1), name=None, filters=None):
    """TF1's conv2d: `filter` (TF2: `filters`); `use_cudnn_on_gpu` has no effect on a CPU."""
    filters = one_of("filters", filters, "filter", filter)
    return _nn.conv2d(input, filters, strides, padding, data_format=data_format, dilations=dilations, name=name)


def conv1d(value=None, filters=None, stride=None, padding=None, use_cudnn_on_gpu=None, data_format=None,
           name=None, input=None, dilations=None):  # noqa: A002 - TF's name
    value = one_of("input", input, "value", value)
    return _nn.conv1d(value, filters, stride, padding, data_format=data_format or "NWC", dilations=dilations,
                      name=name)


def conv3d(input, filter=None, strides=None, padding=None, data_format="NDHWC",  # noqa: A002 - TF's names
           dilations=(1, 1, 1, 1, 1), name=None, filters=None):
    filters = one_of("filters", filters, "filter", filter)
    return _nn.conv3d(input, filters, strides, padding, data_format=data_format, dilations=dilations, name=name)


def conv2d_transpose(value=None, filter=None, output_shape=None, strides=None, padding="SAME",  # noqa: A002
                     data_format="NHWC", name=None, input=None, filters=None, dilations=None):
    value = one_of("input", input, "value", value)
    filters = one_of("filters", filters, "filter", filter)
    return _nn.conv2d_transpose(value, filters, output_shape, strides, padding=padding, data_format=data_format,
                                dilations=dilations, name=name)


def convolution(input, filter, padding, strides=None, dilation_rate=None, name=None,  # noqa: A002 - TF's names
                data_format=None, filters=None, dilations=None):
    filters = one_of("filters", filters, "filter", filter)
    dilations = one_of("dilations", dilations, "dilation_rate", dilation_rate)
    return _nn.convolution(input, filters, strides=strides, padding=padding, data_format=data_format,
                           dilations=dilations, name=name)


def depthwise_conv2d(input, filter, strides, padding, rate=None, name=None,  # noqa: A002 - TF's names
                     data_format=None, dilations=None):
    dilations = one_of("dilations", dilations, "rate", rate)
    return _nn.depthwise_conv2d(input, filter, strides, padding, data_format=data_format, dilations=dilations,
                                name=name)


def separable_conv2d(input, depthwise_filter, pointwise_filter, strides, padding, rate=None,  # noqa: A002
                     name=None, data_format=None, dilations=None):
    dilations = one_of("dilations", dilations, "rate", rate)
    return _nn.separable_conv2d(input, depthwise_filter, pointwise_filter, strides, padding,
                                data_format=data_format, dilations=dilations, name=name)


def depth_to_space(input, block_size, name=None, data_format="NHWC"):  # noqa: A002 - TF's name
    return _nn.depth_to_space(input, block_size, data_format=data_format, name=name)


def space_to_depth(input, block_size, name=None, data_format="NHWC"):  # noqa: A002 - TF's name
    return _nn.space_to_depth(input, block_size, data_format=data_format, name=name)


def crelu(features, name=None, axis=-1):
    return _nn.crelu(features, axis=axis, name=name)


def embedding_lookup(params, ids, partition_strategy="mod", name=None, validate_indices=True, max_norm=None):
    """`partition_strategy` is checked as TF checks it; a list of parameter shards is looked up as TF 2.21
    looks it up, for both strategies (as the rows of the shards joined in order: checked against TF)."""
    if partition_strategy not in ("mod", "div"):
        raise ValueError(f"Unrecognized partition strategy: {partition_strategy}. Must be one of either `mod` or "
                         "`div`.")
    return _nn.embedding_lookup(params, ids, max_norm=max_norm, name=name)


def xw_plus_b(x, weights, biases, name=None):
    """matmul(x, weights) + biases."""
    tf = _tf()
    return _nn.bias_add(tf.matmul(x, weights), biases, name=name)


def relu_layer(x, weights, biases, name=None):
    """relu(matmul(x, weights) + biases)."""
    return _nn.relu(xw_plus_b(x, weights, biases), name=name)


install(globals(), "nn")

# TF1's RNN cells and drivers (rnn_cell.py, rnn.py)
from . import rnn_cell  # noqa: E402,F401

# TF1 forms of the rest of tf.compat.v1.nn (helper tf1more: nn_more.py)
from .nn_more import *  # noqa: E402,F401,F403
from .rnn import bidirectional_dynamic_rnn, dynamic_rnn, static_bidirectional_rnn, static_rnn  # noqa: E402,F401
from .rnn_more import raw_rnn, static_state_saving_rnn  # noqa: E402,F401
