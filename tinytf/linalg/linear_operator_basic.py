"""The LinearOperators defined by one tensor: FullMatrix, Diag, Identity, ScaledIdentity, Zeros,
LowerTriangular, Permutation, Householder, Toeplitz and Tridiag. Each acts through its structure (a diagonal
scales, a permutation gathers, a Householder reflection is a rank-one update) and has the cheap determinant,
solve and inverse that structure allows."""

from __future__ import annotations

import numpy as np

import tinytf as tf

from .linear_operator import LinearOperator, concat_shapes


def _adjoint_if(x, flag):
    return tf.linalg.adjoint(x) if flag else x


class LinearOperatorFullMatrix(LinearOperator):
    """A dense [..., M, N] matrix as an operator."""

    def __init__(self, matrix, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name="LinearOperatorFullMatrix"):
        self._matrix = tf.convert_to_tensor(matrix)
        allowed = (tf.float16, tf.float32, tf.float64, tf.complex64, tf.complex128)
        if self._matrix.dtype not in allowed:
            raise TypeError(f"Argument matrix must have dtype in {[d.name for d in allowed]}. "
                            f"Found: {self._matrix.dtype}")
        if self._matrix.shape.rank is not None and self._matrix.shape.rank < 2:
            raise ValueError(f"Argument matrix must have at least 2 dimensions. Found: {self._matrix}")
        super().__init__(self._matrix.dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square, name=name,
                         parameters={"matrix": matrix})

    def _shape(self):
        return self._matrix.shape

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return tf.matmul(self._matrix, x, adjoint_a=adjoint, adjoint_b=adjoint_arg)

    def _to_dense(self):
        return self._matrix


class LinearOperatorDiag(LinearOperator):
    """diag(d) for a [..., N] tensor d."""

    def __init__(self, diag, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None, is_square=None,
                 name="LinearOperatorDiag"):
        self._diag = tf.convert_to_tensor(diag)
        if self._diag.shape.rank is not None and self._diag.shape.rank < 1:
            raise ValueError(f"Argument diag must have at least 1 dimension.  Found: {self._diag}")
        if not self._diag.dtype.is_complex and is_self_adjoint is False:
            raise ValueError("A real diagonal operator is always self adjoint.")
        if not self._diag.dtype.is_complex:
            is_self_adjoint = True
        if is_square is False:
            raise ValueError("Only square diagonal operators currently supported.")
        super().__init__(self._diag.dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True, name=name,
                         parameters={"diag": diag})

    @property
    def diag(self):
        return self._diag

    def _shape(self):
        return concat_shapes(self._diag.shape, self._diag.shape[-1:])

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        d = tf.math.conj(self._diag) if adjoint else self._diag
        return d[..., None] * _adjoint_if(x, adjoint_arg)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        d = tf.math.conj(self._diag) if adjoint else self._diag
        return _adjoint_if(rhs, adjoint_arg) / d[..., None]

    def _determinant(self):
        return tf.reduce_prod(self._diag, axis=-1)

    def _log_abs_determinant(self):
        return tf.reduce_sum(tf.math.log(tf.abs(self._diag)), axis=-1)

    def _diag_part(self):
        return self._diag

    def _to_dense(self):
        return tf.linalg.diag(self._diag)

    def _adjoint(self):
        return LinearOperatorDiag(tf.math.conj(self._diag), is_non_singular=self.is_non_singular,
                                  is_self_adjoint=self.is_self_adjoint, is_positive_definite=self.is_positive_definite,
                                  is_square=True)

    def _inverse(self):
        return LinearOperatorDiag(1.0 / self._diag, is_non_singular=self.is_non_singular,
                                  is_self_adjoint=self.is_self_adjoint, is_positive_definite=self.is_positive_definite,
                                  is_square=True)

    def _cholesky(self):
        return LinearOperatorDiag(tf.sqrt(self._diag), is_non_singular=True, is_self_adjoint=True,
                                  is_positive_definite=True, is_square=True)

    def eigvals(self, name="eigvals"):
        return tf.sort(self._diag, axis=-1) if not self._diag.dtype.is_complex else self._diag

    def add_to_tensor(self, x, name="add_to_tensor"):
        x = self._as_input(x)
        return tf.linalg.set_diag(x, tf.linalg.diag_part(x) + self._diag)


