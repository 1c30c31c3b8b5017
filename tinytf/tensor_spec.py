"""tf.TensorSpec: the dtype and (partial) shape of a tensor argument, for input signatures."""

from __future__ import annotations

from tinytf.runtime import dtypes, shapes
from tinytf.runtime.shapes import TensorShape


class TensorSpec:
    """Describes a tensor: `tf.TensorSpec([None, 3], tf.float32)`."""

    __slots__ = ("_shape", "dtype", "name")

    def __init__(self, shape, dtype=dtypes.float32, name=None):
        self._shape = shapes.as_shape(shape)
        self.dtype = dtypes.as_dtype(dtype)
        self.name = name

    @property
    def shape(self) -> TensorShape:
        return TensorShape(self._shape)

    @classmethod
    def from_tensor(cls, tensor, name=None):
        return cls(tensor._shape, tensor.dtype, name)

    @classmethod
    def from_spec(cls, spec, name=None):
        """A TensorSpec with the shape and dtype of `spec` (any spec with both) and `name` (else spec's name)."""
        return cls(spec.shape, spec.dtype, name if name is not None else getattr(spec, "name", None))

    def is_compatible_with(self, other) -> bool:
        dtype = getattr(other, "dtype", None)
        shape = getattr(other, "_shape", None) if not isinstance(other, TensorSpec) else other._shape
        return dtype is self.dtype and shapes.is_subshape(shape, self._shape)

    def __eq__(self, other):
        return isinstance(other, TensorSpec) and (self._shape, self.dtype, self.name) == (
            other._shape, other.dtype, other.name)

    def __hash__(self):
        return hash((self._shape, self.dtype.name, self.name))

    def __repr__(self):
        return f"TensorSpec(shape={TensorShape(self._shape)}, dtype=tf.{self.dtype.name}, name={self.name!r})"
