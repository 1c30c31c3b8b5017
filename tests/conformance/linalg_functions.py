"""tf.linalg's decompositions, solvers and structured functions on TF 2.21, on fixed well-conditioned inputs:
values (eigenvectors and singular vectors with their sign fixed by the first row, since LAPACK and Eigen may
choose either), dtypes and shapes, errors, and gradients (eigh, qr, svd, triangular and Cholesky solves,
lstsq, expm) through tf.GradientTape."""

from __future__ import annotations

import numpy as np

from . import outcome, program

R = np.random.default_rng(11)
A = R.normal(size=(4, 4))
S = A @ A.T + 4 * np.eye(4)  # symmetric positive definite
T = R.normal(size=(5, 3))  # tall
L = np.tril(R.normal(size=(3, 3))) + 3 * np.eye(3)
B = R.normal(size=(3, 2))
# drawn at import, not inside a program: a program's inputs must not depend on which programs ran before it
W = R.normal(size=(4, 4))


def _v(x):
    if isinstance(x, (list, tuple)):
        return [_v(t) for t in x]
    if hasattr(x, "numpy"):
        value = np.asarray(x.numpy())
        if np.iscomplexobj(value):  # as [real, imag] pairs, so that the comparison has a float tolerance
            value = np.stack([value.real, value.imag], -1)
        return [x.dtype.name, list(x.shape), value.tolist()]
    return x


def _table(cases):
    return {name: outcome(lambda fn=fn: _v(fn()), "") if not isinstance(fn, tuple) else outcome(
        lambda fn=fn[0]: _v(fn()), fn[1]) for name, fn in cases.items()}


def _signed(tf, v):
    """Columns with the sign that makes their first row non-negative."""
    return v * tf.where(v[..., :1, :] < 0, -tf.ones_like(v[..., :1, :]), tf.ones_like(v[..., :1, :]))


@program
def p_linalg_decompositions(tf):
    s, a, t = tf.constant(S), tf.constant(A), tf.constant(T)

    def eigh():
        e, v = tf.linalg.eigh(s)
        return [e, _signed(tf, v)]

    def qr(full=False):
        q, r = tf.linalg.qr(t, full_matrices=full)
        sign = tf.where(tf.linalg.diag_part(r) < 0, -tf.ones_like(tf.linalg.diag_part(r)), tf.ones_like(
            tf.linalg.diag_part(r)))
        return [q.shape.as_list(), r.shape.as_list(), tf.matmul(q, r), tf.abs(tf.linalg.diag_part(r)),
                q[:, :3] * sign]

    def svd(full=False):
        sv, u, v = tf.linalg.svd(t, full_matrices=full)
        return [sv, u.shape.as_list(), v.shape.as_list(), _signed(tf, u)[:, :3], tf.matmul(
            u[:, :3] * sv, v, transpose_b=True)]

    def eig():
        e, v = tf.linalg.eig(tf.constant([[2.0, 1.0], [0.0, 3.0]]))
        return [e, tf.abs(v)]

    def lu():
        lu_, p = tf.linalg.lu(a)
        return [lu_, p, tf.linalg.lu_reconstruct(lu_, p), tf.linalg.lu_matrix_inverse(lu_, p)]

    return _table({
        "eigh": eigh, "eigvalsh": lambda: tf.linalg.eigvalsh(tf.constant(S, tf.float32)),
        "eigh_batch": lambda: tf.linalg.eigvalsh(tf.stack([s, 2 * s])), "qr": qr, "qr_full": lambda: qr(True),
        "svd": svd, "svd_full": lambda: svd(True), "svd_values": lambda: tf.linalg.svd(a, compute_uv=False),
        "eig": eig, "eigvals": lambda: tf.linalg.eigvals(tf.constant([[1.0, 2.0], [0.0, -1.0]], tf.float64)),
        "lu": lu, "lu_int64": lambda: tf.linalg.lu(a, output_idx_type=tf.int64)[1],
        "lu_solve": lambda: tf.linalg.lu_solve(*tf.linalg.lu(a), tf.constant(A[:, :2])),
        "eigh_int": (lambda: tf.linalg.eigh(tf.constant([[1, 0], [0, 1]])), ""),
        "qr_vector": (lambda: tf.linalg.qr(tf.constant([1.0, 2.0])), ""),
    })


