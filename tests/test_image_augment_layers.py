"""Keras 3's later image augmentation layers beyond the TF-recorded numbers (tests/conformance/
keras_augment_layers.py): eager against tf.function with shapes unknown at trace time, tf.data map, .keras save
and load, dict inputs, numpy references of each layer's arithmetic, and gradients against finite
differences."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

import tinytf as tf
from tinytf.keras.layers.preprocessing.image_elastic import map_coordinates
from tinytf.keras.layers.preprocessing.image_geometric_more import homography_matrix

L = tf.keras.layers


def _images(shape=(2, 7, 6, 3), seed=0):
    return np.random.default_rng(seed).uniform(0, 255, shape).astype("float32")


def _seeded():
    return [L.Solarization(0.2, 0.5, seed=1), L.RandomInvert(seed=2), L.RandomPosterization(5, seed=3),
            L.AutoContrast(), L.Equalization(), L.RandomColorDegeneration(0.5, seed=4), L.RandomSharpness(0.6, seed=5),
            L.RandomGaussianBlur(seed=6), L.RandomShear(0.2, 0.3, seed=7), L.RandomPerspective(seed=8),
            L.RandomErasing(seed=9), L.CutMix(seed=10), L.MixUp(seed=11), L.RandAugment(seed=12),
            L.RandomHeight(0.2, seed=14), L.RandomWidth(0.2, seed=15)]


@pytest.mark.parametrize("index", range(16))
def test_unknown_shapes_at_trace_time_keep_the_eager_numbers(index):
    """One trace with None batch, height and width; each call draws the generator's next state in both."""
    eager_layer, graph_layer = _seeded()[index], _seeded()[index]
    step = tf.function(lambda images: graph_layer(images, training=True),
                       input_signature=[tf.TensorSpec([None, None, None, 3], tf.float32)])
    for shape in ((2, 7, 6, 3), (3, 5, 9, 3)):
        x = tf.constant(_images(shape))
        np.testing.assert_allclose(step(x).numpy(), eager_layer(x).numpy(), rtol=1e-5, atol=1e-3)
    assert step.experimental_get_tracing_count() == 1


def test_augmix_picks_its_chains_once_per_trace_with_pythons_random():
    """Keras picks AugMix's operations with Python's random while tracing: the first traced call matches an
    eager call from the same Python state, later calls of the trace reuse the picks."""
    x = tf.constant(_images((2, 6, 6, 3)))
    random.seed(5)
    eager = L.AugMix(seed=3)(x).numpy()
    random.seed(5)
    graph_layer = L.AugMix(seed=3)
    step = tf.function(lambda images: graph_layer(images, training=True))
    np.testing.assert_allclose(step(x).numpy(), eager, rtol=1e-5, atol=1e-3)


def test_elastic_transform_with_run_time_sizes_in_a_trace():
    # unknown sizes work (Keras raises a TypeError there); an unknown batch takes its first image's field, as
    # Keras' op does, so a batch of one matches the eager result
    layer = L.RandomElasticTransform(seed=1)
    step = tf.function(lambda images: layer(images), input_signature=[tf.TensorSpec([None, None, None, 3])])
    np.testing.assert_array_equal(step(tf.constant(_images()[:1])).numpy(),
                                  L.RandomElasticTransform(seed=1)(_images()[:1]).numpy())
    graph_layer = L.RandomElasticTransform(seed=1)
    fixed = tf.function(lambda images: graph_layer(images))
    np.testing.assert_allclose(fixed(tf.constant(_images())).numpy(),
                               L.RandomElasticTransform(seed=1)(_images()).numpy(), rtol=1e-5, atol=1e-3)


def test_inference_passes_images_through_except_auto_contrast():
    x = _images()
    for layer in _seeded() + [L.RandomElasticTransform(seed=1), L.AugMix(seed=2)]:
        out = layer(x, training=False).numpy()
        if isinstance(layer, L.AutoContrast):  # not random: the same stretch in inference
            np.testing.assert_allclose(out, layer(x, training=True).numpy())
        else:
            np.testing.assert_array_equal(out, x)


