"""Convolution layers (channels_last): Conv1D, Conv2D, Conv2DTranspose, DepthwiseConv2D, SeparableConv2D.

Each runs on the op TF's Keras uses, so each is one kernel forward and one per gradient: Conv2D and Conv1D on
conv2d (a 1-D convolution is a 2-D one of height 1), Conv2DTranspose on conv2d_transpose (conv2d's input
gradient), DepthwiseConv2D and SeparableConv2D on depthwise_conv2d (runtime/ops/depthwise_kernels.py). They
replaced composites (per-channel conv2d and a concat; a zero-dilated, padded input convolved with the flipped
kernel) that cost 1.3-3x more: docs/performance.md has the figures."""

from __future__ import annotations

import tinytf as _tf
from tinytf.runtime.ops import conv_variants

from .. import activations, constraints, initializers, regularizers
from .input_spec import InputSpec
from .layer import Layer


def _tuple(value, rank: int, what: str) -> tuple:
    if isinstance(value, int):
        return (value,) * rank
    value = tuple(int(v) for v in value)
    if len(value) != rank:
        raise ValueError(f"The `{what}` argument must be a tuple of {rank} integers. Received {what}={value}")
    return value


def _channels_last(data_format, layer_name):
    if data_format not in (None, "channels_last"):
        raise NotImplementedError(f"{layer_name}: only data_format='channels_last' is supported")
    return "channels_last"


