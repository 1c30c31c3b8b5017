"""tf.image.resize's other methods as TensorFlow 2.21 computes them: bicubic and area (TF's ResizeBicubic and
ResizeArea), lanczos3/5, gaussian, mitchellcubic and every antialiased method (its ScaleAndTranslate kernels),
on single images and batches, float and integer inputs, up and down, eagerly and inside tf.function, with
gradients; resize_with_pad with them; the errors."""

from __future__ import annotations

import numpy as np

from . import data, outcome, program, val

_METHODS = ("bicubic", "area", "lanczos3", "lanczos5", "gaussian", "mitchellcubic")


@program
def p_image_more_resize_methods_up_and_down(tf):
    x = tf.constant(data([2, 5, 6, 2]))
    out = []
    for method in (*_METHODS, "bilinear"):
        for antialias in (False, True):
            out.append([val(tf.image.resize(x, size, method=method, antialias=antialias))
                        for size in ([3, 4], [8, 9], [5, 3], [1, 1])])
    return out


@program
def p_image_more_resize_single_and_integer_images(tf):
    single = tf.constant(data([4, 3, 3], seed=1))
    ints = tf.constant((np.abs(data([1, 6, 5, 1], seed=2, scale=250.0))).astype("uint8"))
    return [[val(tf.image.resize(single, [7, 5], method=m)) for m in _METHODS],
            [val(tf.image.resize(ints, [4, 7], method=m, antialias=True)) for m in _METHODS],
            [val(tf.image.resize(tf.cast(ints, tf.int32), [3, 2], method=m)) for m in _METHODS],
            val(tf.image.resize(single, [9, 4], method=tf.image.ResizeMethod.LANCZOS5, preserve_aspect_ratio=True)),
            val(tf.image.resize(tf.cast(single, tf.float64), [2, 5], method="gaussian"))]


@program
def p_image_more_resize_in_function(tf):
    @tf.function
    def resized(x, h):
        return [tf.image.resize(x, [h, 7], method=m, antialias=a) for m in _METHODS for a in (False, True)]

    @tf.function(input_signature=[tf.TensorSpec([None, None, None, 1], tf.float32)])
    def unknown(x):
        return tf.image.resize(x, [3, 3], method="lanczos3"), tf.image.resize(x, [2, 5], method="area")

    x = tf.constant(data([1, 4, 5, 1], seed=3))
    return [val(resized(x, 6)), val(resized(x, 2)), val(unknown(x)), val(unknown(tf.constant(data([2, 7, 3, 1]))))]


@program
def p_image_more_resize_gradients(tf):
    x = tf.constant(data([2, 4, 5, 2], seed=4))
    weights = tf.constant(data([2, 6, 3, 2], seed=5))
    out = []
    for method in ("bicubic", "lanczos3", "lanczos5", "gaussian", "mitchellcubic", "bilinear"):
        for antialias in (False, True):
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = tf.reduce_sum(tf.image.resize(x, [6, 3], method=method, antialias=antialias) * weights)
            out.append(val(tape.gradient(y, x)))
    return out


@program
def p_image_more_resize_area_has_no_gradient(tf):
    x = tf.constant(data([1, 4, 4, 1]))

    def area_gradient():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(tf.image.resize(x, [2, 2], method="area"))
        return tape.gradient(y, x)

    return [outcome(area_gradient, "gradient registry has no entry for")]


@program
def p_image_more_resize_with_pad(tf):
    x = tf.constant(data([5, 3, 2], seed=6))
    return [val(tf.image.resize_with_pad(x, 6, 6, method=m)) for m in _METHODS] + \
        [val(tf.image.resize_with_pad(tf.constant(data([2, 4, 8, 1])), 3, 3, method="lanczos3", antialias=True))]


@program
def p_image_more_resize_errors(tf):
    x = tf.constant(data([4, 4, 1]))
    return [outcome(lambda: tf.image.resize(x, [2, 2], method="cubic"), "Resize method is not implemented"),
            outcome(lambda: tf.image.resize(x, [2, 2, 2], method="bicubic"), "2 elements"),
            outcome(lambda: tf.image.resize(tf.ones([4]), [2, 2], method="area"), "must have either 3 or 4")]


@program
def p_image_more_resize_docstring(tf):
    image = tf.constant([[1, 0, 0, 0, 0], [0, 1, 0, 0, 0], [0, 0, 1, 0, 0], [0, 0, 0, 1, 0], [0, 0, 0, 0, 1]])
    image = image[tf.newaxis, ..., tf.newaxis]
    return [val(tf.image.resize(image, [3, 5], method=m)[0, ..., 0]) for m in _METHODS] + \
        [val(tf.image.resize(image, [3, 5], antialias=True)[0, ..., 0]),
         val(tf.image.resize(image, [10, 20], method="lanczos3", preserve_aspect_ratio=True).shape.as_list())]
