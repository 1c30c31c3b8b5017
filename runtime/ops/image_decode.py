"""TF's image decoding ops, which look at the file's first bytes rather than trusting their own name.

As in TF 2.21, DecodeJpeg, DecodePng and DecodeGif decode any JPEG, PNG or GIF file (each with its own output
rank and options) and refuse BMP; DecodeBmp reads only BMP; DecodeImage reads all four; DecodeAndCropJpeg and
ExtractJpegShape read only JPEG. The codecs are png_codec.py, jpeg_codec.py and bmp_gif_codecs.py; this module
sniffs the format, applies each op's channel and dtype rules, and registers the ops (all string -> pixels, none
differentiable), so they run eagerly and inside dataset.map and tf.function graphs."""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..dispatch import apply, convert_to_tensor
from ..errors import InvalidArgumentError
from ..registry import OpDef, register
from . import bmp_gif_codecs, image_webp, jpeg_codec, png_codec
from .png_codec import _bytes_of

_FORMATS = (("JPEG", jpeg_codec.MAGIC), ("PNG", png_codec.SIGNATURE), ("GIF", bmp_gif_codecs.GIF_MAGIC),
            ("BMP", bmp_gif_codecs.BMP_MAGIC))


def sniff(data: bytes) -> str:
    for name, magic in _FORMATS:
        if data.startswith(magic):
            return name
    return ""


def _unknown(op: str):
    return InvalidArgumentError(f"{op}: Unknown image file format. One of JPEG, JPEG XL, PNG, GIF, BMP, WebP "
                                f"required.")


