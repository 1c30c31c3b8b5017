"""tf.linalg's functions on structured operands: cross products, normalization, diagonals (set_diag,
tensor_diag, tensor_diag_part), tridiagonal and banded matrices (matmul, solve, banded triangular solve,
eigh_tridiagonal). Each is composed of tinytf ops, so it runs in graphs and differentiates like them."""

from __future__ import annotations

import numpy as np

import tinytf as tf

from .decompositions import eigh, triangular_solve


def cross(a, b, name=None):
    """The cross product of 3-vectors along the last axis (a and b broadcast)."""
    a, b = tf.convert_to_tensor(a), tf.convert_to_tensor(b)
    if a.dtype != b.dtype:
        raise TypeError(f"cross: a and b must have one dtype, got {a.dtype.name} and {b.dtype.name}")
    for x in (a, b):
        if x.shape.rank is not None and (x.shape.rank < 1 or x.shape[-1] not in (None, 3)):
            if tf.executing_eagerly():  # TF: the kernel's FailedPreconditionError eagerly, ValueError when tracing
                raise tf.errors.FailedPreconditionError("Cross-products are only defined for 3-element vectors.")
            raise ValueError(f"Dimension must be 3 but is {x.shape[-1]} for 'Cross' with input shapes: "
                             f"{a.shape}, {b.shape}.")
    a1, a2, a3 = a[..., 0], a[..., 1], a[..., 2]
    b1, b2, b3 = b[..., 0], b[..., 1], b[..., 2]
    return tf.stack([a2 * b3 - a3 * b2, a3 * b1 - a1 * b3, a1 * b2 - a2 * b1], axis=-1, name=name)


def l2_normalize(x, axis=None, epsilon=1e-12, name=None, dim=None):
    """x / sqrt(max(sum(x**2, axis), epsilon)) (tf.math.l2_normalize under tf.linalg's name)."""
    return tf.math.l2_normalize(x, axis=axis if dim is None else dim, epsilon=epsilon, name=name)


def normalize(tensor, ord="euclidean", axis=None, name=None):  # noqa: A002 - TF's argument name
    """(tensor / norm, norm): the norm (tf.norm's ord and axis) kept with its reduced axes for broadcasting."""
    tensor = tf.convert_to_tensor(tensor)
    norm = tf.norm(tensor, ord=ord, axis=axis, keepdims=True)
    return tf.math.divide(tensor, norm, name=name), norm


def _diagonal_lengths(rows, cols, offsets):
    return {d: min(rows - max(0, -d), cols - max(0, d)) for d in offsets}


def set_diag(input, diagonal, name="set_diag", k=0, align="RIGHT_LEFT"):  # noqa: A002 - TF's argument name
    """input with its k-th diagonal (or the band of diagonals k = (low, high), highest first, shorter ones aligned
    as `align` says) replaced by diagonal: one gather of the diagonal's values into the matrix's positions."""
    x = tf.convert_to_tensor(input)
    diagonal = tf.convert_to_tensor(diagonal, x.dtype)
    rows, cols = x.shape[-2], x.shape[-1]
    low, high = (k, k) if isinstance(k, int) else (int(k[0]), int(k[1]))
    if low > high:
        raise ValueError(f"set_diag: k[0] must not exceed k[1], got k={k}")
    lengths = _diagonal_lengths(rows, cols, range(low, high + 1))
    longest = max(lengths.values())
    r, c = np.meshgrid(np.arange(rows), np.arange(cols), indexing="ij")
    d = c - r
    mask = (d >= low) & (d <= high)
    position = np.where(d >= 0, r, c)
    right_aligned = np.where(d >= 0, align in ("RIGHT_LEFT", "RIGHT_RIGHT"), align in ("LEFT_RIGHT", "RIGHT_RIGHT"))
    shift = np.array([[longest - lengths.get(int(dd), longest) for dd in row] for row in d])
    index = (high - d) * longest + position + np.where(right_aligned, shift, 0)
    index = np.where(mask, index, 0)
    band = diagonal if low != high else diagonal[..., None, :]
    flat = tf.reshape(band, tf.concat([tf.shape(band)[:-2], [-1]], 0))
    placed = tf.gather(flat, tf.constant(index.astype(np.int32)), axis=-1)
    return tf.where(tf.constant(mask), placed, x, name=name)


