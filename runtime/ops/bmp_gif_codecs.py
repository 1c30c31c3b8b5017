"""BMP files (numpy: a header and rows of bytes) and GIF files (Pillow), decoded as TF decodes them.

TF's BMP reader takes 8-, 24- and 32-bit files and reads an 8-bit file's bytes as grey levels, whatever its
palette says; rows are bottom-up unless the height is negative, each padded to 4 bytes, in BGR(A) order. TF's
GIF reader (giflib) gives every frame as RGB, each frame drawn over the previous one; Pillow's frames are the
same pixels for the files TF's conformance programs write."""

from __future__ import annotations

import io
import struct

import numpy as np

from ..errors import InvalidArgumentError

BMP_MAGIC = b"BM"
GIF_MAGIC = b"GIF8"


def decode_bmp(data: bytes, channels: int = 0, op: str = "DecodeBmp") -> np.ndarray:
    """(height, width, channels) uint8 pixels of a BMP file; channels 0 keeps the file's 1, 3 or 4."""
    if channels not in (0, 3, 4):
        raise InvalidArgumentError(f"{op}: `channels` must be 0, 3 or 4 for BMP, but got {channels}")
    if len(data) < 30:
        raise InvalidArgumentError(f"{op}: Incomplete bmp content, requires at least 30 bytes, got {len(data)}")
    offset = struct.unpack_from("<I", data, 10)[0]
    width, height = struct.unpack_from("<ii", data, 18)
    native = struct.unpack_from("<H", data, 28)[0] // 8
    if native not in (1, 3, 4):
        raise InvalidArgumentError(f"{op}: Number of channels inherent in the image must be 1, 3 or 4, was "
                                   f"{native}")
    if width <= 0 or height == 0:
        raise InvalidArgumentError(f"{op}: BMP width must be positive and its height non-zero, got {width}x{height}")
    rows = abs(height)
    stride = (width * native + 3) // 4 * 4
    if offset + stride * rows > len(data):
        raise InvalidArgumentError(f"{op}: Incomplete bmp content: {width}x{rows}x{native} pixels need "
                                   f"{offset + stride * rows} bytes, got {len(data)}")
    raw = np.frombuffer(data, np.uint8, stride * rows, offset).reshape(rows, stride)[:, :width * native]
    pixels = raw.reshape(rows, width, native)
    if height > 0:  # stored bottom-up
        pixels = pixels[::-1]
    if native >= 3:  # BGR(A) to RGB(A)
        pixels = pixels[..., [2, 1, 0, 3][:native]]
    return _to_channels(pixels, channels or native)


def _to_channels(pixels: np.ndarray, channels: int) -> np.ndarray:
    native = pixels.shape[-1]
    if native == 1 and channels >= 3:
        pixels = np.repeat(pixels, 3, axis=-1)
    if channels == 4 and pixels.shape[-1] == 3:
        pixels = np.concatenate([pixels, np.full(pixels.shape[:-1] + (1,), 255, np.uint8)], axis=-1)
    if channels == 3 and pixels.shape[-1] == 4:
        pixels = pixels[..., :3]
    return np.ascontiguousarray(pixels)


def decode_gif(data: bytes, op: str = "DecodeGif") -> np.ndarray:
    """(frames, height, width, 3) uint8 pixels of a GIF file, every frame drawn over the previous one."""
    try:
        from PIL import Image
    except ImportError:
        raise ImportError("GIF files need the `pillow` package (pip install pillow); tinytf's install brings it") \
            from None
    try:
        picture = Image.open(io.BytesIO(data))
        frames = []
        for index in range(getattr(picture, "n_frames", 1)):
            picture.seek(index)
            frames.append(np.asarray(picture.convert("RGB")))
    except (OSError, ValueError, EOFError, SyntaxError) as e:
        raise InvalidArgumentError(f"{op}: Failed to decode gif: {e}") from None
    return np.stack(frames)