def _batch_list(batch_shape):
    return [] if batch_shape is None else [int(d) for d in np.asarray(batch_shape).reshape(-1)]


class _BaseIdentity(LinearOperator):
    def __init__(self, num_rows, batch_shape, dtype, name, **hints):
        self._num_rows = int(num_rows)
        if self._num_rows < 0:
            raise ValueError(f"Argument num_rows must be non-negative, found {num_rows}")
        self._batch_shape_arg = _batch_list(batch_shape)
        if any(d < 0 for d in self._batch_shape_arg):
            raise ValueError(f"Argument batch_shape must be non-negative, found {batch_shape}")
        super().__init__(tf.as_dtype(dtype or tf.float32), name=name, **hints)

    def _shape(self):
        return tf.TensorShape(self._batch_shape_arg + [self._num_rows, self._num_rows])

    def _ones_diag(self):
        return tf.ones(self._batch_shape_arg + [self._num_rows], self.dtype)


class LinearOperatorIdentity(_BaseIdentity):
    """The N x N identity (batch_shape copies of it)."""

    def __init__(self, num_rows, batch_shape=None, dtype=None, is_non_singular=True, is_self_adjoint=True,
                 is_positive_definite=True, is_square=True, assert_proper_shapes=False,
                 name="LinearOperatorIdentity"):
        if not is_self_adjoint:
            raise ValueError("An identity operator is always self adjoint.")
        if not is_non_singular:
            raise ValueError("An identity operator is always non-singular.")
        if not is_positive_definite:
            raise ValueError("An identity operator is always positive-definite.")
        if not is_square:
            raise ValueError("An identity operator is always square.")
        super().__init__(num_rows, batch_shape, dtype, name, is_non_singular=True, is_self_adjoint=True,
                         is_positive_definite=True, is_square=True,
                         parameters={"num_rows": num_rows, "batch_shape": batch_shape, "dtype": dtype})

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        x = _adjoint_if(x, adjoint_arg)
        batch = self._batch_shape_arg
        if batch:  # the identity's batch shape broadcasts with x's
            shape = tf.broadcast_dynamic_shape(tf.shape(x)[:-2], tf.constant(batch, tf.int32))
            x = tf.broadcast_to(x, tf.concat([shape, tf.shape(x)[-2:]], 0))
        return x

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self._matmul(rhs, adjoint_arg=adjoint_arg)

    def _determinant(self):
        return tf.ones(self._batch_shape_arg, self.dtype)

    def _log_abs_determinant(self):
        return tf.zeros(self._batch_shape_arg, self.dtype)

    def _trace(self):
        return tf.fill(self._batch_shape_arg, tf.cast(self._num_rows, self.dtype))

    def _diag_part(self):
        return self._ones_diag()

    def _to_dense(self):
        return tf.eye(self._num_rows, batch_shape=self._batch_shape_arg or None, dtype=self.dtype)

    def _inverse(self):
        return self

    def _cholesky(self):
        return self

    def add_to_tensor(self, mat, name="add_to_tensor"):
        mat = self._as_input(mat)
        return tf.linalg.set_diag(mat, tf.linalg.diag_part(mat) + 1)


