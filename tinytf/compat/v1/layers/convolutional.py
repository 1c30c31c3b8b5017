"""tf.compat.v1.layers' convolutions (Conv1D/2D/3D, Conv2DTranspose) and poolings (Max/AveragePooling
1D/2D/3D), classes and TF1 function forms, on tf.nn's ops; kernels named `conv2d/kernel:0` as in TF1."""

from __future__ import annotations

from ..initializers import zeros_initializer
from ..legacy_layer import Layer
from .core import activation_of


def _tf():
    import tinytf

    return tinytf


def _tuple(value, rank, name):
    if isinstance(value, int):
        return (value,) * rank
    value = tuple(int(v) for v in value)
    if len(value) != rank:
        raise ValueError(f"The `{name}` argument must be a tuple of {rank} integers. Received: {value}")
    return value


def _padding(padding):
    padding = padding.upper()
    if padding not in ("VALID", "SAME"):
        raise ValueError(f"The `padding` argument must be a list/tuple or one of \"valid\", \"same\". "
                         f"Received: {padding.lower()}")
    return padding


def _nn_format(data_format, rank):
    channels_last = {1: "NWC", 2: "NHWC", 3: "NDHWC"}
    channels_first = {1: "NCW", 2: "NCHW", 3: "NCDHW"}
    if data_format in (None, "channels_last"):
        return channels_last[rank]
    if data_format == "channels_first":
        return channels_first[rank]
    raise ValueError(f"The `data_format` argument must be one of \"channels_first\", \"channels_last\". "
                     f"Received: {data_format}")


