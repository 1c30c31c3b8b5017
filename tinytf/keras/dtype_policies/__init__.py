"""keras.dtype_policies: DTypePolicy (FloatDTypePolicy its alias), and get/serialize/deserialize. The
quantized policies (int8, float8, int4, GPTQ, AWQ) need Keras' quantized kernels and are not here."""

from __future__ import annotations

from .dtype_policy import DTypePolicy, FloatDTypePolicy, dtype_policy, standardize_dtype

_CLASSES = {"DTypePolicy": DTypePolicy, "FloatDTypePolicy": FloatDTypePolicy}


def serialize(policy) -> dict:
    """Keras 3's serialized form: {"module": "keras", "class_name": "DTypePolicy", "config": {...}}."""
    return {"module": "keras", "class_name": type(policy).__name__, "config": policy.get_config(),
            "registered_name": None}


def deserialize(config, custom_objects=None):
    class_name = config.get("class_name")
    cls = (custom_objects or {}).get(class_name) or _CLASSES.get(class_name)
    if cls is None:
        raise TypeError(f"Could not locate class '{class_name}'. Make sure custom classes are decorated with "
                        "`@keras.saving.register_keras_serializable()`.")
    return cls.from_config(config["config"])


def get(identifier):
    """A DTypePolicy from None (the global policy), a policy, its serialized dict, a name or a dtype."""
    if identifier is None:
        return dtype_policy()
    if isinstance(identifier, DTypePolicy):
        return identifier
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if isinstance(identifier, str):
        return DTypePolicy(identifier)
    try:
        return DTypePolicy(standardize_dtype(identifier))
    except (ValueError, TypeError):
        raise ValueError("Cannot interpret `dtype` argument. Expected a string or an instance of DTypePolicy. "
                         f"Received: dtype={identifier}") from None


__all__ = ["DTypePolicy", "FloatDTypePolicy", "deserialize", "get", "serialize"]
