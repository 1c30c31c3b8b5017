"""tf.compat.v1.metrics over thresholds against numpy: the per-threshold confusion counts, precision and recall,
and the ROC AUC as a trapezoidal sum, accumulated over several batches in a Session; TF's errors. TF's own
numbers are in tests/conformance/tf1_metrics_more.py."""

import numpy as np
import pytest

import tinytf as tf

v1 = tf.compat.v1
RNG = np.random.default_rng(7)
BATCHES = [(RNG.integers(0, 2, 8), RNG.random(8).astype(np.float32), RNG.random(8).astype(np.float32))
           for _ in range(3)]
THRESHOLDS = [0.1, 0.4, 0.5, 0.9]


def _numpy_counts(thresholds, batches):
    """{tp, fn, tn, fp} per threshold, weighted, summed over the batches."""
    out = {k: np.zeros(len(thresholds)) for k in ("tp", "fn", "tn", "fp")}
    for labels, scores, weights in batches:
        above = scores[None, :] > np.array(thresholds, np.float32)[:, None]
        pos = labels.astype(bool)[None, :]
        for key, hit in (("tp", pos & above), ("fn", pos & ~above), ("tn", ~pos & ~above), ("fp", ~pos & above)):
            out[key] += (hit * weights[None, :]).sum(1)
    return out


def _run(build):
    with tf.Graph().as_default():
        labels = v1.placeholder(tf.int64, [None])
        scores = v1.placeholder(tf.float32, [None])
        weights = v1.placeholder(tf.float32, [None])
        value, update = build(labels, scores, weights)
        with v1.Session() as sess:
            sess.run(v1.local_variables_initializer())
            for lab, s, w in BATCHES:
                last_update = sess.run(update, {labels: lab, scores: s, weights: w})
            return sess.run(value), last_update


@pytest.mark.parametrize("key", ["tp", "fn", "tn", "fp"])
def test_counts_at_thresholds_match_numpy(key):
    kind = {"tp": "true_positives", "fn": "false_negatives", "tn": "true_negatives", "fp": "false_positives"}[key]
    metric = getattr(v1.metrics, f"{kind}_at_thresholds")
    value, update = _run(lambda lab, s, w: metric(lab, s, THRESHOLDS, weights=w))
    expected = _numpy_counts(THRESHOLDS, BATCHES)[key]
    np.testing.assert_allclose(value, expected, rtol=1e-5)
    np.testing.assert_allclose(update, expected, rtol=1e-5)


def test_precision_and_recall_at_thresholds_match_numpy():
    c = _numpy_counts(THRESHOLDS, BATCHES)
    precision, _ = _run(lambda lab, s, w: v1.metrics.precision_at_thresholds(lab, s, THRESHOLDS, weights=w))
    recall, _ = _run(lambda lab, s, w: v1.metrics.recall_at_thresholds(lab, s, THRESHOLDS, weights=w))
    np.testing.assert_allclose(precision, c["tp"] / (1e-7 + c["tp"] + c["fp"]), rtol=1e-5)
    np.testing.assert_allclose(recall, c["tp"] / (1e-7 + c["tp"] + c["fn"]), rtol=1e-5)


def test_roc_auc_is_the_trapezoidal_sum_numpy_gives():
    n = 50
    thresholds = [-1e-7] + [(i + 1) / (n - 1) for i in range(n - 2)] + [1 + 1e-7]
    c = _numpy_counts(thresholds, BATCHES)
    tpr = (c["tp"] + 1e-6) / (c["tp"] + c["fn"] + 1e-6)
    fpr = c["fp"] / (c["fp"] + c["tn"] + 1e-6)
    expected = np.sum((fpr[:-1] - fpr[1:]) * (tpr[:-1] + tpr[1:]) / 2)
    value, update = _run(lambda lab, s, w: v1.metrics.auc(lab, s, weights=w, num_thresholds=n))
    assert value == pytest.approx(expected, rel=1e-5)
    assert update == pytest.approx(expected, rel=1e-5)


def test_local_variables_and_collections():
    with tf.Graph().as_default():
        labels, scores = tf.constant([1, 0]), tf.constant([0.3, 0.6])
        value, update = v1.metrics.auc(labels, scores, num_thresholds=5, metrics_collections=["m"],
                                       updates_collections=["u"], name="my_auc")
        names = sorted(v.name for v in v1.get_collection(v1.GraphKeys.METRIC_VARIABLES))
        assert names == ["my_auc/false_negatives:0", "my_auc/false_positives:0", "my_auc/true_negatives:0",
                         "my_auc/true_positives:0"]
        assert v1.get_collection("m") == [value] and v1.get_collection("u") == [update]
        assert v1.global_variables() == [] and len(v1.local_variables()) == 4


def test_errors():
    with pytest.raises(RuntimeError, match="tf.metrics.auc is not supported when eager"):
        v1.metrics.auc(tf.constant([1]), tf.constant([0.5]))
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="Curve must be either ROC or PR"):
            v1.metrics.auc(tf.constant([1]), tf.constant([0.5]), curve="AB")
        with pytest.raises(ValueError, match="`specificity` must be in the range"):
            v1.metrics.sensitivity_at_specificity(tf.constant([1]), tf.constant([0.5]), 2.0)
        labels = v1.placeholder(tf.int64, [None])
        scores = v1.placeholder(tf.float32, [None])
        _, update = v1.metrics.true_positives_at_thresholds(labels, scores, [0.5])
        with v1.Session() as sess:
            sess.run(v1.local_variables_initializer())
            with pytest.raises(tf.errors.InvalidArgumentError, match=r"predictions must be in \[0, 1\]"):
                sess.run(update, {labels: [1], scores: [-0.5]})
