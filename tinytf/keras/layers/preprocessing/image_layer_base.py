"""What Keras 3's image preprocessing layers share (its BaseImagePreprocessingLayer): one image (H, W, C) or a
batch (N, H, W, C) in, `data_format` (channels_first is transposed to channels_last around the work), the
`factor` argument's checks, a seed generator made in the constructor as Keras makes it, and `training`
defaulting to True (Keras' signature): a random layer called directly augments, in `fit` it augments, in
`predict`/`evaluate` (training=False) it passes images through, cast to the layer's compute dtype.

A dict input {"images", "labels", "bounding_boxes": {"boxes", "labels"}, "segmentation_masks"} goes through the
same draws: `get_random_transformation` once, then `transform_images`, `transform_labels`,
`transform_bounding_boxes` (boxes in the layer's `bounding_box_format`) and `transform_segmentation_masks`."""

from __future__ import annotations

import tinytf as _tf

from ...random import SeedGenerator
from ..layer import Layer
from .image_boxes import densify_bounding_boxes


def standardize_data_format(data_format) -> str:
    if data_format is None:
        return "channels_last"
    data_format = str(data_format).lower()
    if data_format not in ("channels_first", "channels_last"):
        raise ValueError("The `data_format` argument must be one of {'channels_first', 'channels_last'}. "
                         f"Received: data_format={data_format}")
    return data_format


