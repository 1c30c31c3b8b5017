"""Colour spaces and the adjustments written in them: tf.image.rgb_to_hsv / hsv_to_rgb with the formulas of
TF's kernels, YIQ and YUV by TF's matrices, and adjust_hue / adjust_saturation (hue turned, saturation scaled in
HSV, images converted to float and back as TF does), adjust_gamma, and the random and stateless random hue and
saturation. Built from registered ops, so they run in graphs and dataset.map and have gradients."""

from __future__ import annotations

import tinytf as _tf
from tinytf.runtime.ops.static_value import constant_value

from .color import convert_image_dtype

_YIQ = [[0.299, 0.59590059, 0.2115], [0.587, -0.27455667, -0.52273617], [0.114, -0.32134392, 0.31119955]]
_YIQ_INVERSE = [[1, 1, 1], [0.95598634, -0.27201283, -1.10674021], [0.6208248, -0.64720424, 1.70423049]]
_YUV = [[0.299, -0.14714119, 0.61497538], [0.587, -0.28886916, -0.51496512], [0.114, 0.43601035, -0.10001026]]
_YUV_INVERSE = [[1, 1, 1], [0, -0.394642334, 2.03206185], [1.13988303, -0.58062185, 0]]


def _check_channels(images, what):
    images = _tf.convert_to_tensor(images)
    if images.shape.rank is not None and images.shape[-1] not in (None, 3):
        raise _tf.errors.FailedPreconditionError(  # TF's eager kernel error
            f"{what}: input must have 3 channels but input has shape {images.shape}")
    return images


def _float_images(images, what):
    images = _check_channels(images, what)
    if not images.dtype.is_floating or images.dtype.name == "bfloat16":
        raise TypeError(f"{what}: images must be float16, float32 or float64, got {images.dtype.name}")
    return images


def rgb_to_hsv(images, name=None):
    """RGB in [0, 1] to HSV in [0, 1]: TF's RGBToHSV (h from the largest channel, s = range / v)."""
    images = _float_images(images, "tf.image.rgb_to_hsv")
    r, g, b = _tf.unstack(images, 3, axis=-1)
    value = _tf.reduce_max(images, axis=-1)
    spread = value - _tf.reduce_min(images, axis=-1)
    zero = _tf.zeros_like(value)
    saturation = _tf.where(value > 0, _tf.math.divide_no_nan(spread, value), zero)
    norm = _tf.math.divide_no_nan(_tf.ones_like(spread), 6.0 * spread)
    hue = _tf.where(_tf.equal(r, value), norm * (g - b),
                    _tf.where(_tf.equal(g, value), norm * (b - r) + 2.0 / 6.0, norm * (r - g) + 4.0 / 6.0))
    hue = _tf.where(spread > 0, hue, zero)
    hue = _tf.where(hue < 0, hue + 1.0, hue)
    return _tf.stack([hue, saturation, value], axis=-1)


def hsv_to_rgb(images, name=None):
    """HSV in [0, 1] to RGB: TF's HSVToRGB (piecewise-linear channel weights of 6 h)."""
    images = _float_images(images, "tf.image.hsv_to_rgb")
    hue, saturation, value = _tf.unstack(images, 3, axis=-1)
    dh = hue * 6.0
    dr = _tf.clip_by_value(_tf.abs(dh - 3.0) - 1.0, 0.0, 1.0)
    dg = _tf.clip_by_value(2.0 - _tf.abs(dh - 2.0), 0.0, 1.0)
    db = _tf.clip_by_value(2.0 - _tf.abs(dh - 4.0), 0.0, 1.0)
    one_minus_s = 1.0 - saturation
    return _tf.stack([(one_minus_s + saturation * d) * value for d in (dr, dg, db)], axis=-1)


def _by_matrix(images, matrix, what):
    images = _float_images(images, what)
    kernel = _tf.constant(matrix, images.dtype)
    return _tf.tensordot(images, kernel, axes=[[images.shape.rank - 1], [0]])


def rgb_to_yiq(images):
    return _by_matrix(images, _YIQ, "tf.image.rgb_to_yiq")


def yiq_to_rgb(images):
    return _by_matrix(images, _YIQ_INVERSE, "tf.image.yiq_to_rgb")


def rgb_to_yuv(images):
    return _by_matrix(images, _YUV, "tf.image.rgb_to_yuv")


def yuv_to_rgb(images):
    return _by_matrix(images, _YUV_INVERSE, "tf.image.yuv_to_rgb")


def _in_float(image, what, adjust):
    """TF's adjust_* frame: images other than float16/float32 are converted to float32, adjusted, converted
    back."""
    image = _check_channels(image, what)
    original = image.dtype
    floats = image if original.name in ("float16", "float32") else convert_image_dtype(image, "float32")
    return convert_image_dtype(adjust(floats), original)


