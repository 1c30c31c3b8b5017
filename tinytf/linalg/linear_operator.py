"""tf.linalg.LinearOperator: a matrix (or a batch of them) known by how it acts, not by its entries. Subclasses
give the shape and matmul (and, where their structure allows, a cheaper solve, determinant, diagonal...); the base
class derives the rest from those or from to_dense(), as TF's does. Operators are tf.Modules holding tensors, so
they live inside tf.function and differentiate through the ops they use."""

from __future__ import annotations

import numpy as np

import tinytf as tf
from tinytf.module import Module


def concat_shapes(first, second):
    """The TensorShape of first's dimensions then second's (unknown when either rank is)."""
    first, second = tf.TensorShape(first), tf.TensorShape(second)
    if first.rank is None or second.rank is None:
        return tf.TensorShape(None)
    return tf.TensorShape(list(first) + list(second))


def _hint(value):
    return None if value is None else bool(value)


class LinearOperator(Module):
    """The base of TF's linear operators: shape, hints (is_non_singular, is_self_adjoint, is_positive_definite,
    is_square) and the operations every operator has."""

    def __init__(self, dtype, graph_parents=None, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name=None, parameters=None):
        super().__init__(name=name)
        if is_positive_definite and is_non_singular is False:
            raise ValueError("A positive definite matrix is always non-singular.")
        if is_positive_definite:
            is_non_singular = True
        if is_non_singular and is_square is False:
            raise ValueError("A non-singular matrix is always square.")
        if is_non_singular:
            is_square = True
        if is_self_adjoint:
            if is_square is False:
                raise ValueError("A self-adjoint matrix is always square.")
            is_square = True
        self._dtype = tf.as_dtype(dtype) if dtype is not None else None
        self._is_non_singular = _hint(is_non_singular)
        self._is_self_adjoint = _hint(is_self_adjoint)
        self._is_positive_definite = _hint(is_positive_definite)
        self._is_square_set_or_implied_by_hints = _hint(is_square)
        self._parameters = dict(parameters or {})

    # --- properties -------------------------------------------------------------------------------------------
    @property
    def dtype(self):
        return self._dtype

    @property
    def parameters(self):
        return dict(self._parameters)

    @property
    def is_non_singular(self):
        return self._is_non_singular

    @property
    def is_self_adjoint(self):
        return self._is_self_adjoint

    @property
    def is_positive_definite(self):
        return self._is_positive_definite

    @property
    def is_square(self):
        """True/False when known: from the hint, else from the static shape."""
        auto = self.domain_dimension == self.range_dimension if (
            self.domain_dimension is not None and self.range_dimension is not None) else None
        if self._is_square_set_or_implied_by_hints is False and auto:
            raise ValueError("User set is_square hint to False, but the operator was square.")
        return auto if self._is_square_set_or_implied_by_hints is None else self._is_square_set_or_implied_by_hints

    @property
    def shape(self):
        return tf.TensorShape(self._shape())

    @property
    def batch_shape(self):
        return self.shape[:-2]

    @property
    def tensor_rank(self):
        return self.shape.rank

    @property
    def domain_dimension(self):
        return self.shape[-1] if self.shape.rank is not None else None

    @property
    def range_dimension(self):
        return self.shape[-2] if self.shape.rank is not None else None

    def shape_tensor(self, name="shape_tensor"):
        if self.shape.is_fully_defined():
            return tf.constant(self.shape.as_list(), tf.int32)
        return self._shape_tensor()

    def _shape_tensor(self):
        return tf.shape(self.to_dense())

    def batch_shape_tensor(self, name="batch_shape_tensor"):
        return self.shape_tensor()[:-2]

    def tensor_rank_tensor(self, name="tensor_rank_tensor"):
        return tf.size(self.shape_tensor())

    def domain_dimension_tensor(self, name="domain_dimension_tensor"):
        return self.shape_tensor()[-1]

    def range_dimension_tensor(self, name="range_dimension_tensor"):
        return self.shape_tensor()[-2]

    # --- checks TF makes before an operation --------------------------------------------------------------------
    def _check_input_dtype(self, arg):
        if arg.dtype != self.dtype:
            raise TypeError(f"Expected argument to have dtype {self.dtype}. Found: {arg.dtype} in tensor {arg}")

    def _as_input(self, x):
        if isinstance(x, (tf.Tensor, tf.Variable)):
            self._check_input_dtype(x)
        x = tf.convert_to_tensor(x, dtype=self.dtype)
        self._check_input_dtype(x)
        return x

    def _assert_square(self, what):
        if self.is_square is False:
            raise NotImplementedError(f"{what} not implemented for an operator that is expected to not be square.")

    def _assert_not_singular(self, what):
        if self.is_non_singular is False:
            raise NotImplementedError(f"{what} not implemented for an operator that is expected to be singular.")

    # --- the operations -------------------------------------------------------------------------------------
    def matmul(self, x, adjoint=False, adjoint_arg=False, name="matmul"):
        """self @ x (adjoint: self^H @ x; adjoint_arg: with x^H); a LinearOperator x gives their composition."""
        if isinstance(x, LinearOperator):
            from .linear_operator_composition import LinearOperatorComposition

            left = self.adjoint() if adjoint else self
            right = x.adjoint() if adjoint_arg else x
            return LinearOperatorComposition([left, right])
        x = self._as_input(x)
        return self._matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return tf.matmul(self.to_dense(), x, adjoint_a=adjoint, adjoint_b=adjoint_arg)

    def __matmul__(self, other):
        return self.matmul(other)

    def matvec(self, x, adjoint=False, name="matvec"):
        """self @ x for vectors x (the last axis)."""
        x = self._as_input(x)
        return self._matvec(x, adjoint=adjoint)

    def _matvec(self, x, adjoint=False):
        return tf.squeeze(self._matmul(tf.expand_dims(x, -1), adjoint=adjoint), -1)

    def solve(self, rhs, adjoint=False, adjoint_arg=False, name="solve"):
        """X with self @ X = rhs (adjoint: self^H @ X = rhs); a LinearOperator rhs gives inverse() @ rhs."""
        if self.is_non_singular is False:
            raise NotImplementedError("Exact solve not implemented for an operator that is expected to be singular.")
        if self.is_square is False:
            raise NotImplementedError("Exact solve not implemented for an operator that is expected to not be "
                                      "square.")
        if isinstance(rhs, LinearOperator):
            left = self.inverse().adjoint() if adjoint else self.inverse()
            return left.matmul(rhs, adjoint_arg=adjoint_arg)
        rhs = self._as_input(rhs)
        return self._solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        rhs = tf.linalg.adjoint(rhs) if adjoint_arg else rhs
        if self.is_self_adjoint and self.is_positive_definite:
            return tf.linalg.cholesky_solve(tf.linalg.cholesky(self.to_dense()), rhs)
        return tf.linalg.solve(self.to_dense(), rhs, adjoint=adjoint)

    def solvevec(self, rhs, adjoint=False, name="solve"):
        rhs = self._as_input(rhs)
        if self.is_non_singular is False or self.is_square is False:
            self.solve(tf.expand_dims(rhs, -1))  # raises TF's NotImplementedError
        return self._solvevec(rhs, adjoint=adjoint)

    def _solvevec(self, rhs, adjoint=False):
        return tf.squeeze(self._solve(tf.expand_dims(rhs, -1), adjoint=adjoint), -1)

    def determinant(self, name="det"):
        if self.is_square is False:
            raise NotImplementedError("Determinant not implemented for an operator that is expected to not be "
                                      "square.")
        return self._determinant()

    def _determinant(self):
        return tf.linalg.det(self.to_dense())

    def log_abs_determinant(self, name="log_abs_det"):
        if self.is_square is False:
            raise NotImplementedError("Determinant not implemented for an operator that is expected to not be "
                                      "square.")
        return self._log_abs_determinant()

    def _log_abs_determinant(self):
        return tf.linalg.slogdet(self.to_dense())[1]

    def trace(self, name="trace"):
        return self._trace()

    def _trace(self):
        return tf.reduce_sum(self.diag_part(), axis=-1)

    def diag_part(self, name="diag_part"):
        return self._diag_part()

    def _diag_part(self):
        return tf.linalg.diag_part(self.to_dense())

    def to_dense(self, name="to_dense"):
        return self._to_dense()

    def _to_dense(self):
        """self @ I, as TF's base class computes it."""
        n = self.domain_dimension
        batch = self.batch_shape.as_list()
        eye = tf.eye(n, batch_shape=batch or None, dtype=self.dtype)
        return self._matmul(eye)

    def add_to_tensor(self, x, name="add_to_tensor"):
        return self.to_dense() + self._as_input(x)

    def adjoint(self, name="adjoint"):
        if self.is_self_adjoint:
            return self
        return self._adjoint()

    def _adjoint(self):
        from .linear_operator_adjoint import LinearOperatorAdjoint

        return LinearOperatorAdjoint(self)

    H = property(adjoint, None)

    def inverse(self, name="inverse"):
        if self.is_square is False:
            raise ValueError("Cannot take the Inverse: This operator represents a non square matrix.")
        if self.is_non_singular is False:
            raise ValueError("Cannot take the Inverse: This operator represents a singular matrix.")
        return self._inverse()

    def _inverse(self):
        from .linear_operator_adjoint import LinearOperatorInversion

        return LinearOperatorInversion(self)

    def cholesky(self, name="cholesky"):
        if not self.is_positive_definite or not self.is_self_adjoint:
            raise ValueError("Cholesky decomposition only exists for a positive definite and self-adjoint operator.")
        return self._cholesky()

    def _cholesky(self):
        from .linear_operator_basic import LinearOperatorLowerTriangular

        return LinearOperatorLowerTriangular(tf.linalg.cholesky(self.to_dense()), is_non_singular=True,
                                             is_self_adjoint=False, is_square=True)

    def eigvals(self, name="eigvals"):
        if not self.is_self_adjoint:
            raise NotImplementedError("Only self-adjoint matrices are supported.")
        return tf.linalg.eigvalsh(self.to_dense())

    def cond(self, name="cond"):
        """The condition number: the ratio of the largest to the smallest singular value."""
        s = tf.linalg.svd(self.to_dense(), compute_uv=False)
        return tf.reduce_max(s, -1) / tf.reduce_min(s, -1)

    def assert_non_singular(self, name="assert_non_singular"):
        s = tf.linalg.svd(self.to_dense(), compute_uv=False)
        tol = np.finfo(self.dtype.real_dtype.as_numpy_dtype).eps * 100
        return tf.debugging.assert_less(tf.cast(tol, s.dtype) * tf.reduce_max(s, -1), tf.reduce_min(s, -1),
                                        message="Singular matrix up to precision epsilon.")

    def assert_positive_definite(self, name="assert_positive_definite"):
        return tf.debugging.assert_positive(tf.linalg.eigvalsh(self.to_dense()),
                                            message="Matrix was not positive definite.")

    def assert_self_adjoint(self, name="assert_self_adjoint"):
        dense = self.to_dense()
        return tf.debugging.assert_equal(dense, tf.linalg.adjoint(dense), message="Matrix was not equal to its "
                                         "adjoint.")

    def __repr__(self):
        return (f"<tf.linalg.{type(self).__name__} '{self.name}' is_non_singular={self.is_non_singular} "
                f"is_self_adjoint={self.is_self_adjoint} is_positive_definite={self.is_positive_definite} "
                f"is_square={self.is_square} shape={self.shape} dtype={self.dtype.name}>")


__all__ = ["LinearOperator"]
