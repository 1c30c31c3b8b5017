"""Python operators on tensors (`x + 1`, `a @ b`, `x[1:, None]`), installed on the Tensor base class.

Each operator dispatches through the registry like `tf.add`. The common eager case (two tensors of one
dtype, or a tensor and a Python scalar) takes a fast path that applies the Python operator to the numpy
values directly: numpy scalars with Python operators cost about a tenth of a ufunc call."""

from __future__ import annotations

import operator

from .. import dtypes, numpy_errors, shapes
from ..context import shared, state
from ..dispatch import convert_to_tensor
from ..errors import OperatorNotAllowedInGraphError, at_user_line
from ..graph import SymbolicTensor
from ..tensor import EagerTensor, Tensor
from . import math as m
from .indexing import getitem
from .linalg import matmul

_new = object.__new__
_run_quietly = numpy_errors.run
_BOOL = dtypes.bool_


def _fast_binary(python_op, slow, out_bool=False, floats_only=False, divides=False):
    """An operator method: numpy fast path when eager and untaped, else the registered op via `slow`."""

    def method(self, other):
        if not shared.busy or (state.graph is None and not state.tapes and not state.numeric_checks
                                and not shared.op_observers):  # plain eager
            kind = type(other)
            dtype = self.dtype
            if kind is EagerTensor:
                # the op checks for zero; strings (kept 0-d arrays), complex numbers (unordered) and quantized
                # types (no arithmetic) go to the op
                ok = other.dtype is dtype and dtype.is_numeric and not (divides and dtype.is_integer)
                value = other._value
            elif kind is float:
                ok = dtype.is_floating
                value = other
            elif kind is int:
                ok = dtype.is_floating or (dtype.is_integer and (other != 0 or not divides))
                value = other
            else:
                ok = False
            if ok and not dtype.is_bool and (dtype.is_floating or not floats_only):
                try:  # under tinytf's numpy error state (comparisons never warn)
                    result_value = python_op(self._value, value) if out_bool else _run_quietly(
                        python_op, self._value, value)
                except (ValueError, TypeError, ArithmeticError, AttributeError, RuntimeError):
                    # the registered op raises the proper error, handles a symbolic `self`, or (RuntimeError)
                    # computes quietly where the fast path's context was refused (see numpy_errors.run)
                    pass
                else:
                    result = _new(EagerTensor)
                    result._value = result_value
                    result.dtype = _BOOL if out_bool else dtype
                    return result
        if getattr(other, "_overrides_tensor_operators", False):
            return NotImplemented  # a composite (RaggedTensor) operand: Python asks its reflected operator
        return slow(self, other)

    return method


def _reflected(python_op):
    return lambda a, b: python_op(b, a)


def _swap(fn):
    return lambda self, other: fn(other, self)


def _logical_or_bitwise(logical, bitwise):
    def apply_op(x, y):
        x_is_bool = getattr(x, "dtype", None) is _BOOL or isinstance(x, bool)
        return (logical if x_is_bool else bitwise)(x, y)

    return apply_op


def _equality(op, self, other, if_unbroadcastable):
    """TF's `tensor == other`: elementwise; shapes that cannot broadcast give one bool tensor (TF passes
    incompatible_shape_error=False); a different dtype raises like any other op."""
    try:
        return op(self, other)
    except (TypeError, ValueError):
        if not _shapes_clash(self, other):
            raise
        return convert_to_tensor(if_unbroadcastable)


def _shapes_clash(x, other) -> bool:
    """True when `other` has x's dtype but a shape that cannot broadcast against x's."""
    try:
        other = other if isinstance(other, Tensor) else convert_to_tensor(other, x.dtype)
    except (TypeError, ValueError):
        return False
    if other.dtype is not x.dtype:
        return False
    try:
        shapes.broadcast(x._shape, other._shape)
    except ValueError:
        return True
    return False


class TensorEquality:
    """TF2's elementwise `==` on tensors and variables, or TF1's identity comparison
    (tf.compat.v1.disable_tensor_equality / enable_tensor_equality switch it, for the whole program, as TF)."""

    enabled = True


def _eq(self, other):
    if not TensorEquality.enabled:
        return self is other
    if other is None:
        return False
    return _equality(m.equal, self, other, False)


def _ne(self, other):
    if not TensorEquality.enabled:
        return self is not other
    if other is None:
        return True
    return _equality(m.not_equal, self, other, True)


def _unhashable(self):
    raise TypeError("Tensor is unhashable. Instead, use tensor.ref() as the key.")


