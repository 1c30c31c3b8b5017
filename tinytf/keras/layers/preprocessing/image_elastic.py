"""RandomElasticTransform: each image resampled at its pixel grid plus a smooth random displacement field, as
Keras 3's TF backend computes it (ops.image.elastic_transform): one standard-normal field drawn from the
generator's next seed (the same field for x and y, as Keras draws both from one seed), blurred by a Gaussian of
size 6 * int(sigma) | 1, scaled by alpha, and sampled channel by channel with map_coordinates' interpolation
and fill rules."""

from __future__ import annotations

import itertools

import tinytf as _tf

from ... import random as keras_random
from .image_augment_base import AugmentLayer
from .image_geometric_more import unit_pair
from .image_layer_base import batch_size

_INTERPOLATIONS = ("nearest", "bilinear")
_LAYER_FILL_MODES = ("constant", "nearest", "wrap", "mirror", "reflect")
_OP_FILL_MODES = ("constant", "nearest", "wrap", "reflect")  # Keras' op refuses "mirror" at call time


def _nodes(coordinate, order):
    """(index, weight) pairs of one axis: the rounded coordinate (order 0) or its floor and ceiling (order 1)."""
    if order == 0:
        return [(_tf.cast(_tf.round(coordinate), "int32"), _tf.constant(1, coordinate.dtype))]
    lower = _tf.floor(coordinate)
    upper_weight = coordinate - lower
    index = _tf.cast(lower, "int32")
    return [(index, 1 - upper_weight), (index + 1, upper_weight)]


def _fixed_index(index, size, fill_mode):
    """Keras' process_coordinates: an index folded into [0, size) by the fill mode, and whether it was inside."""
    if fill_mode == "constant":
        return _tf.clip_by_value(index, 0, size - 1), (index >= 0) & (index < size)
    if fill_mode == "nearest":
        return _tf.clip_by_value(index, 0, size - 1), None
    if fill_mode == "wrap":
        return _tf.math.floormod(index, size), None
    index = _tf.abs(index)
    folded = _tf.math.floormod(index, 2 * size)
    under = folded < size
    index = _tf.where(under, folded, 2 * size - folded)
    return _tf.where(under, index, index - 1), None  # reflect: the far side shifted by one


def map_coordinates(image, coordinates, order, fill_mode, fill_value):
    """One 2-D image sampled at (y, x) coordinate maps, summed over the interpolation corners in Keras' order."""
    axes = []
    for coordinate, size in zip(coordinates, image.shape):
        axes.append([(*_fixed_index(index, int(size), fill_mode), weight)
                     for index, weight in _nodes(coordinate, order)])
    total = None
    for (y, y_valid, y_weight), (x, x_valid, x_weight) in itertools.product(*axes):
        gathered = _tf.cast(_tf.gather_nd(image, _tf.stack([y, x], axis=-1)), y_weight.dtype)
        if fill_mode == "constant":
            gathered = _tf.where(y_valid & x_valid, gathered, _tf.cast(fill_value, gathered.dtype))
        term = y_weight * x_weight * gathered
        total = term if total is None else total + term
    if image.dtype.is_integer:
        total = _tf.round(total)
    return _tf.cast(total, image.dtype)


def _blurred(field, size, sigma):
    """Keras' gaussian_blur of an (N, H, W) field with a (size, size) kernel of width sigma (size a tensor)."""
    dtype = field.dtype
    length = _tf.cast(size, dtype)
    grid = _tf.range(length, dtype=dtype) - (length - 1) / 2
    one_d = _tf.exp(-0.5 * (grid / sigma) ** 2)
    one_d = one_d / _tf.reduce_sum(one_d)
    kernel = _tf.reshape(_tf.tensordot(one_d, one_d, axes=0), _tf.stack([size, size, 1, 1]))
    return _tf.nn.depthwise_conv2d(field[..., None], kernel, [1, 1, 1, 1], "SAME")[..., 0]