def test_dataset_map_and_pipeline():
    x = _images((4, 6, 6, 3))
    pipeline = L.Pipeline([L.AutoContrast(), L.RandomInvert(0.5, seed=1), L.RandomSharpness(0.3, seed=2)])
    mapped = [b.numpy() for b in tf.data.Dataset.from_tensor_slices(x).batch(2).map(pipeline)]
    reference = L.Pipeline([L.AutoContrast(), L.RandomInvert(0.5, seed=1), L.RandomSharpness(0.3, seed=2)])
    for batch, source in zip(mapped, (x[:2], x[2:])):
        np.testing.assert_allclose(batch, reference(source).numpy(), rtol=1e-5, atol=1e-3)
    per_image = list(tf.data.Dataset.from_tensor_slices(x).map(L.Solarization(0.1, 0.5, seed=3)))
    assert len(per_image) == 4 and per_image[0].shape == (6, 6, 3)


def test_sequential_save_and_load_keeps_the_new_layers(tmp_path):
    """(RandomShear with a number factor stores (-f, f), which its own check refuses on loading, in Keras as
    here: the model saves its shear as a pair in [0, 1].)"""
    model = tf.keras.Sequential([tf.keras.Input((8, 8, 3)), L.Solarization(0.1, 0.2, seed=1),
                                 L.RandomShear((0.0, 0.1), seed=2), L.RandomErasing(0.5, seed=3),
                                 L.RandAugment(num_ops=1, seed=4), L.MixUp(seed=5),
                                 L.Pipeline([L.AutoContrast(), L.RandomSharpness(0.2, seed=6)]),
                                 L.Rescaling(1 / 255), L.Flatten(), L.Dense(2), L.ThresholdedReLU(0.1)])
    x = _images((2, 8, 8, 3))
    path = str(tmp_path / "augment.keras")
    model.save(path)
    restored = tf.keras.models.load_model(path)
    assert [type(layer).__name__ for layer in restored.layers] == [type(layer).__name__ for layer in model.layers]
    for before, after in zip(model.layers, restored.layers):
        if not isinstance(before, L.Pipeline):  # (tuples come back as lists from the JSON file)
            assert json.loads(json.dumps(before.get_config())) == json.loads(json.dumps(after.get_config()))
    assert [type(layer).__name__ for layer in restored.layers[5].layers] == ["AutoContrast", "RandomSharpness"]
    np.testing.assert_allclose(restored.predict(x, verbose=0), model.predict(x, verbose=0), rtol=1e-5)


def test_dict_inputs_mix_labels_and_keep_or_refuse_boxes():
    x = _images((4, 6, 6, 3))
    labels = np.eye(4, dtype="float32")
    mixed = L.MixUp(seed=1)({"images": x, "labels": labels})
    np.testing.assert_allclose(mixed["labels"].numpy().sum(axis=1), 1.0, rtol=1e-6)
    cut = L.CutMix(seed=2)({"images": x, "labels": labels})
    np.testing.assert_allclose(cut["labels"].numpy().sum(axis=1), 1.0, rtol=1e-6)
    kept = L.RandomSharpness(0.4, seed=3)({"images": x, "labels": labels})
    np.testing.assert_array_equal(kept["labels"].numpy(), labels)
    boxes = {"boxes": np.zeros((4, 1, 4), "float32"), "labels": np.zeros((4, 1), "int32")}
    with pytest.raises(NotImplementedError, match="bounding boxes"):  # as in Keras: CutMix takes no boxes
        L.CutMix(0.2, bounding_box_format="xyxy")({"images": x, "bounding_boxes": boxes})
    masks = (np.arange(4 * 36).reshape(4, 6, 6, 1) % 3).astype("float32")
    moved = L.RandomShear(0.4, seed=3)({"images": x, "segmentation_masks": masks})["segmentation_masks"].numpy()
    assert set(np.unique(moved)) <= {0.0, 1.0, 2.0} and not np.array_equal(moved, masks)  # classes stay classes
    kept = L.AugMix(seed=2, bounding_box_format="xyxy")({"images": x, "bounding_boxes": boxes})
    np.testing.assert_array_equal(kept["bounding_boxes"]["boxes"].numpy(), boxes["boxes"])


