"""keras.ops.image's resampling functions as Keras 3.15's TensorFlow backend computes them: affine_transform and
perspective_transform (TF's ImageProjectiveTransformV3; the perspective map solved from four point pairs),
map_coordinates (order 0/1 interpolation of an N-d array at given coordinates), elastic_transform (a seeded
Gaussian-smoothed displacement field) and scale_and_translate (separable resampling kernels, one axis at a
time). The layer helpers in keras/layers/preprocessing do the channels-last batch work; here are Keras' public
signatures, argument checks (same classes and messages), unbatched images and data_format."""

from __future__ import annotations

import itertools

import numpy as np

import tinytf as tf
from tinytf.keras.layers.preprocessing.image_elastic import elastic_transform as _elastic_batch
from tinytf.keras.layers.preprocessing.image_elastic import fold_index, sample_nodes
from tinytf.keras.layers.preprocessing.image_geometric_more import homography_matrix
from tinytf.runtime.ops.image_transform import image_projective_transform_v3

from .core import convert_to_tensor
from .dtype_rules import result_type
from .nn import _data_format

_INTERPOLATIONS = ("nearest", "bilinear")
_FILL_MODES = ("constant", "nearest", "wrap", "reflect")  # TF's kernel has no "mirror"
_MAP_FILL_MODES = {"constant", "nearest", "wrap", "mirror", "reflect"}
_SCALE_METHODS = {"linear", "bilinear", "trilinear", "cubic", "bicubic", "tricubic", "lanczos3", "lanczos5"}


def _check_interpolation(interpolation):
    if interpolation not in _INTERPOLATIONS:
        raise ValueError(f"Invalid value for argument `interpolation`. Expected of one {_INTERPOLATIONS}. "
                         f"Received: interpolation={interpolation}")


def _check_fill_mode(fill_mode):
    if fill_mode not in _FILL_MODES:
        raise ValueError(f"Invalid value for argument `fill_mode`. Expected of one {_FILL_MODES}. Received: "
                         f"fill_mode={fill_mode}")


def _check_rank(images):
    if len(images.shape) not in (3, 4):
        raise ValueError("Invalid images rank: expected rank 3 (single image) or rank 4 (batch of images). "
                         f"Received input with shape: images.shape={tuple(images.shape)}")


def _as_batch_last(images, data_format):
    """(channels-last batch, whether the input was one image)."""
    single = len(images.shape) == 3
    x = tf.expand_dims(images, 0) if single else images
    if data_format == "channels_first":
        x = tf.transpose(x, (0, 2, 3, 1))
    return x, single


def _restore(x, single, data_format):
    if data_format == "channels_first":
        x = tf.transpose(x, (0, 3, 1, 2))
    return tf.squeeze(x, 0) if single else x


def _projective(images, transform, interpolation, fill_mode, fill_value):
    out = image_projective_transform_v3(images, tf.cast(transform, "float32"), tf.shape(images)[1:-1],
                                        fill_value=fill_value, interpolation=interpolation.upper(),
                                        fill_mode=fill_mode.upper())
    return tf.ensure_shape(out, images.shape)


def affine_transform(images, transform, interpolation="bilinear", fill_mode="constant", fill_value=0,
                     data_format=None):
    """Each image sampled at ((a0 x + a1 y + a2) / k, (b0 x + b1 y + b2) / k), k = c0 x + c1 y + 1, for the
    transform rows [a0, a1, a2, b0, b1, b2, c0, c1] (one row, or one per image)."""
    data_format = _data_format(data_format)
    _check_interpolation(interpolation)
    _check_fill_mode(fill_mode)
    images, transform = convert_to_tensor(images), convert_to_tensor(transform)
    _check_rank(images)
    if len(transform.shape) not in (1, 2):
        raise ValueError("Invalid transform rank: expected rank 1 (single transform) or rank 2 (batch of "
                         f"transforms). Received input with shape: transform.shape={tuple(transform.shape)}")
    x, single = _as_batch_last(images, data_format)
    if len(transform.shape) == 1:
        transform = tf.expand_dims(transform, 0)
    return _restore(_projective(x, transform, interpolation, fill_mode, fill_value), single, data_format)


