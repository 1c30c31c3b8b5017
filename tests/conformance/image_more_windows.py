"""tf.image's window ops as TensorFlow 2.21 computes them: crop_and_resize (bilinear and nearest, boxes leaving
the image, one-pixel crops, integer images, its gradients for the image and the boxes), extract_patches
(VALID and SAME, strides and rates, with its gradient), extract_glimpse (every offset convention, zero noise)
and draw_bounding_boxes (TF's colour table and given colours); eagerly and in tf.function; the docstrings'
examples; the errors."""

from __future__ import annotations

import numpy as np

from . import data, outcome, program, val

_BOXES = [[0.1, 0.2, 0.8, 0.9], [-0.2, 0.0, 0.5, 1.3], [0.6, 0.7, 0.2, 0.1], [0.5, 0.5, 0.5, 0.5],
          [0.0, 0.0, 1.0, 1.0]]


@program
def p_image_more_crop_and_resize(tf):
    image = tf.constant(data([2, 5, 6, 2]))
    ints = tf.constant(np.abs(data([1, 4, 4, 1], scale=200.0)).astype("uint8"))
    index = [0, 1, 1, 0, 1]
    return [val(tf.image.crop_and_resize(image, _BOXES, index, [3, 4])),
            val(tf.image.crop_and_resize(image, _BOXES, index, [1, 1])),
            val(tf.image.crop_and_resize(image, _BOXES, index, [4, 3], method="nearest", extrapolation_value=-1.5)),
            val(tf.image.crop_and_resize(image, _BOXES, index, [2, 5], extrapolation_value=9.0)),
            val(tf.image.crop_and_resize(ints, [[0.25, 0.25, 0.75, 0.75]], [0], [3, 3])),
            val(tf.image.crop_and_resize(ints, [[0.25, 0.25, 0.75, 0.75]], [0], [3, 3], method="nearest")),
            val(tf.image.crop_and_resize(image, tf.zeros([0, 4]), tf.zeros([0], tf.int32), [2, 2]))]


@program
def p_image_more_crop_and_resize_gradients(tf):
    image = tf.constant(data([2, 5, 6, 2], seed=1))
    boxes = tf.constant([[0.1, 0.2, 0.8, 0.9], [-0.2, 0.05, 0.55, 1.3], [0.3, 0.3, 0.6, 0.45]])
    weights = tf.constant(data([3, 3, 4, 2], seed=2))
    out = []
    for method in ("bilinear", "nearest"):
        for crop in ([3, 4], [1, 1]):
            with tf.GradientTape() as tape:
                tape.watch([image, boxes])
                crops = tf.image.crop_and_resize(image, boxes, [1, 0, 1], crop, method=method)
                y = tf.reduce_sum(crops * weights[:, :crop[0], :crop[1]])
            out.append(val(tape.gradient(y, [image, boxes])))
    return out


@program
def p_image_more_crop_and_resize_in_function(tf):
    @tf.function(input_signature=[tf.TensorSpec([None, None, None, 1]), tf.TensorSpec([None, 4]),
                                  tf.TensorSpec([None], tf.int32)])
    def crops(image, boxes, index):
        return tf.image.crop_and_resize(image, boxes, index, [2, 3])

    return [val(crops(tf.constant(data([2, 4, 5, 1])), tf.constant(_BOXES[:3]), tf.constant([1, 0, 0]))),
            val(crops(tf.constant(data([1, 3, 3, 1])), tf.constant(_BOXES[3:]), tf.constant([0, 0])))]


@program
def p_image_more_crop_and_resize_errors(tf):
    image = tf.constant(data([2, 4, 4, 1]))
    return [outcome(lambda: tf.image.crop_and_resize(image, _BOXES[:1], [2], [2, 2]), "box_index"),
            outcome(lambda: tf.image.crop_and_resize(image, _BOXES[:1], [0], [2, 2], method="cubic"), "method"),
            outcome(lambda: tf.image.crop_and_resize(image, _BOXES[:1], [0], [0, 2]), "must be positive")]


