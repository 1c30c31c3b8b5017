"""RandomRotation, RandomZoom and RandomTranslation: one affine map per image, drawn from the layer's seed
generator in Keras 3's order, applied by the ImageProjectiveTransformV3 op (runtime/ops/image_transform.py)
with the layer's fill_mode ("reflect", "wrap", "constant", "nearest"), interpolation ("bilinear",
"nearest") and fill_value. In inference the images pass through. Segmentation masks move with the same map
(nearest neighbour, in their own dtype); bounding boxes move as Keras moves them (RandomRotation through
keras.utils.bounding_boxes.affine_transform, which reads the boxes as "xyxy" whatever the layer's format, as
Keras does)."""

from __future__ import annotations

import math

import tinytf as _tf
from tinytf.keras.utils.bounding_boxes import affine_transform as affine_boxes
from tinytf.keras.utils.bounding_boxes import clip_to_image_size, convert_format
from tinytf.runtime.ops.image_transform import image_projective_transform_v3

from ... import random as keras_random
from .image_augment_base import AugmentLayer
from .image_layer_base import batch_size, height_width

_FILL_MODES = ("reflect", "wrap", "constant", "nearest")
_INTERPOLATIONS = ("nearest", "bilinear")


def affine_transform(images, transforms, interpolation, fill_mode, fill_value):
    """Keras' ops.image.affine_transform on a channels-last batch: TF's ImageProjectiveTransformV3 with the
    images' own height and width as the output size."""
    height, width = height_width(images)
    size = [height, width] if isinstance(height, int) and isinstance(width, int) else _tf.shape(images)[1:3]
    return image_projective_transform_v3(images, _tf.cast(transforms, "float32"), size, fill_value=fill_value,
                                         interpolation=interpolation.upper(), fill_mode=fill_mode.upper())


class _AffineLayer(AugmentLayer):
    """The fill and interpolation arguments the three layers share, checked as Keras checks them; the images
    and masks warped by the transformation's "matrix"."""

    def _set_fill(self, fill_mode, interpolation, fill_value, seed):
        if fill_mode not in _FILL_MODES:
            raise NotImplementedError(f"Unknown `fill_mode` {fill_mode}. Expected of one {_FILL_MODES}.")
        if interpolation not in _INTERPOLATIONS:
            raise NotImplementedError(f"Unknown `interpolation` {interpolation}. Expected of one "
                                      f"{_INTERPOLATIONS}.")
        self.fill_mode, self.interpolation, self.fill_value, self.seed = fill_mode, interpolation, fill_value, seed

    def transform_images(self, images, transformation, training=True):
        images = _tf.cast(images, self.compute_dtype)
        if not training or transformation is None:
            return images
        return self._warp(images, transformation, self.interpolation)

    def _warp(self, images, transformation, interpolation):
        return affine_transform(images, transformation["matrix"], interpolation, self.fill_mode, self.fill_value)

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

    def get_random_transformation(self, images, training=True, seed=None):
        """Keras' angle draw and its _compute_affine_matrix for a rotation about (0.5, 0.5) of the image."""
        if not training:
            return None
        height, width = height_width(images)
        n = batch_size(images)
        degrees = keras_random.uniform((n,), self.factor[0] * 360.0, self.factor[1] * 360.0,
                                       seed=self._seed(seed))
        angle = degrees * _tf.constant(math.pi / 180.0)
        cx = 0.5 * (_tf.cast(width, "float32") - 1)
        cy = 0.5 * (_tf.cast(height, "float32") - 1)
        cos, sin = _tf.cos(angle), _tf.sin(angle)
        a0, a1 = cos, -sin
        a2 = cx - cx * a0 - cy * a1
        b0, b1 = sin, cos
        b2 = cy - cx * b0 - cy * b1
        zeros = _tf.zeros_like(angle)
        matrix = _tf.stack([a0, a1, a2, b0, b1, b2, zeros, zeros], axis=1)
        return {"angle": degrees, "matrix": matrix, "image_height": height, "image_width": width, "batch_size": n}

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        if not training:
            return bounding_boxes
        height, width = transformation["image_height"], transformation["image_width"]
        angle = transformation["angle"]
        zeros, ones = _tf.zeros_like(angle), _tf.ones_like(angle)
        bounding_boxes["boxes"] = affine_boxes(bounding_boxes["boxes"], angle, zeros, zeros, ones, zeros, zeros,
                                               height, width)
        bounding_boxes = clip_to_image_size(bounding_boxes, height=height, width=width, bounding_box_format="xyxy")
        return convert_format(bounding_boxes, "xyxy", self.bounding_box_format, height=height, width=width)

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


