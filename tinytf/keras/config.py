"""keras.config: Keras' process-wide settings (floatx, epsilon, image_data_format, backend name), with the
defaults TF 2.21's Keras 3 starts from. keras.ops reads floatx (the dtype of Python floats and of integer inputs
to float functions) and epsilon at call time."""

from __future__ import annotations

_ALLOWED_FLOATX = ("float16", "float32", "float64", "bfloat16")
_state = {"floatx": "float32", "epsilon": 1e-7, "image_data_format": "channels_last"}


def backend() -> str:
    """The name of the backend Keras runs on: tinytf plays TensorFlow's part."""
    return "tensorflow"


def floatx() -> str:
    """The default float type of weights and of keras.ops' Python floats: 'float32' unless set_floatx."""
    return _state["floatx"]


def set_floatx(value) -> None:
    value = getattr(value, "name", value)
    if value not in _ALLOWED_FLOATX:
        raise ValueError(f"Unknown `floatx` value: {value}. Expected one of {set(_ALLOWED_FLOATX)}")
    _state["floatx"] = str(value)


def epsilon() -> float:
    """The fuzz factor numeric expressions add to avoid dividing by zero (1e-7)."""
    return _state["epsilon"]


def set_epsilon(value) -> None:
    _state["epsilon"] = value


def image_data_format() -> str:
    """'channels_last' (the default) or 'channels_first'."""
    return _state["image_data_format"]


def set_image_data_format(data_format) -> None:
    if data_format not in ("channels_first", "channels_last"):
        raise ValueError("The `data_format` argument must be one of {'channels_first', 'channels_last'}. "
                         f"Received: data_format={data_format}")
    _state["image_data_format"] = str(data_format)




def set_dtype_policy(policy) -> None:
    """The dtype policy of layers made from now on without a `dtype` ("mixed_float16", "float32", ...)."""
    from .dtype_policies.dtype_policy import set_dtype_policy as set_policy

    set_policy(policy)


def dtype_policy():
    """The global DTypePolicy (a policy of floatx until set_dtype_policy is called)."""
    from .dtype_policies.dtype_policy import dtype_policy as policy

    return policy()


__all__ = ["backend", "dtype_policy", "epsilon", "floatx", "image_data_format", "set_dtype_policy", "set_epsilon",
           "set_floatx", "set_image_data_format"]