class LinearOperatorScaledIdentity(_BaseIdentity):
    """multiplier * I_N; the multiplier's shape is the batch shape."""

    def __init__(self, num_rows, multiplier, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=True, assert_proper_shapes=False, name="LinearOperatorScaledIdentity"):
        self._multiplier = tf.convert_to_tensor(multiplier)
        if not is_square:
            raise ValueError("A ScaledIdentity operator is always square.")
        if not self._multiplier.dtype.is_complex and is_self_adjoint is False:
            raise ValueError("A real diagonal operator is always self adjoint.")
        if not self._multiplier.dtype.is_complex:
            is_self_adjoint = True
        super().__init__(num_rows, self._multiplier.shape.as_list(), self._multiplier.dtype, name,
                         is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True,
                         parameters={"num_rows": num_rows, "multiplier": multiplier})

    @property
    def multiplier(self):
        return self._multiplier

    def _scale(self, adjoint):
        m = tf.math.conj(self._multiplier) if adjoint else self._multiplier
        return m[..., None, None]

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return self._scale(adjoint) * _adjoint_if(x, adjoint_arg)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return _adjoint_if(rhs, adjoint_arg) / self._scale(adjoint)

    def _determinant(self):
        return self._multiplier ** self._num_rows

    def _log_abs_determinant(self):
        return tf.cast(self._num_rows, self.dtype.real_dtype) * tf.math.log(tf.abs(self._multiplier))

    def _trace(self):
        return self._multiplier * tf.cast(self._num_rows, self.dtype)

    def _diag_part(self):
        return self._multiplier[..., None] * self._ones_diag()

    def _to_dense(self):
        return self._multiplier[..., None, None] * tf.eye(self._num_rows, dtype=self.dtype)

    def _inverse(self):
        return LinearOperatorScaledIdentity(self._num_rows, 1.0 / self._multiplier,
                                            is_non_singular=self.is_non_singular, is_self_adjoint=True,
                                            is_positive_definite=self.is_positive_definite, is_square=True)

    def _cholesky(self):
        return LinearOperatorScaledIdentity(self._num_rows, tf.sqrt(self._multiplier), is_non_singular=True,
                                            is_self_adjoint=True, is_positive_definite=True, is_square=True)

    def add_to_tensor(self, mat, name="add_to_tensor"):
        mat = self._as_input(mat)
        return tf.linalg.set_diag(mat, tf.linalg.diag_part(mat) + self._multiplier[..., None])


class LinearOperatorZeros(_BaseIdentity):
    """The all-zeros M x N operator."""

    def __init__(self, num_rows, num_columns=None, batch_shape=None, dtype=None, is_non_singular=False,
                 is_self_adjoint=True, is_positive_definite=False, is_square=True, assert_proper_shapes=False,
                 name="LinearOperatorZeros"):
        if is_non_singular:
            raise ValueError("A Zeros operator is always singular.")
        if is_positive_definite:
            raise ValueError("A Zeros operator is always not positive-definite.")
        self._num_columns = int(num_rows if num_columns is None else num_columns)
        if is_square and self._num_columns != int(num_rows):
            raise ValueError(f"LinearOperatorZeros initialized as is_square=True, but got num_rows({num_rows}) != "
                             f"num_columns({num_columns})")
        super().__init__(num_rows, batch_shape, dtype, name, is_non_singular=False, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=False, is_square=is_square,
                         parameters={"num_rows": num_rows, "num_columns": num_columns, "batch_shape": batch_shape,
                                     "dtype": dtype})

    def _shape(self):
        return tf.TensorShape(self._batch_shape_arg + [self._num_rows, self._num_columns])

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        x = _adjoint_if(x, adjoint_arg)
        rows = self._num_columns if adjoint else self._num_rows
        shape = tf.concat([tf.broadcast_dynamic_shape(tf.shape(x)[:-2], tf.constant(self._batch_shape_arg, tf.int32)),
                           [rows], tf.shape(x)[-1:]], 0)
        return tf.zeros(shape, self.dtype)

    def _determinant(self):
        return tf.zeros(self._batch_shape_arg, self.dtype)

    def _log_abs_determinant(self):
        return tf.fill(self._batch_shape_arg, tf.constant(-np.inf, self.dtype))

    def _trace(self):
        return tf.zeros(self._batch_shape_arg, self.dtype)

    def _diag_part(self):
        return tf.zeros(self._batch_shape_arg + [min(self._num_rows, self._num_columns)], self.dtype)

    def _to_dense(self):
        return tf.zeros(self._batch_shape_arg + [self._num_rows, self._num_columns], self.dtype)

    def add_to_tensor(self, mat, name="add_to_tensor"):
        return self._as_input(mat)


