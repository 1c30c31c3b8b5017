"""keras.utils' image file helpers as Keras 3 writes them: load_img, img_to_array, array_to_img and save_img,
on PIL (Keras' own optional dependency for these: without it they raise Keras' ImportError). A PIL image is
what load_img returns and array_to_img makes, so code that uses `.size`, `.mode` or `.save` keeps working."""

from __future__ import annotations

import io
import pathlib
import warnings

import numpy as np

_INTERPOLATIONS = ("nearest", "bilinear", "bicubic", "hamming", "box", "lanczos")

# Keras imports PIL.Image with itself, so after `import tensorflow` a bare `import PIL` has `PIL.Image`: TF's
# image classification tutorial calls `PIL.Image.open` that way. Importing it here keeps such programs running.
try:
    import PIL.Image  # noqa: F401
except ImportError:
    pass


def _pil():
    try:
        from PIL import Image
    except ImportError:
        return None
    return Image


def _require_pil(what: str):
    image = _pil()
    if image is None:
        raise ImportError(f"Could not import PIL.Image. The use of `{what}` requires PIL.")
    return image


def _data_format(data_format) -> str:
    data_format = data_format or "channels_last"
    if data_format not in {"channels_first", "channels_last"}:
        raise ValueError(f"Invalid data_format: {data_format}")
    return data_format


def array_to_img(x, data_format=None, scale=True, dtype=None):
    """A (height, width, channels) array as a PIL image (1 channel: "L", or "I" above 255; 3: "RGB"; 4: "RGBA"),
    values shifted and scaled to [0, 255] when `scale`."""
    image = _require_pil("array_to_img")
    data_format = _data_format(data_format)
    x = np.asarray(x, dtype=dtype or "float32")
    if x.ndim != 3:
        raise ValueError(f"Expected image array to have rank 3 (single image). Got array with shape: {x.shape}")
    if data_format == "channels_first":
        x = x.transpose(1, 2, 0)
    if scale:
        x = x - np.min(x)
        top = np.max(x)
        if top != 0:
            x /= top
        x *= 255
    if x.shape[2] == 4:
        return image.fromarray(x.astype("uint8"), "RGBA")
    if x.shape[2] == 3:
        return image.fromarray(x.astype("uint8"), "RGB")
    if x.shape[2] == 1:
        if np.max(x) > 255:  # a 32-bit integer grey image (PIL mode "I")
            return image.fromarray(x[:, :, 0].astype("int32"), "I")
        return image.fromarray(x[:, :, 0].astype("uint8"), "L")
    raise ValueError(f"Unsupported channel number: {x.shape[2]}")


def img_to_array(img, data_format=None, dtype=None):
    """A PIL image (or any array-like) as a float32 (height, width, channels) array."""
    data_format = _data_format(data_format)
    x = np.asarray(img, dtype=dtype or "float32")
    if x.ndim == 3:
        return x.transpose(2, 0, 1) if data_format == "channels_first" else x
    if x.ndim == 2:
        return x.reshape((1, *x.shape)) if data_format == "channels_first" else x.reshape((*x.shape, 1))
    raise ValueError(f"Unsupported image shape: {x.shape}")


def save_img(path, x, data_format=None, file_format=None, scale=True, **kwargs):
    """array_to_img, then PIL's save (an RGBA image saved as JPEG loses its alpha, with Keras' warning)."""
    img = array_to_img(x, data_format=data_format, scale=scale)
    if img.mode == "RGBA" and (file_format == "jpg" or file_format == "jpeg"):
        warnings.warn("The JPG format does not support RGBA images, converting to RGB.", stacklevel=2)
        img = img.convert("RGB")
    img.save(path, format=file_format, **kwargs)


def load_img(path, color_mode="rgb", target_size=None, interpolation="nearest", keep_aspect_ratio=False):
    """A PIL image of the file at `path` (or an io.BytesIO), converted to `color_mode` ("grayscale", "rgb",
    "rgba") and resized to target_size = (height, width), cropped centrally first with keep_aspect_ratio."""
    image = _require_pil("load_img")
    if isinstance(path, io.BytesIO):
        img = image.open(path)
    elif isinstance(path, (pathlib.Path, bytes, str)):
        if isinstance(path, pathlib.Path):
            path = str(path.resolve())
        with open(path, "rb") as f:
            img = image.open(io.BytesIO(f.read()))
    else:
        raise TypeError(f"path should be path-like or io.BytesIO, not {type(path)}")
    if color_mode == "grayscale":
        if img.mode not in ("L", "I;16", "I"):
            img = img.convert("L")
    elif color_mode == "rgba":
        if img.mode != "RGBA":
            img = img.convert("RGBA")
    elif color_mode == "rgb":
        if img.mode != "RGB":
            img = img.convert("RGB")
    else:
        raise ValueError('color_mode must be "grayscale", "rgb", or "rgba"')
    if target_size is None:
        return img
    size = (target_size[1], target_size[0])
    if img.size == size:
        return img
    if interpolation not in _INTERPOLATIONS:
        raise ValueError(f"Invalid interpolation method {interpolation} specified. Supported methods are "
                         f"{', '.join(_INTERPOLATIONS)}")
    resample = getattr(image.Resampling, interpolation.upper())
    if not keep_aspect_ratio:
        return img.resize(size, resample)
    width, height = img.size
    crop_height = min(height, (width * size[1]) // size[0])
    crop_width = min(width, (height * size[0]) // size[1])
    top, left = (height - crop_height) // 2, (width - crop_width) // 2
    return img.resize(size, resample, box=[left, top, left + crop_width, top + crop_height])
