"""RandomFlip and RandomCrop, drawn as Keras 3 draws them: one uniform per image from the layer's seed
generator (flip when <= 0.5; in "horizontal_and_vertical" mode the same draw flips both ways), and for the
crop two scalar uniforms (the window's top, then its left) shared by the whole batch. Boxes and masks follow
the images as Keras moves them (RandomCrop's boxes with Keras' own arithmetic, which subtracts the window's top
from x and its left from y)."""

from __future__ import annotations

import tinytf as _tf
from tinytf.keras.utils.bounding_boxes import clip_to_image_size, convert_format

from ... import random as keras_random
from ...random_seeds import make_default_seed
from .image_augment_base import AugmentLayer
from .image_layer_base import batch_size, height_width
from .image_resizing import crop_corner

HORIZONTAL, VERTICAL, HORIZONTAL_AND_VERTICAL = "horizontal", "vertical", "horizontal_and_vertical"


class RandomFlip(AugmentLayer):
    """Flip each image left-right and/or up-down with probability 1/2, in training only."""

    _USE_BASE_FACTOR = False

    def __init__(self, mode=HORIZONTAL_AND_VERTICAL, seed=None, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        # Keras 3 does not check `mode`: another value flips nothing, and so here
        self.seed, self.mode = seed, mode
        self.generator = self._make_generator(seed)

    def get_random_transformation(self, images, training=True, seed=None):
        if not training:
            return None
        draws = keras_random.uniform((batch_size(images), 1, 1, 1), seed=self._seed(seed))
        return {"flips": _tf.less_equal(draws, 0.5), "input_shape": height_width(images)}

    def transform_images(self, images, transformation, training=True):
        out = _tf.cast(images, self.compute_dtype)
        if not training or transformation is None:
            return out
        flips = transformation["flips"]
        if self.mode in (HORIZONTAL, HORIZONTAL_AND_VERTICAL):
            out = _tf.where(flips, _tf.reverse(out, [2]), out)
        if self.mode in (VERTICAL, HORIZONTAL_AND_VERTICAL):
            out = _tf.where(flips, _tf.reverse(out, [1]), out)
        return out

    def transform_segmentation_masks(self, segmentation_masks, transformation, training=True):
        return self.transform_images(segmentation_masks, transformation, training)

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        """Keras' flip of relative boxes (1 - x), then its clip of those relative boxes to [0, width] x
        [0, height] (which leaves them as they are)."""
        if not training:
            return bounding_boxes
        flips = _tf.squeeze(transformation["flips"], axis=-1)
        height, width = transformation["input_shape"]
        bounding_boxes = convert_format(bounding_boxes, self.bounding_box_format, "rel_xyxy", height=height,
                                        width=width)
        boxes = bounding_boxes["boxes"]
        if self.mode in (HORIZONTAL, HORIZONTAL_AND_VERTICAL):
            x1, y1, x2, y2 = _tf.split(boxes, 4, axis=-1)
            boxes = _tf.where(flips, _tf.concat([1 - x2, y1, 1 - x1, y2], axis=-1), boxes)
        if self.mode in (VERTICAL, HORIZONTAL_AND_VERTICAL):
            x1, y1, x2, y2 = _tf.split(boxes, 4, axis=-1)
            boxes = _tf.where(flips, _tf.concat([x1, 1 - y2, x2, 1 - y1], axis=-1), boxes)
        bounding_boxes["boxes"] = boxes
        bounding_boxes = clip_to_image_size(bounding_boxes, height=height, width=width, bounding_box_format="xyxy")
        return convert_format(bounding_boxes, "rel_xyxy", self.bounding_box_format, height=height, width=width)

    def get_config(self) -> dict:
        return {**super().get_config(), "seed": self.seed, "mode": self.mode}


class RandomCrop(AugmentLayer):
    """A random height x width window in training (one window for the batch), or, when the image is not larger
    than the window, the image from the corner of its central crop to the window's aspect ratio, resized. In
    inference Keras 3 passes images through uncropped (`predict` keeps the input's size), and so does this; its
    segmentation masks are cut even then (Keras transforms them as in training), and so here."""

    _USE_BASE_FACTOR = False
    _casts_input = False  # Keras casts to the compute dtype in training only

    def __init__(self, height, width, seed=None, data_format=None, name=None, **kwargs):
        super().__init__(data_format=data_format, name=name, **kwargs)
        self.height, self.width = height, width
        # Keras draws a default seed for its config, then its SeedGenerator(seed) draws its own when seed is None
        self.seed = seed if seed is not None else make_default_seed()
        self.generator = self._make_generator(seed)

    def get_random_transformation(self, images, training=True, seed=None):
        height, width = height_width(images)
        if not training and not (isinstance(height, int) and isinstance(width, int)):
            return None  # inference passes images of any size through
        if not isinstance(height, int) or not isinstance(width, int):
            raise ValueError(f"RandomCrop requires the input to have a fully defined height and width. Received: "
                             f"images.shape={images.shape}")
        if training and height > self.height and width > self.width:
            seed = self._seed(seed)
            top = _tf.cast(keras_random.uniform((), 0, float(height - self.height + 1), seed=seed), "int32")
            left = _tf.cast(keras_random.uniform((), 0, float(width - self.width + 1), seed=seed), "int32")
            return top, left
        return crop_corner(height, width, self.height, self.width)

    def transform_images(self, images, transformation, training=True):
        if not training or transformation is None:
            return images
        images = _tf.cast(images, self.compute_dtype)
        top, left = transformation
        if isinstance(top, int):
            # Keras slices the window's own size from the aspect-ratio crop's corner (so a smaller image is kept
            # whole from that corner on) and resizes the slice to the window
            cropped = images[:, top:top + self.height, left:left + self.width, :]
        else:
            cropped = _tf.slice(images, _tf.stack([0, top, left, 0]), [-1, self.height, self.width, -1])
        if tuple(cropped.shape[1:3]) == (self.height, self.width):
            return cropped
        return _tf.cast(_tf.image.resize(cropped, (self.height, self.width)), self.compute_dtype)

    def transform_segmentation_masks(self, segmentation_masks, transformation, training=True):
        return self.transform_images(segmentation_masks, transformation)

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        if not training:
            return bounding_boxes
        top, left = transformation
        boxes = convert_format(bounding_boxes["boxes"], self.bounding_box_format, "xyxy", height=self.height,
                               width=self.width)
        top, left = _tf.cast(top, boxes.dtype), _tf.cast(left, boxes.dtype)
        zero = _tf.constant(0.0, boxes.dtype)
        boxes = _tf.stack([_tf.maximum(boxes[..., 0] - top, zero), _tf.maximum(boxes[..., 1] - left, zero),
                           _tf.maximum(boxes[..., 2] - top, zero), _tf.maximum(boxes[..., 3] - left, zero)], axis=-1)
        boxes = convert_format(boxes, "xyxy", self.bounding_box_format, height=self.height, width=self.width)
        return {"boxes": boxes, "labels": bounding_boxes["labels"]}

    def compute_output_shape(self, input_shape):
        shape = list(input_shape)
        height_axis = -2 if self.data_format == "channels_first" else -3
        shape[height_axis], shape[height_axis + 1] = self.height, self.width
        return tuple(shape)

    def get_config(self) -> dict:
        return {**super().get_config(), "height": self.height, "width": self.width, "seed": self.seed}
