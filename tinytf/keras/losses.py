"""keras.losses: Keras 3's loss classes and functions. A loss function maps (y_true, y_pred) to one value per
sample (the mean or sum over the last axis); a Loss object then weights those by sample_weight and reduces
them ("sum_over_batch_size" by default: the sum divided by the number of values)."""

from __future__ import annotations

import math

import numpy as np

import tinytf as _tf

from . import masking, serialization
from .loss_inputs import EPSILON, squeeze_or_expand_to_same_rank  # noqa: F401 (metrics import squeeze_or_expand_to_same_rank here)
from .loss_inputs import as_tensors as _as_tensors
from .losses_extra import (
    binary_focal_crossentropy,
    categorical_focal_crossentropy,
    categorical_generalized_cross_entropy,
    categorical_hinge,
    circle,
    dice,
    tversky,
)

REDUCTIONS = ("sum_over_batch_size", "sum", "none", "mean", "mean_with_sample_weight", None)


# --- the loss functions (one value per sample) --------------------------------------------------------------
def mean_squared_error(y_true, y_pred):
    y_true, y_pred = squeeze_or_expand_to_same_rank(*_as_tensors(y_true, y_pred))
    return _tf.reduce_mean(_tf.square(y_pred - y_true), axis=-1)


def mean_absolute_error(y_true, y_pred):
    y_true, y_pred = squeeze_or_expand_to_same_rank(*_as_tensors(y_true, y_pred))
    return _tf.reduce_mean(_tf.abs(y_pred - y_true), axis=-1)


def mean_absolute_percentage_error(y_true, y_pred):
    y_true, y_pred = squeeze_or_expand_to_same_rank(*_as_tensors(y_true, y_pred))
    diff = _tf.abs((y_true - y_pred) / _tf.maximum(_tf.abs(y_true), EPSILON))
    return 100.0 * _tf.reduce_mean(diff, axis=-1)


def mean_squared_logarithmic_error(y_true, y_pred):
    y_true, y_pred = squeeze_or_expand_to_same_rank(*_as_tensors(y_true, y_pred))
    first = _tf.log(_tf.maximum(y_pred, EPSILON) + 1.0)
    second = _tf.log(_tf.maximum(y_true, EPSILON) + 1.0)
    return _tf.reduce_mean(_tf.square(first - second), axis=-1)


def huber(y_true, y_pred, delta=1.0):
    """0.5 * error² for |error| <= delta, delta * |error| - 0.5 * delta² beyond."""
    y_true, y_pred = squeeze_or_expand_to_same_rank(*_as_tensors(y_true, y_pred))
    delta = _tf.cast(delta, y_pred.dtype)
    error = y_pred - y_true
    abs_error = _tf.abs(error)
    quadratic = 0.5 * _tf.square(error)
    linear = delta * abs_error - 0.5 * _tf.square(delta)
    return _tf.reduce_mean(_tf.where(abs_error <= delta, quadratic, linear), axis=-1)


def log_cosh(y_true, y_pred):
    """log(cosh(error)), computed as x + softplus(-2x) - log 2 so large errors do not overflow."""
    y_true, y_pred = squeeze_or_expand_to_same_rank(*_as_tensors(y_true, y_pred))
    error = y_pred - y_true
    return _tf.reduce_mean(error + _tf.nn.softplus(-2.0 * error) - math.log(2.0), axis=-1)


def _smooth_binary(y_true, label_smoothing):
    return y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing if label_smoothing else y_true


def binary_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    y_true, y_pred = _as_tensors(y_true, y_pred)  # Keras 3 matches ranks in the Loss object, not here
    _check_same_shape(y_true, y_pred, "binary_crossentropy")
    y_true = _smooth_binary(y_true, label_smoothing)
    if from_logits:
        values = _tf.nn.sigmoid_cross_entropy_with_logits(labels=y_true, logits=y_pred)
    else:
        p = _tf.clip_by_value(y_pred, EPSILON, 1.0 - EPSILON)
        values = -(y_true * _tf.log(p) + (1.0 - y_true) * _tf.log(1.0 - p))
    return _tf.reduce_mean(values, axis=axis)


