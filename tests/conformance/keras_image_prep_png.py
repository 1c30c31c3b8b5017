"""PNG files: TF 2.21's decode_png of files written by TF's own encoder (libpng, every scanline filter) and by
PIL (palette with and without transparency, 1-bit grey, RGBA), for every channel count and uint8/uint16, and the
round trip of encode_png; decode_image's float conversion."""

from __future__ import annotations

import os

import numpy as np

from . import program, val

FOLDER = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tf_files", "png")


@program
def p_png_decode_files(tf):
    out = []
    for name in sorted(os.listdir(FOLDER)):
        data = tf.io.read_file(os.path.join(FOLDER, name))
        for channels in (0, 1, 3, 4):
            for dtype in (tf.uint8, tf.uint16):
                out.append([name, channels, val(tf.io.decode_png(data, channels=channels, dtype=dtype))])
        out.append(val(tf.image.decode_image(data, channels=3, dtype=tf.float32)))
    return out


@program
def p_png_encode_round_trip(tf):
    rng = np.random.default_rng(3)
    out = []
    for channels in (1, 2, 3, 4):
        for dtype in ("uint8", "uint16"):
            image = rng.integers(0, np.iinfo(dtype).max, (5, 7, channels), endpoint=True).astype(dtype)
            decoded = tf.io.decode_png(tf.io.encode_png(image), dtype=tf.as_dtype(dtype))
            out.append([bool(np.array_equal(decoded.numpy(), image)), decoded.dtype.name, decoded.shape.as_list()])
    graph = tf.function(lambda x: tf.io.decode_png(tf.io.encode_png(x), channels=4))
    out.append(val(graph(tf.constant(rng.integers(0, 255, (3, 2, 3)).astype("uint8")))))
    return out


@program
def p_png_errors(tf):
    out = []
    for fn in (lambda: tf.io.decode_png(tf.io.encode_png(np.zeros((2, 2, 3), "uint8")), channels=2),
               lambda: tf.io.decode_png(b"not a png at all"),
               lambda: tf.io.encode_png(np.zeros((2, 2, 5), "uint8"))):
        try:
            fn()
            out.append("no error")
        except tf.errors.InvalidArgumentError:
            out.append("InvalidArgumentError")
        except (ValueError, TypeError) as e:
            out.append(type(e).__name__)
    return out
