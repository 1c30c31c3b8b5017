"""keras.preprocessing.image's array transforms (Keras 3's legacy module, as TF 2.21 ships it): the affine
transform of one (rows, cols, channels) image with its fill modes, the random rotation / shift / shear / zoom that
draw its parameters from numpy's global generator (as Keras' do, so `np.random.seed` reproduces them), the
channel shift and the brightness shift (PIL's ImageEnhance.Brightness, as Keras'). The resampling is
image_affine.py's numpy port of scipy.ndimage.affine_transform."""

from __future__ import annotations

import numpy as np

from ..utils import image_utils
from .image_affine import affine_resample


def transform_matrix_offset_center(matrix, x, y):
    """`matrix` applied about the image's centre ((x - 1) / 2, (y - 1) / 2) rather than its corner."""
    o_x, o_y = float(x) / 2 - 0.5, float(y) / 2 - 0.5
    offset_matrix = np.array([[1, 0, o_x], [0, 1, o_y], [0, 0, 1]])
    reset_matrix = np.array([[1, 0, -o_x], [0, 1, -o_y], [0, 0, 1]])
    return np.dot(np.dot(offset_matrix, matrix), reset_matrix)


def apply_affine_transform(x, theta=0, tx=0, ty=0, shear=0, zx=1, zy=1, row_axis=1, col_axis=2, channel_axis=0,
                           fill_mode="nearest", cval=0.0, order=1):
    """Rotate by `theta` degrees, shift by (tx, ty) pixels, shear by `shear` degrees and zoom by (zx, zy) one
    3-D image about its centre; points from outside the image follow `fill_mode` ("constant" with `cval`,
    "nearest", "reflect", "wrap")."""
    if np.unique([row_axis, col_axis, channel_axis]).size != 3:
        raise ValueError("'row_axis', 'col_axis', and 'channel_axis' must be distinct")
    actual = {row_axis, col_axis, channel_axis}
    if actual != {0, 1, 2}:
        raise ValueError(f"Invalid axis' indices: {actual - {0, 1, 2}}")
    x = np.asarray(x)
    if x.ndim != 3:
        raise ValueError("Input arrays must be multi-channel 2D images.")
    if channel_axis not in (0, 2):
        raise ValueError("Channels are allowed and the first and last dimensions.")
    matrix = None

    def then(m):
        return m if matrix is None else np.dot(matrix, m)

    if theta != 0:
        angle = np.deg2rad(theta)
        matrix = np.array([[np.cos(angle), -np.sin(angle), 0], [np.sin(angle), np.cos(angle), 0], [0, 0, 1]])
    if tx != 0 or ty != 0:
        matrix = then(np.array([[1, 0, tx], [0, 1, ty], [0, 0, 1]]))
    if shear != 0:
        angle = np.deg2rad(shear)
        matrix = then(np.array([[1, -np.sin(angle), 0], [0, np.cos(angle), 0], [0, 0, 1]]))
    if zx != 1 or zy != 1:
        matrix = then(np.array([[zx, 0, 0], [0, zy, 0], [0, 0, 1]]))
    if matrix is None:
        return x
    h, w = x.shape[row_axis], x.shape[col_axis]
    matrix = transform_matrix_offset_center(matrix, h, w)
    x = np.rollaxis(x, channel_axis, 0)
    if col_axis > row_axis:  # the matrix is in (x, y) order; numpy indexes (row, col): swap both
        matrix[:, [0, 1]] = matrix[:, [1, 0]]
        matrix[[0, 1]] = matrix[[1, 0]]
    channels = [affine_resample(channel, matrix[:2, :2], matrix[:2, 2], order=order, mode=fill_mode, cval=cval)
                for channel in x]
    return np.rollaxis(np.stack(channels, axis=0), 0, channel_axis + 1)


def random_rotation(x, rg, row_axis=1, col_axis=2, channel_axis=0, fill_mode="nearest", cval=0.0,
                    interpolation_order=1):
    """Rotate by an angle drawn uniformly from [-rg, rg] degrees."""
    theta = np.random.uniform(-rg, rg)
    return apply_affine_transform(x, theta=theta, row_axis=row_axis, col_axis=col_axis, channel_axis=channel_axis,
                                  fill_mode=fill_mode, cval=cval, order=interpolation_order)


