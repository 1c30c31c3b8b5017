"""keras.regularizers: penalties on weights (or activations) that a layer adds to its `losses`."""

from __future__ import annotations

import math

import numpy as np

import tinytf as _tf

from . import serialization


def _float32(value) -> float:
    """Keras stores the factors as float32 values (0.01 reads back as 0.009999999776482582)."""
    return float(np.float32(value))


class Regularizer:
    """Base class: `__call__(x)` returns a scalar penalty."""

    def __call__(self, x):
        return 0.0

    def get_config(self) -> dict:
        return {}

    @classmethod
    def from_config(cls, config: dict):
        return cls(**config)


class L1(Regularizer):
    """l1 * sum(|x|)."""

    def __init__(self, l1=0.01):
        self.l1 = _float32(l1)

    def __call__(self, x):
        return self.l1 * _tf.reduce_sum(_tf.abs(x))

    def get_config(self) -> dict:
        return {"l1": self.l1}


class L2(Regularizer):
    """l2 * sum(x²)."""

    def __init__(self, l2=0.01):
        self.l2 = _float32(l2)

    def __call__(self, x):
        return self.l2 * _tf.reduce_sum(_tf.square(x))

    def get_config(self) -> dict:
        return {"l2": self.l2}


class L1L2(Regularizer):
    """l1 * sum(|x|) + l2 * sum(x²)."""

    def __init__(self, l1=0.0, l2=0.0):
        self.l1, self.l2 = _float32(l1), _float32(l2)

    def __call__(self, x):
        penalty = 0.0
        if self.l1:
            penalty += self.l1 * _tf.reduce_sum(_tf.abs(x))
        if self.l2:
            penalty += self.l2 * _tf.reduce_sum(_tf.square(x))
        return penalty

    def get_config(self) -> dict:
        return {"l1": self.l1, "l2": self.l2}


class OrthogonalRegularizer(Regularizer):
    """Pushes the rows (or columns) of a 2-D weight towards orthogonality: factor * mean over pairs of
    |cosine| between distinct L2-normalized rows (columns), Keras 3's formula."""

    def __init__(self, factor=0.01, mode="rows"):
        if not isinstance(factor, (float, int)) or math.isinf(factor) or math.isnan(factor) or factor < 0:
            raise ValueError(f"Invalid value for argument factor: expected a non-negative float.Received: "
                             f"factor={factor}")
        if mode not in {"rows", "columns"}:
            raise ValueError(f'Invalid value for argument `mode`. Expected one of {{"rows", "columns"}}. Received: '
                             f"mode={mode}")
        self.factor, self.mode = _float32(factor), mode

    def __call__(self, inputs):
        inputs = _tf.convert_to_tensor(inputs)
        if len(inputs.shape) != 2:
            raise ValueError(f"Inputs to OrthogonalRegularizer must have rank 2. Received: "
                             f"inputs.shape={tuple(inputs.shape.as_list())}")
        if self.mode == "rows":
            unit = _tf.math.l2_normalize(inputs, axis=1)
            product, size = _tf.matmul(unit, unit, transpose_b=True), inputs.shape[0]
        else:
            unit = _tf.math.l2_normalize(inputs, axis=0)
            product, size = _tf.matmul(unit, unit, transpose_a=True), inputs.shape[1]
        off_diagonal = product * (1.0 - _tf.eye(size, dtype=inputs.dtype))
        pairs = size * (size - 1.0) / 2.0
        return self.factor * 0.5 * _tf.reduce_sum(_tf.abs(off_diagonal)) / pairs

    def get_config(self) -> dict:
        return {"factor": self.factor, "mode": self.mode}


l1, l2, l1_l2, orthogonal_regularizer = L1, L2, L1L2, OrthogonalRegularizer
_CLASSES = {"L1": L1, "L2": L2, "L1L2": L1L2, "OrthogonalRegularizer": OrthogonalRegularizer}
_ALIASES = {"l1": L1, "l2": L2, "l1l2": L1L2, "l1_l2": L1L2, "orthogonal_regularizer": OrthogonalRegularizer}


def get(identifier):
    """A regularizer from a name ("l2"), a Keras config dict, an instance or a callable (None stays None)."""
    return serialization.get_object(identifier, "regularizer", _CLASSES, _ALIASES)


def serialize(regularizer):
    return serialization.serialize(regularizer, "keras.regularizers")


def deserialize(config, custom_objects=None):
    return serialization.deserialize(config, _CLASSES, "regularizer", custom_objects)


__all__ = ["Regularizer", "L1", "L2", "L1L2", "OrthogonalRegularizer", "l1", "l2", "l1_l2", "orthogonal_regularizer",
           "get", "serialize", "deserialize"]
