"""FBetaScore and F1Score, Keras 3's: the harmonic mean of precision and recall (recall weighted by beta^2),
from running per-class counts of (batch, classes) predictions; averaged per class (macro), by support
(weighted), over all entries at once (micro) or not at all (None)."""

from __future__ import annotations

import tinytf as _tf

from .base import Metric

_EPSILON = 1e-7


class FBetaScore(Metric):
    """(1 + beta^2) P R / (beta^2 P + R). Without `threshold`, each row's largest prediction counts as positive."""

    _direction = "up"

    def __init__(self, average=None, beta=1.0, threshold=None, name="fbeta_score", dtype=None):
        super().__init__(name=name, dtype=dtype)
        if average not in (None, "micro", "macro", "weighted"):
            raise ValueError("Invalid `average` argument value. Expected one of: {None, 'micro', 'macro', "
                             f"'weighted'}}. Received: average={average}")
        if not isinstance(beta, float):
            raise ValueError(f"Invalid `beta` argument value. It should be a Python float. Received: beta={beta} of "
                             f"type '{type(beta)}'")
        if beta <= 0.0:
            raise ValueError(f"Invalid `beta` argument value. It should be > 0. Received: beta={beta}")
        if threshold is not None:
            if not isinstance(threshold, float):
                raise ValueError("Invalid `threshold` argument value. It should be a Python float. Received: "
                                 f"threshold={threshold} of type '{type(threshold)}'")
            if threshold > 1.0 or threshold <= 0.0:
                raise ValueError("Invalid `threshold` argument value. It should verify 0 < threshold <= 1. "
                                 f"Received: threshold={threshold}")
        self.average, self.beta, self.threshold = average, beta, threshold
        self.axis = None if average == "micro" else 0
        self._built = False

    def _build(self, y_true_shape, y_pred_shape):
        if len(y_pred_shape) != 2 or len(y_true_shape) != 2:
            raise ValueError(f"{type(self).__name__} expects 2D inputs with shape (batch_size, output_dim). Received "
                             f"input shapes: y_pred.shape={tuple(y_pred_shape)} and "
                             f"y_true.shape={tuple(y_true_shape)}.")
        if y_pred_shape[-1] is None or y_true_shape[-1] is None:
            raise ValueError(f"{type(self).__name__} expects 2D inputs with shape (batch_size, output_dim), with "
                             "output_dim fully defined (not None). Received input shapes: "
                             f"y_pred.shape={tuple(y_pred_shape)} and y_true.shape={tuple(y_true_shape)}.")
        shape = () if self.average == "micro" else (y_pred_shape[-1],)
        self.true_positives = self.add_variable(shape, name="true_positives")
        self.false_positives = self.add_variable(shape, name="false_positives")
        self.false_negatives = self.add_variable(shape, name="false_negatives")
        self.intermediate_weights = self.add_variable(shape, name="intermediate_weights")
        self._built = True

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true = _tf.cast(_tf.convert_to_tensor(y_true), self._dtype)
        y_pred = _tf.cast(_tf.convert_to_tensor(y_pred), self._dtype)
        if not self._built:
            self._build(y_true.shape.as_list(), y_pred.shape.as_list())
        if self.threshold is None:
            top = _tf.reduce_max(y_pred, axis=-1, keepdims=True)
            y_pred = _tf.logical_and(y_pred >= top, _tf.abs(y_pred) > 1e-9)
        else:
            y_pred = y_pred > self.threshold
        y_pred = _tf.cast(y_pred, self._dtype)
        if sample_weight is not None:
            sample_weight = _tf.expand_dims(_tf.cast(_tf.convert_to_tensor(sample_weight), self._dtype), 1)

        def weighted_sum(value):
            if sample_weight is not None:
                value = value * sample_weight
            return _tf.reduce_sum(value, axis=self.axis)

        self.true_positives.assign_add(weighted_sum(y_pred * y_true))
        self.false_positives.assign_add(weighted_sum(y_pred * (1 - y_true)))
        self.false_negatives.assign_add(weighted_sum((1 - y_pred) * y_true))
        self.intermediate_weights.assign_add(weighted_sum(y_true))

    def result(self):
        if not self._built:
            raise ValueError(f"{type(self).__name__}.result() was called before any update_state(): the number of "
                             "classes is not known yet")
        tp, fp, fn = (v.read_value() for v in (self.true_positives, self.false_positives, self.false_negatives))
        precision = tp / (tp + fp + _EPSILON)
        recall = tp / (tp + fn + _EPSILON)
        score = precision * recall / (self.beta ** 2 * precision + recall + _EPSILON) * (1 + self.beta ** 2)
        if self.average == "weighted":
            weights = self.intermediate_weights.read_value()
            return _tf.reduce_sum(score * weights / (_tf.reduce_sum(weights) + _EPSILON))
        if self.average is not None:
            return _tf.reduce_mean(score)
        return score

    def reset_state(self) -> None:
        for variable in self._variables:
            variable.assign(_tf.zeros_like(variable))

    def get_config(self) -> dict:
        return {**super().get_config(), "average": self.average, "beta": self.beta, "threshold": self.threshold}


class F1Score(FBetaScore):
    """FBetaScore with beta = 1: the harmonic mean of precision and recall."""

    def __init__(self, average=None, threshold=None, name="f1_score", dtype=None):
        super().__init__(average=average, beta=1.0, threshold=threshold, name=name, dtype=dtype)

    def get_config(self) -> dict:
        config = super().get_config()
        del config["beta"]
        return config
