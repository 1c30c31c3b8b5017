"""More of Keras 3's running means and regression metrics: mean squared logarithmic error, cosine similarity,
log-cosh, the hinges, KL divergence, Poisson, Pearson and concordance correlation, and R2Score (the
coefficient of determination, from running per-output sums)."""

from __future__ import annotations

import warnings

import tinytf as _tf

from .. import losses
from ..loss_inputs import EPSILON, squeeze_or_expand_to_same_rank
from .base import MeanMetricWrapper, Metric


def _same_rank(y_true, y_pred):
    y_pred = _tf.convert_to_tensor(y_pred)
    if not y_pred.dtype.is_floating:
        y_pred = _tf.cast(y_pred, _tf.float32)
    y_true = _tf.convert_to_tensor(y_true)
    if y_true.dtype is not y_pred.dtype:
        y_true = _tf.cast(y_true, y_pred.dtype)
    return squeeze_or_expand_to_same_rank(y_true, y_pred)


def cosine_similarity(y_true, y_pred, axis=-1):
    """The cosine of the angle between y_true and y_pred (the metric's sign: +1 when aligned)."""
    y_true, y_pred = _same_rank(y_true, y_pred)
    return _tf.reduce_sum(_tf.math.l2_normalize(y_true, axis=axis) * _tf.math.l2_normalize(y_pred, axis=axis),
                          axis=axis)


def pearson_correlation(y_true, y_pred, axis=-1):
    """Pearson's correlation coefficient of y_true and y_pred along `axis`."""
    y_true, y_pred = _same_rank(y_true, y_pred)
    true_centered = y_true - _tf.reduce_mean(y_true, axis=axis, keepdims=True)
    pred_centered = y_pred - _tf.reduce_mean(y_pred, axis=axis, keepdims=True)
    true_centered = true_centered / _tf.math.reduce_std(true_centered, axis=axis, keepdims=True)
    pred_centered = pred_centered / _tf.math.reduce_std(pred_centered, axis=axis, keepdims=True)
    return _tf.reduce_mean(true_centered * pred_centered, axis=axis)


def concordance_correlation(y_true, y_pred, axis=-1):
    """Lin's concordance correlation coefficient along `axis`, written as Keras 3 writes it (its covariance term
    centres y_true on y_pred's mean)."""
    y_true, y_pred = _same_rank(y_true, y_pred)
    true_mean = _tf.reduce_mean(y_true, axis=axis, keepdims=True)
    pred_mean = _tf.reduce_mean(y_pred, axis=axis, keepdims=True)
    true_var = _tf.math.reduce_variance(y_true - true_mean, axis=axis, keepdims=True)
    pred_var = _tf.math.reduce_variance(y_pred - pred_mean, axis=axis, keepdims=True)
    covar = (y_true - pred_mean) * (y_pred - pred_mean)
    norm = true_var + pred_var + _tf.square(true_mean - pred_mean)
    return _tf.reduce_mean(2 * covar / (norm + EPSILON), axis=axis)


def _mean_metric(class_name, fn, default_name, direction=None, doc=""):
    """A MeanMetricWrapper class of `fn` whose config is only its name and dtype (as Keras 3's are)."""

    def __init__(self, name=default_name, dtype=None):
        MeanMetricWrapper.__init__(self, fn, name=name, dtype=dtype)
        if direction:
            self._direction = direction

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype}

    return type(class_name, (MeanMetricWrapper,), {"__init__": __init__, "get_config": get_config, "__doc__": doc})


MeanSquaredLogarithmicError = _mean_metric("MeanSquaredLogarithmicError", losses.mean_squared_logarithmic_error,
                                           "mean_squared_logarithmic_error", "down",
                                           "The mean of (log(1 + y_pred) - log(1 + y_true))^2.")
LogCoshError = _mean_metric("LogCoshError", losses.log_cosh, "logcosh", "down", "The mean of log(cosh(error)).")
Hinge = _mean_metric("Hinge", losses.hinge, "hinge", "down", "The mean hinge loss (0/1 labels become -1/1).")
SquaredHinge = _mean_metric("SquaredHinge", losses.squared_hinge, "squared_hinge", "down",
                            "The mean squared hinge loss.")
CategoricalHinge = _mean_metric("CategoricalHinge", losses.categorical_hinge, "categorical_hinge", "down",
                                "The mean categorical hinge loss of one-hot labels.")
KLDivergence = _mean_metric("KLDivergence", losses.kl_divergence, "kl_divergence", None,
                            "The mean Kullback-Leibler divergence of y_pred from y_true.")
Poisson = _mean_metric("Poisson", losses.poisson, "poisson", None, "The mean of y_pred - y_true log(y_pred).")


class CosineSimilarity(MeanMetricWrapper):
    """The mean cosine similarity of y_true and y_pred along `axis`."""

    _direction = "up"

    def __init__(self, name="cosine_similarity", dtype=None, axis=-1):
        super().__init__(cosine_similarity, name=name, dtype=dtype, axis=axis)

    def get_config(self) -> dict:
        return {"name": self.name, "dtype": self.dtype}


