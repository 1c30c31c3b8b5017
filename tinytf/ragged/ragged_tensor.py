"""tf.RaggedTensor and tf.RaggedTensorSpec: rows of different lengths, stored as flat values plus one
row_splits vector (int64) per ragged dimension. Row i of `rt` is `rt.values[rt.row_splits[i]:rt.row_splits[i+1]]`."""

from __future__ import annotations

import numpy as np

from tinytf.runtime import dtypes, shapes
from tinytf.runtime.context import state
from tinytf.runtime.dispatch import convert_to_tensor
from tinytf.runtime.ops import ragged as kernels
from tinytf.runtime.ops.array import concat, expand_dims, reshape, reverse, stack
from tinytf.runtime.ops.array import range as _range
from tinytf.runtime.ops.array import shape as _shape
from tinytf.runtime.ops.indexing import boolean_mask, gather
from tinytf.runtime.ops.math import cast, equal, logical_not
from tinytf.runtime.ops.reduce import cumsum, reduce_all, reduce_max, reduce_sum
from tinytf.runtime.shapes import TensorShape
from tinytf.runtime.tensor import EagerTensor, Tensor

from ..composite import CompositeTensor, TypeSpec, shape_repr
from ..tensor_spec import TensorSpec


def _int64(value, what: str) -> Tensor:
    t = convert_to_tensor(value, dtype_hint=dtypes.int64)
    if not t.dtype.is_integer:
        raise TypeError(f"{what} must be an integer tensor, got {t.dtype.name}")
    return t if t.dtype is dtypes.int64 else cast(t, dtypes.int64)


def _row_splits(value) -> Tensor:
    """Row splits as given when they are int32 or int64 (a RaggedTensor's row_splits_dtype), else as int64."""
    t = convert_to_tensor(value, dtype_hint=dtypes.int64)
    return t if t.dtype is dtypes.int32 else _int64(t, "row_splits")


def _partition_dtype(value):
    """The row partition dtype TF gives a `from_*` argument: int32 when it is an int32 tensor (or array), else
    int64 (TF converts partitions with dtype_hint=int64)."""
    t = convert_to_tensor(value, dtype_hint=dtypes.int64)
    return dtypes.int32 if t.dtype is dtypes.int32 else dtypes.int64


def _as_dtype_of(t: Tensor, like_dtype) -> Tensor:
    """t (int64, as tinytf computes partitions) as the row splits' dtype: accessors such as nrows() and
    value_rowids() answer in the dtype of the row splits, as TF's do."""
    return t if t.dtype is like_dtype else cast(t, like_dtype)


def _as_int64(splits: Tensor) -> Tensor:
    """Row splits as int64: the dtype tinytf's own ragged computations use (int32 splits are the tensor's type
    only; `row_splits`, `row_lengths` and the components keep it)."""
    return splits if splits.dtype is dtypes.int64 else cast(splits, dtypes.int64)


def _int64_range(limit) -> Tensor:
    """0, 1, ..., limit - 1 as int64 (limit: an int or a scalar int64 tensor)."""
    return _range(convert_to_tensor(np.int64(0)), _int64(limit, "limit"), convert_to_tensor(np.int64(1)),
                  dtype=dtypes.int64)


def _values(value):
    return value if isinstance(value, RaggedTensor) else convert_to_tensor(value)


def _nrows_of(splits: Tensor):
    n = None if splits._shape is None else splits._shape[0]
    return None if n is None else n - 1


def _is_eager(*tensors) -> bool:
    return state.graph is None and all(isinstance(t, EagerTensor) for t in tensors)


