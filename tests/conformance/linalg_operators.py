"""tf.linalg's LinearOperator family on TF 2.21: each operator's shape, hints, dense matrix, matmul/matvec (plain,
adjoint, adjoint_arg), solve/solvevec, determinant, log|det|, trace, diagonal, and its adjoint, inverse and
Cholesky factor as operators (their class and dense matrix), on fixed float64 inputs; composed operators
(composition, Kronecker, block diagonal, block lower triangular, low-rank update) and the errors TF raises."""

from __future__ import annotations

import numpy as np

from . import outcome, program

R = np.random.default_rng(21)
M = R.normal(size=(3, 3)) + 3 * np.eye(3)
SPD = M @ M.T
X = R.normal(size=(3, 2))


def _v(x):
    if isinstance(x, (list, tuple)):
        return [_v(t) for t in x]
    if hasattr(x, "numpy"):
        value = np.asarray(x.numpy())
        if np.iscomplexobj(value):  # as [real, imag] pairs, so that the comparison has a float tolerance
            value = np.stack([value.real, value.imag], -1)
        return [x.dtype.name, list(x.shape), value.tolist()]
    return x


def _try(fn):
    return outcome(lambda: _v(fn()), "")


def _describe(tf, op, square=True):
    n_out, n_in = op.shape.as_list()[-2:]
    x = tf.constant(np.arange(1, 2 * n_in + 1).reshape(n_in, 2) / n_in, op.dtype)
    y = tf.constant(np.ones((n_out, 2)) * 0.5, op.dtype)
    out = {
        "class": type(op).__name__, "shape": op.shape.as_list(), "batch_shape": op.batch_shape.as_list(),
        "hints": [op.is_non_singular, op.is_self_adjoint, op.is_positive_definite, op.is_square],
        "dense": _try(op.to_dense), "matmul": _try(lambda: op.matmul(x)),
        "matmul_adjoint": _try(lambda: op.matmul(y, adjoint=True)),
        "matmul_adjoint_arg": _try(lambda: op.matmul(tf.linalg.adjoint(x), adjoint_arg=True)),
        "matvec": _try(lambda: op.matvec(x[:, 0])), "diag_part": _try(op.diag_part), "trace": _try(op.trace),
        "shape_tensor": _try(op.shape_tensor),
    }
    if square:
        out.update({
            "solve": _try(lambda: op.solve(x)), "solve_adjoint": _try(lambda: op.solve(x, adjoint=True)),
            "solvevec": _try(lambda: op.solvevec(x[:, 0])), "determinant": _try(op.determinant),
            "log_abs_determinant": _try(op.log_abs_determinant),
            "adjoint": _try(lambda: [type(op.adjoint()).__name__, op.adjoint().to_dense()]),
            "inverse": _try(lambda: [type(op.inverse()).__name__, op.inverse().to_dense()]),
            "cholesky": _try(lambda: [type(op.cholesky()).__name__, op.cholesky().to_dense()]),
        })
    return out


@program
def p_linear_operators_basic(tf):
    lo = tf.linalg
    return {
        "full": _describe(tf, lo.LinearOperatorFullMatrix(M)),
        "full_spd": _describe(tf, lo.LinearOperatorFullMatrix(SPD, is_self_adjoint=True, is_positive_definite=True)),
        "full_tall": _describe(tf, lo.LinearOperatorFullMatrix(R.normal(size=(4, 3))), square=False),
        "diag": _describe(tf, lo.LinearOperatorDiag(tf.constant([1.5, -2.0, 4.0], tf.float64))),
        "diag_pd": _describe(tf, lo.LinearOperatorDiag(tf.constant([1.5, 2.0, 4.0], tf.float64),
                                                       is_positive_definite=True)),
        "identity": _describe(tf, lo.LinearOperatorIdentity(3, dtype=tf.float64)),
        "scaled_identity": _describe(tf, lo.LinearOperatorScaledIdentity(3, tf.constant(2.5, tf.float64),
                                                                         is_positive_definite=True)),
        "lower_triangular": _describe(tf, lo.LinearOperatorLowerTriangular(M)),
        "zeros": _describe(tf, lo.LinearOperatorZeros(3, dtype=tf.float64)),
        "zeros_rect": _describe(tf, lo.LinearOperatorZeros(2, 3, dtype=tf.float64, is_square=False,
                                                           is_self_adjoint=False), square=False),
        "zeros_rect_square_hint": _try(lambda: lo.LinearOperatorZeros(2, 3)),
        "permutation": _describe(tf, lo.LinearOperatorPermutation([2, 0, 1], dtype=tf.float64)),
        "householder": _describe(tf, lo.LinearOperatorHouseholder(tf.constant([1.0, 2.0, 2.0], tf.float64))),
        "toeplitz": _describe(tf, lo.LinearOperatorToeplitz(tf.constant([4.0, 1.0, 0.5], tf.float64),
                                                            tf.constant([4.0, -1.0, 0.25], tf.float64))),
        "tridiag": _describe(tf, lo.LinearOperatorTridiag(tf.constant(
            [[1.0, 2.0, 0.0], [5.0, 6.0, 7.0], [0.0, 1.5, -1.0]], tf.float64))),
    }


