"""keras.preprocessing.image: the legacy image namespace TF 2.21 still exposes. Here: array_to_img,
img_to_array, load_img, save_img (keras.utils' own functions) and smart_resize (Keras' crop to the target's
aspect ratio, then resize). ImageDataGenerator, its iterators and the random_* / apply_* transforms of
Keras 2 are not here (see docs/keras.md)."""

from __future__ import annotations

import numpy as np

from ..utils.image_utils import array_to_img, img_to_array, load_img, save_img


def smart_resize(x, size, interpolation="bilinear", data_format="channels_last", **kwargs):
    """Resize image(s) (H, W, C) or (N, H, W, C) to `size` without distortion: the largest central window
    of the target's aspect ratio, resized. A numpy input gives a numpy array, a tensor a tensor."""
    import tinytf as tf

    if kwargs.pop("backend_module", None) is not None or kwargs:
        if kwargs:
            raise TypeError(f"smart_resize() got unexpected keyword arguments: {list(kwargs.keys())}")
    if len(size) != 2:
        raise ValueError(f"Expected `size` to be a tuple of 2 integers, but got: {size}.")
    img = tf.convert_to_tensor(x)
    rank = len(img.shape)
    if rank < 3 or rank > 4:
        raise ValueError("Expected an image array with shape `(height, width, channels)`, or `(batch_size, height, "
                         f"width, channels)`, but got input with incorrect rank, of shape {img.shape}.")
    shape = img.shape.as_list()
    height, width = (shape[-3], shape[-2]) if data_format == "channels_last" else (shape[-2], shape[-1])
    target_height, target_width = size
    crop_height = max(min(height, int(float(width * target_height) / target_width)), 1)
    crop_width = max(min(width, int(float(height * target_width) / target_height)), 1)
    top = int(float(height - crop_height) / 2)
    left = int(float(width - crop_width) / 2)
    rows, cols = slice(top, top + crop_height), slice(left, left + crop_width)
    if data_format == "channels_last":
        img = img[:, rows, cols, :] if rank == 4 else img[rows, cols, :]
    else:
        img = img[:, :, rows, cols] if rank == 4 else img[:, rows, cols]
        img = tf.transpose(img, [0, 2, 3, 1] if rank == 4 else [1, 2, 0])
    img = tf.image.resize(img, size, method=interpolation)
    if data_format != "channels_last":
        img = tf.transpose(img, [0, 3, 1, 2] if rank == 4 else [2, 0, 1])
    if isinstance(x, np.ndarray):
        return np.array(img)
    return img


__all__ = ["array_to_img", "img_to_array", "load_img", "save_img", "smart_resize"]
