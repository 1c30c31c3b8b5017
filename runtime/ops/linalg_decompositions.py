"""Matrix decompositions and triangular solves: self-adjoint eigen (eigh), general eigen (eig), QR, SVD, LU with
partial pivoting, and the triangular solve. Matrices are the last two axes, anything before them batch axes;
LAPACK (through numpy) does the work, in float32/float64 (and complex for eig)."""

from __future__ import annotations

import numpy as np

from .. import dtypes, shapes
from ..dispatch import apply, convert_inputs, convert_to_tensor
from ..registry import OpDef, register

fmt = shapes.fmt
_FLOATS = (dtypes.float32, dtypes.float64)
_COMPLEX_OF = {dtypes.float32: dtypes.complex64, dtypes.float64: dtypes.complex128,
               dtypes.complex64: dtypes.complex64, dtypes.complex128: dtypes.complex128}


def _matrix(x, what, square=True, allowed=_FLOATS):
    if x.dtype not in allowed:
        names = ", ".join(d.name for d in allowed)
        raise TypeError(f"{what} needs a {names} tensor, got {x.dtype.name}")
    shape = x._shape
    if shape is not None and len(shape) < 2:
        raise ValueError(f"{what} needs a tensor of rank >= 2, got shape {fmt(shape)}")
    if square and shape is not None and None not in shape[-2:] and shape[-1] != shape[-2]:
        raise ValueError(f"{what} needs square matrices in the last two dimensions, got shape {fmt(shape)}")
    return shape


# --- eigh: eigenvalues (ascending) and eigenvectors of self-adjoint matrices, from the lower triangle ---------
def _eigh_kernel(x):
    e, v = np.linalg.eigh(x)
    return e.astype(x.dtype, copy=False), v.astype(x.dtype, copy=False)


def _infer_eigh(x):
    shape = _matrix(x, "eigh", allowed=_FLOATS + (dtypes.complex64, dtypes.complex128))
    real = x.dtype.real_dtype if x.dtype.is_complex else x.dtype
    if shape is None:
        return [(real, None), (x.dtype, None)]
    return [(real, shape[:-1]), (x.dtype, shape)]


self_adjoint_eig_op = register(OpDef("self_adjoint_eig", _eigh_kernel, _infer_eigh))


def eigh(tensor, name=None):
    """`tf.linalg.eigh`: (eigenvalues ascending, eigenvectors as columns) of self-adjoint matrices."""
    return tuple(apply(self_adjoint_eig_op, (convert_to_tensor(tensor),), name=name))


# --- eig: complex eigenvalues and eigenvectors of general matrices ------------------------------------------
def _eig_kernel(x):
    e, v = np.linalg.eig(x)
    out = np.result_type(x.dtype, np.complex64)
    return e.astype(out), v.astype(out)


def _infer_eig(x):
    shape = _matrix(x, "eig", allowed=_FLOATS + (dtypes.complex64, dtypes.complex128))
    out = _COMPLEX_OF[x.dtype]
    return [(out, None if shape is None else shape[:-1]), (out, shape)]


eig_op = register(OpDef("eig", _eig_kernel, _infer_eig, differentiable=False,
                        doc="TF's gradient of eig (complex) is not implemented in tinytf"))


def eig(tensor, name=None):
    """`tf.linalg.eig`: complex (eigenvalues, eigenvectors) of square matrices."""
    return tuple(apply(eig_op, (convert_to_tensor(tensor),), name=name))


# --- QR -------------------------------------------------------------------------------------------------------
def _qr_kernel(x, *, full_matrices):
    q, r = np.linalg.qr(x, mode="complete" if full_matrices else "reduced")
    return q.astype(x.dtype, copy=False), r.astype(x.dtype, copy=False)


def _infer_qr(x, *, full_matrices):
    shape = _matrix(x, "qr", square=False)
    if shape is None:
        return [(x.dtype, None), (x.dtype, None)]
    m, n = shape[-2:]
    k = m if full_matrices else (None if m is None or n is None else min(m, n))
    return [(x.dtype, shape[:-2] + (m, k)), (x.dtype, shape[:-2] + (k, n))]


qr_op = register(OpDef("qr", _qr_kernel, _infer_qr))


def qr(input, full_matrices=False, name=None):  # noqa: A002 - TF's argument name
    """`tf.linalg.qr`: (q, r) with q orthonormal columns and r upper triangular."""
    return tuple(apply(qr_op, (convert_to_tensor(input),), {"full_matrices": bool(full_matrices)}, name=name))


