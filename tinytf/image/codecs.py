"""Image files: PNG decoding and encoding (runtime/ops/png_codec.py, zlib and numpy), and decode_image for the
formats tinytf can decode. JPEG, GIF, BMP and WebP need codecs tinytf does not have: decode_image names the
format it found and refuses it."""

from __future__ import annotations

import numpy as np

from tinytf.runtime import dtypes
from tinytf.runtime.dispatch import convert_to_tensor
from tinytf.runtime.errors import InvalidArgumentError
from tinytf.runtime.ops import math as _math
from tinytf.runtime.ops.png_codec import SIGNATURE, decode_png, encode_png  # noqa: F401
from tinytf.runtime.ops.static_value import constant_value

from .color import convert_image_dtype

_OTHER_FORMATS = ((b"\xff\xd8\xff", "JPEG"), (b"GIF8", "GIF"), (b"BM", "BMP"), (b"RIFF", "WebP"))


def decode_image(contents, channels=None, dtype=dtypes.uint8, name=None, expand_animations=True):
    """`tf.io.decode_image` for PNG files: uint8 or uint16 pixels, or floats in [0, 1]."""
    contents = convert_to_tensor(contents, dtypes.string)
    value = constant_value(contents)
    if value is not None:
        data = value[()] if isinstance(value, np.ndarray) else value
        if isinstance(data, bytes) and not data.startswith(SIGNATURE):
            found = next((fmt for magic, fmt in _OTHER_FORMATS if data.startswith(magic)), None)
            if found:
                raise InvalidArgumentError(f"decode_image: {found} files need a {found} codec, which tinytf does "
                                           f"not have (it decodes PNG)")
            raise InvalidArgumentError("Unknown image file format. One of JPEG, PNG, GIF, BMP required.")
    dtype = dtypes.as_dtype(dtype)
    # float images keep a 16-bit file's precision (decoded as uint16: an 8-bit value v becomes 257 v, the same
    # fraction of the maximum)
    wide = dtype == dtypes.uint16 or dtype.is_floating
    image = decode_png(contents, channels or 0, dtypes.uint16 if wide else dtypes.uint8)
    if dtype in (dtypes.uint8, dtypes.uint16):
        return image
    return convert_image_dtype(image, dtype) if dtype.is_floating else _math.cast(image, dtype)
