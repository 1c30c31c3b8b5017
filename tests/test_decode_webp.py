"""tf.io.decode_webp / tf.image.decode_webp, WebP in decode_image, decode_jxl's checks (helper gapsa). The WebP
files are made here with Pillow; TF's decodings of the same files are in conformance toplevel_gaps."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

import tinytf as tf


def webp(array, **options):
    buffer = io.BytesIO()
    Image.fromarray(array).save(buffer, "WEBP", **options)
    return buffer.getvalue()


RGB = (np.arange(4 * 5 * 3) % 256).astype(np.uint8).reshape(4, 5, 3)
RGBA = np.dstack([RGB, np.full((4, 5, 1), 200, np.uint8)])


def test_lossless_frames_are_exact_eager_and_graph():
    for data, pixels in ((webp(RGB, lossless=True), RGB), (webp(RGBA, lossless=True), RGBA)):
        out = tf.io.decode_webp(data)
        assert out.dtype is tf.uint8 and out.shape == (1,) + pixels.shape
        np.testing.assert_array_equal(out.numpy()[0], pixels)
        graph = tf.function(lambda d: tf.image.decode_webp(d))(tf.constant(data))
        np.testing.assert_array_equal(graph.numpy(), out.numpy())
        np.testing.assert_array_equal(tf.io.decode_image(data, expand_animations=False).numpy(), pixels)


def test_channel_rules():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Number of channels requested does not match input"):
        tf.io.decode_webp(webp(RGB, lossless=True), channels=4)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Number of channels requested does not match input"):
        tf.io.decode_webp(webp(RGBA, lossless=True), channels=3)
    assert tf.io.decode_webp(webp(RGB, quality=80), channels=3).shape == (1, 4, 5, 3)


def test_animation_frames():
    frames = [Image.fromarray(np.dstack([np.full((3, 4, 3), v, np.uint8), np.full((3, 4, 1), 255, np.uint8)]))
              for v in (10, 200)]
    buffer = io.BytesIO()
    frames[0].save(buffer, "WEBP", save_all=True, append_images=frames[1:], lossless=True, duration=100)
    out = tf.io.decode_webp(buffer.getvalue(), channels=0)
    assert out.shape[0] == 2 and out.numpy()[1, 0, 0, 0] == 200
    with pytest.raises(tf.errors.InvalidArgumentError, match="WebP Animation must be 4 channel RGBA"):
        tf.io.decode_webp(buffer.getvalue(), channels=3)


def test_bad_files():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Unknown image file format"):
        tf.io.decode_webp(b"not a webp")
    with pytest.raises(tf.errors.InvalidArgumentError, match="Unknown image file format"):
        tf.io.decode_jxl(b"junk data")
    png = tf.io.encode_png(RGB)  # TF's decoders read every format they know: DecodeJxl gives a PNG's pixels
    np.testing.assert_array_equal(tf.io.decode_jxl(png).numpy(), RGB)
    assert tf.io.decode_jxl(png, dtype=tf.float32).numpy().max() <= 1.0
    with pytest.raises(tf.errors.UnimplementedError, match="JPEG XL"):
        tf.image.decode_jxl(b"\xff\x0a\x00\x00")
    assert tf.io.gfile.get_registered_schemes() == ["file", ""]