class RaggedTensor(CompositeTensor):
    """`tf.RaggedTensor`: build it with tf.ragged.constant or the `from_*` class methods."""

    __slots__ = ("_values", "_row_splits", "_nrows", "_uniform_row_length")
    _overrides_tensor_operators = True  # `tensor + rt` runs rt.__radd__ (runtime/ops/operators.py)

    def __init__(self, values, row_splits, internal=False, uniform_row_length=None):
        if not internal:
            raise ValueError("RaggedTensor constructor is private; please use one of the factory methods "
                             "instead (e.g., RaggedTensor.from_row_lengths())")
        self._values, self._row_splits = values, row_splits
        self._nrows = _nrows_of(row_splits)
        # a uniform partition (from_uniform_row_length) also keeps its row length: the shape shows it
        self._uniform_row_length = uniform_row_length

    # --- construction ---------------------------------------------------------------------------------------
    @classmethod
    def from_row_splits(cls, values, row_splits, name=None, validate=True) -> RaggedTensor:
        """Row i holds values[row_splits[i]:row_splits[i+1]] (the one constructor the others call)."""
        values = _values(values)
        row_splits = _row_splits(row_splits)
        if isinstance(values, RaggedTensor) and values.row_splits_dtype is not row_splits.dtype:
            raise ValueError(f"dtype mismatch: the row splits are {row_splits.dtype.name}, those of the values "
                             f"{values.row_splits_dtype.name}; use RaggedTensor.with_row_splits_dtype to convert")
        if row_splits._shape is not None and len(row_splits._shape) != 1:
            raise ValueError(f"row_splits must be a vector, got shape {list(row_splits._shape)}")
        if validate and _is_eager(row_splits):
            splits = np.asarray(row_splits._value)
            n_values = _nrows_of_value(values)
            if splits.size == 0 or splits[0] != 0:
                raise_invalid("Arguments to from_row_splits do not form a valid RaggedTensor:zero")
            if (np.diff(splits) < 0).any():
                raise_invalid("Arguments to from_row_splits do not form a valid RaggedTensor:monotonic")
            if n_values is not None and splits[-1] != n_values:
                raise_invalid("Arguments to from_row_splits do not form a valid RaggedTensor:nvals")
        return cls(values, row_splits, internal=True)

    @classmethod
    def from_row_lengths(cls, values, row_lengths, name=None, validate=True) -> RaggedTensor:
        dtype = _partition_dtype(row_lengths)
        lengths = _int64(row_lengths, "row_lengths")
        if validate and _is_eager(lengths) and (np.asarray(lengths._value) < 0).any():
            raise_invalid("Arguments to from_row_lengths do not form a valid RaggedTensor")
        zero = convert_to_tensor(np.zeros([1], np.int64))
        return cls.from_row_splits(values, _as_dtype_of(concat([zero, cumsum(lengths)], 0), dtype),
                                   validate=validate)

    @classmethod
    def from_row_starts(cls, values, row_starts, name=None, validate=True) -> RaggedTensor:
        values = _values(values)
        total = reshape(_int64(_outer_size(values), "nvals"), [1])
        splits = concat([_int64(row_starts, "row_starts"), total], 0)
        return cls.from_row_splits(values, _as_dtype_of(splits, _partition_dtype(row_starts)), validate=validate)

    @classmethod
    def from_row_limits(cls, values, row_limits, name=None, validate=True) -> RaggedTensor:
        zero = convert_to_tensor(np.zeros([1], np.int64))
        splits = concat([zero, _int64(row_limits, "row_limits")], 0)
        return cls.from_row_splits(values, _as_dtype_of(splits, _partition_dtype(row_limits)), validate=validate)

    @classmethod
    def from_value_rowids(cls, values, value_rowids, nrows=None, name=None, validate=True) -> RaggedTensor:
        """values[i] belongs to row value_rowids[i] (sorted ascending); `nrows` defaults to the last id + 1."""
        dtype = _partition_dtype(value_rowids)
        rowids = _int64(value_rowids, "value_rowids")
        if nrows is None:
            one = convert_to_tensor(np.int64(1))
            nrows = reduce_max(concat([convert_to_tensor(np.full([1], -1, np.int64)), rowids], 0)) + one
        nrows = _int64(nrows, "nrows")

        rows = _int64_range(nrows)
        # lengths[r] = how many ids equal r: one comparison matrix, summed along the ids

        lengths = reduce_sum(cast(equal(expand_dims(rows, 1), expand_dims(rowids, 0)), dtypes.int64), 1)
        return cls.from_row_lengths(values, _as_dtype_of(lengths, dtype), validate=validate)

    @classmethod
    def from_uniform_row_length(cls, values, uniform_row_length, nrows=None, validate=True,
                                name=None) -> RaggedTensor:
        """Rows of `uniform_row_length` values each (a dimension of known size over ragged or dense values)."""
        from .row_partition import RowPartition

        values = _values(values)
        partition = RowPartition.from_uniform_row_length(uniform_row_length, nvals=_outer_size(values), nrows=nrows,
                                                         dtype_hint=_partition_dtype(uniform_row_length))
        if validate and nrows is not None and _is_eager(partition.row_splits()):
            n_values = _nrows_of_value(values)
            if n_values is not None and int(partition.nvals().numpy()) != n_values:
                raise ValueError(f"uniform_row_length={int(partition.uniform_row_length().numpy())} times "
                                 f"nrows={int(partition.nrows().numpy())} must equal nvals={n_values}")
        return cls._from_row_partition(values, partition)

    @classmethod
    def _from_row_partition(cls, values, partition) -> RaggedTensor:
        values = _values(values)
        splits = partition.row_splits()
        if isinstance(values, RaggedTensor) and values.row_splits_dtype is not splits.dtype:
            splits = cast(splits, values.row_splits_dtype)
        length = partition.uniform_row_length()
        return cls(values, splits, internal=True,
                   uniform_row_length=None if length is None else cast(length, splits.dtype))

    def _row_partition(self):
        """This tensor's outer row partition as a tf.experimental.RowPartition."""
        from .row_partition import RowPartition

        return RowPartition(self._row_splits, self._uniform_row_length, self._nrows, internal=True)

    @property
    def uniform_row_length(self):
        """The length of every row for a uniform partition (from_uniform_row_length), else None."""
        return self._uniform_row_length

    @classmethod
    def from_nested_row_splits(cls, flat_values, nested_row_splits, name=None, validate=True) -> RaggedTensor:
        result = flat_values
        for splits in reversed(list(nested_row_splits)):
            result = cls.from_row_splits(result, splits, validate=validate)
        return result

    @classmethod
    def from_nested_row_lengths(cls, flat_values, nested_row_lengths, name=None, validate=True) -> RaggedTensor:
        result = flat_values
        for lengths in reversed(list(nested_row_lengths)):
            result = cls.from_row_lengths(result, lengths, validate=validate)
        return result

    @classmethod
    def from_nested_value_rowids(cls, flat_values, nested_value_rowids, nested_nrows=None, name=None,
                                 validate=True) -> RaggedTensor:
        nested_nrows = nested_nrows or [None] * len(nested_value_rowids)
        result = flat_values
        for rowids, nrows in reversed(list(zip(nested_value_rowids, nested_nrows))):
            result = cls.from_value_rowids(result, rowids, nrows, validate=validate)
        return result

    @classmethod
    def from_tensor(cls, tensor, lengths=None, padding=None, ragged_rank=1, name=None,
                    row_splits_dtype=dtypes.int64) -> RaggedTensor:
        """Rows of a dense tensor: whole rows, or the first `lengths[i]` items of row i, or row i without its
        trailing `padding` items."""
        tensor = convert_to_tensor(tensor)
        if tensor._shape is None or len(tensor._shape) < 2:
            raise ValueError("RaggedTensor.from_tensor: the tensor must have rank at least 2")
        if _is_nested_lengths(lengths):
            # one lengths vector per ragged dimension: cut dimension 1, then the kept values' dimension 1, ...
            levels = list(lengths)
            outer = cls.from_tensor(tensor, lengths=levels[0], row_splits_dtype=row_splits_dtype)
            if len(levels) == 1:
                return outer
            return outer.with_values(cls.from_tensor(outer.values, lengths=tuple(levels[1:]),
                                                     row_splits_dtype=row_splits_dtype))
        if ragged_rank > 1:
            if lengths is not None or padding is not None:
                raise NotImplementedError("RaggedTensor.from_tensor: tinytf supports lengths or padding with "
                                          "ragged_rank=1 (or nested lengths) only")
            if len(tensor._shape) <= ragged_rank:
                raise ValueError(f"Shape {TensorShape(tensor._shape)} must have rank at least {ragged_rank + 1}")
            outer = cls.from_tensor(tensor, row_splits_dtype=row_splits_dtype)
            return outer.with_values(cls.from_tensor(outer.values, ragged_rank=ragged_rank - 1,
                                                     row_splits_dtype=row_splits_dtype))
        if ragged_rank != 1:
            raise ValueError(f"Argument `ragged_rank` must be greater than 0. Received {ragged_rank}.")
        dims = _shape(tensor, out_type=dtypes.int64)
        nrows, ncols = dims[0], dims[1]
        if padding is not None:
            is_pad = equal(tensor, convert_to_tensor(padding, dtype_hint=tensor.dtype))
            if len(tensor._shape) > 2:
                is_pad = reduce_all(is_pad, list(range(2, len(tensor._shape))))
            kept = cast(logical_not(is_pad), dtypes.int64)
            # the length of row i: its last non-padding position + 1 (cumsum from the right is > 0 until there)
            lengths = reduce_sum(cast(cumsum(reverse(kept, [1]), 1) > 0, dtypes.int64), 1)
        if lengths is not None:
            lengths = _int64(lengths, "lengths")
            mask = expand_dims(_int64_range(ncols), 0) < expand_dims(lengths, 1)
            return cls.from_row_lengths(boolean_mask(tensor, mask), lengths).with_row_splits_dtype(row_splits_dtype)
        flat = reshape(tensor, [-1] + list(tensor._shape[2:]))
        # whole rows: a uniform partition, so the shape keeps the row length (TF: from_tensor([[1, 2]]) is (1, 2))
        splits_dtype = dtypes.as_dtype(row_splits_dtype)
        splits = _as_dtype_of(_int64_range(nrows + 1) * ncols, splits_dtype)
        length = _as_dtype_of(ncols, splits_dtype)
        if tensor._shape[1] is not None and not isinstance(length, EagerTensor):
            length = convert_to_tensor(np.array(tensor._shape[1], splits_dtype.np))
        return cls(flat, splits, internal=True, uniform_row_length=length)

    # --- components -----------------------------------------------------------------------------------------
    @property
    def values(self):
        return self._values

    @property
    def row_splits(self) -> Tensor:
        return self._row_splits

    @property
    def flat_values(self) -> Tensor:
        values = self._values
        while isinstance(values, RaggedTensor):
            values = values._values
        return values

    @property
    def nested_row_splits(self) -> tuple:
        out, rt = [self._row_splits], self._values
        while isinstance(rt, RaggedTensor):
            out.append(rt._row_splits)
            rt = rt._values
        return tuple(out)

    @property
    def ragged_rank(self) -> int:
        return len(self.nested_row_splits)

    @property
    def dtype(self):
        return self.flat_values.dtype

    @property
    def row_splits_dtype(self):
        return self._row_splits.dtype

    def with_row_splits_dtype(self, dtype) -> RaggedTensor:
        """This ragged tensor with its row splits (every level) cast to `dtype` (tf.int32 or tf.int64)."""
        dtype = dtypes.as_dtype(dtype)
        if dtype not in (dtypes.int32, dtypes.int64):
            raise ValueError(f"dtype must be int32 or int64, got {dtype.name}")
        if dtype is self.row_splits_dtype:
            return self
        values = self._values.with_row_splits_dtype(dtype) if isinstance(self._values, RaggedTensor) else self._values
        length = None if self._uniform_row_length is None else cast(self._uniform_row_length, dtype)
        return RaggedTensor(values, cast(self._row_splits, dtype), internal=True, uniform_row_length=length)

    @property
    def shape(self) -> TensorShape:
        return TensorShape(self._static_shape())

    def get_shape(self) -> TensorShape:
        return self.shape

    def _static_shape(self):
        inner = self.flat_values._shape
        if inner is None:
            return None
        dims, level = [self._nrows], self
        while isinstance(level, RaggedTensor):
            length = level._uniform_row_length
            dims.append(int(length._value) if isinstance(length, EagerTensor) else None)
            level = level._values
        return tuple(dims) + tuple(inner[1:])

    @property
    def ndim(self):
        shape = self._static_shape()
        return None if shape is None else len(shape)

    def row_lengths(self, axis=1, name=None) -> Tensor | RaggedTensor:
        if axis == 1:
            return self._row_splits[1:] - self._row_splits[:-1]
        if axis < 1:
            raise ValueError(f"row_lengths: axis={axis} must be at least 1")
        if not isinstance(self._values, RaggedTensor):
            raise ValueError(f"row_lengths: axis={axis} is not a ragged dimension")
        return self.with_values(self._values.row_lengths(axis - 1))

    def row_starts(self, name=None) -> Tensor:
        return self._row_splits[:-1]

    def row_limits(self, name=None) -> Tensor:
        return self._row_splits[1:]

    def nrows(self, out_type=None, name=None) -> Tensor:

        dtype = self.row_splits_dtype if out_type is None else dtypes.as_dtype(out_type)
        return _shape(self._row_splits, out_type=dtype)[0] - convert_to_tensor(np.array(1, dtype.as_numpy_dtype))

    def value_rowids(self, name=None) -> Tensor:
        """The row of every value: row i repeated row_lengths[i] times."""

        n_values = _shape(self._values if not isinstance(self._values, RaggedTensor) else
                          self._values._row_splits[1:], out_type=dtypes.int64)[0]
        ids = _int64_range(n_values)

        started = cast(expand_dims(_as_int64(self._row_splits)[1:-1], 0) <= expand_dims(ids, 1), dtypes.int64)
        return _as_dtype_of(reduce_sum(started, 1), self.row_splits_dtype)

    def nested_row_lengths(self, name=None) -> tuple:
        return tuple(s[1:] - s[:-1] for s in self.nested_row_splits)

    def with_values(self, new_values) -> RaggedTensor:
        return RaggedTensor(_values(new_values), self._row_splits, internal=True,
                            uniform_row_length=self._uniform_row_length)

    def with_flat_values(self, new_values) -> RaggedTensor:
        if isinstance(self._values, RaggedTensor):
            return self.with_values(self._values.with_flat_values(new_values))
        return self.with_values(new_values)

    def merge_dims(self, outer_axis, inner_axis) -> Tensor | RaggedTensor:
        """Dimensions outer_axis..inner_axis merged into one (merge_dims(0, -1) flattens everything)."""
        rank = self.ndim
        outer = outer_axis + rank if outer_axis < 0 else outer_axis
        inner = inner_axis + rank if inner_axis < 0 else inner_axis
        if not 0 <= outer <= inner < rank:
            raise ValueError(f"merge_dims: expected 0 <= outer_axis ({outer_axis}) <= inner_axis ({inner_axis}) < "
                             f"rank ({rank})")
        if outer == inner:
            return self
        if outer > 1:
            return self.with_values(_merge(self._values, outer - 1, inner - 1))
        if outer == 1:  # each row's sub-rows joined: the row splits point through the merged levels

            splits, values = self._row_splits, self._values
            for _ in range(inner - outer):
                if not isinstance(values, RaggedTensor):
                    inner_len = values._shape[1] if values._shape is not None else None
                    if inner_len is None:
                        raise ValueError("merge_dims: a uniform dimension of unknown size cannot be merged")
                    splits = splits * convert_to_tensor(np.int64(inner_len))
                    break
                splits, values = gather(values._row_splits, splits), values._values
            return RaggedTensor(_merge(self._values, 0, inner - 1), splits, internal=True)
        return _merge(self._values, 0, inner - 1)  # dims 0 and 1 merged: the values, then the rest

    def nested_value_rowids(self, name=None) -> tuple:
        out, rt = [], self
        while isinstance(rt, RaggedTensor):
            out.append(rt.value_rowids())
            rt = rt._values
        return tuple(out)

    @classmethod
    def from_sparse(cls, st_input, name=None, row_splits_dtype=dtypes.int64) -> RaggedTensor:
        """The rows of a 2-D SparseTensor whose entries are ragged-right (each row's columns 0, 1, 2, ...)."""
        if st_input._shape is not None and len(st_input._shape) != 2:
            raise ValueError(f"rank(st_input) must be 2, got {len(st_input._shape)}")
        rows = st_input.indices[:, 0]

        result = cls.from_value_rowids(st_input.values, rows, _shape(st_input.dense_shape,
                                                                     out_type=dtypes.int64)[0] * 0
                                       + st_input.dense_shape[0])
        return result.with_row_splits_dtype(row_splits_dtype)

    # --- to dense / Python -----------------------------------------------------------------------------------
    def bounding_shape(self, axis=None, name=None, out_type=None) -> Tensor:
        """[nrows, longest row, ...]: the shape of the smallest dense tensor that holds every row."""

        parts = [reshape(self.nrows(out_type=dtypes.int64), [1])]
        for splits in self.nested_row_splits:
            splits = _as_int64(splits)
            lengths = splits[1:] - splits[:-1]
            longest = reduce_max(concat([convert_to_tensor(np.zeros([1], np.int64)), lengths], 0))
            parts.append(reshape(longest, [1]))
        parts.append(_shape(self.flat_values, out_type=dtypes.int64)[1:])
        dtype = self.row_splits_dtype if out_type is None else dtypes.as_dtype(out_type)
        result = _as_dtype_of(concat(parts, 0), dtype)
        return result if axis is None else result[axis]

    def to_tensor(self, default_value=None, name=None, shape=None) -> Tensor:
        """The rows padded with `default_value` (0) to the bounding shape, or cut/padded to `shape`."""
        if shape is not None:
            shape = shapes.as_shape(shape)
            if shape is not None:
                rank = self.ndim
                if rank is not None and len(shape) != rank:
                    raise ValueError(f"RaggedTensor.to_tensor: shape {list(shape)} must have rank {rank}")
        if default_value is not None:
            default_value = convert_to_tensor(default_value, dtype_hint=self.dtype)
        return kernels.ragged_to_dense(self.flat_values, [_as_int64(s) for s in self.nested_row_splits], default_value,
                                       shape)

    def to_list(self) -> list:
        """The rows as nested Python lists (eager only)."""
        if not _is_eager(self.flat_values, *self.nested_row_splits):
            raise ValueError("RaggedTensor.to_list() is only supported in eager mode.")
        rows = self.flat_values.numpy().tolist()
        for splits in reversed(self.nested_row_splits):
            s = splits.numpy().tolist()
            rows = [rows[s[i]:s[i + 1]] for i in range(len(s) - 1)]
        return rows

    def numpy(self) -> np.ndarray:
        """As TF: uniform rows stack into one ndarray; rows of different lengths make a 1-D object array."""
        if not _is_eager(self.flat_values, *self.nested_row_splits):
            raise ValueError("RaggedTensor.numpy() is only supported in eager mode.")
        values = self._values.numpy()
        splits = self._row_splits.numpy()
        rows = [values[splits[i]:splits[i + 1]] for i in range(len(splits) - 1)]
        if not rows:
            return np.zeros((0, 0) + values.shape[1:], values.dtype)
        if all(len(r) == len(rows[0]) for r in rows):
            return np.array(rows)
        return np.array(rows, dtype=object)

    def to_sparse(self, name=None):
        """The values at [row, column] indices of a 2-D SparseTensor shaped like the bounding box."""
        if self.ragged_rank != 1 or len(self.flat_values._shape or ()) != 1:
            raise NotImplementedError("RaggedTensor.to_sparse supports ragged_rank 1 with scalar values")
        from ..sparse import SparseTensor

        # a SparseTensor's indices and dense_shape are int64 whatever the row splits' dtype
        return SparseTensor(stack([_as_int64(self.value_rowids()), self._column_ids()], 1), self._values,
                            self.bounding_shape(out_type=dtypes.int64))

    def _column_ids(self) -> Tensor:

        splits = _as_int64(self._row_splits)
        positions = _int64_range(splits[-1])
        return positions - gather(splits, _as_int64(self.value_rowids()))

    # --- indexing: `rt[key]` is ragged/indexing.py's getitem, installed there (it builds RaggedTensors) ---------
    def _slice_rows(self, start, stop) -> RaggedTensor:
        """Rows start..stop-1 (scalar int64 tensors or ints), splits rebased to start at 0."""
        splits = self._row_splits[start:stop + 1]
        first = self._row_splits[start]
        return RaggedTensor(_slice_values(self._values, first, self._row_splits[stop]), splits - first,
                            internal=True)

    def _row(self, i):
        return _slice_values(self._values, self._row_splits[i], self._row_splits[i + 1])

    # --- composite protocol -----------------------------------------------------------------------------------
    @property
    def _type_spec(self) -> RaggedTensorSpec:
        return RaggedTensorSpec(self._static_shape(), self.dtype, self.ragged_rank, self.row_splits_dtype,
                                inner=None if self.flat_values._shape is None else self.flat_values._shape[1:])

    def _to_components(self) -> list:
        return [self.flat_values, *self.nested_row_splits]

    # --- operators (elementwise on the flat values; see dispatch.py) ----------------------------------------
    def __bool__(self):
        raise TypeError("RaggedTensor may not be used as a boolean.")

    def __repr__(self):
        if _is_eager(self.flat_values, *self.nested_row_splits):
            with np.printoptions(formatter={"all": _format_rows}):
                return f"<tf.RaggedTensor {_format_rows(self.numpy())}>"
        return f"tf.RaggedTensor(values={self._values}, row_splits={self._row_splits})"

    __str__ = __repr__