# --- SVD: TF's order (s, u, v), v not transposed ---------------------------------------------------------
def _svd_kernel(x, *, full_matrices):
    u, s, vh = np.linalg.svd(x, full_matrices=full_matrices)
    return s.astype(x.dtype, copy=False), u.astype(x.dtype, copy=False), np.swapaxes(vh, -1, -2).astype(x.dtype)


def _infer_svd(x, *, full_matrices):
    shape = _matrix(x, "svd", square=False)
    if shape is None:
        return [(x.dtype, None)] * 3
    m, n = shape[-2:]
    k = None if m is None or n is None else min(m, n)
    batch = shape[:-2]
    if full_matrices:
        return [(x.dtype, batch + (k,)), (x.dtype, batch + (m, m)), (x.dtype, batch + (n, n))]
    return [(x.dtype, batch + (k,)), (x.dtype, batch + (m, k)), (x.dtype, batch + (n, k))]


svd_op = register(OpDef("svd", _svd_kernel, _infer_svd))


def svd(tensor, full_matrices=False, compute_uv=True, name=None):
    """`tf.linalg.svd`: singular values (descending) and, with compute_uv, (s, u, v) with tensor = u diag(s) v^H."""
    s, u, v = apply(svd_op, (convert_to_tensor(tensor),), {"full_matrices": bool(full_matrices)}, name=name)
    return (s, u, v) if compute_uv else s


# --- triangular solve -----------------------------------------------------------------------------------------
def _triangle(matrix, lower):
    return np.tril(matrix) if lower else np.triu(matrix)


def _triangular_solve_kernel(matrix, rhs, *, lower, adjoint):
    a = _triangle(matrix, lower)
    if adjoint:
        a = np.conj(np.swapaxes(a, -1, -2))
    batch = np.broadcast_shapes(a.shape[:-2], rhs.shape[:-2])
    a = np.broadcast_to(a, batch + a.shape[-2:])
    b = np.broadcast_to(rhs, batch + rhs.shape[-2:])
    with np.errstate(divide="ignore", invalid="ignore"):
        try:
            return np.linalg.solve(a, b).astype(rhs.dtype, copy=False)
        except np.linalg.LinAlgError:  # a zero on the diagonal: TF's substitution gives inf/nan, not an error
            return _substitute(a, b, lower != adjoint)


def _substitute(a, b, lower):
    """Forward (lower) or back substitution, row by row, for singular triangles."""
    n = a.shape[-1]
    x = np.zeros(np.broadcast_shapes(a.shape[:-1], b.shape[:-2] + (n,)) + b.shape[-1:], b.dtype)
    order = range(n) if lower else range(n - 1, -1, -1)
    for i in order:
        known = a[..., i:i + 1, :] @ x
        x[..., i, :] = (b[..., i, :] - known[..., 0, :]) / a[..., i, i:i + 1]
    return x


def _infer_triangular_solve(matrix, rhs, *, lower, adjoint):
    if matrix.dtype is not rhs.dtype:
        raise TypeError(f"matrix and rhs must have one dtype, got {matrix.dtype.name} and {rhs.dtype.name}")
    sm = _matrix(matrix, "triangular_solve", allowed=_FLOATS + (dtypes.complex64, dtypes.complex128))
    sr = rhs._shape
    if sr is not None and len(sr) < 2:
        raise ValueError(f"triangular_solve: rhs must have rank >= 2, got shape {fmt(sr)}")
    if sm is None or sr is None:
        return rhs.dtype, None
    if sm[-1] is not None and sr[-2] is not None and sm[-1] != sr[-2]:
        raise ValueError(f"triangular_solve: the matrix {fmt(sm)} and the right-hand side {fmt(sr)} must have "
                         "the same number of rows")
    try:
        batch = shapes.broadcast(sm[:-2], sr[:-2])
    except ValueError:
        raise ValueError(f"triangular_solve: batch dimensions of {fmt(sm)} and {fmt(sr)} do not broadcast") from None
    return rhs.dtype, batch + sr[-2:]


matrix_triangular_solve_op = register(OpDef("matrix_triangular_solve", _triangular_solve_kernel,
                                            _infer_triangular_solve))


