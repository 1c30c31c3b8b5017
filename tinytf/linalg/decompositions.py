"""tf.linalg's decompositions and the solvers and matrix functions built on them: eigh/eigvalsh, eig/eigvals,
qr, svd, lu and its solve/reconstruct/inverse, triangular and Cholesky solves, lstsq, pinv, matrix_rank, expm,
sqrtm, logm. The decompositions are registered ops (runtime/ops/linalg_decompositions.py, with gradients where
TF has them); the rest are compositions of ops, so their gradients come from the ops'."""

from __future__ import annotations

import numpy as np

import tinytf as tf
from tinytf.runtime.ops.linalg_decompositions import eig, eigh, logm, lu, qr, sqrtm, svd, triangular_solve  # noqa: F401


def eigvalsh(tensor, name=None):
    """The eigenvalues (ascending) of self-adjoint matrices; differentiable like eigh."""
    return eigh(tensor, name=name)[0]


def eigvals(tensor, name=None):
    """The complex eigenvalues of square matrices."""
    return eig(tensor, name=name)[0]


def cholesky_solve(chol, rhs, name=None):
    """X with A @ X = rhs, given chol = cholesky(A): two triangular solves (differentiable in both)."""
    y = triangular_solve(chol, rhs, lower=True, adjoint=False)
    return tf.identity(triangular_solve(chol, y, lower=True, adjoint=True), name=name)


def _static_rows_cols(x):
    shape = x.shape.as_list()
    return shape[-2], shape[-1]


def lstsq(matrix, rhs, l2_regularizer=0.0, fast=True, name=None):
    """The least-squares solution of matrix @ X = rhs (with Tikhonov l2_regularizer): by the normal equations and
    a Cholesky factor when fast (TF's default), else by a QR decomposition of the (regularized) system."""
    matrix, rhs = tf.convert_to_tensor(matrix), tf.convert_to_tensor(rhs)
    if matrix.dtype != rhs.dtype:
        raise TypeError(f"lstsq: matrix and rhs must have one dtype, got {matrix.dtype.name} and {rhs.dtype.name}")
    rows, cols = _static_rows_cols(matrix)
    reg = tf.cast(l2_regularizer, matrix.dtype)
    if fast:
        if rows is not None and cols is not None and rows < cols:  # underdetermined: minimum-norm solution
            gram = tf.matmul(matrix, matrix, transpose_b=True) + reg * tf.eye(rows, dtype=matrix.dtype)
            return tf.matmul(matrix, cholesky_solve(tf.linalg.cholesky(gram), rhs), transpose_a=True, name=name)
        gram = tf.matmul(matrix, matrix, transpose_a=True) + reg * tf.eye(cols, dtype=matrix.dtype)
        return tf.identity(cholesky_solve(tf.linalg.cholesky(gram), tf.matmul(matrix, rhs, transpose_a=True)),
                           name=name)
    if l2_regularizer != 0:
        batch = matrix.shape.as_list()[:-2]
        eye = tf.broadcast_to(tf.sqrt(reg) * tf.eye(cols, dtype=matrix.dtype), batch + [cols, cols])
        matrix = tf.concat([matrix, eye], -2)
        rhs = tf.concat([rhs, tf.zeros(rhs.shape.as_list()[:-2] + [cols, rhs.shape[-1]], rhs.dtype)], -2)
    q, r = qr(matrix)
    return tf.identity(triangular_solve(r, tf.matmul(q, rhs, transpose_a=True), lower=False), name=name)


def _unpack_lu(lower_upper):
    n = lower_upper.shape[-1]
    lower = tf.linalg.band_part(lower_upper, -1, 0) - tf.linalg.band_part(lower_upper, 0, 0) + tf.eye(
        n, dtype=lower_upper.dtype)
    upper = tf.linalg.band_part(lower_upper, 0, -1)
    return lower, upper


def lu_reconstruct(lower_upper, perm, validate_args=False, name=None):
    """The matrix whose LU decomposition is (lower_upper, perm): P^-1 L U."""
    lower_upper = tf.convert_to_tensor(lower_upper)
    lower, upper = _unpack_lu(lower_upper)
    product = tf.matmul(lower, upper)
    inverse_perm = tf.argsort(perm, axis=-1)
    return tf.gather(product, inverse_perm, axis=-2, batch_dims=len(lower_upper.shape) - 2, name=name)


def lu_solve(lower_upper, perm, rhs, validate_args=False, name=None):
    """X with A @ X = rhs from A's LU decomposition: permute rhs, then two triangular solves."""
    lower_upper, rhs = tf.convert_to_tensor(lower_upper), tf.convert_to_tensor(rhs)
    lower, upper = _unpack_lu(lower_upper)
    batch = len(lower_upper.shape) - 2
    shape = tf.broadcast_dynamic_shape(tf.shape(perm)[:-1], tf.shape(rhs)[:-2])
    permuted = tf.gather(tf.broadcast_to(rhs, tf.concat([shape, tf.shape(rhs)[-2:]], 0)),
                         tf.broadcast_to(perm, tf.concat([shape, tf.shape(perm)[-1:]], 0)), axis=-2, batch_dims=batch)
    y = triangular_solve(lower, permuted, lower=True)
    return tf.identity(triangular_solve(upper, y, lower=False), name=name)


