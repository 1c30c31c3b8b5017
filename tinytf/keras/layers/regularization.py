"""Keras' regularization layers beyond Dropout: GaussianNoise, GaussianDropout, SpatialDropout1D/2D (whole
channels dropped), ActivityRegularization; and the small Identity and UnitNormalization layers. The random ones
act only in training and draw their seed generator's default seed when made, as Keras does."""

from __future__ import annotations

import math

import tinytf as _tf

from .. import regularizers
from ..random import SeedGenerator
from ..random import normal as _seeded_normal
from .core import Dropout
from .input_spec import InputSpec
from .layer import Layer


class _TrainingNoise(Layer):
    """A layer that changes its inputs in training only, by an amount (stddev or rate) in [0, 1]; it makes its
    seed generator when the amount is not zero, as Keras does."""

    _amount_name = "rate"

    def __init__(self, amount, seed=None, **kwargs):
        super().__init__(**kwargs)
        if not 0 <= amount <= 1:
            raise ValueError(f"Invalid value received for argument `{self._amount_name}`. Expected a float value "
                             f"between 0 and 1. Received: {self._amount_name}={amount}")
        self.seed = seed
        setattr(self, self._amount_name, amount)
        if amount > 0:
            self.seed_generator = SeedGenerator(seed)
        self.supports_masking = True
        self._build_at_init()

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self) -> dict:
        return {**super().get_config(), self._amount_name: getattr(self, self._amount_name), "seed": self.seed}


class GaussianNoise(_TrainingNoise):
    """inputs + N(0, stddev) noise, in training only."""

    _amount_name = "stddev"

    def __init__(self, stddev, seed=None, **kwargs):
        super().__init__(stddev, seed=seed, **kwargs)

    def call(self, inputs, training=False):
        if not training or self.stddev == 0:
            return inputs
        return inputs + _seeded_normal(_tf.shape(inputs), mean=0.0, stddev=self.stddev, dtype=inputs.dtype,
                                       seed=self.seed_generator)


class GaussianDropout(_TrainingNoise):
    """inputs * N(1, sqrt(rate / (1 - rate))) noise, in training only: dropout's mean and variance, no zeros."""

    def __init__(self, rate, seed=None, **kwargs):
        super().__init__(rate, seed=seed, **kwargs)

    def call(self, inputs, training=False):
        if not training or not 0 < self.rate < 1:
            return inputs
        stddev = math.sqrt(self.rate / (1.0 - self.rate))
        return inputs * _seeded_normal(_tf.shape(inputs), mean=1.0, stddev=stddev, dtype=inputs.dtype,
                                       seed=self.seed_generator)


class SpatialDropout1D(Dropout):
    """Dropout of whole channels of (batch, steps, channels) inputs: one draw per example and channel."""

    def __init__(self, rate, seed=None, **kwargs):
        super().__init__(rate, seed=seed, **kwargs)
        self.input_spec = InputSpec(ndim=3)

    def call(self, inputs, training=False):
        self.noise_shape = (None, 1, None)
        try:
            return super().call(inputs, training=training)
        finally:
            self.noise_shape = None

    def get_config(self) -> dict:
        config = super().get_config()
        for key in ("noise_shape", "trainable"):  # Keras' spatial dropouts list neither
            config.pop(key, None)
        return config


class SpatialDropout2D(Dropout):
    """Dropout of whole feature maps of 4-D inputs (channels last, or first with data_format)."""

    def __init__(self, rate, data_format=None, seed=None, **kwargs):
        super().__init__(rate, seed=seed, **kwargs)
        self.data_format = data_format or "channels_last"
        if self.data_format not in ("channels_last", "channels_first"):
            raise ValueError(f"`data_format` must be one of 'channels_last', 'channels_first'. Received: "
                             f"data_format={data_format}")
        self.input_spec = InputSpec(ndim=4)

    def call(self, inputs, training=False):
        self.noise_shape = (None, 1, 1, None) if self.data_format == "channels_last" else (None, None, 1, 1)
        try:
            return super().call(inputs, training=training)
        finally:
            self.noise_shape = None

    def get_config(self) -> dict:
        config = super().get_config()
        for key in ("noise_shape", "trainable"):
            config.pop(key, None)
        return {**config, "data_format": self.data_format}


class ActivityRegularization(Layer):
    """Passes its inputs through and adds an L1/L2 penalty of them to the losses."""

    def __init__(self, l1=0.0, l2=0.0, **kwargs):
        super().__init__(activity_regularizer=regularizers.L1L2(l1=l1, l2=l2), **kwargs)
        self.l1, self.l2 = l1, l2
        self.supports_masking = True
        self._build_at_init()

    def call(self, inputs):
        return inputs

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self) -> dict:
        config = super().get_config()
        config.pop("activity_regularizer", None)
        return {**config, "l1": self.l1, "l2": self.l2}


class Identity(Layer):
    """Returns its inputs unchanged (a placeholder in a model's structure)."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self._build_at_init()

    def call(self, inputs):
        return inputs

    def compute_output_shape(self, input_shape):
        return input_shape


class UnitNormalization(Layer):
    """inputs / ||inputs|| over `axis` (L2, with Keras' 1e-12 floor on the squared norm)."""

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = list(axis) if isinstance(axis, (list, tuple)) else axis
        self.supports_masking = True
        self._build_at_init()

    def call(self, inputs):
        squared = _tf.reduce_sum(_tf.square(inputs), axis=self.axis, keepdims=True)
        return inputs * _tf.math.rsqrt(_tf.maximum(squared, _tf.cast(1e-12, inputs.dtype)))

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self) -> dict:
        return {**super().get_config(), "axis": self.axis}