def _check_same_shape(y_true, y_pred, name):
    shapes = f"target.shape={tuple(y_true.shape.as_list())}, output.shape={tuple(y_pred.shape.as_list())}"
    if len(y_true.shape) != len(y_pred.shape):
        raise ValueError(f"{name}: Arguments `target` and `output` must have the same rank (ndim). Received: "
                         f"{shapes}")
    if any(a is not None and b is not None and a != b for a, b in zip(y_true.shape, y_pred.shape)):
        raise ValueError(f"{name}: Arguments `target` and `output` must have the same shape. Received: {shapes}")


def categorical_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    y_true, y_pred = _as_tensors(y_true, y_pred)
    _check_same_shape(y_true, y_pred, "categorical_crossentropy")
    if label_smoothing:
        classes = _tf.cast(_tf.shape(y_true)[axis], y_pred.dtype)
        y_true = y_true * (1.0 - label_smoothing) + label_smoothing / classes
    if from_logits:
        return _tf.nn.softmax_cross_entropy_with_logits(labels=y_true, logits=y_pred, axis=axis)
    p = y_pred / _tf.reduce_sum(y_pred, axis=axis, keepdims=True)
    p = _tf.clip_by_value(p, EPSILON, 1.0 - EPSILON)
    return -_tf.reduce_sum(y_true * _tf.log(p), axis=axis)


def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False, ignore_class=None, axis=-1):
    y_pred = _tf.convert_to_tensor(y_pred)
    if not y_pred.dtype.is_floating:
        y_pred = _tf.cast(y_pred, _tf.float32)
    labels = _tf.cast(_tf.convert_to_tensor(y_true), _tf.int64)
    if len(labels.shape) == len(y_pred.shape) and labels.shape[-1] == 1:
        labels = _tf.squeeze(labels, -1)
    if len(labels.shape) != len(y_pred.shape) - 1:
        raise ValueError(f"sparse_categorical_crossentropy: argument `output` must have rank (ndim) `target.ndim - 1`"
                         f". Received: target.shape={tuple(labels.shape.as_list())}, "
                         f"output.shape={tuple(y_pred.shape.as_list())}")
    valid = None
    if ignore_class is not None:
        valid = _tf.not_equal(labels, ignore_class)
        labels = _tf.where(valid, labels, _tf.zeros_like(labels))
    logits = y_pred if from_logits else _tf.log(_tf.clip_by_value(y_pred, EPSILON, 1.0 - EPSILON))
    values = _tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    if valid is not None:
        values = values * _tf.cast(valid, values.dtype)
    return values


def kl_divergence(y_true, y_pred):
    y_true, y_pred = _as_tensors(y_true, y_pred)
    y_true = _tf.clip_by_value(y_true, EPSILON, 1.0)
    y_pred = _tf.clip_by_value(y_pred, EPSILON, 1.0)
    return _tf.reduce_sum(y_true * _tf.log(y_true / y_pred), axis=-1)


def poisson(y_true, y_pred):
    y_true, y_pred = _as_tensors(y_true, y_pred)
    return _tf.reduce_mean(y_pred - y_true * _tf.log(y_pred + EPSILON), axis=-1)


def _hinge_labels(y_true):
    """Labels in {0, 1} become {-1, 1}; other labels are used as given."""
    is_binary = _tf.reduce_all(_tf.logical_or(_tf.equal(y_true, 0.0), _tf.equal(y_true, 1.0)))
    return _tf.where(is_binary, 2.0 * y_true - 1.0, y_true)


def hinge(y_true, y_pred):
    y_true, y_pred = _as_tensors(y_true, y_pred)  # no rank matching in Keras 3: (B,) * (B, 1) broadcasts
    return _tf.reduce_mean(_tf.maximum(1.0 - _hinge_labels(y_true) * y_pred, 0.0), axis=-1)


def squared_hinge(y_true, y_pred):
    y_true, y_pred = _as_tensors(y_true, y_pred)  # no rank matching in Keras 3: (B,) * (B, 1) broadcasts
    return _tf.reduce_mean(_tf.square(_tf.maximum(1.0 - _hinge_labels(y_true) * y_pred, 0.0)), axis=-1)


def _l2_normalize(x, axis):
    return x * _tf.rsqrt(_tf.maximum(_tf.reduce_sum(_tf.square(x), axis=axis, keepdims=True), 1e-12))


def cosine_similarity(y_true, y_pred, axis=-1):
    """Minus the cosine of the angle between y_true and y_pred (so that minimizing aligns them)."""
    y_true, y_pred = squeeze_or_expand_to_same_rank(*_as_tensors(y_true, y_pred))
    return -_tf.reduce_sum(_l2_normalize(y_true, axis) * _l2_normalize(y_pred, axis), axis=axis)


mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error
mape = MAPE = mean_absolute_percentage_error
msle = MSLE = mean_squared_logarithmic_error
kld = KLD = kullback_leibler_divergence = kl_divergence
logcosh = log_cosh


# --- reduction ----------------------------------------------------------------------------------------------
def reduce_weighted_values(values, sample_weight=None, reduction="sum_over_batch_size", mask=None):
    """Weight the per-sample values (by sample_weight and the mask) and reduce them as Keras 3 does."""
    if reduction not in REDUCTIONS:
        raise ValueError(f"Invalid value for argument `reduction`. Expected one of {REDUCTIONS}. Received: "
                         f"reduction={reduction}")
    if mask is not None:
        sample_weight = masking.apply_mask(sample_weight, mask, values.dtype, reduction)
    if sample_weight is not None:
        sample_weight = _tf.cast(_tf.convert_to_tensor(sample_weight), values.dtype)
        values, sample_weight = squeeze_or_expand_to_same_rank(values, sample_weight)
        while len(sample_weight.shape) < len(values.shape):
            sample_weight = _tf.expand_dims(sample_weight, -1)
        values = values * sample_weight
    if reduction in (None, "none"):
        return values
    total = _tf.reduce_sum(values)
    if reduction == "sum":
        return total
    if reduction == "mean_with_sample_weight" and sample_weight is not None:
        return _tf.math.divide_no_nan(total, _tf.reduce_sum(sample_weight * _tf.ones_like(values)))
    count = values.shape.num_elements() if values.shape.is_fully_defined() else None
    if count:  # a size known at trace time and not 0: divide_no_nan's guard can never act, a plain division
        return total / np.asarray(count, values.dtype.as_numpy_dtype)[()]
    return _tf.math.divide_no_nan(total, _tf.cast(_tf.size(values), values.dtype))


class Loss:
    """Base class: subclasses implement `call(y_true, y_pred)` returning per-sample values."""

    def __init__(self, name=None, reduction="sum_over_batch_size", dtype=None):
        if reduction not in REDUCTIONS:
            raise ValueError(f"Invalid value for argument `reduction`. Expected one of {REDUCTIONS}. Received: "
                             f"reduction={reduction}")
        self.name = name or _snake(type(self).__name__)
        self.reduction = reduction
        self.dtype = dtype

    def __call__(self, y_true, y_pred, sample_weight=None):
        in_mask = masking.get_keras_mask(y_pred)  # a Keras mask on the predictions weighs the loss (Keras 3)
        # Keras 3 converts both to the loss's dtype (floatx unless given) first: float64 numpy inputs give float32
        dtype = _tf.as_dtype(self.dtype or "float32")
        values = self.call(_in_dtype(y_true, dtype), _in_dtype(y_pred, dtype))
        mask = masking.combined_mask(in_mask, masking.get_keras_mask(values))
        return reduce_weighted_values(values, sample_weight, self.reduction, mask=mask)

    def call(self, y_true, y_pred):
        raise NotImplementedError(f"{type(self).__name__} must implement call(y_true, y_pred)")

    def get_config(self) -> dict:
        return {"name": self.name, "reduction": self.reduction}

    @classmethod
    def from_config(cls, config: dict):
        return cls(**{k: v for k, v in config.items() if k != "dtype" or v is not None})


def _in_dtype(x, dtype):
    if isinstance(x, dict):
        return {k: _in_dtype(v, dtype) for k, v in x.items()}
    x = _tf.convert_to_tensor(x)
    return x if x.dtype is dtype else _tf.cast(x, dtype)


class LossFunctionWrapper(Loss):
    """A Loss around a function of (y_true, y_pred, **kwargs)."""

    def __init__(self, fn, reduction="sum_over_batch_size", name=None, dtype=None, **kwargs):
        super().__init__(name=name, reduction=reduction, dtype=dtype)
        self.fn, self._fn_kwargs = fn, kwargs

    def call(self, y_true, y_pred):
        # Keras 3 matches the ranks here, not in the functions (binary_crossentropy itself refuses (B,) vs (B, 1))
        if not isinstance(y_true, dict) and not isinstance(y_pred, dict):
            y_true, y_pred = squeeze_or_expand_to_same_rank(_tf.convert_to_tensor(y_true),
                                                            _tf.convert_to_tensor(y_pred))
        return self.fn(y_true, y_pred, **self._fn_kwargs)

    def get_config(self) -> dict:
        return {**super().get_config(), **self._fn_kwargs}