@program
def p_linear_operators_composed(tf):
    lo = tf.linalg
    full = lo.LinearOperatorFullMatrix(M)
    diag = lo.LinearOperatorDiag(tf.constant([1.5, -2.0, 4.0], tf.float64))
    small = lo.LinearOperatorFullMatrix(tf.constant([[2.0, 1.0], [0.5, 3.0]], tf.float64))
    return {
        "composition": _describe(tf, lo.LinearOperatorComposition([full, diag])),
        "matmul_operator": _describe(tf, full.matmul(diag)),
        "kronecker": _describe(tf, lo.LinearOperatorKronecker([small, lo.LinearOperatorDiag(
            tf.constant([1.0, 2.0], tf.float64))])),
        "kronecker_ops": {k: _try(f) for k, f in {
            "matmul": lambda: lo.LinearOperatorKronecker([small, small]).matmul(tf.ones([4, 1], tf.float64)),
            "solve": lambda: lo.LinearOperatorKronecker([small, small]).solve(tf.ones([4, 1], tf.float64)),
            "det": lambda: lo.LinearOperatorKronecker([small, small]).determinant(),
            "logdet": lambda: lo.LinearOperatorKronecker([small, small]).log_abs_determinant(),
            "trace": lambda: lo.LinearOperatorKronecker([small, small]).trace()}.items()},
        "block_diag": _describe(tf, lo.LinearOperatorBlockDiag([small, lo.LinearOperatorDiag(
            tf.constant([3.0], tf.float64))])),
        "block_lower": _describe(tf, lo.LinearOperatorBlockLowerTriangular([
            [small], [lo.LinearOperatorFullMatrix(tf.constant([[1.0, -1.0]], tf.float64)),
                      lo.LinearOperatorDiag(tf.constant([3.0], tf.float64))]])),
        "low_rank": _describe(tf, lo.LinearOperatorLowRankUpdate(
            lo.LinearOperatorDiag(tf.constant([2.0, 3.0, 4.0], tf.float64), is_positive_definite=True),
            tf.constant([[1.0], [0.5], [-1.0]], tf.float64))),
        "low_rank_uv": _describe(tf, lo.LinearOperatorLowRankUpdate(
            lo.LinearOperatorFullMatrix(M), tf.constant(X, tf.float64), diag_update=tf.constant([0.5, 2.0], tf.float64),
            v=tf.constant(X[::-1].copy(), tf.float64))),
        "adjoint": _describe(tf, lo.LinearOperatorAdjoint(full)),
        "inversion": _describe(tf, lo.LinearOperatorInversion(full)),
    }


