"""keras.activations: the activation functions by name (`Dense(3, activation="relu")`), with Keras 3's
definitions, and `get`/`serialize` to move between names and functions."""

from __future__ import annotations

import tinytf as _tf

from . import serialization
from .ops import nn as _nn


def linear(x):
    """The identity: the default activation of Dense and Conv layers."""
    return x


def relu(x, negative_slope=0.0, max_value=None, threshold=0.0):
    """max(x, 0), with Keras' optional leak below the threshold and cap at max_value."""
    if negative_slope == 0.0 and max_value is None and threshold == 0.0:
        return _tf.nn.relu(x)
    x = _tf.convert_to_tensor(x)
    below = x < threshold
    out = _tf.where(below, negative_slope * (x - threshold), x)
    if max_value is not None:
        out = _tf.minimum(out, _tf.cast(max_value, x.dtype))
    return out


def relu6(x):
    return _tf.nn.relu6(x)


def leaky_relu(x, negative_slope=0.2):
    return _tf.nn.leaky_relu(x, alpha=negative_slope)


def elu(x, alpha=1.0):
    out = _tf.nn.elu(x)
    return out if alpha == 1.0 else _tf.where(_tf.convert_to_tensor(x) > 0, out, alpha * out)


def selu(x):
    return _tf.nn.selu(x)


def sigmoid(x):
    return _tf.sigmoid(x)


def hard_sigmoid(x):
    """relu6(x + 3) / 6, Keras 3's piecewise-linear sigmoid."""
    return _tf.nn.relu6(x + 3.0) / 6.0


def tanh(x):
    return _tf.tanh(x)


def softplus(x):
    return _tf.nn.softplus(x)


def softsign(x):
    return _tf.nn.softsign(x)


def silu(x):
    return _tf.nn.silu(x)


swish = silu


def gelu(x, approximate=False):
    return _tf.nn.gelu(x, approximate=approximate)


def exponential(x):
    return _tf.exp(x)


def mish(x):
    return x * _tf.tanh(_tf.nn.softplus(x))


def celu(x, alpha=1.0):
    """max(x, 0) + alpha * expm1(min(x, 0) / alpha): a continuously differentiable ELU."""
    return _nn.celu(x, alpha=alpha)


def glu(x, axis=-1):
    """The gated linear unit: a * sigmoid(b), a and b the halves of x along axis."""
    return _nn.glu(x, axis=axis)


def hard_shrink(x, threshold=0.5):
    return _nn.hard_shrink(x, threshold=threshold)


def hard_silu(x):
    """x * hard_sigmoid(x) (hard_swish is the same function)."""
    return _nn.hard_silu(x)


hard_swish = hard_silu


def hard_tanh(x):
    return _nn.hard_tanh(x)


def log_sigmoid(x):
    return _nn.log_sigmoid(x)


def soft_shrink(x, threshold=0.5):
    return _nn.soft_shrink(x, threshold=threshold)


def sparse_plus(x):
    return _nn.sparse_plus(x)


def sparse_sigmoid(x):
    return _nn.sparse_sigmoid(x)


def sparsemax(x, axis=-1):
    return _nn.sparsemax(x, axis=axis)


def squareplus(x, b=4):
    return _nn.squareplus(x, b=b)


def tanh_shrink(x):
    return _nn.tanh_shrink(x)


def threshold(x, threshold, default_value):
    """x where x > threshold, else default_value."""
    return _nn.threshold(x, threshold, default_value)


def softmax(x, axis=-1):
    return _tf.nn.softmax(x, axis=axis)


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
