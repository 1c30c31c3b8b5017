"""tf.compat.v1.metrics beyond the basic counts, in TF1 graphs run by a Session as TF 2.21 runs them: the
metrics over thresholds (confusion counts, precision/recall, AUC, sensitivity/specificity), the mean
variants (mean_tensor, cosine distance, relative error, percentage below, per-class accuracy, mean IoU) and
the top-k metrics, each over several update batches, with weights, their collections and TF's errors."""

from __future__ import annotations

import numpy as np

from . import outcome, program


def _rounds(v1, values, updates, feeds):
    """The metric values before any update, after each batch (the update ops' results), re-read at the end,
    and after the local variables are zeroed again."""
    rounds = []
    with v1.Session() as sess:
        sess.run(v1.local_variables_initializer())
        rounds.append(sess.run(values))
        for feed in feeds:
            rounds.append(sess.run(updates, feed))
        rounds.append(sess.run(values))
        sess.run(v1.local_variables_initializer())
        rounds.append(sess.run(values))
    return [[np.round(np.asarray(v, np.float64), 5).tolist() for v in r] for r in rounds]


_SCORES = [np.array([0.1, 0.4, 0.35, 0.8, 0.65, 0.2], np.float32),
           np.array([0.9, 0.05, 0.5, 0.7, 0.3, 0.55], np.float32),
           np.array([0.0, 1.0, 0.45, 0.25, 0.6, 0.95], np.float32)]
_LABELS = [np.array([0, 1, 0, 1, 1, 0], np.int64), np.array([1, 0, 1, 1, 0, 0], np.int64),
           np.array([0, 1, 1, 0, 1, 1], np.int64)]
_WEIGHTS = [np.array([1.0, 2.0, 0.5, 1.0, 0.0, 1.5], np.float32), np.array([1.0] * 6, np.float32),
            np.array([0.5, 1.0, 2.0, 1.0, 1.0, 0.25], np.float32)]


@program
def p_tf1_metrics_at_thresholds(tf):
    v1 = tf.compat.v1
    with tf.Graph().as_default():
        labels = v1.placeholder(tf.int64, [None])
        scores = v1.placeholder(tf.float32, [None])
        weights = v1.placeholder(tf.float32, [None])
        M = v1.metrics
        th = [0.0, 0.3, 0.5, 0.75]
        pairs = [M.true_positives_at_thresholds(labels, scores, th),
                 M.false_positives_at_thresholds(labels, scores, th, weights=weights),
                 M.true_negatives_at_thresholds(labels, scores, th, metrics_collections=["my_metrics"]),
                 M.false_negatives_at_thresholds(labels, scores, th, weights=weights,
                                                 updates_collections=["my_updates"]),
                 M.precision_at_thresholds(labels, scores, th),
                 M.recall_at_thresholds(labels, scores, th, weights=weights, name="wrec"),
                 M.sensitivity_at_specificity(labels, scores, 0.6, num_thresholds=11),
                 M.sensitivity_at_specificity(labels, scores, 0.3, weights=weights),
                 M.specificity_at_sensitivity(labels, scores, 0.5, num_thresholds=11),
                 M.specificity_at_sensitivity(labels, scores, 0.8, weights=weights)]
        names = sorted(v.name for v in v1.local_variables())
        collected = [len(v1.get_collection("my_updates")), len(v1.get_collection("my_metrics")),
                     len(v1.get_collection(v1.GraphKeys.METRIC_VARIABLES)), len(v1.global_variables()),
                     [t.shape.as_list() for t, _ in pairs]]
        feeds = [{labels: lab, scores: s, weights: w} for lab, s, w in zip(_LABELS, _SCORES, _WEIGHTS)]
        rounds = _rounds(v1, [v for v, _ in pairs], [u for _, u in pairs], feeds)
        with v1.Session() as sess:
            sess.run(v1.local_variables_initializer())
            bad = outcome(lambda: sess.run(pairs[0][1], {labels: [1], scores: [1.5]}), "must be in [0, 1]")
        errors = [bad,
                  outcome(lambda: M.sensitivity_at_specificity(labels, scores, 1.5), "must be in the range [0, 1]"),
                  outcome(lambda: M.specificity_at_sensitivity(labels, scores, -0.1), "must be in the range [0, 1]"),
                  outcome(lambda: M.precision_at_thresholds(tf.constant([[1, 0]]), tf.constant([0.5, 0.2, 0.1]),
                                                            [0.5]), "are incompatible")]
    eager = [outcome(lambda: v1.metrics.auc(tf.constant([1]), tf.constant([0.5])), "not supported when eager"),
             outcome(lambda: v1.metrics.true_positives_at_thresholds(tf.constant([1]), tf.constant([0.5]), [0.5]),
                     "not supported when eager")]
    return [names, collected] + rounds + [errors, eager]


