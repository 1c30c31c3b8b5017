"""Keras 3's dtype rules, which keras.ops follows and TF's own ops do not: dtype names as strings
(standardize_dtype), and result_type, the least upper bound on JAX's type-promotion lattice, where Python
ints and floats are "weak" (int32 tensor + 1.5 is float32, int8 tensor + 1 stays int8, float16 + 1.0 stays
float16) and 64-bit floats stay 64-bit on the TensorFlow backend."""

from __future__ import annotations

import functools

from tinytf.runtime import dtypes as _dtypes

from .. import config

INT_TYPES = ("uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64")
FLOAT_TYPES = ("bfloat16", "float16", "float32", "float64")
COMPLEX_TYPES = ("complex64", "complex128")
ALLOWED_DTYPES = ("float16", "float32", "float64", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32",
                  "int64", "bfloat16", "bool", "string", "complex64", "complex128")
# What a Python type means as a dtype on the TensorFlow backend (Keras' PYTHON_DTYPES_MAP).
_PYTHON_DTYPES = {bool: "bool", int: "int64", float: "float32", str: "string", "int": "int64", complex: "complex128"}

# Each dtype's immediate successors ("int"/"float" are the weak types of Python scalars), as in JAX.
_LATTICE = {
    "bool": ["int"], "uint8": ["int16", "uint16"], "uint16": ["int32", "uint32"], "uint32": ["int64", "uint64"],
    "uint64": ["float"], "int": ["uint8", "int8", "complex64"], "int8": ["int16"], "int16": ["int32"],
    "int32": ["int64"], "int64": ["float"], "float": ["bfloat16", "float16"], "bfloat16": ["float32"],
    "float16": ["float32"], "float32": ["float64", "complex64"], "float64": ["complex128"],
    "complex64": ["complex128"], "complex128": [],
}


def _upper_bounds() -> dict:
    """Every node's set of nodes reachable from it (itself included)."""
    bounds = {node: {node} for node in _LATTICE}
    for node in _LATTICE:
        while True:
            grown = bounds[node].union(*(_LATTICE[b] for b in bounds[node]))
            if grown == bounds[node]:
                break
            bounds[node] = grown
    return bounds


_UPPER = _upper_bounds()


def standardize_dtype(dtype) -> str:
    """A dtype's Keras name ('float32', ...) from a string, a tinytf/numpy dtype or a Python type; None is floatx."""
    if dtype is None:
        return config.floatx()
    dtype = _PYTHON_DTYPES.get(dtype, dtype) if isinstance(dtype, (type, str)) else dtype
    if hasattr(dtype, "name"):
        dtype = dtype.name
    elif hasattr(dtype, "__name__"):
        dtype = dtype.__name__
    elif not isinstance(dtype, str):
        dtype = _dtypes.as_dtype(dtype).name
    if dtype not in ALLOWED_DTYPES:
        raise ValueError(f"Invalid dtype: {dtype}")
    return dtype


@functools.lru_cache(512)
def _least_upper_bound(*nodes) -> str:
    unknown = [n for n in nodes if n not in _UPPER]
    if unknown:
        raise ValueError(f"dtype={unknown[0]!r} is not a valid dtype for Keras type promotion.")
    common = set.intersection(*(_UPPER[n] for n in nodes))
    least = (common & set(nodes)) or {c for c in common if common.issubset(_UPPER[c])}
    if len(least) != 1:
        raise ValueError(f"Input dtypes {tuple(nodes)} have no available implicit dtype promotion path. Try "
                         "explicitly casting inputs to the desired output type.")
    return least.pop()


def _weak(dtype: str) -> str:
    if dtype == "bool":
        return dtype
    for kind in ("float", "int", "complex"):
        if kind in dtype:
            return kind
    raise ValueError(f"Invalid value for argument `dtype`. Expected one of {ALLOWED_DTYPES}. Received: dtype={dtype}")


def _resolve_weak(dtype: str) -> str:
    """A weak result takes floatx's precision: 'int' -> int32 under float32, 'float' -> floatx."""
    precision = config.floatx()[-2:]
    kind = "f" if dtype == "bfloat16" else dtype[:1]
    return {"b": "bool", "i": f"int{precision}", "u": f"uint{precision}"}.get(kind, f"float{precision}")


def result_type(*dtypes) -> str:
    """The dtype Keras gives an operation on values of these dtypes (`int` and `float`, the Python types, are
    weak); None counts as floatx; no argument at all is floatx."""
    if not dtypes:
        return config.floatx()
    names, weak = [], []
    for d in dtypes:
        is_weak = d is int or d is float
        names.append(standardize_dtype(config.floatx() if d is None else d))
        weak.append(is_weak)
    if len(names) == 1:
        out, out_weak = names[0], weak[0]
    elif len(set(names)) == 1 and not all(weak):
        out, out_weak = names[0], False
    elif all(weak):
        out, out_weak = _least_upper_bound(*sorted(set(names))), True
    else:
        out = _least_upper_bound(*sorted({_weak(n) if w else n for n, w in zip(names, weak)}))
        out_weak = out in ("int", "float")
    if out != "bool" and out_weak:
        out = _resolve_weak(out)
    return "uint32" if out == "uint64" else out


def dtype_of(x):
    """The dtype result_type should see for an argument: a tensor's name, or the Python type of a scalar."""
    if isinstance(x, bool):
        return bool
    if isinstance(x, (int, float)):
        return type(x)
    dtype = getattr(x, "dtype", None)
    if dtype is None:
        import numpy as np
        return np.asarray(x).dtype.name if not isinstance(x, (list, tuple)) else _sequence_dtype(x)
    return standardize_dtype(dtype)


def _sequence_dtype(x):
    import numpy as np
    array = np.asarray(x)
    if array.dtype.kind == "f":
        return "float32"
    if array.dtype.kind in "iu":
        return "int32"
    return array.dtype.name


def is_float_dtype(dtype) -> bool:
    return standardize_dtype(dtype) in FLOAT_TYPES


def is_int_dtype(dtype) -> bool:
    return standardize_dtype(dtype) in INT_TYPES


__all__ = ["standardize_dtype", "result_type", "is_float_dtype", "is_int_dtype", "dtype_of"]