def lu_matrix_inverse(lower_upper, perm, validate_args=False, name=None):
    """The inverse of A from its LU decomposition."""
    lower_upper = tf.convert_to_tensor(lower_upper)
    n = lower_upper.shape[-1]
    eye = tf.broadcast_to(tf.eye(n, dtype=lower_upper.dtype), tf.shape(lower_upper))
    return lu_solve(lower_upper, perm, eye, name=name)


def _default_tolerance(a, s, scale):
    rows, cols = _static_rows_cols(a)
    eps = np.finfo(a.dtype.as_numpy_dtype).eps
    return scale * max(rows, cols) * eps * tf.reduce_max(s, axis=-1, keepdims=True)


def matrix_rank(a, tol=None, validate_args=False, name=None):
    """The number of singular values above tol (default: eps * max(rows, cols) * the largest one), int32."""
    a = tf.convert_to_tensor(a)
    s = svd(a, compute_uv=False)
    tol = _default_tolerance(a, s, 1.0) if tol is None else tf.cast(tol, a.dtype)
    return tf.reduce_sum(tf.cast(s > tol, tf.int32), axis=-1, name=name)


def pinv(a, rcond=None, validate_args=False, name=None):
    """The Moore-Penrose pseudo-inverse: singular values below rcond * the largest count as zero (rcond's
    default: 10 * max(rows, cols) * eps, TF's)."""
    a = tf.convert_to_tensor(a)
    s, u, v = svd(a)
    rows, cols = _static_rows_cols(a)
    if rcond is None:
        rcond = 10.0 * max(rows, cols) * np.finfo(a.dtype.as_numpy_dtype).eps
    cutoff = tf.cast(rcond, a.dtype) * tf.reduce_max(s, axis=-1, keepdims=True)
    kept = s > cutoff
    s_inv = tf.where(kept, 1.0 / tf.where(kept, s, tf.ones_like(s)), tf.zeros_like(s))
    return tf.matmul(v * s_inv[..., None, :], u, transpose_b=True, name=name)


# --- matrix functions -----------------------------------------------------------------------------------------
_PADE_13 = (64764752532480000.0, 32382376266240000.0, 7771770303897600.0, 1187353796428800.0,
            129060195264000.0, 10559470521600.0, 670442572800.0, 33522128640.0, 1323241920.0, 40840800.0,
            960960.0, 16380.0, 182.0, 1.0)


def expm(input, name=None):  # noqa: A002 - TF's argument name
    """The matrix exponential by scaling and squaring with a [13/13] Padé approximant (Higham 2005, as TF's
    expm); made of matmuls and a solve, so it has their gradients."""
    x = tf.convert_to_tensor(input)
    n = x.shape[-1]
    eye = tf.eye(n, dtype=x.dtype)
    norm = tf.reduce_max(tf.reduce_sum(tf.abs(x), axis=-2), axis=-1)  # the 1-norm of each matrix
    theta = 5.371920351148152 if x.dtype == tf.float64 else 3.925724783138660
    squarings = tf.maximum(tf.math.floor(tf.math.log(norm / theta) / np.log(2.0)) + 1.0, 0.0)
    squarings = tf.where(tf.math.is_finite(squarings), squarings, tf.zeros_like(squarings))
    scaled = x / tf.pow(tf.constant(2.0, x.dtype), squarings)[..., None, None]
    b = _PADE_13
    x2 = tf.matmul(scaled, scaled)
    x4 = tf.matmul(x2, x2)
    x6 = tf.matmul(x4, x2)
    u_inner = tf.matmul(x6, b[13] * x6 + b[11] * x4 + b[9] * x2) + b[7] * x6 + b[5] * x4 + b[3] * x2 + b[1] * eye
    u = tf.matmul(scaled, u_inner)
    v = tf.matmul(x6, b[12] * x6 + b[10] * x4 + b[8] * x2) + b[6] * x6 + b[4] * x4 + b[2] * x2 + b[0] * eye
    result = tf.linalg.solve(v - u, v + u)
    # square back: a loop over the largest count, each matrix squared only while its own count lasts
    steps = tf.cast(tf.reduce_max(squarings), tf.int32)
    counts = tf.cast(squarings, tf.int32)

    def body(i, r):
        squared = tf.matmul(r, r)
        return i + 1, tf.where((i < counts)[..., None, None], squared, r)

    _, result = tf.while_loop(lambda i, r: i < steps, body, (tf.constant(0), result))
    return tf.identity(result, name=name)


__all__ = ["eigh", "eigvalsh", "eig", "eigvals", "qr", "svd", "lu", "triangular_solve", "cholesky_solve", "lstsq",
           "lu_reconstruct", "lu_solve", "lu_matrix_inverse", "matrix_rank", "pinv", "expm", "sqrtm", "logm"]
