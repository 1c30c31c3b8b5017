"""Metrics from confusion counts at thresholds: Precision, Recall and AUC (the area under the ROC or the
precision-recall curve, from counts at `num_thresholds` thresholds, as Keras 3 computes it)."""

from __future__ import annotations

import tinytf as _tf

from ..naming import unique_name
from .base import Metric

_EPSILON = 1e-7


def _as_list(thresholds, default):
    if thresholds is None:
        return [default], True
    if isinstance(thresholds, (list, tuple)):
        return [float(t) for t in thresholds], False
    return [float(thresholds)], True


def _counts(y_true, y_pred, thresholds, sample_weight):
    """(tp, fp, tn, fn) per threshold: a prediction counts as positive when it exceeds the threshold."""
    y_pred = _tf.reshape(_tf.cast(_tf.convert_to_tensor(y_pred), _tf.float32), [1, -1])
    truth = _tf.reshape(_tf.cast(_tf.convert_to_tensor(y_true), _tf.bool), [1, -1])
    weights = _tf.ones_like(y_pred)
    if sample_weight is not None:
        sample_weight = _tf.cast(_tf.convert_to_tensor(sample_weight), _tf.float32)
        weights = _tf.reshape(sample_weight * _tf.ones_like(_tf.cast(_tf.convert_to_tensor(y_true), _tf.float32)),
                              [1, -1])
    above = y_pred > _tf.reshape(_tf.constant(thresholds, _tf.float32), [-1, 1])
    positive = _tf.cast(truth, _tf.float32) * weights
    negative = _tf.cast(_tf.logical_not(truth), _tf.float32) * weights
    above_f = _tf.cast(above, _tf.float32)
    tp = _tf.reduce_sum(above_f * positive, axis=1)
    fp = _tf.reduce_sum(above_f * negative, axis=1)
    tn = _tf.reduce_sum((1.0 - above_f) * negative, axis=1)
    fn = _tf.reduce_sum((1.0 - above_f) * positive, axis=1)
    return tp, fp, tn, fn


class _ThresholdMetric(Metric):
    """tp / (tp + other) per threshold, where `other` (false positives or false negatives) names the metric's
    second count; the two are its only variables, in Keras 3's order."""

    _other = ""

    def __init__(self, thresholds=None, top_k=None, class_id=None, name=None, dtype=None):
        super().__init__(name=name, dtype=dtype)
        if top_k is not None or class_id is not None:
            raise NotImplementedError(f"{type(self).__name__}: top_k and class_id are not supported yet")
        self.init_thresholds = thresholds
        self.thresholds, self._scalar = _as_list(thresholds, 0.5)
        size = len(self.thresholds)
        self.true_positives = self.add_variable((size,), name="true_positives")
        setattr(self, self._other, self.add_variable((size,), name=self._other))

    def update_state(self, y_true, y_pred, sample_weight=None):
        tp, fp, _, fn = _counts(y_true, y_pred, self.thresholds, sample_weight)
        self.true_positives.assign_add(tp)
        getattr(self, self._other).assign_add(fp if self._other == "false_positives" else fn)

    def result(self):
        tp = self.true_positives.read_value()
        value = _tf.math.divide_no_nan(tp, tp + getattr(self, self._other).read_value())
        return value[0] if self._scalar else value

    def get_config(self) -> dict:
        return {**super().get_config(), "thresholds": self.init_thresholds, "top_k": None, "class_id": None}


class Precision(_ThresholdMetric):
    """tp / (tp + fp): of the predicted positives, the share that are positive."""

    _direction = "up"
    _other = "false_positives"

    def __init__(self, thresholds=None, top_k=None, class_id=None, name="precision", dtype=None):
        super().__init__(thresholds, top_k, class_id, name, dtype)


class Recall(_ThresholdMetric):
    """tp / (tp + fn): of the positives, the share predicted positive."""

    _direction = "up"
    _other = "false_negatives"

    def __init__(self, thresholds=None, top_k=None, class_id=None, name="recall", dtype=None):
        super().__init__(thresholds, top_k, class_id, name, dtype)


