"""JPEG, GIF and BMP files as TF 2.21 reads and writes them: encode_jpeg's bytes for every option, decode_jpeg's
pixels for every channel count, ratio, upsampling and IDCT, decode_image/decode_gif/decode_bmp of files Pillow
writes, the ops' format sniffing and errors, the JPEG quality augmentations, and a JPEG image folder through
image_dataset_from_directory."""

from __future__ import annotations

import hashlib
import io
import os

import numpy as np

from . import outcome, program, val


def _picture(seed=0, shape=(19, 27, 3)):
    """A smooth picture with texture (JPEG's worst and best cases in one)."""
    rng = np.random.default_rng(seed)
    ramp = np.cumsum(rng.integers(0, 9, shape), axis=1) % 256
    return ramp.astype("uint8")


def _digest(contents):
    data = contents.numpy()
    return [len(data), hashlib.sha256(data).hexdigest()[:16]]


@program
def p_jpeg_encode_bytes(tf):
    image = _picture()
    out = []
    for options in ({}, {"quality": 10}, {"quality": 50}, {"quality": 100}, {"chroma_downsampling": False},
                    {"progressive": True}, {"optimize_size": True}, {"density_unit": "cm", "x_density": 72,
                                                                     "y_density": 96},
                    {"format": "rgb", "quality": 75}, {"xmp_metadata": "<x:xmpmeta>tinytf</x:xmpmeta>"}):
        out.append([sorted(options), _digest(tf.io.encode_jpeg(image, **options))])
    grey = image[..., :1]
    out.append(_digest(tf.io.encode_jpeg(grey)))
    out.append(_digest(tf.io.encode_jpeg(grey, format="grayscale", quality=60)))
    graph = tf.function(lambda x: tf.io.encode_jpeg(x, quality=70))
    out.append(_digest(graph(tf.constant(image))))
    return out


@program
def p_jpeg_decode_options(tf):
    out = []
    for seed, shape, sub in ((0, (19, 27, 3), True), (1, (16, 16, 3), False), (2, (33, 8, 1), True)):
        contents = tf.io.encode_jpeg(_picture(seed, shape), quality=80, chroma_downsampling=sub)
        for channels in (0, 1, 3):
            out.append(val(tf.io.decode_jpeg(contents, channels=channels)))
        for ratio in (2, 4, 8):
            out.append(val(tf.io.decode_jpeg(contents, ratio=ratio)))
        out.append(val(tf.io.decode_jpeg(contents, fancy_upscaling=False)))
        out.append(val(tf.io.decode_jpeg(contents, dct_method="INTEGER_ACCURATE")))
        out.append(val(tf.io.decode_jpeg(contents, dct_method="INTEGER_FAST")))
        out.append(val(tf.io.extract_jpeg_shape(contents)))
        out.append(val(tf.io.extract_jpeg_shape(contents, output_type=tf.int64)))
        out.append(val(tf.io.is_jpeg(contents)))
    out.append(val(tf.io.is_jpeg(tf.io.encode_png(_picture()))))
    return out


@program
def p_jpeg_decode_in_graphs(tf):
    contents = tf.io.encode_jpeg(_picture(4), quality=90)
    decode = tf.function(lambda s: tf.io.decode_jpeg(s, channels=3))
    image = tf.function(lambda s: tf.image.decode_image(s, channels=3, expand_animations=False))
    spec = tf.TensorSpec([], tf.string)
    dataset = tf.data.Dataset.from_tensors(contents).repeat(2).map(
        lambda s: tf.image.resize(tf.io.decode_jpeg(s), (5, 6)))
    return [val(decode(contents)), decode.get_concrete_function(spec).structured_outputs.shape.as_list(),
            image.get_concrete_function(spec).structured_outputs.shape.as_list(),
            [val(x) for x in dataset], val(tf.image.convert_image_dtype(decode(contents), tf.float32))]


@program
def p_jpeg_decode_crop(tf):
    contents = tf.io.encode_jpeg(_picture(5, (24, 32, 3)), quality=85)
    out = []
    # windows whose edges fall on the chroma grid, where TF's libjpeg crop equals its full decode
    for window in ([0, 0, 10, 17], [5, 3, 12, 12], [2, 20, 20, 11], [0, 0, 24, 32]):
        out.append(val(tf.io.decode_and_crop_jpeg(contents, window)))
        out.append(val(tf.image.decode_and_crop_jpeg(contents, window, channels=1)))
    for window in ([-1, 0, 2, 2], [0, 0, 0, 2], [20, 0, 5, 2]):
        out.append(outcome(lambda w=window: tf.io.decode_and_crop_jpeg(contents, w), "crop window"))
    out.append(outcome(lambda: tf.io.decode_and_crop_jpeg(tf.io.encode_png(_picture()), [0, 0, 2, 2]),
                       "JPEG only"))
    return out


def _pillow_files():
    """GIF and BMP files (and a palette PNG) written by Pillow, which both libraries read."""
    from PIL import Image

    rng = np.random.default_rng(7)
    rgb = rng.integers(0, 256, (5, 7, 3)).astype("uint8")
    rgba = rng.integers(0, 256, (4, 6, 4)).astype("uint8")
    files = {}
    for name, picture in (("rgb.bmp", Image.fromarray(rgb)), ("rgba.bmp", Image.fromarray(rgba, "RGBA")),
                          ("grey.bmp", Image.fromarray(rgb).convert("L")),
                          ("palette.bmp", Image.fromarray(rgb).convert("P"))):
        buffer = io.BytesIO()
        picture.save(buffer, format="BMP")
        files[name] = buffer.getvalue()
    frames = [Image.fromarray(rng.integers(0, 256, (6, 8, 3)).astype("uint8")).convert("P") for _ in range(3)]
    buffer = io.BytesIO()
    frames[0].save(buffer, format="GIF", save_all=True, append_images=frames[1:])
    files["animated.gif"] = buffer.getvalue()
    buffer = io.BytesIO()
    frames[0].save(buffer, format="GIF")
    files["still.gif"] = buffer.getvalue()
    return files


