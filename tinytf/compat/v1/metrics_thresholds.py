"""tf.compat.v1.metrics over thresholds: the confusion counts of `predictions > threshold` for each threshold
(one counter per threshold), and what TF 2.21's metrics_impl derives from them: precision and recall at each
threshold, the AUC of the ROC or PR curve, sensitivity at a specificity and specificity at a sensitivity."""

from __future__ import annotations

from .metrics import _add_to, _collect, _graph_only, _match_weights, _metric_variable, _squeeze_last, _tf, _v1

_ALL_COUNTS = ("tp", "fn", "tn", "fp")
_COUNT_NAMES = {"tp": "true_positives", "fn": "false_negatives", "tn": "true_negatives", "fp": "false_positives"}


def _confusion_matrix_at_thresholds(labels, predictions, thresholds, weights=None, includes=None):
    """({key: counter value}, {key: value after adding this batch}) for the keys of `includes`: the (weighted)
    number of each kind of outcome per threshold, a prediction counting as positive when above the threshold.
    Predictions outside [0, 1] fail at run time, as TF's asserts do."""
    tf = _tf()
    includes = _ALL_COUNTS if includes is None else includes
    for key in includes:
        if key not in _ALL_COUNTS:
            raise ValueError(f"Invalid key: {key}")
    predictions = tf.convert_to_tensor(predictions)
    checks = [tf.debugging.assert_greater_equal(predictions, tf.cast(0.0, predictions.dtype),
                                                message="predictions must be in [0, 1]"),
              tf.debugging.assert_less_equal(predictions, tf.cast(1.0, predictions.dtype),
                                             message="predictions must be in [0, 1]")]
    with tf.control_dependencies(checks):
        predictions = tf.identity(tf.cast(predictions, tf.float32))
    labels = tf.cast(labels, tf.bool)
    labels, predictions = _squeeze_last(labels, predictions), _squeeze_last(predictions, labels)
    if not predictions.shape.is_compatible_with(labels.shape):
        raise ValueError(f"Shapes {predictions.shape} and {labels.shape} are incompatible")
    # [thresholds, predictions] grids: every prediction against every threshold
    pred_is_pos = tf.greater(tf.reshape(predictions, [1, -1]),
                             tf.reshape(tf.constant(list(thresholds), tf.float32), [-1, 1]))
    label_is_pos = tf.reshape(labels, [1, -1])
    grid_weights = None
    if weights is not None:
        weights = _match_weights(weights, predictions)
        grid_weights = tf.reshape(tf.cast(weights, tf.float32) * tf.ones_like(predictions), [1, -1])
    conditions = {"tp": lambda: tf.logical_and(label_is_pos, pred_is_pos),
                  "fn": lambda: tf.logical_and(label_is_pos, tf.logical_not(pred_is_pos)),
                  "tn": lambda: tf.logical_and(tf.logical_not(label_is_pos), tf.logical_not(pred_is_pos)),
                  "fp": lambda: tf.logical_and(tf.logical_not(label_is_pos), pred_is_pos)}
    values, updates = {}, {}
    for key in _ALL_COUNTS:
        if key not in includes:
            continue
        counter = _metric_variable(_COUNT_NAMES[key], [len(thresholds)])
        hits = tf.cast(conditions[key](), tf.float32)
        if grid_weights is not None:
            hits = hits * grid_weights
        updates[key] = _add_to(counter, tf.reduce_sum(hits, 1))
        values[key] = counter.read_value()
    return values, updates


def _count_at_thresholds(key: str):
    kind = _COUNT_NAMES[key]

    def metric(labels, predictions, thresholds, weights=None, metrics_collections=None, updates_collections=None,
               name=None):
        _graph_only(f"{kind}_at_thresholds")
        tf = _tf()
        with _v1().variable_scope(name, default_name=kind):
            values, updates = _confusion_matrix_at_thresholds(labels, predictions, thresholds, weights, (key,))
            return _collect(metrics_collections, tf.identity(values[key]), updates_collections, updates[key])

    metric.__name__ = metric.__qualname__ = f"{kind}_at_thresholds"
    metric.__doc__ = f"The (weighted) number of {kind.replace('_', ' ')} at each threshold, a [len(thresholds)] " \
                     "float32 counter."
    return metric


