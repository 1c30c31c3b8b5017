"""TF's data augmentation tutorial (site/en/tutorials/images/data_augmentation.ipynb), small: a Sequential of
Resizing and Rescaling fed a uint8 image (Keras 3 converts inputs to the Input's dtype first, float32 here, so
the resize is a float resize), the random layers under a global seed, tf.image's stateless random ops with
seeds, the Counter-zipped and Generator-seeded augment pipelines, and fit over a dataset of unknown length
(a generator), whose progress line counts the steps it ran."""

from __future__ import annotations

import contextlib
import io
import re

import numpy as np

from . import program, val


def _image(h=9, w=11):
    y, x = np.mgrid[0:h, 0:w]
    return np.stack([(x * 23 + y * 7 + 50 * c) % 256 for c in range(3)], -1).astype(np.uint8)


def _stats(t):
    v = np.asarray(t, dtype=np.float64)
    return [list(np.shape(t)), round(float(v.min()), 4), round(float(v.max()), 4), round(float(v.mean()), 4)]


@program
def p_tutorial_augmentation_sequential_casts_inputs_to_its_input_dtype(tf):
    layers = tf.keras.layers
    image = _image()
    resize_and_rescale = tf.keras.Sequential([layers.Resizing(5, 6), layers.Rescaling(1. / 255)])
    out = [val(resize_and_rescale(image))]
    cases = [tf.keras.Sequential([layers.Resizing(4, 4)]),
             tf.keras.Sequential([tf.keras.Input((9, 11, 3), dtype="uint8"), layers.Resizing(4, 4)]),
             tf.keras.Sequential([tf.keras.Input((9, 11, 3)), layers.Resizing(4, 4)]),
             tf.keras.Sequential([layers.Lambda(lambda x: x * 2)])]
    for model in cases:
        for x in (image[None], image[None].astype("int32"), tf.constant(image[None].astype("float64"))):
            y = model(x)
            out.append([y.dtype.name, np.asarray(y).ravel()[:6].round(4).tolist()])
    return out


@program
def p_tutorial_augmentation_random_layers_under_a_global_seed(tf):
    layers = tf.keras.layers
    tf.keras.utils.set_random_seed(7)
    image = tf.cast(tf.expand_dims(_image(12, 12), 0), tf.float32)
    augmentation = tf.keras.Sequential([layers.RandomFlip("horizontal_and_vertical"), layers.RandomRotation(0.2)])
    out = [_stats(augmentation(image)) for _ in range(3)]
    zoom = layers.RandomZoom(0.2, seed=3)
    out.append(_stats(zoom(image, training=True)))
    out.append(_stats(zoom(image, training=False)))
    return out


@program
def p_tutorial_augmentation_stateless_image_ops_with_seeds(tf):
    image = tf.constant(_image(12, 14))
    out = []
    for i in range(3):
        seed = (i, 0)
        out.append(_stats(tf.image.stateless_random_brightness(image, max_delta=0.95, seed=seed)))
        out.append(_stats(tf.image.stateless_random_contrast(image, lower=0.1, upper=0.9, seed=seed)))
        out.append(val(tf.image.stateless_random_crop(image, size=[3, 4, 3], seed=seed)))
    out.append(_stats(tf.image.adjust_saturation(image, 3)))
    out.append(_stats(tf.image.central_crop(image, central_fraction=0.5)))
    out.append(_stats(tf.image.rgb_to_grayscale(image)))
    return out


@program
def p_tutorial_augmentation_counter_and_generator_seeded_pipelines(tf):
    size = 6
    images = np.stack([_image(8 + k % 3, 9 + k % 2)[: 8, : 9] for k in range(5)])
    data = tf.data.Dataset.from_tensor_slices((images, np.arange(5, dtype=np.int64)))

    def resize_and_rescale(image, label):
        image = tf.cast(image, tf.float32)
        image = tf.image.resize(image, [size, size])
        return image / 255.0, label

    def augment(image_label, seed):
        image, label = resize_and_rescale(*image_label)
        image = tf.image.resize_with_crop_or_pad(image, size + 2, size + 2)
        new_seed = tf.random.split(seed, num=1)[0, :]
        image = tf.image.stateless_random_crop(image, size=[size, size, 3], seed=seed)
        image = tf.image.stateless_random_brightness(image, max_delta=0.5, seed=new_seed)
        return tf.clip_by_value(image, 0, 1), label

    counter = tf.data.experimental.Counter()
    zipped = tf.data.Dataset.zip((data, (counter, counter))).map(augment).batch(2)
    out = [[_stats(x), y.numpy().tolist()] for x, y in zipped]
    rng = tf.random.Generator.from_seed(123, alg="philox")

    def f(x, y):
        seed = rng.make_seeds(1)[:, 0]
        return augment((x, y), seed)

    out += [[_stats(x), y.numpy().tolist()] for x, y in data.map(f).batch(2)]
    return out


@program
def p_tutorial_augmentation_fit_over_data_of_unknown_length_counts_its_steps(tf):
    tf.keras.utils.set_random_seed(0)
    x = np.linspace(0, 1, 40 * 3, dtype="float32").reshape(40, 3)
    y = (np.arange(40) % 2).astype("float32")

    def gen():
        yield from zip(x, y)

    spec = (tf.TensorSpec((3,), tf.float32), tf.TensorSpec((), tf.float32))
    data = tf.data.Dataset.from_generator(gen, output_signature=spec).batch(16)
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])
    model.compile("sgd", "mse")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        history = model.fit(data, epochs=2, verbose=2, validation_data=data.take(1))  # one validation step
        model.evaluate(data, verbose=2)
    lines = [re.sub(r" - \d+s - \d+m?u?s/step", "", line) for line in out.getvalue().splitlines()]
    return [lines, np.round(history.history["loss"], 5).tolist()]
