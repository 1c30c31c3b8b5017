"""tf.compat.v1.layers' core layers: Dense, Dropout, Flatten, each as a class and as TF1's function form
(`tf.layers.dense(x, 10, name="logits", reuse=...)`), with TF1 variable names (`dense/kernel:0`)."""

from __future__ import annotations

from ..initializers import zeros_initializer
from ..legacy_layer import Layer


def _tf():
    import tinytf

    return tinytf


def activation_of(activation):
    if activation is None or callable(activation):
        return activation
    return _tf().keras.activations.get(activation)


def smart_cond(training, if_true, if_false):
    """A Python bool picks a branch now; a boolean tensor (a placeholder `is_training`) builds a cond."""
    tf = _tf()
    if tf.is_tensor(training):
        return tf.cond(tf.cast(training, tf.bool), if_true, if_false)
    return if_true() if training else if_false()


class Dense(Layer):
    """outputs = activation(inputs @ kernel + bias); inputs of rank > 2 contract their last axis."""

    def __init__(self, units, activation=None, use_bias=True, kernel_initializer=None,
                 bias_initializer=zeros_initializer(), kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, bias_constraint=None, trainable=True, name=None,
                 **kwargs):
        super().__init__(trainable=trainable, name=name, activity_regularizer=activity_regularizer, **kwargs)
        self.units = int(units)
        self.activation = activation_of(activation)
        self.use_bias = use_bias
        self.kernel_initializer = kernel_initializer
        self.bias_initializer = bias_initializer
        self.kernel_regularizer = kernel_regularizer
        self.bias_regularizer = bias_regularizer
        self.kernel_constraint = kernel_constraint
        self.bias_constraint = bias_constraint

    def build(self, input_shape):
        depth = input_shape[-1]
        if depth is None:
            raise ValueError("The last dimension of the inputs to a Dense layer should be defined. Found None. "
                             f"Full input shape received: {input_shape}")
        self.kernel = self.add_weight("kernel", shape=[int(depth), self.units], initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer, constraint=self.kernel_constraint)
        self.bias = None
        if self.use_bias:
            self.bias = self.add_weight("bias", shape=[self.units], initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer, constraint=self.bias_constraint)
        self.built = True

    def call(self, inputs):
        tf = _tf()
        inputs = tf.convert_to_tensor(inputs)
        if inputs.dtype != self.kernel.dtype:
            inputs = tf.cast(inputs, self.kernel.dtype)
        if inputs.shape.rank is not None and inputs.shape.rank > 2:
            outputs = tf.tensordot(inputs, self.kernel, [[inputs.shape.rank - 1], [0]])
        else:
            outputs = tf.matmul(inputs, self.kernel)
        if self.use_bias:
            outputs = tf.nn.bias_add(outputs, self.bias)
        return self.activation(outputs) if self.activation is not None else outputs

    def get_config(self):
        return {**super().get_config(), "units": self.units, "use_bias": self.use_bias}


def dense(inputs, units, activation=None, use_bias=True, kernel_initializer=None,
          bias_initializer=zeros_initializer(), kernel_regularizer=None, bias_regularizer=None,
          activity_regularizer=None, kernel_constraint=None, bias_constraint=None, trainable=True, name=None,
          reuse=None):
    """`tf.compat.v1.layers.dense`: a Dense layer made and applied once (named `name`, shared with `reuse`)."""
    layer = Dense(units, activation=activation, use_bias=use_bias, kernel_initializer=kernel_initializer,
                  bias_initializer=bias_initializer, kernel_regularizer=kernel_regularizer,
                  bias_regularizer=bias_regularizer, activity_regularizer=activity_regularizer,
                  kernel_constraint=kernel_constraint, bias_constraint=bias_constraint, trainable=trainable,
                  name=name, _scope=name, _reuse=reuse)
    return layer(inputs)


class Dropout(Layer):
    """Zeroes a fraction `rate` of the inputs and scales the rest by 1 / (1 - rate), only when training."""

    def __init__(self, rate=0.5, noise_shape=None, seed=None, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.rate = rate
        self.noise_shape = noise_shape
        self.seed = seed

    def call(self, inputs, training=False):
        tf = _tf()
        return smart_cond(training,
                          lambda: tf.nn.dropout(inputs, rate=self.rate, noise_shape=self.noise_shape, seed=self.seed),
                          lambda: tf.identity(inputs))


def dropout(inputs, rate=0.5, noise_shape=None, seed=None, training=False, name=None):
    layer = Dropout(rate, noise_shape=noise_shape, seed=seed, name=name)
    return layer(inputs, training=training)


class Flatten(Layer):
    """[batch, d1, d2, ...] -> [batch, d1 * d2 * ...] (channels_first inputs are moved to channels last first)."""

    def __init__(self, data_format="channels_last", name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.data_format = data_format

    def call(self, inputs):
        tf = _tf()
        inputs = tf.convert_to_tensor(inputs)
        rank = inputs.shape.rank
        if self.data_format == "channels_first" and rank is not None and rank > 2:
            inputs = tf.transpose(inputs, [0] + list(range(2, rank)) + [1])
        dims = inputs.shape.as_list()[1:]
        if rank is not None and all(d is not None for d in dims):
            size = 1
            for d in dims:
                size *= d
            return tf.reshape(inputs, [-1 if inputs.shape[0] is None else inputs.shape[0], size])
        return tf.reshape(inputs, tf.stack([tf.shape(inputs)[0], -1]))


def flatten(inputs, name=None, data_format="channels_last"):
    return Flatten(data_format=data_format, name=name)(inputs)


__all__ = ["Dense", "Dropout", "Flatten", "dense", "dropout", "flatten"]
