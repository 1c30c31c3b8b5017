"""tf.sparse.SparseTensor and tf.SparseTensorSpec: a tensor stored as the coordinates and values of its
non-default entries plus its dense shape."""

from __future__ import annotations

import numpy as np

from tinytf.runtime import dtypes, shapes
from tinytf.runtime.dispatch import convert_to_tensor
from tinytf.runtime.ops.static_value import constant_value
from tinytf.runtime.shapes import TensorShape
from tinytf.runtime.tensor import Tensor

from ..composite import CompositeTensor, TypeSpec, shape_repr
from ..tensor_spec import TensorSpec


def _static_dense_shape(dense_shape: Tensor):
    known = constant_value(dense_shape)
    if known is not None:
        return tuple(int(d) for d in np.asarray(known))
    rank = None if dense_shape._shape is None else dense_shape._shape[0]
    return None if rank is None else (None,) * rank


class SparseTensor(CompositeTensor):
    """`tf.sparse.SparseTensor(indices, values, dense_shape)`: indices [N, rank] int64, values [N],
    dense_shape [rank] int64. Entries should be in row-major order (tf.sparse.reorder puts them there)."""

    __slots__ = ("_indices", "_values", "_dense_shape", "_shape")

    def __init__(self, indices, values, dense_shape):
        indices = convert_to_tensor(indices, dtype_hint=dtypes.int64)
        if indices.dtype is not dtypes.int64:
            from tinytf.runtime.ops.math import cast

            indices = cast(indices, dtypes.int64)
        values = convert_to_tensor(values)
        dense_shape = convert_to_tensor(dense_shape, dtype_hint=dtypes.int64)
        if dense_shape.dtype is not dtypes.int64:
            from tinytf.runtime.ops.math import cast

            dense_shape = cast(dense_shape, dtypes.int64)
        if indices._shape is not None and len(indices._shape) != 2:
            raise ValueError(f"SparseTensor: indices must be a matrix [N, rank], got shape {list(indices._shape)}")
        if values._shape is not None and len(values._shape) != 1:
            raise ValueError(f"SparseTensor: values must be a vector [N], got shape {list(values._shape)}")
        if dense_shape._shape is not None and len(dense_shape._shape) != 1:
            raise ValueError(f"SparseTensor: dense_shape must be a vector, got shape {list(dense_shape._shape)}")
        self._indices, self._values, self._dense_shape = indices, values, dense_shape
        self._shape = _static_dense_shape(dense_shape)

    @classmethod
    def _make(cls, indices, values, dense_shape, static_shape) -> SparseTensor:
        sp = object.__new__(cls)
        sp._indices, sp._values, sp._dense_shape = indices, values, dense_shape
        known = _static_dense_shape(dense_shape)
        sp._shape = known if known is not None and None not in known else static_shape
        return sp

    @classmethod
    def from_value(cls, value) -> SparseTensor:
        return value

    @property
    def indices(self) -> Tensor:
        return self._indices

    @property
    def values(self) -> Tensor:
        return self._values

    @property
    def dense_shape(self) -> Tensor:
        return self._dense_shape

    @property
    def dtype(self):
        return self._values.dtype

    @property
    def shape(self) -> TensorShape:
        return TensorShape(self._shape)

    def get_shape(self) -> TensorShape:
        return self.shape

    def set_shape(self, shape) -> None:
        """Refine the static dense shape with `shape` (TF's ValueError when they are not compatible)."""
        self._shape = self.shape.merge_with(TensorShape(shape) if not isinstance(shape, TensorShape) else shape)._dims

    @property
    def _type_spec(self) -> SparseTensorSpec:
        return SparseTensorSpec(self._shape, self.dtype)

    def with_values(self, new_values) -> SparseTensor:
        """The same positions holding `new_values`."""
        return SparseTensor._make(self._indices, convert_to_tensor(new_values), self._dense_shape, self._shape)

    def _to_components(self) -> list:
        return [self._indices, self._values, self._dense_shape]

    def __repr__(self):
        return f"SparseTensor(indices={self._indices!s}, values={self._values!s}, dense_shape={self._dense_shape!s})"

    __str__ = __repr__

    def __neg__(self):
        return self.with_values(-self._values)

    # `sp * dense` and `sp / dense` are sparse/ops.py's mul_dense and div_dense, installed there (they build
    # SparseTensors, so this class does not import them)


class SparseTensorSpec(TypeSpec):
    """`tf.SparseTensorSpec(shape, dtype)`: the type of a SparseTensor (its dense shape, maybe partial)."""

    __slots__ = ("_shape", "_dtype")
    value_type = SparseTensor

    def __init__(self, shape=None, dtype=dtypes.float32):
        self._shape = shapes.as_shape(shape)
        self._dtype = dtypes.as_dtype(dtype)

    @property
    def shape(self) -> TensorShape:
        return TensorShape(self._shape)

    @property
    def dtype(self):
        return self._dtype

    @classmethod
    def from_value(cls, value) -> SparseTensorSpec:
        return value._type_spec

    def _serialize(self) -> tuple:
        return (self._shape, self._dtype.name)

    @property
    def _component_specs(self) -> list:
        rank = None if self._shape is None else len(self._shape)
        return [TensorSpec((None, rank), dtypes.int64), TensorSpec((None,), self._dtype),
                TensorSpec((rank,), dtypes.int64)]

    def _from_components(self, components) -> SparseTensor:
        indices, values, dense_shape = components
        return SparseTensor._make(indices, values, dense_shape, self._shape)

    def __repr__(self):
        return f"SparseTensorSpec({shape_repr(self._shape)}, tf.{self._dtype.name})"
