"""RandomFlip and RandomCrop, drawn as Keras 3 draws them: one uniform per image from the layer's seed
generator (flip when <= 0.5; in "horizontal_and_vertical" mode the same draw flips both ways), and for the
crop two scalar uniforms (the window's top, then its left) shared by the whole batch."""

from __future__ import annotations

import tinytf as _tf

from ... import random as keras_random
from ...random_seeds import make_default_seed
from .image_layer_base import BaseImagePreprocessingLayer, batch_size, height_width
from .image_resizing import crop_corner

HORIZONTAL, VERTICAL, HORIZONTAL_AND_VERTICAL = "horizontal", "vertical", "horizontal_and_vertical"


class RandomFlip(BaseImagePreprocessingLayer):
    """Flip each image left-right and/or up-down with probability 1/2, in training only."""

    _USE_BASE_FACTOR = False

    def __init__(self, mode=HORIZONTAL_AND_VERTICAL, seed=None, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        # Keras 3 does not check `mode`: another value flips nothing, and so here
        self.seed, self.mode = seed, mode
        self.generator = self._make_generator(seed)

    def transform(self, images, training):
        if not training:
            return images
        draws = keras_random.uniform((batch_size(images), 1, 1, 1), seed=self.generator)
        flips = _tf.less_equal(draws, 0.5)
        out = images
        if self.mode in (HORIZONTAL, HORIZONTAL_AND_VERTICAL):
            out = _tf.where(flips, _tf.reverse(out, [2]), out)
        if self.mode in (VERTICAL, HORIZONTAL_AND_VERTICAL):
            out = _tf.where(flips, _tf.reverse(out, [1]), out)
        return out

    def get_config(self) -> dict:
        return {**super().get_config(), "seed": self.seed, "mode": self.mode}


class RandomCrop(BaseImagePreprocessingLayer):
    """A random height x width window in training (one window for the batch), or, when the image is not larger
    than the window, the image from the corner of its central crop to the window's aspect ratio, resized. In
    inference Keras 3 passes images through uncropped (`predict` keeps the input's size), and so does this."""

    _casts_input = False  # Keras casts to the compute dtype in training only

    def __init__(self, height, width, seed=None, data_format=None, name=None, **kwargs):
        super().__init__(data_format=data_format, name=name, **kwargs)
        self.height, self.width = height, width
        # Keras draws a default seed for its config, then its SeedGenerator(seed) draws its own when seed is None
        self.seed = seed if seed is not None else make_default_seed()
        self.generator = self._make_generator(seed)

    def transform(self, images, training):
        if not training:
            return images
        images = _tf.cast(images, self.compute_dtype)
        height, width = height_width(images)
        if not isinstance(height, int) or not isinstance(width, int):
            raise ValueError(f"RandomCrop requires the input to have a fully defined height and width. Received: "
                             f"images.shape={images.shape}")
        if height > self.height and width > self.width:
            top = _tf.cast(keras_random.uniform((), 0, float(height - self.height + 1), seed=self.generator),
                           "int32")
            left = _tf.cast(keras_random.uniform((), 0, float(width - self.width + 1), seed=self.generator),
                            "int32")
            return _tf.slice(images, _tf.stack([0, top, left, 0]), [-1, self.height, self.width, -1])
        # Keras takes the aspect-ratio crop's corner but slices the window's own size from it (so a smaller
        # image is kept whole from that corner on) and resizes the slice to the window
        top, left = crop_corner(height, width, self.height, self.width)
        cropped = images[:, top:top + self.height, left:left + self.width, :]
        if tuple(cropped.shape[1:3]) == (self.height, self.width):
            return cropped
        return _tf.cast(_tf.image.resize(cropped, (self.height, self.width)), self.compute_dtype)

    def compute_output_shape(self, input_shape):
        shape = list(input_shape)
        height_axis = -2 if self.data_format == "channels_first" else -3
        shape[height_axis], shape[height_axis + 1] = self.height, self.width
        return tuple(shape)

    def get_config(self) -> dict:
        return {**super().get_config(), "height": self.height, "width": self.width, "seed": self.seed}