@program
def p_tf1_metrics_auc(tf):
    v1 = tf.compat.v1
    with tf.Graph().as_default():
        labels = v1.placeholder(tf.bool, [None])
        scores = v1.placeholder(tf.float32, [None])
        weights = v1.placeholder(tf.float32, [None])
        M = v1.metrics
        pairs = [M.auc(labels, scores),
                 M.auc(labels, scores, weights=weights, num_thresholds=7, name="wauc"),
                 M.auc(labels, scores, curve="PR"),
                 M.auc(labels, scores, curve="PR", summation_method="careful_interpolation", weights=weights),
                 M.auc(labels, scores, summation_method="minoring", num_thresholds=5),
                 M.auc(labels, scores, summation_method="majoring", num_thresholds=5),
                 M.auc(labels, scores, curve="PR", summation_method="majoring", thresholds=[0.6, 0.2, 0.4],
                       metrics_collections=["aucs"], updates_collections=["auc_updates"])]
        names = sorted(v.name for v in v1.local_variables())
        collected = [len(v1.get_collection("aucs")), len(v1.get_collection("auc_updates")),
                     [v.shape.as_list() for v in v1.local_variables()][:8]]
        feeds = [{labels: lab.astype(bool), scores: s, weights: w} for lab, s, w in zip(_LABELS, _SCORES, _WEIGHTS)]
        rounds = _rounds(v1, [v for v, _ in pairs], [u for _, u in pairs], feeds)
        errors = [outcome(lambda: M.auc(labels, scores, curve="XY"), "Curve must be either ROC or PR"),
                  outcome(lambda: M.auc(labels, scores, summation_method="left"), "Invalid summation_method")]
    return [names, collected] + rounds + [errors]


@program
def p_tf1_metrics_means(tf):
    v1 = tf.compat.v1
    x_batches = [np.array([[1.0, 2.0, -1.0], [0.5, 0.0, 3.0]], np.float32),
                 np.array([[2.0, -2.0, 1.0], [1.5, 1.0, 0.0]], np.float32),
                 np.array([[0.0, 4.0, 2.0], [-1.0, 2.0, 1.0]], np.float32)]
    w_batches = [np.array([[1.0], [0.5]], np.float32), np.array([[0.0], [2.0]], np.float32),
                 np.array([[1.0], [1.0]], np.float32)]
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, [2, 3])
        y = v1.placeholder(tf.float32, [2, 3])
        w = v1.placeholder(tf.float32, [2, 1])
        M = v1.metrics
        unit_x, unit_y = tf.math.l2_normalize(x, 1), tf.math.l2_normalize(y, 1)
        pairs = [M.mean_tensor(x), M.mean_tensor(x, weights=w, name="wmean"),
                 M.mean_cosine_distance(unit_y, unit_x, dim=1),
                 M.mean_cosine_distance(unit_y, unit_x, 1, weights=w, metrics_collections=["dists"]),
                 M.mean_relative_error(y, x, tf.abs(y)),
                 M.mean_relative_error(y, x, y * 0.0 + 2.0, weights=w, updates_collections=["rel"]),
                 M.percentage_below(x, 1.0), M.percentage_below(x, 0.5, weights=w, name="below_half")]
        names = sorted(v.name for v in v1.local_variables())
        collected = [len(v1.get_collection("dists")), len(v1.get_collection("rel")),
                     [t.shape.as_list() for t, _ in pairs]]
        feeds = [{x: a, y: a[::-1] * 0.5 + 0.25, w: b} for a, b in zip(x_batches, w_batches)]
        rounds = _rounds(v1, [v for v, _ in pairs], [u for _, u in pairs], feeds)
        errors = [outcome(lambda: M.mean_tensor(v1.placeholder(tf.float32, [None, 2])), "partially known TensorShape"),
                  outcome(lambda: M.mean_relative_error(y, x, tf.ones([4])), "are incompatible")]
    eager = outcome(lambda: v1.metrics.mean_tensor(tf.constant([1.0])), "not supported when eager")
    return [names, collected] + rounds + [errors, eager]


