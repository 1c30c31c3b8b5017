"""Linear algebra (matmul, matvec, tensordot, einsum, norm, matrix functions): eagerly, as graphs with and
without passes, against numpy, on partial shapes, with bad inputs, and as generated code."""

import numpy as np
import pytest
from ways import run_all_ways

import tinytf as tf

RNG = np.random.default_rng(11)


def rand(*shape, dtype=np.float32):
    return RNG.normal(size=shape).astype(dtype)


def swap(x):
    return np.swapaxes(x, -1, -2)


MATMUL_CASES = [
    ((2, 3), (3, 4), False, False),
    ((3, 2), (3, 4), True, False),
    ((2, 3), (4, 3), False, True),
    ((3, 2), (4, 3), True, True),
    ((5, 2, 3), (5, 3, 4), False, False),
    ((5, 2, 3), (3, 4), False, False),  # batch broadcast against a plain matrix
    ((2, 1, 2, 3), (4, 3, 2), True, True),  # batch dims (2, 1) and (4,) broadcast to (2, 4)
]


@pytest.mark.parametrize("a_shape, b_shape, ta, tb", MATMUL_CASES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
def test_matmul_matches_numpy(a_shape, b_shape, ta, tb, dtype):
    a, b = rand(*a_shape, dtype=dtype), rand(*b_shape, dtype=dtype)
    if dtype == np.int32:
        a, b = RNG.integers(-5, 5, a_shape).astype(dtype), RNG.integers(-5, 5, b_shape).astype(dtype)
    want = (swap(a) if ta else a) @ (swap(b) if tb else b)
    result = run_all_ways(lambda x, y: tf.matmul(x, y, transpose_a=ta, transpose_b=tb), a, b, expected=want,
                          rtol=1e-5, atol=1e-5)
    assert result.dtype is tf.as_dtype(dtype) and result.shape == want.shape
    adjoint = tf.linalg.matmul(a, b, adjoint_a=ta, adjoint_b=tb)
    np.testing.assert_allclose(adjoint.numpy(), want, rtol=1e-5, atol=1e-5)


def test_matmul_operator_and_lists():
    a, b = rand(2, 3), rand(3, 2)
    result = run_all_ways(lambda x, y: x @ y, tf.constant(a), tf.constant(b), expected=a @ b, rtol=1e-6)
    assert result.shape == (2, 2)
    assert (tf.constant(a) @ b).shape == (2, 2)  # a numpy operand
    assert tf.matmul([[1, 2]], [[3], [4]]).numpy().tolist() == [[11]]


def test_matmul_output_type_casts_the_inputs():
    a = np.full((2, 300), 100, np.int8)
    result = tf.matmul(a, a, transpose_b=True, output_type=tf.int32)
    assert result.dtype is tf.int32 and result.numpy()[0, 0] == 300 * 100 * 100


def test_matmul_partial_shapes():
    fn = tf.function(lambda x, y: tf.matmul(x, y))
    concrete = fn.get_concrete_function(tf.TensorSpec([None, 3]), tf.TensorSpec([3, None]))
    assert concrete.outputs[0].shape.as_list() == [None, None]
    batched = fn.get_concrete_function(tf.TensorSpec([None, 2, 3]), tf.TensorSpec([3, 4]))
    assert batched.outputs[0].shape.as_list() == [None, 2, 4]
    a, b = rand(6, 2, 3), rand(3, 4)
    np.testing.assert_allclose(batched(tf.constant(a), tf.constant(b)).numpy(), a @ b, rtol=1e-6)


def test_matmul_errors_name_the_shapes():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"matmul: inner dimensions 3 and 4 do not match "
                                                              r"\(shapes \(2, 3\) and \(4, 5\)\)"):
        tf.matmul(rand(2, 3), rand(4, 5))
    with pytest.raises(tf.errors.InvalidArgumentError, match="matmul: inner dimensions 2 and 4 do not match.*"
                                                              "transpose_a=True"):
        tf.matmul(rand(2, 3), rand(4, 5), transpose_a=True)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"matmul: both inputs must have rank >= 2, got "
                                                              r"shapes \(3,\) and \(3, 4\)"):
        tf.matmul(rand(3), rand(3, 4))
    with pytest.raises(tf.errors.InvalidArgumentError, match="matmul: the batch dimensions of .* cannot be"):
        tf.matmul(rand(2, 2, 3), rand(3, 3, 4))
    with pytest.raises(tf.errors.InvalidArgumentError, match="matmul: inputs must have the same dtype"):
        tf.matmul(tf.constant(rand(2, 3)), tf.constant(rand(3, 2, dtype=np.float64)))
    assert tf.matmul(rand(2, 3), rand(3, 2, dtype=np.float64)).dtype is tf.float32  # a numpy operand is cast (TF)
    with pytest.raises(tf.errors.InvalidArgumentError, match="matmul: .*does not support dtype bool"):
        tf.matmul(np.ones((2, 2), bool), np.ones((2, 2), bool))
    with pytest.raises(ValueError, match="only one of transpose_a and adjoint_a"):
        tf.matmul(rand(2, 2), rand(2, 2), transpose_a=True, adjoint_a=True)

    @tf.function
    def traced(x):
        return tf.matmul(x, tf.ones([4, 2]))

    with pytest.raises(ValueError, match="matmul: inner dimensions 3 and 4 do not match"):  # TF: while tracing
        traced.get_concrete_function(tf.TensorSpec([None, 3]))


