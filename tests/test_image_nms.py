"""tf.image's non-max suppressions beyond the conformance programs: against a plain greedy NMS and soft-NMS
written here, graphs with passes on and off and unknown sizes, libstdc++'s orders (stl_order) against Python's
sort where keys differ, and TF's LookupError for a gradient through the detections."""

import numpy as np
import pytest

import tinytf as tf
from tinytf.runtime.ops import stl_order


def boxes_and_scores(n, seed, ties=False):
    rng = np.random.RandomState(seed)
    corner = rng.rand(n, 2) * 0.8
    boxes = np.concatenate([corner, corner + rng.rand(n, 2) * 0.4 + 0.05], 1).astype(np.float32)
    scores = rng.rand(n).astype(np.float32)
    return boxes, (np.round(scores * 4) / 4).astype(np.float32) if ties else scores


def iou(a, b):
    inter = max(min(a[2], b[2]) - max(a[0], b[0]), 0) * max(min(a[3], b[3]) - max(a[1], b[1]), 0)
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)


def greedy(boxes, scores, k, threshold, score_threshold=-np.inf):
    order = sorted(range(len(scores)), key=lambda i: (-scores[i], i))
    kept = []
    for i in order:
        if len(kept) == k or scores[i] <= score_threshold:
            break
        if all(iou(boxes[i], boxes[j]) <= threshold for j in kept):
            kept.append(i)
    return kept


def soft(boxes, scores, k, sigma, score_threshold):
    """Soft-NMS as its paper states it: pick the best, decay the rest by exp(-iou^2 / (2 sigma))."""
    scores = scores.astype(np.float64).copy()
    alive = [i for i in range(len(scores)) if scores[i] > score_threshold]
    picked, picked_scores = [], []
    while alive and len(picked) < k:
        best = max(alive, key=lambda i: (scores[i], -i))
        alive.remove(best)
        picked.append(best)
        picked_scores.append(scores[best])
        for i in alive:
            scores[i] *= np.exp(-iou(boxes[i], boxes[best]) ** 2 / (2 * sigma))
        alive = [i for i in alive if scores[i] > score_threshold]
    return picked, picked_scores


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("ties", [False, True])
def test_greedy_selection_matches_a_plain_greedy_nms(seed, ties):
    boxes, scores = boxes_and_scores(40, seed, ties)
    for threshold, score_threshold in ((0.5, -np.inf), (0.2, 0.3), (0.7, 0.1)):
        want = greedy(boxes, scores, 15, threshold, score_threshold)
        got = tf.image.non_max_suppression(boxes, scores, 15, threshold, score_threshold).numpy().tolist()
        assert got == want
        idx, valid = tf.image.non_max_suppression_padded(boxes, scores, 15, threshold, score_threshold)
        if not ties:  # the padded algorithm suppresses at iou >= threshold, greedy NMS above it: no tie here
            assert idx.numpy().tolist() == want and int(valid) == len(want)


@pytest.mark.parametrize("sigma", [0.2, 1.0])
def test_soft_nms_matches_the_paper(sigma):
    boxes, scores = boxes_and_scores(30, 7)
    indices, kept = tf.image.non_max_suppression_with_scores(boxes, scores, 20, score_threshold=0.05,
                                                            soft_nms_sigma=sigma)
    want, want_scores = soft(boxes, scores, 20, sigma, 0.05)
    assert indices.numpy().tolist() == want
    np.testing.assert_allclose(kept.numpy(), want_scores, rtol=1e-5)


def test_overlaps_with_an_iou_matrix_is_non_max_suppression():
    boxes, scores = boxes_and_scores(25, 8)
    matrix = np.array([[iou(a, b) for b in boxes] for a in boxes], np.float32)
    assert tf.image.non_max_suppression_overlaps(matrix, scores, 10, 0.4).numpy().tolist() == \
        tf.image.non_max_suppression(boxes, scores, 10, 0.4).numpy().tolist()


