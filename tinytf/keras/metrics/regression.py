"""Regression metrics: running means of the regression losses, and the root of the mean squared error."""

from __future__ import annotations

import tinytf as _tf

from .. import losses
from .base import Mean, MeanMetricWrapper


class MeanSquaredError(MeanMetricWrapper):
    def __init__(self, name="mean_squared_error", dtype=None):
        super().__init__(losses.mean_squared_error, name=name, dtype=dtype)


class MeanAbsoluteError(MeanMetricWrapper):
    def __init__(self, name="mean_absolute_error", dtype=None):
        super().__init__(losses.mean_absolute_error, name=name, dtype=dtype)


class MeanAbsolutePercentageError(MeanMetricWrapper):
    def __init__(self, name="mean_absolute_percentage_error", dtype=None):
        super().__init__(losses.mean_absolute_percentage_error, name=name, dtype=dtype)


class RootMeanSquaredError(Mean):
    """sqrt of the mean of every squared error seen."""

    _direction = "down"

    def __init__(self, name="root_mean_squared_error", dtype=None):
        super().__init__(name=name, dtype=dtype)

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true, y_pred = losses.squeeze_or_expand_to_same_rank(*losses._as_tensors(y_true, y_pred, self.dtype))
        super().update_state(_tf.square(y_pred - y_true), sample_weight)

    def result(self):
        return _tf.sqrt(super().result())
