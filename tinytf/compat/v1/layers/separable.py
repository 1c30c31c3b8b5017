"""tf.compat.v1.layers' separable convolutions (SeparableConv1D/2D: a depthwise kernel per input channel, then a
1x1 pointwise kernel) and Conv3DTranspose, classes and TF1 function forms, with TF1's variable names
(`separable_conv2d/depthwise_kernel:0`, `.../pointwise_kernel:0`, `conv3d_transpose/kernel:0`)."""

from __future__ import annotations

from ..initializers import zeros_initializer
from .convolutional import _Conv, _deconv_length, _static


def _tf():
    import tinytf

    return tinytf


class _SeparableConv(_Conv):
    """depthwise_kernel (spatial..., in_channels, depth_multiplier), pointwise_kernel (1..., in * multiplier,
    filters), bias (filters)."""

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format="channels_last",
                 dilation_rate=1, depth_multiplier=1, activation=None, use_bias=True, depthwise_initializer=None,
                 pointwise_initializer=None, bias_initializer=zeros_initializer(), depthwise_regularizer=None,
                 pointwise_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 depthwise_constraint=None, pointwise_constraint=None, bias_constraint=None, trainable=True,
                 name=None, **kwargs):
        super().__init__(filters, kernel_size, strides=strides, padding=padding, data_format=data_format,
                         dilation_rate=dilation_rate, activation=activation, use_bias=use_bias,
                         bias_initializer=bias_initializer, bias_regularizer=bias_regularizer,
                         activity_regularizer=activity_regularizer, bias_constraint=bias_constraint,
                         trainable=trainable, name=name, **kwargs)
        self.depth_multiplier = int(depth_multiplier)
        self.depthwise_initializer, self.pointwise_initializer = depthwise_initializer, pointwise_initializer
        self.depthwise_regularizer, self.pointwise_regularizer = depthwise_regularizer, pointwise_regularizer
        self.depthwise_constraint, self.pointwise_constraint = depthwise_constraint, pointwise_constraint

    def build(self, input_shape):
        channels = self._channels(input_shape)
        self.depthwise_kernel = self.add_weight(
            "depthwise_kernel", shape=list(self.kernel_size) + [channels, self.depth_multiplier],
            initializer=self.depthwise_initializer, regularizer=self.depthwise_regularizer,
            constraint=self.depthwise_constraint)
        self.pointwise_kernel = self.add_weight(
            "pointwise_kernel", shape=[1] * self.rank + [channels * self.depth_multiplier, self.filters],
            initializer=self.pointwise_initializer, regularizer=self.pointwise_regularizer,
            constraint=self.pointwise_constraint)
        self.bias = None
        if self.use_bias:
            self.bias = self.add_weight("bias", shape=[self.filters], initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer, constraint=self.bias_constraint)
        self.built = True

    def _separable2d(self, inputs, depthwise, pointwise, strides, dilations):
        """tf.nn.separable_conv2d on channels-last data (channels-first is transposed around it)."""
        tf = _tf()
        first = self.data_format == "channels_first"
        if first:
            inputs = tf.transpose(inputs, [0, 2, 3, 1])
        outputs = tf.nn.separable_conv2d(inputs, depthwise, pointwise, strides=[1, *strides, 1],
                                         padding=self.padding, dilations=list(dilations))
        return tf.transpose(outputs, [0, 3, 1, 2]) if first else outputs


class SeparableConv2D(_SeparableConv):
    rank = 2

    def _convolve(self, inputs):
        return self._separable2d(inputs, self.depthwise_kernel, self.pointwise_kernel, self.strides,
                                 self.dilation_rate)


class SeparableConv1D(_SeparableConv):
    """Computed as TF1 computes it: a SeparableConv2D over a dummy spatial axis of size 1."""

    rank = 1

    def _convolve(self, inputs):
        tf = _tf()
        spatial_axis = 1 if self.data_format == "channels_last" else 2
        outputs = self._separable2d(tf.expand_dims(inputs, spatial_axis), tf.expand_dims(self.depthwise_kernel, 0),
                                    tf.expand_dims(self.pointwise_kernel, 0), (1, self.strides[0]),
                                    (1, self.dilation_rate[0]))
        return tf.squeeze(outputs, [spatial_axis])