def elastic_transform(images, alpha, sigma, interpolation, fill_mode, fill_value, seed):
    """Keras' TF-backend elastic_transform on a channels-last batch with static height, width and channels."""
    if fill_mode not in _OP_FILL_MODES:
        raise ValueError(f"Invalid value for argument `fill_mode`. Expected of one {_OP_FILL_MODES}. Received: "
                         f"fill_mode={fill_mode}")
    dtype = images.dtype
    n, height, width, channels = images.shape
    n = 1 if n is None else int(n)
    alpha, sigma = _tf.cast(alpha, dtype), _tf.cast(sigma, dtype)
    size = _tf.bitwise.bitwise_or(6 * _tf.cast(sigma, "int32"), 1)
    pair = keras_random._seed_pair(seed)
    field = _tf.random.stateless_normal((n, int(height), int(width)), seed=pair, dtype=dtype) * sigma
    field = _blurred(field, size, sigma)  # dx and dy: Keras draws both from the same seed
    x, y = _tf.meshgrid(_tf.range(int(width), dtype=dtype), _tf.range(int(height), dtype=dtype), indexing="xy")
    x_distorted, y_distorted = x[None] + alpha * field, y[None] + alpha * field
    order = _INTERPOLATIONS.index(interpolation)
    out = [_tf.stack([map_coordinates(images[b, ..., i], [y_distorted[b], x_distorted[b]], order, fill_mode,
                                      fill_value) for b in range(n)], axis=0)
           for i in range(int(channels))]
    return _tf.cast(_tf.stack(out, axis=-1), dtype)


class RandomElasticTransform(AugmentLayer):
    """With probability drawn from the factor range, each image displaced by an elastic field of strength drawn
    from `scale` (alpha = 0.1 * s * max(H, W), sigma = 0.05 * s * min(H, W)), then clipped to value_range."""

    _USE_BASE_FACTOR = False
    _FACTOR_BOUNDS = (0, 1)

    def __init__(self, factor=1.0, scale=1.0, interpolation="bilinear", fill_mode="reflect", fill_value=0.0,
                 value_range=(0, 255), seed=None, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self._set_factor(factor)
        self.scale = unit_pair(scale, "scale")
        self.interpolation, self.fill_mode, self.fill_value = interpolation, fill_mode, fill_value
        self.value_range, self.seed = value_range, seed
        self.generator = self._make_generator(seed)
        if interpolation not in _INTERPOLATIONS:
            raise NotImplementedError(f"Unknown `interpolation` {interpolation}. Expected of one {_INTERPOLATIONS}.")
        if fill_mode not in _LAYER_FILL_MODES:
            raise NotImplementedError(f"Unknown `fill_mode` {fill_mode}. Expected of one {set(_LAYER_FILL_MODES)}.")

    def get_random_transformation(self, images, training=True, seed=None):
        if not training or self.scale[1] == 0 or self.factor[1] == 0:
            return None
        n = batch_size(images)
        seed = seed or self.generator
        probability = keras_random.uniform((n,), self.factor[0], self.factor[1], seed=seed)
        threshold = keras_random.uniform((n,), 0.0, 1.0, seed=seed)
        distortion = keras_random.uniform((), self.scale[0], self.scale[1], dtype=self.compute_dtype, seed=seed)
        return {"apply_transform": threshold < probability, "distortion_factor": distortion, "seed": seed}

    def transform_images(self, images, transformation, training=True):
        images = _tf.cast(images, self.compute_dtype)
        if not training or transformation is None:
            return images
        return self._warp(images, transformation, self.interpolation)

    def _warp(self, images, transformation, interpolation):
        if any(d is None for d in images.shape[1:]):
            raise ValueError(f"Layer '{self.name}' (RandomElasticTransform) needs images of a known height, width "
                             f"and channel count. Received: images.shape={images.shape}")
        height, width = int(images.shape[1]), int(images.shape[2])
        factor = transformation["distortion_factor"]
        alpha, sigma = max(height, width) * (0.1 * factor), min(height, width) * (0.05 * factor)
        moved = elastic_transform(images, alpha, sigma, interpolation, self.fill_mode, self.fill_value,
                                  transformation["seed"])
        images = _tf.where(_tf.reshape(transformation["apply_transform"], [-1, 1, 1, 1]), moved, images)
        images = _tf.clip_by_value(images, _tf.cast(self.value_range[0], images.dtype),
                                   _tf.cast(self.value_range[1], images.dtype))
        return _tf.cast(images, self.compute_dtype)

    def get_config(self) -> dict:
        return {**super().get_config(), "factor": self.factor, "scale": self.scale,
                "interpolation": self.interpolation, "fill_mode": self.fill_mode, "fill_value": self.fill_value,
                "value_range": self.value_range, "seed": self.seed}
