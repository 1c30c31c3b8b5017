"""keras.activations: the activation functions by name (`Dense(3, activation="relu")`), with Keras 3's
definitions, and `get`/`serialize` to move between names and functions. Called on a KerasTensor, each becomes
the Operation Keras 3 makes of it (`relu` a `ReLU`, `sigmoid` keras.ops' `Sigmoid`, `exponential` an `Exp`), so
`keras.activations.relu(inputs)` is a node of a Functional model; mish, hard_silu and sparsemax refuse a
KerasTensor as TF 2.21 does (Keras' versions call the backend directly)."""

from __future__ import annotations

import functools
import inspect

import tinytf as _tf

from . import ops as _ops
from . import serialization
from .models.functional import is_symbolic
from .ops import nn as _nn
from .ops.operation import Operation


def _symbolic_as(keras_op):
    """The activation, which on a KerasTensor is `keras_op` (a keras.ops function) given the activation's
    arguments with the activation's defaults (gelu's approximate=False, where keras.ops.gelu's is True)."""
    def wrap(fn):
        signature = inspect.signature(fn)

        @functools.wraps(fn)
        def activation(x, *args, **kwargs):
            if is_symbolic(x):
                bound = signature.bind(x, *args, **kwargs)
                bound.apply_defaults()
                return keras_op(*bound.arguments.values())
            return fn(x, *args, **kwargs)
        return activation
    return wrap


class ReLU(Operation):
    """The Operation keras.activations.relu makes on a KerasTensor (Keras' keras.src.activations.activations.ReLU,
    named "re_lu"), with its arguments in its config."""

    _keras_module = "keras.src.activations.activations"

    def __init__(self, negative_slope=0.0, max_value=None, threshold=0.0, name=None):
        super().__init__(name=name)
        self.negative_slope, self.max_value, self.threshold = negative_slope, max_value, threshold

    def call(self, x):
        return _relu(x, self.negative_slope, self.max_value, self.threshold)

    def get_config(self) -> dict:
        return {"name": self.name, "negative_slope": self.negative_slope, "max_value": self.max_value,
                "threshold": self.threshold}


def linear(x):
    """The identity: the default activation of Dense and Conv layers."""
    return x


def relu(x, negative_slope=0.0, max_value=None, threshold=0.0):
    """max(x, 0), with Keras' optional leak below the threshold and cap at max_value."""
    if is_symbolic(x):
        return ReLU(negative_slope=negative_slope, max_value=max_value, threshold=threshold)(x)
    return _relu(x, negative_slope, max_value, threshold)


def _relu(x, negative_slope, max_value, threshold):
    """Keras 3's ReLU.static_call: the part above the threshold (clipped to [0, max_value]) less the slope times
    the part below it."""
    if negative_slope == 0.0 and max_value is None and threshold == 0.0:
        return _tf.nn.relu(x)
    x = _tf.convert_to_tensor(x)
    if negative_slope != 0.0 and max_value is None and threshold == 0:
        return _tf.nn.leaky_relu(x, alpha=negative_slope)
    negative_part = _tf.nn.relu(threshold - x) if negative_slope != 0.0 else None
    clip_max = max_value is not None
    if threshold != 0:
        x = _tf.where(x > _tf.cast(threshold, x.dtype), x, _tf.zeros_like(x))
    elif max_value == 6:
        x, clip_max = _tf.nn.relu6(x), False
    else:
        x = _tf.nn.relu(x)
    if clip_max:
        x = _tf.clip_by_value(x, _tf.cast(0.0, x.dtype), _tf.cast(max_value, x.dtype))
    if negative_part is not None:
        x = x - negative_slope * negative_part
    return x


@_symbolic_as(_ops.relu6)
def relu6(x):
    return _tf.nn.relu6(x)


@_symbolic_as(_ops.leaky_relu)
def leaky_relu(x, negative_slope=0.2):
    return _tf.nn.leaky_relu(x, alpha=negative_slope)


@_symbolic_as(_ops.elu)
def elu(x, alpha=1.0):
    out = _tf.nn.elu(x)
    return out if alpha == 1.0 else _tf.where(_tf.convert_to_tensor(x) > 0, out, alpha * out)


@_symbolic_as(_ops.selu)
def selu(x):
    return _tf.nn.selu(x)


@_symbolic_as(_ops.sigmoid)
def sigmoid(x):
    return _tf.sigmoid(x)


@_symbolic_as(_ops.hard_sigmoid)
def hard_sigmoid(x):
    """relu6(x + 3) / 6, Keras 3's piecewise-linear sigmoid."""
    return _tf.nn.relu6(x + 3.0) / 6.0


@_symbolic_as(_ops.tanh)
def tanh(x):
    return _tf.tanh(x)


@_symbolic_as(_ops.softplus)
def softplus(x):
    return _tf.nn.softplus(x)


@_symbolic_as(_ops.softsign)
def softsign(x):
    return _tf.nn.softsign(x)