class LinearOperatorLowerTriangular(LinearOperator):
    """The lower triangle of a [..., N, N] tensor (its upper part is ignored)."""

    def __init__(self, tril, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None, is_square=None,
                 name="LinearOperatorLowerTriangular"):
        if is_square is False:
            raise ValueError("Only square lower triangular operators supported at this time.")
        tril = tf.convert_to_tensor(tril)
        self._tril = tf.linalg.band_part(tril, -1, 0)
        super().__init__(tril.dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True, name=name,
                         parameters={"tril": tril})

    def _shape(self):
        return self._tril.shape

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return tf.matmul(self._tril, x, adjoint_a=adjoint, adjoint_b=adjoint_arg)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return tf.linalg.triangular_solve(self._tril, _adjoint_if(rhs, adjoint_arg), lower=True, adjoint=adjoint)

    def _diag_part(self):
        return tf.linalg.diag_part(self._tril)

    def _determinant(self):
        return tf.reduce_prod(self._diag_part(), axis=-1)

    def _log_abs_determinant(self):
        return tf.reduce_sum(tf.math.log(tf.abs(self._diag_part())), axis=-1)

    def _to_dense(self):
        return self._tril


class LinearOperatorPermutation(LinearOperator):
    """The permutation matrix P with (P x)[i] = x[perm[i]]."""

    def __init__(self, perm, dtype="float32", is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name="LinearOperatorPermutation"):
        self._perm = tf.convert_to_tensor(perm)
        if not self._perm.dtype.is_integer:
            raise TypeError(f"Argument perm must be integer dtype. Found: {self._perm}")
        if is_non_singular is False:
            raise ValueError("A Permutation operator is always non-singular.")
        if is_square is False:
            raise ValueError("A Permutation operator is always square.")
        super().__init__(dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True, name=name,
                         parameters={"perm": perm, "dtype": dtype})

    @property
    def perm(self):
        return self._perm

    def _shape(self):
        return concat_shapes(self._perm.shape, self._perm.shape[-1:])

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        x = _adjoint_if(x, adjoint_arg)
        perm = tf.argsort(self._perm, axis=-1) if adjoint else self._perm
        batch = len(self._perm.shape) - 1
        shape = tf.broadcast_dynamic_shape(tf.shape(perm)[:-1], tf.shape(x)[:-2])
        x = tf.broadcast_to(x, tf.concat([shape, tf.shape(x)[-2:]], 0))
        perm = tf.broadcast_to(perm, tf.concat([shape, tf.shape(perm)[-1:]], 0))
        return tf.gather(x, perm, axis=-2, batch_dims=max(batch, len(x.shape) - 2))

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self._matmul(rhs, adjoint=not adjoint, adjoint_arg=adjoint_arg)

    def _to_dense(self):
        n = self._perm.shape[-1]
        return tf.cast(tf.one_hot(self._perm, n), self.dtype)

    def _determinant(self):
        # the sign of the permutation: (-1) ** (n - number of cycles), through its dense matrix's determinant
        return tf.linalg.det(self._to_dense())

    def _log_abs_determinant(self):
        return tf.zeros(self._perm.shape[:-1], self.dtype)



class LinearOperatorHouseholder(LinearOperator):
    """The reflection I - 2 v v^H / (v^H v) across the hyperplane orthogonal to reflection_axis v."""

    def __init__(self, reflection_axis, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name="LinearOperatorHouseholder"):
        self._axis = tf.convert_to_tensor(reflection_axis)
        if is_self_adjoint is False:
            raise ValueError("A Householder operator is always self adjoint.")
        if is_non_singular is False:
            raise ValueError("A Householder operator is always non-singular.")
        if is_square is False:
            raise ValueError("A Householder operator is always square.")
        if is_positive_definite:
            raise ValueError("A Householder operator is always non-positive definite.")
        super().__init__(self._axis.dtype, is_non_singular=is_non_singular, is_self_adjoint=True,
                         is_positive_definite=False, is_square=True, name=name,
                         parameters={"reflection_axis": reflection_axis})

    @property
    def reflection_axis(self):
        return self._axis

    def _shape(self):
        return concat_shapes(self._axis.shape, self._axis.shape[-1:])

    def _unit_axis(self):
        return tf.math.l2_normalize(self._axis, axis=-1)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        x = _adjoint_if(x, adjoint_arg)
        u = self._unit_axis()[..., None]
        return x - 2 * u * tf.matmul(u, x, adjoint_a=True)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self._matmul(rhs, adjoint_arg=adjoint_arg)  # a reflection is its own inverse

    def _determinant(self):
        return -tf.ones(self._axis.shape[:-1], self.dtype)

    def _log_abs_determinant(self):
        return tf.zeros(self._axis.shape[:-1], self.dtype)

    def _trace(self):
        return tf.cast(self._axis.shape[-1] - 2, self.dtype) * tf.ones(self._axis.shape[:-1], self.dtype)

    def _diag_part(self):
        u = self._unit_axis()
        return 1 - 2 * u * tf.math.conj(u)

    def _inverse(self):
        return self


