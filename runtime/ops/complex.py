"""Complex numbers: tf.complex builds them from real parts; real, imag, conj and angle take them apart.
complex64 pairs with float32 and complex128 with float64, as in TF; on real inputs these ops follow
TF's wrappers (real and conj return the input, imag gives zeros, angle gives 0 or pi)."""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..dispatch import apply, convert_to_tensor
from ..registry import OpDef, register
from .array import transpose as _transpose
from .array import zeros_like
from .common import broadcast, require
from .indexing import where
from .math import less

_COMPLEX_OF = {"float32": dtypes.complex64, "float64": dtypes.complex128}


def _infer_part(x):
    if not x.dtype.is_complex:
        raise TypeError(f"expected a complex64 or complex128 input, got {x.dtype.name}")
    return x.dtype.real_dtype, x._shape


def _infer_conj(x):
    if not x.dtype.is_complex:
        raise TypeError(f"expected a complex64 or complex128 input, got {x.dtype.name}")
    return x.dtype, x._shape


def _infer_complex(real, imag):
    target = _COMPLEX_OF.get(real.dtype.name)
    if target is None or imag.dtype is not real.dtype:
        raise TypeError(f"The `real` and `imag` components have incorrect types: {real.dtype.name} "
                        f"{imag.dtype.name}. They must be consistent, and one of [tf.float32, tf.float64]")
    return target, broadcast(real, imag)


def _complex_kernel(real, imag):
    out_type = np.complex64 if np.result_type(real) == np.float32 else np.complex128
    result = np.asarray(real, out_type) + np.asarray(imag, out_type) * out_type(1j)
    return result if result.ndim else result[()]


def _elementwise(name, kernel, infer, render):
    return register(OpDef(name, kernel, infer, render=render, elementwise=True))


real_op = _elementwise("real", np.real, _infer_part, "np.real({0})")
imag_op = _elementwise("imag", np.imag, _infer_part, "np.imag({0})")
conj_op = _elementwise("conj", np.conj, _infer_conj, "np.conj({0})")
angle_op = _elementwise("angle", np.angle, _infer_part, "np.angle({0})")
complex_op = _elementwise("complex", _complex_kernel, _infer_complex, None)


# --- Python-facing wrappers (tf.math.real, tf.complex, ...) ---------------------------------------------------
def real(input, name=None):
    """The real part of a complex tensor; a real tensor is returned unchanged (TF's tf.math.real)."""
    x = convert_to_tensor(input)
    if x.dtype.is_complex:
        return apply(real_op, (x,), name=name)
    require(x.dtype, "numeric", "tf.math.real")
    return x


def imag(input, name=None):
    """The imaginary part of a complex tensor; zeros for a real tensor (TF's tf.math.imag)."""
    x = convert_to_tensor(input)
    if x.dtype.is_complex:
        return apply(imag_op, (x,), name=name)
    require(x.dtype, "numeric", "tf.math.imag")

    return zeros_like(x)


def conj(x, name=None):
    """The complex conjugate; a real tensor is returned unchanged (TF's tf.math.conj)."""
    x = convert_to_tensor(x)
    if x.dtype.is_complex:
        return apply(conj_op, (x,), name=name)
    if not x.dtype.is_numeric:
        raise TypeError(f"tf.math.conj expects a numeric tensor, got {x.dtype.name}")
    return x


def transpose(a, perm=None, conjugate=False, name="transpose"):
    """`tf.transpose`: permute the dimensions (default: reverse them); `conjugate=True` also conjugates a
    complex tensor (it changes nothing for real dtypes), as TF's conjugate transpose does."""
    result = _transpose(a, perm, name=name)
    return conj(result) if conjugate and result.dtype.is_complex else result


def angle(input, name=None):
    """The argument of each complex element; for a real tensor, pi where it is negative and 0 elsewhere."""
    x = convert_to_tensor(input)
    if x.dtype.is_complex:
        return apply(angle_op, (x,), name=name)
    require(x.dtype, "float", "tf.math.angle")
    zeros = zeros_like(x)
    return where(less(x, zeros), zeros + np.pi, zeros)


def complex(real, imag, name=None):
    """real + imag * 1j elementwise: float32 parts give complex64, float64 parts complex128."""
    # each part converts on its own, as in TF: tf.complex(float64_tensor, 1.0) is a dtype error (a TypeError
    # raised here, eagerly too, as TF's wrapper does)
    real, imag = convert_to_tensor(real), convert_to_tensor(imag)
    _infer_complex(real, imag)
    return apply(complex_op, (real, imag), name=name)





__all__ = ["real", "imag", "conj", "angle", "complex"]
