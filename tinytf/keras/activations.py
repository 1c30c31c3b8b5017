"""keras.activations: the activation functions by name (`Dense(3, activation="relu")`), with Keras 3's
definitions, and `get`/`serialize` to move between names and functions."""

from __future__ import annotations

import tinytf as _tf

from . import serialization


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


def softmax(x, axis=-1):
    return _tf.nn.softmax(x, axis=axis)


def log_softmax(x, axis=-1):
    return _tf.nn.log_softmax(x, axis=axis)


_BY_NAME = {f.__name__: f for f in [linear, relu, relu6, leaky_relu, elu, selu, sigmoid, hard_sigmoid, tanh,
                                    softplus, softsign, silu, gelu, exponential, mish, softmax, log_softmax]}
_BY_NAME["swish"] = silu


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
            return "silu" if name == "swish" else name
    registered = serialization.registered_name(activation)
    if registered is not None:
        return {"module": "builtins", "class_name": "function", "config": registered, "registered_name": "function"}
    return getattr(activation, "__name__", str(activation))


def deserialize(config, custom_objects=None):
    if isinstance(config, str) and custom_objects and config in custom_objects:
        return custom_objects[config]
    return get(config)


__all__ = sorted(_BY_NAME) + ["get", "serialize", "deserialize"]