def test_combined_is_per_class_nms_then_the_best_of_all():
    rng = np.random.RandomState(9)
    boxes = rng.rand(1, 20, 1, 4).astype(np.float32)
    boxes[..., 2:] = boxes[..., :2] + 0.3
    scores = rng.rand(1, 20, 3).astype(np.float32)
    nmsed_boxes, nmsed_scores, classes, valid = tf.image.combined_non_max_suppression(boxes, scores, 4, 7, 0.5,
                                                                                      clip_boxes=False)
    detections = [(scores[0, i, c], c, i) for c in range(3) for i in greedy(boxes[0, :, 0], scores[0, :, c], 4, 0.5)]
    detections.sort(key=lambda d: -d[0])
    assert int(valid[0]) == 7
    np.testing.assert_allclose(nmsed_scores.numpy()[0], [d[0] for d in detections[:7]])
    assert classes.numpy()[0].tolist() == [float(d[1]) for d in detections[:7]]
    np.testing.assert_allclose(nmsed_boxes.numpy()[0], [boxes[0, d[2], 0] for d in detections[:7]])


def test_in_a_graph_with_unknown_sizes(passes):
    @tf.function(input_signature=[tf.TensorSpec([None, 4]), tf.TensorSpec([None])])
    def select(boxes, scores):
        return (tf.image.non_max_suppression(boxes, scores, 6, 0.3),
                tf.image.non_max_suppression_padded(boxes, scores, 6, 0.3, pad_to_max_output_size=True)[0],
                tf.image.non_max_suppression_with_scores(boxes, scores, 6, soft_nms_sigma=0.5)[1])

    for n, seed in ((15, 10), (4, 11)):
        boxes, scores = boxes_and_scores(n, seed)
        hard, padded, soft_scores = select(boxes, scores)
        assert hard.numpy().tolist() == greedy(boxes, scores, 6, 0.3)
        assert padded.shape == (6,)
        np.testing.assert_array_equal(
            soft_scores.numpy(), tf.image.non_max_suppression_with_scores(boxes, scores, 6, soft_nms_sigma=0.5)[1])


def test_stl_sort_and_priority_queue_agree_with_python_on_distinct_keys():
    rng = np.random.RandomState(12)
    for n in (1, 5, 16, 17, 100, 700):
        values = rng.permutation(n).tolist()
        items = list(values)
        stl_order.sort(items, lambda a, b: a > b)
        assert items == sorted(values, reverse=True)
        queue = stl_order.PriorityQueue(lambda a, b: a < b)
        for v in values:
            queue.push(v)
        assert [queue.pop() for _ in range(n)] == sorted(values, reverse=True)


def test_stl_sort_keeps_equal_keys_in_insertion_order_below_seventeen():
    items = [(1, "a"), (2, "b"), (1, "c"), (2, "d")] * 4
    stl_order.sort(items, lambda a, b: a[0] > b[0])
    assert [name for _, name in items] == ["b", "d"] * 4 + ["a", "c"] * 4


def test_a_gradient_through_the_detections_raises_as_tf():
    boxes, scores = boxes_and_scores(6, 13)
    s = tf.constant(scores)
    with tf.GradientTape() as tape:
        tape.watch(s)
        _, kept = tf.image.non_max_suppression_with_scores(boxes, s, 3, soft_nms_sigma=0.5)
        y = tf.reduce_sum(kept)
    with pytest.raises(LookupError):
        tape.gradient(y, s)


def test_bad_input():
    boxes, scores = boxes_and_scores(4, 14)
    with pytest.raises(tf.errors.InvalidArgumentError, match="iou_threshold"):
        tf.image.non_max_suppression(boxes, scores, 2, -0.1)
    with pytest.raises(ValueError, match="scores has incompatible shape"):
        tf.function(lambda: tf.image.non_max_suppression(boxes, scores[:2], 2))()
    with pytest.raises(ValueError, match="must be True for batched input"):
        tf.image.non_max_suppression_padded(boxes[None], scores[None], 2)
    with pytest.raises(tf.errors.InvalidArgumentError, match="max_total_size"):
        tf.image.combined_non_max_suppression(boxes[None, :, None], scores[None, :, None], 2, 0)
