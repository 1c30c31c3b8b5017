"""Image files: the decoders and encoders of runtime/ops (PNG by zlib and numpy, JPEG by libjpeg-turbo through
simplejpeg and Pillow, BMP by numpy, GIF by Pillow), as tf.io and tf.image name them."""

from __future__ import annotations

from tinytf.runtime.ops.image_decode import (  # noqa: F401
    decode_and_crop_jpeg,
    decode_bmp,
    decode_gif,
    decode_image,
    decode_jpeg,
    decode_png,
    encode_jpeg,
    extract_jpeg_shape,
)
from tinytf.runtime.ops.png_codec import encode_png  # noqa: F401

from .jpeg_quality import adjust_jpeg_quality, is_jpeg, random_jpeg_quality, stateless_random_jpeg_quality  # noqa: F401