def _symbolic_bool(self):
    # TF's first sentence (programs match on it), then which tensor, the user's line (this happens in code
    # AutoGraph did not convert, so no "in user code" frames) and the fix
    raise OperatorNotAllowedInGraphError(at_user_line(
        f"Using a symbolic `tf.Tensor` as a Python `bool` is not allowed: the symbolic tensor {self.name} has "
        "no value while tracing a tf.function. Use tf.cond / tf.while_loop, or write the Python `if`/`while` "
        "inside a function converted by AutoGraph (the default of @tf.function)."))


def _symbolic_iter(self):
    raise OperatorNotAllowedInGraphError(at_user_line(
        f"Iterating over a symbolic `tf.Tensor` is not allowed: the symbolic tensor {self.name} has no value "
        "while tracing. A `for` loop over the tensor itself (in a function AutoGraph converts) is a graph loop; "
        "Python iteration is not (unpacking, comprehensions, zip, enumerate, map: as in TensorFlow). Use "
        "tf.range / tf.while_loop / tf.unstack, or index the tensor."))


def _symbolic_index(self):
    raise TypeError(f"The symbolic tensor {self.name} cannot be used as a Python integer while tracing; "
                    "index with the tensor directly (x[t]) or use tf.gather.")


def _getitem(self, key):
    return getitem(self, key)


def _matmul(self, other):
    return matmul(self, other)


def _rmatmul(self, other):
    return matmul(other, self)


class _Ref:
    """A hashable reference to a tensor (`tensor.ref()`), compared by identity."""

    __slots__ = ("_tensor",)

    def __init__(self, tensor):
        self._tensor = tensor

    def deref(self):
        return self._tensor

    def __hash__(self):
        return id(self._tensor)

    def __eq__(self, other):
        return isinstance(other, _Ref) and other._tensor is self._tensor

    def __repr__(self):
        return f"<Reference wrapping {self._tensor!r}>"


def install():
    """Attach operators and methods to Tensor (once, at import)."""
    T = Tensor
    and_ = _logical_or_bitwise(m.logical_and, lambda x, y: m.binary(m.bitwise_and_op, x, y))
    or_ = _logical_or_bitwise(m.logical_or, lambda x, y: m.binary(m.bitwise_or_op, x, y))
    xor_ = _logical_or_bitwise(m.logical_xor, lambda x, y: m.binary(m.bitwise_xor_op, x, y))
    T.__add__ = _fast_binary(operator.add, m.add_operator)
    T.__radd__ = _fast_binary(_reflected(operator.add), _swap(m.add_reflected_operator))
    T.__sub__ = _fast_binary(operator.sub, m.subtract_operator)
    T.__rsub__ = _fast_binary(_reflected(operator.sub), _swap(m.subtract_operator))
    T.__mul__ = _fast_binary(operator.mul, m.multiply_operator)
    T.__rmul__ = _fast_binary(_reflected(operator.mul), _swap(m.multiply_operator))
    T.__truediv__ = _fast_binary(operator.truediv, m.divide, floats_only=True)
    T.__rtruediv__ = _fast_binary(_reflected(operator.truediv), _swap(m.divide), floats_only=True)
    T.__floordiv__ = _fast_binary(operator.floordiv, m.floordiv, divides=True)
    T.__rfloordiv__ = _fast_binary(_reflected(operator.floordiv), _swap(m.floordiv), divides=True)
    T.__mod__ = _fast_binary(operator.mod, m.floormod_operator, divides=True)
    T.__rmod__ = _fast_binary(_reflected(operator.mod), _swap(m.floormod_operator), divides=True)
    T.__pow__ = _fast_binary(operator.pow, m.pow_operator)
    T.__rpow__ = _fast_binary(_reflected(operator.pow), _swap(m.pow_operator))
    T.__lt__ = _fast_binary(operator.lt, m.less, out_bool=True)
    T.__le__ = _fast_binary(operator.le, m.less_equal, out_bool=True)
    T.__gt__ = _fast_binary(operator.gt, m.greater, out_bool=True)
    T.__ge__ = _fast_binary(operator.ge, m.greater_equal, out_bool=True)
    T.__eq__ = _eq
    T.__ne__ = _ne
    T.__hash__ = _unhashable
    T.__and__ = and_
    T.__rand__ = _swap(and_)
    T.__or__ = or_
    T.__ror__ = _swap(or_)
    T.__xor__ = xor_
    T.__rxor__ = _swap(xor_)
    T.__invert__ = lambda self: m.logical_not(self) if self.dtype is _BOOL else m.apply(m.invert_op, (self,))
    T.__neg__ = m.negative
    T.__abs__ = m.abs
    T.__getitem__ = _getitem
    T.__matmul__ = _matmul
    T.__rmatmul__ = _rmatmul
    T.ref = lambda self: _Ref(self)
    T.experimental_ref = T.ref
    SymbolicTensor.__bool__ = _symbolic_bool
    SymbolicTensor.__iter__ = _symbolic_iter
    SymbolicTensor.__index__ = _symbolic_index


install()
