"""AlphaDropout as tf.keras exports it in TF 2.21 (Keras' deprecated legacy layer: no check of `rate`, a
config of rate and seed only): dropout for SELU networks. Dropped units take SELU's negative saturation value
and an affine correction keeps the inputs' mean and variance, so self-normalization survives training."""

from __future__ import annotations

import tinytf as _tf

from .. import random as keras_random
from .layer import Layer

_ALPHA, _SCALE = 1.6732632423543772, 1.0507009873554805


class AlphaDropout(Layer):
    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.rate, self.noise_shape, self.seed = rate, noise_shape, seed
        self.seed_generator = keras_random.SeedGenerator(seed)  # always made here, as the legacy layer does
        self.supports_masking = True
        self._build_at_init()

    def call(self, inputs, training=False):
        if not training or self.rate <= 0:
            return inputs
        shape = _tf.shape(inputs) if self.noise_shape is None else self.noise_shape  # the legacy layer's
        alpha_p = -_ALPHA * _SCALE
        kept = _tf.cast(keras_random.uniform(shape, seed=self.seed_generator) >= self.rate, inputs.dtype)
        a = ((1 - self.rate) * (1 + self.rate * alpha_p ** 2)) ** -0.5
        b = -a * alpha_p * self.rate
        return a * (inputs * kept + alpha_p * (1 - kept)) + b

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self) -> dict:
        return {**super().get_config(), "rate": self.rate, "seed": self.seed}