# --- numpy references of the arithmetic ----------------------------------------------------------------------
def _draws(layer, x):
    """The transformation the layer draws for x (a fresh layer of the same seed draws the same)."""
    return layer.get_random_transformation(tf.constant(x))


def test_solarization_invert_posterization_against_numpy():
    x = _images((3, 5, 4, 3))
    layer = L.Solarization(0.3, 0.7, seed=4)
    t = _draws(L.Solarization(0.3, 0.7, seed=4), x)
    added = np.clip(x + t["additions"].numpy(), 0, 255)
    expected = np.where(added < t["thresholds"].numpy(), added, 255 - added)
    np.testing.assert_allclose(layer(x).numpy(), expected, rtol=1e-6)

    t = _draws(L.RandomInvert(0.6, seed=5), x)
    expected = np.where(t["apply_inversion"].numpy()[:, None, None, None], 255 - x, x)
    np.testing.assert_allclose(L.RandomInvert(0.6, seed=5)(x).numpy(), expected)

    t = _draws(L.RandomPosterization((2, 7), seed=6), x)
    shift = t["shift_factor"].numpy().astype(np.uint8)[:, None, None, None]
    expected = ((x.astype(np.uint8) >> shift) << shift).astype("float32")
    np.testing.assert_array_equal(L.RandomPosterization((2, 7), seed=6)(x).numpy(), expected)


def test_auto_contrast_and_equalization_against_numpy():
    x = _images((2, 6, 5, 3)) * 0.5 + 20
    low, high = x.min(axis=(1, 2), keepdims=True), x.max(axis=(1, 2), keepdims=True)
    np.testing.assert_allclose(L.AutoContrast()(x).numpy(), (x - low) * 255 / (high - low), rtol=1e-5, atol=1e-3)

    bins = 32
    out = L.Equalization(bins=bins)(x).numpy()
    for c in range(3):  # one histogram per channel over the whole batch
        channel = x[..., c].astype("float64")
        index = np.clip((channel * (bins - 1) / 255).astype(int), 0, bins - 1)
        cdf = np.cumsum(np.bincount(index.ravel(), minlength=bins))
        first = cdf[np.nonzero(cdf)[0][0]]
        table = np.clip(np.round((cdf - first) * 255 / (cdf[-1] - first)), 0, 255)
        np.testing.assert_allclose(out[..., c], table[index], rtol=1e-6)


def _depthwise_same(images, kernel):
    """Zero-padded 'same' correlation of each channel with a 2-D kernel, the slow way."""
    kh, kw = kernel.shape
    top, left = (kh - 1) // 2, (kw - 1) // 2
    padded = np.pad(images, ((0, 0), (top, kh - 1 - top), (left, kw - 1 - left), (0, 0)))
    out = np.zeros_like(images, dtype="float64")
    for i in range(kh):
        for j in range(kw):
            out += kernel[i, j] * padded[:, i:i + images.shape[1], j:j + images.shape[2]]
    return out


def test_sharpness_and_gaussian_blur_against_numpy():
    x = _images((2, 6, 7, 3))
    t = _draws(L.RandomSharpness(0.7, seed=7), x)
    a, b = 1 / 13, 5 / 13
    smooth = _depthwise_same(x, np.array([[a, a, a], [a, b, a], [a, a, a]]))
    s = 2 * t["factor"].numpy()[:, None, None, None]
    expected = np.clip(x + (1 - s) * (smooth - x), 0, 255)
    np.testing.assert_allclose(L.RandomSharpness(0.7, seed=7)(x).numpy(), expected, rtol=1e-5, atol=1e-3)

    layer = L.RandomGaussianBlur(kernel_size=(3, 5), sigma=(0.3, 0.9), seed=8)
    t = _draws(L.RandomGaussianBlur(kernel_size=(3, 5), sigma=(0.3, 0.9), seed=8), x)
    sigma = t["blur_factor"].numpy().astype("float64")

    def one_d(size, width):
        grid = np.arange(size) - (size - 1) / 2
        k = np.exp(-0.5 * (grid / width) ** 2)
        return k / k.sum()

    kernel = np.outer(one_d(5, sigma[1]), one_d(3, sigma[0])).reshape(3, 5)  # Keras' reshape of the (5, 3) product
    blurred = np.where(t["should_apply_blur"].numpy()[:, None, None, None], _depthwise_same(x, kernel), x)
    np.testing.assert_allclose(layer(x).numpy(), np.clip(blurred, 0, 255), rtol=1e-5, atol=1e-3)


