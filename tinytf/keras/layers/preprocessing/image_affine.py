"""RandomRotation, RandomZoom and RandomTranslation: one affine map per image, drawn from the layer's seed
generator in Keras 3's order, applied by the ImageProjectiveTransformV3 op (runtime/ops/image_transform.py)
with the layer's fill_mode ("reflect", "wrap", "constant", "nearest"), interpolation ("bilinear",
"nearest") and fill_value. In inference the images pass through."""

from __future__ import annotations

import math

import tinytf as _tf
from tinytf.runtime.ops.image_transform import image_projective_transform_v3

from ... import random as keras_random
from .image_layer_base import BaseImagePreprocessingLayer, batch_size, height_width

_FILL_MODES = ("reflect", "wrap", "constant", "nearest")
_INTERPOLATIONS = ("nearest", "bilinear")


def affine_transform(images, transforms, interpolation, fill_mode, fill_value):
    """Keras' ops.image.affine_transform on a channels-last batch: TF's ImageProjectiveTransformV3 with the
    images' own height and width as the output size."""
    height, width = height_width(images)
    size = [height, width] if isinstance(height, int) and isinstance(width, int) else _tf.shape(images)[1:3]
    return image_projective_transform_v3(images, _tf.cast(transforms, "float32"), size, fill_value=fill_value,
                                         interpolation=interpolation.upper(), fill_mode=fill_mode.upper())


class _AffineLayer(BaseImagePreprocessingLayer):
    """The fill and interpolation arguments the three layers share, checked as Keras checks them."""

    def _set_fill(self, fill_mode, interpolation, fill_value, seed):
        if fill_mode not in _FILL_MODES:
            raise NotImplementedError(f"Unknown `fill_mode` {fill_mode}. Expected of one {_FILL_MODES}.")
        if interpolation not in _INTERPOLATIONS:
            raise NotImplementedError(f"Unknown `interpolation` {interpolation}. Expected of one "
                                      f"{_INTERPOLATIONS}.")
        self.fill_mode, self.interpolation, self.fill_value, self.seed = fill_mode, interpolation, fill_value, seed

    def transform(self, images, training):
        if not training:
            return images
        return affine_transform(images, self.transforms(images), self.interpolation, self.fill_mode,
                                self.fill_value)

    def get_config(self) -> dict:
        return {**super().get_config(), "fill_mode": self.fill_mode, "fill_value": self.fill_value,
                "interpolation": self.interpolation, "seed": self.seed}


def _zeros(n):
    return _tf.zeros(_tf.stack([n, 1]) if not isinstance(n, int) else (n, 1))


class RandomRotation(_AffineLayer):
    """Rotate each image by an angle drawn from factor * [-360, 360] degrees (factor a fraction of a turn),
    about the image's centre."""

    def __init__(self, factor, fill_mode="reflect", interpolation="bilinear", seed=None, fill_value=0.0,
                 data_format=None, **kwargs):
        super().__init__(factor=factor, data_format=data_format, **kwargs)
        self.generator = self._make_generator(seed)
        self._set_fill(fill_mode, interpolation, fill_value, seed)

    def transforms(self, images):
        """Keras' _compute_affine_matrix for a rotation about (0.5, 0.5) of the image (no shift, scale 1)."""
        height, width = height_width(images)
        angle = keras_random.uniform((batch_size(images),), self.factor[0] * 360.0, self.factor[1] * 360.0,
                                     seed=self.generator)
        angle = angle * _tf.constant(math.pi / 180.0)
        cx = 0.5 * (_tf.cast(width, "float32") - 1)
        cy = 0.5 * (_tf.cast(height, "float32") - 1)
        cos, sin = _tf.cos(angle), _tf.sin(angle)
        a0, a1 = cos, -sin
        a2 = cx - cx * a0 - cy * a1
        b0, b1 = sin, cos
        b2 = cy - cx * b0 - cy * b1
        zeros = _tf.zeros_like(angle)
        return _tf.stack([a0, a1, a2, b0, b1, b2, zeros, zeros], axis=1)

    def get_config(self) -> dict:
        return {**super().get_config(), "factor": self.factor}


