"""More of tf.compat.v1.nn: the TF1 forms of functions tinytf has in TF2 form (their TF1 argument names, orders and
defaults: `filter`, `rates`, `keep_dims`, `partition_strategy`, `Targmax`, `block_size`), the raw conv gradients
TF1 exports (conv2d_backprop_filter / _input, conv3d_backprop_filter; not conv2d_backprop_filter_v2 / input_v2,
which TF 2.21 has no CPU kernel for), fused_batch_norm, and TF1's ctc_loss (sparse
labels, blank last). Each forwards to tinytf's TF2 function or registered op, as TF 2.21's compat.v1 wrappers
forward to its TF2 ones, so gradients are those of the TF2 ops."""

from __future__ import annotations

import numpy as np

from tinytf import nn as _nn
from tinytf.runtime.dispatch import apply, convert_to_tensor
from tinytf.runtime.ops import conv as _conv
from tinytf.runtime.ops import conv3d as _conv3d
from tinytf.runtime.ops.nn_grad import conv2d_backprop_filter_op

from ... import ctc as _ctc
from .deprecated_args import one_of


def _tf():
    import tinytf

    return tinytf


def _static_shape(sizes, what, op_name):
    """A shape argument given as a list or a tensor whose value is known while the graph is built."""
    value = _tf().get_static_value(sizes)
    if value is None:
        raise ValueError(f"{op_name}: `{what}` must be known when the graph is built (a list or a constant), "
                         f"got {sizes}")
    return tuple(int(v) for v in np.asarray(value).reshape(-1))


# --- the raw gradients of convolutions --------------------------------------------------------------------------
def conv2d_backprop_filter(input, filter_sizes, out_backprop, strides, padding, use_cudnn_on_gpu=True,  # noqa: A002
                           data_format="NHWC", dilations=(1, 1, 1, 1), name=None):
    """The gradient of conv2d for its filters (of shape `filter_sizes`), given its input and output gradient."""
    _conv._check_nhwc(data_format, "conv2d_backprop_filter")
    attrs = {"filter_shape": _static_shape(filter_sizes, "filter_sizes", "conv2d_backprop_filter"),
             "strides": _conv._spatial_pair(strides, "strides", "conv2d_backprop_filter"),
             "padding": _conv._padding(padding, "conv2d_backprop_filter", explicit_ok=True),
             "dilations": _conv._spatial_pair(dilations, "dilations", "conv2d_backprop_filter")}
    return apply(conv2d_backprop_filter_op, (convert_to_tensor(input), convert_to_tensor(out_backprop)), attrs,
                 name=name)


def conv2d_backprop_input(input_sizes, filter=None, out_backprop=None, strides=None, padding=None,  # noqa: A002
                          use_cudnn_on_gpu=True, data_format="NHWC", dilations=(1, 1, 1, 1), name=None, filters=None):
    """The gradient of conv2d for an input of shape `input_sizes`: conv2d_transpose of the output gradient."""
    filters = one_of("filters", filters, "filter", filter)
    return _nn.conv2d_transpose(out_backprop, filters, input_sizes, strides, padding=padding, data_format=data_format,
                                dilations=dilations, name=name)


def conv3d_backprop_filter(input, filter_sizes, out_backprop, strides, padding, data_format="NDHWC",  # noqa: A002
                           dilations=(1, 1, 1, 1, 1), name=None):
    """The gradient of conv3d for its filters (TF's Conv3DBackpropFilterV2)."""
    _conv3d.check_ndhwc(data_format, "conv3d_backprop_filter")
    attrs = {"filter_shape": _static_shape(filter_sizes, "filter_sizes", "conv3d_backprop_filter"),
             "strides": _conv3d.triple(strides, "strides", "conv3d_backprop_filter"),
             "padding": _conv3d.padding_mode(padding, "conv3d_backprop_filter"),
             "dilations": _conv3d.triple(dilations, "dilations", "conv3d_backprop_filter")}
    return apply(_conv3d.conv3d_backprop_filter_op, (convert_to_tensor(input), convert_to_tensor(out_backprop)),
                 attrs, name=name)


conv3d_backprop_filter_v2 = conv3d_backprop_filter