@program
def p_linalg_solvers(tf):
    s, ll, b = tf.constant(S), tf.constant(L), tf.constant(B)
    chol = tf.linalg.cholesky(s)
    return _table({
        "triangular_solve": lambda: tf.linalg.triangular_solve(ll, b),
        "triangular_solve_upper_adjoint": lambda: tf.linalg.triangular_solve(tf.transpose(ll), b, lower=False,
                                                                               adjoint=True),
        "triangular_solve_reads_triangle": lambda: tf.linalg.triangular_solve(ll + tf.transpose(ll) * 0 + tf.constant(
            np.triu(np.ones((3, 3)), 1)), b),
        "triangular_solve_batch": lambda: tf.linalg.triangular_solve(tf.stack([ll, 2 * ll]), b),
        "cholesky_solve": lambda: tf.linalg.cholesky_solve(chol, tf.constant(A[:, :2])),
        "lstsq": lambda: tf.linalg.lstsq(tf.constant(T), tf.constant(T[:, :2] + 1.0)),
        "lstsq_reg": lambda: tf.linalg.lstsq(tf.constant(T), tf.constant(T[:, :1]), l2_regularizer=0.5),
        "lstsq_slow": lambda: tf.linalg.lstsq(tf.constant(T), tf.constant(T[:, :2] + 1.0), fast=False),
        "pinv": lambda: tf.linalg.pinv(tf.constant(T)), "pinv_rank_deficient": lambda: tf.linalg.pinv(
            tf.constant([[1.0, 2.0], [2.0, 4.0]])),
        "matrix_rank": lambda: tf.linalg.matrix_rank(tf.constant([[1.0, 2.0], [2.0, 4.0]])),
        "matrix_rank_full": lambda: tf.linalg.matrix_rank(tf.constant(T)),
        "matrix_rank_tol": lambda: tf.linalg.matrix_rank(tf.constant(np.diag([1.0, 1e-3, 1e-8])), tol=1e-4),
        "expm": lambda: tf.linalg.expm(tf.constant(A / 2)), "expm_f32": lambda: tf.linalg.expm(
            tf.constant([[0.0, 1.0], [-1.0, 0.0]], tf.float32)),
        "expm_big": lambda: tf.linalg.expm(tf.constant(A * 3)), "expm_zero": lambda: tf.linalg.expm(tf.zeros([2, 2])),
        "sqrtm": lambda: tf.linalg.sqrtm(tf.constant(S)), "sqrtm_f32": lambda: tf.linalg.sqrtm(tf.constant(
            [[4.0, 1.0], [0.0, 9.0]])),
        "sqrtm_batch": lambda: tf.linalg.sqrtm(tf.stack([tf.constant(S), 4 * tf.constant(S)])),
        "logm": lambda: tf.linalg.logm(tf.cast(tf.constant(S), tf.complex128)),
        "logm_rotation": lambda: tf.linalg.logm(tf.constant([[0.0, -1.0], [1.0, 0.0]], tf.complex64)),
        "logm_real": (lambda: tf.linalg.logm(tf.constant(S)), ""),
    })


