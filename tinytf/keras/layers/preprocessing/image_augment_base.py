"""What the augmentation layers of Keras 3 added after its first image layers share: the split of each layer into
`get_random_transformation` (every random draw, in Keras' order) and `transform_images` (the work, given the
draws), which RandAugment, AugMix and Pipeline call on their member layers with a generator of their own; and
the `value_range` check with Keras' message. Everything here runs on a channels-last batch: the base layer
transposes channels_first images around `transform`."""

from __future__ import annotations

import tinytf as _tf

from .image_layer_base import BaseImagePreprocessingLayer

VALUE_RANGE_ERROR = "The `value_range` argument should be a list of two numbers. "


def checked_value_range(value_range) -> list:
    """Keras' _set_value_range: a list or tuple of two numbers, kept sorted (as a list)."""
    if not isinstance(value_range, (tuple, list)) or len(value_range) != 2:
        raise ValueError(VALUE_RANGE_ERROR + f"Received: value_range={value_range}")
    return sorted(value_range)


def transform_value_range(images, original_range, target_range, dtype="float32"):
    """Keras' _transform_value_range: values moved from one [min, max] to another (as given when equal), with
    the ranges' ends cast to `dtype` first as Keras casts them."""
    if original_range[0] == target_range[0] and original_range[1] == target_range[1]:
        return images
    images = _tf.cast(images, dtype)
    low, high = (_tf.cast(v, dtype) for v in original_range)
    target_low, target_high = (_tf.cast(v, dtype) for v in target_range)
    return (images - low) / (high - low) * (target_high - target_low) + target_low


class AugmentLayer(BaseImagePreprocessingLayer):
    """A layer whose call is `transform_images(images, get_random_transformation(images, training), training)`.
    `seed` given to get_random_transformation replaces the layer's own generator (how RandAugment and AugMix
    drive their member layers). The dict inputs (labels, bounding boxes, segmentation masks) are the base
    layer's."""

    def transform_images(self, images, transformation, training=True):
        raise NotImplementedError
