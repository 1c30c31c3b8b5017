"""Normalization layers: BatchNormalization (batch statistics in training, moving averages in inference),
LayerNormalization, and the preprocessing layer Normalization (mean and variance learned by `adapt`)."""

from __future__ import annotations

import numpy as np

import tinytf as _tf

from .. import constraints, initializers, regularizers
from .input_spec import InputSpec
from .layer import Layer


def _axes(axis, rank):
    axis = [axis] if isinstance(axis, int) else list(axis)
    return sorted(a % rank for a in axis)


class BatchNormalization(Layer):
    """(x - mean) / sqrt(var + epsilon) * gamma + beta, with the batch's statistics when training (and the
    moving averages updated by `momentum`), the moving averages otherwise."""

    def __init__(self, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True, beta_initializer="zeros",
                 gamma_initializer="ones", moving_mean_initializer="zeros", moving_variance_initializer="ones",
                 beta_regularizer=None, gamma_regularizer=None, beta_constraint=None, gamma_constraint=None,
                 synchronized=False, **kwargs):
        super().__init__(**kwargs)
        self.axis, self.momentum, self.epsilon, self.center, self.scale = axis, momentum, epsilon, center, scale
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.moving_mean_initializer = initializers.get(moving_mean_initializer)
        self.moving_variance_initializer = initializers.get(moving_variance_initializer)
        self.beta_regularizer = regularizers.get(beta_regularizer)
        self.gamma_regularizer = regularizers.get(gamma_regularizer)
        self.beta_constraint = constraints.get(beta_constraint)
        self.gamma_constraint = constraints.get(gamma_constraint)
        self.synchronized = synchronized
        self.supports_masking = True

    def build(self, input_shape) -> None:
        rank = len(input_shape)
        axis = self.axis % rank
        shape = (input_shape[axis],)
        # Keras 3 keeps BatchNormalization's weights out of autocasting: a mixed layer reads them in float32
        self.gamma = self.add_weight(shape=shape, name="gamma", initializer=self.gamma_initializer,
                                     regularizer=self.gamma_regularizer, constraint=self.gamma_constraint,
                                     autocast=False) if self.scale else None
        self.beta = self.add_weight(shape=shape, name="beta", initializer=self.beta_initializer,
                                    regularizer=self.beta_regularizer, constraint=self.beta_constraint,
                                    autocast=False) if self.center else None
        self.moving_mean = self.add_weight(shape=shape, name="moving_mean", initializer=self.moving_mean_initializer,
                                           trainable=False, autocast=False)
        self.moving_variance = self.add_weight(shape=shape, name="moving_variance",
                                               initializer=self.moving_variance_initializer, trainable=False,
                                               autocast=False)
        self.input_spec = InputSpec(ndim=rank, axes={self.axis: input_shape[axis]})
        self._reduction_axes = [a for a in range(rank) if a != axis]
        self._broadcast = [1] * rank
        self._broadcast[axis] = input_shape[axis]

    def call(self, inputs, training=None, mask=None):
        # Keras 3: batch statistics overflow in 16 bits, so float16/bfloat16 inputs are normalized in float32 (the
        # weights, read as the compute dtype inside a mixed layer, are cast back up) and the result cast down
        inputs = _up_from_half(inputs)

        def shaped(v):
            return _tf.reshape(_same_dtype(v, inputs.dtype), self._broadcast)

        if mask is not None and len(mask.shape) != len(inputs.shape) - 1:
            raise ValueError(f"The mask provided should be one dimension less than the inputs. Received: "
                             f"mask.shape={tuple(mask.shape.as_list())}, inputs.shape={tuple(inputs.shape.as_list())}")
        moving_mean = _same_dtype(self.moving_mean, inputs.dtype)
        moving_variance = _same_dtype(self.moving_variance, inputs.dtype)
        if training and self.trainable:
            mean, variance = self._moments(inputs, mask)
            self.moving_mean.assign(moving_mean * self.momentum + mean * (1.0 - self.momentum))
            self.moving_variance.assign(moving_variance * self.momentum + variance * (1.0 - self.momentum))
        else:
            mean, variance = moving_mean, moving_variance
        outputs = (inputs - shaped(mean)) * shaped(_tf.rsqrt(variance + self.epsilon))
        if self.gamma is not None:
            outputs = outputs * shaped(self.gamma)
        if self.beta is not None:
            outputs = outputs + shaped(self.beta)
        return _same_dtype(outputs, self.compute_dtype)

    def _moments(self, inputs, mask):
        """Batch mean and variance; with a mask, over the kept positions only (Keras 3's weighted moments,
        epsilon in the denominators included)."""
        if mask is None:
            return _tf.nn.moments(inputs, axes=self._reduction_axes)
        keep = _tf.logical_or(_tf.cast(_tf.expand_dims(mask, -1), _tf.bool), _tf.zeros_like(inputs, dtype=_tf.bool))
        weights = _tf.reduce_sum(_tf.cast(keep, inputs.dtype), self._reduction_axes, keepdims=True)
        total = _tf.reduce_sum(_tf.where(keep, inputs, _tf.zeros_like(inputs)), self._reduction_axes, keepdims=True)
        mean = total / (weights + 1e-7)
        spread = _tf.where(keep, inputs - mean, _tf.zeros_like(inputs))
        variance = _tf.reduce_sum(_tf.square(spread), self._reduction_axes, keepdims=True) / (weights + 1e-7)
        return _tf.squeeze(mean, self._reduction_axes), _tf.squeeze(variance, self._reduction_axes)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self) -> dict:
        return {**super().get_config(), "axis": self.axis, "momentum": self.momentum, "epsilon": self.epsilon,
                "center": self.center, "scale": self.scale,
                "beta_initializer": initializers.serialize(self.beta_initializer),
                "gamma_initializer": initializers.serialize(self.gamma_initializer),
                "moving_mean_initializer": initializers.serialize(self.moving_mean_initializer),
                "moving_variance_initializer": initializers.serialize(self.moving_variance_initializer),
                "beta_regularizer": regularizers.serialize(self.beta_regularizer),
                "gamma_regularizer": regularizers.serialize(self.gamma_regularizer),
                "beta_constraint": constraints.serialize(self.beta_constraint),
                "gamma_constraint": constraints.serialize(self.gamma_constraint), "synchronized": self.synchronized}