true_positives_at_thresholds = _count_at_thresholds("tp")
false_positives_at_thresholds = _count_at_thresholds("fp")
true_negatives_at_thresholds = _count_at_thresholds("tn")
false_negatives_at_thresholds = _count_at_thresholds("fn")


def _ratio_at_thresholds(kind: str, other: str):
    """precision (tp / (tp + fp)) or recall (tp / (tp + fn)) at each threshold, with TF's 1e-7 in the
    denominator against division by zero."""

    def metric(labels, predictions, thresholds, weights=None, metrics_collections=None, updates_collections=None,
               name=None):
        _graph_only(f"{kind}_at_thresholds")
        tf = _tf()
        with _v1().variable_scope(name, default_name=f"{kind}_at_thresholds"):
            values, updates = _confusion_matrix_at_thresholds(labels, predictions, thresholds, weights,
                                                              ("tp", other))

            def compute(counts, label):
                return tf.math.divide(counts["tp"], 1e-7 + counts["tp"] + counts[other], name=f"{kind}_{label}")

            return _collect(metrics_collections, compute(values, "value"), updates_collections,
                            compute(updates, "update_op"))

    metric.__name__ = metric.__qualname__ = f"{kind}_at_thresholds"
    return metric


precision_at_thresholds = _ratio_at_thresholds("precision", "fp")
recall_at_thresholds = _ratio_at_thresholds("recall", "fn")


def _interpolate_pr_auc(tf, tp, fp, fn, n):
    """PR-AUC by 'careful_interpolation' (Davis & Goadrich 2006, section 4): true and false positives vary
    linearly between thresholds, precision does not."""
    dtp = tp[:n - 1] - tp[1:]
    p = tp + fp
    prec_slope = tf.math.divide_no_nan(dtp, tf.maximum(p[:n - 1] - p[1:], 0.0))
    intercept = tp[1:] - prec_slope * p[1:]
    safe_p_ratio = tf.where(tf.logical_and(p[:n - 1] > 0, p[1:] > 0),
                            tf.math.divide_no_nan(p[:n - 1], tf.maximum(p[1:], 0.0)), tf.ones_like(p[1:]))
    return tf.reduce_sum(tf.math.divide_no_nan(prec_slope * (dtp + intercept * tf.math.log(safe_p_ratio)),
                                               tf.maximum(tp[1:] + fn[1:], 0.0)))


def _compute_auc(tf, counts, n, curve, summation_method, name):
    tp, fn, tn, fp = counts["tp"], counts["fn"], counts["tn"], counts["fp"]
    if curve == "PR" and summation_method == "trapezoidal":
        import logging

        logging.getLogger("tensorflow").warning("Trapezoidal rule is known to produce incorrect PR-AUCs; please "
                                                "switch to \"careful_interpolation\" instead.")
    if curve == "PR" and summation_method == "careful_interpolation":
        return tf.identity(_interpolate_pr_auc(tf, tp, fp, fn, n), name=name)
    epsilon = 1.0e-6
    recall = tf.math.divide(tp + epsilon, tp + fn + epsilon)
    if curve == "ROC":
        x, y = tf.math.divide(fp, fp + tn + epsilon), recall
    else:
        x, y = recall, tf.math.divide(tp + epsilon, tp + fp + epsilon)
    if summation_method in ("trapezoidal", "careful_interpolation"):
        heights = (y[:n - 1] + y[1:]) / 2.0
    elif summation_method == "minoring":
        heights = tf.minimum(y[:n - 1], y[1:])
    elif summation_method == "majoring":
        heights = tf.maximum(y[:n - 1], y[1:])
    else:
        raise ValueError(f"Invalid summation_method: {summation_method} summation_method should be "
                         "'trapezoidal', 'careful_interpolation', 'minoring', or 'majoring'.")
    return tf.reduce_sum(tf.multiply(x[:n - 1] - x[1:], heights), name=name)