@program
def p_linalg_structured(tf):
    diags = tf.constant([[1.0, 2.0, 3.0, 0.0], [4.0, 5.0, 6.0, 7.0], [0.0, 8.0, 9.0, 10.0]])
    rhs = tf.constant(R.normal(size=(4, 2)))
    return _table({
        "cross": lambda: tf.linalg.cross([1.0, 2.0, 3.0], [4.0, 5.0, 6.0]),
        "cross_batch": lambda: tf.linalg.cross(tf.constant(T[:, :3] if False else R.normal(size=(2, 3))),
                                               tf.constant([[0.0, 0.0, 1.0]] * 2, tf.float64)),
        "l2_normalize": lambda: tf.linalg.l2_normalize([3.0, 4.0]),
        "normalize": lambda: tf.linalg.normalize(tf.constant([[3.0, 4.0], [6.0, 8.0]]), axis=1),
        "normalize_all": lambda: tf.linalg.normalize(tf.constant([[3.0, 4.0], [6.0, 8.0]])),
        "normalize_ord1": lambda: tf.linalg.normalize(tf.constant([3.0, -4.0]), ord=1),
        "set_diag": lambda: tf.linalg.set_diag(tf.zeros([2, 3, 3]), [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]),
        "set_diag_k": lambda: tf.linalg.set_diag(tf.ones([3, 4]), [7.0, 8.0, 9.0], k=1),
        "set_diag_band": lambda: tf.linalg.set_diag(tf.zeros([3, 3]), [[1.0, 2.0, 0.0], [3.0, 4.0, 5.0]], k=(0, 1)),
        "tensor_diag": lambda: tf.linalg.tensor_diag([[1, 2], [3, 4]]),
        "tensor_diag_part": lambda: tf.linalg.tensor_diag_part(tf.reshape(tf.range(16), [2, 2, 2, 2])),
        "tridiagonal_matmul": lambda: tf.linalg.tridiagonal_matmul(tf.cast(diags, tf.float64), rhs),
        "tridiagonal_matmul_seq": lambda: tf.linalg.tridiagonal_matmul(
            [diags[0], diags[1], diags[2]], tf.cast(rhs, tf.float32), diagonals_format="sequence"),
        "tridiagonal_solve": lambda: tf.linalg.tridiagonal_solve(tf.cast(diags, tf.float64), rhs),
        "tridiagonal_solve_vec": lambda: tf.linalg.tridiagonal_solve(tf.cast(diags, tf.float64), rhs[:, 0]),
        "tridiagonal_solve_matrix": lambda: tf.linalg.tridiagonal_solve(tf.constant(
            [[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]]), tf.ones([3, 1]), diagonals_format="matrix"),
        "tridiagonal_solve_transpose": lambda: tf.linalg.tridiagonal_solve(
            tf.cast(diags, tf.float64), tf.transpose(rhs), transpose_rhs=True),
        "banded_lower": lambda: tf.linalg.banded_triangular_solve(
            tf.constant([[2.0, 3.0, 4.0, 5.0], [0.0, 1.0, 1.0, 1.0]]), tf.ones([4, 1])),
        "banded_upper": lambda: tf.linalg.banded_triangular_solve(
            tf.constant([[1.0, 1.0, 1.0, 0.0], [2.0, 3.0, 4.0, 5.0]]), tf.ones([4, 1]), lower=False),
        "banded_adjoint": lambda: tf.linalg.banded_triangular_solve(
            tf.constant([[2.0, 3.0, 4.0, 5.0], [0.0, 1.0, 2.0, 1.0]]), tf.ones([4, 1]), adjoint=True),
        "eigh_tridiagonal": lambda: tf.linalg.eigh_tridiagonal(tf.constant([1.0, 2.0, 3.0], tf.float64),
                                                               tf.constant([0.5, 0.25], tf.float64)),
        "eigh_tridiagonal_vectors": lambda: [_signed(tf, v) if i else v for i, v in enumerate(
            tf.linalg.eigh_tridiagonal(tf.constant([1.0, 2.0, 3.0], tf.float64),
                                       tf.constant([0.5, 0.25], tf.float64), eigvals_only=False))],
        "eigh_tridiagonal_select_i": lambda: tf.linalg.eigh_tridiagonal(
            tf.constant([1.0, 2.0, 3.0, 4.0], tf.float64), tf.constant([0.5, 0.25, 0.1], tf.float64), select="i",
            select_range=[1, 2]),
        "eigh_tridiagonal_select_v": lambda: tf.linalg.eigh_tridiagonal(
            tf.constant([1.0, 2.0, 3.0, 4.0], tf.float64), tf.constant([0.5, 0.25, 0.1], tf.float64), select="v",
            select_range=[1.5, 3.5]),
        "cross_bad": (lambda: tf.linalg.cross([1.0, 2.0], [3.0, 4.0]), ""),
    })


@program
def p_linalg_gradients(tf):
    def grad(fn, *values):
        xs = [tf.constant(v) for v in values]
        with tf.GradientTape() as tape:
            for x in xs:
                tape.watch(x)
            y = fn(*xs)
        return tape.gradient(y, xs)

    w = tf.constant(W)
    return _table({
        "eigvalsh": lambda: grad(lambda x: tf.reduce_sum(tf.linalg.eigvalsh(x) * tf.range(1.0, 5.0, dtype=tf.float64)),
                                 S),
        "eigh_vectors": lambda: grad(lambda x: tf.reduce_sum(_signed(tf, tf.linalg.eigh(x)[1]) * w), S),
        "qr": lambda: grad(lambda x: tf.reduce_sum(tf.linalg.qr(x)[1] * w[:3, :3]) + tf.reduce_sum(
            tf.linalg.qr(x)[0] * tf.linalg.qr(x)[0]), T),
        "svd_values": lambda: grad(lambda x: tf.reduce_sum(tf.linalg.svd(x, compute_uv=False) ** 2), T),
        "svd_vectors": lambda: grad(lambda x: tf.reduce_sum(_signed(tf, tf.linalg.svd(x)[1]) * w[:, :3]), T[:4]),
        "triangular_solve": lambda: grad(lambda m, r: tf.reduce_sum(tf.linalg.triangular_solve(m, r) * r), L, B),
        "cholesky_solve": lambda: grad(lambda c, r: tf.reduce_sum(tf.linalg.cholesky_solve(c, r)),
                                       np.linalg.cholesky(S), A[:, :2]),
        "lstsq": lambda: grad(lambda m, r: tf.reduce_sum(tf.linalg.lstsq(m, r)), T, T[:, :1] + 1.0),
        "expm": lambda: grad(lambda x: tf.reduce_sum(tf.linalg.expm(x) * w), A / 2),
        "pinv": lambda: grad(lambda x: tf.reduce_sum(tf.linalg.pinv(x)), T),
        "sqrtm": lambda: grad(lambda x: tf.reduce_sum(tf.linalg.sqrtm(x) * w), S),
    })
