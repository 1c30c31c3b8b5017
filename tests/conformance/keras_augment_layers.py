"""Keras 3's later image augmentation layers as TF 2.21 ships them (Solarization ... AugMix, Pipeline, and the
Keras 2 leftovers RandomHeight, RandomWidth, ThresholdedReLU): seeded draws in training (two calls, one image,
a batch), inference, channels_first, default seeds from keras.utils.set_random_seed, dict inputs with labels,
inside tf.function and a model's fit/predict, configs and argument errors, and the docstrings' examples."""

from __future__ import annotations

import random

import numpy as np

from . import outcome, program, val


def _images(shape=(3, 6, 5, 3)):
    return ((np.arange(np.prod(shape), dtype="float32").reshape(shape) * 7.3) % 255).astype("float32")


def _rounded(x, digits=None):
    values = np.asarray(x, dtype="float64")
    return (values if digits is None else np.round(values, digits)).tolist()


def _four_calls(layer, x, offset=0.0):
    """Two training calls (the generator moves on), one image, then inference (plus `offset`, which turns the
    absolute tolerance near 0 into a relative one)."""
    return [type(layer).__name__, _rounded(layer(x) + offset), _rounded(layer(x) + offset),
            _rounded(layer(x[0]) + offset), _rounded(layer(x, training=False) + offset)]


@program
def p_augment_color_layers_seeded(tf):
    L = tf.keras.layers
    x = _images()
    layers = [L.Solarization(0.3, 0.6, seed=1), L.Solarization(), L.Solarization((0.1, 0.2), 0.5, value_range=(0, 1),
                                                                                     seed=2),
              L.RandomInvert(seed=1), L.RandomInvert(0.7, value_range=(0, 1), seed=2),
              L.RandomPosterization(5, seed=1), L.RandomPosterization((2, 6), seed=2),
              L.RandomPosterization(3, value_range=(0, 1), seed=3),
              L.AutoContrast(), L.AutoContrast(value_range=(0, 1)), L.Equalization(),
              L.Equalization(bins=16, value_range=(0, 300)), L.RandomColorDegeneration(0.6, seed=1),
              L.RandomColorDegeneration((0.2, 0.9), value_range=(0, 100), seed=2), L.RandomSharpness(0.8, seed=1),
              L.RandomSharpness((0.0, 0.3), seed=2), L.RandomGaussianBlur(seed=1),
              L.RandomGaussianBlur(0.8, kernel_size=(3, 5), sigma=(0.2, 0.9), seed=3),
              L.RandomGaussianBlur(kernel_size=5, sigma=0.5, value_range=(0, 100), seed=4)]
    out = []
    for layer in layers:
        data = x / np.float32(255.0) if list(getattr(layer, "value_range", [0, 255])) == [0, 1] else x
        out.append(_four_calls(layer, data))
    return out


@program
def p_augment_geometric_layers_seeded(tf):
    L = tf.keras.layers
    x = _images((3, 7, 6, 2))
    layers = [L.RandomShear(0.3, 0.2, seed=1),
              L.RandomShear((0.1, 0.5), fill_mode="constant", interpolation="nearest", fill_value=4.0, seed=2),
              L.RandomShear(y_factor=0.4, fill_mode="wrap", seed=3), L.RandomPerspective(seed=1),
              L.RandomPerspective(0.7, scale=0.5, fill_value=3.0, seed=2),
              L.RandomPerspective(scale=0.3, interpolation="nearest", seed=3),
              L.RandomErasing(seed=1), L.RandomErasing(0.8, scale=0.5, fill_value=7.0, seed=2),
              L.RandomErasing(scale=(0.1, 0.6), fill_value=9.0, value_range=(0, 5), seed=3),
              L.RandomHeight(0.3, seed=1), L.RandomWidth((-0.2, 0.4), seed=2),
              L.RandomHeight((0.2, 0.5), interpolation="nearest", seed=3)]
    # RandomPerspective's homography comes from a float32 linear solve, whose last bits differ from TF's LU (a
    # pixel TF leaves at 1e-6 is 1e-14 here, others move by up to 2e-4): compared after adding 10, which makes
    # the tolerance about 3e-4 in absolute terms
    return [_four_calls(layer, x, 10.0 if "Perspective" in type(layer).__name__ else 0.0) for layer in layers]


