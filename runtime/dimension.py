"""One dimension of a shape as TF's `Dimension` (tensorflow/python/framework/tensor_shape.py): what
`TensorShape.dims` lists and `tf.compat.v1.Dimension` makes. Internally shapes stay tuples of ints and Nones
(runtime/shapes.py); these objects are made only when a program asks for them."""

from __future__ import annotations


class Dimension:
    """`tf.compat.v1.Dimension`: one dimension of a TF1 TensorShape, an int >= 0 or unknown (None). Arithmetic
    with an unknown dimension is unknown; comparisons with one give None, as TF's."""

    __slots__ = ("_value",)

    def __init__(self, value):
        if isinstance(value, Dimension):
            value = value.value
        if value is None:
            self._value = None
            return
        if isinstance(value, bool) or not hasattr(value, "__index__"):
            raise TypeError(f"Dimension value must be integer or None or have an __index__ method, got value "
                            f"'{value!r}' with type '{type(value)!r}'")
        self._value = int(value.__index__())
        if self._value < 0:
            raise ValueError(f"Dimension {self._value} must be >= 0")

    @property
    def value(self):
        return self._value

    def __repr__(self):
        return f"Dimension({self._value!r})"

    def __str__(self):
        return "?" if self._value is None else str(self._value)

    def __int__(self):
        return self._value

    def __index__(self):
        return self._value

    def __eq__(self, other):
        other = _as_dimension(other)
        if other is NotImplemented:
            return NotImplemented
        if self._value is None or other._value is None:
            return None
        return self._value == other._value

    def __ne__(self, other):
        other = _as_dimension(other)
        if other is NotImplemented:
            return NotImplemented
        if self._value is None or other._value is None:
            return None
        return self._value != other._value

    __hash__ = None  # TF's Dimension is unhashable (it defines __eq__ only)

    def is_compatible_with(self, other) -> bool:
        other = Dimension(other)
        return self._value is None or other._value is None or self._value == other._value

    def assert_is_compatible_with(self, other) -> None:
        if not self.is_compatible_with(other):
            raise ValueError(f"Dimensions {self} and {Dimension(other)} are not compatible")

    def merge_with(self, other) -> Dimension:
        other = Dimension(other)
        self.assert_is_compatible_with(other)
        return Dimension(self._value if self._value is not None else other._value)

    def _combine(self, other, fn):
        other = _as_dimension(other)
        if other is NotImplemented:
            return NotImplemented
        if self._value is None or other._value is None:
            return Dimension(None)
        return Dimension(fn(self._value, other._value))

    def __add__(self, other):
        return self._combine(other, lambda a, b: a + b)

    def __radd__(self, other):
        return self._combine(other, lambda a, b: b + a)

    def __sub__(self, other):
        return self._combine(other, lambda a, b: a - b)

    def __rsub__(self, other):
        return self._combine(other, lambda a, b: b - a)

    def __mul__(self, other):
        return self._combine(other, lambda a, b: a * b)

    def __rmul__(self, other):
        return self._combine(other, lambda a, b: b * a)

    def __truediv__(self, other):
        raise TypeError(f"unsupported operand type(s) for /: 'Dimension' and '{type(other).__name__}', please use "
                        "// instead")

    def __floordiv__(self, other):
        return self._combine(other, lambda a, b: a // b)

    def __rfloordiv__(self, other):
        return self._combine(other, lambda a, b: b // a)

    def __mod__(self, other):
        return self._combine(other, lambda a, b: a % b)

    def __rmod__(self, other):
        return self._combine(other, lambda a, b: b % a)

    def _compare(self, other, fn):
        other = Dimension(other)
        if self._value is None or other._value is None:
            return None
        return fn(self._value, other._value)

    def __lt__(self, other):
        return self._compare(other, lambda a, b: a < b)

    def __le__(self, other):
        return self._compare(other, lambda a, b: a <= b)

    def __gt__(self, other):
        return self._compare(other, lambda a, b: a > b)

    def __ge__(self, other):
        return self._compare(other, lambda a, b: a >= b)

    def __reduce__(self):
        return Dimension, (self._value,)


def _as_dimension(value):
    try:
        return Dimension(value)
    except (TypeError, ValueError):
        return NotImplemented


def dimension_value(dimension):
    """A dimension as an int or None (a Dimension's `.value`; ints and None as they are)."""
    return dimension.value if isinstance(dimension, Dimension) else dimension


__all__ = ["Dimension", "dimension_value"]
