"""keras.ops.numpy's products and numerical helpers: matmul, dot, inner/outer, tensordot, einsum, kron,
cross, trapezoid, correlate, corrcoef (computed in float, cast back to Keras' result type)."""

from __future__ import annotations

import builtins

import tinytf as tf

from .. import config
from .core import cast, convert_to_tensor
from .dtype_rules import result_type, standardize_dtype
from .numpy_promotion import _back, _float_compute, _float_input, _max, _min, _promote
from .numpy_shapes import diff, moveaxis


def matmul(x1, x2):
    """Matrix product with numpy's rules (1-D operands are vectors; ints and bools promote as Keras does)."""
    a, b = convert_to_tensor(x1), convert_to_tensor(x2)
    dtype = result_type(a.dtype, b.dtype)
    if standardize_dtype(a.dtype) == "int8" and standardize_dtype(b.dtype) == "int8" and len(a.shape) != 1 and \
            len(b.shape) != 1:
        dtype = "int32"  # Keras' int8 x int8 -> int32 matmul
    compute = result_type(dtype, float)
    a, b = cast(a, compute), cast(b, compute)
    squeeze_a, squeeze_b = len(a.shape) == 1, len(b.shape) == 1
    if squeeze_a:
        a = a[None, :]
    if squeeze_b:
        b = b[:, None]
    out = tf.matmul(a, b)
    if squeeze_a:
        out = tf.squeeze(out, -2)
    if squeeze_b:
        out = tf.squeeze(out, -1)
    return cast(tf.round(out) if "float" not in dtype and dtype != "bool" else out, dtype)


def dot(x1, x2):
    """numpy.dot: a product for scalars, matmul for matrices, a sum over the last axis of x1 and the
    second-to-last of x2 otherwise."""
    a, b, dtype = _float_compute(x1, x2)
    if len(a.shape) == 0 or len(b.shape) == 0:
        out = a * b
    elif len(b.shape) == 1:
        out = tf.tensordot(a, b, [[len(a.shape) - 1], [0]])
    else:
        out = tf.tensordot(a, b, [[len(a.shape) - 1], [len(b.shape) - 2]])
    return _back(out, dtype)


def vdot(x1, x2):
    a, b, dtype = _float_compute(x1, x2)
    return _back(tf.reduce_sum(tf.reshape(a, [-1]) * tf.reshape(b, [-1])), dtype)


def inner(x1, x2):
    a, b, dtype = _float_compute(x1, x2)
    if len(a.shape) == 0 or len(b.shape) == 0:
        return _back(a * b, dtype)
    return _back(tf.tensordot(a, b, [[len(a.shape) - 1], [len(b.shape) - 1]]), dtype)


def outer(x1, x2):
    a, b, dtype = _float_compute(x1, x2)
    return _back(tf.reshape(a, [-1, 1]) * tf.reshape(b, [1, -1]), dtype)


def tensordot(x1, x2, axes=2):
    a, b, dtype = _float_compute(x1, x2)
    return _back(tf.tensordot(a, b, axes), dtype)


def einsum(subscripts, *operands, **kwargs):
    operands = [convert_to_tensor(o) for o in operands]
    dtype = result_type(*(o.dtype for o in operands))
    return tf.einsum(subscripts, *[cast(o, dtype) for o in operands])


def kron(x1, x2):
    """The Kronecker product."""
    (a, b), _ = _promote(x1, x2)
    rank = _max(len(a.shape), len(b.shape))
    a = tf.reshape(a, [1] * (rank - len(a.shape)) + list(a.shape))
    b = tf.reshape(b, [1] * (rank - len(b.shape)) + list(b.shape))
    a_exp = tf.reshape(a, [d for s in a.shape for d in (s, 1)])
    b_exp = tf.reshape(b, [d for s in b.shape for d in (1, s)])
    return tf.reshape(a_exp * b_exp, [p * q for p, q in zip(a.shape, b.shape)])


