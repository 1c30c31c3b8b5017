"""tf.concat and tf.stack of RaggedTensors along axis 0 (ragged dispatch): the rows of every operand, one after
the other. Dense operands and nested lists join as RaggedTensors of the same ragged rank."""

from __future__ import annotations

import functools

import numpy as np

from tinytf.runtime.dispatch import convert_to_tensor
from tinytf.runtime.ops.array import concat as dense_concat
from tinytf.runtime.ops.array import expand_dims

from .ragged_tensor import RaggedTensor


def _as_ragged(value, like: RaggedTensor) -> RaggedTensor:
    if isinstance(value, RaggedTensor):
        return value
    if isinstance(value, (list, tuple)):
        from .constant import constant

        return constant(value, dtype=like.dtype, ragged_rank=like.ragged_rank)
    return RaggedTensor.from_tensor(convert_to_tensor(value, dtype_hint=like.dtype))


def _join_values(values: list):
    if all(isinstance(v, RaggedTensor) for v in values):
        return concat_rows(values)
    return dense_concat([convert_to_tensor(v) for v in values], 0)


def concat_rows(parts: list) -> RaggedTensor:
    """The rows of every RaggedTensor of `parts`, in order (row splits shifted by the values before them)."""
    if len({p.ragged_rank for p in parts}) != 1:
        raise ValueError("tf.concat: RaggedTensors of different ragged ranks")
    splits, offset = [parts[0].row_splits], parts[0].row_splits[-1]
    for part in parts[1:]:
        splits.append(part.row_splits[1:] + offset)
        offset = offset + part.row_splits[-1]
    return RaggedTensor.from_row_splits(_join_values([p.values for p in parts]), dense_concat(splits, 0),
                                        validate=False)


def concat(values, axis, name="concat"):
    """tf.concat with a RaggedTensor among `values` (axis 0 only)."""
    values = list(values)
    like = next(v for v in values if isinstance(v, RaggedTensor))
    if not (isinstance(axis, (int, np.integer)) and axis == 0) and not (like.ndim and axis == -like.ndim):
        from .array_ops import concat_inner

        return concat_inner(values, axis)
    return concat_rows([_as_ragged(v, like) for v in values])


def stack(values, axis=0, name="stack"):
    """tf.stack with a RaggedTensor among `values` (axis 0): each operand becomes one row."""
    values = list(values)
    like = next(v for v in values if isinstance(v, RaggedTensor))
    if axis != 0:
        raise NotImplementedError("tf.stack of RaggedTensors is supported along axis 0 only")
    rows = [_as_ragged(v, like) for v in values]
    nrows = [r.nrows() for r in rows]
    inner = concat_rows(rows)
    lengths = dense_concat([expand_dims(n, 0) for n in nrows], 0)
    return RaggedTensor.from_row_lengths(inner, lengths, validate=False)


def dispatching_list(fn, ragged_fn):
    """fn(values, ...) that hands lists holding a RaggedTensor to ragged_fn."""
    if getattr(fn, "_ragged_dispatch", False):
        return fn

    @functools.wraps(fn)
    def wrapper(values, *args, **kwargs):
        if isinstance(values, (list, tuple)) and any(isinstance(v, RaggedTensor) for v in values):
            return ragged_fn(values, *args, **kwargs)
        return fn(values, *args, **kwargs)

    wrapper._ragged_dispatch = True
    return wrapper
