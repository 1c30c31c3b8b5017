"""tf.image's colour-space, adjustment and measure functions (values recorded from TF 2.21 in
tests/conformance/keras_image_prep_tf_image.py): eager against tf.function, gradients against finite
differences where the function is smooth, round trips, and the random versions' seeding."""

from __future__ import annotations

import numpy as np
import pytest

import tinytf as tf


def _images(seed=0, shape=(2, 4, 5, 3)):
    return np.random.default_rng(seed).uniform(0.05, 0.95, shape)


FUNCTIONS = {
    "rgb_to_hsv": tf.image.rgb_to_hsv,
    "hsv_to_rgb": tf.image.hsv_to_rgb,
    "rgb_to_yiq": tf.image.rgb_to_yiq,
    "yuv_to_rgb": tf.image.yuv_to_rgb,
    "adjust_hue": lambda x: tf.image.adjust_hue(x, 0.3),
    "adjust_saturation": lambda x: tf.image.adjust_saturation(x, 0.6),
    "adjust_gamma": lambda x: tf.image.adjust_gamma(x, 1.7, 0.9),
    "total_variation": tf.image.total_variation,
    "image_gradients": lambda x: tf.stack(tf.image.image_gradients(x)),
    "sobel_edges": tf.image.sobel_edges,
    "psnr": lambda x: tf.image.psnr(x, x * 0.5, 1.0),
    "resize_with_pad": lambda x: tf.image.resize_with_pad(x, 7, 3),
}


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_graph_matches_eager(name):
    fn = FUNCTIONS[name]
    x = tf.constant(_images(), tf.float32)
    np.testing.assert_allclose(tf.function(fn, autograph=False)(x).numpy(), fn(x).numpy(), rtol=1e-6, atol=1e-6)


# Functions that compute in float32 whatever the input (as TF does): finite differences with a larger step.
IN_FLOAT32 = {"adjust_saturation", "adjust_gamma", "psnr", "resize_with_pad", "adjust_hue"}


@pytest.mark.parametrize("name", ["rgb_to_hsv", "hsv_to_rgb", "rgb_to_yiq", "adjust_saturation", "adjust_gamma",
                                  "sobel_edges", "psnr", "resize_with_pad", "adjust_hue"])
def test_gradients_match_finite_differences(name):
    fn = FUNCTIONS[name]
    eps, rtol, atol = (1e-3, 1e-2, 2e-3) if name in IN_FLOAT32 else (1e-6, 1e-4, 1e-6)
    x = _images(seed=3, shape=(1, 3, 3, 3))
    weights = np.random.default_rng(4).uniform(-1, 1, np.shape(fn(tf.constant(x)).numpy()))

    def loss(v):
        return tf.reduce_sum(tf.cast(fn(v), tf.float64) * weights)

    v = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(v)
        value = loss(v)
    grad = tape.gradient(value, v).numpy()
    numeric = np.zeros_like(x)
    for index in np.ndindex(x.shape):
        step = np.zeros_like(x)
        step[index] = eps
        numeric[index] = (float(loss(tf.constant(x + step))) - float(loss(tf.constant(x - step)))) / (2 * eps)
    np.testing.assert_allclose(grad, numeric, rtol=rtol, atol=atol)


def test_round_trips():
    x = tf.constant(_images(), tf.float32)
    np.testing.assert_allclose(tf.image.hsv_to_rgb(tf.image.rgb_to_hsv(x)).numpy(), x.numpy(), atol=1e-6)
    # TF's YIQ matrices are given to 8 digits: the round trip is exact to about 1e-4
    np.testing.assert_allclose(tf.image.yiq_to_rgb(tf.image.rgb_to_yiq(x)).numpy(), x.numpy(), atol=1e-4)
    np.testing.assert_allclose(tf.image.adjust_hue(tf.image.adjust_hue(x, 0.3), -0.3).numpy(), x.numpy(),
                               atol=1e-5)
    np.testing.assert_allclose(tf.image.adjust_saturation(x, 1.0).numpy(), x.numpy(), atol=1e-6)


