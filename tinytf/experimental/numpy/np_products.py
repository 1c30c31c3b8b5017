"""tnp's products (dot, vdot, inner, outer, matmul, tensordot, einsum, kron, cross) and polyval: both operands
promoted to their NumPy result type, then TF's product ops; shape errors of matmul are ValueError (TF's
tnp converts InvalidArgumentError)."""

from __future__ import annotations

import tinytf as tf
from tinytf.keras.ops import numpy_products as _k

from .np_arrays import promote


def dot(a, b):
    """NumPy's dot: a scalar operand multiplies; a vector b contracts a's last axis; otherwise a's last axis with
    b's second to last."""
    a, b = promote(a, b)
    if len(a.shape) == 0 or len(b.shape) == 0:
        return a * b
    if len(b.shape) == 1:
        return tf.tensordot(a, b, [[-1], [-1]])
    return tf.tensordot(a, b, [[-1], [-2]])


def vdot(a, b):
    """The dot product of the flattened arrays (the first conjugated when complex)."""
    a, b = promote(a, b)
    a, b = tf.reshape(a, [-1]), tf.reshape(b, [-1])
    if a.dtype.is_complex:
        a = tf.math.conj(a)
    return tf.tensordot(a, b, 1)


def inner(a, b):
    a, b = promote(a, b)
    if len(a.shape) == 0 or len(b.shape) == 0:
        return a * b
    return tf.tensordot(a, b, [[-1], [-1]])


def outer(a, b):
    a, b = promote(a, b)
    return tf.reshape(a, [-1, 1]) * tf.reshape(b, [-1])


def matmul(x1, x2):
    """NumPy's matmul: vectors as rows/columns that are dropped again, batches broadcast."""
    a, b = promote(x1, x2)
    if len(a.shape) == 0 or len(b.shape) == 0:
        raise ValueError("matmul: Input operand does not have enough dimensions (scalars are not allowed)")
    try:
        if len(b.shape) == 1:
            return tf.tensordot(a, b, 1)
        if len(a.shape) == 1:
            return tf.tensordot(a, b, [[0], [-2]])
        return tf.matmul(a, b)
    except tf.errors.InvalidArgumentError as e:
        raise ValueError(str(e)) from None


def tensordot(a, b, axes=2):
    a, b = promote(a, b)
    return tf.tensordot(a, b, axes)


def einsum(subscripts, *operands, **kwargs):
    """`tnp.einsum`: operands promoted together, then tf.einsum."""
    casting = kwargs.pop("casting", "safe")
    if casting not in ("safe", "no"):
        raise ValueError(f"casting policy not supported: {casting}")
    kwargs.pop("optimize", None)
    if kwargs:
        raise ValueError(f"Unsupported keyword arguments: {sorted(kwargs)}")
    return tf.einsum(subscripts, *promote(*operands))


def kron(a, b):
    """The Kronecker product (the lower-rank operand padded with leading ones)."""
    a, b = promote(a, b)
    return _k.kron(a, b)


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """The cross product of 3-vectors (or 2-vectors, whose z is 0) along the given axes."""
    a, b = promote(a, b)
    if axis is not None:
        axisa = axisb = axisc = axis
    c = _k.cross(a, b, axisa, axisb, axisc)
    if a.shape[axisa] == 2 and b.shape[axisb] == 2:  # two 2-vectors: NumPy gives the z component alone
        return tf.experimental.numpy.moveaxis(c, axisc, -1)[..., 2]
    return c


def polyval(p, x):
    """The polynomial with coefficients p (highest power first) at x, by Horner's rule."""
    p, x = promote(p, x)
    if len(p.shape) == 0:
        p = tf.reshape(p, [1])
    result = tf.zeros_like(x) + p[0]
    for i in range(1, p.shape[0]):
        result = result * x + p[i]
    return result


__all__ = ["dot", "vdot", "inner", "outer", "matmul", "tensordot", "einsum", "kron", "cross", "polyval"]
