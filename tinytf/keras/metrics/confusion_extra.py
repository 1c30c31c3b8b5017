"""Confusion-count metrics at thresholds, as Keras 3 computes them: the running counts TruePositives,
TrueNegatives, FalsePositives, FalseNegatives, and the operating-point metrics that read a curve of counts at
`num_thresholds` evenly spaced thresholds (SensitivityAtSpecificity, SpecificityAtSensitivity,
PrecisionAtRecall, RecallAtPrecision). A prediction counts as positive when it exceeds the threshold."""

from __future__ import annotations

import tinytf as _tf

from ..losses import squeeze_or_expand_to_same_rank
from ..naming import snake_case, unique_name
from .base import Metric


def confusion_counts(y_true, y_pred, thresholds, sample_weight=None, class_id=None):
    """(tp, fp, tn, fn), one value per threshold, weighted as Keras' update_confusion_matrix_variables weighs:
    a weight per sample broadcast over the remaining axes; `class_id` keeps one column of y_true and y_pred."""
    y_pred = _tf.cast(_tf.convert_to_tensor(y_pred), _tf.float32)
    y_true = _tf.cast(_tf.convert_to_tensor(y_true), _tf.float32)
    y_pred, y_true = squeeze_or_expand_to_same_rank(y_pred, y_true)
    weights = None
    if sample_weight is not None:
        weights = _tf.expand_dims(_tf.cast(_tf.convert_to_tensor(sample_weight), _tf.float32), -1)
        if len(weights.shape) == len(y_true.shape) + 1 and weights.shape[-1] == 1:
            weights = _tf.squeeze(weights, -1)
    if class_id is not None:
        y_true, y_pred = y_true[..., class_id:class_id + 1], y_pred[..., class_id:class_id + 1]
    y_pred_flat = _tf.reshape(y_pred, [1, -1])
    truth = _tf.reshape(_tf.cast(_tf.cast(y_true, _tf.bool), _tf.float32), [1, -1])
    if weights is None:
        w = _tf.ones_like(y_pred_flat)
    else:
        w = _tf.reshape(weights * _tf.ones_like(y_pred), [1, -1])
    above = _tf.cast(y_pred_flat > _tf.reshape(_tf.constant(thresholds, _tf.float32), [-1, 1]), _tf.float32)
    positive, negative = truth * w, (1.0 - truth) * w
    return (_tf.reduce_sum(above * positive, axis=1), _tf.reduce_sum(above * negative, axis=1),
            _tf.reduce_sum((1.0 - above) * negative, axis=1), _tf.reduce_sum((1.0 - above) * positive, axis=1))


def _parse_thresholds(thresholds):
    if thresholds is None:
        return [0.5]
    if isinstance(thresholds, (list, tuple)):
        values = [float(t) for t in thresholds]
    else:
        values = [float(thresholds)]
    if any(not 0 <= t <= 1 for t in values):
        raise ValueError(f"Threshold values must be in [0, 1]. Received: {thresholds}")
    return values


class _ConditionCount(Metric):
    """One running confusion count per threshold (a scalar result for a single threshold)."""

    _which = 0  # index into confusion_counts' (tp, fp, tn, fn)

    def __init__(self, thresholds=None, name=None, dtype=None):
        super().__init__(name=name or unique_name(snake_case(type(self).__name__)), dtype=dtype)  # Keras numbers them
        self.init_thresholds = thresholds
        self.thresholds = _parse_thresholds(thresholds)
        self.accumulator = self.add_variable((len(self.thresholds),), name="accumulator")

    def update_state(self, y_true, y_pred, sample_weight=None):
        counts = confusion_counts(y_true, y_pred, self.thresholds, sample_weight)
        self.accumulator.assign_add(_tf.cast(counts[self._which], self._dtype))

    def result(self):
        value = self.accumulator.read_value()
        return value[0] if len(self.thresholds) == 1 else value

    def get_config(self) -> dict:
        return {**super().get_config(), "thresholds": self.init_thresholds}


class TruePositives(_ConditionCount):
    """The (weighted) number of positives predicted above the threshold."""

    _which = 0


class FalsePositives(_ConditionCount):
    """The (weighted) number of negatives predicted above the threshold."""

    _which = 1


class TrueNegatives(_ConditionCount):
    """The (weighted) number of negatives predicted at or below the threshold."""

    _which = 2


