"""tf.TensorArraySpec: the TypeSpec of a TensorArray (element shape, dtype, dynamic_size, infer_shape), as TF
reports it for `tf.type_spec_from_value(ta)` and compares it. TF 2.21 accepts no TensorArraySpec in an
input_signature (its TensorArray arguments flatten to a variant tensor there), and neither does tinytf."""

from __future__ import annotations

from tinytf.runtime import dtypes, shapes
from tinytf.runtime.ops.tensor_array import TensorArray
from tinytf.runtime.shapes import TensorShape

from .type_spec_base import TypeSpec


class TensorArraySpec(TypeSpec):
    """`tf.TensorArraySpec(element_shape=None, dtype=tf.float32, dynamic_size=False, infer_shape=True)`."""

    __slots__ = ("_element_shape", "_dtype", "_dynamic_size", "_infer_shape")
    value_type = TensorArray

    def __init__(self, element_shape=None, dtype=dtypes.float32, dynamic_size=False, infer_shape=True):
        self._element_shape = shapes.as_shape(element_shape)
        self._dtype = dtypes.as_dtype(dtype)
        self._dynamic_size = dynamic_size
        self._infer_shape = infer_shape

    @classmethod
    def from_value(cls, value) -> TensorArraySpec:
        if not isinstance(value, TensorArray):
            raise TypeError(f"Expected value to be a TensorArray, but got: `{type(value)}`")
        return cls(value._element_shape, value.dtype, value.dynamic_size, value._infer_shape)

    def _serialize(self) -> tuple:
        return (TensorShape(self._element_shape), self._dtype, self._dynamic_size, self._infer_shape)

    def is_compatible_with(self, other) -> bool:
        """Same dtype and dynamic_size, and element shapes that can agree (as TF's TensorArraySpec)."""
        if isinstance(other, TensorArray):
            other = TensorArraySpec.from_value(other)
        return (type(other) is type(self) and other._dtype is self._dtype
                and other._dynamic_size == self._dynamic_size
                and shapes.compatible(self._element_shape, other._element_shape))

    def most_specific_common_supertype(self, others):
        """The spec of the dtype and dynamic_size all share, with their most specific common element shape,
        inferring shapes only if all do; None when dtypes or dynamic sizes differ."""
        if any(type(o) is not type(self) or o._dtype is not self._dtype or o._dynamic_size != self._dynamic_size
               for o in others):
            return None
        shape = self._element_shape
        for o in others:
            shape = shapes.most_specific_common(shape, o._element_shape)
        return TensorArraySpec(shape, self._dtype, self._dynamic_size,
                               self._infer_shape and all(o._infer_shape for o in others))

    def __repr__(self):
        return (f"TensorArraySpec({TensorShape(self._element_shape)!r}, tf.{self._dtype.name}, {self._dynamic_size}, "
                f"{self._infer_shape})")
