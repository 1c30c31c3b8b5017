"""tf.linalg's LinearOperators: every operation of every operator against the same operation on its dense matrix
(numpy), eagerly and inside tf.function (passes on and off), gradients through operator methods against finite
differences, and hint errors. TF 2.21's results: tests/conformance/linalg_operators.py."""

from __future__ import annotations

import numpy as np
import pytest
from gradcheck import check_gradients

import tinytf as tf

lo = tf.linalg
R = np.random.default_rng(3)
M = R.normal(size=(3, 3)) + 3 * np.eye(3)
SPD = M @ M.T
SMALL = np.array([[2.0, 1.0], [0.5, 3.0]])


def _c(x):
    return tf.constant(np.asarray(x, np.float64))


OPERATORS = {
    "full": lambda: lo.LinearOperatorFullMatrix(_c(M)),
    "full_spd": lambda: lo.LinearOperatorFullMatrix(_c(SPD), is_self_adjoint=True, is_positive_definite=True),
    "diag": lambda: lo.LinearOperatorDiag(_c([1.5, -2.0, 4.0])),
    "identity": lambda: lo.LinearOperatorIdentity(3, dtype=tf.float64),
    "scaled_identity": lambda: lo.LinearOperatorScaledIdentity(3, _c(2.5)),
    "lower_triangular": lambda: lo.LinearOperatorLowerTriangular(_c(M)),
    "permutation": lambda: lo.LinearOperatorPermutation([2, 0, 1], dtype=tf.float64),
    "householder": lambda: lo.LinearOperatorHouseholder(_c([1.0, 2.0, 2.0])),
    "toeplitz": lambda: lo.LinearOperatorToeplitz(_c([4.0, 1.0, 0.5]), _c([4.0, -1.0, 0.25])),
    "tridiag": lambda: lo.LinearOperatorTridiag(_c([[1.0, 2.0, 0.0], [5.0, 6.0, 7.0], [0.0, 1.5, -1.0]])),
    "composition": lambda: lo.LinearOperatorComposition([lo.LinearOperatorFullMatrix(_c(M)),
                                                         lo.LinearOperatorDiag(_c([1.5, -2.0, 4.0]))]),
    "kronecker": lambda: lo.LinearOperatorKronecker([lo.LinearOperatorFullMatrix(_c(SMALL)),
                                                     lo.LinearOperatorDiag(_c([1.0, 2.0]))]),
    "block_diag": lambda: lo.LinearOperatorBlockDiag([lo.LinearOperatorFullMatrix(_c(SMALL)),
                                                      lo.LinearOperatorDiag(_c([3.0]))]),
    "block_lower": lambda: lo.LinearOperatorBlockLowerTriangular([
        [lo.LinearOperatorFullMatrix(_c(SMALL))],
        [lo.LinearOperatorFullMatrix(_c([[1.0, -1.0]])), lo.LinearOperatorDiag(_c([3.0]))]]),
    "low_rank": lambda: lo.LinearOperatorLowRankUpdate(
        lo.LinearOperatorDiag(_c([2.0, 3.0, 4.0]), is_positive_definite=True), _c([[1.0], [0.5], [-1.0]])),
    "circulant": lambda: lo.LinearOperatorCirculant(tf.constant([6.0, -1.5 + 0.8j, 1.0, -1.5 - 0.8j], tf.complex128),
                                                    input_output_dtype=tf.float64),
    "circulant_2d": lambda: lo.LinearOperatorCirculant2D(
        tf.constant([[6.0, 1.0, 1.0], [2.0, 0.5, 0.5]], tf.complex128), input_output_dtype=tf.float64),
    "adjoint": lambda: lo.LinearOperatorAdjoint(lo.LinearOperatorFullMatrix(_c(M))),
    "inversion": lambda: lo.LinearOperatorInversion(lo.LinearOperatorFullMatrix(_c(M))),
}


def _operations(op):
    n = op.shape[-1]
    x = tf.constant(np.arange(1.0, 2 * n + 1).reshape(n, 2) / n)
    return [op.to_dense(), op.matmul(x), op.matmul(x, adjoint=True), op.matvec(x[:, 0]), op.solve(x),
            op.solve(x, adjoint=True), op.solvevec(x[:, 1]), op.determinant(), op.log_abs_determinant(), op.trace(),
            op.diag_part(), op.adjoint().to_dense(), op.inverse().to_dense(), op.matmul(op).to_dense()]


def _numpy_operations(dense):
    n = dense.shape[-1]
    x = np.arange(1.0, 2 * n + 1).reshape(n, 2) / n
    return [dense, dense @ x, dense.T @ x, dense @ x[:, 0], np.linalg.solve(dense, x), np.linalg.solve(dense.T, x),
            np.linalg.solve(dense, x[:, 1]), np.linalg.det(dense), np.linalg.slogdet(dense)[1], np.trace(dense),
            np.diag(dense), dense.T, np.linalg.inv(dense), dense @ dense]


@pytest.mark.parametrize("name", list(OPERATORS))
def test_operations_match_the_dense_matrix(name, passes):
    dense = OPERATORS[name]().to_dense().numpy()
    want = _numpy_operations(dense)
    eager = _operations(OPERATORS[name]())
    traced = tf.function(lambda: _operations(OPERATORS[name]()), autograph=False)()
    for i, (e, t, w) in enumerate(zip(eager, traced, want)):
        # a circulant's adjoint is complex64 whatever its dtype (as in TF): compared at that precision
        tol = {"rtol": 1e-6, "atol": 1e-6} if e.dtype.is_complex else {"rtol": 1e-9, "atol": 1e-10}
        np.testing.assert_allclose(e.numpy(), w, err_msg=f"{name} operation {i} eager", **tol)
        np.testing.assert_allclose(t.numpy(), w, err_msg=f"{name} operation {i} traced", **tol)


