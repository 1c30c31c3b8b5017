"""RandomShear, RandomPerspective and RandomErasing with Keras 3's draws (same seeds, same numbers as TF 2.21),
and the Keras 2 leftovers TF 2.21 still exports: RandomHeight and RandomWidth (resize one axis by a random
factor, one draw per batch). The shear and perspective maps are applied by the ImageProjectiveTransformV3 op,
as Keras' TF backend applies them."""

from __future__ import annotations

import tinytf as _tf
from tinytf.keras.utils.bounding_boxes import clip_to_image_size, convert_format
from tinytf.runtime.ops.image_transform import image_projective_transform_v3

from ... import random as keras_random
from ..layer import Layer
from .image_affine import affine_transform
from .image_augment_base import AugmentLayer
from .image_layer_base import batch_size, height_width

_FILL_MODES = ("reflect", "wrap", "constant", "nearest")
_INTERPOLATIONS = ("nearest", "bilinear")


def _check_interpolation(interpolation):
    if interpolation not in _INTERPOLATIONS:
        raise NotImplementedError(f"Unknown `interpolation` {interpolation}. Expected of one {_INTERPOLATIONS}.")


class RandomShear(AugmentLayer):
    """Shear each image along x by a draw from x_factor and along y by a draw from y_factor (a number f gives
    [-f, f]), both with one random sign per image, about the image's corner (Keras' matrix
    [1, sx, 0, sy, 1, 0, 0, 0])."""

    _USE_BASE_FACTOR = False
    _MESSAGE = "The `factor` argument should be a number (or a list of two numbers) in the range [0, 1.0]. "

    def __init__(self, x_factor=0.0, y_factor=0.0, interpolation="bilinear", fill_mode="reflect", fill_value=0.0,
                 data_format=None, seed=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.x_factor = self._shear_factor(x_factor, "x_factor")
        self.y_factor = self._shear_factor(y_factor, "y_factor")
        if fill_mode not in _FILL_MODES:
            raise NotImplementedError(f"Unknown `fill_mode` {fill_mode}. Expected of one {_FILL_MODES}.")
        _check_interpolation(interpolation)
        self.fill_mode, self.fill_value, self.interpolation = fill_mode, fill_value, interpolation
        self.seed = seed
        self.generator = self._make_generator(seed)

    def _shear_factor(self, factor, name):
        def check(number):
            if number > 1.0 or number < 0.0:
                raise ValueError(self._MESSAGE + f"Received: input_number={number}")

        if isinstance(factor, (tuple, list)):
            if len(factor) != 2:
                raise ValueError(self._MESSAGE + f"Received: {name}={factor}")
            check(factor[0])
            check(factor[1])
            return tuple(sorted(factor))
        if isinstance(factor, (int, float)):
            check(factor)
            return (-abs(factor), abs(factor))
        raise ValueError(self._MESSAGE + f"Received: {name}={factor}")

    def get_random_transformation(self, images, training=True, seed=None):
        if not training:
            return None
        seed = self._seed(seed)
        n = batch_size(images)
        invert = keras_random.uniform((n, 1), 0, 1, dtype=self.compute_dtype, seed=seed)
        invert = _tf.where(invert > 0.5, -_tf.ones_like(invert), _tf.ones_like(invert))
        shear_y = keras_random.uniform((n, 1), self.y_factor[0], self.y_factor[1], dtype=self.compute_dtype,
                                       seed=seed)
        shear_x = keras_random.uniform((n, 1), self.x_factor[0], self.x_factor[1], dtype=self.compute_dtype,
                                       seed=seed)
        return {"shear_factor": _tf.concat([shear_x, shear_y], axis=1) * invert, "input_shape": height_width(images)}

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        """Keras' sheared boxes: each side moved by the shear at the box's own near or far edge (relative
        coordinates), then clipped to [0, 1]."""
        if not training or transformation is None:
            return bounding_boxes
        height, width = transformation["input_shape"]
        bounding_boxes = convert_format(bounding_boxes, self.bounding_box_format, "rel_xyxy", height=height,
                                        width=width, dtype=self.compute_dtype)
        shear = _tf.cast(transformation["shear_factor"], self.compute_dtype)
        sx, sy = shear[:, 0:1], shear[:, 1:2]
        boxes = bounding_boxes["boxes"]
        x1, y1, x2, y2 = boxes[..., 0], boxes[..., 1], boxes[..., 2], boxes[..., 3]
        x1 = _tf.where(sx < 0, x1 - sx * y1, x1 - sx * y2)
        x2 = _tf.where(sx < 0, x2 - sx * y2, x2 - sx * y1)
        y1 = _tf.where(sy > 0, y1 - sy * x2, y1 - sy * x1)
        y2 = _tf.where(sy > 0, y2 - sy * x1, y2 - sy * x2)
        bounding_boxes["boxes"] = _tf.stack([x1, y1, x2, y2], axis=-1)
        bounding_boxes = clip_to_image_size(bounding_boxes, height=height, width=width,
                                            bounding_box_format="rel_xyxy")
        return convert_format(bounding_boxes, "rel_xyxy", self.bounding_box_format, height=height, width=width,
                              dtype=self.compute_dtype)

    def transform_images(self, images, transformation, training=True):
        images = _tf.cast(images, self.compute_dtype)
        if not training or transformation is None:
            return images
        return self._warp(images, transformation, self.interpolation)

    def _warp(self, images, transformation, interpolation):
        shear = _tf.cast(transformation["shear_factor"], "float32")
        ones, zeros = _tf.ones_like(shear[:, 0]), _tf.zeros_like(shear[:, 0])
        matrix = _tf.stack([ones, shear[:, 0], zeros, shear[:, 1], ones, zeros, zeros, zeros], axis=1)
        return affine_transform(images, matrix, interpolation, self.fill_mode, self.fill_value)

    def get_config(self) -> dict:
        return {**super().get_config(), "x_factor": self.x_factor, "y_factor": self.y_factor,
                "fill_mode": self.fill_mode, "interpolation": self.interpolation, "seed": self.seed,
                "fill_value": self.fill_value}


def homography_matrix(start_points, end_points):
    """Keras' compute_homography_matrix: the 8 projective coefficients mapping end points to start points, from
    the 8x8 linear system of the four point pairs (N, 4, 2) each."""
    rows, target = [], []
    for k in range(4):
        sx, sy = start_points[:, k, 0], start_points[:, k, 1]
        ex, ey = end_points[:, k, 0], end_points[:, k, 1]
        ones, zeros = _tf.ones_like(ex), _tf.zeros_like(ex)
        rows.append(_tf.stack([ex, ey, ones, zeros, zeros, zeros, -sx * ex, -sx * ey], axis=-1))
        rows.append(_tf.stack([zeros, zeros, zeros, ex, ey, ones, -sy * ex, -sy * ey], axis=-1))
        target += [sx, sy]
    coefficients = _tf.stack(rows, axis=1)
    solution = _tf.linalg.solve(coefficients, _tf.expand_dims(_tf.stack(target, axis=-1), -1))
    return _tf.reshape(solution, [-1, 8])


class RandomPerspective(AugmentLayer):
    """With probability drawn from the factor range, each image's four corners moved by up to scale / 2 of their
    own coordinates (Keras' end = start + start * u, u in [-scale/2, scale/2]) and the image warped by the
    homography between them (constant fill)."""

    _USE_BASE_FACTOR = False
    _FACTOR_BOUNDS = (0, 1)

    def __init__(self, factor=1.0, scale=1.0, interpolation="bilinear", fill_value=0.0, seed=None, data_format=None,
                 **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self._set_factor(factor)
        self.scale, self.fill_value, self.interpolation = scale, fill_value, interpolation
        self.seed = seed
        self.generator = self._make_generator(seed)
        if scale < 0.0 or scale > 1.0:
            raise ValueError(f"The `scale` argument should be a number in the range [0,1]. Received: scale={scale}")
        _check_interpolation(interpolation)

    def get_random_transformation(self, images, training=True, seed=None):
        if not training:
            return None
        height, width = height_width(images)
        n = batch_size(images)
        seed = seed or self.generator
        probability = keras_random.uniform((n,), self.factor[0], self.factor[1], seed=seed)
        threshold = keras_random.uniform((n,), 0.0, 1.0, seed=seed)
        factor = keras_random.uniform((n, 4, 2), -0.5 * self.scale, 0.5 * self.scale, dtype=self.compute_dtype,
                                      seed=seed)
        w, h = _tf.cast(width, self.compute_dtype) - 1, _tf.cast(height, self.compute_dtype) - 1
        zero = _tf.zeros_like(w)
        start = _tf.reshape(_tf.stack([zero, zero, w, zero, zero, h, w, h]), [1, 4, 2])
        start = _tf.repeat(start, n, axis=0)
        return {"apply_perspective": threshold < probability, "start_points": start,
                "end_points": start + start * factor, "input_shape": (height, width)}

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        """Keras' boxes: the box around each box's four corners mapped by the inverse of the homography, where
        the image is warped, clipped to the image; returned in "xyxy" whatever the layer's format, as Keras
        returns them."""
        if not training or transformation is None:
            return bounding_boxes
        height, width = transformation["input_shape"]
        bounding_boxes = convert_format(bounding_boxes, self.bounding_box_format, "xyxy", height=height, width=width)
        boxes = bounding_boxes["boxes"]
        x0, y0, x1, y1 = _tf.split(boxes, 4, axis=-1)
        matrix = homography_matrix(transformation["start_points"], transformation["end_points"])
        matrix = _tf.cast(matrix, self.compute_dtype)
        full = _tf.reshape(_tf.concat([matrix, _tf.ones_like(matrix[:, :1])], axis=-1), [-1, 3, 3])
        inverse = _tf.expand_dims(_tf.linalg.inv(full), 1)  # (N, 1, 3, 3) against (N, B, 3, 1) points
        xs, ys = [], []
        for x, y in ((x0, y0), (x1, y1), (x0, y1), (x1, y0)):
            point = _tf.expand_dims(_tf.concat([x, y, _tf.ones_like(x)], axis=-1), -1)
            moved = _tf.matmul(inverse, point)[..., 0]
            xs.append(moved[..., 0] / moved[..., 2])
            ys.append(moved[..., 1] / moved[..., 2])
        xs, ys = _tf.stack(xs, axis=-1), _tf.stack(ys, axis=-1)
        moved = _tf.stack([_tf.reduce_min(xs, -1), _tf.reduce_min(ys, -1), _tf.reduce_max(xs, -1),
                           _tf.reduce_max(ys, -1)], axis=-1)
        apply = _tf.reshape(transformation["apply_perspective"], [-1, 1, 1])
        bounding_boxes["boxes"] = _tf.where(apply, moved, boxes)
        return clip_to_image_size(bounding_boxes, height=height, width=width, bounding_box_format="xyxy")

    def transform_images(self, images, transformation, training=True):
        images = _tf.cast(images, self.compute_dtype)
        if not training or transformation is None:
            return images
        return self._warp(images, transformation, self.interpolation)

    def _warp(self, images, transformation, interpolation):
        matrix = homography_matrix(_tf.cast(transformation["start_points"], "float32"),
                                   _tf.cast(transformation["end_points"], "float32"))
        height, width = height_width(images)
        size = [height, width] if isinstance(height, int) and isinstance(width, int) else _tf.shape(images)[1:3]
        warped = image_projective_transform_v3(images, matrix, size, fill_value=self.fill_value,
                                               interpolation=interpolation.upper(), fill_mode="CONSTANT")
        apply = _tf.reshape(transformation["apply_perspective"], [-1, 1, 1, 1])
        return _tf.where(apply, warped, images)

    def get_config(self) -> dict:
        return {**super().get_config(), "factor": self.factor, "scale": self.scale,
                "interpolation": self.interpolation, "fill_value": self.fill_value, "seed": self.seed}


def unit_pair(value, name, bounds=(0, 1)):
    """Keras' _set_factor_by_name: a number f in the bounds as (max(-f, low), f), or a sorted pair."""
    low, high = bounds
    message = (f"The `{name}` argument should be a number (or a list of two numbers) in the range [{low}, {high}]. "
               f"Received: factor={value}")
    if isinstance(value, (tuple, list)):
        if len(value) != 2 or value[0] > high or value[1] < low:
            raise ValueError(message)
        return tuple(sorted(value))
    if isinstance(value, (int, float)):
        if value < low or value > high:
            raise ValueError(message)
        return (max(-abs(value), low), abs(value))
    raise ValueError(message)


def box_masks(height, width, channels, x0, x1, y0, y1, dtype):
    """Keras' _generate_batch_mask: (N, H, W, C) booleans, true inside [x0, x1) x [y0, y1) of each image."""
    grid_y, grid_x = _tf.meshgrid(_tf.range(height, dtype=dtype), _tf.range(width, dtype=dtype), indexing="ij")
    grid_y, grid_x = grid_y[None, :, :, None], grid_x[None, :, :, None]

    def column(v):
        return _tf.reshape(v, [-1, 1, 1, 1])

    inside = ((grid_x >= column(x0)) & (grid_x < column(x1)) & (grid_y >= column(y0)) & (grid_y < column(y1)))
    return _tf.repeat(inside, channels, axis=3)


def crop_bounds(layer, n, length, ratio, seed):
    """Keras' _compute_crop_bounds: a window of ratio * length starting at a uniform fraction of the rest."""
    crop = _tf.cast(ratio * _tf.cast(length, layer.compute_dtype), layer.compute_dtype)
    start = keras_random.uniform((n,), 0, 1, dtype=layer.compute_dtype, seed=seed) * (
        _tf.cast(length, layer.compute_dtype) - crop)
    return start, start + crop


class RandomErasing(AugmentLayer):
    """With probability drawn from the factor range, one rectangle per image (sides sqrt(s) of the width and the
    height, s drawn from `scale`) replaced by fill_value, or, when fill_value is None, by Gaussian noise times
    value_range[1]; the fill clipped to value_range."""

    _KEEPS_GEOMETRY = True

    _USE_BASE_FACTOR = False
    _FACTOR_BOUNDS = (0, 1)

    def __init__(self, factor=1.0, scale=(0.02, 0.33), fill_value=None, value_range=(0, 255), seed=None,
                 data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self._set_factor(factor)
        self.scale = unit_pair(scale, "scale")
        self.fill_value, self.value_range = fill_value, value_range
        self.seed = seed
        self.generator = self._make_generator(seed)

    def _fill(self, images, seed):
        shape = _tf.shape(images)
        fill = self.fill_value
        if fill is None:
            fill = keras_random.normal(shape, dtype=self.compute_dtype, seed=seed) * self.value_range[1]
        else:
            message = "The `fill_value` argument should be a number (or a list of three numbers) "
            if isinstance(fill, (tuple, list)):
                if len(fill) != 3:
                    raise ValueError(message)
                fill = _tf.ones_like(images) * _tf.constant(fill, self.compute_dtype)
            elif isinstance(fill, (int, float)):
                fill = _tf.ones(shape, self.compute_dtype) * fill
            else:
                raise ValueError(message)
        return _tf.clip_by_value(fill, _tf.cast(self.value_range[0], self.compute_dtype),
                                 _tf.cast(self.value_range[1], self.compute_dtype))

    def get_random_transformation(self, images, training=True, seed=None):
        if not training:
            return None
        height, width = height_width(images)
        n = batch_size(images)
        seed = seed or self.generator
        weight = _tf.sqrt(keras_random.uniform((n, 2), self.scale[0], self.scale[1], dtype=self.compute_dtype,
                                               seed=seed))
        x0, x1 = crop_bounds(self, n, width, weight[:, 0], seed)
        y0, y1 = crop_bounds(self, n, height, weight[:, 1], seed)
        masks = box_masks(height, width, int(images.shape[-1]), x0, x1, y0, y1, self.compute_dtype)
        probability = keras_random.uniform((n,), self.factor[0], self.factor[1], seed=seed)
        threshold = keras_random.uniform((n,), 0.0, 1.0, seed=seed)
        return {"apply_erasing": threshold < probability, "batch_masks": masks,
                "fill_value": self._fill(images, seed)}

    def transform_images(self, images, transformation=None, training=True):
        images = _tf.cast(images, self.compute_dtype)
        if not training:
            return images
        erased = _tf.where(transformation["batch_masks"], _tf.cast(transformation["fill_value"], images.dtype),
                           images)
        return _tf.where(_tf.reshape(transformation["apply_erasing"], [-1, 1, 1, 1]), erased, images)

    def get_config(self) -> dict:
        return {**super().get_config(), "factor": self.factor, "scale": self.scale, "fill_value": self.fill_value,
                "value_range": self.value_range, "seed": self.seed}


class _RandomAxisResize(Layer):
    """Keras 2's RandomHeight / RandomWidth as TF 2.21 keeps them: one factor per call drawn from
    [1 + lower, 1 + upper], the axis resized to int(factor * size) by tf.image.resize, in training only."""

    _AXIS = None  # -3 (height) or -2 (width)
    _LESSER = None

    def __init__(self, factor, interpolation="bilinear", seed=None, **kwargs):
        super().__init__(**kwargs)
        self.generator = keras_random.SeedGenerator(seed)
        self.factor = factor
        if isinstance(factor, (tuple, list)):
            self.lower, self.upper = factor[0], factor[1]
        else:
            self.lower, self.upper = -factor, factor
        if self.upper < self.lower:
            raise ValueError(f"`factor` argument cannot have an upper bound {self._LESSER} than the lower bound. "
                             f"Received: factor={factor}")
        if self.lower < -1.0 or self.upper < -1.0:
            raise ValueError(f"`factor` argument must have values larger than -1. Received: factor={factor}")
        self.interpolation, self.seed = interpolation, seed

    def call(self, inputs, training=True):
        if isinstance(inputs, dict):
            # Keras 2's layer converts its input to one tensor: a dict of images and boxes fails there
            raise ValueError(f"Layer '{self.name}' ({type(self).__name__}) takes a tensor of images, not a dict "
                             f"(Keras 2's layer has no bounding boxes or masks): attempt to convert a value "
                             f"({sorted(inputs)}) to a Tensor.")
        inputs = _tf.cast(_tf.convert_to_tensor(inputs), self.compute_dtype)
        if not training:
            return inputs
        shape = _tf.shape(inputs)
        draw = keras_random.uniform((), 1.0 + self.lower, 1.0 + self.upper, seed=self.generator)
        resized = _tf.cast(draw * _tf.cast(shape[self._AXIS], "float32"), "int32")
        size = _tf.stack([resized, shape[-2]] if self._AXIS == -3 else [shape[-3], resized])
        return _tf.cast(_tf.image.resize(inputs, size, method=self.interpolation), self.compute_dtype)

    def compute_output_shape(self, input_shape):
        shape = list(input_shape)
        shape[self._AXIS] = None
        return tuple(shape)

    def get_config(self) -> dict:
        return {**super().get_config(), "factor": self.factor, "interpolation": self.interpolation,
                "seed": self.seed}


class RandomHeight(_RandomAxisResize):
    """Images resized to a random height (factor f: between (1 - f) and (1 + f) times theirs), width kept."""

    _AXIS, _LESSER = -3, "lesser"


class RandomWidth(_RandomAxisResize):
    """Images resized to a random width (factor f: between (1 - f) and (1 + f) times theirs), height kept."""

    _AXIS, _LESSER = -2, "less"


class ThresholdedReLU(Layer):
    """x where x > theta, else 0 (Keras 2's layer, still exported by TF 2.21)."""

    def __init__(self, theta=1.0, **kwargs):
        super().__init__(**kwargs)
        if theta is None:
            raise ValueError("Theta of a Thresholded ReLU layer cannot be None, expecting a float. Received: "
                             f"{theta}")
        if theta < 0:
            raise ValueError(f"The theta value of a Thresholded ReLU layer should be >=0. Received: {theta}")
        self.supports_masking = True
        self.theta = float(theta)

    def call(self, inputs):
        inputs = _tf.convert_to_tensor(inputs)
        return inputs * _tf.cast(_tf.greater(inputs, _tf.cast(self.theta, inputs.dtype)), inputs.dtype)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self) -> dict:
        return {**super().get_config(), "theta": self.theta}
