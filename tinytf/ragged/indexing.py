"""`rt[key]` for RaggedTensors: the outer (uniform) dimension takes ints, scalar tensors and slices; the
indices after the first apply to the selected row(s)."""

from __future__ import annotations

import numpy as np

from tinytf.runtime.dispatch import convert_to_tensor

from .ragged_tensor import RaggedTensor
from .row_slicing import slice_each_row


def getitem(rt: RaggedTensor, key):
    if not isinstance(key, tuple):
        key = (key,)
    key = _expand_ellipsis(key, rt.ndim)
    if not key:
        return rt
    first, rest = key[0], key[1:]
    if first is None:
        raise ValueError("RaggedTensor indexing: tf.newaxis is not supported")
    if isinstance(first, slice):
        nrows = rt._nrows if rt._nrows is not None else int(np.asarray(rt.nrows()))
        if first.step not in (None, 1):  # a strided slice of rows: the rows it picks, gathered
            from .more import gather_rows

            picked = gather_rows(rt, np.arange(*first.indices(nrows), dtype=np.int64))
            return index_inner(picked, rest) if rest else picked
        start, stop, _ = first.indices(nrows)
        stop = max(stop, start)
        sliced = rt._slice_rows(start, stop)
        if not rest:
            return sliced
        return index_inner(sliced, rest)
    if isinstance(first, (int, np.integer)):
        nrows = rt._nrows
        index = int(first)
        if index < 0:
            if nrows is None:
                nrows = int(np.asarray(rt.nrows()))
            index += nrows
        if nrows is not None and not 0 <= index < nrows:
            raise IndexError(f"RaggedTensor index {int(first)} is out of range for {nrows} rows")
        row = rt._row(index)
    else:
        index = convert_to_tensor(first)
        if index.dtype.name not in ("int32", "int64") or (index._shape is not None and len(index._shape)):
            raise TypeError("RaggedTensor indices must be integers, slices or scalar int tensors")
        row = rt._row(index)
    return row[rest] if rest else row


def _expand_ellipsis(key: tuple, rank) -> tuple:
    """`...` replaced by as many full slices as the dimensions it stands for."""
    n_ellipsis = sum(k is Ellipsis for k in key)
    if n_ellipsis == 0:
        return key
    if n_ellipsis > 1:
        raise ValueError("RaggedTensor indexing: an index can only have a single ellipsis ('...')")
    at = next(i for i, k in enumerate(key) if k is Ellipsis)
    if rank is None:
        if at == len(key) - 1:
            return key[:at]
        raise ValueError("RaggedTensor indexing: '...' before other indices needs a known rank")
    fill = rank - (len(key) - 1 - sum(k is None for k in key))
    return key[:at] + (slice(None),) * max(fill, 0) + key[at + 1:]


def index_inner(rt: RaggedTensor, rest: tuple):
    """rt[:, *rest]: `rest` applied inside every row. A ragged dimension takes slices only (TF raises
    ValueError for an integer there, whose result could not be a tensor for short rows)."""
    inner, more = rest[0], rest[1:]
    if not isinstance(inner, slice):
        raise ValueError("Cannot index into an inner ragged dimension.")
    sliced = rt if inner == slice(None) else slice_each_row(rt, inner)
    if not more:
        return sliced
    values = sliced.values
    if isinstance(values, RaggedTensor):
        return sliced.with_values(index_inner(values, more))
    return sliced.with_values(values[(slice(None),) + tuple(more)])


def _concat_rows(rows, like):
    from tinytf.runtime.ops.array import concat

    return concat(rows, 0) if rows else like[:0]


def _install():
    """`rt[key]` on every RaggedTensor (this module builds on the class, so the class does not import it)."""
    RaggedTensor.__getitem__ = getitem


_install()