def test_matmul_generated_code_reads_like_numpy():
    fn = tf.function(lambda x, y: (tf.matmul(x, y), tf.matmul(x, x, transpose_a=True),
                                   tf.matmul(y, y, transpose_b=True)))
    code = fn.get_concrete_function(tf.TensorSpec([2, 3]), tf.TensorSpec([3, 4])).code
    assert "x @ y" in code and "x.T @ x" in code and "y @ y.T" in code
    batched = fn.get_concrete_function(tf.TensorSpec([5, 2, 3]), tf.TensorSpec([3, 4])).code
    assert "np.swapaxes(x, -1, -2) @ x" in batched


@pytest.mark.parametrize("a_shape, b_shape, ta", [((3, 4), (4,), False), ((4, 3), (4,), True),
                                                   ((5, 3, 4), (5, 4), False), ((5, 3, 4), (4,), False)])
def test_matvec(a_shape, b_shape, ta):
    a, b = rand(*a_shape), rand(*b_shape)
    want = np.einsum("...ij,...j->...i", swap(a) if ta else a, b)
    result = run_all_ways(lambda x, y: tf.linalg.matvec(x, y, transpose_a=ta), a, b, expected=want, rtol=1e-5)
    assert result.shape == want.shape
    with pytest.raises(tf.errors.InvalidArgumentError, match="matvec: inner dimensions"):
        tf.linalg.matvec(a, rand(7))


@pytest.mark.parametrize("axes, a_shape, b_shape", [
    (1, (2, 3), (3, 4)), (2, (2, 3, 4), (3, 4, 5)), (0, (2,), (3,)), ([[1], [0]], (2, 3), (3, 4)),
    ([[0, 2], [1, 0]], (3, 2, 4), (4, 3)), ((-1, 0), (2, 3), (3, 4)),
])
def test_tensordot(axes, a_shape, b_shape):
    a, b = rand(*a_shape), rand(*b_shape)
    want = np.tensordot(a, b, axes)
    result = run_all_ways(lambda x, y: tf.tensordot(x, y, axes), a, b, expected=want, rtol=1e-5, atol=1e-6)
    assert result.dtype is tf.float32 and result.shape == want.shape


