"""RandomContrast, RandomBrightness, RandomGrayscale, RandomSaturation, RandomHue and RandomColorJitter:
per-image value changes drawn from a seed generator as Keras 3 draws them, clipped to the layer's value_range
where Keras clips. Each colour layer's `augment(images, generator)` is what RandomColorJitter chains, drawing
from its own generator as Keras does."""

from __future__ import annotations

import tinytf as _tf

from ... import random as keras_random
from .image_layer_base import BaseImagePreprocessingLayer, batch_size


def checked_value_range(value_range) -> list:
    if not isinstance(value_range, (tuple, list)) or len(value_range) != 2:
        raise ValueError("The `value_range` argument should be a list of two numbers. Received: "
                         f"value_range={value_range}")
    return sorted(value_range)


def _rescale(images, source, target):
    """Keras' _transform_value_range: values from one [min, max] range to another (as given when equal)."""
    if source[0] == target[0] and source[1] == target[1]:
        return images
    images = (images - float(source[0])) / (float(source[1]) - float(source[0]))
    return images * (float(target[1]) - float(target[0])) + float(target[0])


class RandomContrast(BaseImagePreprocessingLayer):
    """(x - mean) * c + mean per image and channel, c drawn from [1 - factor[0], 1 + factor[1]] with the factor
    bounded to [0, 1] as Keras 3 bounds it (so a number f gives c in [1, 1 + f]), then clipped to value_range."""

    _KEEPS_GEOMETRY = True

    _FACTOR_BOUNDS = (0, 1)

    def __init__(self, factor, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(**kwargs)
        self._set_factor(factor)
        self.value_range, self.seed = value_range, seed
        self.generator = self._make_generator(seed)

    def transform(self, images, training):
        return self.augment(images, self.generator) if training else images

    def augment(self, images, generator):
        factor = keras_random.uniform((batch_size(images), 1, 1, 1), 1.0 - self.factor[0], 1.0 + self.factor[1],
                                      dtype=self.compute_dtype, seed=generator)
        mean = _tf.reduce_mean(_tf.reduce_mean(images, axis=1, keepdims=True), axis=2, keepdims=True)
        out = (images - mean) * factor + mean
        return _tf.clip_by_value(out, _tf.cast(self.value_range[0], out.dtype),
                                 _tf.cast(self.value_range[1], out.dtype))

    def get_config(self) -> dict:
        return {**super().get_config(), "factor": self.factor, "value_range": self.value_range, "seed": self.seed}


class RandomBrightness(BaseImagePreprocessingLayer):
    """x + delta per image, delta drawn from factor times the width of value_range, then clipped to it."""

    _KEEPS_GEOMETRY = True

    def __init__(self, factor, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(factor=factor, **kwargs)
        self.seed = seed
        self.generator = self._make_generator(seed)
        self.value_range = checked_value_range(value_range)

    def transform(self, images, training):
        return self.augment(images, self.generator) if training else images

    def augment(self, images, generator):
        delta = keras_random.uniform((batch_size(images), 1, 1, 1), self.factor[0], self.factor[1],
                                     seed=generator)
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

    def call(self, inputs, training=True):
        if isinstance(inputs, dict):
            # Keras 3.15's RandomGrayscale reads the input's `.shape` before looking for "images": a dict input
            # fails there, with this error
            raise AttributeError(f"Layer '{self.name}' (RandomGrayscale) takes images only, not a dict: 'dict' "
                                 "object has no attribute 'shape'")
        return super().call(inputs, training)

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


class RandomSaturation(BaseImagePreprocessingLayer):
    """Saturation times f / (1 - f + 1e-7) per image, f drawn from the factor range (0.5 keeps the image, 0 greys
    it, 1 saturates it), the saturation then clipped to value_range as Keras 3 clips it."""

    _KEEPS_GEOMETRY = True

    def __init__(self, factor, value_range=(0, 255), data_format=None, seed=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self._set_factor(factor)
        self.value_range = checked_value_range(value_range)
        self.seed = seed
        self.generator = self._make_generator(seed)

    def transform(self, images, training):
        return self.augment(images, self.generator) if training else images

    def augment(self, images, generator):
        factor = keras_random.uniform((batch_size(images),), self.factor[0], self.factor[1], seed=generator)
        factor = _tf.reshape(_tf.cast(factor / (1 - factor + 1e-7), images.dtype), [-1, 1, 1])
        hue, saturation, value = _tf.unstack(_tf.image.rgb_to_hsv(images), 3, axis=-1)
        saturation = _tf.clip_by_value(saturation * factor, float(self.value_range[0]), float(self.value_range[1]))
        return _tf.image.hsv_to_rgb(_tf.stack([hue, saturation, value], axis=-1))

    def get_config(self) -> dict:
        return {**super().get_config(), "factor": self.factor, "value_range": self.value_range, "seed": self.seed}


class RandomHue(BaseImagePreprocessingLayer):
    """Hue turned per image by +-f / 2 of a turn, f drawn from the factor range (bounded to [0, 1]) and the sign
    by a fair draw, on images rescaled from value_range to [0, 1] and back."""

    _KEEPS_GEOMETRY = True

    _FACTOR_BOUNDS = (0, 1)

    def __init__(self, factor, value_range=(0, 255), data_format=None, seed=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self._set_factor(factor)
        self.value_range = value_range
        self.seed = seed
        self.generator = self._make_generator(seed)

    def transform(self, images, training):
        return self.augment(images, self.generator) if training else images

    def augment(self, images, generator):
        n = batch_size(images)
        invert = keras_random.uniform((n,), seed=generator)
        invert = _tf.where(invert > 0.5, -_tf.ones_like(invert), _tf.ones_like(invert))
        factor = keras_random.uniform((n,), self.factor[0], self.factor[1], seed=generator)
        turn = _tf.reshape(_tf.cast(invert * factor * 0.5, images.dtype), [-1, 1, 1])
        images = _rescale(images, self.value_range, (0, 1))
        hue, saturation, value = _tf.unstack(_tf.image.rgb_to_hsv(images), 3, axis=-1)
        hue = hue + turn
        hue = _tf.where(hue > 1.0, hue - 1.0, hue)
        hue = _tf.where(hue < 0.0, hue + 1.0, hue)
        images = _tf.clip_by_value(_tf.image.hsv_to_rgb(_tf.stack([hue, saturation, value], axis=-1)), 0.0, 1.0)
        return _rescale(images, (0, 1), self.value_range)

    def get_config(self) -> dict:
        return {**super().get_config(), "factor": self.factor, "value_range": self.value_range, "seed": self.seed}


class RandomColorJitter(BaseImagePreprocessingLayer):
    """RandomBrightness, RandomContrast, RandomSaturation and RandomHue in that order (those whose factor is
    given), every draw from this layer's own seed generator, as Keras 3 chains them."""

    _KEEPS_GEOMETRY = True

    _USE_BASE_FACTOR = False

    def __init__(self, value_range=(0, 255), brightness_factor=None, contrast_factor=None, saturation_factor=None,
                 hue_factor=None, seed=None, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.value_range = value_range
        self.brightness_factor, self.contrast_factor = brightness_factor, contrast_factor
        self.saturation_factor, self.hue_factor = saturation_factor, hue_factor
        self.seed = seed
        self.generator = self._make_generator(seed)  # made first: later default seeds stay in Keras' order
        made = [(RandomBrightness, brightness_factor), (RandomContrast, contrast_factor),
                (RandomSaturation, saturation_factor), (RandomHue, hue_factor)]
        self.random_brightness, self.random_contrast, self.random_saturation, self.random_hue = [
            None if factor is None else layer(factor=factor, value_range=value_range, seed=seed)
            for layer, factor in made]

    def transform(self, images, training):
        if not training:
            return images
        for layer in (self.random_brightness, self.random_contrast, self.random_saturation, self.random_hue):
            if layer is not None:
                images = _tf.cast(layer.augment(images, self.generator), self.compute_dtype)
        return images

    def get_config(self) -> dict:
        return {**super().get_config(), "value_range": self.value_range,
                "brightness_factor": self.brightness_factor, "contrast_factor": self.contrast_factor,
                "saturation_factor": self.saturation_factor, "hue_factor": self.hue_factor, "seed": self.seed}