@program
def p_augment_erasing_rgb_fill(tf):
    layer = tf.keras.layers.RandomErasing(fill_value=(1, 2, 3), seed=3)
    return _four_calls(layer, _images())


@program
def p_augment_mixing_layers(tf):
    L = tf.keras.layers
    x = _images((4, 6, 5, 3))
    labels = np.eye(4, dtype="float32")
    out = []
    for layer in (L.CutMix(seed=1), L.CutMix(0.5, seed=2), L.MixUp(seed=1), L.MixUp(0.5, seed=2)):
        out.append(_four_calls(layer, x))
    for layer in (L.CutMix(seed=5), L.MixUp(alpha=0.4, seed=6)):
        mixed = layer({"images": x, "labels": labels})
        out.append([sorted(mixed), _rounded(mixed["images"]), _rounded(mixed["labels"])])
        single = layer({"images": x[0], "labels": labels[0]})
        out.append([_rounded(single["images"]), _rounded(single["labels"])])
    colour = L.Solarization(0.2, 0.5, seed=7)({"images": x, "labels": labels})
    out.append([_rounded(colour["images"]), _rounded(colour["labels"])])
    return out


@program
def p_augment_composite_layers(tf):
    L = tf.keras.layers
    x = _images((3, 6, 6, 3))
    out = []
    for layer in (L.RandAugment(seed=1), L.RandAugment(num_ops=3, factor=0.8, seed=2),
                  L.RandAugment(value_range=(0, 1), num_ops=1, factor=(0.1, 0.4), interpolation="nearest", seed=3)):
        data = x / np.float32(255.0) if list(layer.value_range) == [0, 1] else x
        out.append(_four_calls(layer, data))
    random.seed(3)  # AugMix picks its chains' operations with Python's random, as Keras does
    for layer in (L.AugMix(seed=1), L.AugMix(num_chains=2, chain_depth=2, all_ops=False, alpha=0.5, seed=4)):
        out.append(_four_calls(layer, x))
    pipeline = L.Pipeline([L.AutoContrast(), L.RandomShear(0.2, seed=1), L.RandomInvert(0.5, seed=2)])
    out.append([_rounded(pipeline(x)), _rounded(pipeline(x, training=False)), len(pipeline.layers)])
    return out


@program
def p_augment_channels_first(tf):
    L = tf.keras.layers
    x = np.transpose(_images((2, 6, 5, 3)), (0, 3, 1, 2))
    layers = [L.RandomColorDegeneration(0.5, seed=1, data_format="channels_first"),
              L.RandomSharpness(0.7, seed=2, data_format="channels_first"),
              L.RandomGaussianBlur(seed=3, data_format="channels_first"),
              L.Equalization(data_format="channels_first"),
              L.RandomPosterization(4, seed=4, data_format="channels_first"),
              L.RandomShear(0.3, 0.3, seed=5, data_format="channels_first"),
              L.RandomErasing(seed=6, data_format="channels_first"),
              L.CutMix(seed=7, data_format="channels_first"), L.MixUp(seed=8, data_format="channels_first"),
              L.RandomPerspective(seed=9, data_format="channels_first")]
    return [[type(layer).__name__, _rounded(layer(x) + (10.0 if "Perspective" in type(layer).__name__ else 0.0))]
            for layer in layers]


@program
def p_augment_default_seeds(tf):
    """Unseeded layers draw Keras' default seeds from Python's random after keras.utils.set_random_seed."""
    keras = tf.keras
    L = keras.layers
    keras.utils.set_random_seed(11)
    layers = [L.Solarization(0.5, 0.5), L.RandomInvert(), L.RandomPosterization(6), L.RandomColorDegeneration(0.4),
              L.RandomSharpness(0.5), L.RandomGaussianBlur(), L.RandomShear(0.2, 0.2), L.RandomErasing(),
              L.CutMix(), L.MixUp(), L.RandomHeight(0.2), L.RandAugment()]
    x = _images((3, 6, 6, 3))
    return [[type(layer).__name__, _rounded(layer(x))] for layer in layers]


@program
def p_augment_in_tf_function(tf):
    """In a tf.function each call draws new numbers (the seed generators' states are variables)."""
    L = tf.keras.layers
    augment = tf.keras.Sequential([L.RandomShear(0.2, seed=1), L.Solarization(0.2, 0.7, seed=2),
                                   L.RandomSharpness(0.6, seed=3), L.RandomErasing(seed=4), L.MixUp(seed=5),
                                   L.RandAugment(seed=6)])
    step = tf.function(lambda images: augment(images, training=True))
    x = tf.constant(_images())
    return [_rounded(step(x)), _rounded(step(x)), _rounded(augment(x, training=False))]


