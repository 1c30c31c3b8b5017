"""RandAugment, AugMix and Pipeline. RandAugment and AugMix hold Keras 3's member layers, made with the same
arguments, and drive them from their own seed generator in Keras' order (every member's draws, then the
choices), so that the same seed gives TF 2.21's numbers. The members that predate the split into
`get_random_transformation` / `transform_images` (brightness, contrast) get it here, drawing exactly what their
own call draws."""

from __future__ import annotations

import random as py_random

import tinytf as _tf

from ... import random as keras_random
from ..layer import Layer
from .image_affine import RandomRotation, RandomTranslation
from .image_augment_base import AugmentLayer
from .image_color_ops import (
    AutoContrast,
    Equalization,
    RandomColorDegeneration,
    RandomPosterization,
    RandomSharpness,
    Solarization,
)
from .image_geometric_more import RandomShear
from .image_layer_base import batch_size
from .image_random_color import RandomBrightness, RandomContrast


def _keeps_masks(self, segmentation_masks, transformation, training=True):
    return segmentation_masks


class _Brightness(RandomBrightness):
    transform_segmentation_masks = _keeps_masks

    def get_random_transformation(self, images, training=True, seed=None):
        n = batch_size(images)
        if not training:
            return {"rgb_delta": _tf.zeros((n, 1, 1, 1))}
        delta = keras_random.uniform((n, 1, 1, 1), self.factor[0], self.factor[1], seed=seed or self.generator)
        return {"rgb_delta": delta * (self.value_range[1] - self.value_range[0])}

    def transform_images(self, images, transformation, training=True):
        images = _tf.cast(images, self.compute_dtype)
        if not training:
            return images
        out = images + _tf.cast(transformation["rgb_delta"], images.dtype)
        return _tf.clip_by_value(out, _tf.cast(self.value_range[0], out.dtype),
                                 _tf.cast(self.value_range[1], out.dtype))


class _Contrast(RandomContrast):
    transform_segmentation_masks = _keeps_masks

    def get_random_transformation(self, images, training=True, seed=None):
        n = batch_size(images)
        if not training:
            return {"contrast_factor": _tf.zeros((n, 1, 1, 1))}
        factor = keras_random.uniform((n, 1, 1, 1), 1.0 - self.factor[0], 1.0 + self.factor[1],
                                      dtype=self.compute_dtype, seed=seed or self.generator)
        return {"contrast_factor": factor}

    def transform_images(self, images, transformation, training=True):
        images = _tf.cast(images, self.compute_dtype)
        if not training:
            return images
        mean = _tf.reduce_mean(_tf.reduce_mean(images, axis=1, keepdims=True), axis=2, keepdims=True)
        out = (images - mean) * transformation["contrast_factor"] + mean
        return _tf.clip_by_value(out, _tf.cast(self.value_range[0], out.dtype),
                                 _tf.cast(self.value_range[1], out.dtype))


def _member_layers(owner, names, kwargs):
    """Keras' members of RandAugment and AugMix, made in Keras' order (their default seeds are drawn in it)."""
    factor, value_range, seed = owner.factor, owner.value_range, owner.seed
    # (the members get the owner's bounding_box_format, as Keras passes them its keyword arguments)
    common = {"data_format": owner.data_format, "bounding_box_format": owner.bounding_box_format,
              **{k: v for k, v in kwargs.items() if k not in ("name", "bounding_box_format")}}
    makers = {
        "random_shear": lambda: RandomShear(x_factor=factor, y_factor=factor, interpolation=owner.interpolation,
                                            seed=seed, **common),
        "random_translation": lambda: RandomTranslation(height_factor=factor, width_factor=factor,
                                                        interpolation=owner.interpolation, seed=seed, **common),
        "random_rotation": lambda: RandomRotation(factor=factor, interpolation=owner.interpolation, seed=seed,
                                                  **common),
        "random_brightness": lambda: _Brightness(factor=factor, value_range=value_range, seed=seed, **common),
        "random_color_degeneration": lambda: RandomColorDegeneration(factor=factor, value_range=value_range,
                                                                     seed=seed, **common),
        "random_contrast": lambda: _Contrast(factor=factor, value_range=value_range, seed=seed, **common),
        "random_sharpness": lambda: RandomSharpness(factor=factor, value_range=value_range, seed=seed, **common),
        "solarization": lambda: Solarization(addition_factor=factor, threshold_factor=factor,
                                             value_range=value_range, seed=seed, **common),
        "random_posterization": lambda: RandomPosterization(factor=max(1, int(8 * factor[1])),
                                                            value_range=value_range, seed=seed, **common),
        "auto_contrast": lambda: AutoContrast(value_range=value_range, **common),
        "equalization": lambda: Equalization(value_range=value_range, **common),
    }
    for name in names:
        setattr(owner, name, makers[name]())


