"""DecodeWebP and DecodeJxl (tf.io.decode_webp, tf.io.decode_jxl), and WebP inside DecodeImage.

TF 2.21's DecodeWebP gives (frames, height, width, channels): one frame for a still image, every frame of an
animation. `channels` 0 keeps the file's channels (3 without alpha, 4 with); any other count must equal them.
Pillow (a tinytf dependency, imported on first use) runs libwebp, the library TF links. JPEG XL: Pillow has no
decoder, so DecodeJxl checks the signature as TF does (InvalidArgumentError for a file that is no JPEG XL) and
raises UnimplementedError for a real one."""

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

    if not is_webp(data):
        raise _unknown(op)
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


def _infer_webp(contents, *, channels):
    _check_scalar("DecodeWebP", contents)
    return dtypes.uint8, (None, None, None, channels or None)


def _webp_kernel(contents, *, channels):
    return decode_webp_frames(_bytes_of(contents), channels)


def _infer_jxl(contents, *, channels, dtype):
    _check_scalar("DecodeJxl", contents)
    return dtype, (None, None, channels or None)


def _jxl_kernel(contents, *, channels, dtype):
    data = _bytes_of(contents)
    if not data.startswith(JXL_SIGNATURES):
        raise InvalidArgumentError("DecodeJxl: Failed to decode JXL header")
    raise UnimplementedError("DecodeJxl: JPEG XL decoding is not available in tinytf (Pillow, its image library, "
                             "has no JPEG XL decoder); convert the file to PNG or WebP")


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