@program
def p_augment_in_fit_and_predict(tf):
    keras = tf.keras
    L = keras.layers
    keras.utils.set_random_seed(4)
    model = keras.Sequential([keras.Input((8, 8, 3)), L.RandomShear(0.1), L.RandomColorDegeneration(0.3),
                              L.RandomSharpness(0.4), L.RandomErasing(0.5), L.Rescaling(1.0 / 255),
                              L.Conv2D(2, 3, activation="relu"), L.GlobalAveragePooling2D(), L.Dense(2)])
    model.compile(optimizer=keras.optimizers.SGD(0.1),
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    x = _images((8, 8, 8, 3))
    y = (np.arange(8) % 2).astype("int32")
    history = model.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0)
    predicted = model.predict(x, verbose=0)
    plain = keras.Sequential(model.layers[-3:])
    return [_rounded(history.history["loss"], 4), _rounded(predicted, 4), _rounded(plain(x / np.float32(255.0)), 4)]


def _plain(config):
    config = dict(config)
    config.pop("name", None)
    config.pop("dtype", None)
    return {k: list(v) if isinstance(v, tuple) else v for k, v in config.items()}


@program
def p_augment_configs(tf):
    L = tf.keras.layers
    layers = [L.Solarization(0.2, (0.1, 0.4), seed=1), L.RandomInvert(0.3, seed=1), L.RandomPosterization(4, seed=1),
              L.AutoContrast((0, 1)), L.Equalization(bins=64), L.RandomColorDegeneration(0.3, seed=1),
              L.RandomSharpness(0.2, seed=1), L.RandomGaussianBlur(0.5, 5, (0.2, 0.8), seed=1),
              L.RandomShear((0.1, 0.3), (0.0, 0.2), seed=1), L.RandomPerspective(0.5, 0.4, seed=1),
              L.RandomErasing(0.5, 0.3, 2.0, seed=1), L.RandomHeight(0.2, seed=1), L.RandomWidth((0.1, 0.3), seed=1),
              L.ThresholdedReLU(0.5), L.CutMix(0.7, seed=1), L.MixUp(0.3, seed=1),
              L.RandAugment(num_ops=3, seed=1), L.AugMix(chain_depth=2, seed=1)]
    out = []
    for layer in layers:
        clone = type(layer).from_config(layer.get_config())
        out.append([type(layer).__name__, _plain(layer.get_config()), _plain(clone.get_config()),
                    list(clone.compute_output_shape((None, 6, 5, 3)))])
    pipeline = L.Pipeline([L.AutoContrast(), L.RandomInvert(seed=2)])
    config = pipeline.get_config()
    out.append([sorted(config), [c["class_name"] for c in config["layers"]]])
    return out


@program
def p_augment_argument_errors(tf):
    L = tf.keras.layers
    makers = {
        "solarization_factor": lambda: L.Solarization(1.5),
        "solarization_pair": lambda: L.Solarization((0.1, 0.2, 0.3)),
        "solarization_range": lambda: L.Solarization(value_range=(0, 1, 2)),
        "invert_factor": lambda: L.RandomInvert(2.0),
        "posterization_factor": lambda: L.RandomPosterization(9),
        "auto_contrast_range": lambda: L.AutoContrast(value_range=5),
        "degeneration_factor": lambda: L.RandomColorDegeneration(1.5),
        "sharpness_factor": lambda: L.RandomSharpness(-0.5),
        "blur_kernel": lambda: L.RandomGaussianBlur(kernel_size=4),
        "blur_kernel_pair": lambda: L.RandomGaussianBlur(kernel_size=(3, 3, 3)),
        "blur_sigma": lambda: L.RandomGaussianBlur(sigma=2.0),
        "shear_factor": lambda: L.RandomShear(1.5),
        "shear_fill_mode": lambda: L.RandomShear(0.1, fill_mode="mirror"),
        "shear_interpolation": lambda: L.RandomShear(0.1, interpolation="bicubic"),
        "perspective_scale": lambda: L.RandomPerspective(scale=1.5),
        "perspective_interpolation": lambda: L.RandomPerspective(interpolation="area"),
        "erasing_scale": lambda: L.RandomErasing(scale=2.0),
        "height_order": lambda: L.RandomHeight((0.5, 0.1)),
        "width_bound": lambda: L.RandomWidth((-2.0, 0.1)),
        "relu_theta": lambda: L.ThresholdedReLU(-1.0),
        "relu_theta_none": lambda: L.ThresholdedReLU(None),
        "cutmix_factor": lambda: L.CutMix(1.5),
        "randaugment_factor": lambda: L.RandAugment(factor=2.0),
        "color_rank": lambda: L.RandomSharpness(0.5)(np.zeros((2, 3), "float32")),
    }
    phrases = {"blur_kernel": "odd", "height_order": "upper bound", "width_bound": "larger than -1",
               "relu_theta": ">=0", "relu_theta_none": "cannot be None", "shear_fill_mode": "fill_mode",
               "shear_interpolation": "interpolation", "perspective_interpolation": "interpolation",
               "perspective_scale": "scale", "color_rank": "rank"}
    return {name: outcome(make, phrases.get(name, "argument")) for name, make in makers.items()}


