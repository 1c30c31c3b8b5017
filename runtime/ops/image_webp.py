"""DecodeWebP and DecodeJxl (tf.io.decode_webp, tf.io.decode_jxl), and WebP inside DecodeImage.

TF 2.21's DecodeWebP gives (frames, height, width, channels): one frame for a still image, every frame of an
animation. `channels` 0 keeps the file's channels (3 without alpha, 4 with); any other count must equal them.
Pillow (a tinytf dependency, imported on first use) runs libwebp, the library TF links. Like TF's other decoders
both ops sniff the file and read the formats they know (a PNG through DecodeJxl is a PNG's pixels). JPEG XL:
Pillow has no decoder, so a JPEG XL file raises UnimplementedError."""

from __future__ import annotations

import io

import numpy as np

from .. import dtypes
from ..dispatch import apply, convert_to_tensor
from ..errors import InvalidArgumentError, UnimplementedError
from ..registry import OpDef, register
from .png_codec import _bytes_of

JXL_SIGNATURES = (b"\xff\x0a", b"\x00\x00\x00\x0cJXL \r\n\x87\n")


def is_webp(data: bytes) -> bool:
    return len(data) >= 12 and data[:4] == b"RIFF" and data[8:12] == b"WEBP"


def _unknown(op: str):
    return InvalidArgumentError(f"{op}: Unknown image file format. One of JPEG, JPEG XL, PNG, GIF, BMP, WebP "
                                "required.")


def decode_webp_frames(data: bytes, channels: int, op: str = "DecodeWebP") -> np.ndarray:
    """(frames, height, width, channels) uint8 pixels of a WebP file, with TF's channel rules."""
    from PIL import Image

    try:
        image = Image.open(io.BytesIO(data))
        image.load()
    except Exception as error:  # noqa: BLE001 - libwebp refuses a corrupt file: TF's error class
        raise InvalidArgumentError(f"{op}: WebP decoding failed: {error}") from None
    has_alpha = image.mode in ("RGBA", "LA") or "transparency" in image.info
    file_channels = 4 if has_alpha else 3
    animated = getattr(image, "n_frames", 1) > 1
    if animated and channels == 3:
        raise InvalidArgumentError(f"{op}: WebP Animation must be 4 channel RGBA")
    if channels not in (0, file_channels):
        raise InvalidArgumentError(f"{op}: Number of channels requested does not match input")
    mode = "RGBA" if file_channels == 4 else "RGB"
    frames = []
    for index in range(getattr(image, "n_frames", 1)):
        image.seek(index)
        frames.append(np.asarray(image.convert(mode), dtype=np.uint8))
    return np.stack(frames)


def _check_scalar(op, contents):
    if contents.dtype is not dtypes.string:
        raise TypeError(f"{op}: contents must be a string tensor, got {contents.dtype.name}")
    if contents._shape is not None and len(contents._shape) != 0:
        raise InvalidArgumentError(f"{op}: `contents` must be scalar but got shape{list(contents._shape)}")


def _any_format(data: bytes, op: str, channels: int, dtype=np.uint8) -> np.ndarray:
    """As TF 2.21's decoders, DecodeWebP and DecodeJxl read any format they recognise: WebP as frames (4-D),
    JPEG, PNG, GIF and BMP as one image (3-D); JPEG XL has no decoder here."""
    from .image_decode import _still, sniff

    if is_webp(data):
        return decode_webp_frames(data, channels, op)
    if data.startswith(JXL_SIGNATURES):
        raise UnimplementedError(f"{op}: JPEG XL decoding is not available in tinytf (Pillow, its image library, "
                                 "has no JPEG XL decoder); convert the file to PNG or WebP")
    fmt = sniff(data)
    if not fmt:
        raise _unknown(op)
    return _still(data, fmt, op, channels, dtype)


def _infer_webp(contents, *, channels):
    _check_scalar("DecodeWebP", contents)
    return dtypes.uint8, None  # 4-D for WebP, 3-D for the other formats TF's kernel also reads


def _webp_kernel(contents, *, channels):
    return _any_format(_bytes_of(contents), "DecodeWebP", channels)


def _infer_jxl(contents, *, channels, dtype):
    _check_scalar("DecodeJxl", contents)
    return dtype, None


def _jxl_kernel(contents, *, channels, dtype):
    pixels = _any_format(_bytes_of(contents), "DecodeJxl", channels, np.uint16 if dtype == dtypes.uint16 else np.uint8)
    if dtype.is_floating:
        return (pixels.astype(np.float64) / np.iinfo(pixels.dtype).max).astype(dtype.np)
    return pixels


decode_webp_op = register(OpDef("decode_webp", _webp_kernel, _infer_webp, differentiable=False,
                                doc="TF's DecodeWebP: a WebP file's frames, RGB or RGBA"))
decode_jxl_op = register(OpDef("decode_jxl", _jxl_kernel, _infer_jxl, differentiable=False,
                               doc="TF's DecodeJxl: a JPEG XL file's pixels (signature checked; no decoder)"))


def decode_webp(contents, channels=0, dtype=dtypes.uint8, name=None):
    """`tf.io.decode_webp`: (frames, height, width, channels) uint8 pixels of a WebP string scalar."""
    if dtypes.as_dtype(dtype) is not dtypes.uint8:
        raise TypeError(f"decode_webp: dtype must be uint8, got {dtypes.as_dtype(dtype).name}")
    if channels not in (0, 3, 4):
        raise InvalidArgumentError(f"DecodeWebP: `channels` must be 0, 3 or 4 but got {channels}")
    return apply(decode_webp_op, [convert_to_tensor(contents, dtypes.string)], {"channels": int(channels)},
                 name=name)


def decode_jxl(contents, channels=0, dtype=dtypes.uint8, name=None):
    """`tf.io.decode_jxl`: checks the JPEG XL signature; decoding needs a JPEG XL library tinytf lacks."""
    dtype = dtypes.as_dtype(dtype)
    if dtype not in (dtypes.uint8, dtypes.uint16, dtypes.float32):
        raise TypeError(f"decode_jxl: dtype must be uint8, uint16 or float32, got {dtype.name}")
    return apply(decode_jxl_op, [convert_to_tensor(contents, dtypes.string)],
                 {"channels": int(channels), "dtype": dtype}, name=name)
