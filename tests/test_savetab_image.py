"""keras.preprocessing.image's ImageDataGenerator and transforms (helper savetab). Their numbers are checked
against TF 2.21's Keras (with scipy) in tests/conformance/savetab_image.py; here: the numpy resampling against
transforms whose result is known exactly, and model.fit / evaluate / predict on the iterators, eagerly and in
graphs (passes on and off)."""

import os

import numpy as np
import pytest

import tinytf as tf
from tinytf.keras.preprocessing.image_affine import affine_resample

prep = tf.keras.preprocessing.image


def test_quarter_turn_and_whole_pixel_shifts_are_exact():
    image = np.arange(30, dtype=np.float32).reshape(5, 6, 1)
    square = image[:5, :5]
    turned = prep.apply_affine_transform(square, theta=90, row_axis=0, col_axis=1, channel_axis=2)
    assert np.allclose(turned[..., 0], np.rot90(square[..., 0], k=1), atol=1e-5)  # cos(90°) is 6e-17, not 0
    shifted = prep.apply_affine_transform(image, tx=2, row_axis=0, col_axis=1, channel_axis=2, fill_mode="constant",
                                          cval=-1.0)
    expected = np.full_like(image, -1.0)  # Keras' tx moves along the columns here (its matrix is in x, y order)
    expected[:, :4] = image[:, 2:]
    assert np.array_equal(shifted, expected)
    wrapped = affine_resample(image[..., 0], np.eye(2), [0, 1], mode="nearest")
    assert np.array_equal(wrapped[:, :5], image[:, 1:, 0]) and np.array_equal(wrapped[:, 5], image[:, 5, 0])


def test_linear_interpolation_of_a_ramp_is_the_ramp():
    ramp = np.tile(np.arange(8, dtype=np.float64), (4, 1))
    half = affine_resample(ramp, np.eye(2), [0, 0.25], order=1, mode="nearest")
    assert np.allclose(half[:, :7], ramp[:, :7] + 0.25) and np.allclose(half[:, 7], 7.0)


def test_unsupported_order_and_mode_are_named():
    with pytest.raises(NotImplementedError, match="order 3"):
        affine_resample(np.zeros((3, 3)), np.eye(2), [0, 0], order=3)
    with pytest.raises(ValueError, match="fill_mode"):
        affine_resample(np.zeros((3, 3)), np.eye(2), [0, 0], mode="mirror")


def test_seeded_iterators_repeat_and_epochs_reshuffle():
    gen = prep.ImageDataGenerator(rotation_range=30, horizontal_flip=True)
    x = np.random.RandomState(0).rand(8, 5, 5, 1).astype("float32")
    first = gen.flow(x, np.arange(8), batch_size=4, seed=3)
    second = gen.flow(x, np.arange(8), batch_size=4, seed=3)
    a, b = next(first), next(second)
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    labels = [next(first)[1] for _ in range(4)]
    assert sorted(np.concatenate(labels[1:3]).tolist()) == list(range(8))  # the next epoch: every sample once


def _classifier():
    model = tf.keras.Sequential([tf.keras.Input((6, 6, 1)), tf.keras.layers.Flatten(),
                                 tf.keras.layers.Dense(2, activation="softmax")])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.5), loss="sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    return model


def test_fit_evaluate_predict_on_a_numpy_iterator(passes):
    rng = np.random.RandomState(1)
    y = rng.randint(0, 2, 64)
    x = rng.rand(64, 6, 6, 1).astype("float32") * 0.2 + y[:, None, None, None] * 0.8
    gen = prep.ImageDataGenerator(width_shift_range=1, horizontal_flip=True, validation_split=0.25)
    model = _classifier()
    history = model.fit(gen.flow(x, y, batch_size=8, subset="training", seed=0), epochs=4, verbose=0,
                        validation_data=gen.flow(x, y, batch_size=8, subset="validation", seed=0))
    assert history.history["loss"][-1] < history.history["loss"][0]
    assert history.history["val_accuracy"][-1] > 0.9
    loss, accuracy = model.evaluate(gen.flow(x, y, batch_size=16, shuffle=False), verbose=0)
    assert accuracy > 0.9
    assert model.predict(gen.flow(x, batch_size=16, shuffle=False), verbose=0).shape == (64, 2)


def test_fit_on_a_directory_iterator(tmp_path, passes, capsys):
    from PIL import Image

    rng = np.random.RandomState(2)
    for label, level in (("dark", 30), ("light", 220)):
        os.makedirs(tmp_path / label)
        for i in range(6):
            pixels = np.clip(rng.normal(level, 10, (8, 8)), 0, 255).astype("uint8")
            Image.fromarray(pixels, mode="L").save(tmp_path / label / f"{i}.png")
    gen = prep.ImageDataGenerator(rescale=1 / 255.0, rotation_range=10)
    it = gen.flow_from_directory(str(tmp_path), target_size=(6, 6), color_mode="grayscale", class_mode="sparse",
                                 batch_size=4, seed=1)
    assert "Found 12 images belonging to 2 classes." in capsys.readouterr().out
    model = _classifier()
    history = model.fit(it, epochs=5, verbose=0)
    assert history.history["accuracy"][-1] == 1.0