def test_homography_maps_the_end_points_to_the_start_points():
    rng = np.random.default_rng(3)
    start = np.array([[[0, 0], [9, 0], [0, 7], [9, 7]]] * 2, "float32")
    end = (start + start * rng.uniform(-0.3, 0.3, (2, 4, 2))).astype("float32")
    m = homography_matrix(tf.constant(start), tf.constant(end)).numpy().astype("float64")
    for b in range(2):
        for (sx, sy), (ex, ey) in zip(start[b], end[b]):
            k = m[b, 6] * ex + m[b, 7] * ey + 1
            np.testing.assert_allclose([(m[b, 0] * ex + m[b, 1] * ey + m[b, 2]) / k,
                                        (m[b, 3] * ex + m[b, 4] * ey + m[b, 5]) / k], [sx, sy], atol=1e-3)


@pytest.mark.parametrize("fill_mode", ["constant", "nearest", "wrap", "reflect"])
@pytest.mark.parametrize("order", [0, 1])
def test_map_coordinates_against_a_pixel_loop(fill_mode, order):
    rng = np.random.default_rng(4)
    image = rng.uniform(0, 1, (5, 6))
    ys, xs = rng.uniform(-4, 9, (2, 3, 4))

    def fold(i, size):
        if fill_mode == "constant":
            return i if 0 <= i < size else None
        if fill_mode == "nearest":
            return min(max(i, 0), size - 1)
        if fill_mode == "wrap":
            return i % size
        i = abs(i) % (2 * size)  # reflect: Keras' folding of the absolute index
        return i if i < size else 2 * size - i - 1

    expected = np.zeros(ys.shape)
    for p in np.ndindex(ys.shape):
        y, x = ys[p], xs[p]
        nodes = ([(int(np.round(y)), 1.0)], [(int(np.round(x)), 1.0)]) if order == 0 else (
            [(int(np.floor(y)), np.floor(y) + 1 - y), (int(np.floor(y)) + 1, y - np.floor(y))],
            [(int(np.floor(x)), np.floor(x) + 1 - x), (int(np.floor(x)) + 1, x - np.floor(x))])
        for iy, wy in nodes[0]:
            for ix, wx in nodes[1]:
                fy, fx = fold(iy, 5), fold(ix, 6)
                expected[p] += wy * wx * (0.25 if fy is None or fx is None else image[fy, fx])
    got = map_coordinates(tf.constant(image[None, :, :, None]), tf.constant(ys[None]), tf.constant(xs[None]), order,
                          fill_mode, 0.25)  # one image of one channel, as a batch
    np.testing.assert_allclose(got.numpy()[0, ..., 0], expected, rtol=1e-9, atol=1e-12)


# --- gradients -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("make", [
    lambda: L.RandomColorDegeneration(0.7, seed=1, dtype="float64"),
    lambda: L.RandomSharpness(0.6, seed=2, dtype="float64"),
    lambda: L.RandomGaussianBlur(seed=3, dtype="float64"),
    lambda: L.RandomShear(0.3, 0.2, seed=4, dtype="float64"),
    lambda: L.MixUp(seed=5, dtype="float64"),
    lambda: L.CutMix(seed=6, dtype="float64"),
    lambda: L.AutoContrast(dtype="float64"),
    lambda: L.RandomElasticTransform(seed=7, dtype="float64"),
], ids=["degeneration", "sharpness", "blur", "shear", "mixup", "cutmix", "auto_contrast", "elastic"])
def test_gradients_match_finite_differences(make):
    """Each evaluation uses a fresh layer of the same seed, so every one draws the same transformation."""
    rng = np.random.default_rng(9)
    x = rng.uniform(30, 200, (2, 5, 4, 3))
    weights = rng.uniform(-1, 1, x.shape)

    def loss(images):
        return tf.reduce_sum(make()(images) * weights)

    images = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(images)
        value = loss(images)
    grad = tape.gradient(value, images).numpy()
    numeric = np.zeros_like(x)
    for index in list(np.ndindex(x.shape))[::7]:
        step = np.zeros_like(x)
        step[index] = 1e-4
        numeric[index] = (float(loss(tf.constant(x + step))) - float(loss(tf.constant(x - step)))) / 2e-4
        np.testing.assert_allclose(grad[index], numeric[index], rtol=1e-5, atol=1e-6)