def test_cholesky_of_positive_definite_operators():
    for op in (lo.LinearOperatorFullMatrix(_c(SPD), is_self_adjoint=True, is_positive_definite=True),
               lo.LinearOperatorDiag(_c([1.0, 4.0]), is_positive_definite=True),
               lo.LinearOperatorScaledIdentity(2, _c(9.0), is_positive_definite=True)):
        factor = op.cholesky().to_dense().numpy()
        np.testing.assert_allclose(factor @ factor.T, op.to_dense().numpy(), rtol=1e-12)


@pytest.mark.parametrize("fn,arrays", [
    (lambda m, x: lo.LinearOperatorFullMatrix(m).solve(x), [M, R.normal(size=(3, 2))]),
    (lambda d, x: lo.LinearOperatorDiag(d).matmul(x) + lo.LinearOperatorDiag(d).log_abs_determinant(),
     [R.uniform(1, 2, 3), R.normal(size=(3, 2))]),
    (lambda m, u: lo.LinearOperatorLowRankUpdate(lo.LinearOperatorFullMatrix(m), u).solve(u),
     [M, R.normal(size=(3, 1))]),
    (lambda m, x: lo.LinearOperatorLowerTriangular(m).solvevec(x), [M, R.normal(size=3)]),
    (lambda a, b: lo.LinearOperatorKronecker([lo.LinearOperatorFullMatrix(a),
                                              lo.LinearOperatorFullMatrix(b)]).determinant(), [SMALL, SMALL.T.copy()]),
    (lambda c, r: lo.LinearOperatorToeplitz(c, r).matvec(c), [np.array([4.0, 1.0, 0.5]), np.array([4.0, 2.0, 1.0])]),
    (lambda s, x: lo.LinearOperatorCirculant(s, input_output_dtype=tf.float64).matmul(x),
     [np.array([6.0, 2.0, 2.0]), R.normal(size=(3, 2))]),
])
def test_gradients_through_operators(fn, arrays):
    check_gradients(fn, arrays)


def test_hints_and_errors():
    tall = lo.LinearOperatorFullMatrix(R.normal(size=(4, 3)))
    assert tall.is_square is False and tall.shape == (4, 3)
    with pytest.raises(NotImplementedError, match="not be square"):
        tall.determinant()
    with pytest.raises(ValueError, match="non square"):
        tall.inverse()
    with pytest.raises(ValueError, match="positive definite and self-adjoint"):
        lo.LinearOperatorFullMatrix(_c(M)).cholesky()
    with pytest.raises(ValueError, match="always non-singular"):
        lo.LinearOperatorFullMatrix(_c(M), is_positive_definite=True, is_non_singular=False)
    with pytest.raises(TypeError, match="dtype"):
        lo.LinearOperatorFullMatrix(_c(M)).matmul(tf.ones([3, 1]))
    with pytest.raises(NotImplementedError, match="singular"):
        lo.LinearOperatorZeros(2).solve(tf.ones([2, 1]))
    identity = lo.LinearOperatorIdentity(2, batch_shape=[3])
    assert identity.shape == (3, 2, 2) and identity.adjoint() is identity and identity.inverse() is identity


def test_operators_are_modules_usable_in_tf_function():
    diag = tf.Variable([1.0, 2.0, 3.0])
    op = lo.LinearOperatorDiag(diag)

    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(lo.LinearOperatorDiag(diag).matvec(x))
        return tape.gradient(loss, diag)

    np.testing.assert_allclose(step(tf.constant([1.0, 1.0, 2.0])).numpy(), [1.0, 1.0, 2.0])
    assert op.shape == (3, 3) and op.is_self_adjoint


def test_block_operators_take_and_give_lists_of_blocks():
    small = lo.LinearOperatorFullMatrix(_c(SMALL))
    three = lo.LinearOperatorDiag(_c([3.0]))
    for op in (lo.LinearOperatorBlockDiag([small, three]),
               lo.LinearOperatorBlockLowerTriangular([[small],
                                                      [lo.LinearOperatorFullMatrix(_c([[1.0, -1.0]])), three]])):
        dense = op.to_dense().numpy()
        x = [_c([1.0, 2.0]), _c([4.0])]
        y = op.matvec(x)
        np.testing.assert_allclose(np.concatenate([t.numpy() for t in y]), dense @ [1.0, 2.0, 4.0])
        z = op.solvevec(y)
        np.testing.assert_allclose(np.concatenate([t.numpy() for t in z]), [1.0, 2.0, 4.0])
        adjoint = op.matmul([_c([[1.0], [2.0]]), _c([[4.0]])], adjoint=True)
        np.testing.assert_allclose(np.concatenate([t.numpy() for t in adjoint])[:, 0], dense.T @ [1.0, 2.0, 4.0])
        np.testing.assert_allclose(op.solve(_c([[1.0], [2.0], [4.0]]), adjoint=True).numpy()[:, 0],
                                   np.linalg.solve(dense.T, [1.0, 2.0, 4.0]))