def _snake(class_name):
    from .naming import snake_case

    return snake_case(class_name)


def _wrapper(class_name, fn, default_name, params=(), doc="", config_has_params=True):
    """A Loss class for `fn` whose constructor takes `params` (name, default) before the common arguments."""

    def __init__(self, *args, reduction="sum_over_batch_size", name=default_name, dtype=None, **kwargs):
        values = dict(params)
        for (key, _), value in zip(params, args):
            values[key] = value
        for key in list(kwargs):
            if key not in values:
                raise TypeError(f"{class_name}() got an unexpected keyword argument {key!r}")
            values[key] = kwargs.pop(key)
        LossFunctionWrapper.__init__(self, fn, reduction=reduction, name=name, dtype=dtype, **values)

    namespace = {"__init__": __init__, "__doc__": doc}
    if not config_has_params:  # Keras 3.15's Huber and CosineSimilarity leave their argument out of the config
        namespace["get_config"] = Loss.get_config
    cls = type(class_name, (LossFunctionWrapper,), namespace)
    cls.from_config = classmethod(lambda c, config: c(**config))
    return cls


MeanSquaredError = _wrapper("MeanSquaredError", mean_squared_error, "mean_squared_error")
MeanAbsoluteError = _wrapper("MeanAbsoluteError", mean_absolute_error, "mean_absolute_error")
MeanAbsolutePercentageError = _wrapper("MeanAbsolutePercentageError", mean_absolute_percentage_error,
                                       "mean_absolute_percentage_error")
MeanSquaredLogarithmicError = _wrapper("MeanSquaredLogarithmicError", mean_squared_logarithmic_error,
                                       "mean_squared_logarithmic_error")
Huber = _wrapper("Huber", huber, "huber_loss", [("delta", 1.0)], config_has_params=False)
LogCosh = _wrapper("LogCosh", log_cosh, "log_cosh")
BinaryCrossentropy = _wrapper("BinaryCrossentropy", binary_crossentropy, "binary_crossentropy",
                              [("from_logits", False), ("label_smoothing", 0.0), ("axis", -1)])
CategoricalCrossentropy = _wrapper("CategoricalCrossentropy", categorical_crossentropy, "categorical_crossentropy",
                                   [("from_logits", False), ("label_smoothing", 0.0), ("axis", -1)])
SparseCategoricalCrossentropy = _wrapper("SparseCategoricalCrossentropy", sparse_categorical_crossentropy,
                                         "sparse_categorical_crossentropy",
                                         [("from_logits", False), ("ignore_class", None)])
KLDivergence = _wrapper("KLDivergence", kl_divergence, "kl_divergence")
Poisson = _wrapper("Poisson", poisson, "poisson")
Hinge = _wrapper("Hinge", hinge, "hinge")
SquaredHinge = _wrapper("SquaredHinge", squared_hinge, "squared_hinge")
CosineSimilarity = _wrapper("CosineSimilarity", cosine_similarity, "cosine_similarity", [("axis", -1)],
                            config_has_params=False)


BinaryFocalCrossentropy = _wrapper(
    "BinaryFocalCrossentropy", binary_focal_crossentropy, "binary_focal_crossentropy",
    [("apply_class_balancing", False), ("alpha", 0.25), ("gamma", 2.0), ("from_logits", False),
     ("label_smoothing", 0.0), ("axis", -1)])
CategoricalFocalCrossentropy = _wrapper(
    "CategoricalFocalCrossentropy", categorical_focal_crossentropy, "categorical_focal_crossentropy",
    [("alpha", 0.25), ("gamma", 2.0), ("from_logits", False), ("label_smoothing", 0.0), ("axis", -1)])
CategoricalHinge = _wrapper("CategoricalHinge", categorical_hinge, "categorical_hinge")
Dice = _wrapper("Dice", dice, "dice", [("axis", None)])
Tversky = _wrapper("Tversky", tversky, "tversky", [("alpha", 0.5), ("beta", 0.5), ("axis", None)])
Circle = _wrapper("Circle", circle, "circle", [("gamma", 80.0), ("margin", 0.4), ("remove_diagonal", True)])
_GeneralizedCrossEntropy = _wrapper("CategoricalGeneralizedCrossEntropy",
                                    categorical_generalized_cross_entropy,
                                    "categorical_generalized_cross_entropy", [("q", 0.5)])


