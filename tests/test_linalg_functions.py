"""tf.linalg's decompositions, solvers and structured functions: eagerly and in tf.function (passes on and off)
against NumPy, gradients against finite differences, errors. TF 2.21's results: tests/conformance/
linalg_functions.py; the ops' own gradient cases: tests/test_gradients_registry.py."""

from __future__ import annotations

import numpy as np
import pytest
from gradcheck import check_gradients

import tinytf as tf

R = np.random.default_rng(5)
A = R.normal(size=(4, 4))
S = A @ A.T + 4 * np.eye(4)
T = R.normal(size=(5, 3))
L = np.tril(R.normal(size=(3, 3))) + 3 * np.eye(3)
B = R.normal(size=(3, 2))


def _signs(v):
    return v * np.where(v[..., :1, :] < 0, -1.0, 1.0)


def _expm_numpy(a):
    e, v = np.linalg.eig(a)
    return (v @ np.diag(np.exp(e)) @ np.linalg.inv(v)).real


# (name, tinytf function of tensors -> list of arrays, numpy expectation, inputs)
CASES = [
    ("eigh", lambda s: [tf.linalg.eigh(s)[0], _tf_signs(tf.linalg.eigh(s)[1])],
     lambda s: [np.linalg.eigh(s)[0], _signs(np.linalg.eigh(s)[1])], [S]),
    ("qr", lambda t: [tf.abs(tf.linalg.qr(t)[1]), tf.matmul(*tf.linalg.qr(t))],
     lambda t: [np.abs(np.linalg.qr(t)[1]), t], [T]),
    ("svd", lambda t: [tf.linalg.svd(t, compute_uv=False)], lambda t: [np.linalg.svd(t, compute_uv=False)], [T]),
    ("triangular_solve", lambda m, b: [tf.linalg.triangular_solve(m, b)],
     lambda m, b: [np.linalg.solve(np.tril(m), b)], [L + np.triu(np.ones((3, 3)), 1), B]),
    ("cholesky_solve", lambda s, b: [tf.linalg.cholesky_solve(tf.linalg.cholesky(s), b)],
     lambda s, b: [np.linalg.solve(s, b)], [S, A[:, :2]]),
    ("lstsq", lambda t, b: [tf.linalg.lstsq(t, b), tf.linalg.lstsq(t, b, fast=False)],
     lambda t, b: [np.linalg.lstsq(t, b, rcond=None)[0]] * 2, [T, T[:, :2] + 1]),
    ("pinv", lambda t: [tf.linalg.pinv(t)], lambda t: [np.linalg.pinv(t)], [T]),
    ("matrix_rank", lambda t: [tf.linalg.matrix_rank(t)], lambda t: [np.linalg.matrix_rank(t)],
     [np.outer(T[:, 0], T[0])]),
    ("expm", lambda a: [tf.linalg.expm(a)], lambda a: [_expm_numpy(a)], [A]),
    ("lu", lambda a: [tf.linalg.lu_reconstruct(*tf.linalg.lu(a)), tf.linalg.lu_matrix_inverse(*tf.linalg.lu(a))],
     lambda a: [a, np.linalg.inv(a)], [A]),
    ("cross", lambda a, b: [tf.linalg.cross(a, b)], lambda a, b: [np.cross(a, b)], [T[:, :3], A[:1, :3]]),
    ("set_diag", lambda x: [tf.linalg.set_diag(x, x[..., 0, :3])],
     lambda x: [_set_diag_numpy(x)], [T[:3].copy()]),
    ("tridiagonal", lambda d, b: [tf.linalg.tridiagonal_solve(d, b), tf.linalg.tridiagonal_matmul(d, b)],
     lambda d, b: [np.linalg.solve(_tridiagonal_numpy(d), b), _tridiagonal_numpy(d) @ b],
     [np.stack([R.normal(size=4), R.normal(size=4) + 4, R.normal(size=4)]), R.normal(size=(4, 2))]),
]


