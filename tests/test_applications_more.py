"""ConvNeXt, EfficientNetV2, NASNet and InceptionResNetV2 beyond the TF-recorded programs
(tests/conformance/applications_more.py): the ImageNet weights path through keras.utils.get_file's cache with a
file made here (no network), eager against tf.function, and Conv2D's depthwise path for groups == channels
against the per-group convolutions with its gradient against finite differences."""

from __future__ import annotations

import os
import sys

import h5py
import numpy as np
import pytest

import tinytf as tf
from tinytf.keras.saving import legacy_h5

sys.path.insert(0, os.path.dirname(__file__))
from applications_fixtures import fixed_weights  # noqa: E402

A = tf.keras.applications


def test_imagenet_weights_are_fetched_under_keras_names_and_hashes(keras_home):
    """The family asks keras.utils.get_file for Keras' file at Keras' URL (offline here: the fetch fails)."""
    _, attempts = keras_home
    with pytest.raises(Exception, match="URL fetch failure"):
        A.EfficientNetV2B0(include_top=False, input_shape=(32, 32, 3))
    assert attempts == ["https://storage.googleapis.com/tensorflow/keras-applications/efficientnet_v2/"
                        "efficientnetv2-b0_notop.h5"]


def test_eager_tf_function_and_weights_file_agree(tmp_path):
    model = fixed_weights(A.EfficientNetV2B0(weights=None, include_top=False, pooling="avg", input_shape=(32, 32, 3)))
    x = np.random.default_rng(4).uniform(0, 255, (2, 32, 32, 3)).astype("float32")
    eager = model(x, training=False).numpy()
    graph = tf.function(lambda t: model(t, training=False))(tf.constant(x)).numpy()
    np.testing.assert_allclose(graph, eager, rtol=1e-5, atol=1e-5)
    path = str(tmp_path / "mine.h5")  # Keras 2's layout, as the published ImageNet files
    with h5py.File(path, "w") as f:
        legacy_h5.save_weights_to_hdf5_group(f, model)
    loaded = A.EfficientNetV2B0(weights=path, include_top=False, pooling="avg", input_shape=(32, 32, 3))
    np.testing.assert_allclose(loaded(x, training=False).numpy(), eager, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("filters,strides,dilation,padding", [(12, 1, 1, "same"), (6, 2, 1, "valid"),
                                                             (18, 1, 2, "same")])
def test_conv2d_groups_equal_to_channels_is_a_depthwise_convolution(filters, strides, dilation, padding):
    """ConvNeXt's 7x7 blocks: Conv2D(groups=channels) against the per-group convolutions, eagerly and in
    tf.function, and its input gradient against finite differences."""
    layer = tf.keras.layers.Conv2D(filters, 3, strides=strides, dilation_rate=dilation, padding=padding, groups=6)
    x = tf.constant(np.random.default_rng(0).normal(size=(2, 9, 9, 6)), dtype=tf.float32)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = layer(x)
        loss = tf.reduce_sum(y * y)
    kernel, bias = layer.kernel.numpy(), layer.bias.numpy()
    per = filters // 6
    expected = np.concatenate([
        tf.nn.conv2d(x[..., g:g + 1], kernel[..., g * per:(g + 1) * per], strides=strides, padding=padding.upper(),
                     dilations=dilation).numpy() for g in range(6)], -1) + bias
    np.testing.assert_allclose(y.numpy(), expected, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(tf.function(layer)(x).numpy(), expected, rtol=1e-5, atol=1e-5)
    grad, base, eps = tape.gradient(loss, x).numpy(), x.numpy().astype("float64"), 1e-2
    for index in [(0, 0, 0, 0), (1, 4, 5, 3), (0, 8, 8, 5)]:
        plus, minus = base.copy(), base.copy()
        plus[index] += eps
        minus[index] -= eps
        numeric = (float(np.sum(layer(plus.astype("float32")).numpy() ** 2))
                   - float(np.sum(layer(minus.astype("float32")).numpy() ** 2))) / (2 * eps)
        np.testing.assert_allclose(grad[index], numeric, rtol=2e-2, atol=2e-2)
