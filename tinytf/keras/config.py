"""keras.config: Keras' process-wide settings (floatx, epsilon, image_data_format, backend name), with the
defaults TF 2.21's Keras 3 starts from. keras.ops reads floatx (the dtype of Python floats and of integer inputs
to float functions) and epsilon at call time."""

from __future__ import annotations

import contextlib
import os
import warnings

from .config_logging import disable_interactive_logging, enable_interactive_logging, is_interactive_logging_enabled

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


# --- debugging and runtime switches (Keras 3's backend/config.py and utils/traceback_utils.py) ----------------
_switches = {"traceback_filtering": True, "flash_attention": None, "safe_mode": None, "nnx_enabled": False,
             "max_epochs": int(os.environ["KERAS_MAX_EPOCHS"]) if os.environ.get("KERAS_MAX_EPOCHS") else None,
             "max_steps_per_epoch": (int(os.environ["KERAS_MAX_STEPS_PER_EPOCH"])
                                     if os.environ.get("KERAS_MAX_STEPS_PER_EPOCH") else None)}


def enable_traceback_filtering() -> None:
    """Keras' switch for hiding its internal frames in tracebacks; tinytf keeps the setting (tinytf's own
    errors already point at the user's line, so there is nothing more to filter)."""
    _switches["traceback_filtering"] = True


def disable_traceback_filtering() -> None:
    _switches["traceback_filtering"] = False


def is_traceback_filtering_enabled() -> bool:
    return _switches["traceback_filtering"]


def enable_flash_attention() -> None:
    """Let attention layers try flash attention (Keras' default state, None: "use it where it applies")."""
    _switches["flash_attention"] = None


def disable_flash_attention() -> None:
    _switches["flash_attention"] = False


def is_flash_attention_enabled():
    """None (the default: used where supported; on CPU it never applies) or False once disabled."""
    return _switches["flash_attention"]


def is_nnx_enabled() -> bool:
    """Flax NNX integration belongs to the JAX backend: False under TensorFlow's."""
    return _switches["nnx_enabled"]


def enable_unsafe_deserialization() -> None:
    """Allow loading Lambda layers whose function is stored as Python bytecode (safe mode off, globally)."""
    _switches["safe_mode"] = False


def in_safe_mode():
    """None (unset: loaders use their own safe_mode argument) or False after enable_unsafe_deserialization."""
    return _switches["safe_mode"]


@contextlib.contextmanager
def safe_mode_scope(safe_mode):
    """While loading: the effective safe mode (enable_unsafe_deserialization's global False wins over a
    loader's safe_mode=True, as in Keras' deserialize_keras_object)."""
    previous = _switches["safe_mode"]
    _switches["safe_mode"] = previous if previous is not None else safe_mode
    try:
        yield
    finally:
        _switches["safe_mode"] = previous


def set_max_epochs(max_epochs) -> None:
    """Cap the epochs of every fit (a debugging aid; also the KERAS_MAX_EPOCHS environment variable)."""
    _switches["max_epochs"] = max_epochs


def max_epochs():
    return _switches["max_epochs"]


def set_max_steps_per_epoch(max_steps_per_epoch) -> None:
    """Cap the steps of every epoch of fit, evaluate and predict (also KERAS_MAX_STEPS_PER_EPOCH)."""
    _switches["max_steps_per_epoch"] = max_steps_per_epoch


def max_steps_per_epoch():
    return _switches["max_steps_per_epoch"]


_OTHER_BACKENDS = {"jax": "jax", "torch": "torch", "numpy": "numpy", "openvino": "openvino"}


def set_backend(backend) -> None:
    """TF 2.21's tf.keras: sets KERAS_BACKEND and re-imports Keras. tinytf's Keras runs on tinytf alone, so
    'tensorflow' is accepted (with Keras' warning); another backend needs its library (ModuleNotFoundError
    without it, as in TF) and even then cannot be switched to; an unknown name is a ValueError."""
    os.environ["KERAS_BACKEND"] = backend
    if backend in _OTHER_BACKENDS:
        import importlib

        importlib.import_module(_OTHER_BACKENDS[backend])
        raise NotImplementedError(f"tinytf's Keras runs only on tinytf (backend 'tensorflow'); it cannot switch "
                                  f"to the {backend!r} backend")
    if backend != "tensorflow":
        raise ValueError(f"Unable to import backend : {backend}")
    warnings.warn("Using `keras.config.set_backend` is dangerous and should be done carefully. Already-instantiated "
                  "objects will not be converted. Thus, any layers / tensors / etc. already created will no longer "
                  "be usable without errors. It is strongly recommended not to keep around any Keras-originated "
                  "objects instances created before calling `set_backend()`. This includes any function or class "
                  "instance that uses any Keras functionality. All such code needs to be re-executed after calling "
                  "`set_backend()` and re-importing all imported `keras` modules.", stacklevel=2)


__all__ = ["backend", "dtype_policy", "epsilon", "floatx", "image_data_format", "set_dtype_policy", "set_epsilon",
           "set_floatx", "set_image_data_format"]
__all__ += ["disable_flash_attention", "disable_interactive_logging", "disable_traceback_filtering",
            "enable_flash_attention", "enable_interactive_logging", "enable_traceback_filtering",
            "enable_unsafe_deserialization", "is_flash_attention_enabled", "is_interactive_logging_enabled",
            "is_nnx_enabled", "is_traceback_filtering_enabled", "max_epochs", "max_steps_per_epoch", "set_backend",
            "set_max_epochs", "set_max_steps_per_epoch"]
