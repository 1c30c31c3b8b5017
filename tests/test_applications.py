"""keras.applications beyond the TF-recorded conformance programs (tests/conformance/keras_applications.py):
the ImageNet weights path through keras.utils.get_file's cache with a weights file made here (no network),
the legacy .h5 reader, eager against tf.function, gradients against finite differences, decode_predictions."""

from __future__ import annotations

import os
import sys

import h5py
import numpy as np
import pytest

import tinytf as tf
from tinytf.keras.applications import imagenet_utils
from tinytf.keras.saving import legacy_h5

sys.path.insert(0, os.path.dirname(__file__))
from applications_fixtures import fixed_weights  # noqa: E402

A = tf.keras.applications


def _write_legacy(model, path):
    with h5py.File(path, "w") as f:
        legacy_h5.save_weights_to_hdf5_group(f, model)


def test_imagenet_weights_come_from_the_cache_under_keras_file_name(keras_home):
    home, attempts = keras_home
    source = fixed_weights(A.MobileNetV2(weights=None, include_top=False, input_shape=(96, 96, 3), alpha=0.35))
    name = "mobilenet_v2_weights_tf_dim_ordering_tf_kernels_0.35_96_no_top.h5"
    _write_legacy(source, home / "models" / name)
    loaded = A.MobileNetV2(weights="imagenet", include_top=False, input_shape=(96, 96, 3), alpha=0.35)
    assert attempts == []
    for a, b in zip(source.weights, loaded.weights):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    x = np.random.default_rng(1).uniform(-1, 1, (1, 96, 96, 3)).astype("float32")
    np.testing.assert_allclose(loaded(x).numpy(), source(x).numpy(), rtol=1e-5, atol=1e-6)


def test_missing_weights_without_network_raise_keras_fetch_error(keras_home):
    home, attempts = keras_home
    with pytest.raises(Exception, match="URL fetch failure on https://storage.googleapis.com/tensorflow/"
                                        "keras-applications/mobilenet/mobilenet_2_5_128_tf_no_top.h5"):
        A.MobileNet(weights="imagenet", include_top=False, alpha=0.25, input_shape=(128, 128, 3))
    assert len(attempts) == 1
    assert not os.listdir(home / "models")


def test_a_cached_file_with_the_wrong_hash_is_downloaded_again(keras_home):
    """ResNet's weights carry Keras' md5: a file of ours fails it, so Keras fetches the real one (and fails
    offline, removing nothing but its own partial download)."""
    home, attempts = keras_home
    model = A.ResNet50(weights=None, include_top=False, input_shape=(32, 32, 3))
    path = home / "models" / "resnet50_weights_tf_dim_ordering_tf_kernels_notop.h5"
    _write_legacy(model, path)
    with pytest.raises(Exception, match="URL fetch failure"):
        A.ResNet50(weights="imagenet", include_top=False, input_shape=(32, 32, 3))
    assert attempts == ["https://storage.googleapis.com/tensorflow/keras-applications/resnet/"
                        "resnet50_weights_tf_dim_ordering_tf_kernels_notop.h5"]


def test_weights_given_as_a_legacy_file_path(tmp_path):
    source = fixed_weights(A.ResNet50V2(weights=None, include_top=False, input_shape=(32, 32, 3)), seed=3)
    path = str(tmp_path / "mine.h5")
    _write_legacy(source, path)
    loaded = A.ResNet50V2(weights=path, include_top=False, input_shape=(32, 32, 3))
    x = np.random.default_rng(2).uniform(-1, 1, (2, 32, 32, 3)).astype("float32")
    np.testing.assert_allclose(loaded(x).numpy(), source(x).numpy(), rtol=1e-5, atol=1e-6)


def test_legacy_reader_errors_leave_the_model_untouched(tmp_path):
    small = A.MobileNet(weights=None, include_top=False, input_shape=(32, 32, 3))
    path = str(tmp_path / "mobilenet.h5")
    _write_legacy(small, path)
    other = A.MobileNetV2(weights=None, include_top=False, input_shape=(32, 32, 3))
    with pytest.raises(ValueError, match="Layer count mismatch"):
        other.load_weights(path)
    wider = A.MobileNet(weights=None, include_top=False, input_shape=(32, 32, 3), alpha=0.5)
    before = [w.numpy().copy() for w in wider.weights]
    with pytest.raises(ValueError, match="Shape mismatch in layer #0"):
        wider.load_weights(path)
    for value, w in zip(before, wider.weights):
        np.testing.assert_array_equal(value, w.numpy())


