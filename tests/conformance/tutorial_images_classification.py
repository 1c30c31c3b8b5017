"""TF's image classification tutorial (site/en/tutorials/images/classification.ipynb), small: a folder of
synthetic PNGs read by image_dataset_from_directory (validation split, seed), cached and prefetched, a
Rescaling + Conv2D stack fit with a global seed; then the augmentation Sequential (RandomFlip, RandomRotation,
RandomZoom, given input_shape) as the first layer of a second Sequential, which Keras 3 builds at once from
that model's input shape (its summary has output shapes and parameter counts before any call)."""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import tempfile

import numpy as np

from . import program

CLASSES = ("daisy", "roses", "tulips")


def _write_folder(tf, root):
    """Three classes of small PNGs, sizes varying per file, pixel values from a formula (both sides equal)."""
    for c, name in enumerate(CLASSES):
        os.makedirs(os.path.join(root, name))
        for k in range(6):
            h, w = 10 + k, 12 + 2 * c
            y, x = np.mgrid[0:h, 0:w]
            image = np.stack([(x * (3 + c) + y * (k + 1) + 40 * ch) % 256 for ch in range(3)], -1).astype(np.uint8)
            tf.io.write_file(os.path.join(root, name, f"{k:02d}.png"), tf.io.encode_png(image))


def _history(history):
    return {k: np.round(v, 4).tolist() for k, v in sorted(history.history.items())}


@program
def p_tutorial_classification_directory_dataset_and_fit(tf):
    layers = tf.keras.layers
    tf.keras.utils.set_random_seed(0)  # the file shuffle's seed pairs with the global one: fix both
    root = tempfile.mkdtemp()
    try:
        _write_folder(tf, root)
        kwargs = dict(validation_split=0.25, seed=123, image_size=(8, 8), batch_size=4)
        train = tf.keras.utils.image_dataset_from_directory(root, subset="training", **kwargs)
        val = tf.keras.utils.image_dataset_from_directory(root, subset="validation", **kwargs)
        names = train.class_names
        first_images, first_labels = next(iter(train))
        train = train.cache().shuffle(100, seed=1).prefetch(tf.data.AUTOTUNE)
        val = val.cache().prefetch(tf.data.AUTOTUNE)
        normalized = train.map(lambda x, y: (layers.Rescaling(1. / 255)(x), y))
        batch, _ = next(iter(normalized))
        model = tf.keras.Sequential([
            tf.keras.Input((8, 8, 3)), layers.Rescaling(1. / 255),
            layers.Conv2D(4, 3, padding="same", activation="relu"), layers.MaxPooling2D(),
            layers.Flatten(), layers.Dense(8, activation="relu"), layers.Dense(len(names))])
        model.compile(optimizer="adam", loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                      metrics=["accuracy"])
        history = model.fit(train, validation_data=val, epochs=2, verbose=0)
        return [names, first_images.dtype.name, first_images.shape.as_list(), first_labels.dtype.name,
                round(float(np.sum(first_images.numpy())), 1), first_labels.numpy().tolist(),
                [round(float(np.min(batch)), 4), round(float(np.max(batch)), 4)], _history(history)]
    finally:
        shutil.rmtree(root)


@program
def p_tutorial_classification_augmentation_model_first_builds_the_stack(tf):
    layers = tf.keras.layers
    augmentation = tf.keras.Sequential([
        layers.RandomFlip("horizontal", input_shape=(12, 12, 3)), layers.RandomRotation(0.1), layers.RandomZoom(0.1)])
    model = tf.keras.Sequential([augmentation, layers.Rescaling(1. / 255), layers.Conv2D(2, 3, padding="same"),
                                 layers.MaxPooling2D(), layers.Dropout(0.2), layers.Flatten(), layers.Dense(3)])
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        model.summary(line_length=80)
    rows = [line for line in out.getvalue().splitlines() if "(None" in line or "params" in line]
    alone = tf.keras.Sequential([augmentation])
    added = tf.keras.Sequential()
    added.add(augmentation)
    built_after_one = added.built
    added.add(layers.Dense(4))
    return [model.built, [w.shape.as_list() if hasattr(w.shape, "as_list") else list(w.shape) for w in model.weights],
            list(model.output_shape), rows, alone.built, built_after_one, added.built, list(added.output_shape)]