def conv3d_transpose(value=None, filter=None, output_shape=None, strides=None, padding="SAME",  # noqa: A002
                     data_format="NDHWC", name=None, input=None, filters=None, dilations=None):  # noqa: A002
    value = one_of("input", input, "value", value)
    filters = one_of("filters", filters, "filter", filter)
    return _nn.conv3d_transpose(value, filters, output_shape, strides, padding=padding, data_format=data_format,
                                dilations=dilations, name=name)


def depthwise_conv2d_native(input, filter, strides, padding, data_format="NHWC",  # noqa: A002 - TF's names
                            dilations=(1, 1, 1, 1), name=None):
    """TF's DepthwiseConv2dNative: each input channel convolved with its own `channel_multiplier` filters."""
    return _nn.depthwise_conv2d(input, filter, strides, padding, data_format=data_format,
                                dilations=_conv._spatial_pair(dilations, "dilations", "depthwise_conv2d_native"),
                                name=name)


# --- normalization ------------------------------------------------------------------------------------------
def fused_batch_norm(x, scale, offset, mean=None, variance=None, epsilon=0.001, data_format="NHWC",
                     is_training=True, name=None, exponential_avg_factor=1.0):
    """Batch normalization over every axis but the channels' (TF's FusedBatchNormV3): (y, mean, variance).
    Training normalizes with the batch's statistics and returns its mean and its unbiased variance (or, with
    exponential_avg_factor < 1, the running averages moved toward them); inference uses `mean` and `variance`.
    Only y has a gradient, as in TF."""
    tf = _tf()
    if (not is_training or exponential_avg_factor != 1.0) and (mean is None or variance is None):
        raise ValueError("Both `mean` and `variance` must be a 1D tensor when `is_training` is False or "
                         f"`exponential_avg_factor` != 1.0. Received: `mean` {mean!r} and `variance` {variance!r}")
    x = convert_to_tensor(x)
    if data_format not in ("NHWC", "NCHW", "NDHWC", "NCDHW"):
        raise ValueError(f"fused_batch_norm: data_format must be NHWC, NCHW, NDHWC or NCDHW, got {data_format!r}")
    if x.shape.rank is not None and x.shape.rank != len(data_format):
        raise ValueError(f"fused_batch_norm: input must be {len(data_format)}-dimensional for {data_format}, got "
                         f"shape {x.shape}")
    channels_first = data_format[1] == "C"
    rank = len(data_format)
    axes = [0] + list(range(2, rank)) if channels_first else list(range(rank - 1))
    with tf.name_scope(name or "FusedBatchNormV3"):
        compute = tf.float32 if x.dtype in (tf.float16, tf.bfloat16) else x.dtype
        xc = tf.cast(x, compute)
        scale, offset = tf.cast(scale, compute), tf.cast(offset, compute)
        shape = [1, -1] + [1] * (rank - 2) if channels_first else [-1]

        def channels(v):
            return tf.reshape(v, shape)

        # TF's gradient (FusedBatchNormGradV3) flows from y only: the returned statistics, and the mean and
        # variance given for inference, get none
        if is_training:
            batch_mean, batch_var = tf.nn.moments(xc, axes)
            count = tf.cast(tf.size(xc) // tf.size(batch_mean), compute)
            unbiased = tf.stop_gradient(batch_var * count / tf.maximum(count - 1.0, 1.0))
            out_mean, out_var = tf.stop_gradient(batch_mean), unbiased
            if exponential_avg_factor != 1.0:
                factor = tf.cast(exponential_avg_factor, compute)
                out_mean = (1.0 - factor) * tf.stop_gradient(tf.cast(mean, compute)) + factor * out_mean
                out_var = (1.0 - factor) * tf.stop_gradient(tf.cast(variance, compute)) + factor * out_var
            use_mean, use_var = batch_mean, batch_var
        else:
            out_mean = use_mean = tf.stop_gradient(tf.cast(mean, compute))
            out_var = use_var = tf.stop_gradient(tf.cast(variance, compute))
        y = (xc - channels(use_mean)) * channels(tf.math.rsqrt(use_var + epsilon) * scale) + channels(offset)
        return tf.cast(y, x.dtype), out_mean, out_var


def batch_norm_with_global_normalization(t=None, m=None, v=None, beta=None, gamma=None, variance_epsilon=None,
                                         scale_after_normalization=None, name=None, input=None,  # noqa: A002
                                         mean=None, variance=None):
    t = one_of("input", input, "t", t)
    m = one_of("mean", mean, "m", m)
    v = one_of("variance", variance, "v", v)
    return _nn.batch_norm_with_global_normalization(t, m, v, beta, gamma, variance_epsilon,
                                                    scale_after_normalization, name=name)


# --- pooling and morphology ---------------------------------------------------------------------------------
def pool(input, window_shape, pooling_type, padding, dilation_rate=None, strides=None, name=None,  # noqa: A002
         data_format=None, dilations=None):
    """TF1's argument order of tf.nn.pool (padding before strides; `dilation_rate`)."""
    dilations = one_of("dilations", dilations, "dilation_rate", dilation_rate)
    return _nn.pool(input, window_shape, pooling_type, strides=strides, padding=padding, data_format=data_format,
                    dilations=dilations, name=name)


def max_pool_with_argmax(input, ksize, strides, padding, data_format="NHWC", Targmax=None, name=None,  # noqa: A002,N803
                         output_dtype=None, include_batch_in_index=False):
    tf = _tf()
    output_dtype = one_of("output_dtype", output_dtype, "Targmax", Targmax)
    return _nn.max_pool_with_argmax(input, ksize, strides, padding, data_format=data_format,
                                    output_dtype=tf.int64 if output_dtype is None else output_dtype,
                                    include_batch_in_index=include_batch_in_index, name=name)


def dilation2d(input, filter=None, strides=None, rates=None, padding=None, name=None,  # noqa: A002
               filters=None, dilations=None):
    filters = one_of("filters", filters, "filter", filter)
    dilations = one_of("dilations", dilations, "rates", rates)
    return _nn.dilation2d(input, filters, strides, padding, "NHWC", dilations, name=name)


def erosion2d(value, kernel, strides, rates, padding, name=None):
    return _nn.erosion2d(value, kernel, strides, padding, "NHWC", rates, name=name)


def _fractional(pool_fn, value, pooling_ratio, pseudo_random, overlapping, deterministic, seed, seed2, name):
    """TF1's seeds: seed 0 draws at random; otherwise the op is deterministic for (seed, seed2)."""
    if seed == 0 and deterministic:
        raise ValueError("fractional pooling: `deterministic` needs a nonzero seed")
    return pool_fn(value, pooling_ratio, pseudo_random=pseudo_random, overlapping=overlapping, seed=seed, name=name)


def fractional_avg_pool(value, pooling_ratio, pseudo_random=False, overlapping=False, deterministic=False, seed=0,
                        seed2=0, name=None):
    return _fractional(_nn.fractional_avg_pool, value, pooling_ratio, pseudo_random, overlapping, deterministic,
                       seed, seed2, name)


def fractional_max_pool(value, pooling_ratio, pseudo_random=False, overlapping=False, deterministic=False, seed=0,
                        seed2=0, name=None):
    return _fractional(_nn.fractional_max_pool, value, pooling_ratio, pseudo_random, overlapping, deterministic,
                       seed, seed2, name)


def space_to_batch(input, paddings, block_size=None, name=None, block_shape=None):  # noqa: A002 - TF's name
    """TF1's space_to_batch: a square block of `block_size` over the two spatial axes of a 4-D input."""
    block_size = one_of("block_shape", block_shape, "block_size", block_size)
    return _tf().space_to_batch_nd(input, [block_size, block_size], paddings, name=name)


def batch_to_space(input, crops, block_size, name=None, block_shape=None):  # noqa: A002 - TF's name
    block_size = one_of("block_shape", block_shape, "block_size", block_size)
    return _tf().batch_to_space(input, [block_size, block_size], crops, name=name)


# --- embeddings and sampled losses: TF1's partition_strategy ------------------------------------------------
def _strategy(partition_strategy, params=None):
    """TF checks the strategy only where it shards: with several shards of parameters."""
    if params is not None and not (isinstance(params, (list, tuple)) and len(params) > 1):
        return
    if partition_strategy not in ("mod", "div"):
        raise ValueError(f"Unrecognized partition strategy: {partition_strategy}. Must be one of either `mod` or "
                         "`div`.")


def embedding_lookup_sparse(params, sp_ids, sp_weights, partition_strategy="mod", name=None, combiner=None,
                            max_norm=None, allow_fast_lookup=False):
    _strategy(partition_strategy, params)
    return _nn.embedding_lookup_sparse(params, sp_ids, sp_weights, combiner=combiner, max_norm=max_norm, name=name,
                                       allow_fast_lookup=allow_fast_lookup)


def safe_embedding_lookup_sparse(embedding_weights, sparse_ids, sparse_weights=None, combiner="mean",
                                 default_id=None, name=None, partition_strategy="div", max_norm=None,
                                 allow_fast_lookup=False):
    _strategy(partition_strategy, embedding_weights)
    return _nn.safe_embedding_lookup_sparse(embedding_weights, sparse_ids, sparse_weights, combiner=combiner,
                                            default_id=default_id, max_norm=max_norm, name=name,
                                            allow_fast_lookup=allow_fast_lookup)


def nce_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1, sampled_values=None,
             remove_accidental_hits=False, partition_strategy="mod", name="nce_loss"):
    _strategy(partition_strategy, weights)
    return _nn.nce_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true=num_true,
                        sampled_values=sampled_values, remove_accidental_hits=remove_accidental_hits, name=name)