@program
def p_tf1_metrics_per_class(tf):
    v1 = tf.compat.v1
    label_batches = [np.array([[0, 1], [2, 2], [1, 0]], np.int64), np.array([[3, 1], [1, 1], [0, 2]], np.int64),
                     np.array([[2, 0], [0, 0], [1, 3]], np.int64)]
    pred_batches = [np.array([[0, 2], [2, 1], [1, 0]], np.int64), np.array([[3, 1], [0, 1], [0, 2]], np.int64),
                    np.array([[1, 0], [0, 2], [1, 0]], np.int64)]
    weight_batches = [np.array([[1.0, 0.5], [2.0, 1.0], [1.0, 1.0]], np.float32),
                      np.array([[0.0, 1.0], [1.0, 3.0], [1.0, 1.0]], np.float32),
                      np.ones([3, 2], np.float32)]
    with tf.Graph().as_default():
        labels = v1.placeholder(tf.int64, [3, 2])
        preds = v1.placeholder(tf.int64, [3, 2])
        weights = v1.placeholder(tf.float32, [3, 2])
        M = v1.metrics
        pairs = [M.mean_per_class_accuracy(labels, preds, 4),
                 M.mean_per_class_accuracy(labels, preds, 5, weights=weights, name="wpca"),
                 M.mean_iou(labels, preds, 4),
                 M.mean_iou(labels, preds, 5, weights=weights, metrics_collections=["ious"],
                            updates_collections=["iou_updates"])]
        names = sorted(v.name for v in v1.local_variables())
        kinds = [[t.dtype.name, t.shape.as_list(), u.dtype.name, u.shape.as_list()] for t, u in pairs]
        collected = [len(v1.get_collection("ious")), len(v1.get_collection("iou_updates"))]
        feeds = [{labels: a, preds: b, weights: c} for a, b, c in zip(label_batches, pred_batches, weight_batches)]
        rounds = _rounds(v1, [v for v, _ in pairs], [u for _, u in pairs], feeds)
        errors = [outcome(lambda: M.mean_iou(labels, tf.constant([1, 2], tf.int64), 3), "are incompatible"),
                  outcome(lambda: M.mean_per_class_accuracy(labels, tf.constant([1, 2], tf.int64), 3),
                          "are incompatible")]
    eager = [outcome(lambda: v1.metrics.mean_iou(tf.constant([1]), tf.constant([1]), 2), "not supported when eager"),
             outcome(lambda: v1.metrics.mean_per_class_accuracy(tf.constant([1]), tf.constant([1]), 2),
                     "not supported when eager")]
    return [names, kinds, collected] + rounds + [errors, eager]


_TOPK_SCORES = [np.array([[0.1, 0.5, 0.2, 0.9, 0.3], [0.8, 0.05, 0.6, 0.1, 0.4], [0.3, 0.35, 0.9, 0.2, 0.7]],
                         np.float32),
                np.array([[0.6, 0.1, 0.3, 0.2, 0.95], [0.2, 0.7, 0.75, 0.5, 0.1], [0.45, 0.4, 0.1, 0.3, 0.2]],
                         np.float32)]
_TOPK_LABELS = [np.array([[3, 1], [2, 4], [0, 0]], np.int64), np.array([[4, 2], [1, 7], [3, 0]], np.int64)]
_TOPK_WEIGHTS = [np.array([1.0, 0.5, 2.0], np.float32), np.array([0.0, 1.0, 1.0], np.float32)]


