"""TF's SparseFillEmptyRows: every row of a SparseTensor that has no entry gets one, default_value at column 0
(what safe_embedding_lookup_sparse needs so that no example is dropped). The entries come out row by row, each
row's in input order, and reverse_index_map says where each input entry went, which is how the gradient of the
values finds its way back; the default value's gradient is the sum over the filled entries."""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..dispatch import apply, convert_to_tensor
from ..errors import InvalidArgumentError
from ..registry import OpDef, gradient, register
from .common import require
from .indexing import gather
from .reduce import reduce_sum


def _fill_kernel(indices, values, dense_shape, default_value):
    indices, values = np.asarray(indices), np.asarray(values)
    if dense_shape.size == 0:
        raise InvalidArgumentError("SparseFillEmptyRows: dense_shape must not be empty")
    rows = int(dense_shape[0])
    if indices.shape[0] and (indices[:, 0].min() < 0 or indices[:, 0].max() >= rows):
        bad = int(np.argmax((indices[:, 0] < 0) | (indices[:, 0] >= rows)))
        raise InvalidArgumentError(f"indices({bad}, 0) is invalid: {indices[bad, 0]} >= {rows}")
    counts = np.bincount(indices[:, 0], minlength=rows) if indices.shape[0] else np.zeros(rows, np.int64)
    empty = counts == 0
    per_row = np.where(empty, 1, counts)
    starts = np.concatenate([[0], np.cumsum(per_row)[:-1]]).astype(np.int64)
    order = np.argsort(indices[:, 0], kind="stable")  # each row's entries in input order
    reverse = np.empty(indices.shape[0], np.int64)
    reverse[order] = starts[indices[order, 0]] + (np.arange(len(order)) - np.concatenate(
        [[0], np.cumsum(counts)[:-1]])[indices[order, 0]])
    total = int(per_row.sum())
    out_indices = np.zeros((total, indices.shape[1]), np.int64)
    out_values = np.empty(total, values.dtype)
    out_indices[reverse], out_values[reverse] = indices, values
    filled = starts[empty]
    out_indices[filled, 0] = np.flatnonzero(empty)
    out_values[filled] = default_value
    return out_indices, out_values, empty, reverse


def _infer_fill(indices, values, dense_shape, default_value):
    require(indices.dtype, "int", "the indices of a SparseTensor")
    if values.dtype is not default_value.dtype:
        raise TypeError(f"default_value must have the values' dtype {values.dtype.name}, got "
                        f"{default_value.dtype.name}")
    rank = None if indices._shape is None else indices._shape[1]
    return [(dtypes.int64, (None, rank)), (values.dtype, (None,)), (dtypes.bool_, (None,)),
            (dtypes.int64, (None if indices._shape is None else indices._shape[0],))]


sparse_fill_empty_rows_op = register(OpDef(
    "sparse_fill_empty_rows", _fill_kernel, _infer_fill,
    doc="TF's SparseFillEmptyRows: an entry (default_value at column 0) for each empty row"))


@gradient(sparse_fill_empty_rows_op)
def _fill_grad(record, g_indices, g_values, g_empty, g_reverse):
    if g_values is None:
        return None, None, None, None
    reverse = record.outputs[3]
    d_values = gather(g_values, reverse)
    # the entries that are not an input's are the filled ones: their gradient is the default value's
    taken = reduce_sum(d_values)
    return None, d_values, None, reduce_sum(g_values) - taken


def sparse_fill_empty_rows(indices, values, dense_shape, default_value):
    """(indices, values, empty_row_indicator, reverse_index_map) of TF's SparseFillEmptyRows."""
    values = convert_to_tensor(values)
    default_value = convert_to_tensor(default_value, dtype=values.dtype)
    return apply(sparse_fill_empty_rows_op, (convert_to_tensor(indices, dtypes.int64), values,
                                             convert_to_tensor(dense_shape, dtypes.int64), default_value))