def random_shift(x, wrg, hrg, row_axis=1, col_axis=2, channel_axis=0, fill_mode="nearest", cval=0.0,
                 interpolation_order=1):
    """Shift by fractions of the height and width drawn from [-hrg, hrg] and [-wrg, wrg]."""
    h, w = x.shape[row_axis], x.shape[col_axis]
    tx = np.random.uniform(-hrg, hrg) * h
    ty = np.random.uniform(-wrg, wrg) * w
    return apply_affine_transform(x, tx=tx, ty=ty, row_axis=row_axis, col_axis=col_axis, channel_axis=channel_axis,
                                  fill_mode=fill_mode, cval=cval, order=interpolation_order)


def random_shear(x, intensity, row_axis=1, col_axis=2, channel_axis=0, fill_mode="nearest", cval=0.0,
                 interpolation_order=1):
    """Shear by an angle drawn from [-intensity, intensity] degrees."""
    shear = np.random.uniform(-intensity, intensity)
    return apply_affine_transform(x, shear=shear, row_axis=row_axis, col_axis=col_axis, channel_axis=channel_axis,
                                  fill_mode=fill_mode, cval=cval, order=interpolation_order)


def random_zoom(x, zoom_range, row_axis=1, col_axis=2, channel_axis=0, fill_mode="nearest", cval=0.0,
                interpolation_order=1):
    """Zoom rows and columns by two factors drawn from zoom_range = (lower, upper)."""
    if len(zoom_range) != 2:
        raise ValueError(f"`zoom_range` should be a tuple or list of two floats. Received: {zoom_range}")
    if zoom_range[0] == 1 and zoom_range[1] == 1:
        zx, zy = 1, 1
    else:
        zx, zy = np.random.uniform(zoom_range[0], zoom_range[1], 2)
    return apply_affine_transform(x, zx=zx, zy=zy, row_axis=row_axis, col_axis=col_axis, channel_axis=channel_axis,
                                  fill_mode=fill_mode, cval=cval, order=interpolation_order)


def apply_channel_shift(x, intensity, channel_axis=0):
    """Add `intensity` to every channel, clipped to the image's own minimum and maximum."""
    x = np.rollaxis(np.asarray(x), channel_axis, 0)
    min_x, max_x = np.min(x), np.max(x)
    x = np.stack([np.clip(channel + intensity, min_x, max_x) for channel in x], axis=0)
    return np.rollaxis(x, 0, channel_axis + 1)


def random_channel_shift(x, intensity_range, channel_axis=0):
    """apply_channel_shift by an intensity drawn from [-intensity_range, intensity_range]."""
    intensity = np.random.uniform(-intensity_range, intensity_range)
    return apply_channel_shift(x, intensity, channel_axis=channel_axis)


def apply_brightness_shift(x, brightness, scale=True):
    """PIL's brightness enhancement by factor `brightness` (0: black, 1: unchanged) of a 3-D image; with
    scale=False an image outside [0, 255] comes back in its own range."""
    from PIL import ImageEnhance  # PIL is the image library keras.utils' image functions use too

    x = np.asarray(x)
    x_min, x_max = np.min(x), np.max(x)
    local_scale = (x_min < 0) or (x_max > 255)
    image = image_utils.array_to_img(x, scale=local_scale or scale)
    image = ImageEnhance.Brightness(image).enhance(brightness)
    x = image_utils.img_to_array(image)
    if not scale and local_scale:
        x = x / 255 * (x_max - x_min) + x_min
    return x


def random_brightness(x, brightness_range, scale=True):
    """apply_brightness_shift by a factor drawn from brightness_range = (lower, upper)."""
    if len(brightness_range) != 2:
        raise ValueError(f"`brightness_range should be tuple or list of two floats. Received: {brightness_range}")
    u = np.random.uniform(brightness_range[0], brightness_range[1])
    return apply_brightness_shift(x, u, scale)


def flip_axis(x, axis):
    return np.flip(np.asarray(x), axis)


__all__ = ["apply_affine_transform", "apply_brightness_shift", "apply_channel_shift", "random_brightness",
           "random_channel_shift", "random_rotation", "random_shear", "random_shift", "random_zoom"]
