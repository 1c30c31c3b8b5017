"""Image measures and filters with TF's definitions: total_variation, image_gradients (forward differences,
zero at the far edge), sobel_edges (3x3 Sobel filters on a reflect-padded image, one depthwise convolution),
psnr, and resize_with_pad (resize keeping the aspect ratio, then pad to the target with zeros)."""

from __future__ import annotations

import math

import numpy as np

import tinytf as _tf
from tinytf.runtime.ops.static_value import constant_value

from .color import convert_image_dtype
from .geometry import pad_to_bounding_box


def total_variation(images, name=None):
    """Sum of absolute differences of neighbouring pixels (down and right), per image of a batch."""
    images = _tf.convert_to_tensor(images)
    rank = images.shape.rank
    if rank == 3:
        down = images[1:, :, :] - images[:-1, :, :]
        right = images[:, 1:, :] - images[:, :-1, :]
        axis = None
    elif rank == 4:
        down = images[:, 1:, :, :] - images[:, :-1, :, :]
        right = images[:, :, 1:, :] - images[:, :, :-1, :]
        axis = [1, 2, 3]
    else:
        raise ValueError("'images' must be either 3 or 4-dimensional.")
    return _tf.reduce_sum(_tf.abs(down), axis=axis) + _tf.reduce_sum(_tf.abs(right), axis=axis)


def image_gradients(image):
    """(dy, dx): x[i + 1] - x[i] along height and width of a [batch, h, w, d] image, 0 in the last row/column."""
    image = _tf.convert_to_tensor(image)
    if image.shape.rank != 4:
        raise ValueError(f"image_gradients expects a 4D tensor [batch_size, h, w, d], not {image.shape}.")
    dy = image[:, 1:, :, :] - image[:, :-1, :, :]
    dx = image[:, :, 1:, :] - image[:, :, :-1, :]
    dy = _tf.concat([dy, _tf.zeros_like(image[:, :1, :, :])], 1)
    dx = _tf.concat([dx, _tf.zeros_like(image[:, :, :1, :])], 2)
    return dy, dx


_SOBEL = np.array([[[-1, -2, -1], [0, 0, 0], [1, 2, 1]], [[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]]])


def sobel_edges(image):
    """[batch, h, w, d, 2]: the vertical (dy) and horizontal (dx) Sobel responses of each channel, the image
    reflect-padded by one pixel as TF pads it."""
    image = _tf.convert_to_tensor(image)
    if image.shape.rank != 4 or image.shape[-1] is None:
        raise ValueError(f"tf.image.sobel_edges: expects a 4-D image [batch, h, w, d] with d known, got shape "
                         f"{image.shape}")
    channels = int(image.shape[-1])
    kernels = np.expand_dims(np.transpose(_SOBEL, (1, 2, 0)), -2)  # (3, 3, 1, 2)
    filters = _tf.constant(np.tile(kernels, (1, 1, channels, 1)), image.dtype)
    padded = _tf.pad(image, [[0, 0], [1, 1], [1, 1], [0, 0]], mode="REFLECT")
    out = _tf.nn.depthwise_conv2d(padded, filters, [1, 1, 1, 1], "VALID")
    return _tf.reshape(out, _tf.concat([_tf.shape(image), [2]], 0))


def psnr(a, b, max_val, name=None):
    """Peak signal-to-noise ratio of each image pair: 20 log10(max_val) - 10 log10(mean squared error), in
    float32 (integer images scaled to [0, 1] first, max_val with them)."""
    a, b = _tf.convert_to_tensor(a), _tf.convert_to_tensor(b)
    if a.dtype != b.dtype:
        raise TypeError(f"tf.image.psnr: a and b must have the same dtype, got {a.dtype.name} and {b.dtype.name}")
    if a.shape.rank is not None and b.shape.rank is not None and not a.shape[-3:].is_compatible_with(b.shape[-3:]):
        raise ValueError(f"tf.image.psnr: the images' last three dimensions differ: {a.shape} and {b.shape}")
    max_val = convert_image_dtype(_tf.cast(max_val, a.dtype), "float32")
    a, b = convert_image_dtype(a, "float32"), convert_image_dtype(b, "float32")
    mse = _tf.reduce_mean(_tf.math.squared_difference(a, b), [-3, -2, -1])
    return 20 * _tf.math.log(max_val) / _tf.math.log(10.0) - np.float32(10 / math.log(10)) * _tf.math.log(mse)


def resize_with_pad(image, target_height, target_width, method="bilinear", antialias=False):
    """Resize to fit inside target_height x target_width keeping the aspect ratio, then pad with zeros to it,
    centred (TF's resize_image_with_pad)."""
    return resize_with_pad_using(image, target_height, target_width,
                                 lambda batch, size: _tf.image.resize(batch, size, method=method, antialias=antialias))


def resize_with_pad_using(image, target_height, target_width, resize):
    """resize_with_pad with a resize function (batch, [height, width]) -> batch: TF2's, or TF1's with
    align_corners (tf.compat.v1.image.resize_image_with_pad)."""
    image = _tf.convert_to_tensor(image)
    rank = image.shape.rank
    if rank not in (3, 4):
        raise ValueError(f"'image' (shape {image.shape}) must have either 3 or 4 dimensions.")
    if isinstance(target_height, int) and target_height <= 0:
        raise ValueError("target_height must be > 0.")
    if isinstance(target_width, int) and target_width <= 0:
        raise ValueError("target_width must be > 0.")
    single = rank == 3
    batch = _tf.expand_dims(image, 0) if single else image
    shape = _tf.shape(batch)
    height = batch.shape[1] if batch.shape[1] is not None else shape[1]
    width = batch.shape[2] if batch.shape[2] is not None else shape[2]
    f_height, f_width = _tf.cast(height, "float32"), _tf.cast(width, "float32")
    f_target_height, f_target_width = _tf.cast(target_height, "float32"), _tf.cast(target_width, "float32")
    ratio = _tf.maximum(f_width / f_target_width, f_height / f_target_height)
    resized_height, resized_width = f_height / ratio, f_width / ratio
    new_size = _static_ints([_tf.cast(_tf.floor(resized_height), "int32"), _tf.cast(_tf.floor(resized_width), "int32")])
    top = _tf.maximum(0, _tf.cast(_tf.floor((f_target_height - resized_height) / 2), "int32"))
    left = _tf.maximum(0, _tf.cast(_tf.floor((f_target_width - resized_width) / 2), "int32"))
    resized = resize(batch, new_size)
    top, left = _static_ints([top, left])
    padded = pad_to_bounding_box(resized, top, left, target_height, target_width)
    return _tf.squeeze(padded, [0]) if single else padded


def _static_ints(values):
    """Scalars as Python ints where their values are known (eager, or constant in a graph), else as given."""
    out = []
    for value in values:
        known = constant_value(value)
        out.append(int(known) if known is not None else value)
    return out
