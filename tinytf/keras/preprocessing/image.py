"""keras.preprocessing.image: the legacy image namespace TF 2.21 still exposes. Here: array_to_img,
img_to_array, load_img, save_img (keras.utils' own functions), smart_resize (Keras' crop to the target's
aspect ratio, then resize), ImageDataGenerator and its iterators (image_generator.py, image_iterators.py) and
the apply_* / random_* transforms (image_transforms.py, resampling as scipy.ndimage does: image_affine.py)."""

from __future__ import annotations

import numpy as np

from ..utils.image_utils import array_to_img, img_to_array, load_img, save_img
from .dataframe_iterator import DataFrameIterator
from .image_generator import ImageDataGenerator
from .image_iterators import DirectoryIterator, Iterator, NumpyArrayIterator
from .image_transforms import (
    apply_affine_transform,
    apply_brightness_shift,
    apply_channel_shift,
    random_brightness,
    random_channel_shift,
    random_rotation,
    random_shear,
    random_shift,
    random_zoom,
)


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


__all__ = ["DataFrameIterator", "DirectoryIterator", "ImageDataGenerator", "Iterator", "NumpyArrayIterator",
           "apply_affine_transform",
           "apply_brightness_shift", "apply_channel_shift", "array_to_img", "img_to_array", "load_img",
           "random_brightness", "random_channel_shift", "random_rotation", "random_shear", "random_shift",
           "random_zoom", "save_img", "smart_resize"]