@program
def p_augment_thresholded_relu(tf):
    x = np.linspace(-2, 3, 11).astype("float32")
    return [val(tf.keras.layers.ThresholdedReLU()(x)), val(tf.keras.layers.ThresholdedReLU(theta=0.5)(x)),
            val(tf.keras.layers.ThresholdedReLU(0.0)(x.reshape(1, 11)))]


@program
def p_augment_docstring_examples(tf):
    """Solarization's docstring: a CIFAR-10 pixel [59, 62, 63] becomes [196, 193, 192]; Pipeline's: the pipeline
    mapped over a tf.data dataset."""
    L = tf.keras.layers
    images = np.zeros((2, 4, 4, 3), "uint8")
    images[0, 0, 0] = [59, 62, 63]
    solarized = L.Solarization(value_range=(0, 255))(images)
    pipeline = L.Pipeline([L.AutoContrast(), L.RandomZoom(0.2, seed=1), L.RandomRotation(0.2, seed=2)])
    # (sequentially: TF's parallel map lets two batches read the same seed state, which is a race)
    ds = tf.data.Dataset.from_tensor_slices(_images((4, 6, 6, 3))).batch(2).map(pipeline)
    return [val(solarized[0, 0, 0]), str(solarized.dtype.name), [_rounded(b) for b in ds]]


@program
def p_augment_elastic_transform(tf):
    """RandomElasticTransform on images large enough for a blurred field (sigma >= 1 for the larger draws),
    every fill mode it can run with, a second call of the first (inference, the identity, is checked in
    tests/test_image_augment_layers.py); compared after adding 10 (the blur's last bits differ from TF's by up to
    1e-3 of 255)."""
    L = tf.keras.layers
    x = _images((2, 40, 30, 1))
    layers = [L.RandomElasticTransform(seed=1),
              L.RandomElasticTransform(0.8, scale=(0.3, 0.9), interpolation="nearest", fill_mode="constant",
                                       fill_value=5.0, seed=2),
              L.RandomElasticTransform(fill_mode="wrap", seed=3), L.RandomElasticTransform(fill_mode="nearest", seed=4),
              L.RandomElasticTransform(scale=0.5, value_range=(0, 100), seed=5)]
    out = [_rounded(layer(x) + 10.0) for layer in layers]
    out.append(_rounded(layers[0](x) + 10.0))  # the generator's next draws
    out.append(_rounded(layers[0](_images((40, 30, 1))) + 10.0))
    out.append(_rounded(L.RandomElasticTransform(seed=6)(x[:, :8, :8]) + 10.0))
    out.append(outcome(lambda: L.RandomElasticTransform(fill_mode="mirror", seed=7)(x), "fill_mode"))
    out.append(outcome(lambda: L.RandomElasticTransform(interpolation="bicubic"), "interpolation"))
    out.append(outcome(lambda: L.RandomElasticTransform(scale=1.5), "scale"))
    return out