def _factor_pair(factor, name, message):
    """Keras' zoom/translation factor: a number f in (-1, 1] as (-|f|, |f|), or a sorted pair."""
    def check(number):
        if number > 1.0 or number <= -1.0:
            raise ValueError(message + f"Received: input_number={number}")

    if isinstance(factor, (tuple, list)):
        if len(factor) != 2:
            raise ValueError(message + f"Received: {name}={factor}")
        check(factor[0])
        check(factor[1])
        return tuple(sorted(factor))
    if isinstance(factor, (int, float)) and not isinstance(factor, bool):
        check(factor)
        return (-abs(factor), abs(factor))
    raise ValueError(message + f"Received: {name}={factor}")


class RandomZoom(_AffineLayer):
    """Zoom each image by 1 + a draw from height_factor (and width_factor, or the same draw for both axes when it
    is None); positive factors zoom out, negative ones zoom in."""

    _USE_BASE_FACTOR = False
    _MESSAGE = ("The `height_factor` and `width_factor` arguments should be a number (or a list of two numbers) "
                "in the range [-1.0, 1.0]. ")

    def __init__(self, height_factor, width_factor=None, fill_mode="reflect", interpolation="bilinear", seed=None,
                 fill_value=0.0, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.height_factor, self.width_factor = height_factor, width_factor
        self.height_lower, self.height_upper = _factor_pair(height_factor, "height_factor", self._MESSAGE)
        if width_factor is not None:
            self.width_lower, self.width_upper = _factor_pair(width_factor, "width_factor", self._MESSAGE)
        self._set_fill(fill_mode, interpolation, fill_value, seed)
        self.generator = self._make_generator(seed)

    def transforms(self, images):
        height, width = height_width(images)
        n = batch_size(images)
        height_zoom = keras_random.uniform((n, 1), 1.0 + self.height_lower, 1.0 + self.height_upper,
                                           seed=self.generator)
        width_zoom = height_zoom if self.width_factor is None else keras_random.uniform(
            (n, 1), 1.0 + self.width_lower, 1.0 + self.width_upper, seed=self.generator)
        x_offset = ((_tf.cast(width, "float32") - 1.0) / 2.0) * (1.0 - width_zoom)
        y_offset = ((_tf.cast(height, "float32") - 1.0) / 2.0) * (1.0 - height_zoom)
        zeros = _zeros(n)
        return _tf.concat([width_zoom, zeros, x_offset, zeros, height_zoom, y_offset, zeros, zeros], axis=1)

    def get_config(self) -> dict:
        return {**super().get_config(), "height_factor": self.height_factor, "width_factor": self.width_factor}


class RandomTranslation(_AffineLayer):
    """Shift each image by a draw from height_factor (a fraction of its height) and width_factor (of its
    width)."""

    _USE_BASE_FACTOR = False
    _MESSAGE = ("The `height_factor` and `width_factor` arguments should be a number (or a list of two numbers) "
                "in the range [-1.0, 1.0]. ")

    def __init__(self, height_factor, width_factor, fill_mode="reflect", interpolation="bilinear", seed=None,
                 fill_value=0.0, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.height_factor, self.width_factor = height_factor, width_factor
        self.height_lower, self.height_upper = _factor_pair(height_factor, "height_factor", self._MESSAGE)
        self.width_lower, self.width_upper = _factor_pair(width_factor, "width_factor", self._MESSAGE)
        self._set_fill(fill_mode, interpolation, fill_value, seed)
        self.generator = self._make_generator(seed)

    def transforms(self, images):
        height, width = height_width(images)
        n = batch_size(images)
        dy = keras_random.uniform((n, 1), self.height_lower, self.height_upper, seed=self.generator)
        dy = dy * _tf.cast(height, "float32")
        dx = keras_random.uniform((n, 1), self.width_lower, self.width_upper, seed=self.generator)
        dx = dx * _tf.cast(width, "float32")
        ones, zeros = _tf.ones_like(dx), _zeros(n)
        return _tf.concat([ones, zeros, -dx, zeros, ones, -dy, zeros, zeros], axis=1)

    def get_config(self) -> dict:
        return {**super().get_config(), "height_factor": self.height_factor, "width_factor": self.width_factor}