def test_tensordot_partial_shapes_and_errors():
    fn = tf.function(lambda x, y: tf.tensordot(x, y, [[1], [0]]))
    concrete = fn.get_concrete_function(tf.TensorSpec([None, 3]), tf.TensorSpec([3, 4]))
    assert concrete.outputs[0].shape.as_list() == [None, 4]
    with pytest.raises(tf.errors.InvalidArgumentError, match="tensordot: contracted dimensions do not match"):
        tf.tensordot(rand(2, 3), rand(4, 5), 1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="tensordot: axes=3 is more than the rank"):
        tf.tensordot(rand(2, 3), rand(3, 4), 3)
    with pytest.raises(tf.errors.InvalidArgumentError, match="tensordot: axes must list as many"):
        tf.tensordot(rand(2, 3), rand(3, 4), [[0, 1], [0]])


EINSUM_CASES = [
    ("ij,jk->ik", [(2, 3), (3, 4)]),
    ("bij,bjk->bik", [(5, 2, 3), (5, 3, 4)]),
    ("ij->ji", [(2, 3)]),
    ("ii->i", [(3, 3)]),
    ("ii", [(3, 3)]),
    ("i,i->", [(4,), (4,)]),
    ("i,j->ij", [(2,), (3,)]),
    ("ij,jk", [(2, 3), (3, 4)]),  # implicit output: ik
    ("...ij,...jk->...ik", [(2, 5, 2, 3), (5, 3, 4)]),
    ("b i j , b j -> b i", [(2, 3, 4), (2, 4)]),
    ("ijk->", [(2, 3, 4)]),
]


@pytest.mark.parametrize("equation, shapes", EINSUM_CASES)
def test_einsum(equation, shapes):
    operands = [rand(*s) for s in shapes]
    want = np.einsum(equation.replace(" ", ""), *operands)
    result = run_all_ways(lambda *xs: tf.einsum(equation, *xs), *operands, expected=want, rtol=1e-5, atol=1e-6)
    assert result.dtype is tf.float32 and result.shape == np.shape(want)


def test_einsum_partial_shapes_code_and_errors():
    fn = tf.function(lambda x, y: tf.einsum("bij,jk->bik", x, y))
    concrete = fn.get_concrete_function(tf.TensorSpec([None, 2, 3]), tf.TensorSpec([None, 4]))
    assert concrete.outputs[0].shape.as_list() == [None, 2, 4]
    assert "np.einsum('bij,jk->bik', x, y)" in concrete.code
    with pytest.raises(tf.errors.InvalidArgumentError, match="einsum: label 'j' has dimension 3 in one input and 4"):
        tf.einsum("ij,jk->ik", rand(2, 3), rand(4, 5))
    with pytest.raises(tf.errors.InvalidArgumentError, match="einsum: the equation 'ij,jk->ik' names 2 inputs, "
                                                              "but 1 were given"):
        tf.einsum("ij,jk->ik", rand(2, 3))
    with pytest.raises(tf.errors.InvalidArgumentError, match="einsum: the term 'ijk' has 3 labels"):
        tf.einsum("ijk->i", rand(2, 3))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"einsum: output labels \['z'\]"):
        tf.einsum("ij->iz", rand(2, 3))
    with pytest.raises(tf.errors.InvalidArgumentError, match="einsum: the inputs have broadcast axes"):
        tf.einsum("...ij->ij", rand(2, 3, 4))
    with pytest.raises(ValueError, match="at least one input"):
        tf.einsum("ij->ji")


NORM_CASES = [
    ("euclidean", None), (1, None), (np.inf, None), (3, None), (2, 1), (1, 0), (np.inf, -1), (0.5, 1),
    ("euclidean", (0, 1)), ("fro", (1, 2)), (1, (1, 2)), (np.inf, (1, 2)), (2, (1, 2)), (1, (2, 1)), ("fro", [-2, -1]),
]


def _np_norm(x, ord, axis, keepdims):
    if axis is None:
        flat = np.linalg.norm(x.ravel(), None if ord == "euclidean" else ord)
        return flat.reshape((1,) * x.ndim) if keepdims else flat
    np_ord = None if ord == "euclidean" and not isinstance(axis, (tuple, list)) else ord
    np_ord = "fro" if np_ord == "euclidean" else np_ord
    return np.linalg.norm(x, np_ord, axis=tuple(axis) if isinstance(axis, list) else axis, keepdims=keepdims)


