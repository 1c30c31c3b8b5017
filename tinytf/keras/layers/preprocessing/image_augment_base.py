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
    drive their member layers)."""

    _KEEPS_GEOMETRY = False  # True for the colour layers: boxes and masks pass through them unchanged

    def __init__(self, *args, bounding_box_format=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.bounding_box_format = bounding_box_format

    def get_config(self) -> dict:
        config = super().get_config()
        if self.bounding_box_format is not None:
            config["bounding_box_format"] = self.bounding_box_format
        return config

    def call(self, inputs, training=True):
        if isinstance(inputs, dict):
            return self._call_on_dict(dict(inputs), training)
        self._single_image = _tf.convert_to_tensor(inputs).shape.rank == 3
        return super().call(inputs, training)

    def _call_on_dict(self, data, training):
        """Keras' dict inputs: "images" transformed, and with the same draws "labels" (mixed by CutMix and MixUp,
        kept by the others), "bounding_boxes" ({"boxes": (N, B, 4), "labels": (N, B)}; kept by the colour
        layers, padded or cut by MaxNumBoundingBoxes) and "segmentation_masks" (kept by the colour layers)."""
        images = _tf.cast(_tf.convert_to_tensor(data["images"]), self.compute_dtype)
        if images.shape.rank not in (3, 4):
            raise ValueError(f"Expected image tensor to have rank 3 (single image) or 4 (batch of images). "
                             f"Received: data.shape={images.shape}")
        single = self._single_image = images.shape.rank == 3
        batch = _tf.expand_dims(images, 0) if single else images
        if self.data_format == "channels_first":
            batch = _tf.transpose(batch, [0, 2, 3, 1])
        transformation = self.get_random_transformation(batch, training)
        out = self.transform_images(batch, transformation, training)
        if self.data_format == "channels_first":
            out = _tf.transpose(out, [0, 3, 1, 2])
        data["images"] = _tf.squeeze(out, [0]) if single else out

        def batched(value):
            value = _tf.convert_to_tensor(value)
            return _tf.expand_dims(value, 0) if single else value

        def unbatched(value):
            return _tf.squeeze(value, [0]) if single else value

        if "bounding_boxes" in data:
            if not self.bounding_box_format:
                raise ValueError("You passed an input with a 'bounding_boxes' key, but you didn't specify a bounding "
                                 f"box format. Pass a `bounding_box_format` argument to your {type(self).__name__} "
                                 "layer, e.g. `bounding_box_format='xyxy'`.")
            boxes = {key: batched(value) for key, value in data["bounding_boxes"].items()}
            boxes = self.transform_bounding_boxes(boxes, transformation, training)
            data["bounding_boxes"] = {key: unbatched(value) for key, value in boxes.items()}
        if "labels" in data:
            data["labels"] = unbatched(self.transform_labels(batched(data["labels"]), transformation, training))
        if "segmentation_masks" in data:
            masks = self.transform_segmentation_masks(batched(data["segmentation_masks"]), transformation, training)
            data["segmentation_masks"] = unbatched(masks)
        return data

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        if self._KEEPS_GEOMETRY:
            return bounding_boxes
        raise NotImplementedError(f"Layer '{self.name}' ({type(self).__name__}): tinytf does not move bounding boxes "
                                  "with the images (only the colour layers, which keep them, take them).")

    def transform_segmentation_masks(self, segmentation_masks, transformation, training=True):
        """Keras' default: the colour layers keep masks, the geometric ones move them as the images (nearest
        neighbour, so that classes stay classes)."""
        if self._KEEPS_GEOMETRY:
            return segmentation_masks
        if hasattr(self, "_warp"):
            if not training or transformation is None:
                return segmentation_masks
            return self._warp(segmentation_masks, transformation, "nearest")
        raise NotImplementedError(f"Layer '{self.name}' ({type(self).__name__}): tinytf does not transform "
                                  "segmentation masks with the images (only the colour layers, which keep them, "
                                  "take them).")

    def transform_labels(self, labels, transformation, training=True):
        return labels

    def transform(self, images, training):
        return self.transform_images(images, self.get_random_transformation(images, training), training)

    def get_random_transformation(self, images, training=True, seed=None):
        return None

    def transform_images(self, images, transformation, training=True):
        raise NotImplementedError

    def _seed(self, seed):
        return self.generator if seed is None else seed