class AUC(Metric):
    """The area under the ROC (or PR) curve, by a Riemann sum over counts at evenly spaced thresholds."""

    _direction = "up"

    def __init__(self, num_thresholds=200, curve="ROC", summation_method="interpolation", name=None, dtype=None,
                 thresholds=None, multi_label=False, num_labels=None, label_weights=None, from_logits=False):
        super().__init__(name=name or unique_name("auc"), dtype=dtype)  # Keras 3 numbers unnamed AUCs
        if curve not in ("ROC", "PR"):
            raise ValueError(f'Invalid `curve` argument value "{curve}". Expected one of: ROC, PR')
        if summation_method not in ("interpolation", "minoring", "majoring"):
            raise ValueError(f'Invalid `summation_method` argument value "{summation_method}".')
        if multi_label:
            raise NotImplementedError("AUC(multi_label=True) is not supported yet")
        self.curve, self.summation_method, self.from_logits = curve, summation_method, from_logits
        if thresholds is not None:
            inner = sorted(float(t) for t in thresholds)
            self.num_thresholds = len(inner) + 2
        else:
            self.num_thresholds = num_thresholds
            inner = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
        self.thresholds = [0.0 - _EPSILON] + inner + [1.0 + _EPSILON]
        size = len(self.thresholds)
        self.true_positives = self.add_variable((size,), name="true_positives")
        self.false_positives = self.add_variable((size,), name="false_positives")
        self.true_negatives = self.add_variable((size,), name="true_negatives")
        self.false_negatives = self.add_variable((size,), name="false_negatives")

    def update_state(self, y_true, y_pred, sample_weight=None):
        if self.from_logits:
            y_pred = _tf.sigmoid(y_pred)
        tp, fp, tn, fn = _counts(y_true, y_pred, self.thresholds, sample_weight)
        for variable, value in [(self.true_positives, tp), (self.false_positives, fp), (self.true_negatives, tn),
                                (self.false_negatives, fn)]:
            variable.assign_add(value)

    def _pr_interpolated(self, tp, fp, fn):
        """Davis & Goadrich's interpolation of precision between thresholds (Keras' PR 'interpolation')."""
        n = self.num_thresholds
        dtp = tp[: n - 1] - tp[1:]
        p = tp + fp
        dp = p[: n - 1] - p[1:]
        slope = _tf.math.divide_no_nan(dtp, _tf.maximum(dp, 0.0))
        intercept = tp[1:] - slope * p[1:]
        both_positive = _tf.logical_and(p[: n - 1] > 0, p[1:] > 0)
        ratio = _tf.where(both_positive, _tf.math.divide_no_nan(p[: n - 1], _tf.maximum(p[1:], 0.0)),
                          _tf.ones_like(p[1:]))
        increments = _tf.math.divide_no_nan(slope * (dtp + intercept * _tf.log(ratio)),
                                            _tf.maximum(tp[1:] + fn[1:], 0.0))
        return _tf.reduce_sum(increments)

    def result(self):
        tp, fp = self.true_positives.read_value(), self.false_positives.read_value()
        tn, fn = self.true_negatives.read_value(), self.false_negatives.read_value()
        n = self.num_thresholds
        if self.curve == "PR" and self.summation_method == "interpolation":
            return self._pr_interpolated(tp, fp, fn)
        recall = _tf.math.divide_no_nan(tp, tp + fn)
        if self.curve == "ROC":
            x, y = _tf.math.divide_no_nan(fp, fp + tn), recall
        else:
            x, y = recall, _tf.math.divide_no_nan(tp, tp + fp)
        if self.summation_method == "interpolation":
            heights = (y[: n - 1] + y[1:]) / 2.0
        elif self.summation_method == "minoring":
            heights = _tf.minimum(y[: n - 1], y[1:])
        else:
            heights = _tf.maximum(y[: n - 1], y[1:])
        return _tf.reduce_sum((x[: n - 1] - x[1:]) * heights)

    def get_config(self) -> dict:
        return {**super().get_config(), "num_thresholds": self.num_thresholds, "curve": self.curve,
                "summation_method": self.summation_method, "multi_label": False, "num_labels": None,
                "label_weights": None, "from_logits": self.from_logits}