@pytest.mark.parametrize("ord, axis", NORM_CASES)
@pytest.mark.parametrize("keepdims", [False, True])
def test_norm(ord, axis, keepdims):
    x = rand(2, 3, 4)
    want = _np_norm(x.astype(np.float64), ord, axis, keepdims)
    result = run_all_ways(lambda v: tf.norm(v, ord=ord, axis=axis, keepdims=keepdims), x, expected=want,
                          rtol=2e-5, atol=1e-6)
    assert result.dtype is tf.float32 and result.shape == np.shape(want)


def test_norm_partial_shapes_and_errors():
    fn = tf.function(lambda x: (tf.norm(x, axis=1), tf.norm(x), tf.linalg.norm(x, ord=1, axis=[0, 1])))
    concrete = fn.get_concrete_function(tf.TensorSpec([None, 3]))
    assert [o.shape.as_list() for o in concrete.outputs] == [[None], [], []]
    with pytest.raises(tf.errors.InvalidArgumentError, match="norm: ord='fro' is not a supported vector norm"):
        tf.norm(rand(3), ord="fro")
    with pytest.raises(tf.errors.InvalidArgumentError, match="norm: ord=3.0 is not a supported matrix norm"):
        tf.norm(rand(3, 3), ord=3, axis=[0, 1])
    with pytest.raises(tf.errors.InvalidArgumentError, match="norm: ord=-1.0 is not a supported vector norm"):
        tf.norm(rand(3), ord=-1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="norm: the two axes of a matrix norm must differ"):
        tf.norm(rand(3, 3), axis=[1, -1])
    with pytest.raises(tf.errors.InvalidArgumentError, match="norm: .*does not support dtype int32"):
        tf.norm(tf.constant([3, 4]))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_matrix_functions(dtype):
    m = (rand(3, 4, 4, dtype=dtype) + 4 * np.eye(4, dtype=dtype))
    spd = m @ swap(m)
    rtol = 1e-4 if dtype == np.float32 else 1e-10
    run_all_ways(tf.linalg.inv, m, expected=np.linalg.inv(m), rtol=rtol, atol=rtol)
    run_all_ways(lambda x: tf.linalg.inv(x, adjoint=True), m, expected=np.linalg.inv(swap(m)), rtol=rtol, atol=rtol)
    det = run_all_ways(tf.linalg.det, m, expected=np.linalg.det(m), rtol=rtol)
    assert det.dtype is tf.as_dtype(dtype) and det.shape == (3,)
    sign, log_abs = run_all_ways(tf.linalg.slogdet, m, expected=tuple(np.linalg.slogdet(m)), rtol=rtol)
    assert sign.shape == log_abs.shape == (3,)
    run_all_ways(tf.linalg.logdet, spd, expected=np.linalg.slogdet(spd)[1], rtol=rtol)
    chol = run_all_ways(tf.linalg.cholesky, spd, expected=np.linalg.cholesky(spd), rtol=rtol, atol=rtol)
    np.testing.assert_allclose(chol.numpy() @ swap(chol.numpy()), spd, rtol=rtol, atol=rtol * 10)
    rhs = rand(3, 4, 2, dtype=dtype)
    run_all_ways(tf.linalg.solve, m, rhs, expected=np.linalg.solve(m, rhs), rtol=rtol, atol=rtol)
    run_all_ways(lambda a, b: tf.linalg.solve(a, b, adjoint=True), m, rhs, expected=np.linalg.solve(swap(m), rhs),
                 rtol=rtol, atol=rtol)


