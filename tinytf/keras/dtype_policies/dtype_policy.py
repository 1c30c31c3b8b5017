"""keras.DTypePolicy: which dtype a layer computes in and which dtype it keeps its weights in. "mixed_float16"
and "mixed_bfloat16" compute in 16 bits and keep float32 weights; any other dtype name is both. The global
policy (keras.config.set_dtype_policy) is what layers made without a `dtype` take."""

from __future__ import annotations

_MIXED = {"mixed_float16": ("float16", "float32"), "mixed_bfloat16": ("bfloat16", "float32")}

# Keras 3's ALLOWED_DTYPES: the names a policy (and standardize_dtype) accepts.
_ALLOWED_DTYPES = ("float16", "float32", "float64", "bfloat16", "uint8", "uint16", "uint32", "uint64", "int8",
                   "int16", "int32", "int64", "bool", "string", "complex64", "complex128", "float8_e4m3fn",
                   "float8_e5m2", "int4", "uint4")
_PYTHON_DTYPES = {bool: "bool", int: "int64", float: "float32", str: "string", "int": "int64"}

_global_state = {"policy": None}


def standardize_dtype(dtype) -> str:
    """Keras' standardize_dtype: a dtype name string from a tf.DType, numpy dtype, Python type or name."""
    from .. import config

    if dtype is None:
        return config.floatx()
    dtype = _PYTHON_DTYPES.get(dtype, dtype)
    if hasattr(dtype, "name"):
        dtype = dtype.name
    elif hasattr(dtype, "__name__"):
        dtype = dtype.__name__
    if dtype not in _ALLOWED_DTYPES:
        raise ValueError(f"Invalid dtype: {dtype}")
    return dtype


def is_float_dtype(dtype) -> bool:
    return standardize_dtype(dtype) in ("float16", "float32", "float64", "bfloat16")


class DTypePolicy:
    """A layer's dtype policy: `compute_dtype` (inputs, outputs, math) and `variable_dtype` (its weights)."""

    def __init__(self, name=None):
        if name is None:  # the global policy's name
            name = dtype_policy().name
        self._name = name
        self._compute_dtype, self._variable_dtype = self._parse_name(name)
        self._quantization_mode = None

    @staticmethod
    def _parse_name(name):
        if not isinstance(name, str):
            raise TypeError(f"'name' must be a string, such as 'mixed_float16'. Received: name={name} "
                            f"(of type {type(name)})")
        if name in _MIXED:
            return _MIXED[name]
        try:
            dtype = standardize_dtype(name)
        except ValueError:
            raise ValueError(f"Cannot convert '{name}' to a mixed precision DTypePolicy. Valid policies include "
                             "'mixed_float16', 'mixed_bfloat16', and the name of any float dtype such as "
                             "'float32'.") from None
        return dtype, dtype

    @property
    def name(self) -> str:
        return self._name

    @property
    def compute_dtype(self) -> str:
        """The dtype of the layer's inputs (float inputs are cast to it), math and outputs."""
        return self._compute_dtype

    @property
    def variable_dtype(self) -> str:
        """The dtype the layer's weights are made in; read inside the layer's call they give compute_dtype."""
        return self._variable_dtype

    @property
    def quantization_mode(self):
        return self._quantization_mode

    def convert_input(self, x, autocast: bool, dtype):
        """x as a tensor, cast to `dtype` when it is a float of another dtype and autocast is on."""
        import tinytf as _tf
        from tinytf.runtime.tensor import Tensor

        dtype = standardize_dtype(dtype)
        if not isinstance(x, Tensor):
            if not hasattr(x, "__array__"):
                return x
            x = _tf.convert_to_tensor(x)
        if autocast and x.dtype.is_floating and x.dtype.name != dtype:
            x = _tf.cast(x, dtype)
        return x

    def get_config(self) -> dict:
        return {"name": self.name}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def __repr__(self):
        class_name = type(self).__name__
        if class_name == "FloatDTypePolicy":
            class_name = "DTypePolicy"
        return f'<{class_name} "{self._name}">'

    def __eq__(self, other):
        if type(other) not in (DTypePolicy, FloatDTypePolicy):
            return False
        return self._name == other._name

    def __hash__(self):
        return hash(self._name)


class FloatDTypePolicy(DTypePolicy):
    """Keras 3's alias of DTypePolicy (it prints as one)."""


def set_dtype_policy(policy) -> None:
    """Set the policy of the layers made from now on without a `dtype` (keras.config.set_dtype_policy)."""
    if not isinstance(policy, DTypePolicy):
        if not isinstance(policy, str):
            raise ValueError("Invalid `policy` argument. Expected the string name of a policy (such as "
                             "'mixed_float16') or a `DTypePolicy` instance. Received: policy="
                             f"{policy} (of type {type(policy)})")
        from .quantized import QUANTIZATION_MODES, quantized_policy_from_name
        policy = quantized_policy_from_name(policy) if policy.startswith(QUANTIZATION_MODES) else DTypePolicy(policy)
    _global_state["policy"] = policy


def dtype_policy() -> DTypePolicy:
    """The global policy: a DTypePolicy of keras.config.floatx() until one is set."""
    from .. import config

    policy = _global_state["policy"]
    if policy is None:
        policy = DTypePolicy(config.floatx())
        _global_state["policy"] = policy
    return policy


def reset_dtype_policy() -> None:
    """Forget the global policy (keras.backend.clear_session): it becomes floatx's again when next asked."""
    _global_state["policy"] = None
