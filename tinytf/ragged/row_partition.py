"""`tf.experimental.RowPartition`: how a flat sequence of values is cut into rows, held as row splits (and, for
a uniform partition, its row length). DynamicRaggedShape keeps one per ragged dimension."""

from __future__ import annotations

import numpy as np

from tinytf.runtime import dtypes
from tinytf.runtime.dispatch import convert_to_tensor
from tinytf.runtime.errors import InvalidArgumentError
from tinytf.runtime.ops import array as _a
from tinytf.runtime.ops import indexing as _i
from tinytf.runtime.ops import math as _m
from tinytf.runtime.ops import reduce as _r
from tinytf.runtime.tensor import EagerTensor, Tensor

from .more import row_splits_to_segment_ids, segment_ids_to_row_splits


def _partition_tensor(value, dtype, dtype_hint, what: str) -> Tensor:
    t = convert_to_tensor(value, dtype_hint=dtypes.as_dtype(dtype or dtype_hint or dtypes.int64))
    if not t.dtype.is_integer:
        raise ValueError(f"{what} must be an integer tensor, got {t.dtype.name}")
    target = dtypes.as_dtype(dtype) if dtype is not None else (t.dtype if t.dtype in (dtypes.int32, dtypes.int64)
                                                                 else dtypes.int64)
    if target not in (dtypes.int32, dtypes.int64):
        raise ValueError(f"dtype must be tf.int32 or tf.int64, got {target.name}")
    return t if t.dtype is target else _m.cast(t, target)


def _zero_first(lengths: Tensor) -> Tensor:
    zero = convert_to_tensor(np.zeros([1], lengths.dtype.np))
    return _a.concat([zero, _r.cumsum(lengths)], 0)