class _Conv(Layer):
    rank = 2

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format="channels_last",
                 dilation_rate=1, activation=None, use_bias=True, kernel_initializer=None,
                 bias_initializer=zeros_initializer(), kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, bias_constraint=None, trainable=True, name=None,
                 **kwargs):
        super().__init__(trainable=trainable, name=name, activity_regularizer=activity_regularizer, **kwargs)
        self.filters = int(filters)
        self.kernel_size = _tuple(kernel_size, self.rank, "kernel_size")
        self.strides = _tuple(strides, self.rank, "strides")
        self.padding = _padding(padding)
        self.data_format = data_format or "channels_last"
        self._format = _nn_format(self.data_format, self.rank)
        self.dilation_rate = _tuple(dilation_rate, self.rank, "dilation_rate")
        self.activation = activation_of(activation)
        self.use_bias = use_bias
        self.kernel_initializer = kernel_initializer
        self.bias_initializer = bias_initializer
        self.kernel_regularizer = kernel_regularizer
        self.bias_regularizer = bias_regularizer
        self.kernel_constraint = kernel_constraint
        self.bias_constraint = bias_constraint

    def _channels(self, input_shape):
        axis = -1 if self.data_format == "channels_last" else 1
        channels = input_shape[axis]
        if channels is None:
            raise ValueError("The channel dimension of the inputs should be defined. The input_shape received is "
                             f"{input_shape}, where axis {axis} (0-based) is the channel dimension, which found to "
                             "be `None`.")
        return int(channels)

    def _kernel_shape(self, channels):
        return list(self.kernel_size) + [channels, self.filters]

    def build(self, input_shape):
        self.kernel = self.add_weight("kernel", shape=self._kernel_shape(self._channels(input_shape)),
                                      initializer=self.kernel_initializer, regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        self.bias = None
        if self.use_bias:
            self.bias = self.add_weight("bias", shape=[self.filters], initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer, constraint=self.bias_constraint)
        self.built = True

    def _convolve(self, inputs):
        return _tf().nn.convolution(inputs, self.kernel, strides=list(self.strides), padding=self.padding,
                                    data_format=self._format, dilations=list(self.dilation_rate))

    def call(self, inputs):
        tf = _tf()
        outputs = self._convolve(tf.convert_to_tensor(inputs))
        if self.use_bias:
            outputs = _bias_add_any(outputs, self.bias, self.data_format)
        return self.activation(outputs) if self.activation is not None else outputs


def _bias_add_any(outputs, bias, data_format):
    tf = _tf()
    if data_format == "channels_first":
        shape = [1, -1] + [1] * (outputs.shape.rank - 2)
        return outputs + tf.reshape(bias, shape)
    return tf.nn.bias_add(outputs, bias)


class Conv1D(_Conv):
    rank = 1


class Conv2D(_Conv):
    rank = 2


class Conv3D(_Conv):
    rank = 3


class Conv2DTranspose(Conv2D):
    """The transpose (gradient) of Conv2D: kernel [h, w, filters, in_channels], output grown by the strides."""

    def _kernel_shape(self, channels):
        return list(self.kernel_size) + [self.filters, channels]

    def _convolve(self, inputs):
        tf = _tf()
        shape = tf.shape(inputs)
        if self.data_format == "channels_first":
            height, width = inputs.shape[2], inputs.shape[3]
            dyn_h, dyn_w = shape[2], shape[3]
        else:
            height, width = inputs.shape[1], inputs.shape[2]
            dyn_h, dyn_w = shape[1], shape[2]
        out_h = _deconv_length(height if height is not None else dyn_h, self.strides[0], self.kernel_size[0],
                               self.padding)
        out_w = _deconv_length(width if width is not None else dyn_w, self.strides[1], self.kernel_size[1],
                               self.padding)
        dims = [shape[0], self.filters, out_h, out_w] if self.data_format == "channels_first" else \
            [shape[0], out_h, out_w, self.filters]
        output_shape = tf.stack([tf.cast(d, tf.int32) if tf.is_tensor(d) else tf.constant(d) for d in dims])
        outputs = tf.nn.conv2d_transpose(inputs, self.kernel, output_shape, strides=[1, *self.strides, 1]
                                         if self.data_format != "channels_first" else [1, 1, *self.strides],
                                         padding=self.padding, data_format=self._format)
        static = [inputs.shape[0], self.filters, _static(out_h), _static(out_w)] \
            if self.data_format == "channels_first" else [inputs.shape[0], _static(out_h), _static(out_w),
                                                           self.filters]
        return tf.ensure_shape(outputs, static)


def _static(length):
    return length if isinstance(length, int) else None


def _deconv_length(length, stride, kernel, padding):
    if padding == "VALID":
        return length * stride + max(kernel - stride, 0)
    return length * stride


def _conv_function(cls):
    def apply(inputs, filters, kernel_size, strides=1, padding="valid", data_format="channels_last",
              dilation_rate=1, activation=None, use_bias=True, kernel_initializer=None,
              bias_initializer=zeros_initializer(), kernel_regularizer=None, bias_regularizer=None,
              activity_regularizer=None, kernel_constraint=None, bias_constraint=None, trainable=True, name=None,
              reuse=None):
        layer = cls(filters, kernel_size, strides=strides, padding=padding, data_format=data_format,
                    dilation_rate=dilation_rate, activation=activation, use_bias=use_bias,
                    kernel_initializer=kernel_initializer, bias_initializer=bias_initializer,
                    kernel_regularizer=kernel_regularizer, bias_regularizer=bias_regularizer,
                    activity_regularizer=activity_regularizer, kernel_constraint=kernel_constraint,
                    bias_constraint=bias_constraint, trainable=trainable, name=name, _scope=name, _reuse=reuse)
        return layer(inputs)

    apply.__name__ = apply.__qualname__ = cls.__name__.lower().replace("transpose", "_transpose")
    apply.__doc__ = f"`tf.compat.v1.layers.{apply.__name__}`: a {cls.__name__} layer made and applied once."
    return apply


conv1d = _conv_function(Conv1D)
conv2d = _conv_function(Conv2D)
conv3d = _conv_function(Conv3D)


def conv2d_transpose(inputs, filters, kernel_size, strides=(1, 1), padding="valid", data_format="channels_last",
                     activation=None, use_bias=True, kernel_initializer=None, bias_initializer=zeros_initializer(),
                     kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                     kernel_constraint=None, bias_constraint=None, trainable=True, name=None, reuse=None):
    layer = Conv2DTranspose(filters, kernel_size, strides=strides, padding=padding, data_format=data_format,
                            activation=activation, use_bias=use_bias, kernel_initializer=kernel_initializer,
                            bias_initializer=bias_initializer, kernel_regularizer=kernel_regularizer,
                            bias_regularizer=bias_regularizer, activity_regularizer=activity_regularizer,
                            kernel_constraint=kernel_constraint, bias_constraint=bias_constraint,
                            trainable=trainable, name=name, _scope=name, _reuse=reuse)
    return layer(inputs)


class _Pooling(Layer):
    rank = 2
    kind = "MAX"

    def __init__(self, pool_size, strides, padding="valid", data_format="channels_last", name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.pool_size = _tuple(pool_size, self.rank, "pool_size")
        self.strides = _tuple(strides, self.rank, "strides")
        self.padding = _padding(padding)
        self.data_format = data_format
        self._format = _nn_format(data_format, self.rank)

    def call(self, inputs):
        return _tf().nn.pool(inputs, list(self.pool_size), self.kind, strides=list(self.strides),
                             padding=self.padding, data_format=self._format)


def _pooling_class(name, rank, kind):
    return type(name, (_Pooling,), {"rank": rank, "kind": kind, "__doc__": f"TF1's {name} layer.",
                                    "__module__": __name__})


MaxPooling1D = _pooling_class("MaxPooling1D", 1, "MAX")
MaxPooling2D = _pooling_class("MaxPooling2D", 2, "MAX")
MaxPooling3D = _pooling_class("MaxPooling3D", 3, "MAX")
AveragePooling1D = _pooling_class("AveragePooling1D", 1, "AVG")
AveragePooling2D = _pooling_class("AveragePooling2D", 2, "AVG")
AveragePooling3D = _pooling_class("AveragePooling3D", 3, "AVG")


def _pooling_function(cls, function_name):
    def apply(inputs, pool_size, strides, padding="valid", data_format="channels_last", name=None):
        return cls(pool_size, strides, padding=padding, data_format=data_format, name=name)(inputs)

    apply.__name__ = apply.__qualname__ = function_name
    return apply


max_pooling1d = _pooling_function(MaxPooling1D, "max_pooling1d")
max_pooling2d = _pooling_function(MaxPooling2D, "max_pooling2d")
max_pooling3d = _pooling_function(MaxPooling3D, "max_pooling3d")
average_pooling1d = _pooling_function(AveragePooling1D, "average_pooling1d")
average_pooling2d = _pooling_function(AveragePooling2D, "average_pooling2d")
average_pooling3d = _pooling_function(AveragePooling3D, "average_pooling3d")

# TF1's short aliases
Convolution1D, Convolution2D, Convolution3D, Convolution2DTranspose = Conv1D, Conv2D, Conv3D, Conv2DTranspose
MaxPool1D, MaxPool2D, MaxPool3D = MaxPooling1D, MaxPooling2D, MaxPooling3D
AvgPool1D, AvgPool2D, AvgPool3D = AveragePooling1D, AveragePooling2D, AveragePooling3D
