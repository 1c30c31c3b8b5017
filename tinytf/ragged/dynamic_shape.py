"""`tf.experimental.DynamicRaggedShape`: the shape of a RaggedTensor (what tf.shape gives for one), as a list of
RowPartitions (one per ragged dimension) and the inner shape (the flat values' shape). `shape[i]` answers a
uniform dimension and raises ValueError for a ragged one; `shape[:k]` is the shape of the outer k dimensions;
tf.reshape, tf.zeros, tf.ones and tf.fill given one build a RaggedTensor of that shape (ragged/shape_ops.py)."""

from __future__ import annotations

import numpy as np

from tinytf.runtime import dtypes
from tinytf.runtime.dispatch import convert_to_tensor
from tinytf.runtime.ops import array as _a
from tinytf.runtime.ops.math import cast
from tinytf.runtime.tensor import EagerTensor, Tensor

from .ragged_tensor import RaggedTensor
from .row_partition import RowPartition


class DynamicRaggedShape:
    """DynamicRaggedShape(row_partitions, inner_shape, dtype=None): dimension 0 has row_partitions[0].nrows()
    rows (or inner_shape[0] without partitions); partition i cuts dimension i+1; inner_shape[0] counts the values
    the last partition cuts and inner_shape[1:] are the uniform inner dimensions."""

    def __init__(self, row_partitions, inner_shape, dtype=None, validate=False, static_inner_shape=None):
        row_partitions = list(row_partitions)
        if dtype is None:
            dtype = row_partitions[0].dtype if row_partitions else (
                inner_shape.dtype if isinstance(inner_shape, Tensor) else dtypes.int64)
        self._dtype = dtypes.as_dtype(dtype)
        if self._dtype not in (dtypes.int32, dtypes.int64):
            raise ValueError(f"dtype must be tf.int32 or tf.int64, got {self._dtype.name}")
        self._partitions = [p.with_dtype(self._dtype) for p in row_partitions]
        inner = convert_to_tensor(inner_shape, dtype_hint=self._dtype)
        self._inner_shape = inner if inner.dtype is self._dtype else cast(inner, self._dtype)
        if self._inner_shape._shape is not None and len(self._inner_shape._shape) != 1:
            raise ValueError(f"inner_shape must be a vector, got shape {list(self._inner_shape._shape)}")
        if static_inner_shape is None and isinstance(self._inner_shape, EagerTensor):
            static_inner_shape = [int(v) for v in self._inner_shape.numpy()]
        self._static_inner = None if static_inner_shape is None else list(static_inner_shape)
        if self._partitions and not self._inner_rank():
            raise ValueError("inner_shape must have rank at least 1 when there are row partitions")

    # --- construction ---------------------------------------------------------------------------------------
    @classmethod
    def from_tensor(cls, t, dtype=None) -> DynamicRaggedShape:
        """The shape of a Tensor or RaggedTensor."""
        dtype = dtypes.as_dtype(dtype) if dtype is not None else (
            t.row_splits_dtype if isinstance(t, RaggedTensor) else dtypes.int32)
        if isinstance(t, RaggedTensor):
            partitions, level = [], t
            while isinstance(level, RaggedTensor):
                partitions.append(level._row_partition())
                level = level.values
            flat = t.flat_values
        else:
            partitions, flat = [], convert_to_tensor(t)
        static = None if flat._shape is None else list(flat._shape)
        return cls(partitions, _a.shape(flat, out_type=dtype), dtype=dtype, static_inner_shape=static)

    @classmethod
    def from_lengths(cls, lengths, num_row_partitions=None, dtype=dtypes.int64) -> DynamicRaggedShape:
        """From [nrows, (row lengths) or an int per dimension, ...]: a tuple or list of lengths makes a ragged
        dimension; an int after the first ragged one makes a uniform partition (TF keeps those as partitions up
        to the last ragged dimension, or up to `num_row_partitions`)."""
        lengths = list(lengths)
        if not lengths:
            return cls([], convert_to_tensor(np.zeros([0], np.int64)), dtype=dtype)
        if isinstance(lengths[0], (list, tuple)):
            raise ValueError("First element of lengths must be an int, not a list of row lengths")
        last_ragged = max((i for i, v in enumerate(lengths) if isinstance(v, (list, tuple))), default=0)
        n_partitions = last_ragged if num_row_partitions is None else num_row_partitions
        if n_partitions < last_ragged:
            raise ValueError(f"num_row_partitions={num_row_partitions} is too small for the ragged dimension "
                             f"{last_ragged}")
        dtype = dtypes.as_dtype(dtype)
        partitions, count = [], int(lengths[0])
        for i in range(1, n_partitions + 1):
            length = lengths[i]
            if isinstance(length, (list, tuple)):
                if len(length) != count:
                    raise ValueError(f"lengths[{i}] has {len(length)} row lengths for {count} rows")
                partitions.append(RowPartition.from_row_lengths(np.asarray(length, dtype.np)))
                count = int(np.sum(length))
            else:
                partitions.append(RowPartition.from_uniform_row_length(np.asarray(length, dtype.np), nrows=count))
                count *= int(length)
        inner = [count] + [int(v) for v in lengths[n_partitions + 1:]]
        return cls(partitions, np.asarray(inner, dtype.np), dtype=dtype)

    # --- queries --------------------------------------------------------------------------------------------
    @property
    def dtype(self):
        return self._dtype

    @property
    def row_partitions(self) -> tuple:
        return tuple(self._partitions)

    @property
    def inner_shape(self) -> Tensor:
        return self._inner_shape

    @property
    def num_row_partitions(self) -> int:
        return len(self._partitions)

    def _inner_rank(self):
        shape = self._inner_shape._shape
        return None if shape is None or shape[0] is None else shape[0]

    @property
    def rank(self):
        inner = self._inner_rank()
        return None if inner is None else inner + self.num_row_partitions

    def with_dtype(self, dtype) -> DynamicRaggedShape:
        return DynamicRaggedShape(self._partitions, self._inner_shape, dtype=dtype,
                                  static_inner_shape=self._static_inner)

    def is_uniform(self, axis) -> bool:
        axis = self._axis(axis)
        return axis == 0 or axis > self.num_row_partitions or self._partitions[axis - 1].is_uniform()

    def _nrows_static(self):
        if self._partitions:
            p = self._partitions[0]
            if p.static_nrows is not None:
                return p.static_nrows
            splits = p.row_splits()
            return len(splits.numpy()) - 1 if isinstance(splits, EagerTensor) else None
        return None if not self._static_inner else self._static_inner[0]

    def static_lengths(self, ragged_lengths=True) -> list:
        """[rows, per partition its uniform length or (row lengths), inner dims]; None where unknown."""
        out = [self._nrows_static()]
        for p in self._partitions:
            if p.is_uniform() and p.static_uniform_row_length is not None:
                out.append(int(p.static_uniform_row_length))
            elif ragged_lengths and isinstance(p.row_splits(), EagerTensor):
                out.append(tuple(int(v) for v in p.row_lengths().numpy()))
            else:
                out.append(None)
        inner = self._static_inner
        if inner is None:
            rank = self._inner_rank()
            inner = [None] * (rank or 0)
        # without partitions the inner shape is the whole shape, its first entry the row count
        return out + list(inner[1:])

    def _axis(self, index: int) -> int:
        rank = self.rank
        if index < 0:
            if rank is None:
                raise ValueError("Rank must be known to use __getitem__ with a negative index.")
            index += rank
            if index < 0:
                raise IndexError(f"Index must be non-negative: {index}")
        if rank is not None and index >= rank:
            raise IndexError(f"Expected axis={index} < rank={rank}" if index == rank
                             else f"Index is too big: {index}>={rank}")
        return index

    def __getitem__(self, index):
        if isinstance(index, slice):
            return self._slice(index)
        if isinstance(index, EagerTensor) or isinstance(index, np.integer):
            index = int(index)
        if not isinstance(index, int):
            raise TypeError(f"DynamicRaggedShape indices must be ints or slices, got {type(index).__name__}")
        index = self._axis(index)
        if index == 0:
            return self._partitions[0].nrows() if self._partitions else self._inner_shape[0]
        if index <= self.num_row_partitions:
            partition = self._partitions[index - 1]
            if not partition.is_uniform():
                raise ValueError(f"Index {index} is not uniform")
            return partition.uniform_row_length()
        return self._inner_shape[index - self.num_row_partitions]

    def _slice(self, key: slice) -> DynamicRaggedShape:
        if key.step not in (None, 1):
            raise ValueError("DynamicRaggedShape slices cannot have a step")
        rank = self.rank
        if rank is None:
            raise ValueError("Rank must be known to slice a DynamicRaggedShape")
        start, stop, _ = key.indices(rank)
        stop = max(stop, start)
        if start > 0:
            if any(not self.is_uniform(a) for a in range(0, stop)):
                raise ValueError("All relevant dimensions must be uniform")
            dims = [self[a] for a in range(start, stop)]
            return DynamicRaggedShape([], _a.stack([cast(d, self._dtype) for d in dims]) if dims else
                                      np.zeros([0], self._dtype.np), dtype=self._dtype)
        if stop == 0:
            return DynamicRaggedShape([], np.zeros([0], self._dtype.np), dtype=self._dtype)
        k = self.num_row_partitions
        if stop - 1 <= k:  # a prefix ending inside the ragged dimensions
            kept = self._partitions[:stop - 1]
            count = kept[-1].nvals() if kept else self[0]
            static = None
            if isinstance(count, EagerTensor):
                static = [int(count.numpy())]
            return DynamicRaggedShape(kept, _a.reshape(count, [1]), dtype=self._dtype, static_inner_shape=static)
        inner = self._inner_shape[:stop - k]
        static = None if self._static_inner is None else self._static_inner[:stop - k]
        return DynamicRaggedShape(self._partitions, inner, dtype=self._dtype, static_inner_shape=static)

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
            return DynamicRaggedShape.from_tensor(input, dtypes.int32 if out_type is None else out_type)
        return fn(input, out_type=out_type, name=name) if out_type is not None else fn(input, name=name)

    shape.__name__, shape.__doc__, shape._ragged_dispatch = fn.__name__, fn.__doc__, True
    return shape
