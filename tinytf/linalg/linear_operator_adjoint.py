"""LinearOperatorAdjoint (A^H) and LinearOperatorInversion (A^-1): operators defined by another operator, whose
operations call the wrapped one's with adjoint flipped, or swap matmul and solve."""

from __future__ import annotations

import tinytf as tf

from .linear_operator import LinearOperator, concat_shapes


def _hint_or(value, inherited):
    return inherited if value is None else value


class LinearOperatorAdjoint(LinearOperator):
    """The adjoint (conjugate transpose) of `operator`."""

    def __init__(self, operator, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name=None):
        self._operator = operator
        super().__init__(operator.dtype, is_non_singular=_hint_or(is_non_singular, operator.is_non_singular),
                         is_self_adjoint=_hint_or(is_self_adjoint, operator.is_self_adjoint),
                         is_positive_definite=_hint_or(is_positive_definite, operator.is_positive_definite),
                         is_square=_hint_or(is_square, operator.is_square),
                         name=name or operator.name + "_adjoint", parameters={"operator": operator})

    @property
    def operator(self):
        return self._operator

    def _shape(self):
        shape = self._operator.shape
        return concat_shapes(shape[:-2], [shape[-1], shape[-2]])

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return self._operator.matmul(x, adjoint=not adjoint, adjoint_arg=adjoint_arg)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self._operator.solve(rhs, adjoint=not adjoint, adjoint_arg=adjoint_arg)

    def _determinant(self):
        return tf.math.conj(self._operator.determinant()) if self.dtype.is_complex else self._operator.determinant()

    def _log_abs_determinant(self):
        return self._operator.log_abs_determinant()

    def _trace(self):
        return tf.math.conj(self._operator.trace()) if self.dtype.is_complex else self._operator.trace()

    def _diag_part(self):
        d = self._operator.diag_part()
        return tf.math.conj(d) if self.dtype.is_complex else d

    def _to_dense(self):
        return tf.linalg.adjoint(self._operator.to_dense())

    def _adjoint(self):
        return self._operator


class LinearOperatorInversion(LinearOperator):
    """The inverse of a square, non-singular `operator`: matmul is its solve and solve its matmul."""

    def __init__(self, operator, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name=None):
        if operator.is_non_singular is False or is_non_singular is False:
            raise ValueError(f"operator and supplied hints must be non-singular. Found: operator.is_non_singular "
                             f"= {operator.is_non_singular}, is_non_singular = {is_non_singular}.")
        if operator.is_square is False or is_square is False:
            raise ValueError(f"operator and supplied hints must be square. Found: operator.is_square = "
                             f"{operator.is_square}, is_square = {is_square}.")
        self._operator = operator
        super().__init__(operator.dtype, is_non_singular=_hint_or(is_non_singular, operator.is_non_singular),
                         is_self_adjoint=_hint_or(is_self_adjoint, operator.is_self_adjoint),
                         is_positive_definite=_hint_or(is_positive_definite, operator.is_positive_definite),
                         is_square=True, name=name or operator.name + "_inv", parameters={"operator": operator})

    @property
    def operator(self):
        return self._operator

    def _shape(self):
        return self._operator.shape

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return self._operator.solve(x, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self._operator.matmul(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _determinant(self):
        return 1.0 / self._operator.determinant()

    def _log_abs_determinant(self):
        return -self._operator.log_abs_determinant()

    def _inverse(self):
        return self._operator


__all__ = ["LinearOperatorAdjoint", "LinearOperatorInversion"]