@program
def p_augment_bounding_boxes_and_masks(tf):
    """Dict inputs with bounding boxes and segmentation masks: the colour layers keep them, MaxNumBoundingBoxes
    cuts or pads the boxes; without bounding_box_format the layer refuses boxes."""
    L = tf.keras.layers
    x = _images((2, 6, 5, 3))
    boxes = np.array([[[0, 0, 2, 2], [1, 1, 3, 4], [0, 1, 2, 3]], [[1, 0, 4, 4], [0, 0, 1, 1], [2, 2, 3, 3]]],
                     "float32")
    box_labels = np.array([[1, 2, 3], [4, 5, 6]], "int32")
    masks = (np.arange(60).reshape(2, 6, 5, 1) % 3).astype("float32")
    out = []
    for layer in (L.MaxNumBoundingBoxes(2, bounding_box_format="xyxy"),
                  L.MaxNumBoundingBoxes(5, fill_value=-7, bounding_box_format="xyxy"),
                  L.Solarization(0.2, 0.5, seed=1, bounding_box_format="xyxy"),
                  L.RandomSharpness(0.5, seed=2, bounding_box_format="rel_xyxy"),
                  L.Equalization(bounding_box_format="xyxy"), L.RandomErasing(seed=3, bounding_box_format="xyxy")):
        result = layer({"images": x, "bounding_boxes": {"boxes": boxes, "labels": box_labels},
                        "labels": np.eye(2, dtype="float32"), "segmentation_masks": masks})
        out.append([type(layer).__name__, sorted(result), val(result["bounding_boxes"]), _rounded(result["images"]),
                    _rounded(result["labels"]), _rounded(result["segmentation_masks"]),
                    _plain(layer.get_config())])
    single = L.MaxNumBoundingBoxes(2, bounding_box_format="xyxy")(
        {"images": x[0], "bounding_boxes": {"boxes": boxes[0], "labels": box_labels[0]}})
    out.append(val(single["bounding_boxes"]))
    out.append(_rounded(L.MaxNumBoundingBoxes(3)(x)))
    out.append(outcome(lambda: L.Solarization()({"images": x, "bounding_boxes": {"boxes": boxes,
                                                                                  "labels": box_labels}}),
                       "bounding box format"))
    return out


@program
def p_augment_clahe(tf):
    """ContrastLimitedAdaptiveHistogramEqualization: tiles that divide the image and tiles that need symmetric
    padding, no clip limit, value_range (0, 1), uint8 images (cast back to uint8), channels_first; the same in
    inference."""
    C = tf.keras.layers.ContrastLimitedAdaptiveHistogramEqualization
    rng = np.random.default_rng(0)
    x = (rng.uniform(0, 1, (2, 20, 17, 2)) ** 2 * 200 + 20).astype("float32")
    cases = [(C(), x), (C(clip_limit=2.0, tile_grid_size=(4, 3)), x), (C(clip_limit=0, tile_grid_size=(5, 5)), x),
             (C(value_range=(0, 1), tile_grid_size=(3, 2)), x / np.float32(255.0)),
             (C(tile_grid_size=(2, 2)), x.astype("uint8")),
             (C(tile_grid_size=(3, 3), data_format="channels_first"), np.transpose(x, (0, 3, 1, 2)))]
    out = [val(layer(data)) for layer, data in cases]
    out.append(_rounded(cases[1][0](x[0])))
    out.append(_rounded(cases[1][0](x, training=False)[1]))
    out.append(_plain(C(clip_limit=3.0, tile_grid_size=(4, 4)).get_config()))
    return out


@program
def p_augment_segmentation_masks(tf):
    """Segmentation masks in a dict move with the images (nearest neighbour) through the geometric layers, are
    cut and pasted by CutMix, picked and mixed by RandAugment and AugMix, and kept by the colour layers."""
    L = tf.keras.layers
    x = _images((3, 12, 10, 3))
    masks = (np.arange(360).reshape(3, 12, 10, 1) % 4).astype("float32")
    random.seed(1)
    out = []
    for layer in (L.RandomShear(0.3, 0.3, seed=1), L.RandomPerspective(seed=2), L.RandomElasticTransform(seed=3),
                  L.CutMix(seed=4), L.RandAugment(num_ops=3, factor=0.7, seed=5), L.AugMix(seed=6),
                  L.RandomSharpness(0.4, seed=7)):
        offset = 10.0 if isinstance(layer, L.RandomPerspective) else 0.0
        result = layer({"images": x, "segmentation_masks": masks})
        single = layer({"images": x[0], "segmentation_masks": masks[0]}, training=False)
        out.append([type(layer).__name__, _rounded(result["segmentation_masks"]), _rounded(result["images"] + offset),
                    _rounded(single["segmentation_masks"])])
    return out
