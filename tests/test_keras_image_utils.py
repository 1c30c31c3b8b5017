"""keras.utils' image file helpers (load_img, img_to_array, array_to_img, save_img) on PIL, Keras' own optional
dependency for them (tests skip without it). Their outputs were compared with TF 2.21's Keras on the same PIL
while they were written (25 cases: every mode, size, interpolation, keep_aspect_ratio); here: round trips,
shapes, scaling, and Keras' errors."""

from __future__ import annotations

import io

import numpy as np
import pytest

import tinytf as tf
from tinytf.keras.utils import image_utils

U = tf.keras.utils


def test_array_to_img_scales_to_bytes_and_picks_the_mode():
    pytest.importorskip("PIL")
    x = np.linspace(-2, 6, 7 * 9 * 3, dtype="float32").reshape(7, 9, 3)
    img = U.array_to_img(x)
    assert img.mode == "RGB" and img.size == (9, 7)
    expected = ((x - x.min()) / (x.max() - x.min()) * 255).astype("uint8")
    np.testing.assert_array_equal(np.asarray(img), expected)
    assert U.array_to_img(x[..., :1]).mode == "L"
    assert U.array_to_img(np.concatenate([x, x[..., :1]], -1)).mode == "RGBA"
    assert U.array_to_img(x[..., :1] * 100, scale=False).mode == "I"
    with pytest.raises(ValueError, match="Unsupported channel number"):
        U.array_to_img(x[..., :2])
    with pytest.raises(ValueError, match="rank 3"):
        U.array_to_img(x[0])


def test_img_to_array_layouts():
    gray = np.arange(12, dtype="uint8").reshape(3, 4)
    assert U.img_to_array(gray).shape == (3, 4, 1) and U.img_to_array(gray).dtype == np.float32
    assert U.img_to_array(gray, data_format="channels_first").shape == (1, 3, 4)
    assert U.img_to_array(np.zeros((3, 4, 2)), data_format="channels_first").shape == (2, 3, 4)
    with pytest.raises(ValueError, match="Unsupported image shape"):
        U.img_to_array(np.zeros(3))


def test_save_and_load_round_trip(tmp_path):
    pytest.importorskip("PIL")
    x = np.random.default_rng(0).integers(0, 256, (6, 8, 3)).astype("float32")
    x[0, 0] = [0, 0, 0]
    x[0, 1] = [255, 255, 255]  # the full range: scaling leaves the values as they are
    path = str(tmp_path / "image.png")
    U.save_img(path, x)
    np.testing.assert_array_equal(U.img_to_array(U.load_img(path)), x)
    assert U.img_to_array(U.load_img(path, color_mode="grayscale")).shape == (6, 8, 1)
    assert U.img_to_array(U.load_img(path, color_mode="rgba")).shape == (6, 8, 4)
    assert U.load_img(path, target_size=(3, 5), interpolation="bilinear").size == (5, 3)
    assert U.load_img(path, target_size=(6, 2), keep_aspect_ratio=True).size == (2, 6)
    with open(path, "rb") as f:
        from_bytes = U.load_img(io.BytesIO(f.read()))
    np.testing.assert_array_equal(np.asarray(from_bytes), x.astype("uint8"))
    decoded = tf.io.decode_png(tf.io.read_file(path))  # the file PIL wrote, read by tinytf's own decoder
    np.testing.assert_array_equal(decoded.numpy(), x.astype("uint8"))


def test_keras_errors():
    pytest.importorskip("PIL")
    with pytest.raises(ValueError, match="color_mode"):
        U.load_img(io.BytesIO(tf.io.encode_png(np.zeros((2, 2, 3), "uint8")).numpy()), color_mode="cmyk")
    with pytest.raises(ValueError, match="Invalid interpolation"):
        U.load_img(io.BytesIO(tf.io.encode_png(np.zeros((2, 2, 3), "uint8")).numpy()), target_size=(3, 3),
                   interpolation="cubic")
    with pytest.raises(TypeError, match="path should be path-like"):
        U.load_img(42)


def test_without_pil_the_error_is_keras_import_error(monkeypatch):
    monkeypatch.setattr(image_utils, "_pil", lambda: None)
    with pytest.raises(ImportError, match="requires PIL"):
        U.load_img("anything.png")
    with pytest.raises(ImportError, match="requires PIL"):
        U.array_to_img(np.zeros((2, 2, 3)))