def _is_nested_lengths(lengths) -> bool:
    """from_tensor's `lengths` given per ragged dimension (a list or tuple of vectors) rather than as one vector."""
    if not isinstance(lengths, (list, tuple)) or not lengths:
        return False
    first = lengths[0]
    return isinstance(first, (list, tuple, np.ndarray)) or (isinstance(first, Tensor) and first._shape is not None
                                                            and len(first._shape) == 1)


def _format_rows(x) -> str:
    """One value of RaggedTensor.numpy() as TF prints it: numpy's layout with ", " between items; numpy applies
    it again to each row of an object array (through the printoptions formatter), and scalars print as str()."""
    if not isinstance(x, np.ndarray):
        return str(x)
    if x.size == 0:
        return repr(x.tolist())  # numpy prints every empty array as [], whatever its shape
    return np.array2string(x, separator=", ")


def _merge(values, outer: int, inner: int):
    """Dims outer..inner of `values` (a RaggedTensor or a Tensor) merged."""
    if isinstance(values, RaggedTensor):
        return values.merge_dims(outer, inner)
    if outer == inner:
        return values
    shape = values._shape
    return reshape(values, list(shape[:outer]) + [-1] + list(shape[inner + 1:]))


def _nrows_of_value(values):
    if isinstance(values, RaggedTensor):
        return None if not _is_eager(values._row_splits) else len(values._row_splits._value) - 1
    return None if values._shape is None or not values._shape else values._shape[0]


