"""CutMix and MixUp: images mixed with other images of the same batch (a permutation drawn per call), with
Keras 3's draws. Given a dict {"images": ..., "labels": ...} they mix the labels in the same proportions, which
is what these layers are for. MixUp stacks the boxes of the mixed images as Keras does (boxes side by side,
labels along the batch) and mixes segmentation masks with Keras' flattened gather; CutMix cuts masks as images
and, as in Keras, takes no boxes."""

from __future__ import annotations

import tinytf as _tf

from ... import random as keras_random
from .image_augment_base import AugmentLayer
from .image_geometric_more import box_masks, crop_bounds
from .image_layer_base import batch_size, height_width


class CutMix(AugmentLayer):
    """A rectangle of each image replaced by the same rectangle of another image of the batch; its area is
    1 - w of the image, w drawn from Beta(a, a) with a drawn from the factor range; labels mixed by the pasted
    area. A single image (rank 3) passes through, as in Keras."""

    _USE_BASE_FACTOR = False
    _FACTOR_BOUNDS = (0, 1)

    def __init__(self, factor=1.0, seed=None, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self._set_factor(factor)
        self.seed = seed
        self.generator = self._make_generator(seed)

    def get_random_transformation(self, images, training=True, seed=None):
        if not training or getattr(self, "_single_image", False):
            return None
        n = batch_size(images)
        height, width = height_width(images)
        seed = seed or self.generator
        alpha = keras_random.uniform((), self.factor[0], self.factor[1], dtype=self.compute_dtype, seed=seed) + 1e-6
        weight = keras_random.beta((n,), alpha, alpha, dtype=self.compute_dtype, seed=seed)
        ratio = _tf.sqrt(1.0 - weight)
        x0, x1 = crop_bounds(self, n, width, ratio, seed)
        y0, y1 = crop_bounds(self, n, height, ratio, seed)
        masks = box_masks(height, width, int(images.shape[-1]), x0, x1, y0, y1, self.compute_dtype)
        area = _tf.cast(width, self.compute_dtype) * _tf.cast(height, self.compute_dtype)
        mix_weight = 1.0 - (x1 - x0) * (y1 - y0) / area
        order = keras_random.shuffle(_tf.range(0, n, dtype="int32"), seed=seed)
        return {"permutation_order": order, "batch_masks": masks, "mix_weight": mix_weight}

    def transform_images(self, images, transformation=None, training=True):
        images = _tf.cast(images, self.compute_dtype)
        if not training or transformation is None:
            return images
        return _tf.where(transformation["batch_masks"], _tf.gather(images, transformation["permutation_order"]),
                         images)

    def transform_segmentation_masks(self, segmentation_masks, transformation, training=True):
        return self.transform_images(segmentation_masks, transformation, training)

    def transform_labels(self, labels, transformation, training=True):
        if not training or transformation is None:
            return labels
        cut = _tf.gather(labels, transformation["permutation_order"])
        weight = _tf.reshape(transformation["mix_weight"], [-1, 1])
        return weight * labels + (1.0 - weight) * cut

    def get_config(self) -> dict:
        return {**super().get_config(), "factor": self.factor, "seed": self.seed}


class MixUp(AugmentLayer):
    """Each image blended with another of the batch: w * x + (1 - w) * x[perm], w drawn per image from
    Beta(alpha, alpha); labels blended alike. Keras draws even in inference, and so does this."""

    _USE_BASE_FACTOR = False

    def __init__(self, alpha=0.2, data_format=None, seed=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.alpha, self.seed = alpha, seed
        self.generator = self._make_generator(seed)

    def get_random_transformation(self, images, training=True, seed=None):
        n = batch_size(images)
        seed = self._seed(seed)
        order = keras_random.shuffle(_tf.range(0, n, dtype="int64"), seed=seed)
        weight = keras_random.beta((n,), self.alpha, self.alpha, seed=seed)
        return {"mix_weight": weight, "permutation_order": order}

    def transform_images(self, images, transformation=None, training=True):
        if not training:
            return images
        images = _tf.cast(images, self.compute_dtype)
        weight = _tf.cast(_tf.reshape(transformation["mix_weight"], [-1, 1, 1, 1]), self.compute_dtype)
        mixed = _tf.cast(_tf.gather(images, transformation["permutation_order"]), self.compute_dtype)
        return weight * images + (1.0 - weight) * mixed

    def transform_segmentation_masks(self, segmentation_masks, transformation, training=True):
        """Keras' mix: w * masks + (1 - w) * take(masks, order), its take without an axis picking single values of
        the flattened masks, so that (N, H, W, 1) masks come out (N, H, W, N)."""
        if not training:
            return segmentation_masks
        weight = _tf.reshape(_tf.cast(transformation["mix_weight"], "float32"), [-1, 1, 1, 1])
        masks = _tf.convert_to_tensor(segmentation_masks)
        picked = _tf.gather(_tf.reshape(masks, [-1]), transformation["permutation_order"])
        return weight * _tf.cast(masks, "float32") + (1.0 - weight) * _tf.cast(picked, "float32")

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        """Keras' boxes: each image's boxes followed by its partner's (N, 2B, 4), and the labels of the batch
        followed by the partners' labels (2N, B)."""
        if not training:
            return bounding_boxes
        order = transformation["permutation_order"]
        boxes, labels = bounding_boxes["boxes"], bounding_boxes["labels"]
        return {"boxes": _tf.concat([boxes, _tf.gather(boxes, order)], axis=1),
                "labels": _tf.concat([labels, _tf.gather(labels, order)], axis=0)}

    def transform_labels(self, labels, transformation, training=True):
        if not training:
            return labels
        mixed = _tf.gather(labels, transformation["permutation_order"])
        weight = _tf.reshape(transformation["mix_weight"], [-1, 1])
        return weight * labels + (1.0 - weight) * mixed

    def get_config(self) -> dict:
        return {**super().get_config(), "alpha": self.alpha, "seed": self.seed}