class BaseImagePreprocessingLayer(Layer):
    """Subclasses write either `transform(images, training)` (the layers whose draws nothing else needs) or
    `get_random_transformation(images, training, seed)` and `transform_images(images, transformation,
    training)`, on a channels-last batch (a float tensor of the layer's compute dtype unless `_casts_input` is
    False)."""

    _USE_BASE_FACTOR = True
    _FACTOR_BOUNDS = (-1, 1)
    _casts_input = True
    _KEEPS_GEOMETRY = False  # True for the colour layers: boxes and masks pass through them unchanged

    def __init__(self, factor=None, bounding_box_format=None, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.bounding_box_format = bounding_box_format
        self.data_format = standardize_data_format(data_format)
        if self._USE_BASE_FACTOR:
            self._set_factor(factor or 0.0)
        elif factor is not None:
            raise ValueError(f"Layer {type(self).__name__} does not take a `factor` argument. Received: "
                             f"factor={factor}")
        self.supports_masking = False

    def _set_factor(self, factor) -> None:
        low, high = self._FACTOR_BOUNDS
        message = (f"The `factor` argument should be a number (or a list of two numbers) in the range [{low}, "
                   f"{high}]. Received: factor={factor}")
        if isinstance(factor, (tuple, list)):
            if len(factor) != 2 or factor[0] > high or factor[1] < low:
                raise ValueError(message)
            lower, upper = sorted(factor)
        elif isinstance(factor, (int, float)) and not isinstance(factor, bool):
            if factor < low or factor > high:
                raise ValueError(message)
            factor = abs(factor)
            lower, upper = max(-factor, low), factor
        else:
            raise ValueError(message)
        self.factor = (lower, upper)

    def _make_generator(self, seed) -> SeedGenerator:
        """Keras' `self.generator = SeedGenerator(seed)`: a seed of None draws Keras' default seed now."""
        return SeedGenerator(seed)

    def _seed(self, seed):
        return self.generator if seed is None else seed

    def call(self, inputs, training=True):
        if not _tf.executing_eagerly():
            # Keras' DataLayer in a TF graph (tf.function, tf.data): every input, labels and masks included,
            # converted to the compute dtype first
            inputs = _tf.nest.map_structure(lambda x: _tf.cast(x, self.compute_dtype), inputs)
        if isinstance(inputs, dict):
            return self._call_on_dict(dict(inputs), training)
        images = _tf.convert_to_tensor(inputs)
        rank = images.shape.rank
        if rank not in (3, 4):
            raise ValueError(f"Layer '{self.name}' ({type(self).__name__}) expected the input image to be rank 3 "
                             f"or 4. Received: inputs.shape={images.shape}")
        batch, single = self._channels_last_batch(images)
        return self._restored(self.transform(batch, training), single)

    def _channels_last_batch(self, images):
        """The images as a channels-last batch (cast to the compute dtype where the layer casts), and whether
        they were one image."""
        if self._casts_input and images.dtype.name != self.compute_dtype:
            images = _tf.cast(images, self.compute_dtype)
        single = self._single_image = images.shape.rank == 3
        batch = _tf.expand_dims(images, 0) if single else images
        if self.data_format == "channels_first":
            batch = _tf.transpose(batch, [0, 2, 3, 1])
        return batch, single

    def _restored(self, batch, single):
        if self.data_format == "channels_first":
            batch = _tf.transpose(batch, [0, 3, 1, 2])
        return _tf.squeeze(batch, [0]) if single else batch

    def _call_on_dict(self, data, training):
        """Keras' dict inputs: "images" transformed, and with the same draws "labels" (mixed by CutMix and MixUp,
        kept by the others), "bounding_boxes" (densified to float32 boxes, then moved with the images, kept by
        the colour layers) and "segmentation_masks" (moved as the images are, with nearest-neighbour sampling)."""
        images = _tf.convert_to_tensor(data["images"])
        if images.shape.rank not in (3, 4):
            raise ValueError(f"Expected image tensor to have rank 3 (single image) or 4 (batch of images). "
                             f"Received: data.shape={images.shape}")
        batch, single = self._channels_last_batch(images)
        transformation = self.get_random_transformation(batch, training)
        data["images"] = self._restored(self.transform_images(batch, transformation, training), single)

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
            boxes = densify_bounding_boxes(dict(data["bounding_boxes"]))
            if single:
                boxes = {key: batched(value) if key in ("boxes", "labels") else value for key, value in boxes.items()}
            boxes = self.transform_bounding_boxes(boxes, transformation, training)
            data["bounding_boxes"] = {key: unbatched(value) if key in ("boxes", "labels") else value
                                      for key, value in boxes.items()}
        if "labels" in data:
            data["labels"] = unbatched(self.transform_labels(batched(data["labels"]), transformation, training))
        if "segmentation_masks" in data:
            masks = batched(data["segmentation_masks"])
            if self.data_format == "channels_first":
                masks = _tf.transpose(masks, [0, 2, 3, 1])
            masks = self.transform_segmentation_masks(masks, transformation, training)
            data["segmentation_masks"] = self._restored(masks, single)
        return data

    # --- what subclasses override ---------------------------------------------------------------------------
    def transform(self, images, training):
        return self.transform_images(images, self.get_random_transformation(images, training), training)

    def get_random_transformation(self, images, training=True, seed=None):
        return None

    def transform_images(self, images, transformation, training=True):
        return self.transform(images, training)

    def transform_labels(self, labels, transformation, training=True):
        return labels

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        """Keras' base raises NotImplementedError for a layer that does not move boxes (RandomElasticTransform,
        CutMix); the colour layers keep them."""
        if self._KEEPS_GEOMETRY:
            return bounding_boxes
        raise NotImplementedError(f"Layer '{self.name}' ({type(self).__name__}) does not support bounding boxes "
                                  "(Keras 3 has no box transformation for it).")

    def transform_segmentation_masks(self, segmentation_masks, transformation, training=True):
        """Keras' default: the colour layers keep masks, the warping ones move them as the images (nearest
        neighbour, so that classes stay classes, in the masks' own dtype)."""
        if self._KEEPS_GEOMETRY:
            return segmentation_masks
        if hasattr(self, "_warp"):
            if not training or transformation is None:
                return segmentation_masks
            return self._warp(segmentation_masks, transformation, "nearest")
        raise NotImplementedError(f"Layer '{self.name}' ({type(self).__name__}) does not transform segmentation "
                                  "masks.")

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self) -> dict:
        config = {**super().get_config(), "data_format": self.data_format}
        if self.bounding_box_format is not None:
            config["bounding_box_format"] = self.bounding_box_format
        return config


def height_width(images):
    """(height, width) of a channels-last batch: Python ints when known, else scalar int32 tensors."""
    static = images.shape
    dynamic = None
    out = []
    for axis in (1, 2):
        if static[axis] is not None:
            out.append(int(static[axis]))
        else:
            dynamic = _tf.shape(images) if dynamic is None else dynamic
            out.append(dynamic[axis])
    return tuple(out)


def batch_size(images):
    return int(images.shape[0]) if images.shape[0] is not None else _tf.shape(images)[0]
