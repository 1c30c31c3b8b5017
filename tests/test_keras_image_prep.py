"""Keras' image preprocessing layers beyond the TF-recorded numbers (tests/conformance/keras_image_prep_layers.py):
eager against tf.function (with input shapes unknown at trace time), dataset.map, .keras save and load,
gradients through the affine layers against finite differences, and the transform op against a plain numpy
reference of its sampling."""

from __future__ import annotations

import numpy as np
import pytest

import tinytf as tf
from tinytf.runtime.ops.image_transform import image_projective_transform_v3

L = tf.keras.layers


def _images(shape=(2, 7, 6, 3), seed=0):
    return np.random.default_rng(seed).uniform(0, 255, shape).astype("float32")


def _seeded():
    return [L.RandomFlip(seed=1), L.RandomRotation(0.2, seed=2), L.RandomZoom(0.2, 0.1, seed=3),
            L.RandomTranslation(0.2, 0.2, fill_mode="wrap", seed=4), L.RandomContrast(0.4, seed=5),
            L.RandomBrightness(0.2, seed=6), L.RandomGrayscale(0.5, seed=7), L.RandomHue(0.3, seed=9),
            L.RandomSaturation(0.7, seed=10), L.RandomColorJitter(brightness_factor=0.1, contrast_factor=0.2,
                                                                   saturation_factor=0.6, hue_factor=0.2, seed=11),
            L.RandomCrop(4, 4, seed=8)]


