"""Models with image preprocessing, 3-D and 1-D layers move between TensorFlow 2.21 and tinytf as .keras files:
the files in tests/keras_files (written by TF, generate_image_layers.py) load here with TF's predictions, and
tinytf's own save of them loads back with the same."""

from __future__ import annotations

import os

import numpy as np
import pytest

import tinytf as tf

HERE = os.path.join(os.path.dirname(__file__), "keras_files")
IO = np.load(os.path.join(HERE, "image_layers_io.npz"))


@pytest.mark.parametrize("name", ["image_augment", "layers_3d", "layers_1d"])
def test_tf_saved_models_load_with_tf_predictions(name, tmp_path):
    model = tf.keras.models.load_model(os.path.join(HERE, f"{name}.keras"))
    x, expected = IO[f"{name}_input"], IO[f"{name}_output"]
    np.testing.assert_allclose(model.predict(x, verbose=0), expected, rtol=1e-5, atol=1e-6)
    path = str(tmp_path / f"{name}.keras")
    model.save(path)
    again = tf.keras.models.load_model(path)
    np.testing.assert_allclose(again.predict(x, verbose=0), expected, rtol=1e-5, atol=1e-6)
    assert [type(layer).__name__ for layer in again.layers] == [type(layer).__name__ for layer in model.layers]