def _check_points(points, name):
    if len(points.shape) not in (2, 3) or tuple(points.shape[-2:]) != (4, 2):
        raise ValueError(f"Invalid {name} shape: expected (4,2) for a single image or (N,4,2) for a batch. "
                         f"Received shape: {points.shape}")


def perspective_transform(images, start_points, end_points, interpolation="bilinear", fill_value=0,
                          data_format=None):
    """Images warped so that the four start_points land on the four end_points ((x, y) corners; one set, or
    one per image); outside pixels take fill_value."""
    data_format = _data_format(data_format)
    start_points = tf.cast(convert_to_tensor(start_points), "float32")
    end_points = tf.cast(convert_to_tensor(end_points), "float32")
    _check_interpolation(interpolation)
    images = convert_to_tensor(images)
    _check_rank(images)
    _check_points(start_points, "start_points")
    _check_points(end_points, "end_points")
    if start_points.shape != end_points.shape:
        raise ValueError(f"start_points and end_points must have the same shape. Received start_points.shape="
                         f"{start_points.shape}, end_points.shape={end_points.shape}")
    x, single = _as_batch_last(images, data_format)
    if len(start_points.shape) == 2:
        start_points, end_points = start_points[None], end_points[None]
    transform = tf.reshape(homography_matrix(start_points, end_points), [-1, 8])
    return _restore(_projective(x, transform, interpolation, "constant", fill_value), single, data_format)


def map_coordinates(inputs, coordinates, order, fill_mode="constant", fill_value=0):
    """inputs (rank R) interpolated at coordinates (R, *out): nearest (order 0) or linear (order 1) in every
    axis, points outside handled by fill_mode (note "mirror" and "reflect" differ at the far edge)."""
    inputs = convert_to_tensor(inputs)
    coordinates = convert_to_tensor(coordinates)
    if coordinates.shape[0] != len(inputs.shape):
        raise ValueError("First dim of `coordinates` must be the same as the rank of `inputs`. Received inputs "
                         f"with shape: {inputs.shape} and coordinate leading dim of {coordinates.shape[0]}")
    if len(coordinates.shape) < 2:
        raise ValueError(f"Invalid coordinates rank: expected at least rank 2. Received input with shape: "
                         f"{coordinates.shape}")
    if fill_mode not in _MAP_FILL_MODES:
        raise ValueError(f"Invalid value for argument `fill_mode`. Expected one of {_MAP_FILL_MODES}. Received: "
                         f"fill_mode={fill_mode}")
    if order not in (0, 1):
        raise NotImplementedError("map_coordinates currently requires order<=1")
    axes = []
    for axis, coordinate in enumerate(tf.unstack(coordinates, axis=0)):
        size = inputs.shape[axis]
        axes.append([(*fold_index(index, size, fill_mode), weight)
                     for index, weight in sample_nodes(coordinate, order)])
    total = None
    for corner in itertools.product(*axes):
        indices, valid, weights = zip(*corner)
        weight = weights[0]
        for w in weights[1:]:
            weight = weight * w
        gathered = tf.cast(tf.gather_nd(inputs, tf.stack(indices, axis=-1)), weight.dtype)
        if fill_mode == "constant":
            inside = valid[0]
            for v in valid[1:]:
                inside = inside & v
            gathered = tf.where(inside, gathered, tf.cast(fill_value, weight.dtype))
        term = weight * gathered
        total = term if total is None else total + term
    if inputs.dtype.is_integer:
        total = tf.round(total)
    return tf.cast(total, inputs.dtype)


def elastic_transform(images, alpha=20.0, sigma=5.0, interpolation="bilinear", fill_mode="reflect",
                      fill_value=0.0, seed=None, data_format=None):
    """Images displaced by alpha * a standard-normal field (drawn from `seed`) smoothed by a Gaussian of width
    sigma, sampled with map_coordinates' rules."""
    data_format = _data_format(data_format)
    _check_interpolation(interpolation)
    _check_fill_mode(fill_mode)
    images = convert_to_tensor(images)
    _check_rank(images)
    x, single = _as_batch_last(images, data_format)
    out = _elastic_batch(x, alpha, sigma, interpolation, fill_mode, fill_value, seed)
    return _restore(out, single, data_format)


