"""tnp's dtypes and its promotion rule: NumPy's types as names (tnp.float32 is np.float32), and result_type as
NumPy computes it (NEP 50: Python scalars are weak), except that with `prefer_float32` (set by
experimental_enable_numpy_behavior) Python floats count as float32 and complex numbers as complex64."""

from __future__ import annotations

import numbers

import numpy as np

import tinytf as tf

bool_ = np.bool_
complex128 = np.complex128
complex64 = np.complex64
complex_ = np.complex128
float16 = np.float16
float32 = np.float32
float64 = np.float64
float_ = np.float64
inexact = np.inexact
int_ = np.int_
int8, int16, int32, int64 = np.int8, np.int16, np.int32, np.int64
uint8, uint16, uint32, uint64 = np.uint8, np.uint16, np.uint32, np.uint64
object_ = np.object_
string_ = np.bytes_
unicode_ = np.str_
iinfo = np.iinfo
issubdtype = np.issubdtype

_state = {"prefer_float32": False}


def set_prefer_float32(prefer: bool) -> None:
    _state["prefer_float32"] = bool(prefer)


def is_prefer_float32() -> bool:
    return _state["prefer_float32"]


def default_float_type():
    """float64, NumPy's default, unless numpy behavior was enabled with prefer_float32."""
    return tf.float32 if _state["prefer_float32"] else tf.float64


def _numpy_view(x):
    """What np.result_type should see for x: a tensor's numpy dtype, a Python number as itself (weak)."""
    if isinstance(x, numbers.Number) and not isinstance(x, np.generic):
        if _state["prefer_float32"]:
            if isinstance(x, float):
                return np.float32(x)
            if isinstance(x, complex):
                return np.complex64(x)
        return x
    if isinstance(x, tf.DType):
        return x.as_numpy_dtype
    if hasattr(x, "dtype") and isinstance(x.dtype, tf.DType):  # a tensor or a variable
        return x.dtype.as_numpy_dtype
    return x


def _flatten(values):
    for value in values:
        if isinstance(value, (list, tuple)):
            yield from _flatten(value)
        else:
            yield value


def result_type(*arrays_and_dtypes) -> tf.DType:
    """`tnp.result_type`: the tf.DType NumPy would give for these arrays, tensors, scalars and dtypes (lists are
    looked at element by element, so a list of Python floats is weak like a Python float)."""
    seen = [_numpy_view(x) for x in _flatten(arrays_and_dtypes)]
    if not seen:
        seen = [np.asarray([])]
    return tf.as_dtype(np.result_type(*seen))


def promote_types(type1, type2):
    """`tnp.promote_types`: NumPy's np.promote_types, on numpy or tf dtypes (a numpy dtype back)."""
    return np.promote_types(_numpy_dtype(type1), _numpy_dtype(type2))


def _numpy_dtype(dtype):
    return dtype.as_numpy_dtype if isinstance(dtype, tf.DType) else np.dtype(dtype)


def tf_dtype(dtype):
    """A dtype argument (tf.DType, numpy type or dtype, Python type, string) as a tf.DType, the NumPy way:
    `float` is float64 (float32 with prefer_float32), `int` is int64."""
    if dtype is None or isinstance(dtype, tf.DType):
        return dtype
    if dtype in (float, complex) or dtype is int or dtype is bool:
        return result_type(dtype)
    return tf.as_dtype(np.dtype(dtype))


def finfo(dtype):
    """`tnp.finfo`: np.finfo of the dtype (a tf.DType allowed)."""
    return np.finfo(_numpy_dtype(dtype))


def is_inexact(dtype: tf.DType) -> bool:
    return dtype.is_floating or dtype.is_complex
