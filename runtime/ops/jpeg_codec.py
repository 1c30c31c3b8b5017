"""JPEG files, through libjpeg-turbo as TF uses it: decoding by simplejpeg (TurboJPEG), encoding by Pillow.

Why two libraries: TF's DecodeJpeg defaults to libjpeg's fast integer IDCT (dct_method "" is INTEGER_FAST) with
fancy upsampling; TurboJPEG exposes exactly those switches (fastdct, fastupsample) and its scaled decoding
(ratio 2, 4, 8), so simplejpeg's pixels are TF's, bit for bit. Pillow decodes only with the accurate IDCT, but its
encoder drives libjpeg the way TF's EncodeJpeg does (jpeg_set_defaults, quality, 4:2:0 or 4:4:4), so with TF's
JFIF density its files are TF's byte for byte; TurboJPEG's encoder converts colour differently. Both are imported
when first used: tinytf imports without them, and a missing one is named in the error."""

from __future__ import annotations

import io
import struct

import numpy as np

from ..errors import InvalidArgumentError

MAGIC = b"\xff\xd8\xff"
_DENSITY_UNITS = {"in": 1, "cm": 2}
_START_OF_FRAME = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def is_jpeg(data: bytes) -> bool:
    return data[:3] == MAGIC


def _library(name: str):
    try:
        if name == "simplejpeg":
            import simplejpeg
            return simplejpeg
        from PIL import Image
        return Image
    except ImportError:
        raise ImportError(f"JPEG files need the `{name}` package (pip install {name.replace('PIL', 'pillow')}); "
                          f"tinytf's install brings it") from None


def _uncompress_failed(op: str):
    return InvalidArgumentError(f"{op}: jpeg::Uncompress failed. Invalid JPEG data or crop window.")


def shape(data: bytes) -> tuple[int, int, int]:
    """(height, width, components) from the start-of-frame marker, without decoding (TF's ExtractJpegShape)."""
    at = 2
    while at + 4 <= len(data):
        if data[at] != 0xFF:
            break
        marker = data[at + 1]
        if marker == 0xFF:  # fill byte
            at += 1
            continue
        length = struct.unpack(">H", data[at + 2:at + 4])[0]
        if marker in _START_OF_FRAME and at + 10 <= len(data):
            height, width, components = struct.unpack(">HHB", data[at + 5:at + 10])
            return height, width, components
        at += 2 + length
    raise _uncompress_failed("ExtractJpegShape")


def decode(data: bytes, channels: int = 0, ratio: int = 1, fancy_upscaling: bool = True,
           dct_method: str = "", op: str = "DecodeJpeg") -> np.ndarray:
    """A JPEG file's pixels as uint8 (height, width, channels), as TF's DecodeJpeg: channels 0 keeps the file's
    (1 or 3), ratio downscales by 1, 2, 4 or 8 in the IDCT."""
    if ratio not in (1, 2, 4, 8):
        raise InvalidArgumentError(f"{op}: ratio must be 1, 2, 4, or 8, got {ratio}")
    simplejpeg = _library("simplejpeg")
    try:
        height, width, components = shape(data)
    except InvalidArgumentError:
        raise _uncompress_failed(op) from None
    wanted = channels or (1 if components == 1 else 3)
    accurate = dct_method == "INTEGER_ACCURATE"  # "" and INTEGER_FAST are libjpeg's JDCT_IFAST in TF
    try:
        pixels = simplejpeg.decode_jpeg(data, colorspace="GRAY" if wanted == 1 else "RGB", fastdct=not accurate,
                                        fastupsample=not fancy_upscaling, min_height=-(-height // ratio),
                                        min_width=-(-width // ratio), min_factor=ratio)
    except (ValueError, OSError):
        raise _uncompress_failed(op) from None
    return np.ascontiguousarray(pixels.reshape(pixels.shape[0], pixels.shape[1], wanted))


def encode(image: np.ndarray, format: str = "", quality: int = 95, progressive: bool = False,
           optimize_size: bool = False, chroma_downsampling: bool = True, density_unit: str = "in",
           x_density: int = 300, y_density: int = 300, xmp_metadata: bytes = b"") -> bytes:
    """A uint8 (height, width, 1 or 3) image as a JPEG file, as TF's EncodeJpeg writes it."""
    if not 0 <= quality <= 100:
        raise InvalidArgumentError(f"EncodeJpeg: quality must be in [0,100], got {quality}")
    if density_unit not in _DENSITY_UNITS:
        raise InvalidArgumentError(f"EncodeJpeg: density_unit must be one of 'in' or 'cm', got {density_unit!r}")
    channels = image.shape[-1]
    got = "[" + ",".join(str(n) for n in image.shape) + "]"
    if format and channels != {"grayscale": 1, "rgb": 3}[format]:
        raise InvalidArgumentError(f"EncodeJpeg: format {format} expects {1 if format == 'grayscale' else 3} "
                                   f"channels, got {got}")
    if channels not in (1, 3):
        raise InvalidArgumentError(f"EncodeJpeg: image must have 1 or 3 channels, got {got}")
    Image = _library("PIL")
    picture = Image.fromarray(np.ascontiguousarray(image[..., 0] if channels == 1 else image))
    out = io.BytesIO()
    picture.save(out, format="JPEG", quality=quality, progressive=progressive, optimize=optimize_size,
                 subsampling=2 if chroma_downsampling and channels == 3 else 0,  # one component: 1x1, as TF
                 dpi=(x_density, y_density))
    data = out.getvalue()
    # TF writes its density unit, and densities as given: Pillow's dpi is always in inches (unit 1), so the
    # JFIF header's unit and density fields (bytes 13-17 after SOI and APP0's length) are set here.
    header = struct.pack(">BHH", _DENSITY_UNITS[density_unit], x_density, y_density)
    data = data[:13] + header + data[18:]
    if xmp_metadata:
        body = b"http://ns.adobe.com/xap/1.0/\x00" + xmp_metadata
        data = data[:20] + b"\xff\xe1" + struct.pack(">H", len(body) + 2) + body + data[20:]
    return data