@program
def p_decode_bmp_and_gif(tf):
    files = _pillow_files()
    out = []
    for name in sorted(files):
        data = files[name]
        if name.endswith(".bmp"):
            for channels in (0, 3, 4):
                out.append([name, channels, val(tf.io.decode_bmp(data, channels=channels))])
            out.append(outcome(lambda d=data: tf.io.decode_bmp(d, channels=1), "channels"))
        else:
            out.append([name, val(tf.io.decode_gif(data))])
        out.append([name, outcome(lambda d=data: tf.io.decode_image(d), "format")])
        out.append([name, outcome(lambda d=data: tf.io.decode_image(d, channels=3, expand_animations=False,
                                                                      dtype=tf.float32), "format")])
    out.append(val(tf.io.decode_jpeg(files["still.gif"])))
    out.append(val(tf.io.decode_png(files["still.gif"])))
    return out


@program
def p_image_format_sniffing(tf):
    files = _pillow_files()
    jpeg = tf.io.encode_jpeg(_picture(3, (6, 9, 3)))
    png = tf.io.encode_png(_picture(3, (6, 9, 3)))
    return [val(tf.io.decode_png(jpeg)), val(tf.io.decode_png(jpeg, dtype=tf.uint16)),
            val(tf.io.decode_jpeg(png, channels=4)), val(tf.io.decode_gif(jpeg)), val(tf.io.decode_gif(png)),
            val(tf.io.decode_image(jpeg, dtype=tf.uint16)), val(tf.io.decode_image(jpeg, dtype=tf.float32)),
            outcome(lambda: tf.io.decode_bmp(jpeg), "decode_jpeg"),
            outcome(lambda: tf.io.decode_bmp(png), "decode_png"),
            outcome(lambda: tf.io.decode_jpeg(files["rgb.bmp"]), "decode_bmp"),
            outcome(lambda: tf.io.decode_png(files["rgb.bmp"]), "decode_bmp"),
            outcome(lambda: tf.io.decode_gif(files["rgb.bmp"]), "decode_bmp"),
            outcome(lambda: tf.io.decode_image(b"abc"), "Unknown image file format"),
            outcome(lambda: tf.io.decode_jpeg(b"abc"), "Unknown image file format"),
            outcome(lambda: tf.io.decode_jpeg(jpeg, channels=4), "4 channels"),
            outcome(lambda: tf.io.decode_image(jpeg, channels=4), "4 channels"),
            outcome(lambda: tf.io.decode_png(jpeg, channels=4), "4 channels"),
            outcome(lambda: tf.io.decode_jpeg(jpeg, channels=2), "channels"),
            outcome(lambda: tf.io.decode_jpeg(jpeg, ratio=3), "ratio"),
            outcome(lambda: tf.io.decode_jpeg(b"\xff\xd8\xffgarbage"), "Invalid JPEG data"),
            outcome(lambda: tf.io.decode_jpeg(jpeg.numpy()[:60]), "Invalid JPEG data"),
            outcome(lambda: tf.io.decode_image(files["animated.gif"], channels=1), "GIF"),
            outcome(lambda: tf.io.extract_jpeg_shape(png), "Invalid JPEG data"),
            outcome(lambda: tf.io.encode_jpeg(_picture()[..., :2]), "channels"),
            outcome(lambda: tf.io.encode_jpeg(_picture(), format="grayscale"), "channels"),
            outcome(lambda: tf.io.encode_jpeg(_picture(), quality=101), "quality"),
            outcome(lambda: tf.io.encode_jpeg(tf.constant(_picture(), tf.float32)), "uint8")]


@program
def p_jpeg_quality_augmentation(tf):
    image = _picture(6, (12, 16, 3))
    floats = tf.constant(image / 255.0, tf.float32)
    out = [val(tf.image.adjust_jpeg_quality(image, 30)), val(tf.image.adjust_jpeg_quality(floats, 75)),
           val(tf.image.adjust_jpeg_quality(floats, tf.constant(5), dct_method="INTEGER_ACCURATE")),
           val(tf.image.stateless_random_jpeg_quality(image, 20, 80, seed=(1, 2))),
           val(tf.image.stateless_random_jpeg_quality(floats, 50, 51, seed=(3, 4)))]
    graph = tf.function(lambda x, q: tf.image.adjust_jpeg_quality(x, q))
    out.append(val(graph(floats, tf.constant(40))))
    out.append(outcome(lambda: tf.image.random_jpeg_quality(image, 60, 50), "jpeg"))
    out.append(outcome(lambda: tf.image.random_jpeg_quality(image, -1, 50), "jpeg"))
    return out


@program
def p_jpeg_image_dataset_from_directory(tf):
    """The image classification tutorial's loader on JPEG files (the flowers data set's format)."""
    import tempfile

    root = tempfile.mkdtemp()
    rng = np.random.default_rng(11)
    for name, count in (("daisy", 3), ("roses", 2)):
        os.makedirs(os.path.join(root, name))
        for i in range(count):
            shape = (int(rng.integers(8, 20)), int(rng.integers(8, 20)), 3)
            tf.io.write_file(os.path.join(root, name, f"{i}.jpg"), tf.io.encode_jpeg(_picture(i + count, shape)))
    ds = tf.keras.utils.image_dataset_from_directory(root, image_size=(6, 6), batch_size=2, shuffle=False,
                                                     verbose=False)
    return [ds.class_names, [[val(x), val(y)] for x, y in ds]]
