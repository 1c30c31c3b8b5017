"""The 1-D forms of the convolution variants: Conv1DTranspose, DepthwiseConv1D and SeparableConv1D, each the
2-D layer's op on a height-1 image (as TF runs its 1-D convolutions), with Keras 3's 1-D weight shapes."""

from __future__ import annotations

import tinytf as _tf

from .conv import BaseConv, _tuple, depthwise_conv, transpose_output_length
from .conv import DepthwiseConv2D as _DepthwiseConv2D
from .conv import SeparableConv2D as _SeparableConv2D
from .input_spec import InputSpec


def _no_causal(layer):
    if layer.padding == "causal":
        raise ValueError(f"{type(layer).__name__}: padding must be 'valid' or 'same', got 'causal'")


class Conv1DTranspose(BaseConv):
    """The transpose of Conv1D: upsamples the steps by the stride; kernel (width, filters, channels)."""

    rank = 1

    def __init__(self, filters, kernel_size, strides=1, padding="valid", output_padding=None, data_format=None,
                 dilation_rate=1, activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(filters, kernel_size, strides, padding, data_format, dilation_rate, 1, activation, use_bias,
                         kernel_initializer, bias_initializer, kernel_regularizer, bias_regularizer,
                         activity_regularizer, kernel_constraint, bias_constraint, **kwargs)
        _no_causal(self)
        self.output_padding = None if output_padding is None else _tuple(output_padding, 1, "output_padding")
        if self.output_padding is not None and self.output_padding[0] >= self.strides[0]:
            raise ValueError(f"Strides {self.strides} must be greater than output padding {self.output_padding}.")

    def _kernel_shape(self, channels: int) -> tuple:
        return (*self.kernel_size, self.filters, channels)

    def call(self, inputs):
        steps = inputs.shape[1]
        if steps is None:
            raise ValueError(f"Conv1DTranspose needs the input's steps, got shape {inputs.shape}")
        pad = None if self.output_padding is None else self.output_padding[0]
        length = transpose_output_length(steps, self.kernel_size[0], self.strides[0], self.padding, pad,
                                         self.dilation_rate[0])
        batch = inputs.shape[0] if inputs.shape[0] is not None else _tf.shape(inputs)[0]
        out = _tf.nn.conv2d_transpose(_tf.expand_dims(inputs, 1), _tf.expand_dims(self.kernel, 0),
                                      [batch, 1, length, self.filters], [1, self.strides[0]],
                                      padding=self.padding.upper(), dilations=[1, self.dilation_rate[0]])
        return self._finish(_tf.squeeze(out, 1))

    def get_config(self) -> dict:
        config = super().get_config()
        config.pop("groups")
        config["output_padding"] = self.output_padding
        return config


class DepthwiseConv1D(_DepthwiseConv2D):
    """A separate 1-D convolution of every input channel (depth_multiplier filters each); kernel (width,
    channels, depth_multiplier)."""

    rank = 1

    def __init__(self, kernel_size, strides=1, padding="valid", depth_multiplier=1, data_format=None,
                 dilation_rate=1, **kwargs):
        super().__init__(kernel_size, strides, padding, depth_multiplier, data_format, dilation_rate, **kwargs)
        _no_causal(self)
        self.input_spec = InputSpec(min_ndim=3)

    def build(self, input_shape) -> None:
        super().build(input_shape)
        self.input_spec = InputSpec(ndim=3, axes={-1: input_shape[-1]})

    def call(self, inputs):
        out = depthwise_conv(_tf.expand_dims(inputs, 1), _tf.expand_dims(self.kernel, 0), (1, self.strides[0]),
                             self.padding, (1, self.dilation_rate[0]))
        return self._finish(_tf.squeeze(out, 1))


class SeparableConv1D(_SeparableConv2D):
    """A depthwise 1-D convolution followed by a pointwise one mixing the channels; kernels (width, channels,
    depth_multiplier) and (1, channels * depth_multiplier, filters)."""

    rank = 1

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None, dilation_rate=1,
                 depth_multiplier=1, **kwargs):
        super().__init__(filters, kernel_size, strides, padding, data_format, dilation_rate, depth_multiplier,
                         **kwargs)
        _no_causal(self)
        self.input_spec = InputSpec(min_ndim=3)

    def build(self, input_shape) -> None:
        channels = input_shape[-1]
        self.depthwise_kernel = self.add_weight(
            name="depthwise_kernel", shape=(*self.kernel_size, channels, self.depth_multiplier),
            initializer=self.kernel_initializer, regularizer=self.kernel_regularizer,
            constraint=self.kernel_constraint)
        self.pointwise_kernel = self.add_weight(
            name="pointwise_kernel", shape=(1, channels * self.depth_multiplier, self.filters),
            initializer=self.pointwise_initializer, regularizer=self.pointwise_regularizer,
            constraint=self.pointwise_constraint)
        self.bias = None
        if self.use_bias:
            self.bias = self.add_weight(name="bias", shape=(self.filters,), initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer, constraint=self.bias_constraint)
        self.input_spec = InputSpec(ndim=3, axes={-1: channels})

    def call(self, inputs):
        depthwise = depthwise_conv(_tf.expand_dims(inputs, 1), _tf.expand_dims(self.depthwise_kernel, 0),
                                   (1, self.strides[0]), self.padding, (1, self.dilation_rate[0]))
        out = _tf.nn.conv2d(depthwise, _tf.expand_dims(self.pointwise_kernel, 0), strides=[1, 1], padding="VALID")
        return self._finish(_tf.squeeze(out, 1))


Convolution1DTranspose, SeparableConvolution1D = Conv1DTranspose, SeparableConv1D