class RowPartition:
    """Rows over `nvals` values: row i holds values[row_splits[i]:row_splits[i+1]]. Build it with a `from_*`
    class method."""

    __slots__ = ("_row_splits", "_uniform_row_length", "_nrows")

    def __init__(self, row_splits, uniform_row_length=None, nrows=None, internal=False):
        if not internal:
            raise ValueError("RowPartition constructor is private; please use one of the factory methods instead "
                             "(e.g., RowPartition.from_row_lengths())")
        self._row_splits, self._uniform_row_length, self._nrows = row_splits, uniform_row_length, nrows

    # --- construction ---------------------------------------------------------------------------------------
    @classmethod
    def from_row_splits(cls, row_splits, validate=True, dtype=None, dtype_hint=None) -> RowPartition:
        splits = _partition_tensor(row_splits, dtype, dtype_hint, "row_splits")
        if splits._shape is not None and len(splits._shape) != 1:
            raise ValueError(f"row_splits must be a vector, got shape {list(splits._shape)}")
        if validate and isinstance(splits, EagerTensor):
            s = splits.numpy()
            if s.size == 0 or s[0] != 0:
                raise InvalidArgumentError("Arguments to _from_row_partition do not form a valid RaggedTensor: "
                                           "row_splits[0] must be zero")
            if (np.diff(s) < 0).any():
                raise InvalidArgumentError("Arguments to _from_row_partition do not form a valid RaggedTensor: "
                                           "row_splits must be monotonically increasing")
        return cls(splits, internal=True)

    @classmethod
    def from_row_lengths(cls, row_lengths, validate=True, dtype=None, dtype_hint=None) -> RowPartition:
        lengths = _partition_tensor(row_lengths, dtype, dtype_hint, "row_lengths")
        if validate and isinstance(lengths, EagerTensor) and (lengths.numpy() < 0).any():
            raise InvalidArgumentError("Arguments to from_row_lengths do not form a valid RowPartition: "
                                       "row_lengths must be non-negative")
        return cls(_zero_first(lengths), internal=True)

    @classmethod
    def from_row_starts(cls, row_starts, nvals, validate=True, dtype=None, dtype_hint=None) -> RowPartition:
        starts = _partition_tensor(row_starts, dtype, dtype_hint, "row_starts")
        total = _a.reshape(_m.cast(convert_to_tensor(nvals), starts.dtype), [1])
        return cls.from_row_splits(_a.concat([starts, total], 0), validate=validate)

    @classmethod
    def from_row_limits(cls, row_limits, validate=True, dtype=None, dtype_hint=None) -> RowPartition:
        limits = _partition_tensor(row_limits, dtype, dtype_hint, "row_limits")
        zero = convert_to_tensor(np.zeros([1], limits.dtype.np))
        return cls.from_row_splits(_a.concat([zero, limits], 0), validate=validate)

    @classmethod
    def from_value_rowids(cls, value_rowids, nrows=None, validate=True, dtype=None, dtype_hint=None) -> RowPartition:
        rowids = _partition_tensor(value_rowids, dtype, dtype_hint, "value_rowids")
        splits = segment_ids_to_row_splits(rowids, nrows, out_type=rowids.dtype)
        return cls(splits, internal=True)

    @classmethod
    def from_uniform_row_length(cls, uniform_row_length, nvals=None, nrows=None, validate=True, dtype=None,
                                dtype_hint=None) -> RowPartition:
        """Rows of `uniform_row_length` values each; the row count is `nrows`, or nvals // uniform_row_length."""
        length = _partition_tensor(uniform_row_length, dtype, dtype_hint, "uniform_row_length")
        if nrows is None:
            if nvals is None:
                raise ValueError("Either nvals or nrows must be specified")
            nvals_t = _m.cast(convert_to_tensor(nvals), length.dtype)
            if isinstance(length, EagerTensor) and int(length.numpy()) == 0:
                nrows_t = length * 0  # TF: a known row length of 0 gives no rows
            else:
                nrows_t = _m.floordiv(nvals_t, _m.maximum(length, convert_to_tensor(np.array(1, length.dtype.np))))
        else:
            nrows_t = _m.cast(convert_to_tensor(nrows), length.dtype)
        one = convert_to_tensor(np.array(1, length.dtype.np))
        splits = _a.range(length * 0, nrows_t + one, one, dtype=length.dtype) * length
        static = int(nrows_t.numpy()) if isinstance(nrows_t, EagerTensor) else None
        return cls(splits, uniform_row_length=length, nrows=static, internal=True)

    # --- queries --------------------------------------------------------------------------------------------
    @property
    def dtype(self):
        return self._row_splits.dtype

    def row_splits(self) -> Tensor:
        return self._row_splits

    def row_lengths(self) -> Tensor:
        return self._row_splits[1:] - self._row_splits[:-1]

    def row_starts(self) -> Tensor:
        return self._row_splits[:-1]

    def row_limits(self) -> Tensor:
        return self._row_splits[1:]

    def value_rowids(self) -> Tensor:
        return row_splits_to_segment_ids(self._row_splits, out_type=self.dtype)

    def nrows(self) -> Tensor:
        return _a.shape(self._row_splits, out_type=self.dtype)[0] - convert_to_tensor(np.array(1, self.dtype.np))

    def nvals(self) -> Tensor:
        return self._row_splits[-1]

    def uniform_row_length(self):
        return self._uniform_row_length

    def is_uniform(self) -> bool:
        return self._uniform_row_length is not None

    def offsets_in_rows(self) -> Tensor:
        """For every value, its position inside its row."""
        return (_a.range(np.array(0, self.dtype.np), self.nvals(), np.array(1, self.dtype.np), dtype=self.dtype)
                - _i.gather(self._row_splits, self.value_rowids()))

    @property
    def static_nrows(self):
        n = self._row_splits._shape[0] if self._row_splits._shape is not None else None
        return n - 1 if n is not None else self._nrows

    @property
    def static_nvals(self):
        if self.is_uniform() and isinstance(self._row_splits, EagerTensor):
            return int(self._row_splits.numpy()[-1])
        return None

    @property
    def static_uniform_row_length(self):
        u = self._uniform_row_length
        return u.numpy()[()] if isinstance(u, EagerTensor) else None  # a numpy scalar, as TF's

    def with_dtype(self, dtype) -> RowPartition:
        dtype = dtypes.as_dtype(dtype)
        if dtype not in (dtypes.int32, dtypes.int64):
            raise ValueError(f"dtype must be int32 or int64, got {dtype.name}")
        if dtype is self.dtype:
            return self
        length = None if self._uniform_row_length is None else _m.cast(self._uniform_row_length, dtype)
        return RowPartition(_m.cast(self._row_splits, dtype), length, self._nrows, internal=True)

    def __repr__(self):
        if self.is_uniform() and self.static_uniform_row_length is not None and self.static_nrows is not None:
            return f"tf.RowPartition(nrows={self.static_nrows}, uniform_row_length={self.static_uniform_row_length})"
        splits = self._row_splits
        return f"tf.RowPartition(row_splits={splits.numpy() if isinstance(splits, EagerTensor) else splits})"
