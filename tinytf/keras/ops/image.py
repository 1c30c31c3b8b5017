"""keras.ops.image: the image functions tinytf's ops can compose (resize, rgb_to_grayscale, pad_images,
crop_images), with Keras 3's signatures and data_format handling."""

from __future__ import annotations

import tinytf as tf

from .core import cast, convert_to_tensor
from .nn import _data_format, _from_channels_last, _to_channels_last
from .symbolic import export_all

_INTERPOLATIONS = ("bilinear", "nearest", "bicubic", "area", "lanczos3", "lanczos5")


def resize(images, size, interpolation="bilinear", antialias=False, crop_to_aspect_ratio=False,
           pad_to_aspect_ratio=False, fill_mode="constant", fill_value=0.0, data_format=None):
    """Images (3-D or batched 4-D) resized to size (height, width); floats keep their dtype."""
    data_format = _data_format(data_format)
    if interpolation not in _INTERPOLATIONS:
        raise ValueError(f"Invalid value for argument `interpolation`. Expected of one {_INTERPOLATIONS}. "
                         f"Received: interpolation={interpolation}")
    if crop_to_aspect_ratio or pad_to_aspect_ratio:
        raise NotImplementedError("keras.ops.image.resize: crop_to_aspect_ratio and pad_to_aspect_ratio are not "
                                  "supported by tinytf yet.")
    if len(size) != 2:
        raise ValueError(f"Expected `size` to be a tuple of 2 integers. Received: size={size}")
    images = convert_to_tensor(images)
    if len(images.shape) not in (3, 4):
        raise ValueError("Invalid images rank: expected rank 3 (single image) or rank 4 (batch of images). "
                         f"Received input with shape: images.shape={tuple(images.shape)}")
    x = _to_channels_last(images, data_format)
    out = tf.image.resize(x, size, method=interpolation, antialias=antialias)
    if images.dtype.is_floating:
        out = cast(out, images.dtype)
    return _from_channels_last(out, data_format)


def rgb_to_grayscale(images, data_format=None):
    """The luma of RGB images (ITU-R 601 weights), one channel kept."""
    data_format = _data_format(data_format)
    images = convert_to_tensor(images)
    if len(images.shape) not in (3, 4):
        raise ValueError("Invalid images rank: expected rank 3 (single image) or rank 4 (batch of images). "
                         f"Received input with shape: images.shape={tuple(images.shape)}")
    channel_axis = -1 if data_format == "channels_last" else -3
    if images.shape[channel_axis] not in (1, 3):
        raise ValueError("Invalid channel size: expected 3 (RGB) or 1 (Grayscale). Received input with shape: "
                         f"images.shape={tuple(images.shape)}")
    dtype = images.dtype
    x = cast(images, "float32") if not dtype.is_floating else images
    weights = tf.constant([0.2989, 0.5870, 0.1140], x.dtype)
    shape = [1] * len(x.shape)
    shape[channel_axis] = 3
    gray = tf.reduce_sum(x * tf.reshape(weights, shape), axis=channel_axis, keepdims=True)
    return cast(gray, dtype)


def _hw_axes(images, data_format):
    rank = len(images.shape)
    return (rank - 3, rank - 2) if data_format == "channels_last" else (rank - 2, rank - 1)


def pad_images(images, top_padding=None, left_padding=None, bottom_padding=None, right_padding=None,
               target_height=None, target_width=None, data_format=None):
    """Zero-pad images to target_height x target_width (or by the given margins)."""
    data_format = _data_format(data_format)
    images = convert_to_tensor(images)
    h_axis, w_axis = _hw_axes(images, data_format)
    height, width = images.shape[h_axis], images.shape[w_axis]
    top, bottom = _margins(top_padding, bottom_padding, target_height, height, "top_padding", "bottom_padding",
                           "target_height")
    left, right = _margins(left_padding, right_padding, target_width, width, "left_padding", "right_padding",
                           "target_width")
    paddings = [[0, 0] for _ in images.shape]
    paddings[h_axis], paddings[w_axis] = [top, bottom], [left, right]
    if min(top, bottom, left, right) < 0:
        raise ValueError("The padding must be non-negative: the target size is smaller than the images.")
    return tf.pad(images, paddings)


def crop_images(images, top_cropping=None, left_cropping=None, bottom_cropping=None, right_cropping=None,
                target_height=None, target_width=None, data_format=None):
    """Crop images to target_height x target_width (or by the given margins)."""
    data_format = _data_format(data_format)
    images = convert_to_tensor(images)
    h_axis, w_axis = _hw_axes(images, data_format)
    height, width = images.shape[h_axis], images.shape[w_axis]
    top, bottom = _margins(top_cropping, bottom_cropping, target_height, height, "top_cropping", "bottom_cropping",
                           "target_height")
    left, right = _margins(left_cropping, right_cropping, target_width, width, "left_cropping", "right_cropping",
                           "target_width")
    if min(top, bottom, left, right) < 0:
        raise ValueError("The cropping must be non-negative: the target size is larger than the images.")
    index = [slice(None)] * len(images.shape)
    index[h_axis], index[w_axis] = slice(top, height - bottom), slice(left, width - right)
    return images[tuple(index)]


def _margins(first, second, target, size, first_name, second_name, target_name):
    """(first, second) margins from any two of first, second and target, as Keras resolves them."""
    given = [v is not None for v in (first, second, target)]
    if sum(given) != 2:
        raise ValueError(f"Must specify exactly two of {first_name}, {second_name}, {target_name}. Received: "
                         f"{first_name}={first}, {second_name}={second}, {target_name}={target}")
    if first is None:
        first = abs(target - size) - second
    elif second is None:
        second = abs(target - size) - first
    return int(first), int(second)


__all__ = ["crop_images", "pad_images", "resize", "rgb_to_grayscale"]
export_all(globals(), __all__)
