"""The tf.image functions the image layers and input pipelines use beyond the basics: HSV, YIQ and YUV,
hue / saturation / gamma adjustments (float and uint8), total variation, image gradients, Sobel edges, PSNR,
resize_with_pad, and the seeded random hue and saturation; with the `>>>` examples of TF's docstrings."""

from __future__ import annotations

import numpy as np

from . import program, val

_X = [[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [[7.0, 8.0, 9.0], [10.0, 11.0, 12.0]]]


def _images():
    x = np.random.default_rng(0).uniform(0, 1, (2, 5, 6, 3)).astype("float32")
    x[0, 0, :4] = [[0.5, 0.5, 0.5], [0.2, 0.7, 0.7], [0.9, 0.9, 0.1], [0, 0, 0]]  # grey, ties, black
    return x


@program
def p_tf_image_docstring_examples(tf):
    blue = tf.stack([tf.zeros([5, 5]), tf.zeros([5, 5]), tf.ones([5, 5])], axis=-1)
    image = tf.constant([[[1, 2, 3], [4, 5, 6]], [[7, 8, 9], [10, 11, 12]], [[13, 14, 15], [16, 17, 18]]])
    sobel = tf.image.sobel_edges(tf.random.stateless_uniform([1, 28, 28, 3], seed=(1, 2), maxval=255))
    return [val(tf.image.adjust_hue(_X, 0.2)), val(tf.image.adjust_hue(image, 0.2)),
            val(tf.image.adjust_saturation(_X, 0.5)), val(tf.image.adjust_gamma(_X, 0.2)),
            val(tf.image.rgb_to_hsv(blue)[0, 0]), val(tf.image.rgb_to_yiq(tf.constant([[[1.0, 2.0, 3.0]]]))),
            val(sobel.shape.as_list()), val(sobel[0, :3, :3, 0, :]),
            val(tf.image.stateless_random_hue(_X, 0.2, (1, 2))),
            val(tf.image.stateless_random_saturation(_X, 0.5, 1.0, (1, 2)))]


@program
def p_tf_image_color_spaces(tf):
    x = tf.constant(_images())
    image = tf.image
    return [val(image.rgb_to_hsv(x)), val(image.hsv_to_rgb(image.rgb_to_hsv(x))), val(image.hsv_to_rgb(x)),
            val(image.rgb_to_hsv(tf.cast(x, tf.float64))), val(image.rgb_to_yiq(x)), val(image.yiq_to_rgb(x)),
            val(image.rgb_to_yuv(x)), val(image.yuv_to_rgb(image.rgb_to_yuv(x)))]


@program
def p_tf_image_adjustments(tf):
    x = tf.constant(_images())
    u8 = tf.constant((_images() * 255).astype("uint8"))
    image = tf.image
    out = [[val(image.adjust_hue(x, d)), val(image.adjust_hue(u8, d))] for d in (-0.7, -0.2, 0.3, 0.9)]
    out += [[val(image.adjust_saturation(x, f)), val(image.adjust_saturation(u8, f))] for f in (0.0, 0.5, 1.7)]
    out += [[val(image.adjust_gamma(x, g, gain)), val(image.adjust_gamma(u8, g, gain))]
            for g, gain in ((0.5, 1.0), (2.2, 0.8))]
    out.append(val(tf.function(lambda v: image.adjust_saturation(image.adjust_hue(v, 0.25), 1.5))(x)))
    return out


@program
def p_tf_image_measures(tf):
    x = tf.constant(_images())
    u8 = tf.constant((_images() * 255).astype("uint8"))
    image = tf.image
    dy, dx = image.image_gradients(x)
    return [val(image.total_variation(x)), val(image.total_variation(x[0])), val(dy), val(dx),
            val(image.sobel_edges(x)), val(image.psnr(x, x * 0.9, 1.0)),
            val(image.psnr(u8, tf.constant((_images() * 255).astype("uint8") // 2 * 2 + 1), 255)),
            val(image.resize_with_pad(x, 8, 4)), val(image.resize_with_pad(x[0], 3, 9)),
            val(image.resize_with_pad(x, 10, 12, method="nearest"))]


@program
def p_tf_image_errors(tf):
    out = []
    for fn in (lambda: tf.image.adjust_gamma(tf.constant(_X), -1.0), lambda: tf.image.random_hue(_X, 0.7),
               lambda: tf.image.random_saturation(_X, 1.0, 0.5), lambda: tf.image.image_gradients(tf.constant(_X)),
               lambda: tf.image.total_variation(tf.zeros([2, 3])),
               lambda: tf.image.rgb_to_hsv(tf.zeros([2, 2, 4]))):
        try:
            fn()
            out.append("no error")
        except tf.errors.OpError as e:  # eager TF: its kernel's error class
            out.append(type(e).__name__)
        except (ValueError, TypeError) as e:
            out.append(["ValueError" if isinstance(e, ValueError) else "TypeError"])
    return out