def _hue_range(r, g, b):
    """TF's AdjustHue rgb_to_hv_range: the hue in [0, 6) from the sector of the largest and smallest channel
    (ties fall as TF's comparisons put them), with the channels' min and max."""
    where = _tf.where
    r_lt_g, b_lt_r, b_gt_g, b_lt_g, b_gt_r = r < g, b < r, b > g, b < g, b > r
    v_max = where(r_lt_g, where(b_lt_r, g, where(b_gt_g, b, g)), where(b_lt_g, r, where(b_gt_r, b, r)))
    v_mid = where(r_lt_g, where(b_lt_r, r, where(b_gt_g, g, b)), where(b_lt_g, g, where(b_gt_r, r, b)))
    v_min = where(r_lt_g, where(b_lt_r, b, r), where(b_lt_g, b, g))
    sector = where(r_lt_g, where(b_lt_r, 1.0, where(b_gt_g, 3.0, 2.0)), where(b_lt_g, 0.0, where(b_gt_r, 4.0, 5.0)))
    ratio = _tf.math.divide_no_nan(v_mid - v_min, v_max - v_min)
    rising = _tf.equal(_tf.math.floormod(sector, 2.0), 0.0)
    hue = sector + where(rising, ratio, 1.0 - ratio)
    return where(_tf.equal(v_max, v_min), _tf.zeros_like(hue), hue), v_min, v_max


def _hue_range_to_rgb(hue, v_min, v_max):
    """TF's hv_range_to_rgb: the middle channel interpolated in the hue's sector."""
    sector = _tf.floor(hue)
    ratio = hue - sector
    ratio = _tf.where(_tf.equal(_tf.math.floormod(sector, 2.0), 0.0), ratio, 1.0 - ratio)
    v_mid = v_min + ratio * (v_max - v_min)
    channels = {0: (v_max, v_mid, v_min), 1: (v_mid, v_max, v_min), 2: (v_min, v_max, v_mid),
                3: (v_min, v_mid, v_max), 4: (v_mid, v_min, v_max), 5: (v_max, v_min, v_mid)}
    out = []
    for c in range(3):
        value = channels[5][c]
        for k in (4, 3, 2, 1, 0):
            value = _tf.where(_tf.equal(sector, float(k)), channels[k][c], value)
        out.append(value)
    return _tf.stack(out, axis=-1)


def adjust_hue(image, delta, name=None):
    """Turn the hue by `delta` (a fraction of a turn, in [-1, 1]), keeping each pixel's min and max channel: TF's
    AdjustHue kernel, step by step."""
    def turn(floats):
        r, g, b = _tf.unstack(floats, 3, axis=-1)
        hue, v_min, v_max = _hue_range(r, g, b)
        hue = _tf.math.floormod(hue + _tf.cast(delta, floats.dtype) * 6.0, 6.0)
        hue = _tf.where(hue >= 6.0, hue - 6.0, hue)  # a tiny negative hue rounds up to 6 (TF's loop gives 0)
        return _hue_range_to_rgb(hue, v_min, v_max)

    return _in_float(image, "tf.image.adjust_hue", turn)


def adjust_saturation(image, saturation_factor, name=None):
    """Scale the saturation by `saturation_factor`, clipped to [0, 1]."""
    def scale(floats):
        hue, saturation, value = _tf.unstack(rgb_to_hsv(floats), 3, axis=-1)
        saturation = _tf.clip_by_value(saturation * _tf.cast(saturation_factor, floats.dtype), 0.0, 1.0)
        return hsv_to_rgb(_tf.stack([hue, saturation, value], axis=-1))

    return _in_float(image, "tf.image.adjust_saturation", scale)


def adjust_gamma(image, gamma=1, gain=1):
    """gain * x ** gamma on float values (other dtypes converted to float32 in [0, 1] and back, saturating);
    gamma must be non-negative."""
    image = _tf.convert_to_tensor(image)
    gamma_value = constant_value(_tf.convert_to_tensor(gamma))
    if gamma_value is not None and gamma_value < 0:
        raise ValueError("Gamma should be a non-negative real number.")
    original = image.dtype
    floats = image if original.name in ("float16", "float32") else convert_image_dtype(image, "float32")
    adjusted = _tf.cast(gain, floats.dtype) * floats ** _tf.cast(gamma, floats.dtype)
    return convert_image_dtype(adjusted, original, saturate=True)


def _check_hue_delta(max_delta):
    if max_delta > 0.5:
        raise ValueError("max_delta must be <= 0.5.")
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")


def random_hue(image, max_delta, seed=None):
    """adjust_hue by a delta drawn uniformly from [-max_delta, max_delta), max_delta in [0, 0.5]."""
    _check_hue_delta(max_delta)
    return adjust_hue(image, _tf.random.uniform([], -max_delta, max_delta, seed=seed))


def stateless_random_hue(image, max_delta, seed):
    _check_hue_delta(max_delta)
    return adjust_hue(image, _tf.random.stateless_uniform([], seed, -max_delta, max_delta))


def _check_saturation(lower, upper):
    if upper <= lower:
        raise ValueError("upper must be > lower.")
    if lower < 0:
        raise ValueError("lower must be non-negative.")


def random_saturation(image, lower, upper, seed=None):
    """adjust_saturation by a factor drawn uniformly from [lower, upper)."""
    _check_saturation(lower, upper)
    return adjust_saturation(image, _tf.random.uniform([], lower, upper, seed=seed))


def stateless_random_saturation(image, lower, upper, seed):
    _check_saturation(lower, upper)
    return adjust_saturation(image, _tf.random.stateless_uniform([], seed, lower, upper))
