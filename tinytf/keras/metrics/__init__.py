"""keras.metrics (also `tf.metrics`): running metrics with update_state / result / reset_state."""

from __future__ import annotations

from .. import losses as _losses
from .. import serialization as _serialization
from ..naming import snake_case as _snake_case
from .accuracy import (
    Accuracy,
    BinaryAccuracy,
    CategoricalAccuracy,
    SparseCategoricalAccuracy,
    SparseTopKCategoricalAccuracy,
    TopKCategoricalAccuracy,
    accuracy,
    binary_accuracy,
    categorical_accuracy,
    sparse_categorical_accuracy,
    sparse_top_k_categorical_accuracy,
    top_k_categorical_accuracy,
)
from .base import Mean, MeanMetricWrapper, Metric, Sum
from .confusion import AUC, Precision, Recall
from .confusion_extra import (
    FalseNegatives,
    FalsePositives,
    PrecisionAtRecall,
    RecallAtPrecision,
    SensitivityAtSpecificity,
    SpecificityAtSensitivity,
    TrueNegatives,
    TruePositives,
)
from .crossentropy import BinaryCrossentropy, CategoricalCrossentropy, SparseCategoricalCrossentropy
from .f_score import F1Score, FBetaScore
from .iou import MeanIoU
from .iou_extra import BinaryIoU, IoU, OneHotIoU, OneHotMeanIoU
from .regression import MeanAbsoluteError, MeanAbsolutePercentageError, MeanSquaredError, RootMeanSquaredError
from .regression_extra import (
    CategoricalHinge,
    ConcordanceCorrelation,
    CosineSimilarity,
    Hinge,
    KLDivergence,
    LogCoshError,
    MeanSquaredLogarithmicError,
    PearsonCorrelation,
    Poisson,
    R2Score,
    SquaredHinge,
    concordance_correlation,
    pearson_correlation,
)

mean_squared_error = mse = _losses.mean_squared_error
mean_absolute_error = mae = _losses.mean_absolute_error
mean_absolute_percentage_error = mape = _losses.mean_absolute_percentage_error
binary_crossentropy = _losses.binary_crossentropy
categorical_crossentropy = _losses.categorical_crossentropy
sparse_categorical_crossentropy = _losses.sparse_categorical_crossentropy
# Keras 3's metric function aliases are its loss functions (tf.keras.metrics.MSE is a function, not a class)
MAE, MSE, MAPE = mae, mse, mape
mean_squared_logarithmic_error = msle = MSLE = _losses.mean_squared_logarithmic_error
kl_divergence = kld = KLD = kullback_leibler_divergence = _losses.kl_divergence
hinge, squared_hinge, categorical_hinge = _losses.hinge, _losses.squared_hinge, _losses.categorical_hinge
huber, logcosh, log_cosh, poisson = _losses.huber, _losses.log_cosh, _losses.log_cosh, _losses.poisson
binary_focal_crossentropy = _losses.binary_focal_crossentropy
categorical_focal_crossentropy = _losses.categorical_focal_crossentropy

_CLASSES = {c.__name__: c for c in [
    Mean, Sum, MeanMetricWrapper, Accuracy, BinaryAccuracy, CategoricalAccuracy, SparseCategoricalAccuracy,
    TopKCategoricalAccuracy, SparseTopKCategoricalAccuracy, AUC, Precision, Recall, MeanSquaredError,
    RootMeanSquaredError, MeanAbsoluteError, MeanAbsolutePercentageError, MeanIoU, BinaryCrossentropy,
    CategoricalCrossentropy, SparseCategoricalCrossentropy, TruePositives, TrueNegatives, FalsePositives,
    FalseNegatives, PrecisionAtRecall, RecallAtPrecision, SensitivityAtSpecificity, SpecificityAtSensitivity,
    F1Score, FBetaScore, IoU, BinaryIoU, OneHotIoU, OneHotMeanIoU, MeanSquaredLogarithmicError, CosineSimilarity,
    LogCoshError, R2Score, Hinge, SquaredHinge, CategoricalHinge, KLDivergence, Poisson, PearsonCorrelation,
    ConcordanceCorrelation]}
# Keras 3's ALL_OBJECTS_DICT: class names, their snake_case forms (MeanIoU is mean_io_u), and a few short names;
# plus tinytf's earlier "acc" and "rmse"
_BY_NAME = {_snake_case(name): cls for name, cls in _CLASSES.items()}
_BY_NAME.update({"acc": Accuracy, "bce": BinaryCrossentropy, "BCE": BinaryCrossentropy, "mse": MeanSquaredError,
                 "MSE": MeanSquaredError, "mae": MeanAbsoluteError, "MAE": MeanAbsoluteError,
                 "mape": MeanAbsolutePercentageError, "MAPE": MeanAbsolutePercentageError,
                 "msle": MeanSquaredLogarithmicError, "MSLE": MeanSquaredLogarithmicError,
                 "rmse": RootMeanSquaredError})


def serialize(metric) -> dict:
    """A metric as Keras 3's dict {"module": "keras.metrics", "class_name", "config", "registered_name"}."""
    return _serialization.serialize(metric, "keras.metrics")


def deserialize(config, custom_objects=None):
    """A metric from Keras 3's dict (or a name)."""
    if isinstance(config, str):
        return get(config)
    return _serialization.deserialize(config, _CLASSES, "metric", custom_objects)


def get(identifier):
    """A metric from a name ("mae"), a class name, a config dict, a Metric, or a function (wrapped as a mean)."""
    if isinstance(identifier, Metric):
        return identifier
    if isinstance(identifier, str):
        cls = _BY_NAME.get(identifier) or _CLASSES.get(identifier)
        if cls is None:
            raise ValueError(f"Could not interpret metric identifier: {identifier}")
        return cls()
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if isinstance(identifier, type) and issubclass(identifier, Metric):
        return identifier()
    if callable(identifier):
        return MeanMetricWrapper(identifier, name=getattr(identifier, "__name__", None))
    raise ValueError(f"Could not interpret metric identifier: {identifier}")


__all__ = list(_CLASSES) + [
    "Metric", "get", "serialize", "deserialize", "accuracy", "binary_accuracy", "categorical_accuracy",
    "sparse_categorical_accuracy", "top_k_categorical_accuracy", "sparse_top_k_categorical_accuracy",
    "mean_squared_error", "mean_absolute_error", "mean_absolute_percentage_error", "mse", "mae", "mape", "MSE", "MAE",
    "MAPE", "binary_crossentropy", "categorical_crossentropy", "sparse_categorical_crossentropy",
    "mean_squared_logarithmic_error", "msle", "MSLE", "kl_divergence", "kld", "KLD", "kullback_leibler_divergence",
    "hinge", "squared_hinge", "categorical_hinge", "huber", "logcosh", "log_cosh", "poisson",
    "binary_focal_crossentropy", "categorical_focal_crossentropy", "pearson_correlation", "concordance_correlation"]
