"""Gradient rules of the decompositions (TF's formulas in tensorflow/python/ops/linalg_grad.py, real matrices):
eigh (from the lower triangle, as the op reads it), QR (square and tall inputs), SVD (thin; also the singular
values alone), and the triangular solve. Written with ops, so they work in graphs and differentiate again."""

from __future__ import annotations

import numpy as np

from ..dispatch import convert_to_tensor
from ..registry import gradient
from . import linalg as la
from . import math as m
from .array import expand_dims, ones_like, reshape, zeros_like
from .gradient_helpers import sum_to_like
from .indexing import where
from .linalg_decompositions import (
    matrix_square_root_op,
    matrix_triangular_solve_op,
    qr_op,
    self_adjoint_eig_op,
    svd_op,
    triangular_solve,
)


def _static_n(x, what):
    shape = x._shape
    if shape is None or None in shape[-2:]:
        raise ValueError(f"the gradient of {what} needs the matrix dimensions to be known, got {x.shape}")
    return shape[-2], shape[-1]


def _mask(rows, cols, lower, dtype):
    """The lower (or upper) triangle's 0/1 mask as a constant."""
    ones = np.ones((rows, cols))
    return convert_to_tensor((np.tril(ones) if lower else np.triu(ones)).astype(dtype.np))


def _safe_reciprocal_of_differences(values):
    """f[i, j] = 1 / (values[j] - values[i]) off the diagonal, 0 on it (and where values repeat)."""
    diff = expand_dims(values, -2) - expand_dims(values, -1)
    zero = m.equal(diff, zeros_like(diff))
    safe = where(zero, ones_like(diff), diff)
    return where(zero, zeros_like(diff), m.reciprocal(safe))


@gradient(self_adjoint_eig_op)
def _eigh_grad(record, grad_e, grad_v):
    x = record.inputs[0]
    e, v = record.outputs
    n, _ = _static_n(x, "eigh")
    f = _safe_reciprocal_of_differences(e)
    inner = la.diag(grad_e) + f * la.matmul(v, grad_v, transpose_a=True)
    grad = la.matmul(v, la.matmul(inner, v, transpose_b=True))
    # eigh reads the lower triangle only: symmetrize onto it, the diagonal counted once
    grad = (grad + la.matrix_transpose(grad)) * _mask(n, n, True, grad.dtype)
    return grad - 0.5 * la.diag(la.diag_part(grad))


def _times_inverse_adjoint(x, r):
    """x @ inv(r)^T for upper triangular r (TF's _TriangularSolve in the QR gradient)."""
    return la.matrix_transpose(triangular_solve(r, la.matrix_transpose(x), lower=False, adjoint=False))


@gradient(qr_op)
def _qr_grad(record, dq, dr):
    x = record.inputs[0]
    q, r = record.outputs
    rows, cols = _static_n(x, "qr")
    if rows < cols or (record.attrs["full_matrices"] and rows > cols):
        raise NotImplementedError(f"the gradient of qr is implemented for square and tall matrices with "
                                  f"full_matrices=False, got shape {x.shape} with full_matrices="
                                  f"{record.attrs['full_matrices']}")
    qdq = la.matmul(q, dq, transpose_a=True)
    qdq_ = qdq - la.matrix_transpose(qdq)
    rdr = la.matmul(r, dr, transpose_b=True)
    rdr_ = rdr - la.matrix_transpose(rdr)
    tril = (qdq_ + rdr_) * _mask(cols, cols, True, qdq.dtype)
    grad_a = la.matmul(q, dr + _times_inverse_adjoint(tril, r))
    grad_b = _times_inverse_adjoint(dq - la.matmul(q, qdq), r)
    return grad_a + grad_b


@gradient(svd_op)
def _svd_grad(record, grad_s, grad_u, grad_v):
    x = record.inputs[0]
    s, u, v = record.outputs
    rows, cols = _static_n(x, "svd")
    if record.attrs["full_matrices"] and rows != cols:
        raise NotImplementedError(f"the gradient of svd with full_matrices=True is implemented for square matrices "
                                  f"only in tinytf, got shape {x.shape}; use full_matrices=False")
    # TF's formula for rows <= cols; a tall matrix is its transpose with u and v swapped
    transposed = rows > cols
    if transposed:
        u, v, grad_u, grad_v = v, u, grad_v, grad_u
    s_mat = la.diag(s)
    f = _safe_reciprocal_of_differences(m.square(s))
    u_gu = la.matmul(u, grad_u, transpose_a=True)
    v_gv = la.matmul(v, grad_v, transpose_a=True)
    f_u, f_v = f * u_gu, f * v_gv
    middle = (la.diag(grad_s) + la.matmul(f_u + la.matrix_transpose(f_u), s_mat)
              + la.matmul(s_mat, f_v + la.matrix_transpose(f_v)))
    grad = la.matmul(u, la.matmul(middle, v, transpose_b=True))
    if rows != cols:  # the part of grad_v outside v's span, carried back through s^-1
        gv_t = la.matrix_transpose(grad_v)
        outside = gv_t - la.matmul(la.matmul(gv_t, v), v, transpose_b=True)
        grad = grad + la.matmul(la.matmul(u, la.diag(m.reciprocal(s))), outside)
    return la.matrix_transpose(grad) if transposed else grad


@gradient(matrix_triangular_solve_op)
def _triangular_solve_grad(record, g):
    matrix, rhs = record.inputs
    c = record.outputs[0]
    lower, adjoint = record.attrs["lower"], record.attrs["adjoint"]
    grad_rhs = triangular_solve(matrix, g, lower=lower, adjoint=not adjoint)
    if adjoint:
        grad_matrix = -la.matmul(c, grad_rhs, transpose_b=True)
    else:
        grad_matrix = -la.matmul(grad_rhs, c, transpose_b=True)
    n, _ = _static_n(matrix, "triangular_solve")
    grad_matrix = grad_matrix * _mask(n, n, lower, grad_matrix.dtype)
    return sum_to_like(grad_matrix, matrix), sum_to_like(grad_rhs, rhs)


def _kronecker(a, b):
    """kron of two [..., n, n] matrix batches, [..., n*n, n*n] (static n)."""
    n = a._shape[-1]
    batch = a._shape[:-2]
    product = expand_dims(expand_dims(a, -1), -3) * expand_dims(expand_dims(b, -3), -2)
    return reshape(product, tuple(batch) + (n * n, n * n))


@gradient(matrix_square_root_op)
def _sqrtm_grad(record, g):
    # TF's rule: with R = sqrtm(A), dA = R dR + dR R, a Sylvester equation, solved through its Kronecker form
    root = record.outputs[0]
    n, _ = _static_n(root, "sqrtm")
    if root._shape is None or None in root._shape:
        raise ValueError(f"the gradient of sqrtm needs a fully known shape, got {root.shape}")
    batch = tuple(root._shape[:-2])
    eye = convert_to_tensor(np.broadcast_to(np.eye(n), batch + (n, n)).astype(root.dtype.np))
    system = _kronecker(eye, la.matrix_transpose(root)) + _kronecker(root, eye)
    vec_g = reshape(la.matrix_transpose(g), batch + (n * n, 1))
    vec_x = la.solve(system, vec_g)
    return la.matrix_transpose(reshape(vec_x, batch + (n, n)))