@pytest.mark.parametrize("index", range(11))
def test_eager_and_tf_function_draw_the_same_numbers(index):
    eager_layer, graph_layer = _seeded()[index], _seeded()[index]
    x = tf.constant(_images())
    step = tf.function(lambda images: graph_layer(images, training=True))
    for _ in range(2):  # the second call draws the seed generator's next state in both
        np.testing.assert_allclose(step(x).numpy(), eager_layer(x).numpy(), rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("index", range(10))
def test_unknown_shapes_at_trace_time(index):
    """Traced with None batch, height and width (one trace), the affine and colour layers keep their numbers."""
    eager_layer, graph_layer = _seeded()[index], _seeded()[index]
    step = tf.function(lambda images: graph_layer(images, training=True),
                       input_signature=[tf.TensorSpec([None, None, None, 3], tf.float32)])
    for shape in ((2, 7, 6, 3), (3, 5, 9, 3)):
        x = tf.constant(_images(shape))
        np.testing.assert_allclose(step(x).numpy(), eager_layer(x).numpy(), rtol=1e-5, atol=1e-4)
    assert step.experimental_get_tracing_count() == 1


def test_inference_passes_images_through():
    x = _images()
    for layer in _seeded():
        np.testing.assert_array_equal(layer(x, training=False).numpy(), x)


def test_training_default_is_true_and_draws_differ():
    layer = L.RandomRotation(0.3, seed=1)
    x = _images()
    first, second = layer(x).numpy(), layer(x).numpy()
    assert not np.allclose(first, x) and not np.allclose(first, second)


def test_dataset_map_applies_a_layer():
    x = _images((4, 6, 6, 3))
    layer = L.RandomFlip("horizontal", seed=3)
    mapped = tf.data.Dataset.from_tensor_slices(x).batch(2).map(lambda images: layer(images, training=True))
    batches = [b.numpy() for b in mapped]
    assert [b.shape for b in batches] == [(2, 6, 6, 3), (2, 6, 6, 3)]
    for batch, original in zip(batches, (x[:2], x[2:])):
        for image, source in zip(batch, original):  # each image is itself or its mirror
            assert np.array_equal(image, source) or np.array_equal(image, source[:, ::-1])
    resize = L.Resizing(3, 4)
    sized = list(tf.data.Dataset.from_tensor_slices(x).map(resize))
    assert sized[0].shape == (3, 4, 3)


def test_sequential_save_and_load_keeps_layers_and_predictions(tmp_path):
    model = tf.keras.Sequential([tf.keras.Input((8, 8, 3)), L.Resizing(6, 6), L.RandomFlip(seed=1),
                                 L.RandomRotation(0.1, fill_mode="constant", seed=2), L.RandomZoom(0.1, seed=3),
                                 L.RandomContrast(0.2, seed=4), L.Rescaling(1 / 255), L.Flatten(), L.Dense(2)])
    x = _images((2, 8, 8, 3))
    path = str(tmp_path / "augment.keras")
    model.save(path)
    restored = tf.keras.models.load_model(path)
    assert [type(layer).__name__ for layer in restored.layers] == [type(layer).__name__ for layer in model.layers]
    assert restored.layers[2].get_config() == model.layers[2].get_config()
    np.testing.assert_allclose(restored.predict(x, verbose=0), model.predict(x, verbose=0), rtol=1e-5)


@pytest.mark.parametrize("interpolation, fill_mode", [("BILINEAR", "REFLECT"), ("BILINEAR", "CONSTANT"),
                                                      ("NEAREST", "WRAP"), ("BILINEAR", "NEAREST")])
def test_transform_gradient_matches_finite_differences(interpolation, fill_mode):
    rng = np.random.default_rng(1)
    x = rng.uniform(-1, 1, (1, 4, 5, 2))
    weights = rng.uniform(-1, 1, (1, 6, 3, 2))
    transforms = tf.constant([[0.8, -0.6, 1.5, 0.6, 0.8, -1.0, 0.01, -0.02]])

    def loss(images):
        out = image_projective_transform_v3(images, transforms, [6, 3], 0.5, interpolation, fill_mode)
        return tf.reduce_sum(out * weights)

    images = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(images)
        value = loss(images)
    grad = tape.gradient(value, images).numpy()
    numeric = np.zeros_like(x)
    for index in np.ndindex(x.shape):
        step = np.zeros_like(x)
        step[index] = 1e-6
        numeric[index] = (float(loss(tf.constant(x + step))) - float(loss(tf.constant(x - step)))) / 2e-6
    np.testing.assert_allclose(grad, numeric, rtol=1e-6, atol=1e-8)
    graph_grad = tf.function(lambda v: _tape_grad(loss, v))(images)
    np.testing.assert_allclose(graph_grad.numpy(), grad, rtol=1e-12)


def _tape_grad(fn, v):
    with tf.GradientTape() as tape:
        tape.watch(v)
        y = fn(v)
    return tape.gradient(y, v)


def test_gradient_flows_through_augmentation_to_the_images():
    layer = L.RandomRotation(0.2, seed=3)
    x = tf.constant(_images((2, 5, 5, 1)))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(layer(x) ** 2)
    grad = tape.gradient(y, x)
    assert grad.shape == x.shape and float(tf.reduce_sum(tf.abs(grad))) > 0


def _reference_transform(images, transform, out_h, out_w, fill):
    """Bilinear CONSTANT-mode sampling written pixel by pixel, the slow way."""
    batch, height, width, channels = images.shape
    out = np.zeros((batch, out_h, out_w, channels), np.float64)
    a0, a1, a2, b0, b1, b2, c0, c1 = transform
    for b in range(batch):
        for y in range(out_h):
            for x in range(out_w):
                k = c0 * x + c1 * y + 1
                sx, sy = (a0 * x + a1 * y + a2) / k, (b0 * x + b1 * y + b2) / k
                x0, y0 = int(np.floor(sx)), int(np.floor(sy))
                total = 0.0
                for yy, wy in ((y0, y0 + 1 - sy), (y0 + 1, sy - y0)):
                    for xx, wx in ((x0, x0 + 1 - sx), (x0 + 1, sx - x0)):
                        inside = 0 <= yy < height and 0 <= xx < width
                        total = total + wy * wx * (images[b, yy, xx] if inside else fill)
                out[b, y, x] = total
    return out


def test_transform_matches_a_pixel_by_pixel_reference():
    images = np.random.default_rng(2).uniform(0, 1, (2, 5, 6, 2))
    transform = [0.9, 0.3, -0.7, -0.2, 1.1, 0.4, 0.02, -0.01]
    got = image_projective_transform_v3(images, tf.constant([transform]), [4, 7], 0.25, "BILINEAR", "CONSTANT")
    np.testing.assert_allclose(got.numpy(), _reference_transform(images, transform, 4, 7, 0.25), rtol=1e-5)


def test_transform_errors_name_the_problem():
    with pytest.raises(ValueError, match="fill_mode"):
        image_projective_transform_v3(np.zeros((1, 2, 2, 1), "float32"), tf.zeros((1, 8)), [2, 2],
                                      fill_mode="mirror")
    with pytest.raises(ValueError, match="num_images x 8"):
        image_projective_transform_v3(np.zeros((1, 2, 2, 1), "float32"), tf.zeros((1, 6)), [2, 2])
    with pytest.raises((TypeError, tf.errors.InvalidArgumentError), match="float32"):
        image_projective_transform_v3(np.zeros((1, 2, 2, 1), "float32"), tf.zeros((1, 8), tf.float64), [2, 2])


def test_resizing_keeps_integer_dtypes_and_shapes():
    x = np.random.default_rng(0).integers(0, 255, (2, 5, 7, 3)).astype("uint8")
    out = L.Resizing(4, 4)(x)
    assert out.dtype == tf.uint8 and out.shape == (2, 4, 4, 3)
    assert L.Resizing(3, 2).compute_output_shape((None, 9, 9, 3)) == (None, 3, 2, 3)
    assert L.CenterCrop(3, 2, data_format="channels_first").compute_output_shape((None, 3, 9, 9)) == (None, 3, 3, 2)
    bicubic = L.Resizing(3, 3, interpolation="bicubic")(x.astype("float32"))
    np.testing.assert_allclose(bicubic, tf.image.resize(x.astype("float32"), (3, 3), method="bicubic"))
    with pytest.raises(ValueError, match="interpolation=gaussian"):  # Keras' TF backend has no gaussian resize
        L.Resizing(3, 3, interpolation="gaussian")(x)


def test_rank_errors_name_the_layer():
    with pytest.raises(ValueError, match="random_flip.*rank 3 or 4"):
        L.RandomFlip(name="random_flip")(np.zeros((2, 3), "float32"))