def test_stateless_random_hue_and_saturation_repeat_with_their_seed():
    x = tf.constant(_images(), tf.float32)
    first = tf.image.stateless_random_hue(x, 0.2, (1, 2)).numpy()
    np.testing.assert_array_equal(first, tf.image.stateless_random_hue(x, 0.2, (1, 2)).numpy())
    assert not np.allclose(first, tf.image.stateless_random_hue(x, 0.2, (1, 3)).numpy())
    delta = tf.random.stateless_uniform([], (1, 2), -0.2, 0.2)
    np.testing.assert_allclose(first, tf.image.adjust_hue(x, delta).numpy())
    factor = tf.random.stateless_uniform([], (5, 6), 0.5, 1.5)
    np.testing.assert_allclose(tf.image.stateless_random_saturation(x, 0.5, 1.5, (5, 6)).numpy(),
                               tf.image.adjust_saturation(x, factor).numpy())
    tf.random.set_seed(3)
    a = tf.image.random_hue(x, 0.1, seed=4).numpy()
    tf.random.set_seed(3)
    np.testing.assert_array_equal(a, tf.image.random_hue(x, 0.1, seed=4).numpy())
    assert tf.image.random_saturation(x, 0.5, 2.0).shape == x.shape


def test_integer_images_come_back_in_their_dtype():
    u8 = tf.constant((_images() * 255).astype("uint8"))
    for out in (tf.image.adjust_hue(u8, 0.1), tf.image.adjust_saturation(u8, 2.0), tf.image.adjust_gamma(u8, 0.5)):
        assert out.dtype == tf.uint8 and out.shape == u8.shape


# --- PNG codec -------------------------------------------------------------------------------------------------
def _interlaced_png() -> bytes:
    """A 1x1 grey PNG whose header says Adam7 interlacing."""
    import struct
    import zlib

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 1)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\x00\x07")) + \
        chunk(b"IEND", b"")


@pytest.mark.parametrize("channels", [1, 2, 3, 4])
@pytest.mark.parametrize("dtype", ["uint8", "uint16"])
def test_png_round_trip_eager_and_in_graph(channels, dtype):
    image = np.random.default_rng(channels).integers(0, np.iinfo(dtype).max, (6, 9, channels), endpoint=True)
    image = image.astype(dtype)
    encoded = tf.io.encode_png(image)
    assert encoded.dtype == tf.string and encoded.numpy()[:8] == b"\x89PNG\r\n\x1a\n"
    np.testing.assert_array_equal(tf.io.decode_png(encoded, dtype=tf.as_dtype(dtype)).numpy(), image)
    graph = tf.function(lambda x: tf.io.decode_png(tf.io.encode_png(x), dtype=tf.as_dtype(dtype)))
    np.testing.assert_array_equal(graph(tf.constant(image)).numpy(), image)
    assert graph.get_concrete_function(tf.constant(image)).structured_outputs.shape.as_list() == [None, None, None]


def test_png_decode_in_dataset_map_and_static_channels(tmp_path):
    paths = []
    for i in range(3):
        path = str(tmp_path / f"{i}.png")
        tf.io.write_file(path, tf.io.encode_png(np.full((4 + i, 5, 1), 40 * i, "uint8")))
        paths.append(path)
    ds = tf.data.Dataset.from_tensor_slices(paths).map(lambda p: tf.io.decode_png(tf.io.read_file(p), channels=3))
    images = [x.numpy() for x in ds]
    assert [x.shape for x in images] == [(4, 5, 3), (5, 5, 3), (6, 5, 3)]
    assert all(np.all(x == 40 * i) for i, x in enumerate(images))
    assert ds.element_spec.shape.as_list() == [None, None, 3]


def test_png_bad_input_raises_clear_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid PNG data"):
        tf.io.decode_png(b"\x89PNG\r\n\x1a\n" + b"\x00" * 10)
    with pytest.raises(tf.errors.InvalidArgumentError, match="interlaced"):
        tf.io.decode_png(_interlaced_png())
    with pytest.raises(tf.errors.InvalidArgumentError, match="JPEG"):
        tf.io.decode_image(b"\xff\xd8\xff\xe0" + b"\x00" * 20)
    with pytest.raises((TypeError, tf.errors.InvalidArgumentError), match="uint8 or uint16"):
        tf.io.encode_png(np.zeros((2, 2, 3), "float32"))
    corrupted = bytearray(tf.io.encode_png(np.zeros((4, 4, 3), "uint8")).numpy())
    corrupted[45:55] = b"\xff" * 10  # inside the compressed data
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.io.decode_png(bytes(corrupted))
