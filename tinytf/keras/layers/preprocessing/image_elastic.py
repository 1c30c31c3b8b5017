"""RandomElasticTransform: each image resampled at its pixel grid plus a smooth random displacement field, as
Keras 3's TF backend computes it (ops.image.elastic_transform): one standard-normal field drawn from the
generator's next seed (the same field for x and y, as Keras draws both from one seed), blurred by a Gaussian of
size 6 * int(sigma) | 1, scaled by alpha, and sampled with map_coordinates' interpolation and fill rules (the
whole batch in one gather). Images whose height and width are known only at run time (a tf.function traced with
None sizes, a tf.data map over decoded images) work too, where Keras 3.15 raises a TypeError."""

from __future__ import annotations

import itertools

import tinytf as _tf

from ... import random as keras_random
from .image_augment_base import AugmentLayer
from .image_geometric_more import unit_pair
from .image_layer_base import batch_size, height_width

_INTERPOLATIONS = ("nearest", "bilinear")
_LAYER_FILL_MODES = ("constant", "nearest", "wrap", "mirror", "reflect")
_OP_FILL_MODES = ("constant", "nearest", "wrap", "reflect")  # Keras' op refuses "mirror" at call time


def sample_nodes(coordinate, order):
    """(index, weight) pairs along one axis: the rounded coordinate (order 0; integers as they are) or its
    floor and floor + 1 (order 1)."""
    if order == 0:
        rounded = coordinate if coordinate.dtype.is_integer else _tf.round(coordinate)
        return [(_tf.cast(rounded, "int32"), _tf.constant(1, coordinate.dtype))]
    lower = _tf.floor(coordinate)
    upper_weight = coordinate - lower
    index = _tf.cast(lower, "int32")
    return [(index, 1 - upper_weight), (index + 1, upper_weight)]


def fold_index(index, size, fill_mode):
    """Keras' process_coordinates: an index brought into [0, size) by the fill mode, and whether it was inside
    (constant). "mirror" folds at the edges; "reflect" shifts the far side by one."""
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
    if fill_mode == "reflect":
        index = _tf.where(under, index, index - 1)
    return index, None


def map_coordinates(images, y_coordinates, x_coordinates, order, fill_mode, fill_value):
    """A channels-last batch (N, H, W, C) sampled at one (y, x) map per image (N, H, W), the same for every
    channel, summed over the interpolation corners in Keras' order (Keras samples channel by channel and image by
    image; the arithmetic per value is the same). Sizes may be tensors (unknown until run time)."""
    shape = _tf.shape(images)
    sizes = [int(images.shape[axis]) if images.shape[axis] is not None else shape[axis] for axis in (1, 2)]
    folding = "reflect" if fill_mode == "mirror" else fill_mode  # the layer folds both with the shift
    axes = [[(*fold_index(index, size, folding), weight) for index, weight in sample_nodes(coordinate, order)]
            for coordinate, size in zip((y_coordinates, x_coordinates), sizes)]
    batch_index = _tf.broadcast_to(_tf.reshape(_tf.range(shape[0]), [-1, 1, 1]), _tf.shape(y_coordinates))
    total = None
    for (y, y_valid, y_weight), (x, x_valid, x_weight) in itertools.product(*axes):
        gathered = _tf.cast(_tf.gather_nd(images, _tf.stack([batch_index, y, x], axis=-1)), y_weight.dtype)
        if fill_mode == "constant":
            gathered = _tf.where(_tf.expand_dims(y_valid & x_valid, -1), gathered,
                                 _tf.cast(fill_value, gathered.dtype))
        term = _tf.expand_dims(y_weight * x_weight, -1) * gathered
        total = term if total is None else total + term
    if images.dtype.is_integer:
        total = _tf.round(total)
    return _tf.cast(total, images.dtype)


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
    """Keras' TF-backend elastic_transform on a channels-last batch. Height and width may be unknown until run
    time (Keras needs them static); a batch of unknown size is sampled from its first image's field only, as
    Keras' op does (it takes the batch size as 1 then)."""
    if fill_mode not in _OP_FILL_MODES:
        raise ValueError(f"Invalid value for argument `fill_mode`. Expected of one {_OP_FILL_MODES}. Received: "
                         f"fill_mode={fill_mode}")
    dtype = images.dtype
    if images.shape[0] is None:
        images = images[:1]
    shape = _tf.shape(images)
    n, height, width = (int(images.shape[axis]) if images.shape[axis] is not None else shape[axis]
                        for axis in (0, 1, 2))
    alpha, sigma = _tf.cast(alpha, dtype), _tf.cast(sigma, dtype)
    size = _tf.bitwise.bitwise_or(6 * _tf.cast(sigma, "int32"), 1)
    pair = keras_random._seed_pair(seed)
    static = all(isinstance(v, int) for v in (n, height, width))
    field_shape = (n, height, width) if static else _tf.stack([n, height, width])
    field = _tf.random.stateless_normal(field_shape, seed=pair, dtype=dtype) * sigma
    field = _blurred(field, size, sigma)  # dx and dy: Keras draws both from the same seed
    x, y = _tf.meshgrid(_tf.range(width, dtype=dtype), _tf.range(height, dtype=dtype), indexing="xy")
    x_distorted, y_distorted = x[None] + alpha * field, y[None] + alpha * field
    order = _INTERPOLATIONS.index(interpolation)
    return _tf.cast(map_coordinates(images, y_distorted, x_distorted, order, fill_mode, fill_value), dtype)


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
        height, width = height_width(images)
        factor = transformation["distortion_factor"]
        if isinstance(height, int) and isinstance(width, int):
            alpha, sigma = max(height, width) * (0.1 * factor), min(height, width) * (0.05 * factor)
        else:  # sizes known at run time only: the same products, in float32 as Keras computes them
            height, width = _tf.cast(height, factor.dtype), _tf.cast(width, factor.dtype)
            alpha = _tf.maximum(height, width) * (0.1 * factor)
            sigma = _tf.minimum(height, width) * (0.05 * factor)
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
