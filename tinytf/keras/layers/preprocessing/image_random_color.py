"""RandomContrast, RandomBrightness and RandomGrayscale: per-image value changes drawn from the layer's seed
generator as Keras 3 draws them, clipped to the layer's value_range where Keras clips."""

from __future__ import annotations

import tinytf as _tf

from ... import random as keras_random
from .image_layer_base import BaseImagePreprocessingLayer, batch_size


class RandomContrast(BaseImagePreprocessingLayer):
    """(x - mean) * c + mean per image and channel, c drawn from [1 - factor[0], 1 + factor[1]] with the factor
    bounded to [0, 1] as Keras 3 bounds it (so a number f gives c in [1, 1 + f]), then clipped to value_range."""

    _FACTOR_BOUNDS = (0, 1)

    def __init__(self, factor, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(**kwargs)
        self._set_factor(factor)
        self.value_range, self.seed = value_range, seed
        self.generator = self._make_generator(seed)

    def transform(self, images, training):
        if not training:
            return images
        factor = keras_random.uniform((batch_size(images), 1, 1, 1), 1.0 - self.factor[0], 1.0 + self.factor[1],
                                      dtype=self.compute_dtype, seed=self.generator)
        mean = _tf.reduce_mean(_tf.reduce_mean(images, axis=1, keepdims=True), axis=2, keepdims=True)
        out = (images - mean) * factor + mean
        return _tf.clip_by_value(out, _tf.cast(self.value_range[0], out.dtype),
                                 _tf.cast(self.value_range[1], out.dtype))

    def get_config(self) -> dict:
        return {**super().get_config(), "factor": self.factor, "value_range": self.value_range, "seed": self.seed}


class RandomBrightness(BaseImagePreprocessingLayer):
    """x + delta per image, delta drawn from factor times the width of value_range, then clipped to it."""

    def __init__(self, factor, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(factor=factor, **kwargs)
        self.seed = seed
        self.generator = self._make_generator(seed)
        if not isinstance(value_range, (tuple, list)) or len(value_range) != 2:
            raise ValueError("The `value_range` argument should be a list of two numbers. Received: "
                             f"value_range={value_range}")
        self.value_range = sorted(value_range)

    def transform(self, images, training):
        if not training:
            return images
        delta = keras_random.uniform((batch_size(images), 1, 1, 1), self.factor[0], self.factor[1],
                                     seed=self.generator)
        delta = delta * (self.value_range[1] - self.value_range[0])
        out = images + _tf.cast(delta, images.dtype)
        return _tf.clip_by_value(out, _tf.cast(self.value_range[0], out.dtype),
                                 _tf.cast(self.value_range[1], out.dtype))

    def get_config(self) -> dict:
        return {**super().get_config(), "factor": self.factor, "value_range": self.value_range, "seed": self.seed}


class RandomGrayscale(BaseImagePreprocessingLayer):
    """Each image turned to grey (0.2989 R + 0.5870 G + 0.1140 B in every channel) with probability `factor`."""

    _USE_BASE_FACTOR = False

    def __init__(self, factor=0.5, data_format=None, seed=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        if factor < 0 or factor > 1:
            raise ValueError(f"`factor` should be between 0 and 1. Received: factor={factor}")
        self.factor, self.seed = factor, seed
        self.generator = self._make_generator(seed)

    def transform(self, images, training):
        if not training:
            return images
        draws = keras_random.uniform((batch_size(images),), 0, 1, seed=self.generator)
        apply = _tf.reshape(draws < self.factor, [-1, 1, 1, 1])
        weights = _tf.constant([0.2989, 0.5870, 0.1140], images.dtype)
        gray = _tf.expand_dims(_tf.tensordot(images, weights, axes=[[3], [0]]), -1)
        return _tf.where(apply, gray, images)

    def get_config(self) -> dict:
        return {**super().get_config(), "factor": self.factor}