class RandAugment(AugmentLayer):
    """num_ops augmentations per call, each picked (one pick for the whole batch) from shear, translation,
    rotation, brightness, colour degeneration, contrast, sharpness, posterization, solarization, auto-contrast
    and equalization, all at strength `factor`."""

    _USE_BASE_FACTOR = False
    _FACTOR_BOUNDS = (0, 1)
    _AUGMENT_LAYERS = ["random_shear", "random_translation", "random_rotation", "random_brightness",
                       "random_color_degeneration", "random_contrast", "random_sharpness", "random_posterization",
                       "solarization", "auto_contrast", "equalization"]
    _MADE_IN = ["random_shear", "random_translation", "random_rotation", "random_brightness",
                "random_color_degeneration", "random_contrast", "random_sharpness", "solarization",
                "random_posterization", "auto_contrast", "equalization"]

    def __init__(self, value_range=(0, 255), num_ops=2, factor=0.5, interpolation="bilinear", seed=None,
                 data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.value_range, self.num_ops = value_range, num_ops
        self._set_factor(factor)
        self.interpolation, self.seed = interpolation, seed
        self.generator = self._make_generator(seed)
        _member_layers(self, self._MADE_IN, kwargs)

    def _members(self):
        return self._AUGMENT_LAYERS

    def build(self, input_shape=None):
        """Keras builds the members here (no run on placeholders, which would draw AugMix's Python choices)."""
        for name in self._members():
            getattr(self, name).build(input_shape)
        self.built = True

    def get_random_transformation(self, images, training=True, seed=None):
        if not training:
            return None
        picks = keras_random.randint((self.num_ops,), 0, len(self._AUGMENT_LAYERS), seed=self.generator)
        transforms = {name: getattr(self, name).get_random_transformation(images, training=training,
                                                                          seed=self.generator)
                      for name in self._AUGMENT_LAYERS}
        return {"transforms": transforms, "layer_idxes": picks}

    def transform_images(self, images, transformation, training=True):
        images = _tf.cast(images, self.compute_dtype)
        if not training:
            return images
        picks = transformation["layer_idxes"]
        for i in range(self.num_ops):
            for index, (name, value) in enumerate(transformation["transforms"].items()):
                done = _tf.cast(getattr(self, name).transform_images(images, value), self.compute_dtype)
                images = _tf.where(_tf.equal(picks[i], index), done, images)
        return _tf.cast(images, self.compute_dtype)

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        """Keras' order: for each member, its boxes (from the boxes so far) kept where any op picked it."""
        if not training:
            return bounding_boxes
        picks = transformation["layer_idxes"]
        for index, (name, value) in enumerate(transformation["transforms"].items()):
            moved = getattr(self, name).transform_bounding_boxes(dict(bounding_boxes), value)
            for i in range(self.num_ops):
                chosen = _tf.equal(picks[i], index)
                bounding_boxes["boxes"] = _tf.where(chosen, moved["boxes"], bounding_boxes["boxes"])
                bounding_boxes["labels"] = _tf.where(chosen, moved["labels"], bounding_boxes["labels"])
        return bounding_boxes

    def transform_segmentation_masks(self, segmentation_masks, transformation, training=True):
        if not training:
            return segmentation_masks
        picks = transformation["layer_idxes"]
        for i in range(self.num_ops):
            for index, (name, value) in enumerate(transformation["transforms"].items()):
                done = getattr(self, name).transform_segmentation_masks(segmentation_masks, value)
                segmentation_masks = _tf.where(_tf.equal(picks[i], index), _tf.cast(done, segmentation_masks.dtype),
                                               segmentation_masks)
        return segmentation_masks

    def get_config(self) -> dict:
        return {**super().get_config(), "value_range": self.value_range, "num_ops": self.num_ops,
                "factor": self.factor, "interpolation": self.interpolation, "seed": self.seed}


_AUGMIX_ALL = ["random_shear", "random_translation", "random_rotation", "random_posterization", "solarization",
               "auto_contrast", "equalization", "random_brightness", "random_color_degeneration", "random_contrast",
               "random_sharpness"]
_AUGMIX_SOME = _AUGMIX_ALL[:7]
_AUGMIX_MADE_IN = ["random_shear", "random_translation", "random_rotation", "solarization", "random_posterization",
                   "auto_contrast", "equalization", "random_brightness", "random_color_degeneration",
                   "random_contrast", "random_sharpness"]


class AugMix(AugmentLayer):
    """num_chains chains of up to chain_depth augmentations (each step picks an operation or none, with Python's
    `random` as Keras picks, once per trace), mixed with Dirichlet(alpha) weights, then blended with the original
    by a Beta(alpha, alpha) weight and clipped to value_range."""

    _USE_BASE_FACTOR = False
    _FACTOR_BOUNDS = (0, 1)

    def __init__(self, value_range=(0, 255), num_chains=3, chain_depth=3, factor=0.3, alpha=1.0, all_ops=True,
                 interpolation="bilinear", seed=None, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.value_range, self.num_chains, self.chain_depth = value_range, num_chains, chain_depth
        self._set_factor(factor)
        self.alpha, self.all_ops, self.interpolation, self.seed = alpha, all_ops, interpolation, seed
        self.generator = self._make_generator(seed)
        self._augment_layers = _AUGMIX_ALL if all_ops else _AUGMIX_SOME
        _member_layers(self, [n for n in _AUGMIX_MADE_IN if n in self._augment_layers], kwargs)

    build = RandAugment.build

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        return bounding_boxes  # Keras' AugMix keeps the boxes (it mixes whole images)

    def _members(self):
        return self._augment_layers

    def get_random_transformation(self, images, training=True, seed=None):
        if not training:
            return None
        seed = seed or self.generator
        gamma = keras_random.gamma([self.num_chains], self.alpha, seed=seed)
        chain_weights = gamma / _tf.reduce_sum(gamma, axis=-1, keepdims=True)
        weight_sample = keras_random.beta((), self.alpha, self.alpha, seed=seed)
        chains = []
        for _ in range(self.num_chains):
            steps = []
            for _ in range(self.chain_depth):
                name = py_random.choice(self._augment_layers + [None])
                if name is None:
                    continue
                steps.append((name, getattr(self, name).get_random_transformation(images, seed=self.generator)))
            chains.append(steps)
        return {"chain_mixing_weights": chain_weights, "weight_sample": weight_sample, "chain_transforms": chains}

    def transform_images(self, images, transformation, training=True):
        images = _tf.cast(images, self.compute_dtype)
        if not training:
            return images
        weights = _tf.cast(transformation["chain_mixing_weights"], self.compute_dtype)
        weight_sample = _tf.cast(transformation["weight_sample"], self.compute_dtype)
        mixed = _tf.zeros_like(images)
        for index, chain in enumerate(transformation["chain_transforms"]):
            chained = images
            for name, value in chain:
                chained = getattr(self, name).transform_images(chained, value)
            mixed += chained * weights[index]
        images = weight_sample * images + (1 - weight_sample) * mixed
        return _tf.clip_by_value(images, _tf.cast(self.value_range[0], images.dtype),
                                 _tf.cast(self.value_range[1], images.dtype))

    def transform_segmentation_masks(self, segmentation_masks, transformation, training=True):
        if not training:
            return segmentation_masks
        weights = _tf.cast(transformation["chain_mixing_weights"], self.compute_dtype)
        weight_sample = _tf.cast(transformation["weight_sample"], self.compute_dtype)
        mixed = _tf.zeros_like(segmentation_masks)
        for index, chain in enumerate(transformation["chain_transforms"]):
            chained = segmentation_masks
            for name, value in chain:
                chained = getattr(self, name).transform_segmentation_masks(chained, value)
            mixed += chained * weights[index]
        return weight_sample * segmentation_masks + (1 - weight_sample) * mixed

    def get_config(self) -> dict:
        return {**super().get_config(), "value_range": self.value_range, "num_chains": self.num_chains,
                "chain_depth": self.chain_depth, "factor": self.factor, "alpha": self.alpha,
                "all_ops": self.all_ops, "interpolation": self.interpolation, "seed": self.seed}


class Pipeline(Layer):
    """Layers applied in order, `training` passed to those that take it (Keras' preprocessing pipeline: unlike
    Sequential it is a plain layer, usable in tf.data, and it defaults to training=True)."""

    def __init__(self, layers, name=None):
        super().__init__(name=name)
        self._pipeline_layers = list(layers)

    @property
    def layers(self):
        return self._pipeline_layers

    def call(self, inputs, training=True):
        for layer in self._pipeline_layers:
            inputs = layer(inputs, training=training) if _takes_training(layer) else layer(inputs)
        return inputs

    def compute_output_shape(self, input_shape):
        for layer in self._pipeline_layers:
            input_shape = layer.compute_output_shape(input_shape)
        return input_shape

    @classmethod
    def from_config(cls, config):
        from ...saving.layer_config import deserialize_layer

        layers = config.get("layers")
        if not isinstance(layers, (list, tuple)):
            raise ValueError("`Pipeline` config must contain a `layers` key mapping to a list of serialized layers. "
                             f"Received config with layers={layers}.")
        return cls(**{**config, "layers": [deserialize_layer(x) for x in layers]})

    def get_config(self) -> dict:
        from ...saving.layer_config import serialize_layer

        return {"layers": [serialize_layer(layer) for layer in self._pipeline_layers], "name": self.name}


def _takes_training(layer) -> bool:
    import inspect

    try:
        return "training" in inspect.signature(layer.call).parameters
    except (TypeError, ValueError):
        return False
