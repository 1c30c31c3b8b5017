"""Hard non-max suppression in blocks of the score order (runtime/ops/image_nms.py: each block's similarities
as one matrix, its selected boxes suppressing later candidates with another): with hundreds of boxes, so that
the selection runs over many blocks and the output limit falls inside, at and after block boundaries, it
selects exactly what a plain greedy NMS on TF's float32 IoU selects; also with equal scores, duplicate,
empty and NaN boxes, thresholds 0 and 1, and for NonMaxSuppressionWithOverlaps on an asymmetric matrix;
eagerly and in tf.function with passes on and off."""

import numpy as np
import pytest
from test_image_nms import boxes_and_scores, greedy

import tinytf as tf
from tinytf.runtime.ops import image_nms


def _awkward_boxes(n, seed):
    """Random boxes with duplicates, zero-area boxes, a NaN corner and corners given in either order."""
    boxes, scores = boxes_and_scores(n, seed, ties=seed % 2 == 1)
    rng = np.random.RandomState(seed + 100)
    twins = rng.choice(n, n // 10, replace=False)
    boxes[twins] = boxes[rng.choice(n, n // 10)]  # exact duplicates: IoU 1
    flat = rng.choice(n, n // 20, replace=False)
    boxes[flat, 2] = boxes[flat, 0]  # zero height: overlaps nothing
    boxes[rng.choice(n, 2, replace=False), 1] = np.nan
    return boxes, scores


def _greedy_canonical(boxes, scores, k, threshold, score_threshold=-np.inf):
    """A plain greedy NMS on TF's IoU: canonical corners, float32, 0 when either box is empty; a candidate goes
    when an IoU is above the threshold (NaN is not)."""
    ymin, xmin, ymax, xmax, area = image_nms.corners(boxes)

    def iou(i, j):
        if area[i] <= 0 or area[j] <= 0:
            return np.float32(0)
        inter = max(min(ymax[i], ymax[j]) - max(ymin[i], ymin[j]), np.float32(0)) * \
            max(min(xmax[i], xmax[j]) - max(xmin[i], xmin[j]), np.float32(0))
        return inter / (area[i] + area[j] - inter)

    kept = []
    for i in sorted(range(len(scores)), key=lambda i: (-scores[i], i)):
        if len(kept) == k or scores[i] <= score_threshold:
            break
        if not any(iou(i, j) > threshold for j in kept):
            kept.append(i)
    return kept


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("threshold", [0.0, 0.3, 0.7, 1.0])
def test_blocks_select_what_plain_greedy_nms_selects(seed, threshold):
    boxes, scores = _awkward_boxes(300, seed)
    with np.errstate(invalid="ignore"):
        for k in (1, 63, 64, 65, 128, 129, 200, 300):
            want = _greedy_canonical(boxes, scores, k, threshold)
            got = tf.image.non_max_suppression(boxes, scores, k, threshold).numpy().tolist()
            assert got == want, (k, threshold)
        want = _greedy_canonical(boxes, scores, 300, threshold, 0.4)
        assert tf.image.non_max_suppression(boxes, scores, 300, threshold, 0.4).numpy().tolist() == want


@pytest.mark.parametrize("block", [(1, 1), (3, 5), (64, 128), (500, 500)])
def test_any_block_size_gives_the_same_selection(block, monkeypatch):
    boxes, scores = boxes_and_scores(260, 7)
    monkeypatch.setattr(image_nms, "MIN_BLOCK", block[0])
    monkeypatch.setattr(image_nms, "MAX_BLOCK", block[1])
    for k in (10, 100, 260):
        want = greedy(boxes, scores, k, 0.45)
        assert tf.image.non_max_suppression(boxes, scores, k, 0.45).numpy().tolist() == want


def test_overlaps_in_blocks_read_the_matrix_as_candidate_by_selected():
    rng = np.random.RandomState(3)
    overlaps = rng.rand(200, 200).astype(np.float32)  # asymmetric: which index is the candidate matters
    scores = rng.rand(200).astype(np.float32)
    order = sorted(range(200), key=lambda i: (-scores[i], i))
    for k, threshold in ((200, 0.97), (150, 0.99), (20, 0.9)):
        kept = []
        for i in order:
            if len(kept) == k:
                break
            if all(overlaps[i, j] <= threshold for j in kept):
                kept.append(i)
        got = tf.image.non_max_suppression_overlaps(overlaps, scores, k, threshold).numpy().tolist()
        assert got == kept


@pytest.mark.parametrize("passes", [True, False])
def test_in_a_graph(passes):
    boxes, scores = boxes_and_scores(400, 11)
    want = greedy(boxes, scores, 250, 0.5)
    tf.config.optimizer.set_experimental_options({"disable_all": not passes})
    try:
        fn = tf.function(lambda b, s: tf.image.non_max_suppression(b, s, 250, 0.5))
        assert fn(tf.constant(boxes), tf.constant(scores)).numpy().tolist() == want
    finally:
        tf.config.optimizer.set_experimental_options({"disable_all": False})