class PearsonCorrelation(MeanMetricWrapper):
    """The mean over batches of samples of Pearson's correlation along `axis`."""

    _direction = "up"

    def __init__(self, name="pearson_correlation", dtype=None, axis=-1):
        super().__init__(pearson_correlation, name=name, dtype=dtype, axis=axis)
        self.axis = axis

    def get_config(self) -> dict:
        return {"name": self.name, "dtype": self.dtype, "axis": self.axis}


class ConcordanceCorrelation(MeanMetricWrapper):
    """The mean of Lin's concordance correlation along `axis`."""

    _direction = "up"

    def __init__(self, name="concordance_correlation", dtype=None, axis=-1):
        super().__init__(concordance_correlation, name=name, dtype=dtype, axis=axis)
        self.axis = axis

    def get_config(self) -> dict:
        return {"name": self.name, "dtype": self.dtype, "axis": self.axis}


class R2Score(Metric):
    """1 - SS_res / SS_tot per output, from running sums; aggregated uniformly, by variance, or not at all;
    adjusted for `num_regressors` when given."""

    _direction = "up"

    def __init__(self, class_aggregation="uniform_average", num_regressors=0, name="r2_score", dtype=None):
        super().__init__(name=name, dtype=dtype)
        valid = (None, "uniform_average", "variance_weighted_average")
        if class_aggregation not in valid:
            raise ValueError(f"Invalid value for argument `class_aggregation`. Expected one of {valid}. Received: "
                             f"class_aggregation={class_aggregation}")
        if num_regressors < 0:
            raise ValueError("Invalid value for argument `num_regressors`. Expected a value >= 0. Received: "
                             f"num_regressors={num_regressors}")
        self.class_aggregation, self.num_regressors = class_aggregation, num_regressors
        self.num_samples = self.add_variable((), name="num_samples")
        self._built = False

    def _build(self, y_true_shape, y_pred_shape):
        if len(y_pred_shape) != 2 or len(y_true_shape) != 2:
            raise ValueError("R2Score expects 2D inputs with shape (batch_size, output_dim). Received input shapes: "
                             f"y_pred.shape={tuple(y_pred_shape)} and y_true.shape={tuple(y_true_shape)}.")
        if y_pred_shape[-1] is None or y_true_shape[-1] is None:
            raise ValueError("R2Score expects 2D inputs with shape (batch_size, output_dim), with output_dim fully "
                             f"defined (not None). Received input shapes: y_pred.shape={tuple(y_pred_shape)} and "
                             f"y_true.shape={tuple(y_true_shape)}.")
        n = y_pred_shape[-1]
        self.squared_sum = self.add_variable((n,), name="squared_sum")
        self.sum = self.add_variable((n,), name="sum")
        self.total_mse = self.add_variable((n,), name="residual")
        self.count = self.add_variable((n,), name="count")
        self._built = True

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true = _tf.cast(_tf.convert_to_tensor(y_true), self._dtype)
        y_pred = _tf.cast(_tf.convert_to_tensor(y_pred), self._dtype)
        y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
        if not self._built:
            self._build(y_true.shape.as_list(), y_pred.shape.as_list())
        weight = _tf.ones_like(y_true) if sample_weight is None else _tf.cast(
            _tf.convert_to_tensor(sample_weight), self._dtype)
        if len(weight.shape) == 1:
            weight = _tf.expand_dims(weight, 1)
        weight = weight * _tf.ones_like(y_true)
        weighted = y_true * weight
        self.sum.assign_add(_tf.reduce_sum(weighted, axis=0))
        self.squared_sum.assign_add(_tf.reduce_sum(y_true * weighted, axis=0))
        self.total_mse.assign_add(_tf.reduce_sum(_tf.square(y_true - y_pred) * weight, axis=0))
        self.count.assign_add(_tf.reduce_sum(weight, axis=0))
        self.num_samples.assign_add(_tf.cast(_tf.size(y_true), self._dtype))

    def result(self):
        total_sum, count = self.sum.read_value(), self.count.read_value()
        mean = total_sum / count
        total = self.squared_sum.read_value() - total_sum * mean
        raw = 1 - self.total_mse.read_value() / total
        raw = _tf.where(_tf.math.is_inf(raw), _tf.zeros_like(raw), raw)
        if self.class_aggregation == "uniform_average":
            score = _tf.reduce_mean(raw)
        elif self.class_aggregation == "variance_weighted_average":
            score = _tf.reduce_sum(total * raw) / _tf.reduce_sum(total)
        else:
            score = raw
        if self.num_regressors != 0:
            samples = float(self.num_samples.numpy()) if _tf.executing_eagerly() else None
            if samples is not None and self.num_regressors > samples - 1:
                warnings.warn("More independent predictors than datapoints in adjusted R2 score. Falling back to "
                              "standard R2 score.", stacklevel=2)
            elif samples is not None and self.num_regressors == samples - 1:
                warnings.warn("Division by zero in Adjusted R2 score. Falling back to standard R2 score.", stacklevel=2)
            else:
                n = _tf.cast(self.num_samples.read_value(), _tf.float32)
                p = float(self.num_regressors)
                score = 1.0 - (1.0 - score) * (n - 1.0) / (n - p - 1.0)
        return score

    def reset_state(self) -> None:
        for variable in self._variables:
            variable.assign(_tf.zeros_like(variable))

    def get_config(self) -> dict:
        return {**super().get_config(), "class_aggregation": self.class_aggregation,
                "num_regressors": self.num_regressors}