def tensor_diag(diagonal, name=None):
    """The rank-2k tensor with `diagonal` (rank k) on its diagonal: out[i..., i...] = diagonal[i...]."""
    diagonal = tf.convert_to_tensor(diagonal)
    shape = diagonal.shape.as_list()
    size = 1
    for d in shape:
        size *= d
    flat = tf.linalg.diag(tf.reshape(diagonal, [size]))
    return tf.reshape(flat, shape + shape, name=name)


def tensor_diag_part(input, name=None):  # noqa: A002 - TF's argument name
    """The diagonal of a rank-2k tensor of shape s + s: out[i...] = input[i..., i...]."""
    x = tf.convert_to_tensor(input)
    shape = x.shape.as_list()
    half = len(shape) // 2
    if len(shape) % 2 or shape[:half] != shape[half:]:
        raise ValueError(f"tensor_diag_part: the input's shape must be s + s, got {x.shape}")
    size = 1
    for d in shape[:half]:
        size *= d
    return tf.reshape(tf.linalg.diag_part(tf.reshape(x, [size, size])), shape[:half], name=name)


# --- tridiagonal and banded matrices --------------------------------------------------------------------------
def _compact(diagonals, diagonals_format):
    """(superdiag, maindiag, subdiag) as [..., n] each, from TF's 'compact' [..., 3, n], 'sequence' or 'matrix'."""
    if diagonals_format == "compact":
        d = tf.convert_to_tensor(diagonals)
        if d.shape.rank is not None and (d.shape.rank < 2 or d.shape[-2] not in (None, 3)):
            raise ValueError(f"Expected diagonals to have shape [..., 3, M], got {d.shape}")
        return d[..., 0, :], d[..., 1, :], d[..., 2, :]
    if diagonals_format == "sequence":
        superdiag, maindiag, subdiag = (tf.convert_to_tensor(t) for t in diagonals)
        return superdiag, maindiag, subdiag
    if diagonals_format == "matrix":
        m = tf.convert_to_tensor(diagonals)
        n = m.shape[-1]
        main = tf.linalg.diag_part(m)
        upper = tf.pad(tf.linalg.diag_part(m, k=1), [[0, 0]] * (m.shape.rank - 2) + [[0, 1]]) if n > 1 else \
            tf.zeros_like(main)
        lower = tf.pad(tf.linalg.diag_part(m, k=-1), [[0, 0]] * (m.shape.rank - 2) + [[1, 0]]) if n > 1 else \
            tf.zeros_like(main)
        return upper, main, lower
    raise ValueError(f"Unrecognized diagonals_format: {diagonals_format}")


def _dense_tridiagonal(superdiag, maindiag, subdiag):
    return (tf.linalg.diag(maindiag) + tf.linalg.diag(superdiag[..., :-1], k=1)
            + tf.linalg.diag(subdiag[..., 1:], k=-1))


def tridiagonal_matmul(diagonals, rhs, diagonals_format="compact", name=None):
    """A @ rhs for tridiagonal A given by its diagonals (superdiag's last and subdiag's first entries unused)."""
    superdiag, maindiag, subdiag = _compact(diagonals, diagonals_format)
    rhs = tf.convert_to_tensor(rhs, maindiag.dtype)
    zero_row = tf.zeros_like(rhs[..., :1, :])
    below = tf.concat([rhs[..., 1:, :], zero_row], -2)  # rhs[i + 1]
    above = tf.concat([zero_row, rhs[..., :-1, :]], -2)  # rhs[i - 1]
    return tf.identity(maindiag[..., None] * rhs + superdiag[..., None] * below + subdiag[..., None] * above,
                       name=name)


