"""Conv3D and Conv3DTranspose (channels_last: batch, depth, height, width, channels), on tf.nn.conv3d and its
input gradient (conv3d_transpose, TF's Conv3DBackpropInputV2), with Conv2D's arguments, weights and config."""

from __future__ import annotations

import tinytf as _tf
from tinytf.runtime.ops import conv3d as _conv3d

from .conv import BaseConv, _tuple, transpose_output_length


class Conv3D(BaseConv):
    """3-D convolution over (batch, depth, height, width, channels); groups split the channels."""

    _checkpoint_names = {"kernel": "_kernel"}  # Keras 3's plain convolutions keep `_kernel`
    rank = 3

    def call(self, inputs):
        attrs = {"strides": list(self.strides), "padding": self.padding.upper(),
                 "dilations": list(self.dilation_rate)}
        if self.padding == "causal":
            raise ValueError("Conv3D: padding must be 'valid' or 'same', got 'causal'")
        if self.groups == 1:
            return self._finish(_tf.nn.conv3d(inputs, self.kernel, [1, *attrs["strides"], 1], attrs["padding"],
                                              dilations=[1, *attrs["dilations"], 1]))
        per_group, channels = self.filters // self.groups, inputs.shape[-1] // self.groups
        parts = [_tf.nn.conv3d(inputs[..., g * channels:(g + 1) * channels],
                               self.kernel[..., g * per_group:(g + 1) * per_group], [1, *attrs["strides"], 1],
                               attrs["padding"], dilations=[1, *attrs["dilations"], 1]) for g in range(self.groups)]
        return self._finish(_tf.concat(parts, -1))


class Conv3DTranspose(BaseConv):
    """The transpose of Conv3D (its gradient for the input): upsamples depth, height and width by the strides."""

    rank = 3

    def __init__(self, filters, kernel_size, strides=(1, 1, 1), padding="valid", output_padding=None,
                 data_format=None, dilation_rate=(1, 1, 1), activation=None, use_bias=True,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros", kernel_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None, kernel_constraint=None, bias_constraint=None,
                 **kwargs):
        super().__init__(filters, kernel_size, strides, padding, data_format, dilation_rate, 1, activation, use_bias,
                         kernel_initializer, bias_initializer, kernel_regularizer, bias_regularizer,
                         activity_regularizer, kernel_constraint, bias_constraint, **kwargs)
        if self.padding == "causal":
            raise ValueError("Conv3DTranspose: padding must be 'valid' or 'same', got 'causal'")
        self.output_padding = None if output_padding is None else _tuple(output_padding, 3, "output_padding")
        if self.output_padding is not None:
            for pad, stride in zip(self.output_padding, self.strides):
                if pad >= stride:
                    raise ValueError(f"Strides {self.strides} must be greater than output padding "
                                     f"{self.output_padding}.")

    def _kernel_shape(self, channels: int) -> tuple:
        return (*self.kernel_size, self.filters, channels)

    def call(self, inputs):
        spatial = inputs.shape[1:4]
        if None in tuple(spatial):
            raise ValueError(f"Conv3DTranspose needs the input's depth, height and width, got shape {inputs.shape}")
        pads = self.output_padding or (None, None, None)
        size = tuple(transpose_output_length(n, k, s, self.padding, p, d) for n, k, s, p, d in
                     zip(spatial, self.kernel_size, self.strides, pads, self.dilation_rate))
        attrs = {"strides": tuple(self.strides), "padding": self.padding.upper(),
                 "dilations": tuple(self.dilation_rate)}
        kernel = _tf.convert_to_tensor(self.kernel)  # the op takes tensors, not variables
        return self._finish(_conv3d.backprop_input(inputs, kernel, (*size, self.filters), attrs))

    def get_config(self) -> dict:
        config = super().get_config()
        config.pop("groups")
        config["output_padding"] = self.output_padding
        return config


Convolution3D, Convolution3DTranspose = Conv3D, Conv3DTranspose
