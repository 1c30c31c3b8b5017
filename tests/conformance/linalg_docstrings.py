"""The `>>>` examples of TF 2.21's docstrings for the tf.linalg names tinytf added (LinearOperatorBlockLowerTriangular,
LinearOperatorTridiag, banded_triangular_solve, l2_normalize, tensor_diag_part, triangular_solve), as written
there (random inputs drawn after tf.random.set_seed, whose streams tinytf reproduces)."""

from __future__ import annotations

from . import outcome, program
from .linalg_operators import _v


def _try(fn):
    return outcome(lambda: _v(fn()), "")


@program
def p_linalg_doc_block_lower_triangular(tf):
    tf.random.set_seed(5)
    operator_0 = tf.linalg.LinearOperatorFullMatrix([[1., 2.], [3., 4.]])
    operator_1 = tf.linalg.LinearOperatorFullMatrix([[1., 0.], [0., 1.]])
    operator_2 = tf.linalg.LinearOperatorLowerTriangular([[5., 6.], [7., 8]])
    operator = tf.linalg.LinearOperatorBlockLowerTriangular([[operator_0], [operator_1, operator_2]])
    x0 = [[1., 6.], [-3., 4.]]
    x1 = [[0., 2.], [4., 0.]]
    x = tf.concat([x0, x1], 0)
    out = {"dense": _try(operator.to_dense), "shape": operator.shape.as_list(),
           "logdet": _try(operator.log_abs_determinant), "matmul": _try(lambda: operator.matmul(x)),
           "blockwise": _try(lambda: tf.concat([operator_0.matmul(x0), operator_1.matmul(x0) + operator_2.matmul(x1)],
                                               axis=0))}
    matrix_44 = tf.random.normal(shape=[2, 3, 4, 4])
    operator_44 = tf.linalg.LinearOperatorFullMatrix(matrix_44)
    matrix_54 = tf.random.normal(shape=[1, 3, 5, 4])
    operator_54 = tf.linalg.LinearOperatorFullMatrix(matrix_54)
    matrix_55 = tf.random.normal(shape=[1, 3, 5, 5])
    operator_55 = tf.linalg.LinearOperatorFullMatrix(matrix_55)
    operator_99 = tf.linalg.LinearOperatorBlockLowerTriangular([[operator_44], [operator_54, operator_55]])
    out["shape_99"] = operator_99.shape.as_list()
    x = tf.random.normal(shape=[2, 1, 9])
    out["matvec"] = _try(lambda: operator_99.matvec(x))
    x4 = tf.random.normal(shape=[2, 1, 4])
    x5 = tf.random.normal(shape=[2, 3, 5])
    out["matvec_blockwise"] = _try(lambda: operator_99.matvec([x4, x5]))
    return out


@program
def p_linalg_doc_tridiag(tf):
    tf.random.set_seed(6)
    superdiag = [3., 4., 5.]
    diag = [1., -1., 2.]
    subdiag = [6., 7., 8]
    operator = tf.linalg.LinearOperatorTridiag([superdiag, diag, subdiag], diagonals_format='sequence')
    out = {"dense": _try(operator.to_dense), "shape": operator.shape.as_list(),
           "logdet": _try(operator.log_abs_determinant)}
    diagonals = tf.random.normal(shape=[2, 3, 3, 4])
    operator = tf.linalg.LinearOperatorTridiag(diagonals, diagonals_format='compact')
    y = tf.random.normal(shape=[2, 1, 4, 2])
    out["solve"] = _try(lambda: operator.solve(y))
    return out


@program
def p_linalg_doc_functions(tf):
    out = {}
    x = [[2., 3., 4.], [1., 2., 3.]]
    x2 = [[2., 3., 4.], [10000., 2., 3.]]
    z = tf.linalg.set_diag(tf.zeros([3, 3]), x, align='LEFT_RIGHT', k=(-1, 0))
    soln = tf.linalg.banded_triangular_solve(x, tf.ones([3, 1]))
    out["banded_lower"] = _v([z, soln, tf.reduce_all(soln == tf.linalg.banded_triangular_solve(x2, tf.ones([3, 1]))),
                              tf.reduce_all(soln == tf.linalg.triangular_solve(z, tf.ones([3, 1])))])
    x = [[2., 3., 4., 5.], [-1., -2., -3., -4.]]
    z = tf.linalg.set_diag(tf.zeros([4, 4]), x, align='LEFT_RIGHT', k=(0, 1))
    soln = tf.linalg.banded_triangular_solve(x, tf.ones([4, 1]), lower=False)
    out["banded_upper"] = _v([z, soln, tf.reduce_all(soln == tf.linalg.triangular_solve(z, tf.ones([4, 1]),
                                                                                       lower=False))])
    out["l2_normalize"] = _v([tf.linalg.l2_normalize(tf.constant([3.0, 4.0])),
                              tf.linalg.l2_normalize(tf.constant([[3.0], [4.0]]), 0),
                              tf.linalg.l2_normalize(tf.constant([[3.0], [4.0]]), 1)])
    x = [[[[1111, 1112], [1121, 1122]], [[1211, 1212], [1221, 1222]]],
         [[[2111, 2112], [2121, 2122]], [[2211, 2212], [2221, 2222]]]]
    out["tensor_diag_part"] = _v([tf.linalg.tensor_diag_part(x), tf.linalg.diag_part(x).shape.as_list()])
    a = tf.constant([[3, 0, 0, 0], [2, 1, 0, 0], [1, 0, 1, 0], [1, 1, 1, 1]], dtype=tf.float32)
    b = tf.constant([[4], [2], [4], [2]], dtype=tf.float32)
    x = tf.linalg.triangular_solve(a, b, lower=True)
    out["triangular_solve"] = _v([x, tf.matmul(a, x)])
    return out