def test_matrix_function_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match="matrix_inverse: Input is not invertible"):
        tf.linalg.inv(np.zeros((2, 2), np.float32))
    with pytest.raises(tf.errors.InvalidArgumentError, match="matrix_inverse .*Input is not invertible"):
        tf.function(tf.linalg.inv)(np.zeros((2, 2), np.float32))
    with pytest.raises(tf.errors.InvalidArgumentError, match="cholesky: Cholesky decomposition was not successful"):
        tf.linalg.cholesky(-np.eye(2))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"matrix_determinant: .*square matrices .*\(2, 3\)"):
        tf.linalg.det(rand(2, 3))
    with pytest.raises(tf.errors.InvalidArgumentError, match="matrix_inverse: .*needs a float32 or float64"):
        tf.linalg.inv(np.eye(2, dtype=np.int32))
    with pytest.raises(tf.errors.InvalidArgumentError, match="matrix_determinant: .*rank >= 2"):
        tf.linalg.det(rand(3))
    with pytest.raises(tf.errors.InvalidArgumentError, match="matrix_solve: .*the same number of rows"):
        tf.linalg.solve(rand(3, 3), rand(4, 1))


def test_matrix_functions_on_partial_shapes():
    fn = tf.function(lambda x: (tf.linalg.inv(x), tf.linalg.det(x), tf.linalg.trace(x), tf.linalg.diag_part(x),
                                tf.linalg.matrix_transpose(x)))
    concrete = fn.get_concrete_function(tf.TensorSpec([None, 3, 3]))
    assert [o.shape.as_list() for o in concrete.outputs] == [[None, 3, 3], [None], [None], [None, 3], [None, 3, 3]]
    with pytest.raises(ValueError, match="matrix_inverse: .*square"):
        fn.get_concrete_function(tf.TensorSpec([None, 3, 4]))


@pytest.mark.parametrize("shape", [(3, 3), (2, 3, 4), (4, 2)])
@pytest.mark.parametrize("k", [0, 1, -1])
def test_trace_diag_part_transpose(shape, k):
    x = rand(*shape)
    trace = run_all_ways(tf.linalg.trace, x, expected=np.trace(x, axis1=-2, axis2=-1), rtol=1e-5)
    assert trace.shape == shape[:-2]
    want = np.diagonal(x, k, -2, -1)
    part = run_all_ways(lambda v: tf.linalg.diag_part(v, k=k), x, expected=want)
    assert part.shape == want.shape
    run_all_ways(tf.linalg.matrix_transpose, x, expected=swap(x))
    assert tf.linalg.adjoint(x).shape == swap(x).shape
    assert tf.linalg.transpose(x).shape == swap(x).shape
    ints = RNG.integers(-5, 5, shape).astype(np.int32)
    assert tf.linalg.trace(ints).dtype is tf.int32


@pytest.mark.parametrize("k", [0, 1, -2])
def test_diag(k):
    v = rand(2, 3)
    want = np.stack([np.diag(row, k) for row in v])
    result = run_all_ways(lambda x: tf.linalg.diag(x, k=k), v, expected=want)
    assert result.shape == want.shape
    concrete = tf.function(lambda x: tf.linalg.diag(x)).get_concrete_function(tf.TensorSpec([None, 3]))
    assert concrete.outputs[0].shape.as_list() == [None, 3, 3]
    with pytest.raises(tf.errors.InvalidArgumentError, match="matrix_diag: the diagonal must have rank >= 1"):
        tf.linalg.diag(tf.constant(1.0))
    with pytest.raises(NotImplementedError, match="num_rows"):
        tf.linalg.diag(v, num_rows=5)


def test_eye_and_namespaces():
    assert tf.eye(2).numpy().tolist() == [[1, 0], [0, 1]]
    batch = tf.linalg.eye(2, 3, batch_shape=[4], dtype=tf.int32)
    assert batch.dtype is tf.int32 and batch.shape == (4, 2, 3)
    for name in ["matmul", "tensordot", "einsum", "norm"]:
        assert getattr(tf, name) is getattr(tf.linalg, name)
    run_all_ways(lambda x: x @ tf.linalg.eye(3), rand(2, 3))
