"""tf.image's colour-space, adjustment and measure functions (values recorded from TF 2.21 in
tests/conformance/keras_image_prep_tf_image.py): eager against tf.function, gradients against finite
differences where the function is smooth, round trips, and the random versions' seeding."""

from __future__ import annotations

import numpy as np
import pytest

import tinytf as tf


def _images(seed=0, shape=(2, 4, 5, 3)):
    return np.random.default_rng(seed).uniform(0.05, 0.95, shape)


FUNCTIONS = {
    "rgb_to_hsv": tf.image.rgb_to_hsv,
    "hsv_to_rgb": tf.image.hsv_to_rgb,
    "rgb_to_yiq": tf.image.rgb_to_yiq,
    "yuv_to_rgb": tf.image.yuv_to_rgb,
    "adjust_hue": lambda x: tf.image.adjust_hue(x, 0.3),
    "adjust_saturation": lambda x: tf.image.adjust_saturation(x, 0.6),
    "adjust_gamma": lambda x: tf.image.adjust_gamma(x, 1.7, 0.9),
    "total_variation": tf.image.total_variation,
    "image_gradients": lambda x: tf.stack(tf.image.image_gradients(x)),
    "sobel_edges": tf.image.sobel_edges,
    "psnr": lambda x: tf.image.psnr(x, x * 0.5, 1.0),
    "resize_with_pad": lambda x: tf.image.resize_with_pad(x, 7, 3),
}


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_graph_matches_eager(name):
    fn = FUNCTIONS[name]
    x = tf.constant(_images(), tf.float32)
    np.testing.assert_allclose(tf.function(fn, autograph=False)(x).numpy(), fn(x).numpy(), rtol=1e-6, atol=1e-6)


# Functions that compute in float32 whatever the input (as TF does): finite differences with a larger step.
IN_FLOAT32 = {"adjust_saturation", "adjust_gamma", "psnr", "resize_with_pad", "adjust_hue"}


@pytest.mark.parametrize("name", ["rgb_to_hsv", "hsv_to_rgb", "rgb_to_yiq", "adjust_saturation", "adjust_gamma",
                                  "sobel_edges", "psnr", "resize_with_pad", "adjust_hue"])
def test_gradients_match_finite_differences(name):
    fn = FUNCTIONS[name]
    eps, rtol, atol = (1e-3, 1e-2, 2e-3) if name in IN_FLOAT32 else (1e-6, 1e-4, 1e-6)
    x = _images(seed=3, shape=(1, 3, 3, 3))
    weights = np.random.default_rng(4).uniform(-1, 1, np.shape(fn(tf.constant(x)).numpy()))

    def loss(v):
        return tf.reduce_sum(tf.cast(fn(v), tf.float64) * weights)

    v = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(v)
        value = loss(v)
    grad = tape.gradient(value, v).numpy()
    numeric = np.zeros_like(x)
    for index in np.ndindex(x.shape):
        step = np.zeros_like(x)
        step[index] = eps
        numeric[index] = (float(loss(tf.constant(x + step))) - float(loss(tf.constant(x - step)))) / (2 * eps)
    np.testing.assert_allclose(grad, numeric, rtol=rtol, atol=atol)


def test_round_trips():
    x = tf.constant(_images(), tf.float32)
    np.testing.assert_allclose(tf.image.hsv_to_rgb(tf.image.rgb_to_hsv(x)).numpy(), x.numpy(), atol=1e-6)
    # TF's YIQ matrices are given to 8 digits: the round trip is exact to about 1e-4
    np.testing.assert_allclose(tf.image.yiq_to_rgb(tf.image.rgb_to_yiq(x)).numpy(), x.numpy(), atol=1e-4)
    np.testing.assert_allclose(tf.image.adjust_hue(tf.image.adjust_hue(x, 0.3), -0.3).numpy(), x.numpy(),
                               atol=1e-5)
    np.testing.assert_allclose(tf.image.adjust_saturation(x, 1.0).numpy(), x.numpy(), atol=1e-6)


def test_stateless_random_hue_and_saturation_repeat_with_their_seed():
    x = tf.constant(_images(), tf.float32)
    first = tf.image.stateless_random_hue(x, 0.2, (1, 2)).numpy()
    np.testing.assert_array_equal(first, tf.image.stateless_random_hue(x, 0.2, (1, 2)).numpy())
    assert not np.allclose(first, tf.image.stateless_random_hue(x, 0.2, (1, 3)).numpy())
    delta = tf.random.stateless_uniform([], (1, 2), -0.2, 0.2)
    np.testing.assert_allclose(first, tf.image.adjust_hue(x, delta).numpy())
    factor = tf.random.stateless_uniform([], (5, 6), 0.5, 1.5)
    np.testing.assert_allclose(tf.image.stateless_random_saturation(x, 0.5, 1.5, (5, 6)).numpy(),
                               tf.image.adjust_saturation(x, factor).numpy())
    tf.random.set_seed(3)
    a = tf.image.random_hue(x, 0.1, seed=4).numpy()
    tf.random.set_seed(3)
    np.testing.assert_array_equal(a, tf.image.random_hue(x, 0.1, seed=4).numpy())
    assert tf.image.random_saturation(x, 0.5, 2.0).shape == x.shape


def test_integer_images_come_back_in_their_dtype():
    u8 = tf.constant((_images() * 255).astype("uint8"))
    for out in (tf.image.adjust_hue(u8, 0.1), tf.image.adjust_saturation(u8, 2.0), tf.image.adjust_gamma(u8, 0.5)):
        assert out.dtype == tf.uint8 and out.shape == u8.shape
