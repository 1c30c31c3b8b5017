"""tf.image.ssim and ssim_multiscale as TensorFlow 2.21 computes them: float and uint8 images, single and
batched (and broadcast batches), other filter sizes, sigmas, K1/K2 and max_val, the index map, MS-SSIM with odd
sizes and other power factors; eagerly and in tf.function; gradients; the docstring's usage; the errors."""

from __future__ import annotations

import numpy as np

from . import data, outcome, program, val


def _pair(shape, seed):
    a = (np.abs(data(shape, seed=seed)) * 0.9).astype("float32")
    b = np.clip(a + data(shape, seed=seed + 1, scale=0.15), 0.0, 1.0).astype("float32")
    return a, b


@program
def p_image_more_ssim(tf):
    a, b = _pair([2, 24, 21, 3], 0)
    single_a, single_b = _pair([16, 16, 1], 2)
    return [val(tf.image.ssim(a, b, 1.0)), val(tf.image.ssim(a, a, 1.0)),
            val(tf.image.ssim(a, b, 2.0, filter_size=5, filter_sigma=0.8, k1=0.02, k2=0.05)),
            val(tf.image.ssim(single_a, single_b, 1.0)),
            val(tf.image.ssim(a[:1], b, 1.0)),
            val(tf.image.ssim(a.reshape(2, 1, 24, 21, 3), b, 1.0, filter_size=7)),
            val(tf.image.ssim(a, b, 1.0, filter_size=7, return_index_map=True)),
            val(tf.image.ssim(tf.cast(a, tf.float64), tf.cast(b, tf.float64), 1.0))]


@program
def p_image_more_ssim_docstring_usage(tf):
    a, b = _pair([32, 30, 3], 4)
    im1 = tf.image.convert_image_dtype(tf.constant(a), tf.uint8)
    im2 = tf.image.convert_image_dtype(tf.constant(b), tf.uint8)
    ssim1 = tf.image.ssim(im1, im2, max_val=255, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03)
    im1 = tf.image.convert_image_dtype(im1, tf.float32)
    im2 = tf.image.convert_image_dtype(im2, tf.float32)
    ssim2 = tf.image.ssim(im1, im2, max_val=1.0, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03)
    msssim = tf.image.ssim_multiscale(im1, im2, max_val=1.0, power_factors=(0.3, 0.7), filter_size=5)
    return [val(ssim1), val(ssim2), val(msssim)]


@program
def p_image_more_ssim_multiscale(tf):
    a, b = _pair([2, 97, 101, 2], 6)
    small_a, small_b = _pair([33, 35, 1], 8)
    return [val(tf.image.ssim_multiscale(a, b, 1.0, filter_size=5)),
            val(tf.image.ssim_multiscale(a, b, 1.0, power_factors=(0.2, 0.3, 0.5), filter_size=7,
                                         filter_sigma=1.0)),
            val(tf.image.ssim_multiscale(small_a, small_b, 1.0, power_factors=(0.5, 0.5), filter_size=3)),
            val(tf.image.ssim_multiscale(a, a, 1.0, filter_size=3))]


@program
def p_image_more_ssim_in_function_and_gradients(tf):
    a, b = _pair([1, 20, 18, 2], 10)

    @tf.function
    def grads(x, y):
        with tf.GradientTape() as tape:
            tape.watch(x)
            s = tf.reduce_sum(tf.image.ssim(x, y, 1.0, filter_size=5))
            m = tf.reduce_sum(tf.image.ssim_multiscale(x, y, 1.0, power_factors=(0.4, 0.6), filter_size=3))
            total = s + m
        return s, m, tape.gradient(total, x)

    return [val(grads(tf.constant(a), tf.constant(b)))]


@program
def p_image_more_ssim_errors(tf):
    a, b = _pair([2, 8, 8, 1], 12)
    return [outcome(lambda: tf.image.ssim(a, b[:, :6], 1.0), "ncompatible"),
            outcome(lambda: tf.image.ssim(a[0, 0], b[0, 0], 1.0), "rank"),
            outcome(lambda: tf.image.ssim(a, b, 1.0), "to be true")]
