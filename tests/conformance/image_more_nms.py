"""tf.image's non-max suppressions as TensorFlow 2.21 selects: non_max_suppression, _with_scores (hard and
soft-NMS), _overlaps, _padded (single and batched, its tiles, its coordinate canonicalisation) and
combined_non_max_suppression (per class, padding per class, clipping), with equal scores where TF's order of
ties shows; eagerly and in tf.function; the docstrings' usage; the errors."""

from __future__ import annotations

import numpy as np

from . import outcome, program, val


def _boxes(n, seed, swap=False):
    rng = np.random.RandomState(seed)
    corner = rng.rand(n, 2) * 0.8
    boxes = np.concatenate([corner, corner + rng.rand(n, 2) * 0.4 + 0.05], 1).astype("float32")
    return boxes[:, [2, 3, 0, 1]] if swap else boxes


def _scores(n, seed, ties=False):
    scores = np.random.RandomState(seed).rand(n).astype("float32")
    return (np.round(scores * 4) / 4).astype("float32") if ties else scores


@program
def p_image_more_nms_greedy(tf):
    out = []
    for seed, ties, swap in ((0, False, False), (1, True, False), (2, True, True), (3, False, True)):
        boxes, scores = _boxes(30, seed, swap), _scores(30, seed + 10, ties)
        for iou, score_threshold in ((0.5, float("-inf")), (0.2, 0.3), (0.0, 0.6), (1.0, float("-inf"))):
            out.append(val(tf.image.non_max_suppression(boxes, scores, 12, iou, score_threshold)))
    out.append(val(tf.image.non_max_suppression(_boxes(5, 4), _scores(5, 4), 0)))
    out.append(val(tf.image.non_max_suppression(np.zeros((0, 4), "float32"), np.zeros((0,), "float32"), 3)))
    return out


@program
def p_image_more_nms_with_scores(tf):
    boxes, scores = _boxes(40, 5), _scores(40, 6, ties=True)
    out = []
    for sigma in (0.0, 0.1, 0.5, 2.0):
        for score_threshold in (float("-inf"), 0.3):
            out.append(val(tf.image.non_max_suppression_with_scores(boxes, scores, 25, 0.4, score_threshold,
                                                                    soft_nms_sigma=sigma)))
    return out


@program
def p_image_more_nms_overlaps(tf):
    overlaps = np.random.RandomState(7).rand(20, 20).astype("float32")
    scores = _scores(20, 8, ties=True)
    return [val(tf.image.non_max_suppression_overlaps(overlaps, scores, k, t, s))
            for k, t, s in ((10, 0.5, float("-inf")), (20, 0.8, 0.2), (3, 0.1, float("-inf")))]


@program
def p_image_more_nms_padded(tf):
    out = []
    for seed, swap, ties in ((9, False, False), (10, True, True), (11, False, True)):
        boxes, scores = tf.constant(_boxes(40, seed, swap)), tf.constant(_scores(40, seed, ties))
        for iou, score_threshold, tile in ((0.5, float("-inf"), 512), (0.3, 0.4, 8), (0.6, float("-inf"), 16)):
            out.append(val(tf.image.non_max_suppression_padded(boxes, scores, 15, iou, score_threshold,
                                                               tile_size=tile)))
            out.append(val(tf.image.non_max_suppression_padded(boxes, scores, 50, iou, score_threshold,
                                                               pad_to_max_output_size=True, tile_size=tile)))
    batched = tf.constant(np.stack([_boxes(24, 12), _boxes(24, 13, swap=True), _boxes(24, 14)]).reshape(3, 1, 24, 4))
    scores = tf.constant(np.stack([_scores(24, 15), _scores(24, 16, True), _scores(24, 17)]).reshape(3, 1, 24))
    out.append(val(tf.image.non_max_suppression_padded(batched, scores, 10, 0.4, pad_to_max_output_size=True,
                                                       tile_size=8)))
    out.append(val(tf.image.non_max_suppression_padded(batched, scores, 10, 0.4, 0.3, pad_to_max_output_size=True,
                                                       sorted_input=False, canonicalized_coordinates=True)))
    return out


@program
def p_image_more_combined_nms(tf):
    rng = np.random.RandomState(18)
    out = []
    for q, pad_per_class, clip in ((1, False, True), (3, True, False), (3, False, True), (1, True, True)):
        boxes = (rng.rand(2, 30, q, 4) * 1.4 - 0.2).astype("float32")
        scores = (np.round(rng.rand(2, 30, 3) * 5) / 5).astype("float32")
        out.append(val(tf.image.combined_non_max_suppression(boxes, scores, 6, 14, 0.5, 0.2, pad_per_class,
                                                             clip)))
        out.append(val(tf.image.combined_non_max_suppression(boxes, scores, 20, 40, 0.7)))
    return out


@program
def p_image_more_nms_in_function(tf):
    @tf.function(input_signature=[tf.TensorSpec([None, 4]), tf.TensorSpec([None]), tf.TensorSpec([], tf.int32)])
    def select(boxes, scores, k):
        indices = tf.image.non_max_suppression(boxes, scores, k, 0.4)
        soft = tf.image.non_max_suppression_with_scores(boxes, scores, k, soft_nms_sigma=0.5)
        return tf.gather(boxes, indices), soft

    @tf.function
    def combined(boxes, scores):
        return tf.image.combined_non_max_suppression(boxes, scores, 4, 6)

    rng = np.random.RandomState(19)
    return [val(select(_boxes(25, 20), _scores(25, 21), tf.constant(7))),
            val(select(_boxes(9, 22), _scores(9, 23, ties=True), tf.constant(20))),
            val(combined(rng.rand(1, 12, 1, 4).astype("float32"), rng.rand(1, 12, 2).astype("float32")))]


@program
def p_image_more_nms_docstring_usage(tf):
    boxes, scores = _boxes(10, 24), _scores(10, 25)
    selected_indices = tf.image.non_max_suppression(boxes, scores, 5, 0.5)
    selected_indices_soft, selected_scores = tf.image.non_max_suppression_with_scores(
        boxes, scores, max_output_size=5, iou_threshold=1.0, score_threshold=0.1, soft_nms_sigma=0.5)
    return [val(tf.gather(boxes, selected_indices)), val(tf.gather(boxes, selected_indices_soft)),
            val(selected_scores)]


@program
def p_image_more_nms_errors(tf):
    boxes, scores = _boxes(4, 26), _scores(4, 27)
    return [outcome(lambda: tf.image.non_max_suppression(boxes, scores, 2, 1.5), "iou_threshold"),
            outcome(lambda: tf.image.non_max_suppression(boxes, scores[:3], 2), "scores"),
            outcome(lambda: tf.image.non_max_suppression(boxes[:, :3], scores, 2), "boxes"),
            outcome(lambda: tf.image.non_max_suppression_with_scores(boxes, scores, 2, soft_nms_sigma=-1.0),
                    "soft_nms_sigma"),
            outcome(lambda: tf.image.non_max_suppression_padded(tf.constant(boxes[None]), tf.constant(scores[None]),
                                                                2), "pad_to_max_output_size"),
            outcome(lambda: tf.image.combined_non_max_suppression(boxes[None, :, None], scores[None, :, None], 0, 3),
                    "max_size_per_class"),
            outcome(lambda: tf.image.combined_non_max_suppression(np.zeros((1, 4, 2, 4), "float32"),
                                                                  np.zeros((1, 4, 3), "float32"), 2, 3), "boxes")]