def test_thresholded_relu_and_axis_resizes():
    x = np.linspace(-2, 3, 11).astype("float32")
    np.testing.assert_array_equal(L.ThresholdedReLU(0.5)(x).numpy(), np.where(x > 0.5, x, 0))
    assert L.RandomHeight(0.3).compute_output_shape((None, 8, 8, 3)) == (None, None, 8, 3)
    assert L.RandomWidth(0.3).compute_output_shape((None, 8, 8, 3)) == (None, 8, None, 3)
    out = L.RandomHeight((0.5, 0.5), seed=1)(_images((2, 8, 6, 3)))
    assert out.shape == (2, 12, 6, 3)
    out = L.RandomWidth((-0.5, -0.5), seed=1)(_images((8, 6, 3)))
    assert out.shape == (8, 3, 3)


def _clahe_reference(image, clip_limit, grid):
    """CLAHE of one (H, W) channel written tile by tile and pixel by pixel (H and W multiples of the grid)."""
    height, width = image.shape
    tile_h, tile_w = height // grid[0], width // grid[1]
    tables = np.zeros((grid[0] + 2, grid[1] + 2, 256))
    for ty in range(grid[0]):
        for tx in range(grid[1]):
            tile = np.clip(image[ty * tile_h:(ty + 1) * tile_h, tx * tile_w:(tx + 1) * tile_w].astype(int), 0, 255)
            hist = np.bincount(tile.ravel(), minlength=256).astype("float64")
            if clip_limit > 0:
                limit = clip_limit * tile_h * tile_w / 256
                excess = np.sum(hist - np.minimum(hist, limit))
                hist = np.minimum(hist, limit) + excess / 256
            cdf = np.cumsum(hist)
            tables[ty + 1, tx + 1] = np.clip((cdf - cdf.min()) * 255 / (tile_h * tile_w - cdf.min()), 0, 255)
    tables[0], tables[-1] = tables[1], tables[-2]  # the border tiles repeat their neighbours
    tables[:, 0], tables[:, -1] = tables[:, 1], tables[:, -2]
    out = np.zeros(image.shape)
    for y in range(height):
        for x in range(width):
            gy, gx = (y - tile_h / 2) / tile_h + 1, (x - tile_w / 2) / tile_w + 1
            y0, x0 = int(np.floor(gy)), int(np.floor(gx))
            wy, wx = gy - y0, gx - x0
            v = int(np.clip(image[y, x], 0, 255))
            top = tables[y0, x0, v] * (1 - wx) + tables[y0, x0 + 1, v] * wx
            bottom = tables[y0 + 1, x0, v] * (1 - wx) + tables[y0 + 1, x0 + 1, v] * wx
            out[y, x] = top * (1 - wy) + bottom * wy
    return out


@pytest.mark.parametrize("clip_limit, grid", [(4.0, (2, 3)), (0.0, (4, 2)), (1.5, (1, 1))])
def test_clahe_against_a_tile_by_tile_reference(clip_limit, grid):
    rng = np.random.default_rng(5)
    x = (rng.uniform(0, 1, (2, 12, 12, 2)) ** 2 * 180 + 30).astype("float32")
    layer = L.ContrastLimitedAdaptiveHistogramEqualization(clip_limit=clip_limit, tile_grid_size=grid)
    out = layer(x).numpy()
    for b in range(2):
        for c in range(2):
            np.testing.assert_allclose(out[b, ..., c], _clahe_reference(x[b, ..., c], clip_limit, grid),
                                       rtol=1e-4, atol=1e-3)
    step = tf.function(lambda images: layer(images), input_signature=[tf.TensorSpec([None, 12, 12, 2])])
    np.testing.assert_allclose(step(tf.constant(x)).numpy(), out, rtol=1e-6)
    clone = type(layer).from_config(layer.get_config())
    np.testing.assert_array_equal(clone(x).numpy(), out)