def cross(x1, x2, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """The cross product of 3-vectors (2-vectors count as z = 0)."""
    if axis is not None:
        axisa = axisb = axisc = axis
    (a, b), _ = _promote(x1, x2)
    a, b = moveaxis(a, axisa, -1), moveaxis(b, axisb, -1)
    if a.shape[-1] == 2:
        a = tf.pad(a, [[0, 0]] * (len(a.shape) - 1) + [[0, 1]])
    if b.shape[-1] == 2:
        b = tf.pad(b, [[0, 0]] * (len(b.shape) - 1) + [[0, 1]])
    a0, a1, a2 = a[..., 0], a[..., 1], a[..., 2]
    b0, b1, b2 = b[..., 0], b[..., 1], b[..., 2]
    out = tf.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], axis=-1)
    return moveaxis(out, -1, axisc)


def trapezoid(y, x=None, dx=1.0, axis=-1):
    """The integral of y by the trapezoidal rule."""
    y = _float_input(y)
    rank = len(y.shape)
    ax = axis % rank
    lo = [slice(None)] * rank
    hi = [slice(None)] * rank
    lo[ax], hi[ax] = slice(None, -1), slice(1, None)
    avg = (y[tuple(lo)] + y[tuple(hi)]) / 2.0
    if x is None:
        return tf.reduce_sum(avg, axis=ax) * tf.constant(dx, y.dtype)
    x = cast(x, y.dtype)
    spacing = diff(x, axis=axis if len(x.shape) > 1 else 0)
    if len(x.shape) == 1 and rank > 1:
        shape = [1] * rank
        shape[ax] = -1
        spacing = tf.reshape(spacing, shape)
    return tf.reduce_sum(avg * spacing, axis=ax)


def correlate(x1, x2, mode="valid"):
    """The cross-correlation of two 1-D sequences (numpy's modes valid, same, full)."""
    (a, b), dtype = _promote(x1, x2)
    dtype = config.floatx() if "int" in dtype or dtype == "bool" else dtype
    a, b = cast(a, dtype), cast(b, dtype)
    n, m = a.shape[0], b.shape[0]
    if mode not in ("full", "same", "valid"):
        raise ValueError(f"mode must be one of ['full', 'same', 'valid'], got {mode!r}")
    padded = tf.pad(a, [[m - 1, m - 1]])
    length = n + m - 1
    full = tf.reduce_sum(tf.stack([padded[i:i + length] for i in builtins.range(m)], axis=0) * b[:, None], axis=0)
    if mode == "full":
        return full
    keep = _max(n, m) if mode == "same" else _max(n, m) - _min(n, m) + 1
    start = (length - keep) // 2
    return full[start:start + keep]


def corrcoef(x):
    """The Pearson correlation coefficients of the rows of x."""
    x = convert_to_tensor(x)
    x = cast(x, config.floatx() if not x.dtype.is_floating else x.dtype)
    centered = x - tf.reduce_mean(x, axis=-1, keepdims=True)
    cov = tf.matmul(centered, centered, transpose_b=True)
    d = tf.sqrt(tf.linalg.diag_part(cov))
    return tf.clip_by_value(cov / d[:, None] / d[None, :], -1.0, 1.0)


def slogdet(x):
    """(sign, log|det|) of each square matrix."""
    return tuple(tf.linalg.slogdet(_float_input(x)))


def vectorize(pyfunc, *, excluded=None, signature=None):
    """pyfunc mapped over the leading axis of its tensor arguments (tf.vectorized_map), as Keras' backends
    vectorize; only the signature-free form."""
    if excluded or signature:
        raise NotImplementedError("keras.ops.vectorize: `excluded` and `signature` are not supported by tinytf.")

    def wrapped(*args):
        return tf.vectorized_map(lambda xs: pyfunc(*xs), tuple(convert_to_tensor(a) for a in args))
    return wrapped


__all__ = ["corrcoef", "correlate", "cross", "dot", "einsum", "inner", "kron", "matmul", "outer", "slogdet",
           "tensordot", "trapezoid", "vdot", "vectorize"]
