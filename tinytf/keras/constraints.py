"""keras.constraints: projections the optimizer applies to a weight after each update."""

from __future__ import annotations

import tinytf as _tf

from . import serialization

_EPSILON = 1e-7  # Keras' backend.epsilon(), which keeps the norms away from a division by zero


class Constraint:
    """Base class: `__call__(w)` returns the projected weight."""

    def __call__(self, w):
        return w

    def get_config(self) -> dict:
        return {}

    @classmethod
    def from_config(cls, config: dict):
        return cls(**config)


def _norms(w, axis):
    return _tf.sqrt(_tf.reduce_sum(_tf.square(w), axis=axis, keepdims=True))


class MaxNorm(Constraint):
    """Rescales the slices along `axis` whose L2 norm exceeds max_value."""

    def __init__(self, max_value=2, axis=0):
        self.max_value, self.axis = max_value, axis

    def __call__(self, w):
        w = _tf.convert_to_tensor(w)
        norms = _norms(w, self.axis)
        desired = _tf.clip_by_value(norms, 0.0, float(self.max_value))
        return w * (desired / (_EPSILON + norms))

    def get_config(self) -> dict:
        return {"max_value": self.max_value, "axis": self.axis}


class NonNeg(Constraint):
    """Negative entries become zero."""

    def __call__(self, w):
        w = _tf.convert_to_tensor(w)
        return w * _tf.cast(w >= 0.0, w.dtype)


class UnitNorm(Constraint):
    """Divides the slices along `axis` by their L2 norm."""

    def __init__(self, axis=0):
        self.axis = axis

    def __call__(self, w):
        w = _tf.convert_to_tensor(w)
        return w / (_EPSILON + _norms(w, self.axis))

    def get_config(self) -> dict:
        return {"axis": self.axis}


class MinMaxNorm(Constraint):
    """Moves the L2 norm of each slice along `axis` towards [min_value, max_value], by the fraction `rate`
    (rate=1: clipped into the interval)."""

    def __init__(self, min_value=0.0, max_value=1.0, rate=1.0, axis=0):
        self.min_value, self.max_value, self.rate, self.axis = min_value, max_value, rate, axis

    def __call__(self, w):
        w = _tf.convert_to_tensor(w)
        norms = _norms(w, self.axis)
        desired = self.rate * _tf.clip_by_value(norms, float(self.min_value), float(self.max_value)) + \
            (1 - self.rate) * norms
        return w * (desired / (_EPSILON + norms))

    def get_config(self) -> dict:
        return {"min_value": self.min_value, "max_value": self.max_value, "rate": self.rate, "axis": self.axis}


max_norm, non_neg, unit_norm, min_max_norm = MaxNorm, NonNeg, UnitNorm, MinMaxNorm
_CLASSES = {"MaxNorm": MaxNorm, "NonNeg": NonNeg, "UnitNorm": UnitNorm, "MinMaxNorm": MinMaxNorm}
_ALIASES = {"max_norm": MaxNorm, "non_neg": NonNeg, "unit_norm": UnitNorm, "min_max_norm": MinMaxNorm}


def get(identifier):
    """A constraint from a name ("non_neg"), a Keras config dict, an instance or a callable (None stays None)."""
    return serialization.get_object(identifier, "constraint", _CLASSES, _ALIASES)


def serialize(constraint):
    return serialization.serialize(constraint, "keras.constraints")


def deserialize(config, custom_objects=None):
    return serialization.deserialize(config, _CLASSES, "constraint", custom_objects)


__all__ = ["Constraint", "MaxNorm", "NonNeg", "UnitNorm", "MinMaxNorm", "max_norm", "non_neg", "unit_norm",
           "min_max_norm", "get", "serialize", "deserialize"]