@program
def p_tf1_metrics_top_k_dense(tf):
    v1 = tf.compat.v1
    with tf.Graph().as_default():
        scores = v1.placeholder(tf.float32, [None, 5])
        labels = v1.placeholder(tf.int64, [None, 2])
        weights = v1.placeholder(tf.float32, [None])
        M = v1.metrics
        _, top2 = tf.nn.top_k(scores, 2)
        pairs = [M.precision_at_k(labels, scores, 2), M.recall_at_k(labels, scores, 3, weights=weights),
                 M.precision_at_k(labels, scores, 3, class_id=2), M.recall_at_k(labels, scores, 1, class_id=4),
                 M.sparse_precision_at_k(labels, scores, 1, weights=weights, metrics_collections=["p"]),
                 M.precision_at_top_k(labels, top2, k=2, weights=weights, updates_collections=["u"]),
                 M.recall_at_top_k(labels, top2, class_id=3),
                 M.precision_at_k(labels[:, 0], scores, 2, name="one_label"),
                 M.average_precision_at_k(labels, scores, 3),
                 M.average_precision_at_k(labels, scores, 2, weights=weights, name="wap"),
                 M.sparse_average_precision_at_k(labels[:, :1], scores, 4)]
        names = sorted(v.name for v in v1.local_variables())
        kinds = [[t.dtype.name, u.dtype.name] for t, u in pairs]
        collected = [len(v1.get_collection("p")), len(v1.get_collection("u"))]
        feeds = [{scores: s, labels: lab, weights: w} for s, lab, w in zip(_TOPK_SCORES, _TOPK_LABELS, _TOPK_WEIGHTS)]
        rounds = _rounds(v1, [v for v, _ in pairs], [u for _, u in pairs], feeds)
        errors = [outcome(lambda: M.average_precision_at_k(labels, scores, 0), "Invalid k=0"),
                  outcome(lambda: M.precision_at_top_k(labels, tf.zeros([2, 2, 2, 2], tf.int64)),
                          "Unexpected labels shape")]
    eager = [outcome(lambda: v1.metrics.precision_at_k(tf.constant([[1]]), tf.constant([[0.5, 0.5]]), 1),
                     "not supported when eager"),
             outcome(lambda: v1.metrics.average_precision_at_k(tf.constant([[1]]), tf.constant([[0.5, 0.5]]), 1),
                     "not supported when eager"),
             outcome(lambda: v1.metrics.recall_at_k(tf.constant([[1]]), tf.constant([[0.5, 0.5]]), 1),
                     "not supported when eager"),
             outcome(lambda: v1.metrics.precision_at_top_k(tf.constant([[1]]), tf.constant([[1, 0]]), k=2),
                     "not supported when eager"),
             # TF lets this one run eagerly: its counters add the one batch at once
             outcome(lambda: v1.metrics.recall_at_top_k(tf.constant([[1, 3]], tf.int64),
                                                        tf.constant([[1, 0, 2]], tf.int64), weights=[0.5]),
                     "")]
    return [names, kinds, collected] + rounds + [errors, eager]


@program
def p_tf1_metrics_top_k_sparse_labels(tf):
    v1 = tf.compat.v1
    sparse_batches = [v1.SparseTensorValue([[0, 0], [0, 1], [1, 0], [2, 0], [2, 1], [2, 2]], [3, 1, 2, 0, 4, 2],
                                           [3, 3]),
                      v1.SparseTensorValue([[0, 0], [1, 0], [1, 1], [2, 0]], [4, 1, 9, 3], [3, 2])]
    with tf.Graph().as_default():
        scores = v1.placeholder(tf.float32, [None, 5])
        labels = v1.sparse_placeholder(tf.int64)
        M = v1.metrics
        pairs = [M.precision_at_k(labels, scores, 2), M.recall_at_k(labels, scores, 2),
                 M.recall_at_k(labels, scores, 3, class_id=2), M.average_precision_at_k(labels, scores, 3)]
        feeds = [{scores: s, labels: lab} for s, lab in zip(_TOPK_SCORES, sparse_batches)]
        rounds = _rounds(v1, [v for v, _ in pairs], [u for _, u in pairs], feeds)
    return rounds