class LinearOperatorToeplitz(LinearOperator):
    """The Toeplitz matrix with first column col and first row row (row[0] is ignored: col[0] is the diagonal)."""

    def __init__(self, col, row, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name="LinearOperatorToeplitz"):
        self._col = tf.convert_to_tensor(col)
        self._row = tf.convert_to_tensor(row, self._col.dtype)
        if is_square is False:
            raise ValueError("Only square Toeplitz operators currently supported.")
        super().__init__(self._col.dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True, name=name,
                         parameters={"col": col, "row": row})

    @property
    def col(self):
        return self._col

    @property
    def row(self):
        return self._row

    def _shape(self):
        batch = tf.broadcast_static_shape(self._col.shape[:-1], self._row.shape[:-1])
        n = self._col.shape[-1]
        return concat_shapes(batch, [n, n])

    def _to_dense(self):
        n = self._col.shape[-1]
        # entry (i, j) is col[i - j] below the diagonal and row[j - i] above it: one gather from [row[::-1], col[1:]]
        values = tf.concat([tf.reverse(self._row[..., 1:], [-1]), self._col], -1)
        index = (np.arange(n)[:, None] - np.arange(n)[None, :]) + (n - 1)
        batch = tf.broadcast_static_shape(self._col.shape[:-1], self._row.shape[:-1]).as_list()
        values = tf.broadcast_to(values, batch + [2 * n - 1])
        return tf.gather(values, tf.constant(index.astype(np.int32)), axis=-1)


class LinearOperatorTridiag(LinearOperator):
    """A tridiagonal matrix from its diagonals ('compact' [..., 3, N], 'sequence' or 'matrix')."""

    def __init__(self, diagonals, diagonals_format="compact", is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name="LinearOperatorTridiag"):
        if diagonals_format not in ("compact", "sequence", "matrix"):
            raise ValueError(f"Diagonals Format must be one of compact, matrix, sequence, got : {diagonals_format}")
        if is_square is False:
            raise ValueError("Tridiagonal operators are always square.")
        self._diagonals = diagonals if diagonals_format == "sequence" else tf.convert_to_tensor(diagonals)
        self._format = diagonals_format
        from .structured import _compact

        self._super, self._main, self._sub = _compact(diagonals, diagonals_format)
        super().__init__(self._main.dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True, name=name,
                         parameters={"diagonals": diagonals, "diagonals_format": diagonals_format})

    @property
    def diagonals(self):
        return self._diagonals

    @property
    def diagonals_format(self):
        return self._format

    def _shape(self):
        return concat_shapes(self._main.shape, self._main.shape[-1:])

    def _to_dense(self):
        from .structured import _dense_tridiagonal

        return _dense_tridiagonal(self._super, self._main, self._sub)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        x = _adjoint_if(x, adjoint_arg)
        if adjoint:  # the adjoint's superdiagonal is the conjugated subdiagonal shifted left, and vice versa
            zero = tf.zeros_like(self._main[..., :1])
            sup = tf.concat([tf.math.conj(self._sub[..., 1:]), zero], -1)
            sub = tf.concat([zero, tf.math.conj(self._super[..., :-1])], -1)
            diagonals = [sup, tf.math.conj(self._main), sub]
        else:
            diagonals = [self._super, self._main, self._sub]
        return tf.linalg.tridiagonal_matmul(diagonals, x, diagonals_format="sequence")

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        dense = self._to_dense()
        return tf.linalg.solve(dense, _adjoint_if(rhs, adjoint_arg), adjoint=adjoint)

    def _diag_part(self):
        return self._main


__all__ = ["LinearOperatorFullMatrix", "LinearOperatorDiag", "LinearOperatorIdentity",
           "LinearOperatorScaledIdentity", "LinearOperatorZeros", "LinearOperatorLowerTriangular",
           "LinearOperatorPermutation", "LinearOperatorHouseholder", "LinearOperatorToeplitz",
           "LinearOperatorTridiag"]
