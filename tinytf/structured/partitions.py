"""The shape of a StructuredTensor as TF keeps it: the row count and one RowPartition per dimension after the
first (uniform partitions for dense dimensions), read off the field values, merged across fields, merged over
dimensions (merge_dims) and checked. Static facts are used whenever they are known, so eager values stay
cheap and traced ones keep their static shape."""

from __future__ import annotations

import numpy as np

from tinytf.runtime import dtypes
from tinytf.runtime.dispatch import convert_to_tensor
from tinytf.runtime.ops import array as _a
from tinytf.runtime.ops import indexing as _i
from tinytf.runtime.ops import math as _m
from tinytf.runtime.shapes import TensorShape
from tinytf.runtime.tensor import EagerTensor, Tensor

from ..ragged.ragged_tensor import RaggedTensor
from ..ragged.row_partition import RowPartition


def int_tensor(value, dtype) -> Tensor:
    """`value` (int or integer tensor) as a scalar tensor of `dtype`."""
    if isinstance(value, Tensor):
        return value if value.dtype is dtype else _m.cast(value, dtype)
    return convert_to_tensor(np.array(value, dtype.np))


def static_int(t):
    """A Python int for an eager (or Python) integer, else None."""
    if t is None or isinstance(t, (int, np.integer)):
        return None if t is None else int(t)
    return int(t.numpy()) if isinstance(t, EagerTensor) else None


def uniform_partitions(dims, count: int, dtype) -> tuple:
    """`count` uniform partitions for the outer count+1 dimensions `dims` (ints, or a shape vector tensor)."""
    out, rows = [], dims[0]
    for i in range(count):
        length = dims[i + 1]
        nvals = rows * length
        out.append(RowPartition.from_uniform_row_length(int_tensor(length, dtype), nrows=int_tensor(rows, dtype),
                                                        validate=False))
        rows = nvals
    return tuple(out)


def _dense_outer(value: Tensor, rank: int, dtype):
    """(nrows, partitions) of a dense tensor's outer `rank` dimensions."""
    static = value._shape
    if static is not None and len(static) < rank:
        raise ValueError(f"A field of shape {list(static)} has rank {len(static)}, but the StructuredTensor "
                         f"needs rank at least {rank}")
    if static is not None and all(d is not None for d in static[:rank]):
        dims = list(static[:rank])
    else:
        vector = _a.shape(value, out_type=dtype)
        dims = [d if d is not None else vector[i] for i, d in enumerate(static[:rank])] if static is not None \
            else [vector[i] for i in range(rank)]
    return int_tensor(dims[0], dtype), uniform_partitions(dims, rank - 1, dtype)


def outer_shape(value, rank: int, dtype):
    """(nrows tensor, the rank-1 outer partitions) of a field value: Tensor, RaggedTensor or StructuredTensor."""
    if rank == 0:
        return None, ()
    if isinstance(value, RaggedTensor):
        parts, level = [], value
        while isinstance(level, RaggedTensor) and len(parts) < rank - 1:
            parts.append(level._row_partition().with_dtype(dtype))
            level = level.values
        if len(parts) < rank - 1:
            _, dense = _dense_outer(level, rank - len(parts), dtype)
            parts.extend(dense)
        return int_tensor(value.nrows(out_type=dtype), dtype), tuple(parts)
    if isinstance(value, Tensor):
        return _dense_outer(value, rank, dtype)
    if value.rank < rank:  # a StructuredTensor
        raise ValueError(f"A StructuredTensor field of rank {value.rank} cannot be a field of a StructuredTensor of "
                         f"rank {rank}")
    return int_tensor(value.nrows(), dtype), tuple(p.with_dtype(dtype) for p in value.row_partitions[:rank - 1])


def field_rank(value):
    """The static rank of a field value (None when unknown)."""
    if isinstance(value, Tensor):
        return None if value._shape is None else len(value._shape)
    return value.shape.rank


def static_shape(nrows, partitions) -> TensorShape:
    """[nrows] + one dimension per partition: its uniform row length, or None when ragged."""
    dims = [static_int(nrows)] + [p.static_uniform_row_length for p in partitions]
    return TensorShape([None if d is None else int(d) for d in dims])


def same_partitions(a, b) -> bool:
    """False only when both are known and differ (row splits of eager partitions compared by value)."""
    sa, sb = a.row_splits(), b.row_splits()
    if isinstance(sa, EagerTensor) and isinstance(sb, EagerTensor):
        x, y = sa.numpy(), sb.numpy()
        return x.shape == y.shape and bool((x == y).all())
    na, nb = a.static_nrows, b.static_nrows
    return na is None or nb is None or na == nb


def nvals_of(nrows, partitions) -> Tensor:
    """How many structures there are: the values the last partition cuts, or nrows for rank 1."""
    if not partitions:
        return nrows
    return partitions[-1].nvals()


def merge_partitions(nrows, partitions, outer: int, inner: int):
    """(nrows, partitions) with dimensions outer..inner merged into one (outer < inner)."""
    parts = list(partitions)
    merged = parts[outer:inner]  # the partitions that cut dimensions outer+1..inner
    if outer == 0:
        new_nrows = merged[-1].nvals()
        new_nrows = int_tensor(static_int(new_nrows) if static_int(new_nrows) is not None else new_nrows,
                               new_nrows.dtype)
        return new_nrows, tuple(parts[inner:])
    splits = parts[outer - 1].row_splits()
    for p in merged:  # the row splits point through every merged level
        splits = _i.gather(p.row_splits(), splits)
    return nrows, tuple(parts[:outer - 1]) + (RowPartition.from_row_splits(splits, validate=False),) + \
        tuple(parts[inner:])


def shape_dtype_of(fields: dict, nrows=None, row_partitions=None):
    """int64 when anything asks for it, int32 when only int32 is asked for, else int64 (TF's rule)."""
    found = []
    for v in fields.values():
        if isinstance(v, RaggedTensor):
            found.append(v.row_splits_dtype)
        elif hasattr(v, "_row_partitions") and hasattr(v, "_fields"):
            found.append(v._dtype)
    if isinstance(nrows, Tensor):
        found.append(nrows.dtype)
    found += [p.dtype for p in row_partitions or ()]
    if dtypes.int64 in found:
        return dtypes.int64
    return dtypes.int32 if dtypes.int32 in found else dtypes.int64