def auc(labels, predictions, weights=None, num_thresholds=200, metrics_collections=None, updates_collections=None,
        curve="ROC", name=None, summation_method="trapezoidal", thresholds=None):
    """The area under the ROC (or PR) curve, a Riemann sum over `num_thresholds` thresholds spread evenly in
    [0, 1] (or the given `thresholds`, with endpoints just below 0 and just above 1 added)."""
    _graph_only("auc")
    tf = _tf()
    with _v1().variable_scope(name, default_name="auc"):
        if curve not in ("ROC", "PR"):
            raise ValueError(f"Curve must be either ROC or PR. Curve {curve} is unknown.")
        kepsilon = 1e-7  # the endpoints catch predictions of exactly 0 and 1
        if thresholds is not None:
            thresholds = sorted(thresholds)
            num_thresholds = len(thresholds) + 2
        else:
            thresholds = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
        thresholds = [0.0 - kepsilon] + list(thresholds) + [1.0 + kepsilon]
        values, updates = _confusion_matrix_at_thresholds(labels, predictions, thresholds, weights)
        value = _compute_auc(tf, values, num_thresholds, curve, summation_method, "value")
        update_op = _compute_auc(tf, updates, num_thresholds, curve, summation_method, "update_op")
        return _collect(metrics_collections, value, updates_collections, update_op)


def _even_thresholds(num_thresholds, top):
    kepsilon = 1e-7
    inner = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
    return [0.0 - kepsilon] + inner + [top]


def sensitivity_at_specificity(labels, predictions, specificity, weights=None, num_thresholds=200,
                               metrics_collections=None, updates_collections=None, name=None):
    """The sensitivity (recall) at the threshold whose specificity is nearest `specificity` (the first such)."""
    _graph_only("sensitivity_at_specificity")
    if specificity < 0 or specificity > 1:
        raise ValueError(f"`specificity` must be in the range [0, 1]. Currently, `specificity` got {specificity}.")
    tf = _tf()
    kepsilon = 1e-7
    with _v1().variable_scope(name, default_name="sensitivity_at_specificity"):
        values, updates = _confusion_matrix_at_thresholds(labels, predictions,
                                                          _even_thresholds(num_thresholds, 1.0 + kepsilon), weights)

        def compute(c, label):
            specificities = tf.math.divide(c["tn"], c["tn"] + c["fp"] + kepsilon)
            index = tf.cast(tf.argmin(tf.abs(specificities - specificity), 0), tf.int32)
            return tf.math.divide(c["tp"][index], c["tp"][index] + c["fn"][index] + kepsilon, name=label)

        return _collect(metrics_collections, compute(values, "value"), updates_collections,
                        compute(updates, "update_op"))


def specificity_at_sensitivity(labels, predictions, sensitivity, weights=None, num_thresholds=200,
                               metrics_collections=None, updates_collections=None, name=None):
    """The specificity at the threshold whose sensitivity is nearest `sensitivity` (the last such, as TF's
    cumsum-then-argmax picks it)."""
    _graph_only("specificity_at_sensitivity")
    if sensitivity < 0 or sensitivity > 1:
        raise ValueError(f"`sensitivity` must be in the range [0, 1]. Currently, `sensitivity` is {sensitivity}.")
    tf = _tf()
    kepsilon = 1e-7
    with _v1().variable_scope(name, default_name="specificity_at_sensitivity"):
        # TF's upper endpoint here is 1 - 1e-7 (not 1 + 1e-7 as in the other metrics): kept, it changes results
        values, updates = _confusion_matrix_at_thresholds(labels, predictions,
                                                          _even_thresholds(num_thresholds, 1.0 - kepsilon), weights)

        def compute(c, label):
            distance = tf.abs(tf.math.divide(c["tp"], c["tp"] + c["fn"] + kepsilon) - sensitivity)
            at_min = tf.cast(tf.equal(distance, tf.reduce_min(distance)), tf.int64)
            index = tf.cast(tf.argmax(tf.cumsum(at_min), 0), tf.int32)
            return tf.math.divide(c["tn"][index], c["tn"][index] + c["fp"][index] + kepsilon, name=label)

        return _collect(metrics_collections, compute(values, "value"), updates_collections,
                        compute(updates, "update_op"))