def _tf_signs(v):
    return v * tf.where(v[..., :1, :] < 0, -tf.ones_like(v[..., :1, :]), tf.ones_like(v[..., :1, :]))


def _set_diag_numpy(x):
    out = x.copy()
    np.fill_diagonal(out, x[0, :3])
    return out


def _tridiagonal_numpy(d):
    return np.diag(d[1]) + np.diag(d[0][:-1], 1) + np.diag(d[2][1:], -1)


@pytest.mark.parametrize("name,fn,expected,inputs", CASES, ids=[c[0] for c in CASES])
def test_matches_numpy_eagerly_and_in_graphs(name, fn, expected, inputs, passes):
    want = expected(*inputs)
    tensors = [tf.constant(x) for x in inputs]
    for got in (fn(*tensors), tf.function(fn)(*tensors)):
        for g, w in zip(got, want):
            np.testing.assert_allclose(g.numpy(), w, rtol=1e-8, atol=1e-9, err_msg=name)


@pytest.mark.parametrize("fn,arrays", [
    (lambda c, b: tf.linalg.cholesky_solve(c, b), [np.linalg.cholesky(S), A[:, :2]]),
    (lambda t, b: tf.linalg.lstsq(t, b), [T, T[:, :2] + 1]),
    (lambda t, b: tf.linalg.lstsq(t, b, l2_regularizer=0.3, fast=False), [T, T[:, :2] + 1]),
    (lambda a: tf.linalg.expm(a), [A / 3]),
    (lambda a: tf.linalg.expm(a), [A * 2]),  # two squarings
    (lambda t: tf.linalg.pinv(t), [T]),
    (lambda a, b: tf.linalg.cross(a, b), [T[:, :3], T[:, ::-1].copy()]),
    (lambda d, b: tf.linalg.tridiagonal_solve(d + tf.constant([[0.0], [5.0], [0.0]], tf.float64), b),
     [R.normal(size=(3, 4)), R.normal(size=(4, 2))]),
    (lambda a: tf.linalg.eigh_tridiagonal(a[0], a[1, :2]), [R.normal(size=(2, 3))]),
    (lambda x: tf.linalg.set_diag(x, x[..., 0, :3] * 2.0, k=0), [T[:3].copy()]),
])
def test_gradients_match_finite_differences(fn, arrays):
    check_gradients(fn, arrays)


def test_errors_name_the_problem():
    with pytest.raises(tf.errors.InvalidArgumentError, match="float32, float64"):  # TF: InvalidArgumentError too
        tf.linalg.qr(tf.constant([[1, 2], [3, 4]]))
    with pytest.raises(ValueError, match="rank >= 2"):
        tf.linalg.svd(tf.constant([1.0, 2.0]))
    with pytest.raises(ValueError, match="square"):
        tf.linalg.eigh(tf.ones([2, 3]))
    with pytest.raises(tf.errors.FailedPreconditionError, match="3-element"):
        tf.linalg.cross([1.0, 2.0], [3.0, 4.0])

    @tf.function
    def traced(a):
        return tf.linalg.cross(a, a)

    with pytest.raises(ValueError, match="must be 3"):
        traced(tf.constant([1.0, 2.0]))


def test_full_matrices_svd_gradient_of_non_square_input_is_refused():
    x = tf.constant(T)
    with tf.GradientTape() as tape:
        tape.watch(x)
        s = tf.linalg.svd(x, full_matrices=True)[0]
    with pytest.raises(NotImplementedError, match="full_matrices=False"):
        tape.gradient(s, x)


def test_shapes_are_inferred_while_tracing():
    @tf.function(input_signature=[tf.TensorSpec([None, 5, 3], tf.float64)])
    def decompose(x):
        s, u, v = tf.linalg.svd(x)
        q, r = tf.linalg.qr(x)
        assert s.shape.as_list() == [None, 3] and u.shape.as_list() == [None, 5, 3]
        assert q.shape.as_list() == [None, 5, 3] and r.shape.as_list() == [None, 3, 3]
        return s

    assert decompose(tf.constant(np.stack([T, T]))).shape == (2, 3)
