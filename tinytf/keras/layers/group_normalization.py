"""GroupNormalization (Wu & He, 2018), Keras 3's: the channels along `axis` split into `groups`, each group
normalized over its channels and every non-batch axis, then scaled and shifted per channel. groups=-1 is
instance normalization, groups=1 layer normalization over all axes."""

from __future__ import annotations

import tinytf as _tf

from .. import constraints, initializers, regularizers
from .input_spec import InputSpec
from .layer import Layer
from .normalization import affine_config


class GroupNormalization(Layer):
    def __init__(self, groups=32, axis=-1, epsilon=1e-3, center=True, scale=True, beta_initializer="zeros",
                 gamma_initializer="ones", beta_regularizer=None, gamma_regularizer=None, beta_constraint=None,
                 gamma_constraint=None, **kwargs):
        if not isinstance(groups, int) or (groups <= 0 and groups != -1):
            raise ValueError("Received an invalid value for argument `groups`, expected a positive integer (or `-1` "
                             f"for instance normalization). Received: groups={groups}")
        super().__init__(**kwargs)
        self.supports_masking = True
        self.groups, self.axis, self.epsilon, self.center, self.scale = groups, axis, epsilon, center, scale
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.beta_regularizer = regularizers.get(beta_regularizer)
        self.gamma_regularizer = regularizers.get(gamma_regularizer)
        self.beta_constraint = constraints.get(beta_constraint)
        self.gamma_constraint = constraints.get(gamma_constraint)

    def build(self, input_shape) -> None:
        dim = input_shape[self.axis]
        if dim is None:
            raise ValueError(f"Axis {self.axis} of input tensor should have a defined dimension but the layer received "
                             f"an input with shape {tuple(input_shape)}.")
        if self.groups == -1:
            self.groups = dim
        if dim < self.groups:
            raise ValueError(f"Number of groups ({self.groups}) cannot be more than the number of channels ({dim}).")
        if dim % self.groups != 0:
            raise ValueError(f"Number of groups ({self.groups}) must be a multiple of the number of channels ({dim}).")
        self.input_spec = InputSpec(ndim=len(input_shape), axes={self.axis: dim})
        self.gamma = self.add_weight(shape=(dim,), name="gamma", initializer=self.gamma_initializer,
                                     regularizer=self.gamma_regularizer, constraint=self.gamma_constraint) \
            if self.scale else None
        self.beta = self.add_weight(shape=(dim,), name="beta", initializer=self.beta_initializer,
                                    regularizer=self.beta_regularizer, constraint=self.beta_constraint) \
            if self.center else None

    def call(self, inputs):
        rank = len(inputs.shape)
        axis = self.axis % rank
        dynamic = _tf.shape(inputs)
        dims = [-1] + [d if d is not None else dynamic[i] for i, d in enumerate(inputs.shape) if i > 0]
        channels = inputs.shape[axis]
        group_shape = [*dims[:axis], self.groups, channels // self.groups, *dims[axis + 1:]]
        if any(isinstance(d, _tf.Tensor) for d in group_shape):  # a dynamic spatial size
            group_shape = _tf.stack([_tf.cast(d, _tf.int32) for d in group_shape])
        grouped = _tf.reshape(inputs, group_shape)
        compute = grouped if grouped.dtype in (_tf.float32, _tf.float64) else _tf.cast(grouped, _tf.float32)
        reduce_axes = [i for i in range(1, rank + 1) if i != axis]
        mean, variance = _tf.nn.moments(compute, axes=reduce_axes, keepdims=True)
        inv = _tf.math.rsqrt(variance + self.epsilon)
        broadcast = [1] * (rank + 1)
        broadcast[axis], broadcast[axis + 1] = self.groups, channels // self.groups
        if self.gamma is not None:
            inv = inv * _tf.cast(_tf.reshape(self.gamma, broadcast), compute.dtype)
        shift = -mean * inv
        if self.beta is not None:
            shift = shift + _tf.cast(_tf.reshape(self.beta, broadcast), compute.dtype)
        normalized = _tf.cast(compute * inv + shift, inputs.dtype)
        return _tf.reshape(normalized, _tf.shape(inputs))

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self) -> dict:
        return {**super().get_config(), "groups": self.groups, "axis": self.axis, "epsilon": self.epsilon,
                "center": self.center, "scale": self.scale, **affine_config(self)}
