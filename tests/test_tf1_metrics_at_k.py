"""tf.compat.v1.metrics at k against numpy over several batches in a Session: precision and recall of the top k
(all classes, one class, weighted), average precision at k, dense and SparseTensor labels, and the float64
counters named as TF names them. TF's own numbers are in tests/conformance/tf1_metrics_more.py."""

import numpy as np
import pytest

import tinytf as tf

v1 = tf.compat.v1
RNG = np.random.default_rng(11)
SCORES = [RNG.random((4, 6)).astype(np.float32) for _ in range(3)]
LABELS = [RNG.integers(0, 6, (4, 2)) for _ in range(3)]
WEIGHTS = [RNG.random(4).astype(np.float32) for _ in range(3)]


def _top_k(scores, k):
    return np.argsort(-scores, axis=1, kind="stable")[:, :k]


def _numpy_counts(k, class_id=None, weighted=False):
    tp = fp = fn = 0.0
    for scores, labels, weights in zip(SCORES, LABELS, WEIGHTS):
        for row, (top, lab) in enumerate(zip(_top_k(scores, k), labels)):
            top, lab = set(top.tolist()), set(lab.tolist())
            if class_id is not None:
                top, lab = top & {class_id}, lab & {class_id}
            w = weights[row] if weighted else 1.0
            tp, fp, fn = tp + w * len(top & lab), fp + w * len(top - lab), fn + w * len(lab - top)
    return tp, fp, fn


def _numpy_average_precision(k, weighted=False, sparse=False):
    """TF divides by min(number of labels, k): dense labels count every entry (a repeated id twice), a
    SparseTensor's its set of ids."""
    total = count = 0.0
    for scores, labels, weights in zip(SCORES, LABELS, WEIGHTS):
        for row, (top, lab) in enumerate(zip(_top_k(scores, k), labels)):
            relevant = min(len(set(lab.tolist())) if sparse else len(lab), k)
            lab = set(lab.tolist())
            hits, precisions = 0, 0.0
            for i, c in enumerate(top, 1):
                if c in lab:
                    hits += 1
                    precisions += hits / i
            w = weights[row] if weighted else 1.0
            total, count = total + w * precisions / relevant, count + w
    return total / count


def _run(build, sparse=False):
    with tf.Graph().as_default():
        scores = v1.placeholder(tf.float32, [None, 6])
        labels = v1.sparse_placeholder(tf.int64) if sparse else v1.placeholder(tf.int64, [None, 2])
        weights = v1.placeholder(tf.float32, [None])
        value, update = build(labels, scores, weights)
        with v1.Session() as sess:
            sess.run(v1.local_variables_initializer())
            for s, lab, w in zip(SCORES, LABELS, WEIGHTS):
                if sparse:
                    rows, cols = np.nonzero(np.ones_like(lab))
                    lab = v1.SparseTensorValue(np.stack([rows, cols], 1), lab.reshape(-1), lab.shape)
                last = sess.run(update, {scores: s, labels: lab, weights: w})
            return sess.run(value), last


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("k,class_id,weighted", [(1, None, False), (3, None, True), (2, 4, False), (4, 1, True)])
def test_precision_and_recall_at_k_match_numpy(k, class_id, weighted, sparse):
    tp, fp, fn = _numpy_counts(k, class_id, weighted)
    for metric, expected in ((v1.metrics.precision_at_k, tp / (tp + fp)), (v1.metrics.recall_at_k, tp / (tp + fn))):
        def build(lab, s, w, metric=metric):
            return metric(lab, s, k, class_id=class_id, weights=w if weighted else None)

        value, update = _run(build, sparse)
        assert value == pytest.approx(expected, rel=1e-6) and update == pytest.approx(expected, rel=1e-6)


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("k,weighted", [(1, False), (3, True), (5, False)])
def test_average_precision_at_k_matches_numpy(k, weighted, sparse):
    value, update = _run(lambda lab, s, w: v1.metrics.average_precision_at_k(lab, s, k,
                                                                             weights=w if weighted else None), sparse)
    expected = _numpy_average_precision(k, weighted, sparse)
    assert value == pytest.approx(expected, rel=1e-6) and update == pytest.approx(expected, rel=1e-6)


def test_precision_at_top_k_takes_class_ids_and_counters_are_float64():
    with tf.Graph().as_default():
        value, update = v1.metrics.precision_at_top_k(tf.constant([[1], [2]], tf.int64),
                                                      tf.constant([[1, 0], [3, 2]], tf.int64), k=2)
        assert value.dtype == tf.float64 and update.dtype == tf.float64
        names = [v.name for v in v1.get_collection(v1.GraphKeys.METRIC_VARIABLES)]
        assert names == ["precision_at_2/true_positive_at_2:0", "precision_at_2/false_positive_at_2:0"]
        with v1.Session() as sess:
            sess.run(v1.local_variables_initializer())
            assert sess.run(update) == pytest.approx(0.5)


def test_errors():
    with pytest.raises(RuntimeError, match="sparse_precision_at_k is not supported when eager"):
        v1.metrics.precision_at_k(tf.constant([[1]]), tf.constant([[0.5, 0.2]]), 1)
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="Invalid k=0"):
            v1.metrics.average_precision_at_k(tf.constant([[1]]), tf.constant([[0.5, 0.2]]), 0)
        with pytest.raises(ValueError, match="Unexpected labels shape"):
            v1.metrics.recall_at_top_k(tf.constant([[1]]), tf.zeros([1, 1, 1, 2], tf.int64))


@pytest.mark.parametrize("weights", [[1.0, 2.0, 3.0], [[1.0], [2.0]]])
def test_weights_that_do_not_broadcast_fail_in_the_session(weights):
    with tf.Graph().as_default():
        labels = v1.placeholder(tf.int64, [None, 2])
        scores = v1.placeholder(tf.float32, [None, 4])  # the batch size is known only when the session runs
        _, update = v1.metrics.precision_at_k(labels, scores, 2, weights=tf.constant(weights))
        with v1.Session() as sess:
            sess.run(v1.local_variables_initializer())
            with pytest.raises(tf.errors.InvalidArgumentError, match="weights can not be broadcast to values"):
                sess.run(update, {labels: [[0, 1], [2, 3]], scores: [[1.0, 2.0, 3.0, 4.0], [4.0, 3.0, 2.0, 1.0]]})
