"""keras.ops.image: the image functions tinytf's ops can compose (resize, rgb_to_grayscale, rgb_to_hsv,
hsv_to_rgb, gaussian_blur, extract_patches, pad_images, crop_images), with Keras 3's signatures and data_format
handling; the resampling functions come from image_warp.py, ssim / sobel_edges / extract_patches_3d from
image_measures.py."""

from __future__ import annotations

import numpy as np

import tinytf as tf

from .core import cast, convert_to_tensor
from .image_measures import extract_patches_3d, sobel_edges, ssim
from .image_warp import affine_transform, elastic_transform, map_coordinates, perspective_transform, scale_and_translate
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


def _float_images(images):
    images = convert_to_tensor(images)
    if len(images.shape) not in (3, 4):
        raise ValueError("Invalid images rank: expected rank 3 (single image) or rank 4 (batch of images). "
                         f"Received input with shape: images.shape={tuple(images.shape)}")
    if not images.dtype.is_floating:
        raise ValueError(f"Invalid images dtype: expected float dtype. Received: images.dtype={images.dtype.name}")
    return images


def _channels_to_last(images, data_format):
    if data_format != "channels_first":
        return images
    return tf.transpose(images, (0, 2, 3, 1) if len(images.shape) == 4 else (1, 2, 0))


def _channels_to_first(images, data_format):
    if data_format != "channels_first":
        return images
    return tf.transpose(images, (0, 3, 1, 2) if len(images.shape) == 4 else (2, 0, 1))


def rgb_to_hsv(images, data_format=None):
    """RGB in [0, 1] to hue, saturation, value in [0, 1] (TF's conversion: the hue of grays is 0)."""
    data_format = _data_format(data_format)
    x = _channels_to_last(_float_images(images), data_format)
    red, green, blue = x[..., 0], x[..., 1], x[..., 2]
    value = tf.reduce_max(x, axis=-1)
    spread = value - tf.reduce_min(x, axis=-1)
    zero = tf.zeros_like(value)
    saturation = tf.where(value > 0, spread / tf.where(value > 0, value, tf.ones_like(value)), zero)
    norm = 1.0 / (6.0 * tf.where(spread > 0, spread, tf.ones_like(spread)))
    hue = tf.where(tf.equal(red, value), norm * (green - blue),
                   tf.where(tf.equal(green, value), norm * (blue - red) + 2.0 / 6.0, norm * (red - green) + 4.0 / 6.0))
    hue = tf.where(spread > 0, hue, zero)
    hue = tf.where(hue < 0, hue + 1.0, hue)
    return _channels_to_first(tf.stack([hue, saturation, value], axis=-1), data_format)


def hsv_to_rgb(images, data_format=None):
    """Hue, saturation, value in [0, 1] to RGB (TF's piecewise-linear conversion)."""
    data_format = _data_format(data_format)
    x = _channels_to_last(_float_images(images), data_format)
    hue, saturation, value = x[..., 0], x[..., 1], x[..., 2]
    sixths = hue * 6.0
    red = tf.clip_by_value(tf.abs(sixths - 3.0) - 1.0, 0.0, 1.0)
    green = tf.clip_by_value(2.0 - tf.abs(sixths - 2.0), 0.0, 1.0)
    blue = tf.clip_by_value(2.0 - tf.abs(sixths - 4.0), 0.0, 1.0)
    rest = 1.0 - saturation
    rgb = [value * (rest + saturation * c) for c in (red, green, blue)]
    return _channels_to_first(tf.stack(rgb, axis=-1), data_format)


def gaussian_blur(images, kernel_size=(3, 3), sigma=(1.0, 1.0), data_format=None):
    """Each channel convolved with a normalized Gaussian (zero padding, same size), as Keras' TF backend."""
    images = convert_to_tensor(images)
    if len(images.shape) not in (3, 4):
        raise ValueError("Invalid images rank: expected rank 3 (single image) or rank 4 (batch of images). "
                         f"Received input with shape: images.shape={tuple(images.shape)}")
    single = len(images.shape) == 3
    x = images[None] if single else images
    if data_format == "channels_first":
        x = tf.transpose(x, (0, 2, 3, 1))

    def gaussian_1d(size, width):
        grid = np.arange(size) - (size - 1) / 2
        kernel = np.exp(-0.5 * (grid / width) ** 2)
        return kernel / kernel.sum()

    kernel = np.tensordot(gaussian_1d(kernel_size[1], sigma[1]), gaussian_1d(kernel_size[0], sigma[0]), axes=0)
    kernel = np.tile(kernel.reshape(kernel_size[0], kernel_size[1], 1, 1), (1, 1, x.shape[-1], 1))
    out = tf.nn.depthwise_conv2d(x, tf.constant(kernel, x.dtype), [1, 1, 1, 1], "SAME")
    if data_format == "channels_first":
        out = tf.transpose(out, (0, 3, 1, 2))
    return out[0] if single else out


def extract_patches(images, size, strides=None, dilation_rate=1, padding="valid", data_format=None):
    """size x size patches of images as channels: (N, rows, cols, size*size*C), ordered (row, col, channel)."""
    data_format = _data_format(data_format)
    images = convert_to_tensor(images)
    single = len(images.shape) == 3
    x = _channels_to_last(images[None] if single else images, data_format)
    size = (size, size) if isinstance(size, int) else tuple(size)
    strides = size if strides is None else ((strides, strides) if isinstance(strides, int) else tuple(strides))
    dilation = (dilation_rate, dilation_rate) if isinstance(dilation_rate, int) else tuple(dilation_rate)
    channels = x.shape[-1]
    # a convolution with one-hot kernels copies each (row, col, channel) of the window into its own channel
    eye = np.eye(size[0] * size[1] * channels).reshape(size[0], size[1], channels, -1)
    out = tf.nn.conv2d(x, tf.constant(eye, x.dtype), [1, *strides, 1], padding.upper(), dilations=list(dilation))
    out = _channels_to_first(out, data_format)
    return out[0] if single else out


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


__all__ = ["affine_transform", "crop_images", "elastic_transform", "extract_patches", "extract_patches_3d",
           "gaussian_blur", "hsv_to_rgb", "map_coordinates", "pad_images", "perspective_transform", "resize",
           "rgb_to_grayscale", "rgb_to_hsv", "scale_and_translate", "sobel_edges", "ssim"]
export_all(globals(), __all__)
