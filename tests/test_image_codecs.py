"""JPEG, GIF and BMP files (runtime/ops/image_decode.py): round trips against numpy, the same pixels eagerly, in
tf.function and in dataset.map, static shapes, concurrent decoding, and clear errors. TF's own bytes and pixels
are compared in tests/conformance/image_jpeg_codecs.py."""

from __future__ import annotations

import io
import sys
import threading

import numpy as np
import pytest

import tinytf as tf


def _picture(shape=(24, 32, 3), seed=0):
    rng = np.random.default_rng(seed)
    return (np.cumsum(rng.integers(0, 6, shape), axis=1) % 256).astype("uint8")


def test_jpeg_round_trip_error_falls_with_quality():
    image = _picture()
    errors = []
    for quality in (30, 70, 95, 100):
        decoded = tf.io.decode_jpeg(tf.io.encode_jpeg(image, quality=quality, chroma_downsampling=False)).numpy()
        assert decoded.shape == image.shape and decoded.dtype == np.uint8
        errors.append(np.abs(decoded.astype(int) - image).mean())
    assert errors == sorted(errors, reverse=True)  # higher quality, smaller error
    assert errors[-1] < 2.0


def test_decode_options_change_pixels_as_documented():
    contents = tf.io.encode_jpeg(_picture(), quality=90)
    fast, accurate = tf.io.decode_jpeg(contents), tf.io.decode_jpeg(contents, dct_method="INTEGER_ACCURATE")
    assert fast.shape == accurate.shape and np.abs(fast.numpy().astype(int) - accurate.numpy()).max() <= 3
    assert tf.io.decode_jpeg(contents, ratio=2).shape == (12, 16, 3)
    assert tf.io.decode_jpeg(contents, ratio=8).shape == (3, 4, 3)
    grey = tf.io.decode_jpeg(contents, channels=1).numpy()
    expected = np.asarray(tf.image.rgb_to_grayscale(fast)).astype(int)
    assert grey.shape == (24, 32, 1) and np.abs(grey.astype(int) - expected).max() <= 3
    assert tf.io.extract_jpeg_shape(contents).numpy().tolist() == [24, 32, 3]
    assert bool(tf.io.is_jpeg(contents)) and not bool(tf.io.is_jpeg(tf.io.encode_png(_picture())))


def test_eager_function_and_dataset_map_agree():
    contents = tf.io.encode_jpeg(_picture(seed=1))
    eager = tf.io.decode_jpeg(contents, channels=3).numpy()
    decode = tf.function(lambda s: tf.io.decode_jpeg(s, channels=3))
    np.testing.assert_array_equal(decode(contents).numpy(), eager)
    concrete = decode.get_concrete_function(tf.TensorSpec([], tf.string))
    assert concrete.structured_outputs.shape.as_list() == [None, None, 3]
    dataset = tf.data.Dataset.from_tensors(contents).repeat(3).map(tf.io.decode_image)
    for image in dataset:
        np.testing.assert_array_equal(image.numpy(), eager)
    assert dataset.element_spec.shape.rank is None  # decode_image expands GIF animations: unknown rank, as TF


def test_crop_is_the_window_of_the_full_decode():
    contents = tf.io.encode_jpeg(_picture(seed=2))
    full = tf.io.decode_jpeg(contents).numpy()
    window = tf.io.decode_and_crop_jpeg(contents, [3, 5, 10, 12]).numpy()
    np.testing.assert_array_equal(window, full[3:13, 5:17])
    with pytest.raises(tf.errors.InvalidArgumentError, match="crop window"):
        tf.io.decode_and_crop_jpeg(contents, [20, 0, 10, 2])