class LayerNormalization(Layer):
    """Normalizes each example over `axis` (the features), then scales by gamma and shifts by beta."""

    def __init__(self, axis=-1, epsilon=1e-3, center=True, scale=True, rms_scaling=False, beta_initializer="zeros",
                 gamma_initializer="ones", beta_regularizer=None, gamma_regularizer=None, beta_constraint=None,
                 gamma_constraint=None, **kwargs):
        super().__init__(**kwargs)
        self.axis, self.epsilon, self.center, self.scale, self.rms_scaling = axis, epsilon, center, scale, \
            rms_scaling
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.beta_regularizer = regularizers.get(beta_regularizer)
        self.gamma_regularizer = regularizers.get(gamma_regularizer)
        self.beta_constraint = constraints.get(beta_constraint)
        self.gamma_constraint = constraints.get(gamma_constraint)
        self.supports_masking = True
        self.autocast = False  # Keras 3: inputs and weights keep their dtypes; the call computes in float32

    def build(self, input_shape) -> None:
        rank = len(input_shape)
        self._norm_axes = _axes(self.axis, rank)
        shape = tuple(input_shape[a] for a in self._norm_axes)
        self._broadcast = [input_shape[a] if a in self._norm_axes else 1 for a in range(rank)]
        self.gamma = self.add_weight(shape=shape, name="gamma", initializer=self.gamma_initializer,
                                     regularizer=self.gamma_regularizer, constraint=self.gamma_constraint,
                                     autocast=False) if self.scale else None
        self.beta = self.add_weight(shape=shape, name="beta", initializer=self.beta_initializer,
                                    regularizer=self.beta_regularizer, constraint=self.beta_constraint,
                                    autocast=False) if self.center else None

    def call(self, inputs):
        # Keras 3 normalizes float16/bfloat16 in float32 (its weights never autocast), then casts the result to the
        # input's dtype and to the compute dtype
        input_dtype = inputs.dtype
        inputs = _up_from_half(inputs)
        mean, variance = _tf.nn.moments(inputs, axes=self._norm_axes, keepdims=True)
        outputs = (inputs - mean) * _tf.rsqrt(variance + self.epsilon)
        if self.gamma is not None:
            outputs = outputs * _tf.reshape(_same_dtype(self.gamma, inputs.dtype), self._broadcast)
        if self.beta is not None:
            outputs = outputs + _tf.reshape(_same_dtype(self.beta, inputs.dtype), self._broadcast)
        return _same_dtype(_same_dtype(outputs, input_dtype), self.compute_dtype)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self) -> dict:
        return {**super().get_config(), "axis": self.axis, "epsilon": self.epsilon, "center": self.center,
                "scale": self.scale, "rms_scaling": self.rms_scaling, **affine_config(self)}