def _column(values):
    """(N, 1) per-image values as (N, 1, 1), to broadcast over (N, B, 1) box coordinates."""
    return _tf.expand_dims(values, -1)


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

    def get_random_transformation(self, images, training=True, seed=None):
        if not training:
            return None
        seed = self._seed(seed)
        height, width = height_width(images)
        n = batch_size(images)
        height_zoom = keras_random.uniform((n, 1), 1.0 + self.height_lower, 1.0 + self.height_upper, seed=seed)
        width_zoom = height_zoom if self.width_factor is None else keras_random.uniform(
            (n, 1), 1.0 + self.width_lower, 1.0 + self.width_upper, seed=seed)
        return {"height_zoom": height_zoom, "width_zoom": width_zoom, "input_shape": (height, width),
                "matrix": self._zoom_matrix(width_zoom, height_zoom, height, width, n)}

    @staticmethod
    def _zoom_matrix(width_zoom, height_zoom, height, width, n):
        x_offset = ((_tf.cast(width, "float32") - 1.0) / 2.0) * (1.0 - width_zoom)
        y_offset = ((_tf.cast(height, "float32") - 1.0) / 2.0) * (1.0 - height_zoom)
        zeros = _zeros(n)
        return _tf.concat([width_zoom, zeros, x_offset, zeros, height_zoom, y_offset, zeros, zeros], axis=1)

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        """Keras' zoom of boxes: clipped to the window the zoom keeps, made relative to it, clipped to [0, 1]."""
        if not training:
            return bounding_boxes
        height, width = transformation["input_shape"]
        bounding_boxes = convert_format(bounding_boxes, self.bounding_box_format, "xyxy", height=height, width=width)
        matrix = transformation["matrix"]
        w_start, h_start = matrix[:, 2:3], matrix[:, 5:6]
        w_end = matrix[:, 0:1] * _tf.cast(width, "float32") + w_start
        h_end = matrix[:, 4:5] * _tf.cast(height, "float32") + h_start
        x1, y1, x2, y2 = _tf.split(bounding_boxes["boxes"], 4, axis=-1)
        w0, w1, h0, h1 = _column(w_start), _column(w_end), _column(h_start), _column(h_end)
        bounding_boxes["boxes"] = _tf.concat([_tf.maximum(_tf.minimum(x1, w1), w0) - w0,
                                              _tf.maximum(_tf.minimum(y1, h1), h0) - h0,
                                              _tf.maximum(_tf.minimum(x2, w1), w0) - w0,
                                              _tf.maximum(_tf.minimum(y2, h1), h0) - h0], axis=-1)
        kept_height, kept_width = _column(h_end - h_start), _column(w_end - w_start)
        bounding_boxes = convert_format(bounding_boxes, "xyxy", "rel_xyxy", height=kept_height, width=kept_width)
        bounding_boxes = clip_to_image_size(bounding_boxes, height=kept_height, width=kept_width,
                                            bounding_box_format="rel_xyxy")
        return convert_format(bounding_boxes, "rel_xyxy", self.bounding_box_format, height=height, width=width)

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

    def get_random_transformation(self, images, training=True, seed=None):
        if not training:
            return None
        seed = self._seed(seed)
        height, width = height_width(images)
        n = batch_size(images)
        dy = keras_random.uniform((n, 1), self.height_lower, self.height_upper, seed=seed)
        dy = dy * _tf.cast(height, "float32")
        dx = keras_random.uniform((n, 1), self.width_lower, self.width_upper, seed=seed)
        dx = dx * _tf.cast(width, "float32")
        ones, zeros = _tf.ones_like(dx), _zeros(n)
        matrix = _tf.concat([ones, zeros, -dx, zeros, ones, -dy, zeros, zeros], axis=1)
        return {"translations": _tf.concat([dx, dy], axis=1), "input_shape": (height, width), "matrix": matrix}

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        if not training:
            return bounding_boxes
        height, width = transformation["input_shape"]
        bounding_boxes = convert_format(bounding_boxes, self.bounding_box_format, "xyxy", height=height, width=width)
        translations = transformation["translations"]
        dx, dy = _column(translations[:, 0:1]), _column(translations[:, 1:2])
        x1, y1, x2, y2 = _tf.split(bounding_boxes["boxes"], 4, axis=-1)
        bounding_boxes["boxes"] = _tf.concat([x1 + dx, y1 + dy, x2 + dx, y2 + dy], axis=-1)
        bounding_boxes = clip_to_image_size(bounding_boxes, height=height, width=width, bounding_box_format="xyxy")
        return convert_format(bounding_boxes, "xyxy", self.bounding_box_format, height=height, width=width)

    def get_config(self) -> dict:
        return {**super().get_config(), "height_factor": self.height_factor, "width_factor": self.width_factor}