def test_bmp_rows_channels_and_padding_match_pillow():
    from PIL import Image

    rng = np.random.default_rng(3)
    for shape, mode in (((5, 7, 3), "RGB"), ((3, 5, 4), "RGBA"), ((4, 6, 1), "L")):
        pixels = rng.integers(0, 256, shape).astype("uint8")
        buffer = io.BytesIO()
        Image.fromarray(pixels[..., 0] if mode == "L" else pixels, mode).save(buffer, format="BMP")
        data = buffer.getvalue()
        np.testing.assert_array_equal(tf.io.decode_bmp(data).numpy(), pixels)
        rgb = tf.io.decode_bmp(data, channels=3).numpy()
        np.testing.assert_array_equal(rgb, np.broadcast_to(pixels[..., :3], shape[:2] + (3,)))
        rgba = tf.io.decode_bmp(data, channels=4).numpy()
        assert rgba.shape == shape[:2] + (4,) and (mode == "RGBA" or np.all(rgba[..., 3] == 255))
        np.testing.assert_array_equal(tf.io.decode_image(data).numpy(), pixels)


def test_gif_frames():
    from PIL import Image

    rng = np.random.default_rng(4)
    frames = [rng.integers(0, 4, (6, 8)).astype("uint8") * 60 for _ in range(3)]
    palette_frames = [Image.fromarray(f).convert("P") for f in frames]
    buffer = io.BytesIO()
    palette_frames[0].save(buffer, format="GIF", save_all=True, append_images=palette_frames[1:])
    decoded = tf.io.decode_gif(buffer.getvalue()).numpy()
    assert decoded.shape == (3, 6, 8, 3)
    for frame, expected in zip(decoded, frames):
        np.testing.assert_array_equal(frame, np.repeat(expected[..., None], 3, axis=-1))
    assert tf.io.decode_image(buffer.getvalue(), expand_animations=False).shape == (6, 8, 3)
    with pytest.raises(tf.errors.InvalidArgumentError, match="animated"):
        tf.io.decode_jpeg(buffer.getvalue())


def test_bad_input_names_the_op_and_the_problem():
    jpeg = tf.io.encode_jpeg(_picture())
    with pytest.raises(tf.errors.InvalidArgumentError, match="DecodeJpeg.*Invalid JPEG data"):
        tf.io.decode_jpeg(jpeg.numpy()[:80])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Unknown image file format"):
        tf.io.decode_image(b"not an image")
    with pytest.raises(tf.errors.InvalidArgumentError, match="decode_jpeg"):
        tf.io.decode_bmp(jpeg)
    with pytest.raises(tf.errors.InvalidArgumentError, match="quality"):
        tf.io.encode_jpeg(_picture(), quality=-1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="encode_jpeg.*uint8"):
        tf.io.encode_jpeg(tf.zeros([2, 2, 3]))
    with pytest.raises((ValueError, tf.errors.InvalidArgumentError), match="scalar"):
        tf.io.decode_jpeg([jpeg, jpeg])


def test_a_missing_codec_library_is_named(monkeypatch):
    monkeypatch.setitem(sys.modules, "simplejpeg", None)
    with pytest.raises(ImportError, match="simplejpeg"):
        tf.io.decode_jpeg(tf.io.encode_jpeg(_picture()))


def test_concurrent_decoding_gives_the_same_pixels():
    contents = [tf.io.encode_jpeg(_picture(seed=s)) for s in range(4)]
    expected = [tf.io.decode_jpeg(c).numpy() for c in contents]
    decode = tf.function(lambda s: tf.io.decode_jpeg(s))
    failures = []

    def work(index):
        for _ in range(10):
            if not np.array_equal(decode(contents[index]).numpy(), expected[index]):
                failures.append(index)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures


def test_argmax_of_a_one_hot_bool_label_as_the_image_loading_tutorial():
    class_names = np.array(["daisy", "roses", "tulips"])

    def get_label(file_path):
        parts = tf.strings.split(file_path, "/")
        return tf.argmax(parts[-2] == class_names), tf.argmin(parts[-2] == class_names)

    for fn in (get_label, tf.function(get_label)):
        label, other = fn(tf.constant("data/roses/1.jpg"))
        assert label.dtype == tf.int64 and int(label) == 1 and int(other) == 0