@_symbolic_as(_ops.silu)
def silu(x):
    return _tf.nn.silu(x)


swish = silu


@_symbolic_as(_ops.gelu)
def gelu(x, approximate=False):
    return _tf.nn.gelu(x, approximate=approximate)


@_symbolic_as(_ops.exp)
def exponential(x):
    return _tf.exp(x)


def mish(x):
    """x * tanh(softplus(x)); a KerasTensor raises, as in TF 2.21 (Keras' Mish calls the backend directly)."""
    return x * _tf.tanh(_tf.nn.softplus(x))


@_symbolic_as(_ops.celu)
def celu(x, alpha=1.0):
    """max(x, 0) + alpha * expm1(min(x, 0) / alpha): a continuously differentiable ELU."""
    return _nn.celu(x, alpha=alpha)


@_symbolic_as(_ops.glu)
def glu(x, axis=-1):
    """The gated linear unit: a * sigmoid(b), a and b the halves of x along axis."""
    return _nn.glu(x, axis=axis)


@_symbolic_as(_ops.hard_shrink)
def hard_shrink(x, threshold=0.5):
    return _nn.hard_shrink(x, threshold=threshold)


def hard_silu(x):
    """x * hard_sigmoid(x) (hard_swish is the same function); a KerasTensor raises, as in TF 2.21."""
    return _nn.hard_silu(_tf.convert_to_tensor(x))


hard_swish = hard_silu


@_symbolic_as(_ops.hard_tanh)
def hard_tanh(x):
    return _nn.hard_tanh(x)


@_symbolic_as(_ops.log_sigmoid)
def log_sigmoid(x):
    return _nn.log_sigmoid(x)


@_symbolic_as(_ops.soft_shrink)
def soft_shrink(x, threshold=0.5):
    return _nn.soft_shrink(x, threshold=threshold)


@_symbolic_as(_ops.sparse_plus)
def sparse_plus(x):
    return _nn.sparse_plus(x)


@_symbolic_as(_ops.sparse_sigmoid)
def sparse_sigmoid(x):
    return _nn.sparse_sigmoid(x)


def sparsemax(x, axis=-1):
    """Euclidean projection onto the simplex; a KerasTensor raises, as in TF 2.21."""
    return _nn.sparsemax(_tf.convert_to_tensor(x), axis=axis)


@_symbolic_as(_ops.squareplus)
def squareplus(x, b=4):
    return _nn.squareplus(x, b=b)


@_symbolic_as(_ops.tanh_shrink)
def tanh_shrink(x):
    return _nn.tanh_shrink(x)


@_symbolic_as(_ops.threshold)
def threshold(x, threshold, default_value):
    """x where x > threshold, else default_value."""
    return _nn.threshold(x, threshold, default_value)


@_symbolic_as(_ops.softmax)
def softmax(x, axis=-1):
    return _tf.nn.softmax(x, axis=axis)


@_symbolic_as(_ops.log_softmax)
def log_softmax(x, axis=-1):
    return _tf.nn.log_softmax(x, axis=axis)


_BY_NAME = {f.__name__: f for f in [linear, relu, relu6, leaky_relu, elu, selu, sigmoid, hard_sigmoid, tanh,
                                    softplus, softsign, silu, gelu, exponential, mish, softmax, log_softmax, celu,
                                    glu, hard_shrink, hard_silu, hard_tanh, log_sigmoid, soft_shrink, sparse_plus,
                                    sparse_sigmoid, sparsemax, squareplus, tanh_shrink, threshold]}
_BY_NAME["swish"] = silu
_BY_NAME["hard_swish"] = hard_silu


def get(identifier):
    """A function from a name, a function, or None (linear)."""
    if identifier is None:
        return linear
    if isinstance(identifier, dict):  # Keras 3 serializes some activations as {"class_name": "function", ...}
        identifier = identifier.get("config", identifier.get("class_name"))
    if isinstance(identifier, str):
        found = _BY_NAME.get(identifier) or serialization.get_registered_object(identifier)
        if found is None:
            raise ValueError(f"Could not interpret activation function identifier: {identifier!r}")
        return found
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret activation function identifier: {identifier!r}")


def serialize(activation):
    """The Keras name of an activation function (what get_config stores); a registered custom function is
    Keras 3's {"class_name": "function", "config": "package>name"} dict."""
    for name, fn in _BY_NAME.items():
        if fn is activation:
            return {"swish": "silu", "hard_swish": "hard_silu"}.get(name, name)
    registered = serialization.registered_name(activation)
    if registered is not None:
        return {"module": "builtins", "class_name": "function", "config": registered, "registered_name": "function"}
    return getattr(activation, "__name__", str(activation))


def deserialize(config, custom_objects=None):
    if isinstance(config, str) and custom_objects and config in custom_objects:
        return custom_objects[config]
    return get(config)


__all__ = sorted(_BY_NAME) + ["get", "serialize", "deserialize"]