def triangular_solve(matrix, rhs, lower=True, adjoint=False, name=None):
    """`tf.linalg.triangular_solve`: X with matrix @ X = rhs, reading only matrix's lower (or upper) triangle."""
    matrix, rhs = convert_inputs((matrix, rhs), True)
    return apply(matrix_triangular_solve_op, (matrix, rhs), {"lower": bool(lower), "adjoint": bool(adjoint)},
                 name=name)


# --- LU with partial pivoting (TF's Lu: lu holds L below the diagonal, unit diagonal implied, and U) ----------
def _lu_kernel(x, *, output_idx_type):
    a = np.array(x, copy=True)
    n = a.shape[-1]
    batch = a.shape[:-2]
    flat = a.reshape((-1, n, n))
    perm = np.tile(np.arange(n), (flat.shape[0], 1))
    rows = np.arange(flat.shape[0])
    for k in range(n):
        pivot = k + np.argmax(np.abs(flat[:, k:, k]), axis=1)
        for arr in (flat, perm):  # swap rows k and pivot in every matrix (and permutation) of the batch
            top = arr[rows, k].copy()
            arr[rows, k] = arr[rows, pivot]
            arr[rows, pivot] = top
        diag = flat[:, k, k]
        with np.errstate(divide="ignore", invalid="ignore"):
            flat[:, k + 1:, k] /= diag[:, None]
        flat[:, k + 1:, k + 1:] -= flat[:, k + 1:, k:k + 1] * flat[:, k:k + 1, k + 1:]
    return flat.reshape(a.shape), perm.reshape(batch + (n,)).astype(output_idx_type.np)


def _infer_lu(x, *, output_idx_type):
    shape = _matrix(x, "lu", allowed=_FLOATS + (dtypes.complex64, dtypes.complex128))
    if output_idx_type not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"lu: output_idx_type must be int32 or int64, got {output_idx_type.name}")
    return [(x.dtype, shape), (output_idx_type, None if shape is None else shape[:-1])]


lu_op = register(OpDef("lu", _lu_kernel, _infer_lu, differentiable=False,
                       doc="TF's gradient of Lu is not implemented in tinytf"))


def lu(input, output_idx_type=dtypes.int32, name=None):  # noqa: A002 - TF's argument name
    """`tf.linalg.lu`: (lu, p): L (unit lower, below the diagonal) and U packed in lu, p the row permutation
    (input[p] = L @ U)."""
    x = convert_to_tensor(input)
    return tuple(apply(lu_op, (x,), {"output_idx_type": dtypes.as_dtype(output_idx_type)}, name=name))


# --- matrix square root and logarithm: through the eigendecomposition (principal branches) ----------------------
def _through_eigenvalues(x, fn):
    w, v = np.linalg.eig(x)
    result = v @ (fn(w)[..., None] * np.linalg.inv(v))
    return result


def _sqrtm_kernel(x):
    result = _through_eigenvalues(x.astype(np.result_type(x.dtype, np.complex64)), np.sqrt)
    return (result.real if not np.iscomplexobj(x) else result).astype(x.dtype)


def _infer_square_same(what, allowed):
    def infer(x):
        return x.dtype, _matrix(x, what, allowed=allowed)
    return infer


matrix_square_root_op = register(OpDef("matrix_square_root", _sqrtm_kernel, _infer_square_same(
    "sqrtm", _FLOATS + (dtypes.complex64, dtypes.complex128))))


def sqrtm(input, name=None):  # noqa: A002 - TF's argument name
    """`tf.linalg.sqrtm`: the principal square root of each square matrix (its eigenvalues' principal roots)."""
    return apply(matrix_square_root_op, (convert_to_tensor(input),), name=name)


def _logm_kernel(x):
    return _through_eigenvalues(x, np.log).astype(x.dtype)


matrix_logarithm_op = register(OpDef("matrix_logarithm", _logm_kernel, _infer_square_same(
    "logm", (dtypes.complex64, dtypes.complex128)), differentiable=False,
    doc="TF registers no gradient for MatrixLogarithm"))


def logm(input, name=None):  # noqa: A002 - TF's argument name
    """`tf.linalg.logm`: the principal logarithm of each square complex matrix (TF takes complex input only)."""
    return apply(matrix_logarithm_op, (convert_to_tensor(input),), name=name)


__all__ = ["eigh", "eig", "qr", "svd", "triangular_solve", "lu", "sqrtm", "logm"]
