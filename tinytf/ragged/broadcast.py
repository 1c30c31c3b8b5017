"""Broadcasting between a RaggedTensor and a dense or ragged operand, as TF's ragged dispatch does it: the dense
operand's dimensions are aligned from the right with the ragged tensor's. Those that fall on the flat values'
inner dimensions broadcast as numpy does; one that falls on a ragged dimension must be 1; one on the row
dimension is 1 or the row count (then each value takes its row's entry). Two ragged operands must share their
row partitions. A mismatch raises InvalidArgumentError worded as TF's (its check is an assert_equal of the row
splits: the dense operand's uniform rows against the ragged ones)."""

from __future__ import annotations

import numpy as np

from tinytf.runtime import dtypes
from tinytf.runtime.errors import InvalidArgumentError
from tinytf.runtime.ops import array as _a
from tinytf.runtime.ops import indexing as _i
from tinytf.runtime.ops import math as _m
from tinytf.runtime.tensor import EagerTensor, Tensor

from .ragged_tensor import RaggedTensor, _is_eager


def _mismatch(x: Tensor, y: Tensor) -> None:
    """TF's failure of assert_equal(x, y) on two row-splits vectors (eagerly), or an assert node (in a graph)."""
    from ..assertions import _eager_comparison_message, assert_equal

    x, y = _m.cast(x, dtypes.int64), _m.cast(y, dtypes.int64)
    if _is_eager(x, y):
        xv, yv = x.numpy(), y.numpy()
        if xv.shape != yv.shape:
            raise InvalidArgumentError(f"Condition x == y did not hold.\nFirst {min(3, xv.size)} elements of x:\n"
                                       f"{xv[:3]}\nFirst {min(3, yv.size)} elements of y:\n{yv[:3]}")
        if not np.array_equal(xv, yv):
            raise InvalidArgumentError(_eager_comparison_message("==", x, y, xv == yv, 3))
        return
    if x._shape is not None and y._shape is not None and None not in (x._shape + y._shape) and x._shape != y._shape:
        raise InvalidArgumentError(f"Inputs must have identical ragged splits: row splits of shapes "
                                   f"{list(x._shape)} and {list(y._shape)}")
    assert_equal(x, y)


def check_same_partition(a: RaggedTensor, b: RaggedTensor) -> None:
    """Two ragged operands of an elementwise op: the same ragged rank and the same row splits at every level."""
    sa, sb = a.nested_row_splits, b.nested_row_splits
    if len(sa) != len(sb):
        raise ValueError(f"ragged operands have different ragged ranks {len(sa)} and {len(sb)}")
    for x, y in zip(sa, sb):
        if x is y:
            continue
        if isinstance(x, EagerTensor) and isinstance(y, EagerTensor) and np.shape(x._value) == np.shape(y._value) \
                and np.array_equal(x._value, y._value):
            continue
        _mismatch(x, y)


def _levels(rt: RaggedTensor) -> list:
    out = [rt]
    while isinstance(out[-1].values, RaggedTensor):
        out.append(out[-1].values)
    return out


def _flat_row_ids(rt: RaggedTensor) -> Tensor:
    """For every flat value, the (outer) row of `rt` it lies in."""
    levels = _levels(rt)
    ids = levels[-1].value_rowids()
    for level in reversed(levels[:-1]):
        ids = _i.gather(level.value_rowids(), ids)
    return ids


def _uniform_splits(nrows, size: int) -> Tensor:
    return _a.range(np.int64(0), _m.cast(nrows, dtypes.int64) + np.int64(1), dtype=dtypes.int64) * np.int64(size)


def dense_against_ragged(rt: RaggedTensor, dense: Tensor) -> Tensor:
    """`dense` reshaped (or gathered per value) so that it broadcasts against rt.flat_values elementwise."""
    shape = dense._shape
    inner_rank = len(rt.flat_values._shape) - 1
    if shape is None or len(shape) <= inner_rank:
        return dense
    rank = rt.ndim
    if len(shape) > rank:
        raise ValueError(f"cannot broadcast a dense operand of shape {list(shape)} against a RaggedTensor of shape "
                         f"{rt.shape}: tinytf does not add outer dimensions to a RaggedTensor")
    lead = list(shape[:len(shape) - inner_rank])  # aligned with the row dimension and/or the ragged ones
    first_dim = rank - len(shape)  # the rt dimension lead[0] falls on
    levels = _levels(rt)
    for offset, size in enumerate(lead):
        dim = first_dim + offset
        if dim == 0 or size == 1:
            continue
        level = levels[dim - 1]  # the ragged dimension `dim` holds the rows of levels[dim - 1]
        _mismatch(_uniform_splits(level.nrows(), size if size is not None else -1), level.row_splits)
        raise InvalidArgumentError(f"cannot broadcast a dense operand of shape {list(shape)} against a RaggedTensor "
                                   f"of shape {rt.shape}")
    inner_shape = list(shape[len(lead):])
    if first_dim == 0 and lead[0] != 1:
        nrows = rt.nrows()
        if lead[0] is not None and _is_eager(nrows) and int(nrows.numpy()) != lead[0]:
            _mismatch(_uniform_splits(lead[0], 1), _uniform_splits(nrows, 1))
        per_row = _a.reshape(dense, [-1] + inner_shape)
        return _i.gather(per_row, _flat_row_ids(rt))
    return _a.reshape(dense, inner_shape) if inner_shape else _a.reshape(dense, [])


