"""Solarization, RandomInvert, RandomPosterization, AutoContrast, Equalization, RandomColorDegeneration,
RandomSharpness and RandomGaussianBlur: per-image value changes with Keras 3's draws (same seeds, same numbers
as TF 2.21), argument checks and messages, and Keras' own quirks kept (Solarization's addition range starts at
the unscaled lower factor, RandomPosterization's randint excludes the upper factor, RandomGaussianBlur's sigma
is bounded to [0, 1], Equalization's histogram is one per channel over the whole batch)."""

from __future__ import annotations

import tinytf as _tf

from ... import random as keras_random
from ...ops.image import rgb_to_grayscale
from .image_augment_base import AugmentLayer, checked_value_range, transform_value_range
from .image_layer_base import batch_size

_UNIT_FACTOR_ERROR = ("The `addition_factor` and `threshold_factor` arguments should be a number (or a list of two "
                      "numbers) in the range [0, 1]. ")


def _back_to_dtype(results, dtype):
    """Keras' ending of Solarization and AutoContrast: integer images rounded and saturated back."""
    if results.dtype == dtype:
        return results
    if dtype.is_integer:
        results = _tf.round(results)
    return _tf.dtypes.saturate_cast(results, dtype)


class Solarization(AugmentLayer):
    """Each image (rescaled from value_range to [0, 255]) gets an addition drawn from
    [addition_factor[0], addition_factor[1] * 255], clipped to [0, 255], and values at or above a threshold
    drawn from [threshold_factor[0], threshold_factor[1] * 255] inverted (255 - x)."""

    _KEEPS_GEOMETRY = True

    _USE_BASE_FACTOR = False

    def __init__(self, addition_factor=0.0, threshold_factor=0.0, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(**kwargs)
        self.seed = seed
        self.generator = self._make_generator(seed)
        self.addition_factor = self._unit_factor(addition_factor, "addition_factor")
        self.threshold_factor = self._unit_factor(threshold_factor, "threshold_factor")
        self.value_range = checked_value_range(value_range)

    @staticmethod
    def _unit_factor(factor, name):
        def check(number):
            if number > 1.0 or number < 0:
                raise ValueError(_UNIT_FACTOR_ERROR + f"Received: input_number={number}")

        if isinstance(factor, (tuple, list)):
            if len(factor) != 2:
                raise ValueError(_UNIT_FACTOR_ERROR + f"Received: {name}={factor}")
            check(factor[0])
            check(factor[1])
            return tuple(sorted(factor))
        if isinstance(factor, (int, float)):
            check(factor)
            return (0, factor)
        raise ValueError(_UNIT_FACTOR_ERROR + f"Received: {name}={factor}")

    def get_random_transformation(self, images, training=True, seed=None):
        if not training:
            return None
        seed = self._seed(seed)
        shape = (batch_size(images), 1, 1, 1)
        additions = keras_random.uniform(shape, self.addition_factor[0], self.addition_factor[1] * 255,
                                         dtype=self.compute_dtype, seed=seed)
        thresholds = keras_random.uniform(shape, self.threshold_factor[0], self.threshold_factor[1] * 255,
                                          dtype=self.compute_dtype, seed=seed)
        return {"additions": additions, "thresholds": thresholds}

    def transform_images(self, images, transformation, training=True):
        images = _tf.cast(images, self.compute_dtype)
        if not training or transformation is None:
            return images
        results = transform_value_range(images, self.value_range, (0, 255), self.compute_dtype)
        results = _tf.clip_by_value(results + transformation["additions"], 0.0, 255.0)
        results = _tf.where(results < transformation["thresholds"], results, 255 - results)
        results = transform_value_range(results, (0, 255), self.value_range, self.compute_dtype)
        return _back_to_dtype(results, images.dtype)

    def get_config(self) -> dict:
        return {**super().get_config(), "value_range": self.value_range, "addition_factor": self.addition_factor,
                "threshold_factor": self.threshold_factor, "seed": self.seed}


class RandomInvert(AugmentLayer):
    """Each image replaced by value_range[1] - x when a uniform draw falls below a probability itself drawn from
    the factor range (factor 1.0: probability uniform in [0, 1])."""

    _KEEPS_GEOMETRY = True

    _USE_BASE_FACTOR = False
    _FACTOR_BOUNDS = (0, 1)

    def __init__(self, factor=1.0, value_range=(0, 255), seed=None, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self._set_factor(factor)
        self.value_range, self.seed = value_range, seed
        self.generator = self._make_generator(seed)

    def get_random_transformation(self, images, training=True, seed=None):
        if not training:
            return None
        seed = seed or self.generator
        n = batch_size(images)
        probability = keras_random.uniform((n,), self.factor[0], self.factor[1], seed=seed)
        threshold = keras_random.uniform((n,), 0, 1, seed=seed)
        return {"apply_inversion": threshold < probability}

    def transform_images(self, images, transformation, training=True):
        if not training:
            return images
        images = _tf.cast(images, self.compute_dtype)
        apply = _tf.reshape(transformation["apply_inversion"], [-1, 1, 1, 1])
        return _tf.where(apply, _tf.cast(self.value_range[1], images.dtype) - images, images)

    def get_config(self) -> dict:
        return {**super().get_config(), "factor": self.factor, "value_range": self.value_range, "seed": self.seed}


class RandomPosterization(AugmentLayer):
    """Each image (rescaled to [0, 255] and truncated to uint8) keeps only its top `bits` bits per channel, bits
    drawn per image from [factor[0], factor[1]) (Keras' randint: the upper bound is not drawn), or factor[0]
    when the two are equal. Keras draws even in inference (the generator moves on), and so does this."""

    _KEEPS_GEOMETRY = True

    _USE_BASE_FACTOR = False
    _FACTOR_BOUNDS = (1, 8)
    _MAX_FACTOR = 8

    def __init__(self, factor, value_range=(0, 255), data_format=None, seed=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self._set_factor(factor)
        self.value_range = checked_value_range(value_range)
        self.seed = seed
        self.generator = self._make_generator(seed)

    def get_random_transformation(self, images, training=True, seed=None):
        n = batch_size(images)
        seed = self._seed(seed)
        if self.factor[0] != self.factor[1]:
            bits = keras_random.randint((n,), self.factor[0], self.factor[1], dtype="uint8", seed=seed)
        else:
            bits = _tf.ones((n,), "uint8") * _tf.cast(self.factor[0], "uint8")
        return {"shift_factor": _tf.cast(self._MAX_FACTOR, "uint8") - bits}

    def transform_images(self, images, transformation, training=True):
        if not training:
            return images
        shift = _tf.reshape(transformation["shift_factor"], [-1, 1, 1, 1])
        images = transform_value_range(images, self.value_range, (0, 255), self.compute_dtype)
        images = _tf.cast(images, "uint8")
        images = _tf.bitwise.left_shift(_tf.bitwise.right_shift(images, shift), shift)
        images = _tf.cast(images, self.compute_dtype)
        return transform_value_range(images, (0, 255), self.value_range, self.compute_dtype)

    def get_config(self) -> dict:
        return {**super().get_config(), "factor": self.factor, "value_range": self.value_range, "seed": self.seed}


class AutoContrast(AugmentLayer):
    """Each image and channel stretched so that its minimum goes to value_range[0] and its maximum to
    value_range[1] (a flat channel, whose stretch is 0 / 0, is kept as it was). Not random: the same in training
    and inference. With channels_first Keras takes the minimum and maximum over the (channel, height) axes, and
    this does the same."""

    _KEEPS_GEOMETRY = True

    _USE_BASE_FACTOR = False

    def __init__(self, value_range=(0, 255), **kwargs):
        super().__init__(**kwargs)
        self.value_range = checked_value_range(value_range)

    def transform_images(self, images, transformation=None, training=True):
        original = images
        images = _tf.cast(transform_value_range(images, self.value_range, (0, 255), self.compute_dtype),
                          self.compute_dtype)
        axes = (1, 2)
        if self.data_format == "channels_first":  # Keras reduces axes (1, 2) of the (N, C, H, W) batch
            images = _tf.transpose(images, [0, 3, 1, 2])
        low = _tf.reduce_min(images, axis=axes, keepdims=True)
        high = _tf.reduce_max(images, axis=axes, keepdims=True)
        scale = 255.0 / (high - low)
        results = _tf.clip_by_value(images * scale + (-low * scale), 0.0, 255.0)
        if self.data_format == "channels_first":
            results = _tf.transpose(results, [0, 2, 3, 1])
        results = transform_value_range(results, (0, 255), self.value_range, self.compute_dtype)
        results = _tf.where(_tf.math.is_nan(results), _tf.cast(original, results.dtype), results)
        return _back_to_dtype(results, images.dtype)

    def get_config(self) -> dict:
        return {**super().get_config(), "value_range": self.value_range}


class Equalization(AugmentLayer):
    """Histogram equalization per channel, as Keras computes it: one `bins`-bin histogram of the channel over the
    whole batch, its cumulative counts turned into a lookup table (rounded half to even), each value mapped
    through it; a channel with one occupied bin is kept. Applied in training (the default) only."""

    _KEEPS_GEOMETRY = True

    _USE_BASE_FACTOR = False

    def __init__(self, value_range=(0, 255), bins=256, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.bins = bins
        self.value_range = checked_value_range(value_range)

    @staticmethod
    def _scale_values(values, source, target):
        scale = (target[1] - target[0]) / (source[1] - source[0])
        return values * scale + (target[0] - source[0] * scale)

    def _histogram(self, channel):
        scaled = _tf.cast(channel, "float32") * float(self.bins - 1) / 255.0
        indices = _tf.clip_by_value(_tf.cast(scaled, "int32"), 0, self.bins - 1)
        return _tf.math.bincount(_tf.reshape(indices, [-1]), minlength=self.bins)

    def _equalize(self, channel, hist):
        cdf = _tf.cumsum(hist)
        cdf_min = _tf.gather(cdf, _tf.reshape(_tf.where(cdf > 0), [-1])[0])
        denominator = cdf[-1] - cdf_min
        denominator = _tf.where(denominator == 0, _tf.ones_like(denominator), denominator)
        # TF's int32 / int32 divides in float64, and Keras rounds that quotient
        table = _tf.cast((cdf - cdf_min) * 255, "float64") / _tf.cast(denominator, "float64")
        table = _tf.clip_by_value(_tf.round(table), 0.0, 255.0)
        scaled = (channel / 255.0) * float(self.bins - 1)
        indices = _tf.cast(_tf.clip_by_value(scaled, 0.0, float(self.bins - 1)), "int32")
        return _tf.gather(table, indices)

    def _equalize_channel(self, channel):
        channel = self._scale_values(channel, self.value_range, (0, 255))
        hist = self._histogram(channel)
        flat = _tf.math.count_nonzero(hist) <= 1
        equalized = _tf.where(flat, _tf.cast(channel, "float64"), self._equalize(channel, hist))
        return self._scale_values(equalized, (0, 255), self.value_range)

    def transform_images(self, images, transformation=None, training=True):
        if not training:
            return images
        images = _tf.cast(images, self.compute_dtype)
        channels = [self._equalize_channel(images[..., i]) for i in range(int(images.shape[-1]))]
        return _tf.cast(_tf.stack(channels, axis=-1), self.compute_dtype)

    def get_config(self) -> dict:
        return {**super().get_config(), "bins": self.bins, "value_range": self.value_range}


class RandomColorDegeneration(AugmentLayer):
    """Each image blended toward its grayscale version, x + f * (gray - x), f drawn per image from the factor
    range (Keras' base factor: a number f gives [-f, f]), then clipped to value_range. Keras draws even in
    inference, and so does this."""

    _KEEPS_GEOMETRY = True

    def __init__(self, factor, value_range=(0, 255), data_format=None, seed=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self._set_factor(factor)
        self.value_range = checked_value_range(value_range)
        self.seed = seed
        self.generator = self._make_generator(seed)

    def get_random_transformation(self, images, training=True, seed=None):
        factor = keras_random.uniform((batch_size(images), 1, 1, 1), self.factor[0], self.factor[1],
                                      seed=self._seed(seed))
        return {"factor": factor}

    def transform_images(self, images, transformation=None, training=True):
        if not training:
            return images
        images = _tf.cast(images, self.compute_dtype)
        factor = _tf.cast(transformation["factor"], self.compute_dtype)
        gray = rgb_to_grayscale(images)
        images = images + factor * (gray - images)
        return _tf.clip_by_value(images, _tf.cast(self.value_range[0], images.dtype),
                                 _tf.cast(self.value_range[1], images.dtype))

    def compute_output_shape(self, input_shape):
        if len(input_shape) not in (3, 4):
            raise ValueError("Invalid images rank: expected rank 3 (single image) or rank 4 (batch of images). "
                             f"Received: input_shape={input_shape}")
        channels = input_shape[-1 if self.data_format == "channels_last" else -3]
        if channels is not None and channels != 3:
            raise ValueError(f"Input images must have 3 channels, but received images with {channels} channels.")
        return tuple(input_shape)

    def get_config(self) -> dict:
        return {**super().get_config(), "factor": self.factor, "value_range": self.value_range, "seed": self.seed}


_SHARPEN_A, _SHARPEN_B = 1.0 / 13.0, 5.0 / 13.0


class RandomSharpness(AugmentLayer):
    """Each image blended with its 3x3 smoothed version (weights 1/13 around, 5/13 in the middle, zero padding):
    x + (1 - 2f) * (smooth - x), f drawn per image from the factor range in [0, 1] (0.5 keeps the image, 0 blurs,
    1 sharpens), then clipped to value_range. Keras draws even in inference, and so does this."""

    _KEEPS_GEOMETRY = True

    _USE_BASE_FACTOR = False
    _FACTOR_BOUNDS = (0, 1)

    def __init__(self, factor, value_range=(0, 255), data_format=None, seed=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self._set_factor(factor)
        self.value_range = checked_value_range(value_range)
        self.seed = seed
        self.generator = self._make_generator(seed)

    def get_random_transformation(self, images, training=True, seed=None):
        factor = keras_random.uniform((batch_size(images),), self.factor[0], self.factor[1], seed=self._seed(seed))
        return {"factor": factor}

    def transform_images(self, images, transformation=None, training=True):
        images = _tf.cast(images, self.compute_dtype)
        if not training:
            return images
        sharpness = _tf.reshape(_tf.cast(transformation["factor"] * 2, self.compute_dtype), [-1, 1, 1, 1])
        a, b = _SHARPEN_A, _SHARPEN_B
        kernel = _tf.reshape(_tf.constant([[a, a, a], [a, b, a], [a, a, a]], self.compute_dtype), [3, 3, 1, 1])
        kernel = _tf.tile(kernel, [1, 1, int(images.shape[-1]), 1])
        smoothed = _tf.nn.depthwise_conv2d(images, kernel, [1, 1, 1, 1], "SAME")
        images = images + (1.0 - sharpness) * (smoothed - images)
        return _tf.clip_by_value(images, _tf.cast(self.value_range[0], images.dtype),
                                 _tf.cast(self.value_range[1], images.dtype))

    def get_config(self) -> dict:
        return {**super().get_config(), "factor": self.factor, "value_range": self.value_range, "seed": self.seed}


def _odd_pair(value, name):
    """Keras' _set_kernel_size: an odd number n as (n, n), or a pair of odd numbers."""
    message = f"{name} must be an odd number. Received: {name}={value}"
    if isinstance(value, (tuple, list)):
        if len(value) != 2:
            raise ValueError(f"The `{name}` argument should be a number (or a list of two numbers) Received: "
                             f"{name}={value}")
        if value[0] % 2 == 0 or value[1] % 2 == 0:
            raise ValueError(message)
        return tuple(value)
    if isinstance(value, (int, float)):
        if value % 2 == 0:
            raise ValueError(message)
        return (value, value)
    raise ValueError(message)


def gaussian_kernel(kernel_size, sigma, channels, dtype):
    """Keras' TF-backend Gaussian kernel for tensor sigmas: outer product of the normalized 1-D kernels of
    (kernel_size[1], sigma[1]) and (kernel_size[0], sigma[0]), reshaped to (k0, k1, 1, 1) and tiled per
    channel (as Keras reshapes it, also for unequal sizes)."""
    def one_d(size, width):
        grid = _tf.range(float(size), dtype=dtype) - (float(size) - 1) / 2
        kernel = _tf.exp(-0.5 * (grid / width) ** 2)
        return kernel / _tf.reduce_sum(kernel)

    sigma = _tf.cast(sigma, dtype)
    kernel = _tf.tensordot(one_d(kernel_size[1], sigma[1]), one_d(kernel_size[0], sigma[0]), axes=0)
    kernel = _tf.reshape(kernel, (int(kernel_size[0]), int(kernel_size[1]), 1, 1))
    return _tf.tile(kernel, [1, 1, channels, 1])


class RandomGaussianBlur(AugmentLayer):
    """Each image blurred with probability drawn from the factor range, by a kernel_size Gaussian whose two
    sigmas (one pair for the batch) are drawn from the sigma range (bounded to [0, 1] as Keras bounds it) plus
    1e-6; then clipped to value_range."""

    _KEEPS_GEOMETRY = True

    _USE_BASE_FACTOR = False
    _FACTOR_BOUNDS = (0, 1)

    def __init__(self, factor=1.0, kernel_size=3, sigma=1.0, value_range=(0, 255), data_format=None, seed=None,
                 **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self._set_factor(factor)
        self.kernel_size = _odd_pair(kernel_size, "kernel_size")
        self.sigma = self._sigma_pair(sigma)
        self.value_range = value_range
        self.seed = seed
        self.generator = self._make_generator(seed)

    def _sigma_pair(self, sigma):
        low, high = self._FACTOR_BOUNDS
        message = (f"The `sigma` argument should be a number (or a list of two numbers) in the range [{low}, {high}]. "
                   f"Received: factor={sigma}")
        if isinstance(sigma, (tuple, list)):
            if len(sigma) != 2 or sigma[0] > high or sigma[1] < low:
                raise ValueError(message)
            return tuple(sorted(sigma))
        if isinstance(sigma, (int, float)):
            if sigma < low or sigma > high:
                raise ValueError(message)
            return (max(-abs(sigma), low), abs(sigma))
        raise ValueError(message)

    def get_random_transformation(self, images, training=True, seed=None):
        if not training:
            return None
        seed = seed or self.generator
        n = batch_size(images)
        probability = keras_random.uniform((n,), self.factor[0], self.factor[1], seed=seed)
        threshold = keras_random.uniform((n,), 0.0, 1.0, seed=seed)
        sigma = keras_random.uniform((2,), self.sigma[0], self.sigma[1], dtype=self.compute_dtype, seed=seed) + 1e-6
        return {"should_apply_blur": threshold < probability, "blur_factor": sigma}

    def transform_images(self, images, transformation=None, training=True):
        images = _tf.cast(images, self.compute_dtype)
        if not training or transformation is None:
            return images
        kernel = gaussian_kernel(self.kernel_size, transformation["blur_factor"], int(images.shape[-1]),
                                 images.dtype)
        blurred = _tf.nn.depthwise_conv2d(images, kernel, [1, 1, 1, 1], "SAME")
        apply = _tf.reshape(transformation["should_apply_blur"], [-1, 1, 1, 1])
        images = _tf.where(apply, blurred, images)
        return _tf.clip_by_value(images, _tf.cast(self.value_range[0], images.dtype),
                                 _tf.cast(self.value_range[1], images.dtype))

    def get_config(self) -> dict:
        return {**super().get_config(), "factor": self.factor, "kernel_size": self.kernel_size, "sigma": self.sigma,
                "value_range": self.value_range, "seed": self.seed}


class MaxNumBoundingBoxes(AugmentLayer):
    """A dict input's bounding boxes cut or padded (with fill_value) to max_number per image; the images pass
    through. (Keras leaves fill_value out of the config, so a reloaded layer pads with -1, and so here.)"""

    _USE_BASE_FACTOR = False
    _KEEPS_GEOMETRY = True

    def __init__(self, max_number, fill_value=-1, **kwargs):
        super().__init__(**kwargs)
        self.max_number, self.fill_value = int(max_number), int(fill_value)

    def transform_images(self, images, transformation=None, training=True):
        return images

    def transform_bounding_boxes(self, bounding_boxes, transformation, training=True):
        boxes, labels = bounding_boxes["boxes"], bounding_boxes["labels"]
        shape = _tf.shape(boxes)
        pad = _tf.maximum(self.max_number - shape[1], 0)
        boxes = _tf.pad(boxes[:, :self.max_number], _tf.stack([[0, 0], _tf.stack([0, pad]), [0, 0]]),
                        constant_values=_tf.cast(self.fill_value, boxes.dtype))
        labels = _tf.pad(labels[:, :self.max_number], _tf.stack([[0, 0], _tf.stack([0, pad])]),
                         constant_values=_tf.cast(self.fill_value, labels.dtype))
        return {**bounding_boxes, "boxes": _tf.reshape(boxes, _tf.stack([shape[0], self.max_number, 4])),
                "labels": _tf.reshape(labels, _tf.stack([shape[0], self.max_number]))}

    def compute_output_shape(self, input_shape):
        if isinstance(input_shape, dict) and "bounding_boxes" in input_shape:
            extra = set(input_shape["bounding_boxes"]) - {"boxes", "labels"}
            if extra:
                raise KeyError(f"There are unsupported keys in `bounding_boxes`: {list(extra)}. Only `boxes` and "
                               "`labels` are supported.")
            boxes = list(input_shape["bounding_boxes"]["boxes"])
            labels = list(input_shape["bounding_boxes"]["labels"])
            boxes[1] = labels[1] = self.max_number
            input_shape["bounding_boxes"]["boxes"], input_shape["bounding_boxes"]["labels"] = boxes, labels
        return input_shape

    def get_config(self) -> dict:
        return {**super().get_config(), "max_number": self.max_number}