class BaseConv(Layer):
    """What the convolutions share: arguments, kernel and bias weights, activation, config."""

    rank = 2

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None, dilation_rate=1, groups=1,
                 activation=None, use_bias=True, kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                 bias_constraint=None, **kwargs):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        if filters is not None and (not isinstance(filters, int) or filters <= 0):
            raise ValueError(f"Invalid value for argument `filters`. Expected a strictly positive value. "
                             f"Received filters={filters}.")
        self.filters, self.groups = filters, groups
        self.kernel_size = _tuple(kernel_size, self.rank, "kernel_size")
        self.strides = _tuple(strides, self.rank, "strides")
        self.dilation_rate = _tuple(dilation_rate, self.rank, "dilation_rate")
        self.padding = padding.lower()
        if self.padding not in ("valid", "same", "causal"):
            raise ValueError(f"Invalid padding {padding!r} for {type(self).__name__}: expected 'valid' or 'same'")
        self.data_format = _channels_last(data_format, type(self).__name__)
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.input_spec = InputSpec(min_ndim=self.rank + 2)

    def _kernel_shape(self, channels: int) -> tuple:
        return (*self.kernel_size, channels // self.groups, self.filters)

    def build(self, input_shape) -> None:
        channels = input_shape[-1]
        if channels is None:
            raise ValueError(f"The channel dimension of the inputs of {type(self).__name__} should be defined. "
                             f"Found None. Full input shape received: {input_shape}")
        self.kernel = self.add_weight(name="kernel", shape=self._kernel_shape(channels),
                                      initializer=self.kernel_initializer, regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        self.bias = None
        if self.use_bias:
            self.bias = self.add_weight(name="bias", shape=(self.filters,), initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer, constraint=self.bias_constraint)
        self.input_spec = InputSpec(min_ndim=self.rank + 2, axes={-1: channels})

    def _finish(self, outputs):
        if self.bias is not None:
            outputs = outputs + self.bias
        return self.activation(outputs)

    def get_config(self) -> dict:
        return {**super().get_config(), "filters": self.filters, "kernel_size": self.kernel_size,
                "strides": self.strides, "padding": self.padding, "data_format": self.data_format,
                "dilation_rate": self.dilation_rate, "groups": self.groups,
                "activation": activations.serialize(self.activation), "use_bias": self.use_bias,
                "kernel_initializer": initializers.serialize(self.kernel_initializer),
                "bias_initializer": initializers.serialize(self.bias_initializer),
                "kernel_regularizer": regularizers.serialize(self.kernel_regularizer),
                "bias_regularizer": regularizers.serialize(self.bias_regularizer),
                "kernel_constraint": constraints.serialize(self.kernel_constraint),
                "bias_constraint": constraints.serialize(self.bias_constraint)}


def _conv2d(x, kernel, strides, padding, dilations, groups=1):
    if groups == 1:
        return _tf.nn.conv2d(x, kernel, strides=list(strides), padding=padding.upper(), dilations=list(dilations))
    per_group = kernel.shape[-1] // groups
    channels = x.shape[-1] // groups
    if channels == 1 and (max(strides) == 1 or max(dilations) == 1):
        # one input channel per group is a depthwise convolution (ConvNeXt's 7x7 blocks): one op, not `groups`
        # slices; output channel g * per_group + j is depthwise channel g's multiplier j, the same order
        depthwise = _tf.reshape(kernel, [kernel.shape[0], kernel.shape[1], groups, per_group])
        return _tf.nn.depthwise_conv2d(x, depthwise, strides=[1, *strides, 1], padding=padding.upper(),
                                       dilations=list(dilations))
    parts = [_tf.nn.conv2d(x[..., g * channels:(g + 1) * channels], kernel[..., g * per_group:(g + 1) * per_group],
                           strides=list(strides), padding=padding.upper(), dilations=list(dilations))
             for g in range(groups)]
    return _tf.concat(parts, -1)


class Conv2D(BaseConv):
    _checkpoint_names = {"kernel": "_kernel"}  # Keras 3's plain convolutions (not the transposed or depthwise)
    """2-D convolution over (batch, height, width, channels)."""

    def call(self, inputs):
        return self._finish(_conv2d(inputs, self.kernel, self.strides, self.padding, self.dilation_rate, self.groups))


class Conv1D(BaseConv):
    _checkpoint_names = {"kernel": "_kernel"}  # Keras 3's plain convolutions (not the transposed or depthwise)
    """1-D convolution over (batch, steps, channels); padding="causal" looks only backwards."""

    rank = 1

    def call(self, inputs):
        padding = self.padding
        if padding == "causal":
            left = self.dilation_rate[0] * (self.kernel_size[0] - 1)
            inputs = _tf.pad(inputs, [[0, 0], [left, 0], [0, 0]])
            padding = "valid"
        x = _tf.expand_dims(inputs, 1)
        kernel = _tf.expand_dims(self.kernel, 0)
        out = _conv2d(x, kernel, (1, self.strides[0]), padding, (1, self.dilation_rate[0]), self.groups)
        return self._finish(_tf.squeeze(out, 1))


def transpose_output_length(size, kernel, stride, padding, output_padding, dilation):
    """Keras' output size of a transposed convolution along one axis (deconv_output_length for TF's padding)."""
    if size is None:
        return None
    kernel = (kernel - 1) * dilation + 1
    if padding == "valid":
        extra = max(kernel, stride) - kernel if output_padding is None else output_padding
        return (size - 1) * stride + kernel + extra
    return size * stride if output_padding is None else (size - 1) * stride + kernel % 2 + output_padding


class Conv2DTranspose(BaseConv):
    """The transpose of Conv2D (its gradient for the input): upsamples by the strides."""

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", output_padding=None, data_format=None,
                 dilation_rate=(1, 1), activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(filters, kernel_size, strides, padding, data_format, dilation_rate, 1, activation, use_bias,
                         kernel_initializer, bias_initializer, kernel_regularizer, bias_regularizer,
                         activity_regularizer, kernel_constraint, bias_constraint, **kwargs)
        if self.padding == "causal":
            raise ValueError("Conv2DTranspose: padding must be 'valid' or 'same', got 'causal'")
        self.output_padding = None if output_padding is None else _tuple(output_padding, 2, "output_padding")
        if self.output_padding is not None:
            for pad, stride in zip(self.output_padding, self.strides):
                if pad >= stride:
                    raise ValueError(f"Strides {self.strides} must be greater than output padding "
                                     f"{self.output_padding}.")
        if max(self.strides) > 1 and max(self.dilation_rate) > 1:
            raise ValueError(f"`strides > 1` not supported in conjunction with `dilation_rate > 1`. Received: "
                             f"strides={self.strides} and dilation_rate={self.dilation_rate}")

    def _kernel_shape(self, channels: int) -> tuple:
        return (*self.kernel_size, self.filters, channels)

    def call(self, inputs):
        height, width = inputs.shape[1], inputs.shape[2]
        if height is None or width is None:
            raise ValueError(f"Conv2DTranspose needs the input's height and width, got shape {inputs.shape}")
        pads = self.output_padding or (None, None)
        size = [transpose_output_length(n, k, s, self.padding, p, d) for n, k, s, p, d in
                zip((height, width), self.kernel_size, self.strides, pads, self.dilation_rate)]
        batch = inputs.shape[0] if inputs.shape[0] is not None else _tf.shape(inputs)[0]
        outputs = _tf.nn.conv2d_transpose(inputs, self.kernel, [batch, *size, self.filters], list(self.strides),
                                          padding=self.padding.upper(), dilations=list(self.dilation_rate))
        return self._finish(outputs)

    def get_config(self) -> dict:
        config = super().get_config()
        config.pop("groups")
        config["output_padding"] = self.output_padding
        return config


class DepthwiseConv2D(BaseConv):
    """A separate convolution of every input channel (depth_multiplier filters each)."""

    def __init__(self, kernel_size, strides=(1, 1), padding="valid", depth_multiplier=1, data_format=None,
                 dilation_rate=(1, 1), activation=None, use_bias=True, depthwise_initializer="glorot_uniform",
                 bias_initializer="zeros", depthwise_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, depthwise_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(None, kernel_size, strides, padding, data_format, dilation_rate, 1, activation, use_bias,
                         depthwise_initializer, bias_initializer, depthwise_regularizer, bias_regularizer,
                         activity_regularizer, depthwise_constraint, bias_constraint, **kwargs)
        self.depth_multiplier = depth_multiplier

    def build(self, input_shape) -> None:
        channels = input_shape[-1]
        self.filters = channels * self.depth_multiplier
        self.kernel = self.add_weight(name="kernel", shape=(*self.kernel_size, channels, self.depth_multiplier),
                                      initializer=self.kernel_initializer, regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        self.bias = None
        if self.use_bias:
            self.bias = self.add_weight(name="bias", shape=(self.filters,), initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer, constraint=self.bias_constraint)
        self.input_spec = InputSpec(min_ndim=4, axes={-1: channels})

    def call(self, inputs):
        return self._finish(depthwise_conv(inputs, self.kernel, self.strides, self.padding, self.dilation_rate))

    def get_config(self) -> dict:
        config = super().get_config()
        for key in ("filters", "groups"):
            config.pop(key)
        config["depth_multiplier"] = self.depth_multiplier
        config["depthwise_initializer"] = config.pop("kernel_initializer")
        config["depthwise_regularizer"] = config.pop("kernel_regularizer")
        config["depthwise_constraint"] = config.pop("kernel_constraint")
        return config


def depthwise_conv(x, kernel, strides, padding, dilations):
    """Channel c convolved with kernel[..., c, :], the results in channel order (c * multiplier + m)."""
    return conv_variants.depthwise(x, kernel, strides, padding.upper(), dilations)


class SeparableConv2D(BaseConv):
    """A depthwise convolution followed by a 1x1 convolution mixing the channels."""

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format=None, dilation_rate=(1, 1),
                 depth_multiplier=1, activation=None, use_bias=True, depthwise_initializer="glorot_uniform",
                 pointwise_initializer="glorot_uniform", bias_initializer="zeros", depthwise_regularizer=None,
                 pointwise_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 depthwise_constraint=None, pointwise_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(filters, kernel_size, strides, padding, data_format, dilation_rate, 1, activation, use_bias,
                         depthwise_initializer, bias_initializer, depthwise_regularizer, bias_regularizer,
                         activity_regularizer, depthwise_constraint, bias_constraint, **kwargs)
        self.depth_multiplier = depth_multiplier
        self.pointwise_initializer = initializers.get(pointwise_initializer)
        self.pointwise_regularizer = regularizers.get(pointwise_regularizer)
        self.pointwise_constraint = constraints.get(pointwise_constraint)

    def build(self, input_shape) -> None:
        channels = input_shape[-1]
        self.depthwise_kernel = self.add_weight(
            name="depthwise_kernel", shape=(*self.kernel_size, channels, self.depth_multiplier),
            initializer=self.kernel_initializer, regularizer=self.kernel_regularizer,
            constraint=self.kernel_constraint)
        self.pointwise_kernel = self.add_weight(
            name="pointwise_kernel", shape=(1, 1, channels * self.depth_multiplier, self.filters),
            initializer=self.pointwise_initializer, regularizer=self.pointwise_regularizer,
            constraint=self.pointwise_constraint)
        self.bias = None
        if self.use_bias:
            self.bias = self.add_weight(name="bias", shape=(self.filters,), initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer, constraint=self.bias_constraint)
        self.input_spec = InputSpec(min_ndim=4, axes={-1: channels})

    def call(self, inputs):
        depthwise = depthwise_conv(inputs, self.depthwise_kernel, self.strides, self.padding, self.dilation_rate)
        return self._finish(_tf.nn.conv2d(depthwise, self.pointwise_kernel, strides=[1, 1], padding="VALID"))

    def get_config(self) -> dict:
        config = super().get_config()
        config.pop("groups")
        config["depth_multiplier"] = self.depth_multiplier
        config["depthwise_initializer"] = config.pop("kernel_initializer")
        config["depthwise_regularizer"] = config.pop("kernel_regularizer")
        config["depthwise_constraint"] = config.pop("kernel_constraint")
        config["pointwise_initializer"] = initializers.serialize(self.pointwise_initializer)
        config["pointwise_regularizer"] = regularizers.serialize(self.pointwise_regularizer)
        config["pointwise_constraint"] = constraints.serialize(self.pointwise_constraint)
        return config


Convolution1D, Convolution2D, Convolution2DTranspose = Conv1D, Conv2D, Conv2DTranspose
