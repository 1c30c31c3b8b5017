"""tf.ragged.constant and tf.ragged.map_flat_values."""

from __future__ import annotations

import numpy as np

from tinytf.runtime import dtypes
from tinytf.runtime.dispatch import convert_to_tensor

from .ragged_tensor import RaggedTensor


def _depth(value) -> int:
    """How deep the scalars of a nested list lie (a scalar: 0); ValueError when they lie at several depths."""
    if isinstance(value, (list, tuple)):
        depths = {_depth(v) for v in value}
        if len(depths) > 1:
            raise ValueError("all scalar values must have the same nesting depth")
        return 1 + (depths.pop() if depths else 0)
    if isinstance(value, np.ndarray):
        return value.ndim
    return 0


def _max_depth(value) -> int:
    if isinstance(value, (list, tuple)):
        return 1 + max((_max_depth(v) for v in value), default=0)
    return np.ndim(value)


def constant(pylist, dtype=None, ragged_rank=None, inner_shape=None, name=None, row_splits_dtype=dtypes.int64):
    """`tf.ragged.constant`: a RaggedTensor (or, for ragged_rank 0, a Tensor) from a nested Python list."""
    if isinstance(pylist, RaggedTensor):
        raise TypeError("pylist may not be a RaggedTensor or RaggedTensorValue.")
    depth = _scalar_depth(pylist)
    inner_rank = 0 if inner_shape is None else len(inner_shape)
    if ragged_rank is None:
        ragged_rank = max(0, depth - 1 - inner_rank)
    if depth and ragged_rank >= depth:
        raise ValueError(f"Invalid pylist={pylist!r}: incompatible with ragged_rank={ragged_rank}")
    splits_per_level = []
    level = [pylist]
    for _ in range(ragged_rank + 1):
        splits, flat = [0], []
        for row in level:
            if not isinstance(row, (list, tuple)):
                raise ValueError("all scalar values must have the same nesting depth")
            flat.extend(row)
            splits.append(len(flat))
        splits_per_level.append(splits)
        level = flat
    splits_per_level = splits_per_level[1:]
    values = _flat_values(level, dtype, depth - ragged_rank - 1, inner_shape)
    if ragged_rank == 0:
        return values
    splits_dtype = dtypes.as_dtype(row_splits_dtype)
    if splits_dtype not in (dtypes.int32, dtypes.int64):
        raise ValueError(f"row_splits_dtype must be int32 or int64, got {splits_dtype.name}")
    return RaggedTensor.from_nested_row_splits(
        values, [convert_to_tensor(np.asarray(s, splits_dtype.np)) for s in splits_per_level], validate=False)


def _scalar_depth(pylist) -> int:
    if not isinstance(pylist, (list, tuple)):
        return 0
    depth = _max_depth(pylist)
    _check_depths(pylist, depth)
    return depth


def _check_depths(value, depth):
    """Every scalar lies `depth` levels down (empty lists may stop early)."""
    if isinstance(value, (list, tuple)):
        if depth == 0:
            raise ValueError("all scalar values must have the same nesting depth")
        for v in value:
            _check_depths(v, depth - 1)
    elif depth != 0:
        raise ValueError("all scalar values must have the same nesting depth")


def _flat_values(items, dtype, inner_depth, inner_shape):
    if items:
        _check_one_kind(items)
        values = convert_to_tensor(items, dtype=dtype) if dtype is not None else convert_to_tensor(items)
        if inner_shape is not None:
            from tinytf.runtime.ops.array import reshape

            values = reshape(values, [-1] + list(inner_shape))
        return values
    dtype = dtypes.as_dtype(dtype) if dtype is not None else dtypes.float32
    inner = list(inner_shape) if inner_shape is not None else [0] * max(inner_depth, 0)
    return convert_to_tensor(np.zeros([0] + inner, dtype.np))


def _check_one_kind(items) -> None:
    """Strings and numbers mixed in one constant: TF's ValueError (they have no common dtype)."""
    flat = np.asarray(items, dtype=object).reshape(-1) if items else ()
    kinds = {isinstance(v, (str, bytes)) for v in flat}
    if len(kinds) > 1:
        raise ValueError("Can't convert Python sequence with mixed types to Tensor.")


def map_flat_values(op, *args, **kwargs):
    """`tf.ragged.map_flat_values`: op on the flat values of the ragged arguments; the result keeps the
    (shared) nested row partition of the first one."""
    ragged = [x for x in list(args) + list(kwargs.values()) if isinstance(x, RaggedTensor)]
    if not ragged:
        return op(*args, **kwargs)
    from .broadcast import check_same_partition

    first = ragged[0]
    for other in ragged[1:]:
        check_same_partition(first, other)

    def flat(x):
        return x.flat_values if isinstance(x, RaggedTensor) else x

    result = op(*[flat(a) for a in args], **{k: flat(v) for k, v in kwargs.items()})
    return first.with_flat_values(result)
