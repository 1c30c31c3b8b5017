"""tf.compat.v1.image's own functions as TensorFlow 2.21 computes them: the raw ResizeBicubic (legacy and
half-pixel rules, align_corners) and ResizeArea, crop_and_resize with `box_ind`, draw_bounding_boxes in TF1's
argument order, and sample_distorted_bounding_box with its kernel seeds (seed, seed2)."""

from __future__ import annotations

from . import data, program, val


@program
def p_image_more_compat_v1_resize(tf):
    v1 = tf.compat.v1.image
    x = tf.constant(data([2, 5, 7, 2]))
    return [val(v1.resize_bicubic(x, [8, 3])), val(v1.resize_bicubic(x, [8, 3], align_corners=True)),
            val(v1.resize_bicubic(x, [3, 11], half_pixel_centers=True)), val(v1.resize_area(x, [3, 9])),
            val(v1.resize_area(x, [6, 4], align_corners=True)),
            val(v1.resize_bicubic(tf.cast(x * 100, tf.int32), [4, 4]))]


@program
def p_image_more_compat_v1_boxes(tf):
    v1 = tf.compat.v1.image
    x = tf.constant(data([2, 5, 7, 1], seed=1))
    crops = v1.crop_and_resize(x, [[0.1, 0.1, 0.8, 0.9], [0.0, 0.2, 1.0, 0.6]], box_ind=[1, 0], crop_size=[3, 3])
    drawn = v1.draw_bounding_boxes(x, [[[0.1, 0.1, 0.8, 0.9]], [[0.2, 0.0, 0.5, 1.0]]])
    samples = [val(v1.sample_distorted_bounding_box([60, 70, 3], [[[0.1, 0.1, 0.6, 0.7]]], seed=3, seed2=9))
               for _ in range(3)]
    return [val(crops), val(drawn)] + samples
