"""`rt[key]` for RaggedTensors: the outer (uniform) dimension takes ints, scalar tensors and slices; the
indices after the first apply to the selected row(s)."""

from __future__ import annotations

import numpy as np

from tinytf.runtime.dispatch import convert_to_tensor

from .ragged_tensor import RaggedTensor


def getitem(rt: RaggedTensor, key):
    if not isinstance(key, tuple):
        key = (key,)
    if not key:
        return rt
    first, rest = key[0], key[1:]
    if first is Ellipsis:
        if rest:
            raise ValueError("RaggedTensor indexing: Ellipsis is only supported alone")
        return rt
    if isinstance(first, slice):
        if first.step not in (None, 1):
            raise ValueError("RaggedTensor indexing: slices with a step are not supported")
        nrows = rt._nrows if rt._nrows is not None else int(np.asarray(rt.nrows()))
        start, stop, _ = first.indices(nrows)
        stop = max(stop, start)
        sliced = rt._slice_rows(start, stop)
        if not rest:
            return sliced
        return _map_rows(sliced, rest)
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


def _map_rows(rt: RaggedTensor, rest):
    """rt[a:b, k...]: the remaining key applied inside every row; only slices of the ragged dim are kept
    simple (a dense inner key on flat values)."""
    inner = rest[0]
    if isinstance(inner, slice) and len(rest) == 1 and not isinstance(rt.values, RaggedTensor):
        rows = [rt._row(i)[inner] for i in range(rt._nrows)]
        return RaggedTensor.from_row_lengths(
            _concat_rows(rows, rt.values), [int(np.asarray(r.shape[0])) for r in rows])
    raise ValueError("RaggedTensor indexing: only the outer dimension (and slices of the rows) can be indexed")


def _concat_rows(rows, like):
    from tinytf.runtime.ops.array import concat

    return concat(rows, 0) if rows else like[:0]


def _install():
    """`rt[key]` on every RaggedTensor (this module builds on the class, so the class does not import it)."""
    RaggedTensor.__getitem__ = getitem


_install()
