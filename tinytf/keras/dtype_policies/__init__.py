"""keras.dtype_policies: DTypePolicy (FloatDTypePolicy its alias), the quantized policies (quantized.py: int8,
float8, int4, GPTQ, AWQ; tinytf's layers refuse them, having no quantized kernels), DTypePolicyMap
(policy_map.py), and get/serialize/deserialize."""

from __future__ import annotations

from .dtype_policy import DTypePolicy, FloatDTypePolicy, dtype_policy, standardize_dtype
from .policy_map import DTypePolicyMap
from .quantized import (
    QUANTIZATION_MODES,
    AWQDTypePolicy,
    GPTQDTypePolicy,
    Int4DTypePolicy,
    QuantizedDTypePolicy,
    QuantizedFloat8DTypePolicy,
    quantized_policy_from_name,
)

_CLASSES = {cls.__name__: cls for cls in (DTypePolicy, FloatDTypePolicy, QuantizedDTypePolicy,
                                           QuantizedFloat8DTypePolicy, Int4DTypePolicy, GPTQDTypePolicy,
                                           AWQDTypePolicy, DTypePolicyMap)}


def serialize(policy) -> dict:
    """Keras 3's serialized form: {"module": "keras", "class_name": "DTypePolicy", "config": {...}}."""
    # Keras exports DTypePolicy as keras.DTypePolicy, the others only under keras.dtype_policies
    module = "keras" if type(policy) in (DTypePolicy, FloatDTypePolicy) else "keras.dtype_policies"
    return {"module": module, "class_name": type(policy).__name__, "config": policy.get_config(),
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
        if identifier.startswith(QUANTIZATION_MODES):
            return quantized_policy_from_name(identifier)
        return DTypePolicy(identifier)
    try:
        return DTypePolicy(standardize_dtype(identifier))
    except (ValueError, TypeError):
        raise ValueError("Cannot interpret `dtype` argument. Expected a string or an instance of DTypePolicy. "
                         f"Received: dtype={identifier}") from None


__all__ = ["AWQDTypePolicy", "DTypePolicy", "DTypePolicyMap", "FloatDTypePolicy", "GPTQDTypePolicy", "Int4DTypePolicy",
           "QuantizedDTypePolicy", "QuantizedFloat8DTypePolicy", "deserialize", "get", "serialize"]
