"""JPEG quality as augmentation, as TF writes it: the image as uint8 (saturating), encoded at the quality,
decoded, and converted back to its dtype; the random forms draw the quality as TF does (a uniform int32 in
[min, max), stateful with an op seed or stateless from a two-integer seed)."""

from __future__ import annotations

from tinytf.runtime import dtypes
from tinytf.runtime.dispatch import apply, convert_to_tensor
from tinytf.runtime.ops import image_decode as _codecs
from tinytf.runtime.ops import jpeg_codec as _jpeg
from tinytf.runtime.ops import math as _math
from tinytf.runtime.ops import random as _random
from tinytf.runtime.ops import stateless_random as _stateless
from tinytf.runtime.ops import strings as _strings

from .color import convert_image_dtype


def adjust_jpeg_quality(image, jpeg_quality, dct_method="", name=None):
    """The image after a JPEG round trip at `jpeg_quality` (0-100), in its own dtype."""
    image = convert_to_tensor(image)
    channels = image._shape[-1] if image._shape is not None else None
    original = image.dtype
    encoded = _codecs.encode_jpeg_variable_quality(convert_image_dtype(image, dtypes.uint8, saturate=True),
                                                   convert_to_tensor(jpeg_quality, dtypes.int32))
    decoded = _codecs.decode_jpeg(encoded, channels=channels or 0, dct_method=dct_method)
    return convert_image_dtype(decoded, original, saturate=True)


def _check_range(low, high):
    if low < 0 or high < 0 or low > 100 or high > 100:
        raise ValueError("jpeg encoding range must be between 0 and 100.")
    if low >= high:
        raise ValueError("`min_jpeg_quality` must be less than `max_jpeg_quality`.")


def random_jpeg_quality(image, min_jpeg_quality, max_jpeg_quality, seed=None):
    _check_range(min_jpeg_quality, max_jpeg_quality)
    quality = _random.uniform([], min_jpeg_quality, max_jpeg_quality, dtypes.int32, seed=seed)
    return adjust_jpeg_quality(image, quality)


def stateless_random_jpeg_quality(image, min_jpeg_quality, max_jpeg_quality, seed):
    _check_range(min_jpeg_quality, max_jpeg_quality)
    quality = _stateless.stateless_uniform([], seed, min_jpeg_quality, max_jpeg_quality, dtypes.int32)
    return adjust_jpeg_quality(image, quality)


def is_jpeg(contents, name=None):
    """`tf.io.is_jpeg`: whether a string scalar starts with JPEG's magic bytes."""
    start = apply(_strings.substr_op, (_strings.string_tensor(contents), convert_to_tensor(0), convert_to_tensor(3)),
                  {"unit": "BYTE"})
    return _math.equal(start, convert_to_tensor(_jpeg.MAGIC, dtypes.string))