def tridiagonal_solve(diagonals, rhs, diagonals_format="compact", transpose_rhs=False, conjugate_rhs=False,
                      name=None, partial_pivoting=True, perturb_singular=False):
    """X with A @ X = rhs for tridiagonal A (as a dense solve with partial pivoting: LAPACK's gesv)."""
    superdiag, maindiag, subdiag = _compact(diagonals, diagonals_format)
    rhs = tf.convert_to_tensor(rhs, maindiag.dtype)
    vector = rhs.shape.rank == maindiag.shape.rank
    if vector:
        rhs = rhs[..., None]
    elif transpose_rhs:
        rhs = tf.linalg.matrix_transpose(rhs)
    if conjugate_rhs:
        rhs = tf.math.conj(rhs)
    x = tf.linalg.solve(_dense_tridiagonal(superdiag, maindiag, subdiag), rhs)
    # TF's result is [..., M, K] also with transpose_rhs (the rhs is transposed, the solution is not)
    return tf.identity(x[..., 0] if vector else x, name=name)


def banded_triangular_solve(bands, rhs, lower=True, adjoint=False, name=None):
    """X with A @ X = rhs for banded triangular A given by its K bands [..., K, N], TF's layout: lower, the main
    diagonal first then the subdiagonals; upper, the (K-1)-th superdiagonal first down to the main diagonal;
    superdiagonals padded on the right, subdiagonals on the left."""
    bands = tf.convert_to_tensor(bands)
    rhs = tf.convert_to_tensor(rhs, bands.dtype)
    k = bands.shape[-2]
    if lower:  # row j: the j-th subdiagonal, padded on the left
        matrix = sum(tf.linalg.diag(bands[..., j, j:], k=-j) for j in range(k))
    else:  # row i: the (k-1-i)-th superdiagonal, padded on the right
        n = bands.shape[-1]
        matrix = sum(tf.linalg.diag(bands[..., i, :n - (k - 1 - i)], k=k - 1 - i) for i in range(k))
    return triangular_solve(matrix, rhs, lower=lower, adjoint=adjoint, name=name)


def eigh_tridiagonal(alpha, beta, eigvals_only=True, select="a", select_range=None, tol=None, name=None):
    """Eigenvalues (and with eigvals_only=False, eigenvectors) of the symmetric tridiagonal matrix with diagonal
    alpha and off-diagonal beta; select 'a' (all), 'v' (values in select_range) or 'i' (indices in it)."""
    alpha = tf.convert_to_tensor(alpha)
    beta = tf.convert_to_tensor(beta, alpha.dtype)
    if alpha.shape.rank != 1:
        raise ValueError(f"eigh_tridiagonal: alpha must be a vector, got shape {alpha.shape}")
    n = alpha.shape[0]
    if beta.shape[0] is not None and n is not None and beta.shape[0] != n - 1:
        raise ValueError(f"eigh_tridiagonal: beta must have one element fewer than alpha ({n}), got {beta.shape}")
    if select not in ("a", "v", "i"):
        raise ValueError(f"eigh_tridiagonal: select must be 'a', 'v' or 'i', got {select!r}")
    matrix = tf.linalg.diag(alpha) + tf.linalg.diag(beta, k=1) + tf.linalg.diag(tf.math.conj(beta), k=-1)
    values, vectors = eigh(matrix)
    if select == "v":
        low, high = select_range
        keep = tf.logical_and(values > low, values <= high)
        values = tf.boolean_mask(values, keep)
        vectors = tf.boolean_mask(vectors, keep, axis=1)
    elif select == "i":
        low, high = int(select_range[0]), int(select_range[1])
        values, vectors = values[low:high + 1], vectors[:, low:high + 1]
    if eigvals_only:
        return tf.identity(values, name=name)
    return values, vectors


__all__ = ["cross", "l2_normalize", "normalize", "set_diag", "tensor_diag", "tensor_diag_part", "tridiagonal_matmul",
           "tridiagonal_solve", "banded_triangular_solve", "eigh_tridiagonal"]