def _outer_size(values):
    if isinstance(values, RaggedTensor):
        return values.nrows()

    return _shape(values, out_type=dtypes.int64)[0]


def _slice_values(values, start, stop):
    if isinstance(values, RaggedTensor):
        return values._slice_rows(start, stop)
    return values[start:stop]


def raise_invalid(message: str):
    from tinytf.runtime.errors import InvalidArgumentError

    raise InvalidArgumentError(message)


class RaggedTensorSpec(TypeSpec):
    """`tf.RaggedTensorSpec(shape, dtype, ragged_rank, row_splits_dtype)`: the type of a RaggedTensor."""

    __slots__ = ("_shape", "_dtype", "_ragged_rank", "_row_splits_dtype", "_inner")
    value_type = RaggedTensor

    def __init__(self, shape=None, dtype=dtypes.float32, ragged_rank=None, row_splits_dtype=dtypes.int64,
                 flat_values_spec=None, inner=None):
        self._shape = shapes.as_shape(shape)
        self._dtype = dtypes.as_dtype(dtype)
        if ragged_rank is None:
            if self._shape is None:
                raise ValueError("Must specify ragged_rank or a shape with a known rank.")
            ragged_rank = len(self._shape) - 1
        self._ragged_rank = ragged_rank
        self._row_splits_dtype = dtypes.as_dtype(row_splits_dtype)
        if inner is None and self._shape is not None:
            inner = self._shape[ragged_rank + 1:]
        self._inner = inner

    @property
    def shape(self) -> TensorShape:
        return TensorShape(self._shape)

    @property
    def dtype(self):
        return self._dtype

    @property
    def ragged_rank(self) -> int:
        return self._ragged_rank

    @property
    def row_splits_dtype(self):
        return self._row_splits_dtype

    @classmethod
    def from_value(cls, value) -> RaggedTensorSpec:
        return value._type_spec

    def _serialize(self) -> tuple:
        return (self._shape, self._dtype.name, self._ragged_rank, self._row_splits_dtype.name)

    @property
    def _component_specs(self) -> list:
        inner = None if self._inner is None else tuple(self._inner)
        values = TensorSpec(None if inner is None else (None,) + inner, self._dtype)
        nrows = None if self._shape is None else self._shape[0]
        first = TensorSpec((None if nrows is None else nrows + 1,), self._row_splits_dtype)
        return [values, first] + [TensorSpec((None,), self._row_splits_dtype)] * (self._ragged_rank - 1)

    def _from_components(self, components):
        flat_values, *splits = components
        if not splits:
            return flat_values
        result = flat_values
        for s in reversed(splits):
            result = RaggedTensor(result, s, internal=True)
        return result

    def __repr__(self):
        return (f"RaggedTensorSpec({shape_repr(self._shape)}, tf.{self._dtype.name}, {self._ragged_rank}, "
                f"tf.{self._row_splits_dtype.name})")