@program
def p_image_more_extract_patches(tf):
    images = tf.constant(data([2, 7, 6, 3]))
    out = []
    for sizes, strides, rates in (([1, 3, 3, 1], [1, 2, 2, 1], [1, 1, 1, 1]), ([1, 2, 3, 1], [1, 1, 3, 1],
                                                                                [1, 2, 1, 1]),
                                  ([1, 1, 1, 1], [1, 3, 2, 1], [1, 1, 1, 1]), ([1, 4, 2, 1], [1, 2, 1, 1],
                                                                                [1, 1, 2, 1])):
        for padding in ("VALID", "SAME"):
            out.append(val(tf.image.extract_patches(images, sizes, strides, rates, padding)))
    ints = tf.constant(np.arange(2 * 5 * 5, dtype="int32").reshape(2, 5, 5, 1))
    out.append(val(tf.image.extract_patches(ints, [1, 2, 2, 1], [1, 2, 2, 1], [1, 1, 1, 1], "SAME")))
    out.append(val(tf.image.extract_patches(images, [1, 8, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1], "VALID")))
    return out


@program
def p_image_more_extract_patches_gradient_and_function(tf):
    images = tf.constant(data([1, 6, 5, 2], seed=3))

    @tf.function
    def grad(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            patches = tf.image.extract_patches(x, [1, 3, 2, 1], [1, 2, 1, 1], [1, 1, 2, 1], "SAME")
            ramp = tf.reshape(tf.cast(tf.range(tf.size(patches)), tf.float32), tf.shape(patches))
            y = tf.reduce_sum(patches * ramp / 50.0)
        return patches, tape.gradient(y, x)

    return [val(grad(images))]


@program
def p_image_more_extract_patches_docstring(tf):
    n = 10
    images = [[[[x * n + y + 1] for y in range(n)] for x in range(n)]]
    return [val(tf.image.extract_patches(images=images, sizes=[1, 3, 3, 1], strides=[1, 5, 5, 1],
                                         rates=[1, 1, 1, 1], padding="VALID")),
            val(tf.image.extract_patches(images=images, sizes=[1, 3, 3, 1], strides=[1, 5, 5, 1],
                                         rates=[1, 2, 2, 1], padding="VALID"))]


@program
def p_image_more_extract_glimpse(tf):
    x = tf.constant(np.arange(1, 1 + 2 * 5 * 6, dtype="float32").reshape(2, 5, 6, 1))
    out = []
    for offsets, centered, normalized in (([[0.0, 0.0], [0.2, -0.37]], True, True),
                                          ([[0.3, 0.3], [0.95, 0.1]], False, True),
                                          ([[1.6, 2.4], [-1.5, -0.6]], False, False),
                                          ([[2.0, 1.0], [-3.0, -4.0]], True, False),
                                          ([[20.0, 20.0], [4.0, 5.0]], False, False)):
        out.append(val(tf.image.extract_glimpse(x, [3, 3], offsets, centered, normalized, noise="zero")))
    out.append(val(tf.image.extract_glimpse(x, [2, 4], [[1.0, 1.0], [0.0, 2.0]], centered=False,
                                            normalized=False)))
    return out


@program
def p_image_more_extract_glimpse_docstring(tf):
    x = [[[[0.0], [1.0], [2.0]], [[3.0], [4.0], [5.0]], [[6.0], [7.0], [8.0]]]]
    return [val(tf.image.extract_glimpse(x, size=(2, 2), offsets=[[1, 1]], centered=False, normalized=False))]


@program
def p_image_more_draw_bounding_boxes(tf):
    images = tf.constant(data([2, 6, 7, 3]))
    boxes = [[[0.1, 0.2, 0.8, 0.9], [-0.2, 0.5, 0.5, 1.4], [0.7, 0.7, 0.2, 0.2]],
             [[0.0, 0.0, 1.0, 1.0], [1.2, 0.0, 1.5, 1.0], [0.3, 0.3, 0.31, 0.34]]]
    gray = tf.constant(data([1, 5, 5, 1]))
    many = [[[i / 14.0, i / 14.0, 1.0 - i / 14.0, 1.0 - i / 14.0] for i in range(12)]]
    return [val(tf.image.draw_bounding_boxes(images, boxes, [[0.2, 0.4, 0.6], [1.0, 0.0, 1.0]])),
            val(tf.image.draw_bounding_boxes(images, boxes, None)),
            val(tf.image.draw_bounding_boxes(gray, boxes[:1], None)),
            val(tf.image.draw_bounding_boxes(tf.concat([images[:1], tf.ones([1, 6, 7, 1])], -1), many, None)),
            val(tf.image.draw_bounding_boxes(tf.zeros([1, 3, 3, 3]), np.array([0, 0, 1, 1]).reshape([1, 1, 4]),
                                             np.array([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])))]
