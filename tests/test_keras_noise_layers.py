"""The noise layers' training behaviour: GaussianNoise and GaussianDropout have the noise statistics Keras
documents and draw fresh noise on every call of a traced step; the spatial dropouts keep dropout's mean; all
pass gradients through; nothing changes in inference."""

from __future__ import annotations

import numpy as np
import pytest

import tinytf as tf

L = tf.keras.layers


@pytest.mark.parametrize("layer, mean, std", [(L.GaussianNoise(0.3), 0.0, 0.3),
                                              (L.GaussianDropout(0.2), 1.0, np.sqrt(0.2 / 0.8))])
def test_noise_statistics_and_fresh_draws_in_graphs(passes, layer, mean, std):
    ones = tf.ones([200, 200])

    @tf.function
    def noisy(x):
        return layer(x, training=True)

    first, second = noisy(ones).numpy(), noisy(ones).numpy()
    noise = first - 1.0 if mean == 0.0 else first
    assert abs(noise.mean() - mean) < 0.01 and abs(noise.std() - std) < 0.01
    assert not np.array_equal(first, second)
    np.testing.assert_array_equal(layer(ones, training=False).numpy(), ones.numpy())


@pytest.mark.parametrize("layer, shape", [(L.SpatialDropout1D(0.3), (400, 10, 8)),
                                          (L.SpatialDropout2D(0.3), (200, 4, 4, 8))])
def test_spatial_dropout_keeps_the_mean_and_passes_gradients(layer, shape):
    x = tf.ones(shape)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = layer(x, training=True)
        total = tf.reduce_sum(y)
    assert abs(float(tf.reduce_mean(y)) - 1.0) < 0.05
    grad = tape.gradient(total, x).numpy()
    np.testing.assert_array_equal(grad, y.numpy())  # the gradient is the mask, scaled


def test_activity_regularization_penalty_is_per_example():
    x = tf.constant([[1.0, -2.0], [3.0, 0.5]])
    layer = L.ActivityRegularization(l1=0.1, l2=0.01)
    layer(x)
    want = (0.1 * np.abs(x.numpy()).sum() + 0.01 * (x.numpy() ** 2).sum()) / 2  # Keras averages over the batch
    np.testing.assert_allclose(float(layer.losses[0]), want, rtol=1e-6)
