"""tf.compat.v1.metrics that are means, against numpy over several batches in a Session: mean_tensor,
mean_relative_error, percentage_below, mean_per_class_accuracy and mean_iou (weighted), metric variables named
under the name scope as TF names them. TF's own numbers are in tests/conformance/tf1_metrics_more.py."""

import numpy as np
import pytest

import tinytf as tf

v1 = tf.compat.v1
RNG = np.random.default_rng(3)
LABELS = [RNG.integers(0, 4, 10) for _ in range(3)]
PREDS = [np.where(RNG.random(10) < 0.6, lab, RNG.integers(0, 4, 10)) for lab in LABELS]
WEIGHTS = [RNG.random(10).astype(np.float32) for _ in range(3)]
VALUES = [RNG.normal(size=(2, 3)).astype(np.float32) for _ in range(3)]


def _final(build, feeds_of):
    """The metric's value after every batch, and the last update op's result."""
    with tf.Graph().as_default():
        placeholders, (value, update) = build()
        with v1.Session() as sess:
            sess.run(v1.local_variables_initializer())
            for i in range(3):
                last = sess.run(update, dict(zip(placeholders, feeds_of(i))))
            return sess.run(value), last


def _class_placeholders():
    return [v1.placeholder(tf.int64, [None]), v1.placeholder(tf.int64, [None]), v1.placeholder(tf.float32, [None])]


def test_mean_per_class_accuracy_matches_numpy():
    def build():
        ph = _class_placeholders()
        return ph, v1.metrics.mean_per_class_accuracy(ph[0], ph[1], 4, weights=ph[2])

    value, update = _final(build, lambda i: (LABELS[i], PREDS[i], WEIGHTS[i]))
    total, right = np.zeros(4), np.zeros(4)
    for lab, pred, w in zip(LABELS, PREDS, WEIGHTS):
        np.add.at(total, lab, w)
        np.add.at(right, lab, w * (lab == pred))
    per_class = np.divide(right, total, out=np.zeros(4), where=total > 0)
    np.testing.assert_allclose(update, per_class, rtol=1e-5)  # TF's update op: the per-class accuracies
    assert value == pytest.approx(per_class.mean(), rel=1e-5)


def test_mean_iou_matches_numpy():
    def build():
        ph = _class_placeholders()
        return ph, v1.metrics.mean_iou(ph[0], ph[1], 5, weights=ph[2])  # class 4 never occurs: left out

    value, update = _final(build, lambda i: (LABELS[i], PREDS[i], WEIGHTS[i]))
    cm = np.zeros((5, 5))
    for lab, pred, w in zip(LABELS, PREDS, WEIGHTS):
        np.add.at(cm, (lab, pred), w)
    np.testing.assert_allclose(update, cm, rtol=1e-6)
    assert update.dtype == np.float64
    union = cm.sum(0) + cm.sum(1) - np.diag(cm)
    present = union > 0
    assert value == pytest.approx((np.diag(cm)[present] / union[present]).mean(), rel=1e-5)


def test_mean_tensor_relative_error_and_percentage_below_match_numpy():
    def build():
        x = v1.placeholder(tf.float32, [2, 3])
        w = v1.placeholder(tf.float32, [2, 1])
        pairs = [v1.metrics.mean_tensor(x, weights=w), v1.metrics.mean_relative_error(x * 0.5, x, x + 3.0),
                 v1.metrics.percentage_below(x, 0.2, weights=w)]
        return [x, w], ([p[0] for p in pairs], [p[1] for p in pairs])

    weights = [np.array([[1.0], [0.25]], np.float32), np.array([[0.0], [2.0]], np.float32),
               np.array([[1.0], [1.0]], np.float32)]
    value, _ = _final(build, lambda i: (VALUES[i], weights[i]))
    xs, ws = np.stack(VALUES), np.stack([np.broadcast_to(w, (2, 3)) for w in weights])
    np.testing.assert_allclose(value[0], (xs * ws).sum(0) / ws.sum(0), rtol=1e-5)
    norm = xs + 3.0
    relative = np.where(norm == 0, 0.0, np.abs(xs * 0.5 - xs) / norm)
    assert value[1] == pytest.approx(relative.mean(), rel=1e-5)
    assert value[2] == pytest.approx(((xs < 0.2) * ws).sum() / ws.sum(), rel=1e-5)


def test_same_name_twice_gets_a_new_name_scope():
    with tf.Graph().as_default():
        x = tf.constant([1.0, 2.0])
        v1.metrics.mean_tensor(x, name="m")
        v1.metrics.mean_tensor(x, name="m")
        v1.metrics.percentage_below(x, 1.5)
        names = [v.name for v in v1.get_collection(v1.GraphKeys.METRIC_VARIABLES)]
    assert names == ["m/total_tensor:0", "m/count_tensor:0", "m_1/total_tensor:0", "m_1/count_tensor:0",
                     "percentage_below_threshold/total:0", "percentage_below_threshold/count:0"]


def test_eager_raises():
    for call in (lambda: v1.metrics.mean_iou(tf.constant([1]), tf.constant([1]), 2),
                 lambda: v1.metrics.percentage_below(tf.constant([1.0]), 0.5),
                 lambda: v1.metrics.mean_cosine_distance(tf.constant([[1.0]]), tf.constant([[1.0]]), 1)):
        with pytest.raises(RuntimeError, match="is not supported when eager execution is enabled"):
            call()
