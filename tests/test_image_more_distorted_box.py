"""tf.image.sample_distorted_bounding_box and its stateless twin beyond the conformance programs: the crops
keep the constraints they promise, stateless crops are functions of the seed (eagerly and in graphs, passes on
and off), seeded stateful runs continue one stream, unseeded ones differ; bad input."""

import numpy as np
import pytest

import tinytf as tf

BOXES = [[[0.1, 0.2, 0.6, 0.7], [0.5, 0.5, 0.9, 0.95]]]


@pytest.mark.parametrize("seed", [[1, 2], [3, 4], [-7, 11], [123456789, 987654321]])
def test_the_crop_keeps_its_constraints(seed):
    height, width = 120, 90
    begin, size, box = tf.image.stateless_sample_distorted_bounding_box(
        [height, width, 3], BOXES, seed, min_object_covered=0.4, aspect_ratio_range=(0.5, 2.0),
        area_range=(0.2, 0.8))
    (y, x, _), (h, w, depth) = begin.numpy(), size.numpy()
    assert depth == -1 and 0 <= y and y + h <= height and 0 <= x and x + w <= width
    whole_image = (y, x, h, w) == (0, 0, height, width)
    if not whole_image:  # a crop was found: its area and coverage are in range
        assert 0.2 * height * width <= h * w <= 0.8 * height * width
        covered = []
        for y0, x0, y1, x1 in BOXES[0]:
            ry0, rx0, ry1, rx1 = int(y0 * height), int(x0 * width), int(y1 * height), int(x1 * width)
            inter = max(min(y + h, ry1) - max(y, ry0), 0) * max(min(x + w, rx1) - max(x, rx0), 0)
            covered.append(inter / ((ry1 - ry0) * (rx1 - rx0)))
        assert max(covered) >= 0.4
    np.testing.assert_allclose(box.numpy()[0, 0], [y / height, x / width, (y + h) / height, (x + w) / width],
                               rtol=1e-6)


def test_stateless_crops_are_functions_of_the_seed(passes):
    @tf.function
    def crop(seed):
        return tf.image.stateless_sample_distorted_bounding_box([64, 64, 3], BOXES, seed, min_object_covered=0.2)

    seeds = [tf.constant([i, 2 * i + 1]) for i in range(6)]
    graph = [np.concatenate([t.numpy().ravel() for t in crop(s)]) for s in seeds]
    eager = [np.concatenate([t.numpy().ravel() for t in tf.image.stateless_sample_distorted_bounding_box(
        [64, 64, 3], BOXES, s, min_object_covered=0.2)]) for s in seeds]
    np.testing.assert_array_equal(graph, eager)
    assert len({tuple(g) for g in graph}) > 1


def test_seeded_stateful_runs_continue_one_stream_and_set_seed_restarts_it():
    def run():
        return [tf.image.sample_distorted_bounding_box([80, 80, 3], BOXES, seed=4)[0].numpy().tolist()
                for _ in range(4)]

    tf.random.set_seed(1)
    first = run()
    tf.random.set_seed(1)
    assert run() == first
    assert len({tuple(b) for b in first}) > 1


def test_no_boxes_uses_the_whole_image_when_asked():
    begin, size, _ = tf.image.stateless_sample_distorted_bounding_box(
        [10, 12, 3], np.zeros((1, 0, 4), np.float32), [1, 1], use_image_if_no_bounding_boxes=True,
        area_range=(1.0, 1.0), aspect_ratio_range=(1.2, 1.2))
    assert begin.numpy().tolist() == [0, 0, 0] and size.numpy().tolist() == [10, 12, -1]


def test_bad_input():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[0.0, 1.0\]"):
        tf.image.stateless_sample_distorted_bounding_box([10, 10, 3], [[[0.0, 0.0, 1.2, 1.0]]], [1, 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="use_image_if_no_bounding_boxes"):
        tf.image.stateless_sample_distorted_bounding_box([10, 10, 3], np.zeros((1, 0, 4), np.float32), [1, 2])
    with pytest.raises(ValueError, match="area_range"):
        tf.image.sample_distorted_bounding_box([10, 10, 3], BOXES, area_range=(0.0, 1.0))
    with pytest.raises(ValueError, match="seed must have shape"):
        tf.function(lambda: tf.image.stateless_sample_distorted_bounding_box([10, 10, 3], BOXES, [1, 2, 3]))()
