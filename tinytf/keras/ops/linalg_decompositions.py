"""keras.ops' eig, eigh, qr, svd, lstsq, pinv and matrix_rank as Keras 3's TF backend computes them: tf.linalg's
decompositions (svd returning (u, s, vh) in NumPy's order), lstsq by the SVD with NumPy's default cutoff, and
Keras' checks for square and at least two-dimensional inputs."""

from __future__ import annotations

import numpy as np

import tinytf as tf

from .core import convert_to_tensor


def _assert_2d(x):
    if len(x.shape) < 2:
        raise ValueError(f"Expected input to have rank >= 2. Received input with shape {tuple(x.shape)}.")


def _assert_square(x):
    m, n = x.shape[-2:]
    if m != n:
        raise ValueError(f"Expected a square matrix. Received non-square input with shape {tuple(x.shape)}")


def eig(x):
    """(eigenvalues, eigenvectors) of square matrices, complex."""
    x = convert_to_tensor(x)
    _assert_square(x)
    _assert_2d(x)
    return tf.linalg.eig(x)


def eigh(x):
    """(eigenvalues ascending, eigenvectors) of symmetric matrices."""
    x = convert_to_tensor(x)
    _assert_square(x)
    _assert_2d(x)
    return tf.linalg.eigh(x)


def qr(x, mode="reduced"):
    """(q, r) with q orthonormal and r upper triangular; mode "complete" makes q square."""
    if mode not in {"reduced", "complete"}:
        raise ValueError(f"`mode` argument value not supported. Expected one of {{'reduced', 'complete'}}. "
                         f"Received: mode={mode}")
    x = convert_to_tensor(x)
    return tuple(tf.linalg.qr(x, full_matrices=mode == "complete"))


def svd(x, full_matrices=True, compute_uv=True):
    """(u, s, vh) with x = u @ diag(s) @ vh, or only s without compute_uv."""
    x = convert_to_tensor(x)
    _assert_2d(x)
    if compute_uv is False:  # s alone does not depend on full_matrices (the thin form has every gradient)
        return tf.linalg.svd(x, full_matrices=False, compute_uv=False)
    s, u, v = tf.linalg.svd(x, full_matrices=full_matrices, compute_uv=True)
    return u, s, tf.linalg.adjoint(v)


def lstsq(a, b, rcond=None):
    """The x minimizing ||a @ x - b||, from the SVD of a, singular values below rcond * s[0] dropped."""
    a, b = convert_to_tensor(a), convert_to_tensor(b)
    if a.shape[0] != b.shape[0]:
        raise ValueError("Leading dimensions of input arrays must match")
    vector = len(b.shape) == 1
    if vector:
        b = b[:, None]
    if len(a.shape) != 2:
        raise TypeError(f"{len(a.shape)}-dimensional array given. Array must be two-dimensional")
    if len(b.shape) != 2:
        raise TypeError(f"{len(b.shape)}-dimensional array given. Array must be one or two-dimensional")
    m, n = a.shape
    eps = float(np.finfo(a.dtype.as_numpy_dtype).eps)
    rcond = eps * max(n, m) if rcond is None else (eps if rcond < 0 else rcond)
    u, s, vt = svd(a, full_matrices=False)
    mask = s >= tf.cast(rcond, s.dtype) * s[0]
    safe = tf.where(mask, s, tf.ones_like(s))
    s_inv = tf.where(mask, 1 / safe, tf.zeros_like(s))[:, None]
    x = tf.matmul(tf.transpose(vt), s_inv * tf.matmul(tf.transpose(u), b))
    return tf.reshape(x, [-1]) if vector else x


def matrix_rank(x, tol=None):
    """The number of singular values above tol (by default NumPy's cutoff)."""
    return tf.linalg.matrix_rank(convert_to_tensor(x), tol=tol)


def pinv(x, rcond=None):
    """The Moore-Penrose pseudo-inverse."""
    return tf.linalg.pinv(convert_to_tensor(x), rcond=rcond)


__all__ = ["eig", "eigh", "lstsq", "matrix_rank", "pinv", "qr", "svd"]