@pytest.mark.parametrize("builder", ["MobileNet", "MobileNetV2", "ResNet50V2"])
def test_eager_and_tf_function_agree(builder):
    model = fixed_weights(getattr(A, builder)(weights=None, input_shape=(32, 32, 3), classes=4,
                                       classifier_activation=None), seed=5)
    x = np.random.default_rng(4).uniform(-1, 1, (2, 32, 32, 3)).astype("float32")
    eager = model(x, training=False).numpy()
    graph = tf.function(lambda t: model(t, training=False))(tf.constant(x)).numpy()
    np.testing.assert_allclose(graph, eager, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(model.predict(x, verbose=0), eager, rtol=1e-5, atol=1e-5)


def test_input_gradient_matches_finite_differences():
    model = fixed_weights(A.MobileNet(weights=None, input_shape=(32, 32, 3), classes=3, alpha=0.25,
                               classifier_activation=None), seed=6)
    x = tf.constant(np.random.default_rng(7).uniform(-1, 1, (1, 32, 32, 3)), dtype=tf.float64)
    model64 = A.MobileNet(weights=None, input_shape=(32, 32, 3), classes=3, alpha=0.25,
                          classifier_activation=None)
    del model64  # the builders make float32 models; differentiate in float32 with a loose step
    x = tf.cast(x, tf.float32)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(model(x, training=False) * tf.constant([1.0, -2.0, 0.5]))
    grad = tape.gradient(y, x).numpy()
    base = x.numpy()
    eps = 1e-2
    for index in [(0, 0, 0, 0), (0, 15, 16, 1), (0, 31, 31, 2), (0, 7, 20, 0)]:
        plus, minus = base.copy(), base.copy()
        plus[index] += eps
        minus[index] -= eps
        weights = np.array([1.0, -2.0, 0.5], dtype="float32")
        numeric = ((model(plus, training=False).numpy() * weights).sum()
                   - (model(minus, training=False).numpy() * weights).sum()) / (2 * eps)
        np.testing.assert_allclose(grad[index], numeric, rtol=5e-2, atol=5e-3)


def test_training_a_headless_model_updates_batchnorm_statistics():
    model = A.MobileNetV2(weights=None, include_top=False, pooling="avg", input_shape=(32, 32, 3), alpha=0.35)
    head = tf.keras.Sequential([model, tf.keras.layers.Dense(2)])
    head.compile(optimizer="sgd", loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    x = np.random.default_rng(0).uniform(-1, 1, (4, 32, 32, 3)).astype("float32")
    mean_before = model.get_layer("bn_Conv1").moving_mean.numpy().copy()
    head.fit(x, np.array([0, 1, 0, 1]), epochs=1, batch_size=4, verbose=0)
    assert not np.allclose(mean_before, model.get_layer("bn_Conv1").moving_mean.numpy())


def test_decode_predictions_sorts_the_top_classes(monkeypatch):
    index = {str(i): [f"n{i:08d}", f"class_{i}"] for i in range(1000)}
    monkeypatch.setattr(imagenet_utils, "CLASS_INDEX", index)
    preds = np.zeros((2, 1000), dtype="float32")
    preds[0, [3, 700, 42]] = [0.5, 0.3, 0.2]
    preds[1, 999] = 1.0
    decoded = A.resnet50.decode_predictions(preds, top=3)
    assert [entry[:2] for entry in decoded[0]] == [("n00000003", "class_3"), ("n00000700", "class_700"),
                                                   ("n00000042", "class_42")]
    assert decoded[1][0][1] == "class_999" and decoded[1][0][2] == pytest.approx(1.0)
    assert len(A.mobilenet_v2.decode_predictions(tf.constant(preds), top=5)[1]) == 5


def test_preprocess_input_on_a_symbolic_tensor_builds_into_the_model():
    inputs = tf.keras.Input((8, 8, 3))
    outputs = A.vgg16.preprocess_input(inputs)
    model = tf.keras.Model(inputs, outputs)
    x = np.random.default_rng(0).uniform(0, 255, (2, 8, 8, 3)).astype("float32")
    expected = x[..., ::-1] - np.array([103.939, 116.779, 123.68], dtype="float32")
    np.testing.assert_allclose(model(x).numpy(), expected, rtol=1e-6, atol=1e-4)


def test_efficientnet_rejects_a_stage_without_blocks():
    stage = {"kernel_size": 3, "repeats": 0, "filters_in": 32, "filters_out": 16, "expand_ratio": 1,
             "id_skip": True, "strides": 1, "se_ratio": 0.25}
    with pytest.raises(ValueError, match=r"must be > 0. Received: repeats=0"):
        A.efficientnet.EfficientNet(1.0, 1.0, 64, weights=None, blocks_args=[stage])


def test_efficientnet_preprocess_input_is_the_identity_and_the_model_normalizes():
    x = np.full((1, 32, 32, 3), 255.0, dtype="float32")
    assert A.efficientnet.preprocess_input(x) is x
    model = A.EfficientNetB0(weights=None, include_top=False, input_shape=(32, 32, 3))
    rescaled = tf.keras.Model(model.input, model.get_layer("stem_conv_pad").output)
    np.testing.assert_allclose(rescaled(x).numpy()[0, :32, :32], 1.0, rtol=1e-3)  # x/255; padding after
