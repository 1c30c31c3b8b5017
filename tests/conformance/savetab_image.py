"""keras.preprocessing.image as TF 2.21 ships it (Keras 3's legacy module): ImageDataGenerator's seeded random
transforms over every fill mode, fit's feature-wise statistics and ZCA, standardize, validation_split subsets,
flow over arrays and flow_from_directory over PNG files, channels_first, and the apply_* / random_* functions.
Recorded with scipy on TensorFlow's path (Keras resamples with scipy.ndimage; tinytf with its numpy port),
helper savetab."""

from __future__ import annotations

import os
import tempfile

import numpy as np

from . import outcome, program, val


def images(n=6, size=7, channels=3, seed=0):
    return (np.random.RandomState(seed).rand(n, size, size + 1, channels) * 255).astype("float32")


def batches(iterator, count):
    out = []
    for i in range(count):
        batch = iterator[i] if i < len(iterator) else next(iterator)
        out.append(val(list(batch) if isinstance(batch, tuple) else batch))
    return out


@program
def p_savetab_image_generator_transforms(tf):
    prep = tf.keras.preprocessing.image
    x = images()
    out = {}
    for mode in ("nearest", "constant", "reflect", "wrap"):
        gen = prep.ImageDataGenerator(rotation_range=40, width_shift_range=0.2, height_shift_range=[1, 2],
                                      shear_range=15, zoom_range=(0.7, 1.2), horizontal_flip=True,
                                      vertical_flip=True, fill_mode=mode, cval=17.0)
        out[mode] = batches(gen.flow(x, np.arange(6), batch_size=4, seed=11), 2)
    gen = prep.ImageDataGenerator(channel_shift_range=30.0, brightness_range=(0.4, 1.6), rescale=1 / 255.0,
                                  preprocessing_function=lambda a: a * 0.5 + 3.0)
    out["color"] = batches(gen.flow(x, batch_size=3, shuffle=False, seed=5), 2)
    gen = prep.ImageDataGenerator(rotation_range=25, data_format="channels_first", interpolation_order=0)
    out["channels_first"] = batches(gen.flow(np.transpose(x, (0, 3, 1, 2)), batch_size=6, seed=2), 1)
    params = prep.ImageDataGenerator(rotation_range=10, zoom_range=0.1).get_random_transform((7, 8, 3), seed=4)
    out["params"] = {k: (float(v) if v is not None else None) for k, v in params.items()}
    return out


@program
def p_savetab_image_generator_statistics(tf):
    prep = tf.keras.preprocessing.image
    x = images(8, 5, 3, seed=1)
    out = {}
    gen = prep.ImageDataGenerator(featurewise_center=True, featurewise_std_normalization=True, rescale=0.01)
    gen.fit(x)
    out["mean_std"] = [val(gen.mean), val(gen.std)]
    out["standardized"] = batches(gen.flow(x, batch_size=8, shuffle=False), 1)
    gen = prep.ImageDataGenerator(featurewise_center=True, rotation_range=20)
    gen.fit(x, augment=True, rounds=2, seed=3)
    out["augmented_mean"] = val(gen.mean)
    gen = prep.ImageDataGenerator(samplewise_center=True, samplewise_std_normalization=True)
    out["samplewise"] = batches(gen.flow(x[:2], batch_size=2, shuffle=False), 1)
    gen = prep.ImageDataGenerator(zca_whitening=True, zca_epsilon=0.1)
    gen.fit(x[:, :3, :3, :1])
    out["zca"] = val(np.round(gen.zca_whitening_matrix[:3, :3], 4))
    out["zca_batch"] = val(np.round(gen.standardize(np.copy(x[:2, :3, :3, :1]) ), 3))
    return out


@program
def p_savetab_image_generator_subsets_and_errors(tf):
    prep = tf.keras.preprocessing.image
    x = images(10, 4, 1, seed=2)
    y = np.array([0, 1] * 5)
    gen = prep.ImageDataGenerator(validation_split=0.3)
    train = gen.flow(x, y, batch_size=4, subset="training", shuffle=False)
    valid = gen.flow(x, y, batch_size=4, subset="validation", shuffle=False)
    weights = np.linspace(0.1, 1.0, 10)
    return {
        "lengths": [len(train), len(valid), train.n, valid.n],
        "valid": batches(valid, 1),
        "weighted": batches(gen.flow(x, y, batch_size=3, shuffle=False, sample_weight=weights), 1),
        "misc": batches(gen.flow((x, [y * 2.0]), y, batch_size=2, shuffle=False), 1),
        "zoom": outcome(lambda: prep.ImageDataGenerator(zoom_range=(1, 2, 3)), "zoom_range"),
        "split": outcome(lambda: prep.ImageDataGenerator(validation_split=1.5), "validation_split"),
        "brightness": outcome(lambda: prep.ImageDataGenerator(brightness_range=0.5), "brightness_range"),
        "rank": outcome(lambda: gen.flow(x[0], batch_size=2), "rank 4"),
        "lengths_differ": outcome(lambda: gen.flow(x, y[:3]), "same length"),
        "subset_name": outcome(lambda: gen.flow(x, y, subset="test"), "Invalid subset name"),
        "format": outcome(lambda: prep.ImageDataGenerator(data_format="nchw"), "data_format"),
        "fit_rank": outcome(lambda: gen.fit(x[0]), "rank 4"),
        "past_end": outcome(lambda: gen.flow(x, batch_size=4)[3], "has length 3"),
    }


