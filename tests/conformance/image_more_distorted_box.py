"""tf.image.sample_distorted_bounding_box and stateless_sample_distorted_bounding_box as TensorFlow 2.21 draws
them: the stateless crops for many seeds, sizes, boxes and ranges; the seeded stateful crops eagerly and in a
tf.function (each run continues the kernel's stream); the docstrings' examples; the errors."""

from __future__ import annotations

import numpy as np

from . import outcome, program, val


def _cases():
    rng = np.random.RandomState(0)
    for _ in range(25):
        height, width = int(rng.randint(1, 300)), int(rng.randint(1, 300))
        count = int(rng.randint(0, 4))
        corner = rng.rand(1, count, 2) * 0.7
        boxes = np.concatenate([corner, corner + rng.rand(1, count, 2) * 0.3], 2).astype("float32")
        kwargs = {"min_object_covered": float(rng.choice([0.0, 0.1, 0.5, 0.9])),
                  "aspect_ratio_range": [float(v) for v in sorted(rng.rand(2) * 2 + 0.2)],
                  "area_range": [float(v) for v in sorted(rng.rand(2) * 0.9 + 0.1)],
                  "max_attempts": int(rng.choice([1, 5, 100])), "use_image_if_no_bounding_boxes": True}
        yield [height, width, 3], boxes, [int(rng.randint(-2**31, 2**31 - 1)), int(rng.randint(0, 2**31 - 1))], kwargs


@program
def p_image_more_stateless_distorted_box(tf):
    return [val(tf.image.stateless_sample_distorted_bounding_box(size, boxes, seed, **kwargs))
            for size, boxes, seed, kwargs in _cases()] + \
        [val(tf.image.stateless_sample_distorted_bounding_box(tf.constant([64, 48, 1], tf.int64),
                                                              [[[0.1, 0.1, 0.9, 0.8]]], [3, 4])),
         val(tf.image.stateless_sample_distorted_bounding_box(tf.constant([20, 30, 3], tf.uint8),
                                                              [[[0.0, 0.0, 1.0, 1.0]]], tf.constant([5, 6],
                                                                                                     tf.int64)))]


@program
def p_image_more_seeded_distorted_box(tf):
    tf.random.set_seed(5)
    eager = [val(tf.image.sample_distorted_bounding_box(tf.constant([100, 120, 3]), [[[0.1, 0.2, 0.5, 0.6]]],
                                                        seed=7, min_object_covered=0.2)) for _ in range(3)]

    @tf.function
    def crop():
        return tf.image.sample_distorted_bounding_box([50, 60, 3], [[[0.1, 0.2, 0.5, 0.6]]], seed=3, max_attempts=7,
                                                      area_range=(0.3, 0.9))

    return eager + [val(crop()) for _ in range(3)]


@program
def p_image_more_distorted_box_docstring(tf):
    image = np.array([[[1], [2], [3]], [[4], [5], [6]], [[7], [8], [9]]])
    bbox = tf.constant([0.0, 0.0, 1.0, 1.0], dtype=tf.float32, shape=[1, 1, 4])
    bbox_begin, bbox_size, bbox_draw = tf.image.stateless_sample_distorted_bounding_box(
        tf.shape(image), bounding_boxes=bbox, seed=(1, 2))
    colors = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    drawn = tf.image.draw_bounding_boxes(tf.expand_dims(tf.cast(image, tf.float32), 0), bbox_draw, colors)
    return [val(tf.slice(image, bbox_begin, bbox_size)), val(drawn), val(bbox_draw)]


@program
def p_image_more_distorted_box_errors(tf):
    def sample(size=(10, 10, 3), boxes=((0.1, 0.1, 0.5, 0.5),), **kwargs):
        return tf.image.stateless_sample_distorted_bounding_box(list(size), np.array([boxes], "float32"), [1, 2],
                                                                **kwargs)

    return [outcome(lambda: sample(boxes=((0.1, 0.1, 1.5, 0.5),)), "must be in [0.0, 1.0]"),
            outcome(lambda: sample(boxes=np.zeros((0, 4))), "use_image_if_no_bounding_boxes"),
            outcome(lambda: sample(min_object_covered=-0.5), "Min object covered must be non-negative"),
            outcome(lambda: sample(size=(10, 10)), "3 elements")]