class CategoricalGeneralizedCrossEntropy(_GeneralizedCrossEntropy):
    """Generalized cross-entropy for integer labels; q in (0, 1) trades cross-entropy (q -> 0) for MAE (q = 1)."""

    def __init__(self, q=0.5, reduction="sum_over_batch_size", name="categorical_generalized_cross_entropy",
                 dtype=None):
        if not 0 < q < 1:
            raise ValueError("q must be in the interval (0, 1)")
        super().__init__(q, reduction=reduction, name=name, dtype=dtype)


class Reduction:
    """keras.losses.Reduction, the legacy names of the reductions TF 2.21 still exports (Keras 3's losses take
    the strings; "auto" is not one of them any more)."""

    AUTO = "auto"
    NONE = "none"
    SUM = "sum"
    SUM_OVER_BATCH_SIZE = "sum_over_batch_size"

    @classmethod
    def all(cls):
        return (cls.AUTO, cls.NONE, cls.SUM, cls.SUM_OVER_BATCH_SIZE)

    @classmethod
    def validate(cls, key):
        if key not in cls.all():
            raise ValueError(f'Invalid Reduction Key: {key}. Expected keys are "{cls.all()}"')


_CLASSES = {c.__name__: c for c in [
    MeanSquaredError, MeanAbsoluteError, MeanAbsolutePercentageError, MeanSquaredLogarithmicError, Huber, LogCosh,
    BinaryCrossentropy, CategoricalCrossentropy, SparseCategoricalCrossentropy, KLDivergence, Poisson, Hinge,
    SquaredHinge, CosineSimilarity, BinaryFocalCrossentropy, CategoricalFocalCrossentropy, CategoricalHinge, Dice,
    Tversky, Circle, CategoricalGeneralizedCrossEntropy]}
_FUNCTIONS = {f.__name__: f for f in [mean_squared_error, mean_absolute_error, mean_absolute_percentage_error,
                                      mean_squared_logarithmic_error, huber, log_cosh, binary_crossentropy,
                                      categorical_crossentropy, sparse_categorical_crossentropy, kl_divergence,
                                      poisson, hinge, squared_hinge, cosine_similarity, binary_focal_crossentropy,
                                      categorical_focal_crossentropy, categorical_hinge, dice, tversky, circle,
                                      categorical_generalized_cross_entropy]}
_FUNCTIONS.update({"mse": mean_squared_error, "mae": mean_absolute_error, "mape": mean_absolute_percentage_error,
                   "msle": mean_squared_logarithmic_error, "kld": kl_divergence, "logcosh": log_cosh,
                   "kullback_leibler_divergence": kl_divergence, "huber_loss": huber})


def get(identifier):
    """A loss from a function name ("mse"), a class name, a config dict, a Loss or a callable."""
    if identifier is None:
        return None
    if isinstance(identifier, str):
        if identifier in _FUNCTIONS:
            return _FUNCTIONS[identifier]
        if identifier in _CLASSES:
            return _CLASSES[identifier]()
        raise ValueError(f"Could not interpret loss identifier: {identifier}")
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret loss identifier: {identifier}")


def serialize(loss):
    if isinstance(loss, Loss):
        return serialization.serialize(loss, "keras.losses")
    return getattr(loss, "__name__", str(loss))


def deserialize(config, custom_objects=None):
    if isinstance(config, str):
        return get(config)
    return serialization.deserialize(config, _CLASSES, "loss", custom_objects)


__all__ = ["Loss", "LossFunctionWrapper", "Reduction", "get", "serialize", "deserialize", "reduce_weighted_values"] + \
    list(_CLASSES) + list(_FUNCTIONS)

# keras.losses.CTC / ctc (losses_ctc.py); Keras 3.15's CTC config holds only the common arguments
from .losses_ctc import ctc  # noqa: E402

CTC = _wrapper("CTC", ctc, "ctc", config_has_params=False)
_CLASSES["CTC"] = CTC
_FUNCTIONS["ctc"] = ctc
__all__ += ["CTC", "ctc"]