@program
def p_savetab_image_flow_from_directory(tf):
    from PIL import Image

    prep = tf.keras.preprocessing.image
    root = tempfile.mkdtemp()
    rng = np.random.RandomState(7)
    for label in ("cats", "dogs", "zebras"):
        os.makedirs(os.path.join(root, label))
        for i in range(3 if label != "zebras" else 2):
            pixels = (rng.rand(9, 11, 3) * 255).astype("uint8")
            Image.fromarray(pixels).save(os.path.join(root, label, f"img_{i}.png"))
    open(os.path.join(root, "cats", "notes.txt"), "w").close()
    gen = prep.ImageDataGenerator(rescale=1 / 255.0, rotation_range=15, validation_split=0.4)
    out = {}
    for mode in ("categorical", "binary", "sparse", None):
        it = gen.flow_from_directory(root, target_size=(6, 5), class_mode=mode, batch_size=3, seed=1)
        out[str(mode)] = batches(it, 2)
    it = gen.flow_from_directory(root, target_size=(6, 5), color_mode="grayscale", class_mode="sparse",
                                 subset="training", shuffle=False, interpolation="bilinear")
    out["training"] = {"filenames": [f.replace(os.sep, "/") for f in it.filenames], "classes": it.classes.tolist(),
                       "class_indices": it.class_indices, "batch": batches(it, 1)}
    it = gen.flow_from_directory(root, target_size=(4, 4), classes=["dogs", "cats"], subset="validation",
                                 class_mode="input", batch_size=2, shuffle=False)
    out["validation"] = {"samples": it.samples, "num_classes": it.num_classes, "batch": batches(it, 1)}
    out["bad_mode"] = outcome(lambda: gen.flow_from_directory(root, class_mode="other"), "Invalid class_mode")
    out["bad_color"] = outcome(lambda: gen.flow_from_directory(root, color_mode="cmyk"), "Invalid color mode")
    return out


@program
def p_savetab_image_functions(tf):
    prep = tf.keras.preprocessing.image
    x = images(1, 6, 3, seed=3)[0]
    chw = np.transpose(x, (2, 0, 1))
    out = {"affine": [val(prep.apply_affine_transform(x, theta=30, tx=1, ty=-2, shear=10, zx=0.8, zy=1.3,
                                                      row_axis=0, col_axis=1, channel_axis=2, fill_mode=mode,
                                                      cval=5.0))
                      for mode in ("nearest", "constant", "reflect", "wrap")],
           "affine_chw": val(prep.apply_affine_transform(chw, theta=-45, fill_mode="reflect")),
           "identity": val(prep.apply_affine_transform(x, row_axis=0, col_axis=1, channel_axis=2)),
           "channel_shift": val(prep.apply_channel_shift(x, 40.0, channel_axis=2)),
           "brightness": val(prep.apply_brightness_shift(x, 0.6)),
           "brightness_unscaled": val(prep.apply_brightness_shift(x * 3 - 100, 1.3, scale=False))}
    np.random.seed(9)
    out["random"] = [val(prep.random_rotation(chw, 50)), val(prep.random_shift(chw, 0.2, 0.3)),
                     val(prep.random_shear(chw, 20, fill_mode="constant")), val(prep.random_zoom(chw, (0.5, 1.5))),
                     val(prep.random_channel_shift(chw, 25.0)),
                     val(prep.random_brightness(x, (0.2, 0.9)))]
    out["bad_axes"] = outcome(lambda: prep.apply_affine_transform(x, theta=3, row_axis=0, col_axis=0), "distinct")
    out["bad_rank"] = outcome(lambda: prep.apply_affine_transform(x[0], theta=3), "multi-channel 2D")
    out["bad_zoom"] = outcome(lambda: prep.random_zoom(chw, (1.0,)), "zoom_range")
    return out