class Conv3DTranspose(_Conv):
    """The transpose (gradient) of Conv3D: kernel [d, h, w, filters, in_channels], output grown by the strides."""

    rank = 3

    def __init__(self, filters, kernel_size, strides=(1, 1, 1), padding="valid", data_format="channels_last",
                 activation=None, use_bias=True, kernel_initializer=None, bias_initializer=zeros_initializer(),
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                 bias_constraint=None, trainable=True, name=None, **kwargs):
        super().__init__(filters, kernel_size, strides=strides, padding=padding, data_format=data_format,
                         activation=activation, use_bias=use_bias, kernel_initializer=kernel_initializer,
                         bias_initializer=bias_initializer, kernel_regularizer=kernel_regularizer,
                         bias_regularizer=bias_regularizer, activity_regularizer=activity_regularizer,
                         kernel_constraint=kernel_constraint, bias_constraint=bias_constraint, trainable=trainable,
                         name=name, **kwargs)

    def _kernel_shape(self, channels):
        return list(self.kernel_size) + [self.filters, channels]

    def _convolve(self, inputs):
        tf = _tf()
        first = self.data_format == "channels_first"
        if first:
            inputs = tf.transpose(inputs, [0, 2, 3, 4, 1])
        shape = tf.shape(inputs)
        lengths = [_deconv_length(inputs.shape[i + 1] if inputs.shape[i + 1] is not None else shape[i + 1],
                                  self.strides[i], self.kernel_size[i], self.padding) for i in range(3)]
        dims = [inputs.shape[0] if inputs.shape[0] is not None else shape[0], *lengths, self.filters]
        if any(tf.is_tensor(d) for d in dims):  # tinytf's conv3d_transpose needs it known: it says so otherwise
            output_shape = tf.stack([tf.cast(d, tf.int32) if tf.is_tensor(d) else tf.constant(d) for d in dims])
        else:
            output_shape = dims
        outputs = tf.nn.conv3d_transpose(inputs, self.kernel, output_shape, strides=[1, *self.strides, 1],
                                         padding=self.padding)
        outputs = tf.ensure_shape(outputs, [inputs.shape[0], *[_static(n) for n in lengths], self.filters])
        return tf.transpose(outputs, [0, 4, 1, 2, 3]) if first else outputs


def _separable_function(cls, function_name):
    def apply(inputs, filters, kernel_size, strides=1, padding="valid", data_format="channels_last",
              dilation_rate=1, depth_multiplier=1, activation=None, use_bias=True, depthwise_initializer=None,
              pointwise_initializer=None, bias_initializer=zeros_initializer(), depthwise_regularizer=None,
              pointwise_regularizer=None, bias_regularizer=None, activity_regularizer=None,
              depthwise_constraint=None, pointwise_constraint=None, bias_constraint=None, trainable=True, name=None,
              reuse=None):
        layer = cls(filters, kernel_size, strides=strides, padding=padding, data_format=data_format,
                    dilation_rate=dilation_rate, depth_multiplier=depth_multiplier, activation=activation,
                    use_bias=use_bias, depthwise_initializer=depthwise_initializer,
                    pointwise_initializer=pointwise_initializer, bias_initializer=bias_initializer,
                    depthwise_regularizer=depthwise_regularizer, pointwise_regularizer=pointwise_regularizer,
                    bias_regularizer=bias_regularizer, activity_regularizer=activity_regularizer,
                    depthwise_constraint=depthwise_constraint, pointwise_constraint=pointwise_constraint,
                    bias_constraint=bias_constraint, trainable=trainable, name=name, _scope=name, _reuse=reuse)
        return layer(inputs)

    apply.__name__ = apply.__qualname__ = function_name
    apply.__doc__ = f"`tf.compat.v1.layers.{function_name}`: a {cls.__name__} layer made and applied once."
    return apply


separable_conv1d = _separable_function(SeparableConv1D, "separable_conv1d")
separable_conv2d = _separable_function(SeparableConv2D, "separable_conv2d")


def conv3d_transpose(inputs, filters, kernel_size, strides=(1, 1, 1), padding="valid", data_format="channels_last",
                     activation=None, use_bias=True, kernel_initializer=None, bias_initializer=zeros_initializer(),
                     kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                     kernel_constraint=None, bias_constraint=None, trainable=True, name=None, reuse=None):
    layer = Conv3DTranspose(filters, kernel_size, strides=strides, padding=padding, data_format=data_format,
                            activation=activation, use_bias=use_bias, kernel_initializer=kernel_initializer,
                            bias_initializer=bias_initializer, kernel_regularizer=kernel_regularizer,
                            bias_regularizer=bias_regularizer, activity_regularizer=activity_regularizer,
                            kernel_constraint=kernel_constraint, bias_constraint=bias_constraint,
                            trainable=trainable, name=name, _scope=name, _reuse=reuse)
    return layer(inputs)


Convolution3DTranspose = Conv3DTranspose
SeparableConvolution1D, SeparableConvolution2D = SeparableConv1D, SeparableConv2D

__all__ = ["Conv3DTranspose", "SeparableConv1D", "SeparableConv2D", "conv3d_transpose", "separable_conv1d",
           "separable_conv2d"]
