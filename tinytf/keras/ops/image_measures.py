"""keras.ops.image's measuring and patch functions as Keras 3.15 computes them on TensorFlow: sobel_edges (TF's
tf.image.sobel_edges, [dy, dx] on a last axis), ssim (Keras' own backend-agnostic SSIM: a valid-padded Gaussian
window per channel, the mean over pixels then channels; not tf.image.ssim, whose constants and averaging
differ) and extract_patches_3d (a 3-D convolution with one-hot kernels, as extract_patches does in 2-D)."""

from __future__ import annotations

import numpy as np

import tinytf as tf

from .core import cast, convert_to_tensor
from .dtype_rules import result_type
from .nn import _data_format


def sobel_edges(images, data_format=None):
    """(N, H, W, C, 2) Sobel responses [dy, dx] (channels_first: (N, C, H, W, 2)), edges reflect-padded."""
    data_format = _data_format(data_format)
    images = convert_to_tensor(images)
    if data_format == "channels_first":
        images = tf.transpose(images, (0, 2, 3, 1))
    edges = tf.image.sobel_edges(images)
    if data_format == "channels_first":
        edges = tf.transpose(edges, (0, 3, 1, 2, 4))
    return edges


def _check_image_rank(image, name):
    if len(image.shape) not in (3, 4):
        raise ValueError(f"Invalid {name} rank: expected rank 3 (single image) or rank 4 (batch of images). "
                         f"Received input with shape: {name}.shape={tuple(image.shape)}")


def _gaussian_window(size, sigma, dtype):
    grid = tf.range(size, dtype=dtype) - (size - 1) / 2.0
    one_d = tf.exp(-(grid ** 2) / (2.0 * sigma ** 2))
    one_d = one_d / tf.reduce_sum(one_d)
    return tf.reshape(tf.tensordot(one_d, one_d, axes=0), (size, size, 1, 1))


def ssim(image1, image2, max_val=1.0, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03, data_format=None):
    """Structural similarity of image pairs: one value per pair (a scalar for single images), in image1's dtype."""
    data_format = _data_format(data_format)
    image1, image2 = convert_to_tensor(image1), convert_to_tensor(image2)
    original_dtype = image1.dtype
    dtype = result_type(image1.dtype, float)
    image1, image2 = cast(image1, dtype), cast(image2, dtype)
    _check_image_rank(image1, "image1")
    _check_image_rank(image2, "image2")
    single = len(image1.shape) == 3
    if single:
        image1, image2 = image1[None], image2[None]
    if data_format == "channels_first":
        image1, image2 = tf.transpose(image1, (0, 2, 3, 1)), tf.transpose(image2, (0, 2, 3, 1))
    shape = tf.shape(image1)
    kernel = _gaussian_window(filter_size, filter_sigma, dtype)
    c1, c2 = (k1 * max_val) ** 2, (k2 * max_val) ** 2

    def per_channel(images):  # (B, H, W, C) -> (B*C, H, W, 1): every channel its own image
        return tf.reshape(tf.transpose(images, (0, 3, 1, 2)), tf.stack([-1, shape[1], shape[2], 1]))

    def blur(images):
        return tf.nn.conv2d(images, kernel, 1, "VALID")

    x, y = per_channel(image1), per_channel(image2)
    mu1, mu2 = blur(x), blur(y)
    mu1_sq, mu2_sq, mu12 = mu1 * mu1, mu2 * mu2, mu1 * mu2
    sigma1_sq, sigma2_sq, sigma12 = blur(x * x) - mu1_sq, blur(y * y) - mu2_sq, blur(x * y) - mu12
    index_map = ((2.0 * mu12 + c1) * (2.0 * sigma12 + c2)) / ((mu1_sq + mu2_sq + c1) * (sigma1_sq + sigma2_sq + c2))
    per_image = tf.reshape(tf.reduce_mean(index_map, axis=[1, 2, 3]), tf.stack([shape[0], shape[3]]))
    result = tf.reduce_mean(per_image, axis=-1)
    if single:
        result = tf.squeeze(result, 0)
    return cast(result, original_dtype)


def extract_patches_3d(volumes, size, strides=None, dilation_rate=1, padding="valid", data_format=None):
    """size (d, h, w) patches of volumes (4-D, or 5-D batched) as channels ordered (depth, row, col, channel)."""
    if isinstance(size, int):
        size = (size, size, size)
    elif len(size) != 3:
        raise TypeError(f"Invalid `size` argument. Expected an int or a tuple of length 3. Received: size={size}")
    size = tuple(size)
    if strides is None:
        strides = size
    if isinstance(strides, int):
        strides = (strides, strides, strides)
    if len(strides) != 3:
        raise ValueError(f"Invalid `strides` argument. Got: {strides}")
    data_format = _data_format(data_format)
    volumes = convert_to_tensor(volumes)
    single = len(volumes.shape) == 4
    x = volumes[None] if single else volumes
    if data_format == "channels_first":
        x = tf.transpose(x, (0, 2, 3, 4, 1))
    channels = x.shape[-1]
    kernel = np.eye(size[0] * size[1] * size[2] * channels).reshape(*size, channels, -1)
    dilation = [dilation_rate] * 3 if isinstance(dilation_rate, int) else list(dilation_rate)
    out = tf.nn.convolution(x, tf.constant(kernel, x.dtype), strides=list(strides), padding=padding.upper(),
                            dilations=dilation)
    if data_format == "channels_first":
        out = tf.transpose(out, (0, 4, 1, 2, 3))
    return out[0] if single else out


__all__ = ["extract_patches_3d", "sobel_edges", "ssim"]