class FalseNegatives(_ConditionCount):
    """The (weighted) number of positives predicted at or below the threshold."""

    _which = 3


class _OperatingPoint(Metric):
    """Counts at num_thresholds thresholds 0, 1/(n-1), ..., 1; the result is the best `dependent` rate among the
    thresholds whose `constrained` rate reaches `value`."""

    _direction = "up"
    _argument = ""

    def __init__(self, value, num_thresholds=200, class_id=None, name=None, dtype=None):
        if value < 0 or value > 1:
            raise ValueError(f"Argument `{self._argument}` must be in the range [0, 1]. Received: "
                             f"{self._argument}={value}")
        if num_thresholds <= 0:
            raise ValueError(f"Argument `num_thresholds` must be an integer > 0. Received: "
                             f"num_thresholds={num_thresholds}")
        super().__init__(name=name or unique_name(snake_case(type(self).__name__)), dtype=dtype)
        self.value, self.num_thresholds, self.class_id = value, num_thresholds, class_id
        setattr(self, self._argument, value)
        if num_thresholds == 1:
            self.thresholds = [0.5]
        else:
            self.thresholds = [0.0] + [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)] + [1.0]
        size = len(self.thresholds)
        self.true_positives = self.add_variable((size,), name="true_positives")
        self.false_positives = self.add_variable((size,), name="false_positives")
        self.true_negatives = self.add_variable((size,), name="true_negatives")
        self.false_negatives = self.add_variable((size,), name="false_negatives")

    def update_state(self, y_true, y_pred, sample_weight=None):
        tp, fp, tn, fn = confusion_counts(y_true, y_pred, self.thresholds, sample_weight, self.class_id)
        for variable, value in [(self.true_positives, tp), (self.false_positives, fp), (self.true_negatives, tn),
                                (self.false_negatives, fn)]:
            variable.assign_add(_tf.cast(value, self._dtype))

    def _rates(self):
        tp, fp = self.true_positives.read_value(), self.false_positives.read_value()
        tn, fn = self.true_negatives.read_value(), self.false_negatives.read_value()
        return {"recall": _tf.math.divide_no_nan(tp, tp + fn), "precision": _tf.math.divide_no_nan(tp, tp + fp),
                "specificity": _tf.math.divide_no_nan(tn, tn + fp)}

    def _best(self, constrained, dependent):
        feasible = constrained >= self.value
        return _tf.maximum(_tf.reduce_max(_tf.where(feasible, dependent, _tf.zeros_like(dependent))), 0.0)

    def get_config(self) -> dict:
        return {**super().get_config(), "class_id": self.class_id, "num_thresholds": self.num_thresholds,
                self._argument: self.value}


class SensitivityAtSpecificity(_OperatingPoint):
    """The best sensitivity (recall) among thresholds whose specificity is at least `specificity`."""

    _argument = "specificity"

    def __init__(self, specificity, num_thresholds=200, class_id=None, name=None, dtype=None):
        super().__init__(specificity, num_thresholds, class_id, name, dtype)

    def result(self):
        rates = self._rates()
        return self._best(rates["specificity"], rates["recall"])


class SpecificityAtSensitivity(_OperatingPoint):
    """The best specificity among thresholds whose sensitivity (recall) is at least `sensitivity`."""

    _argument = "sensitivity"

    def __init__(self, sensitivity, num_thresholds=200, class_id=None, name=None, dtype=None):
        super().__init__(sensitivity, num_thresholds, class_id, name, dtype)

    def result(self):
        rates = self._rates()
        return self._best(rates["recall"], rates["specificity"])


class PrecisionAtRecall(_OperatingPoint):
    """The best precision among thresholds whose recall is at least `recall`."""

    _argument = "recall"

    def __init__(self, recall, num_thresholds=200, class_id=None, name=None, dtype=None):
        super().__init__(recall, num_thresholds, class_id, name, dtype)

    def result(self):
        rates = self._rates()
        return self._best(rates["recall"], rates["precision"])


class RecallAtPrecision(_OperatingPoint):
    """The best recall among thresholds whose precision is at least `precision`."""

    _argument = "precision"

    def __init__(self, precision, num_thresholds=200, class_id=None, name=None, dtype=None):
        super().__init__(precision, num_thresholds, class_id, name, dtype)

    def result(self):
        rates = self._rates()
        return self._best(rates["precision"], rates["recall"])
