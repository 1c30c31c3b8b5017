"""The static shape of a StructuredTensor as its Spec records it, printed as TF prints it: a
`DynamicRaggedShape.Spec` of one `RowPartitionSpec` per partitioned dimension (rank - 1 of them), the static
inner shape ([number of structures] for rank >= 1, [] for a scalar) and the partitions' dtype. The component
tensors it stands for are, as TF's: the inner shape vector, then each partition's row splits."""

from __future__ import annotations

from tinytf.runtime import dtypes
from tinytf.runtime.shapes import TensorShape

from ..composite import TypeSpec
from ..tensor_spec import TensorSpec


def _dim(value):
    """A static dimension as TensorShape([d]) so that tf.TypeSpec's merging relaxes it to None."""
    return TensorShape([value])


class RowPartitionSpec(TypeSpec):
    """Static facts of one RowPartition: its row count, value count, uniform row length (None when ragged)."""

    __slots__ = ("nrows", "nvals", "uniform_row_length", "dtype")

    def __init__(self, nrows=None, nvals=None, uniform_row_length=None, dtype=dtypes.int64):
        unwrap = (lambda v: v._dims[0] if isinstance(v, TensorShape) else v)
        self.nrows, self.nvals = unwrap(nrows), unwrap(nvals)
        self.uniform_row_length = unwrap(uniform_row_length)
        self.dtype = dtypes.as_dtype(dtype)

    def _serialize(self) -> tuple:
        return (_dim(self.nrows), _dim(self.nvals), _dim(self.uniform_row_length), self.dtype)

    @property
    def _component_specs(self) -> list:
        return [TensorSpec((None if self.nrows is None else self.nrows + 1,), self.dtype)]

    def __repr__(self):
        return (f"RowPartitionSpec(nrows={self.nrows}, nvals={self.nvals}, "
                f"uniform_row_length={self.uniform_row_length}, dtype=tf.{self.dtype.name})")


class RaggedShapeSpec(TypeSpec):
    """DynamicRaggedShape.Spec(row_partitions, static_inner_shape, dtype) of a StructuredTensor."""

    __slots__ = ("row_partitions", "static_inner_shape", "dtype")

    def __init__(self, row_partitions=(), static_inner_shape=None, dtype=dtypes.int64):
        self.row_partitions = tuple(row_partitions)
        self.static_inner_shape = TensorShape(static_inner_shape)
        self.dtype = dtypes.as_dtype(dtype)

    def _serialize(self) -> tuple:
        return (self.row_partitions, self.static_inner_shape, self.dtype)

    @property
    def rank(self) -> int:
        """The structures' rank: one dimension per partition, plus the inner shape's (0 for a scalar)."""
        return len(self.row_partitions) + self.static_inner_shape.rank

    @property
    def _component_specs(self) -> list:
        inner = TensorSpec((self.static_inner_shape.rank,), self.dtype)
        return [inner] + [s for p in self.row_partitions for s in p._component_specs]

    def __repr__(self):
        return (f"DynamicRaggedShape.Spec(row_partitions={self.row_partitions!r}, "
                f"static_inner_shape={self.static_inner_shape!r}, dtype=tf.{self.dtype.name})")