def sampled_softmax_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1, sampled_values=None,
                         remove_accidental_hits=True, partition_strategy="mod", name="sampled_softmax_loss",
                         seed=None):
    _strategy(partition_strategy, weights)
    return _nn.sampled_softmax_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true=num_true,
                                    sampled_values=sampled_values, remove_accidental_hits=remove_accidental_hits,
                                    seed=seed, name=name)


# --- CTC ------------------------------------------------------------------------------------------------------
def ctc_loss(labels, inputs=None, sequence_length=None, preprocess_collapse_repeated=False, ctc_merge_repeated=True,
             ignore_longer_outputs_than_inputs=False, time_major=True, logits=None):
    """TF1's CTC loss: SparseTensor labels, the blank the last class, time-major inputs by default."""
    tf = _tf()
    if not isinstance(labels, tf.SparseTensor):
        raise TypeError("Expected labels (first argument) to be a SparseTensor")
    inputs = one_of("logits", logits, "inputs", inputs)
    for flag, value, default in (("preprocess_collapse_repeated", preprocess_collapse_repeated, False),
                                 ("ctc_merge_repeated", ctc_merge_repeated, True),
                                 ("ignore_longer_outputs_than_inputs", ignore_longer_outputs_than_inputs, False)):
        if bool(value) != default:
            raise NotImplementedError(f"tinytf's compat.v1.nn.ctc_loss computes TF's default CTC only: "
                                      f"{flag}={value!r} is not supported")
    return _ctc.ctc_loss(labels, inputs, None, sequence_length, logits_time_major=time_major, blank_index=-1)


