"""The Metric base and the reducing metrics: a metric keeps running state in non-trainable variables, so
`update_state` works eagerly and inside tf.function (assign_add ops), and `result()` reads it."""

from __future__ import annotations

import tinytf as _tf
from tinytf.distribute.sync_on_read import metric_variable
from tinytf.scopes import init_scope
from tinytf.variables import Variable

from .. import losses as _losses
from ..losses import squeeze_or_expand_to_same_rank
from ..masking import apply_mask, get_keras_mask
from ..naming import snake_case


class Metric:
    """Base class: subclasses make state with add_variable and implement update_state and result."""

    # Which way the metric improves ("up", "down", or None: unknown), as Keras 3 marks its metrics; callbacks in
    # mode="auto" read it
    _direction = None

    def __init__(self, name=None, dtype=None):
        self.name = name or snake_case(type(self).__name__)
        self._dtype = _tf.as_dtype(dtype or "float32")
        self._variables: list = []

    @property
    def dtype(self) -> str:
        return self._dtype.name

    @property
    def variables(self) -> list:
        return list(self._variables)

    def add_variable(self, shape=(), initializer="zeros", dtype=None, name=None) -> Variable:
        """A non-trainable state variable, reset to its initializer by reset_state."""
        dtype = _tf.as_dtype(dtype or self._dtype)
        with init_scope():
            initial = _tf.zeros(list(shape), dtype) if initializer == "zeros" else _tf.cast(initializer, dtype)
            # under MirroredStrategy: one copy per replica, summed when read (TF's SyncOnRead metric state)
            variable = metric_variable(initial, dtype, name or "variable")
        variable._metric_initial = initial
        self._variables.append(variable)
        return variable

    def reset_state(self) -> None:
        for variable in self._variables:
            variable.assign(variable._metric_initial)

    def reset_states(self) -> None:
        """The TF 2.0 name of reset_state."""
        self.reset_state()

    def update_state(self, *args, **kwargs):
        raise NotImplementedError(f"{type(self).__name__} must implement update_state")

    def result(self):
        raise NotImplementedError(f"{type(self).__name__} must implement result")

    def __call__(self, *args, **kwargs):
        """Update with this batch and return the result so far."""
        self.update_state(*args, **kwargs)
        return self.result()

    def get_config(self) -> dict:
        return {"name": self.name, "dtype": self.dtype}

    @classmethod
    def from_config(cls, config: dict):
        return cls(**config)

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}>"


def samplewise_values(values, sample_weight, reduce_fn, dtype):
    """Keras 3's reduce_to_samplewise_values: one value per sample (the inner axes reduced by `reduce_fn`),
    weighted when weights are given, and the weights at the samples' level (None without weights)."""
    values = _tf.cast(_tf.convert_to_tensor(values), dtype)
    if sample_weight is not None:
        sample_weight = _tf.cast(_tf.convert_to_tensor(sample_weight), dtype)
        values, sample_weight = squeeze_or_expand_to_same_rank(values, sample_weight)
        weight_rank, value_rank = len(sample_weight.shape), len(values.shape)
        if value_rank > weight_rank:
            values = reduce_fn(values, axis=list(range(weight_rank, value_rank)))
        sample_weight = _tf.broadcast_to(sample_weight, _tf.shape(values))
        values = values * sample_weight
        if weight_rank > 1:
            sample_weight = reduce_fn(sample_weight, axis=list(range(1, weight_rank)))
    if len(values.shape) > 1:
        values = reduce_fn(values, axis=list(range(1, len(values.shape))))
    return values, sample_weight


class Sum(Metric):
    """The (weighted) sum of every value seen."""

    def __init__(self, name="sum", dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.total = self.add_variable(name="total")

    def update_state(self, values, sample_weight=None):
        values, _ = samplewise_values(values, sample_weight, _tf.reduce_sum, self._dtype)
        self.total.assign_add(_tf.reduce_sum(values))

    def result(self):
        return _tf.identity(self.total)


class Mean(Metric):
    """The (weighted) mean of every value seen: per-sample means, counted by samples (or their weights)."""

    def __init__(self, name="mean", dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.total = self.add_variable(name="total")
        self.count = self.add_variable(name="count")

    def update_state(self, values, sample_weight=None):
        if sample_weight is not None:  # Keras 3 folds a mask on the values into given weights only
            sample_weight = apply_mask(sample_weight, get_keras_mask(values), self._dtype, "sum")
        values, sample_weight = samplewise_values(values, sample_weight, _tf.reduce_mean, self._dtype)
        self.total.assign_add(_tf.reduce_sum(values))
        if sample_weight is not None:
            samples = _tf.reduce_sum(sample_weight)
        else:
            samples = _tf.shape(values)[0] if len(values.shape) else 1
        self.count.assign_add(_tf.cast(samples, self._dtype))

    def result(self):
        return _tf.math.divide_no_nan(self.total.read_value(), self.count.read_value())


class MeanMetricWrapper(Mean):
    """The mean of fn(y_true, y_pred, **kwargs) over every sample seen."""

    def __init__(self, fn, name=None, dtype=None, **kwargs):
        super().__init__(name=name or getattr(fn, "__name__", "mean_metric_wrapper"), dtype=dtype)
        self._fn, self._fn_kwargs = fn, kwargs
        if _is_keras_loss(fn):  # Keras 3: a wrapped loss is to be minimized
            self._direction = "down"

    def update_state(self, y_true, y_pred, sample_weight=None):
        mask = get_keras_mask(y_pred)  # masked predictions do not count (Keras 3)
        values = self._fn(y_true, y_pred, **self._fn_kwargs)
        super().update_state(values, apply_mask(sample_weight, mask, self._dtype, "sum"))

    def get_config(self) -> dict:
        return {**super().get_config(), **self._fn_kwargs}


def _is_keras_loss(fn) -> bool:
    """Whether `fn` is one of keras.losses' functions or loss objects."""
    return isinstance(fn, _losses.Loss) or (callable(fn) and getattr(fn, "__module__", None) == _losses.__name__)