def _triangle(x):
    return tf.maximum(tf.zeros_like(x), 1 - tf.abs(x))


def _keys_cubic(x):
    out = ((1.5 * x - 2.5) * x) * x + 1.0
    out = tf.where(x >= 1.0, ((-0.5 * x + 2.5) * x - 4.0) * x + 2.0, out)
    return tf.where(x >= 2.0, tf.zeros_like(x), out)


def _lanczos(radius):
    def kernel(x):
        y = radius * tf.sin(np.pi * x) * tf.sin(np.pi * x / radius)
        ones = tf.ones_like(x)
        out = tf.where(x > 1e-3, y / tf.where(x != 0, np.pi ** 2 * x ** 2, ones), ones)
        return tf.where(x > radius, tf.zeros_like(x), out)
    return kernel


_KERNELS = {"linear": _triangle, "cubic": _keys_cubic, "lanczos3": _lanczos(3.0), "lanczos5": _lanczos(5.0)}


def _weight_matrix(input_size, output_size, scale, translation, kernel, antialias):
    """(input_size, output_size) weights: output sample j reads input i with kernel(|sample_j - i| / width),
    normalized per output and zero for samples outside the input."""
    dtype = scale.dtype
    inv_scale = 1.0 / scale
    kernel_scale = tf.maximum(inv_scale, tf.ones_like(inv_scale)) if antialias else 1.0
    sample = (tf.range(output_size, dtype=dtype) + 0.5) * inv_scale - translation * inv_scale - 0.5
    distance = tf.abs(sample[None, :] - tf.range(input_size, dtype=dtype)[:, None]) / kernel_scale
    weights = kernel(distance)
    total = tf.reduce_sum(weights, axis=0, keepdims=True)
    zeros = tf.zeros_like(weights)
    weights = tf.where(tf.abs(total) > 1000.0 * float(np.finfo(np.float32).eps),
                       weights / tf.where(total != 0, total, tf.ones_like(total)), zeros)
    inside = (sample >= -0.5) & (sample <= tf.cast(input_size, dtype) - 0.5)
    return tf.where(inside[None, :], weights, zeros)


def scale_and_translate(images, output_shape, scale, translation, spatial_dims, method, antialias=True):
    """A new array of output_shape resampled from images: along each spatial_dims[i], input location x maps to
    x * scale[i] + translation[i] (half-centred pixels); samples outside the input are zero."""
    if method not in _SCALE_METHODS:
        raise ValueError(f"Invalid value for argument `method`. Expected of one {_SCALE_METHODS}. Received: "
                         f"method={method}")
    if method in ("bilinear", "trilinear"):
        method = "linear"
    elif method in ("bicubic", "tricubic"):
        method = "cubic"
    images = convert_to_tensor(images)
    scale, translation = convert_to_tensor(scale), convert_to_tensor(translation)
    dtype = result_type(scale.dtype, translation.dtype)
    scale, translation = tf.cast(scale, dtype), tf.cast(translation, dtype)
    if len(spatial_dims) == 0:
        return images
    rank = len(images.shape)
    rounding = images.dtype.is_integer
    output = tf.cast(images, "float32") if rounding else tf.identity(images)
    input_shape = tf.shape(images)
    for i, dim in enumerate(spatial_dims):
        dim = dim % rank
        weights = tf.cast(_weight_matrix(input_shape[dim], output_shape[dim], scale[i], translation[i],
                                         _KERNELS[method], antialias), output.dtype)
        output = tf.tensordot(output, weights, axes=[[dim], [0]])
        order = list(range(rank - 1))
        order.insert(dim, rank - 1)
        output = tf.transpose(output, order)  # the resampled axis back in its place
    if rounding:
        output = tf.clip_by_value(tf.round(output), tf.cast(tf.reduce_min(images), "float32"),
                                  tf.cast(tf.reduce_max(images), "float32"))
        output = tf.cast(output, images.dtype)
    return output


__all__ = ["affine_transform", "elastic_transform", "map_coordinates", "perspective_transform",
           "scale_and_translate"]