def _widen(pixels: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """8-bit pixels of a JPEG, GIF or BMP file as uint16 are shifted by a byte (v -> 256 v), as TF 2.21 does."""
    if dtype == np.uint16 and pixels.dtype == np.uint8:
        return pixels.astype(np.uint16) << np.uint16(8)
    return pixels


def _still(data: bytes, fmt: str, op: str, channels: int, dtype=np.uint8, **jpeg) -> np.ndarray:
    """One (height, width, channels) image of a JPEG, PNG, GIF (a single frame) or BMP file."""
    if fmt == "JPEG":
        if channels == 4:
            raise InvalidArgumentError(f"{op}: JPEG does not support 4 channels")
        return _widen(jpeg_codec.decode(data, channels, op=op, **jpeg), dtype)
    if fmt == "PNG":
        return png_codec.decode(data, channels, dtype)
    if fmt == "GIF":
        frames = _frames(data, op, channels)
        if len(frames) > 1:
            raise InvalidArgumentError(f"{op}: Got {len(frames)} frames, but animated gifs can only be decoded by "
                                       f"tf.io.decode_gif or tf.io.decode_image")
        return _widen(frames[0], dtype)
    if fmt == "BMP":
        return _widen(bmp_gif_codecs.decode_bmp(data, channels, op), dtype)
    raise _unknown(op)


def _frames(data: bytes, op: str, channels: int = 0) -> np.ndarray:
    if channels not in (0, 3):
        raise InvalidArgumentError(f"{op}: channels must be 0 or 3 for GIF, got {channels}")
    return bmp_gif_codecs.decode_gif(data, op)


def _refuse_bmp(data: bytes, op: str) -> str:
    fmt = sniff(data)
    if fmt == "BMP":
        raise InvalidArgumentError(f"{op}: Trying to decode BMP format using a wrong op. Use `decode_bmp` or "
                                   f"`decode_image` instead. Op used: {op}")
    if not fmt:
        raise _unknown(op)
    return fmt


def _check_channels(op: str, channels: int):
    if channels not in (0, 1, 3, 4):
        raise InvalidArgumentError(f"{op}: `channels` must be 0, 1, 3 or 4 but got {channels}")


# --- kernels ---

def _decode_jpeg_kernel(contents, *, channels, ratio, fancy_upscaling, try_recover_truncated, acceptable_fraction,
                        dct_method):
    data = _bytes_of(contents)
    return _still(data, _refuse_bmp(data, "DecodeJpeg"), "DecodeJpeg", channels, ratio=ratio,
                  fancy_upscaling=fancy_upscaling, dct_method=dct_method)


def _decode_png_kernel(contents, *, channels, dtype):
    data = _bytes_of(contents)
    return _still(data, _refuse_bmp(data, "DecodePng"), "DecodePng", channels, dtype.np)


def _decode_gif_kernel(contents):
    data = _bytes_of(contents)
    fmt = _refuse_bmp(data, "DecodeGif")
    return _frames(data, "DecodeGif") if fmt == "GIF" else _still(data, fmt, "DecodeGif", 3)[None]


def _decode_bmp_kernel(contents, *, channels):
    data = _bytes_of(contents)
    fmt = sniff(data)
    if fmt and fmt != "BMP":
        raise InvalidArgumentError(f"DecodeBmp: Trying to decode {fmt} format using DecodeBmp op. Use "
                                   f"`decode_{fmt.lower()}` or `decode_image` instead.")
    return bmp_gif_codecs.decode_bmp(data, channels)


def _decode_image_kernel(contents, *, channels, dtype, expand_animations):
    data = _bytes_of(contents)
    fmt = sniff(data)
    # floats keep a 16-bit PNG's precision (an 8-bit PNG read as uint16 is 257 v: the same fraction)
    wide = dtypes.uint16 if dtype == dtypes.uint16 or (dtype.is_floating and fmt == "PNG") else dtypes.uint8
    if fmt == "" and image_webp.is_webp(data):  # TF's DecodeImage reads WebP as DecodeWebP does
        frames = image_webp.decode_webp_frames(data, channels, "DecodeImage")
        pixels = frames if expand_animations else frames[0]
    elif fmt == "GIF" and expand_animations:
        pixels = _frames(data, "DecodeImage", channels)
    elif fmt == "GIF":
        pixels = _frames(data, "DecodeImage", channels)[0]
    else:
        pixels = _still(data, fmt, "DecodeImage", channels, wide.np)
    if dtype in (dtypes.uint8, dtypes.uint16):
        return pixels
    # floats: the fraction of the integer maximum, as convert_image_dtype (TF decodes then converts)
    return (pixels.astype(np.float64) / np.iinfo(pixels.dtype).max).astype(dtype.np)


def _decode_and_crop_kernel(contents, crop_window, *, channels, ratio, fancy_upscaling, try_recover_truncated,
                            acceptable_fraction, dct_method):
    data = _bytes_of(contents)
    fmt = sniff(data)
    if fmt != "JPEG":
        raise InvalidArgumentError(f"DecodeAndCropJpeg: DecodeAndCropJpeg operation can run on JPEG only, but "
                                   f"detected {fmt or 'an unknown format'}.")
    if channels == 4:
        raise InvalidArgumentError("DecodeAndCropJpeg: JPEG does not support 4 channels")
    top, left, height, width = (int(v) for v in np.asarray(crop_window).reshape(-1)[:4])
    rows, cols, _ = jpeg_codec.shape(data)
    if top < 0 or left < 0 or height <= 0 or width <= 0 or top + height > rows or left + width > cols:
        raise InvalidArgumentError("DecodeAndCropJpeg: jpeg::Uncompress failed. Invalid JPEG data or crop window.")
    # The pixels of the whole decode, cropped. TF's libjpeg crop re-runs the chroma upsampling at the window's
    # edges, so TF's own crop differs from its full decode in an edge column by a few levels; tinytf keeps the
    # full decode's pixels (docs/images.md says so).
    image = jpeg_codec.decode(data, channels, ratio, fancy_upscaling, dct_method, op="DecodeAndCropJpeg")
    return np.ascontiguousarray(image[top:top + height, left:left + width])


def _extract_jpeg_shape_kernel(contents, *, output_type):
    data = _bytes_of(contents)
    if not jpeg_codec.is_jpeg(data):
        raise InvalidArgumentError(f"ExtractJpegShape: Invalid JPEG data, size {len(data)}")
    return np.asarray(jpeg_codec.shape(data), output_type.np)


def _encode_jpeg_kernel(image, **attrs):
    out = np.empty((), dtype=object)
    out[()] = jpeg_codec.encode(np.asarray(image), **attrs)
    return out


def _encode_variable_quality_kernel(image, quality):
    return _encode_jpeg_kernel(image, quality=int(quality))


# --- inference ---

def _scalar_string(op: str, contents):
    if not contents.dtype.is_string:
        raise TypeError(f"contents must be a string tensor, got {contents.dtype.name}")
    if contents._shape is not None and len(contents._shape) != 0:
        raise ValueError(f"contents must be a scalar, got shape {list(contents._shape)}")


def _infer_still(op):
    def infer(contents, *, channels, dtype=dtypes.uint8, **_):
        _scalar_string(op, contents)
        return dtype, (None, None, channels or None)
    return infer


def _infer_gif(contents):
    _scalar_string("DecodeGif", contents)
    return dtypes.uint8, (None, None, None, 3)


def _infer_image(contents, *, channels, dtype, expand_animations):
    _scalar_string("DecodeImage", contents)
    return dtype, (None if expand_animations else (None, None, channels or None))


def _infer_crop(contents, crop_window, *, channels, **_):
    _scalar_string("DecodeAndCropJpeg", contents)
    return dtypes.uint8, (None, None, channels or None)


def _infer_shape(contents, *, output_type):
    _scalar_string("ExtractJpegShape", contents)
    return output_type, (3,)


def _infer_encode(image, **attrs):
    if image.dtype != dtypes.uint8:
        raise TypeError(f"image must be uint8, got {image.dtype.name}")
    if image._shape is not None and len(image._shape) != 3:
        raise ValueError(f"image must be 3-dimensional (height, width, channels), got shape "
                         f"{list(image._shape)}")
    return dtypes.string, ()


def _infer_variable_quality(image, quality):
    if not quality.dtype.is_integer or (quality._shape is not None and len(quality._shape) != 0):
        raise TypeError(f"quality must be an int32 scalar, got {quality.dtype.name} "
                        f"of shape {quality._shape}")
    return _infer_encode(image)


def _op(name, kernel, infer, doc):
    return register(OpDef(name, kernel, infer, differentiable=False, doc=doc))


decode_jpeg_op = _op("decode_jpeg", _decode_jpeg_kernel, _infer_still("DecodeJpeg"),
                     "TF's DecodeJpeg: a JPEG (or PNG, or one-frame GIF) file's uint8 pixels")
decode_png_op = _op("decode_png", _decode_png_kernel, _infer_still("DecodePng"),
                    "TF's DecodePng: a PNG (or JPEG, or one-frame GIF) file's uint8 or uint16 pixels")
decode_gif_op = _op("decode_gif", _decode_gif_kernel, _infer_gif, "TF's DecodeGif: a GIF file's frames, RGB")
decode_bmp_op = _op("decode_bmp", _decode_bmp_kernel, _infer_still("DecodeBmp"), "TF's DecodeBmp")
decode_image_op = _op("decode_image", _decode_image_kernel, _infer_image,
                      "TF's DecodeImageV2: a JPEG, PNG, GIF or BMP file's pixels")
decode_and_crop_jpeg_op = _op("decode_and_crop_jpeg", _decode_and_crop_kernel, _infer_crop,
                              "TF's DecodeAndCropJpeg: a window of a JPEG file's pixels")
extract_jpeg_shape_op = _op("extract_jpeg_shape", _extract_jpeg_shape_kernel, _infer_shape,
                            "TF's ExtractJpegShape: [height, width, channels] of a JPEG file")
encode_jpeg_op = _op("encode_jpeg", _encode_jpeg_kernel, _infer_encode, "TF's EncodeJpeg")
encode_jpeg_variable_quality_op = _op("encode_jpeg_variable_quality", _encode_variable_quality_kernel,
                                      _infer_variable_quality,
                                      "TF's EncodeJpegVariableQuality: EncodeJpeg with a tensor quality")


# --- the public functions (tf.io and tf.image names) ---

def _contents(contents):
    return convert_to_tensor(contents, dtypes.string)


def _jpeg_attrs(channels, ratio, fancy_upscaling, try_recover_truncated, acceptable_fraction, dct_method):
    _check_channels("DecodeJpeg", channels)
    return {"channels": int(channels), "ratio": int(ratio), "fancy_upscaling": bool(fancy_upscaling),
            "try_recover_truncated": bool(try_recover_truncated), "acceptable_fraction": float(acceptable_fraction),
            "dct_method": str(dct_method)}


def decode_jpeg(contents, channels=0, ratio=1, fancy_upscaling=True, try_recover_truncated=False,
                acceptable_fraction=1, dct_method="", name=None):
    """`tf.io.decode_jpeg`: (height, width, channels) uint8 pixels; dct_method "" is libjpeg's fast IDCT."""
    attrs = _jpeg_attrs(channels, ratio, fancy_upscaling, try_recover_truncated, acceptable_fraction, dct_method)
    return apply(decode_jpeg_op, [_contents(contents)], attrs, name=name)


def decode_and_crop_jpeg(contents, crop_window, channels=0, ratio=1, fancy_upscaling=True,
                         try_recover_truncated=False, acceptable_fraction=1, dct_method="", name=None):
    """`tf.io.decode_and_crop_jpeg`: the window [top, left, height, width] of a JPEG file's pixels."""
    attrs = _jpeg_attrs(channels, ratio, fancy_upscaling, try_recover_truncated, acceptable_fraction, dct_method)
    window = convert_to_tensor(crop_window, dtypes.int32)
    return apply(decode_and_crop_jpeg_op, [_contents(contents), window], attrs, name=name)


def decode_png(contents, channels=0, dtype=dtypes.uint8, name=None):
    """`tf.io.decode_png`: (height, width, channels) uint8 or uint16 pixels of a PNG string scalar."""
    dtype = dtypes.as_dtype(dtype)
    if dtype not in (dtypes.uint8, dtypes.uint16):
        raise TypeError(f"decode_png: dtype must be uint8 or uint16, got {dtype.name}")
    _check_channels("DecodePng", channels)
    return apply(decode_png_op, [_contents(contents)], {"channels": int(channels), "dtype": dtype}, name=name)


def decode_gif(contents, name=None):
    """`tf.io.decode_gif`: (frames, height, width, 3) uint8 pixels."""
    return apply(decode_gif_op, [_contents(contents)], {}, name=name)


def decode_bmp(contents, channels=0, name=None):
    """`tf.io.decode_bmp`: (height, width, channels) uint8 pixels of an 8-, 24- or 32-bit BMP file."""
    return apply(decode_bmp_op, [_contents(contents)], {"channels": int(channels)}, name=name)


def decode_image(contents, channels=None, dtype=dtypes.uint8, name=None, expand_animations=True):
    """`tf.io.decode_image`: any JPEG, PNG, GIF or BMP file; uint8 or uint16 pixels, or floats in [0, 1]; GIFs
    give (frames, height, width, 3) unless expand_animations is False (then their first frame)."""
    dtype = dtypes.as_dtype(dtype)
    channels = int(channels or 0)
    _check_channels("DecodeImage", channels)
    return apply(decode_image_op, [_contents(contents)],
                 {"channels": channels, "dtype": dtype, "expand_animations": bool(expand_animations)}, name=name)


def extract_jpeg_shape(contents, output_type=dtypes.int32, name=None):
    """`tf.io.extract_jpeg_shape`: [height, width, channels] from the JPEG header."""
    return apply(extract_jpeg_shape_op, [_contents(contents)], {"output_type": dtypes.as_dtype(output_type)},
                 name=name)


def encode_jpeg(image, format="", quality=95, progressive=False, optimize_size=False, chroma_downsampling=True,
                density_unit="in", x_density=300, y_density=300, xmp_metadata="", name=None):
    """`tf.io.encode_jpeg`: a uint8 (height, width, 1 or 3) image as a JPEG file, byte for byte TF's."""
    if format not in ("", "grayscale", "rgb"):
        raise InvalidArgumentError(f"EncodeJpeg: format must be '', 'grayscale' or 'rgb', got {format!r}")
    xmp = xmp_metadata.encode() if isinstance(xmp_metadata, str) else bytes(xmp_metadata)
    attrs = {"format": format, "quality": int(quality), "progressive": bool(progressive),
             "optimize_size": bool(optimize_size), "chroma_downsampling": bool(chroma_downsampling),
             "density_unit": density_unit, "x_density": int(x_density), "y_density": int(y_density),
             "xmp_metadata": xmp}
    return apply(encode_jpeg_op, [convert_to_tensor(image)], attrs, name=name)


def encode_jpeg_variable_quality(images, quality, name=None):
    """`tf.raw_ops.EncodeJpegVariableQuality`: encode_jpeg's defaults with the quality a tensor."""
    return apply(encode_jpeg_variable_quality_op, [convert_to_tensor(images), convert_to_tensor(quality, dtypes.int32)],
                 {}, name=name)
