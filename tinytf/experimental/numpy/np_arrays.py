"""Turning values into tnp arrays (tf.Tensor, TF's tnp.ndarray) with NumPy's dtype inference, and the promotion
helpers every tnp function uses: `promote` casts its arguments to their common NumPy result type, `promote_float`
also turns integer and bool results into the default float (as NumPy's sqrt or mean do)."""

from __future__ import annotations

import numpy as np

import tinytf as tf

from .np_dtypes import is_inexact, result_type, tf_dtype

ndarray = tf.Tensor


def is_tensor(x) -> bool:
    return isinstance(x, tf.Tensor) or isinstance(x, tf.Variable)


def _contains_tensor(value) -> bool:
    if isinstance(value, (list, tuple)):
        return any(_contains_tensor(v) for v in value)
    return is_tensor(value)


def _pack(value, dtype):
    """A nested list holding tensors as one tensor of dtype (each tensor cast, then stacked level by level)."""
    if isinstance(value, (list, tuple)):
        return tf.stack([_pack(v, dtype) for v in value])
    if is_tensor(value):
        return tf.cast(value, dtype)
    return tf.constant(value, dtype)


def asarray(a, dtype=None):
    """`tnp.asarray`: a as a tensor (itself when it already is one of the dtype). Without dtype: a tensor keeps
    its dtype, a numpy array its own, Python values NumPy's choice (int64, float64, or float32 with
    prefer_float32)."""
    dtype = tf_dtype(dtype)
    if is_tensor(a):
        a = tf.convert_to_tensor(a)
        return a if dtype is None or a.dtype == dtype else tf.cast(a, dtype)
    if isinstance(a, (np.ndarray, np.generic)):
        return tf.constant(a if dtype is None else np.asarray(a).astype(dtype.as_numpy_dtype))
    if isinstance(a, (str, bytes)):
        return tf.constant(a)
    if dtype is None:
        if isinstance(a, (list, tuple)) and _any_string(a):
            return tf.constant(a)
        dtype = result_type(a)
    if _contains_tensor(a):
        return _pack(a, dtype)
    return tf.constant(np.asarray(a).astype(dtype.as_numpy_dtype) if not dtype.is_string else a, dtype)


def _any_string(value) -> bool:
    if isinstance(value, (list, tuple)):
        return any(_any_string(v) for v in value)
    return isinstance(value, (str, bytes))


def array(val, dtype=None, copy=True, ndmin=0):  # noqa: ARG001 - tensors are immutable: copy changes nothing
    """`tnp.array`: asarray, with at least `ndmin` dimensions (leading ones added)."""
    result = asarray(val, dtype)
    rank = len(result.shape)
    if ndmin > rank:
        result = tf.reshape(result, [1] * (ndmin - rank) + _shape_list(result))
    return result


def asanyarray(a, dtype=None):
    return asarray(a, dtype)


def ascontiguousarray(a, dtype=None):
    """`tnp.ascontiguousarray`: asarray with at least one dimension (NumPy's rule)."""
    return array(a, dtype, ndmin=1)


def copy(a):
    """`tnp.copy`: a new tensor with a's values."""
    return tf.identity(asarray(a))


def _shape_list(x):
    """x's shape as a list: static sizes as ints, unknown ones as scalar tensors (inside tf.function)."""
    static = x.shape.as_list() if x.shape.rank is not None else None
    if static is not None and None not in static:
        return static
    dynamic = tf.shape(x)
    return [dynamic[i] if static is None or static[i] is None else static[i]
            for i in range(len(static) if static is not None else tf.rank(x))]


def promote(*values):
    """values as tensors of their NumPy result type."""
    first = values[0]
    if isinstance(first, tf.Tensor) and all(isinstance(v, tf.Tensor) and v.dtype is first.dtype for v in values):
        return list(values)  # the common case needs no promotion (np.result_type costs more than the op)
    dtype = result_type(*values)
    return [asarray(v, dtype) for v in values]


def promote_float(*values):
    """values as tensors of their result type, the default float type when that is not inexact (TF's rule:
    integers and bools become float64, or float32 with prefer_float32)."""
    dtype = result_type(*values)
    if not is_inexact(dtype):
        dtype = tf.float64
    return [asarray(v, dtype) for v in values]


def float_dtype_of(dtype):
    """The dtype a float function gives for inputs of dtype: itself when inexact, else float64."""
    return dtype if is_inexact(dtype) else tf.float64


__all__ = ["ndarray", "asarray", "array", "asanyarray", "ascontiguousarray", "copy"]
