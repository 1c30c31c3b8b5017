"""PNG, decoded and encoded with zlib and numpy (PNG is zlib-compressed scanlines, each with one of five byte
filters): TF's EncodePng as an op (DecodePng, which also reads JPEG and GIF files as TF's does, is in
image_decode.py), so both run inside dataset.map graphs. Decoding
covers grey, grey+alpha, RGB, RGBA and palette images (tRNS transparency included), bit depths 1-16, with TF's
channel conversions (channels 0, 1, 3, 4; libpng's grey weights and alpha filler, at the file's bit depth).
Adam7-interlaced files are refused with a clear error (not written yet)."""

from __future__ import annotations

import struct
import zlib

import numpy as np

from .. import dtypes
from ..dispatch import apply, convert_to_tensor
from ..errors import InvalidArgumentError
from ..registry import OpDef, register

SIGNATURE = b"\x89PNG\r\n\x1a\n"
_CHANNELS_OF_TYPE = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}


def is_png(data: bytes) -> bool:
    return data[:8] == SIGNATURE


def _chunks(data: bytes):
    pos = 8
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if len(body) != length:
            raise InvalidArgumentError("Invalid PNG data: a chunk runs past the end of the data")
        yield kind, body
        pos += 12 + length
        if kind == b"IEND":
            return


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def _unfilter(raw: bytes, height: int, stride: int, bpp: int) -> np.ndarray:
    """The scanlines' bytes with PNG's filters (none, sub, up, average, Paeth) undone."""
    if len(raw) < height * (stride + 1):
        raise InvalidArgumentError("Invalid PNG data: the image data is shorter than its header says")
    rows = np.frombuffer(raw, np.uint8, height * (stride + 1)).reshape(height, stride + 1)
    out = np.zeros((height, stride), np.uint8)
    prior = np.zeros(stride, np.int64)
    for y in range(height):
        kind, line = rows[y, 0], rows[y, 1:].astype(np.int64)
        if kind == 0:
            recon = line
        elif kind == 2:
            recon = (line + prior) & 0xFF
        elif kind == 1:  # sub: a running sum along each byte position of the pixel, modulo 256
            padded = np.zeros(-(-stride // bpp) * bpp, np.int64)
            padded[:stride] = line
            recon = (np.cumsum(padded.reshape(-1, bpp), axis=0) & 0xFF).reshape(-1)[:stride]
        elif kind in (3, 4):
            recon = [0] * stride
            values, above = line.tolist(), prior.tolist()
            for i in range(stride):
                left = recon[i - bpp] if i >= bpp else 0
                if kind == 3:
                    recon[i] = (values[i] + ((left + above[i]) >> 1)) & 0xFF
                else:
                    upper_left = above[i - bpp] if i >= bpp else 0
                    recon[i] = (values[i] + _paeth(left, above[i], upper_left)) & 0xFF
            recon = np.array(recon, np.int64)
        else:
            raise InvalidArgumentError(f"Invalid PNG data: unknown scanline filter {kind}")
        out[y] = recon
        prior = np.asarray(recon, np.int64)
    return out


def _samples(rows: np.ndarray, width: int, channels: int, depth: int) -> np.ndarray:
    """(height, width, channels) samples of the unfiltered rows (uint8 below 16 bits, else uint16)."""
    height = rows.shape[0]
    if depth == 16:
        return rows.view(">u2").astype(np.uint16).reshape(height, width, channels)
    if depth == 8:
        return rows.reshape(height, width, channels)
    bits = np.unpackbits(rows, axis=1).reshape(height, -1, depth)  # each sample's bits, most significant first
    weights = (1 << np.arange(depth - 1, -1, -1)).astype(np.uint8)
    values = (bits * weights).sum(axis=2).astype(np.uint8)
    return values[:, :width * channels].reshape(height, width, channels)


def decode(data: bytes, channels: int = 0, dtype=np.uint8) -> np.ndarray:
    """A PNG file's pixels as (height, width, channels) of `dtype` (uint8 or uint16), as TF's DecodePng."""
    if not is_png(data):
        raise InvalidArgumentError("Invalid PNG data, size " + str(len(data)))
    header, palette, transparency, compressed = None, None, None, []
    for kind, body in _chunks(data):
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"PLTE":
            palette = np.frombuffer(body, np.uint8).reshape(-1, 3)
        elif kind == b"tRNS":
            transparency = body
        elif kind == b"IDAT":
            compressed.append(body)
    if header is None:
        raise InvalidArgumentError("Invalid PNG data: no IHDR chunk")
    width, height, depth, color_type, _, _, interlace = header
    if interlace:
        raise InvalidArgumentError("decode_png: Adam7-interlaced PNG files are not supported by tinytf yet")
    if color_type not in _CHANNELS_OF_TYPE:
        raise InvalidArgumentError(f"Invalid PNG data: unknown colour type {color_type}")
    native = _CHANNELS_OF_TYPE[color_type]
    filler = (1 << depth) - 1  # libpng fills an added alpha with the file's own maximum, unscaled (TF shows it)
    bpp = max(1, native * depth // 8)
    stride = (width * native * depth + 7) // 8
    try:
        raw = zlib.decompress(b"".join(compressed))
    except zlib.error as e:
        raise InvalidArgumentError(f"Invalid PNG data: {e}") from None
    pixels = _samples(_unfilter(raw, height, stride, bpp), width, native, depth)
    if color_type == 3:  # palette indices to RGB, and alpha from tRNS
        if palette is None:
            raise InvalidArgumentError("Invalid PNG data: a palette image without a PLTE chunk")
        index = pixels[..., 0]
        rgb = palette[np.minimum(index, len(palette) - 1)]
        if transparency is not None:
            alpha_table = np.full(256, 255, np.uint8)
            alpha_table[:len(transparency)] = np.frombuffer(transparency, np.uint8)
            pixels = np.concatenate([rgb, alpha_table[index][..., None]], axis=-1)
        else:
            pixels = rgb
        depth = 8
    elif depth < 8:  # grey of 1, 2 or 4 bits, scaled to 0..255 (libpng's expand)
        pixels = (pixels.astype(np.uint16) * (255 // ((1 << depth) - 1))).astype(np.uint8)
        depth = 8
    return _convert(pixels, depth, channels, np.dtype(dtype), filler)


def _grey(color: np.ndarray) -> np.ndarray:
    """libpng's rgb_to_gray as TF sets it (0.299, 0.587, the rest: 9797, 19234, 3737 / 32768), at the file's own
    bit depth."""
    weights = np.array([9797, 19234, 3737], np.int64)
    half = 16384 if color.dtype == np.uint16 else 0  # libpng rounds its 16-bit path and truncates the 8-bit one
    return ((color.astype(np.int64) @ weights + half) >> 15)[..., None].astype(color.dtype)


def _convert(pixels: np.ndarray, depth: int, channels: int, dtype: np.dtype, filler: int) -> np.ndarray:
    """TF's channel conversion (at the file's bit depth, as libpng does it), then its 8 <-> 16 bit scaling."""
    have = pixels.shape[-1]
    if channels not in (0, have):
        color, alpha = (pixels[..., :3], pixels[..., 3:]) if have >= 3 else (pixels[..., :1], pixels[..., 1:])
        if channels in (3, 4) and color.shape[-1] == 1:
            color = np.repeat(color, 3, axis=-1)
        if channels == 1 and color.shape[-1] == 3:
            color = _grey(color)
        if channels == 4 and not alpha.shape[-1]:
            alpha = np.full(color.shape[:-1] + (1,), filler, pixels.dtype)
        pixels = np.concatenate([color, alpha], axis=-1) if channels == 4 else np.ascontiguousarray(color)
    if dtype == np.uint16 and depth == 8:
        return pixels.astype(np.uint16) * np.uint16(257)
    if dtype == np.uint8 and depth == 16:
        return (pixels >> 8).astype(np.uint8)
    return pixels.astype(dtype, copy=False)


def encode(image: np.ndarray, compression: int = -1) -> bytes:
    """A PNG file of a (height, width, channels) uint8 or uint16 image: filter 0 on every row, zlib level
    `compression` (-1: zlib's default)."""
    height, width, channels = image.shape
    if channels not in (1, 2, 3, 4):
        raise InvalidArgumentError(f"image must have 1, 2, 3, or 4 channels, got {channels}")
    depth = 16 if image.dtype == np.uint16 else 8
    color_type = {1: 0, 2: 4, 3: 2, 4: 6}[channels]
    rows = image.astype(">u2").view(np.uint8) if depth == 16 else image
    rows = np.ascontiguousarray(rows).reshape(height, -1)
    raw = np.concatenate([np.zeros((height, 1), np.uint8), rows], axis=1).tobytes()

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, depth, color_type, 0, 0, 0)
    return SIGNATURE + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, compression)) + \
        chunk(b"IEND", b"")


def _bytes_of(value) -> bytes:
    value = value[()] if isinstance(value, np.ndarray) else value
    return value if isinstance(value, bytes) else str(value).encode()


def _encode_kernel(image, *, compression):
    out = np.empty((), dtype=object)
    out[()] = encode(np.asarray(image), compression)
    return out


def _infer_encode(image, *, compression):
    if image.dtype not in (dtypes.uint8, dtypes.uint16):
        raise TypeError(f"encode_png: image must be uint8 or uint16, got {image.dtype.name}")
    if image._shape is not None and len(image._shape) != 3:
        raise ValueError(f"encode_png: image must be 3-dimensional (height, width, channels), got shape "
                         f"{list(image._shape)}")
    return dtypes.string, ()


encode_png_op = register(OpDef("encode_png", _encode_kernel, _infer_encode, differentiable=False,
                               doc="TF's EncodePng: an image as a PNG file"))


def encode_png(image, compression=-1, name=None):
    """`tf.io.encode_png`: a (height, width, channels) uint8 or uint16 image as a PNG string scalar."""
    return apply(encode_png_op, [convert_to_tensor(image)], {"compression": int(compression)}, name=name)
