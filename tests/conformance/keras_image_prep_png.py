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


def _image_folder(tf, root):
    """Three class folders of PNG files of several sizes (and a text file Keras skips), written with TF's ops."""
    rng = np.random.default_rng(0)
    for name, count in (("daisy", 5), ("roses", 4), ("tulips", 3)):
        os.makedirs(os.path.join(root, name), exist_ok=True)
        for i in range(count):
            shape = (int(rng.integers(6, 12)), int(rng.integers(6, 12)), 3)
            pixels = rng.integers(0, 255, shape).astype("uint8")
            tf.io.write_file(os.path.join(root, name, f"img_{i}.png"), tf.io.encode_png(pixels))
    with open(os.path.join(root, "daisy", "notes.txt"), "w") as f:
        f.write("not an image")


@program
def p_image_dataset_from_directory(tf):
    """The image classification tutorial's loader: class names, file order, the seeded validation split, labels
    (int, categorical, none) and the decoded, resized, cropped or padded images (shuffle=False batches)."""
    import tempfile

    keras = tf.keras
    root = tempfile.mkdtemp()
    _image_folder(tf, root)

    def relative(paths):
        return [os.path.relpath(p, root) for p in paths]

    out = []
    plain = keras.utils.image_dataset_from_directory(root, image_size=(8, 8), batch_size=4, shuffle=False,
                                                     verbose=False)
    out.append([plain.class_names, relative(plain.file_paths), [[val(x), val(y)] for x, y in plain]])
    train, valid = keras.utils.image_dataset_from_directory(
        root, image_size=(5, 7), batch_size=3, validation_split=0.25, subset="both", seed=42,
        label_mode="categorical", crop_to_aspect_ratio=True, verbose=False)
    out.append([relative(train.file_paths), relative(valid.file_paths), [[val(x), val(y)] for x, y in valid]])
    grey = keras.utils.image_dataset_from_directory(root, labels=None, color_mode="grayscale", image_size=(4, 4),
                                                    shuffle=False, pad_to_aspect_ratio=True, verbose=False,
                                                    interpolation="nearest")
    out.append([val(x) for x in grey])
    shuffled = keras.utils.image_dataset_from_directory(root, image_size=(3, 3), seed=7, validation_split=0.5,
                                                        subset="training", label_mode="binary",
                                                        class_names=["roses", "tulips"], verbose=False)
    out.append([relative(shuffled.file_paths), sorted(int(v) for _, y in shuffled for v in y.numpy().ravel())])
    for bad in (dict(validation_split=0.2), dict(subset="training", validation_split=0.2, shuffle=True),
                dict(label_mode="binary"), dict(class_names=["lilies"])):
        try:
            keras.utils.image_dataset_from_directory(root, verbose=False, **bad)
            out.append("no error")
        except ValueError:
            out.append("ValueError")
    return out
