"""tf.register_tensor_conversion_function's registry: conversion functions for user types, tried (lowest
priority number first, then in registration order) by convert_to_tensor when a value is no tensor, variable
or other type it already knows. Kept in the engine so that dispatch.convert_to_tensor needs no import of the
face; an empty registry costs one truth test per conversion."""

from __future__ import annotations

import threading

import numpy as np

_lock = threading.Lock()
# (priority, registration number, base_type, conversion_func), sorted
functions: list = []


def register(base_type, conversion_func, priority=100) -> None:
    """Register `conversion_func(value, dtype=None, name=None, as_ref=False)` for instances of `base_type`."""
    types = base_type if isinstance(base_type, tuple) else (base_type,)
    if not types or any(not isinstance(t, type) for t in types):
        raise TypeError(f"Argument `base_type` must be a type or a tuple of types. Obtained: {base_type}")
    if any(issubclass(t, (int, float, np.generic, np.ndarray))  # TF's constant-op types
           for t in types):
        raise TypeError("Cannot register conversions for Python numeric types and NumPy scalars and arrays.")
    if not callable(conversion_func):
        raise TypeError(f"Argument `conversion_func` must be callable. Received {conversion_func}.")
    with _lock:
        functions.append((priority, len(functions), types, conversion_func))
        functions.sort(key=lambda entry: entry[:2])


def convert(value, dtype, name, tensor_class):
    """The tensor a registered function makes of `value`, or None when no registered type matches."""
    for _, _, types, func in list(functions):
        if not isinstance(value, types):
            continue
        result = func(value, dtype=dtype, name=name, as_ref=False)
        if result is NotImplemented:
            continue
        if not isinstance(result, tensor_class):
            raise RuntimeError(f"{func!r}: Conversion function returned non-Tensor: {result!r}")
        if dtype is not None and result.dtype is not dtype:
            raise RuntimeError(f"{func!r}: Conversion function returned incompatible dtype: requested = "
                               f"{dtype.name}, actual = {result.dtype.name}")
        return result
    return None
