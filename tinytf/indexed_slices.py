"""tf.IndexedSlices: rows `values` of a tensor of shape `dense_shape` at `indices` along its first dimension
(what Variable.scatter_update/scatter_add take, and what TF's gradient of a gather is). A composite: it can be
returned from a tf.function and passed into one (keyed by its IndexedSlicesSpec)."""

from __future__ import annotations

from tinytf.runtime import dtypes, shapes
from tinytf.runtime.dispatch import convert_to_tensor
from tinytf.runtime.ops.indexed_rows import IndexedRows
from tinytf.runtime.ops.segment import unsorted_segment_sum
from tinytf.runtime.ops.shape_args import static_shape_value
from tinytf.runtime.shapes import TensorShape

from .composite import CompositeTensor, TypeSpec, shape_repr
from .tensor_spec import TensorSpec


class IndexedSlices(CompositeTensor):
    """A sparse set of rows: `dense[indices[i]] = values[i]`; converts to a dense tensor where a tensor is needed
    (repeated indices add up, as TF's conversion does)."""

    __slots__ = ("values", "indices", "dense_shape")

    def __init__(self, values, indices, dense_shape=None):
        self.values = convert_to_tensor(values)
        self.indices = convert_to_tensor(indices)
        self.dense_shape = None if dense_shape is None else convert_to_tensor(dense_shape)

    @property
    def dtype(self):
        return self.values.dtype

    @property
    def shape(self):
        if self.dense_shape is None:
            rows = self.values._shape
            return TensorShape(None if rows is None else (None,) + tuple(rows[1:]))

        return TensorShape(static_shape_value(self.dense_shape))

    @property
    def device(self) -> str:
        return self.values.device

    def _to_tensor(self):
        if self.dense_shape is None:
            raise ValueError("an IndexedSlices without dense_shape cannot be converted to a tensor")
        return unsorted_segment_sum(self.values, self.indices, self.dense_shape[0])

    def __neg__(self):
        return IndexedSlices(-self.values, self.indices, self.dense_shape)

    # --- the composite protocol ----------------------------------------------------------------------------
    @property
    def _type_spec(self) -> IndexedSlicesSpec:
        return IndexedSlicesSpec(self.shape, self.dtype, self.indices.dtype,
                                 None if self.dense_shape is None else self.dense_shape.dtype,
                                 self.indices._shape)

    def _to_components(self) -> list:
        parts = [self.values, self.indices]
        return parts if self.dense_shape is None else parts + [self.dense_shape]

    def __str__(self):  # TF defines only str (its parts as str() shows tensors); repr is the object default
        dense = "" if self.dense_shape is None else f", dense_shape={self.dense_shape!s}"
        return f"IndexedSlices(indices={self.indices!s}, values={self.values!s}{dense})"


class IndexedSlicesSpec(TypeSpec):
    """`tf.IndexedSlicesSpec(shape, dtype, indices_dtype, dense_shape_dtype, indices_shape)`."""

    __slots__ = ("_shape", "_dtype", "_indices_dtype", "_dense_shape_dtype", "_indices_shape")
    value_type = IndexedSlices

    def __init__(self, shape=None, dtype=dtypes.float32, indices_dtype=dtypes.int64, dense_shape_dtype=None,
                 indices_shape=None):
        self._shape = shapes.as_shape(shape)
        self._dtype = dtypes.as_dtype(dtype)
        self._indices_dtype = dtypes.as_dtype(indices_dtype)
        self._dense_shape_dtype = None if dense_shape_dtype is None else dtypes.as_dtype(dense_shape_dtype)
        self._indices_shape = shapes.as_shape(indices_shape) if indices_shape is not None else (None,)

    @property
    def shape(self) -> TensorShape:
        return TensorShape(self._shape)

    @property
    def dtype(self):
        return self._dtype

    def _serialize(self) -> tuple:
        return (self._shape, self._dtype.name, self._indices_dtype.name,
                None if self._dense_shape_dtype is None else self._dense_shape_dtype.name, self._indices_shape)

    @property
    def _component_specs(self) -> list:
        rows = None if self._shape is None else (None,) + tuple(self._shape[1:])
        rank = None if self._shape is None else len(self._shape)
        specs = [TensorSpec(rows, self._dtype), TensorSpec(self._indices_shape, self._indices_dtype)]
        if self._dense_shape_dtype is not None:
            specs.append(TensorSpec((rank,), self._dense_shape_dtype))
        return specs

    def _from_components(self, components) -> IndexedSlices:
        values, indices, *rest = components
        return IndexedSlices(values, indices, rest[0] if rest else None)

    def __repr__(self):
        dense = "None" if self._dense_shape_dtype is None else f"tf.{self._dense_shape_dtype.name}"
        return (f"IndexedSlicesSpec({shape_repr(self._shape)}, tf.{self._dtype.name}, tf.{self._indices_dtype.name}, "
                f"{dense}, {shape_repr(self._indices_shape)})")


def as_indexed_slices(gradient):
    """The face of a sparse gradient from the backward walk (IndexedRows): tf.IndexedSlices; others unchanged."""
    if isinstance(gradient, IndexedRows):
        return IndexedSlices(gradient.values, gradient.indices, gradient.dense_shape)
    return gradient
