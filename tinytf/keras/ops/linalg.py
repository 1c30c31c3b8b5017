"""keras.ops.linalg: the linear algebra tinytf has kernels for (inv, det, slogdet, cholesky, solve,
solve_triangular, norm) and lu_factor composed of them, with Keras 3's signatures and float promotion."""

from __future__ import annotations

import tinytf as tf

from .core import (
    cast,
    convert_to_tensor,
    jvp,  # noqa: F401 - Keras 3 exports it as keras.ops.linalg.jvp too (already symbolic-aware)
)
from .dtype_rules import result_type
from .numpy import _float_input
from .symbolic import export_all


def inv(x):
    """The inverse of each square matrix of x."""
    return tf.linalg.inv(_float_input(x))


def det(x):
    return tf.linalg.det(_float_input(x))


def slogdet(x):
    """(sign, log|det|) of each square matrix."""
    return tuple(tf.linalg.slogdet(_float_input(x)))


def cholesky(x, upper=False):
    """The lower (or, with upper, upper) Cholesky factor of positive-definite matrices."""
    lower = tf.linalg.cholesky(_float_input(x))
    return tf.linalg.matrix_transpose(lower) if upper else lower


def cholesky_inverse(x, upper=False):
    """The inverse of A from A's Cholesky factor x."""
    x = _float_input(x)
    factor = tf.linalg.matrix_transpose(x) if upper else x
    return tf.linalg.inv(tf.matmul(factor, factor, transpose_b=True))


def solve(a, b):
    """x with a @ x = b (b a matrix, or a vector: one right-hand side)."""
    a, b = convert_to_tensor(a), convert_to_tensor(b)
    dtype = result_type(a.dtype, b.dtype, float)
    a, b = cast(a, dtype), cast(b, dtype)
    if len(b.shape) == len(a.shape) - 1:
        return tf.squeeze(tf.linalg.solve(a, tf.expand_dims(b, -1)), -1)
    return tf.linalg.solve(a, b)


def solve_triangular(a, b, lower=False):
    """x with a @ x = b for triangular a (only its lower or upper triangle is read)."""
    a, b = convert_to_tensor(a), convert_to_tensor(b)
    dtype = result_type(a.dtype, b.dtype, float)
    a, b = cast(a, dtype), cast(b, dtype)
    a = tf.linalg.band_part(a, -1, 0) if lower else tf.linalg.band_part(a, 0, -1)
    vector = len(b.shape) == len(a.shape) - 1
    if vector:
        b = tf.expand_dims(b, -1)
    out = tf.linalg.solve(a, b)
    return tf.squeeze(out, -1) if vector else out


def _lu_one(a):
    """Doolittle LU with partial pivoting of one n x n matrix (LAPACK's getrf order: at step k the row with the
    largest |entry| in column k moves up): (packed L\\U, row order with a[order] = L @ U)."""
    n = a.shape[-1]
    order = tf.range(n)
    for k in range(n - 1):
        pivot = k + tf.argmax(tf.abs(a[k:, k]), output_type="int32")
        swap = tf.tensor_scatter_nd_update(tf.range(n), [[k], [pivot]], tf.stack([pivot, tf.constant(k)]))
        a, order = tf.gather(a, swap), tf.gather(order, swap)
        factors = a[k + 1:, k] / a[k, k]
        below = tf.concat([a[k + 1:, :k], factors[:, None], a[k + 1:, k + 1:] - factors[:, None] * a[k, k + 1:][None]],
                          axis=1)
        a = tf.concat([a[:k + 1], below], axis=0)
    return a, order


def lu_factor(x):
    """(lu, pivots): L (unit diagonal, below) and U packed in one matrix, and the permutation Keras' TensorFlow
    backend returns (the inverse of the row order, int32), for a matrix or a batch of them."""
    x = _float_input(x)
    if len(x.shape) < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(f"lu_factor expects square matrices. Received: x.shape={tuple(x.shape)}")
    if len(x.shape) == 2:
        lu, order = _lu_one(x)
        return lu, _invert(order)
    flat = tf.reshape(x, [-1, x.shape[-2], x.shape[-1]])
    lus, orders = tf.map_fn(_lu_one, flat, fn_output_signature=(tf.TensorSpec(x.shape[-2:], x.dtype),
                                                                tf.TensorSpec([x.shape[-1]], tf.int32)))
    inverse = tf.map_fn(_invert, orders)
    batch = tf.shape(x)[:-2]
    return (tf.reshape(lus, tf.concat([batch, x.shape[-2:]], 0)),
            tf.reshape(inverse, tf.concat([batch, x.shape[-1:]], 0)))


def _invert(order):
    """The inverse of a permutation vector."""
    return tf.scatter_nd(order[:, None], tf.range(tf.size(order)), tf.shape(order))


def norm(x, ord=None, axis=None, keepdims=False):  # noqa: A002 - Keras' name
    """numpy.linalg.norm: vector norms of any order, the Frobenius, nuclear-free matrix norms 'fro', 1, -1,
    inf and -inf over two axes."""
    x = _float_input(x)
    rank = len(x.shape)
    if axis is None:
        axis = tuple(range(rank))
    elif isinstance(axis, int):
        axis = (axis,)
    axis = tuple(a % rank for a in axis)
    if len(axis) == 1:
        a = axis[0]
        if ord is None or ord == 2:
            return tf.sqrt(tf.reduce_sum(tf.square(x), axis=a, keepdims=keepdims))
        if ord == float("inf"):
            return tf.reduce_max(tf.abs(x), axis=a, keepdims=keepdims)
        if ord == float("-inf"):
            return tf.reduce_min(tf.abs(x), axis=a, keepdims=keepdims)
        if ord == 0:
            return cast(tf.reduce_sum(cast(tf.not_equal(x, 0), x.dtype), axis=a, keepdims=keepdims), x.dtype)
        if isinstance(ord, str):
            raise ValueError(f"Invalid `ord` argument for vector norm. Received: ord={ord}")
        return tf.pow(tf.reduce_sum(tf.pow(tf.abs(x), ord), axis=a, keepdims=keepdims), 1.0 / ord)
    if len(axis) == 2:
        row, col = axis
        if ord is None or ord == "fro":
            return tf.sqrt(tf.reduce_sum(tf.square(x), axis=list(axis), keepdims=keepdims))
        if ord in (1, -1):
            sums = tf.reduce_sum(tf.abs(x), axis=row, keepdims=True)
            out = (tf.reduce_max if ord == 1 else tf.reduce_min)(sums, axis=col, keepdims=True)
        elif ord in (float("inf"), float("-inf")):
            sums = tf.reduce_sum(tf.abs(x), axis=col, keepdims=True)
            out = (tf.reduce_max if ord > 0 else tf.reduce_min)(sums, axis=row, keepdims=True)
        else:
            raise ValueError(f"Invalid `ord` argument for matrix norm (tinytf has no SVD for 2, -2 and 'nuc'). "
                             f"Received: ord={ord}")
        return out if keepdims else tf.squeeze(out, list(axis))
    raise ValueError(f"Invalid axis values for the norm: {axis}")


from .linalg_decompositions import eig, eigh, lstsq, matrix_rank, pinv, qr, svd  # noqa: E402, F401

__all__ = ["cholesky", "cholesky_inverse", "det", "eig", "eigh", "inv", "lstsq", "lu_factor", "matrix_rank", "norm",
           "pinv", "qr", "slogdet", "solve", "solve_triangular", "svd"]
export_all(globals(), __all__)
