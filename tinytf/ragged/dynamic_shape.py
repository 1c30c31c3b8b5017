"""tf.shape of a RaggedTensor: a `tf.experimental.DynamicRaggedShape`, the row count, the row lengths of each ragged
dimension and the uniform inner dimensions. tinytf's has what code reads from it: its printed form, `rank`,
`num_row_partitions`, `dtype`, `static_lengths()` and `shape[i]` for a uniform dimension (the row count, or an
inner dimension), which raises ValueError for a ragged one, as TF's does. It is not a composite tensor: it
cannot be returned from a tf.function or given to tf.reshape/tf.zeros."""

from __future__ import annotations

from tinytf.runtime import dtypes
from tinytf.runtime.ops.array import shape as dense_shape
from tinytf.runtime.ops.math import cast
from tinytf.runtime.tensor import EagerTensor

from .ragged_tensor import RaggedTensor


class DynamicRaggedShape:
    """The shape of `rt`, with lengths as `dtype` (tf.shape's out_type, int32 by default, as TF)."""

    def __init__(self, rt: RaggedTensor, dtype=dtypes.int32):
        self._rt = rt
        self._dtype = dtypes.as_dtype(dtype)

    @property
    def dtype(self):
        return self._dtype

    @property
    def num_row_partitions(self) -> int:
        return self._rt.ragged_rank

    @property
    def rank(self):
        return self._rt.ndim

    def _inner(self) -> tuple:
        """The static dimensions of the flat values after their first (the uniform inner dimensions)."""
        shape = self._rt.flat_values._shape
        return () if shape is None else tuple(shape[1:])

    def static_lengths(self, ragged_lengths=True) -> list:
        """[rows, (lengths of each row) per ragged dimension, inner dims]; None where not known statically
        (inside a traced function the row lengths are values of the graph)."""
        out = [self._rt._static_shape()[0] if self._rt._static_shape() is not None else None]
        for splits in self._rt.nested_row_splits:
            if isinstance(splits, EagerTensor) and ragged_lengths:
                s = splits._value
                out.append(tuple(int(v) for v in s[1:] - s[:-1]))
            else:
                out.append(None)
        if out[0] is None and isinstance(self._rt.row_splits, EagerTensor):
            out[0] = len(self._rt.row_splits._value) - 1
        return out + list(self._inner())

    def __getitem__(self, index):
        rank = self.rank
        if not isinstance(index, int):
            raise TypeError(f"DynamicRaggedShape indices must be Python ints, got {type(index).__name__}")
        if index < 0:
            index += rank
            if index < 0:
                raise IndexError(f"Index must be non-negative: {index}")
        if index >= rank:
            raise IndexError(f"Expected axis={index} < rank={rank}" if index == rank
                             else f"Index is too big: {index}>={rank}")
        if index == 0:
            return cast(self._rt.nrows(), self._dtype)
        if index <= self.num_row_partitions:
            raise ValueError(f"Index {index} is not uniform")
        return dense_shape(self._rt.flat_values, out_type=self._dtype)[index - self.num_row_partitions]

    def __repr__(self):
        parts = []
        for length in self.static_lengths():
            parts.append("None" if length is None else
                         "(" + ", ".join(str(v) for v in length) + ")" if isinstance(length, tuple) else str(length))
        return f"<DynamicRaggedShape lengths=[{', '.join(parts)}] num_row_partitions={self.num_row_partitions}>"


def shape_dispatching(fn):
    """tf.shape that answers a DynamicRaggedShape for a RaggedTensor."""
    if getattr(fn, "_ragged_dispatch", False):
        return fn

    def shape(input, out_type=None, name=None):
        if isinstance(input, RaggedTensor):
            return DynamicRaggedShape(input, dtypes.int32 if out_type is None else out_type)
        return fn(input, out_type=out_type, name=name) if out_type is not None else fn(input, name=name)

    shape.__name__, shape.__doc__, shape._ragged_dispatch = fn.__name__, fn.__doc__, True
    return shape