@program
def p_linear_operator_errors(tf):
    lo = tf.linalg
    tall = lo.LinearOperatorFullMatrix(R.normal(size=(4, 3)))
    return {
        "det_not_square": _try(tall.determinant), "solve_not_square": _try(lambda: tall.solve(tf.ones([4, 1],
                                                                                                   tf.float64))),
        "inverse_not_square": _try(tall.inverse),
        "cholesky_not_pd": _try(lambda: lo.LinearOperatorFullMatrix(M).cholesky()),
        "singular_solve": _try(lambda: lo.LinearOperatorZeros(2).solve(tf.ones([2, 1]))),
        "dtype_mismatch": _try(lambda: lo.LinearOperatorFullMatrix(M).matmul(tf.ones([3, 1], tf.float32))),
        "pd_but_singular": _try(lambda: lo.LinearOperatorFullMatrix(M, is_positive_definite=True,
                                                                    is_non_singular=False)),
        "int_matrix": _try(lambda: lo.LinearOperatorFullMatrix([[1, 2], [3, 4]])),
        "identity_batch": _try(lambda: lo.LinearOperatorIdentity(2, batch_shape=[3]).to_dense()),
        "identity_broadcast": _try(lambda: lo.LinearOperatorIdentity(2, batch_shape=[2]).matmul(tf.ones([2, 1]))),
        "diag_batch": _try(lambda: lo.LinearOperatorDiag([[1.0, 2.0], [3.0, 4.0]]).matvec([1.0, 1.0])),
    }


@program
def p_linalg_conjugate_gradient(tf):
    lo = tf.linalg
    op = lo.LinearOperatorFullMatrix(tf.constant(SPD), is_self_adjoint=True, is_positive_definite=True)
    rhs = tf.constant([1.0, -2.0, 0.5], tf.float64)
    pre = lo.LinearOperatorDiag(1.0 / tf.linalg.diag_part(tf.constant(SPD)), is_self_adjoint=True,
                                is_positive_definite=True)

    def cg(**kwargs):
        state = lo.experimental.conjugate_gradient(op, rhs, **kwargs)
        return [type(state).__name__, list(state._fields), state.i, state.x, state.r, state.gamma]

    def solve(r):
        return lo.experimental.conjugate_gradient(op, r).x

    return {"plain": _try(cg), "preconditioned": _try(lambda: cg(preconditioner=pre)),
            "one_step": _try(lambda: cg(max_iter=1)), "start": _try(lambda: cg(x=tf.ones([3], tf.float64))),
            "batch": _try(lambda: lo.experimental.conjugate_gradient(op, tf.stack([rhs, 2 * rhs])).x),
            "traced": _try(lambda: tf.function(solve)(rhs))}


@program
def p_linear_operators_circulant(tf):
    lo = tf.linalg
    real = tf.constant([6.0, 2.0, 2.0, 1.0], tf.float64)
    hermitian = tf.constant([6.0, -1.5 + 0.8j, 1.0, -1.5 - 0.8j], tf.complex128)
    general = tf.constant([2.0 + 1.0j, 1.0 - 0.5j, 3.0, 0.5j], tf.complex64)
    spectrum_2d = tf.constant([[4.0, 1.0 + 1.0j, 2.0], [1.0, 3.0, 0.5 - 1.0j]], tf.complex128)

    def kernel(op):
        return _try(op.convolution_kernel)

    return {
        "real": _describe(tf, lo.LinearOperatorCirculant(real)),
        "real_f64": _describe(tf, lo.LinearOperatorCirculant(real, input_output_dtype=tf.complex128)),
        "hermitian_real_io": _describe(tf, lo.LinearOperatorCirculant(hermitian, input_output_dtype=tf.float64,
                                                                      is_self_adjoint=True)),
        "general": _describe(tf, lo.LinearOperatorCirculant(general)),
        "two_d": _describe(tf, lo.LinearOperatorCirculant2D(spectrum_2d, input_output_dtype=tf.complex128)),
        "three_d": _try(lambda: lo.LinearOperatorCirculant3D(tf.reshape(tf.cast(tf.range(1.0, 9.0), tf.complex128),
                                                                        [2, 2, 2]), input_output_dtype=tf.complex128
                                                             ).to_dense()),
        "kernel": kernel(lo.LinearOperatorCirculant(general)),
        "kernel_2d": kernel(lo.LinearOperatorCirculant2D(spectrum_2d, input_output_dtype=tf.complex128)),
        "block": [lo.LinearOperatorCirculant2D(spectrum_2d).block_depth,
                  lo.LinearOperatorCirculant2D(spectrum_2d).block_shape.as_list()],
        "eigvals": _try(lo.LinearOperatorCirculant(general).eigvals),
        "not_square": _try(lambda: lo.LinearOperatorCirculant(real, is_square=False)),
        "real_not_self_adjoint": _try(lambda: lo.LinearOperatorCirculant(real, is_self_adjoint=False)),
    }