def ctc_loss_v2(labels, logits, label_length, logit_length, logits_time_major=True, unique=None, blank_index=None,
                name=None):
    return _ctc.ctc_loss(labels, logits, label_length, logit_length, logits_time_major=logits_time_major,
                         unique=unique, blank_index=blank_index, name=name)


def ctc_beam_search_decoder(inputs, sequence_length, beam_width=100, top_paths=1, merge_repeated=True):
    """TF1's beam search: `merge_repeated` (on by default) also merges repeats a blank separated."""
    return _ctc.beam_search_decode(inputs, sequence_length, beam_width, top_paths, merge_repeated=merge_repeated)


__all__ = ["batch_norm_with_global_normalization", "conv2d_backprop_filter", "conv2d_backprop_input",
           "conv3d_backprop_filter", "conv3d_backprop_filter_v2", "conv3d_transpose", "ctc_beam_search_decoder",
           "ctc_loss", "ctc_loss_v2", "depthwise_conv2d_native", "dilation2d", "embedding_lookup_sparse",
           "erosion2d", "fractional_avg_pool", "fractional_max_pool", "fused_batch_norm", "max_pool_with_argmax",
           "nce_loss", "pool", "safe_embedding_lookup_sparse", "sampled_softmax_loss", "space_to_batch"]