def _up_from_half(x):
    """float16/bfloat16 tensors as float32 (what Keras' normalizations compute in); others as they are."""
    return _tf.cast(x, _tf.float32) if x.dtype in (_tf.float16, _tf.bfloat16) else x


def _same_dtype(x, dtype):
    """x (a tensor, or a weight read now) cast to dtype only when it differs (no cast node in the common float32
    graph)."""
    x = _tf.convert_to_tensor(x)
    return x if x.dtype == _tf.as_dtype(dtype) else _tf.cast(x, dtype)


def affine_config(layer) -> dict:
    """The config entries of a normalization layer's beta and gamma (initializers, regularizers, constraints), in
    Keras' order."""
    return {"beta_initializer": initializers.serialize(layer.beta_initializer),
            "gamma_initializer": initializers.serialize(layer.gamma_initializer),
            "beta_regularizer": regularizers.serialize(layer.beta_regularizer),
            "gamma_regularizer": regularizers.serialize(layer.gamma_regularizer),
            "beta_constraint": constraints.serialize(layer.beta_constraint),
            "gamma_constraint": constraints.serialize(layer.gamma_constraint)}


class Normalization(Layer):
    """(x - mean) / sqrt(var), per feature along `axis`; mean and variance given or learned by adapt(data)."""

    def __init__(self, axis=-1, mean=None, variance=None, invert=False, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis if axis is None or isinstance(axis, int) else tuple(axis)
        self.input_mean, self.input_variance, self.invert = mean, variance, invert
        if (mean is None) != (variance is None):
            raise ValueError(f"When setting values directly, both `mean` and `variance` must be set. Received: "
                             f"mean={mean} and variance={variance}")

    def build(self, input_shape) -> None:
        rank = len(input_shape)
        keep = [] if self.axis is None else _axes(self.axis, rank)
        self._keep_axes = keep
        self._broadcast = [input_shape[a] if a in keep else 1 for a in range(rank)]
        shape = tuple(input_shape[a] for a in keep)
        if self.input_mean is not None:
            # numpy, not tensors: a build inside a trace (a Functional model's first call) must leave no graph
            # constant behind for later eager calls
            self._given_mean = np.broadcast_to(np.asarray(self.input_mean, np.float32), shape)
            self._given_variance = np.broadcast_to(np.asarray(self.input_variance, np.float32), shape)
        else:
            self.adapt_mean = self.add_weight(name="mean", shape=shape, initializer="zeros", trainable=False)
            self.adapt_variance = self.add_weight(name="variance", shape=shape, initializer="ones", trainable=False)
            self.count = self.add_weight(name="count", shape=(), dtype="int64", initializer="zeros", trainable=False)

    def adapt(self, data, batch_size=None, steps=None) -> None:
        """Learn the mean and variance of `data` (an array, a tensor or an iterable of batches)."""
        if not hasattr(data, "shape"):
            data = np.concatenate([np.asarray(b) for b in data], axis=0)
        array = np.asarray(data.numpy() if hasattr(data, "numpy") else data, np.float64)
        if not self.built:
            self.build(tuple(array.shape))
            self.built = True
            self._build_input_shape = tuple(array.shape)  # what summary shows as its output shape, as Keras
        reduce_axes = tuple(a for a in range(array.ndim) if a not in self._keep_axes)
        self.adapt_mean.assign(array.mean(axis=reduce_axes).astype(np.float32))
        self.adapt_variance.assign(array.var(axis=reduce_axes).astype(np.float32))
        # Keras 3 keeps `count` at 0 after adapt (it only exists for the saved weight layout)

    # Keras 3's `mean` and `variance` attributes: the statistics in the input's broadcast shape (None before the
    # layer is built). Read from the variables each time, so they follow adapt(), set_weights and loading.
    @property
    def mean(self):
        return self._statistic("_given_mean", "adapt_mean")

    @property
    def variance(self):
        return self._statistic("_given_variance", "adapt_variance")

    def _statistic(self, given: str, adapted: str):
        if not self.built:
            return None
        value = getattr(self, given) if self.input_mean is not None else getattr(self, adapted).read_value()
        return _tf.cast(_tf.reshape(value, self._broadcast), self.compute_dtype)

    def call(self, inputs):
        mean, variance = self.mean, self.variance
        std = _tf.maximum(_tf.sqrt(variance), 1e-7)
        inputs = _tf.cast(inputs, self.compute_dtype)
        if self.invert:
            return inputs * std + mean
        return (inputs - mean) / std

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self) -> dict:
        return {**super().get_config(), "axis": self.axis, "invert": self.invert, "mean": self.input_mean,
                "variance": self.input_variance}
