"""tf.ragged_fill_empty_rows / tf.ragged_fill_empty_rows_grad (TF's raw RaggedFillEmptyRows ops, exported at the
top level): every empty row of a value_rowids partition gets one `default_value`. Built from gathers over the
row partition, so it runs in a tf.function and the values (and the default) get gradients."""

from __future__ import annotations

import collections

import numpy as np

from tinytf.runtime import dtypes
from tinytf.runtime.dispatch import convert_to_tensor
from tinytf.runtime.errors import InvalidArgumentError
from tinytf.runtime.ops import array as _a
from tinytf.runtime.ops import indexing as _i
from tinytf.runtime.ops import math as _m
from tinytf.runtime.ops import reduce as _r

from .more import row_splits_to_segment_ids, segment_ids_to_row_splits

RaggedFillEmptyRows = collections.namedtuple(
    "RaggedFillEmptyRows", ["output_value_rowids", "output_values", "empty_row_indicator", "reverse_index_map"])
RaggedFillEmptyRowsGrad = collections.namedtuple("RaggedFillEmptyRowsGrad", ["d_values", "d_default_value"])


def _int64_input(value, index: int, op: str):
    t = convert_to_tensor(value, dtype_hint=dtypes.int64)
    if t.dtype is not dtypes.int64:  # TF converts the argument to the op's int64 and refuses another tensor dtype
        raise ValueError(f"{op}: Tensor conversion requested dtype int64 for Tensor with dtype {t.dtype.name} "
                         f"(input #{index})")
    return t


def ragged_fill_empty_rows(value_rowids, values, nrows, default_value, name=None) -> RaggedFillEmptyRows:
    rowids = _int64_input(value_rowids, 0, "RaggedFillEmptyRows")
    values = convert_to_tensor(values)
    nrows = _int64_input(nrows, 2, "RaggedFillEmptyRows")
    if values._shape is not None and len(values._shape) != 1:
        raise InvalidArgumentError(f"RaggedFillEmptyRows: values must be a vector, got shape {list(values._shape)}")
    default_value = convert_to_tensor(default_value, dtype_hint=values.dtype)
    if default_value.dtype is not values.dtype:
        raise InvalidArgumentError(f"cannot compute RaggedFillEmptyRows as input #3(zero-based) was expected to be a "
                                   f"{values.dtype.name} tensor but is a {default_value.dtype.name} tensor")
    one, zero = np.int64(1), np.int64(0)
    splits = segment_ids_to_row_splits(rowids, nrows, out_type=dtypes.int64)
    counts = splits[1:] - splits[:-1]
    empty = _m.equal(counts, counts * 0)
    new_counts = _m.maximum(counts, one)
    new_splits = _a.concat([convert_to_tensor(np.zeros([1], np.int64)), _r.cumsum(new_counts)], 0)
    out_rowids = row_splits_to_segment_ids(new_splits)
    n_values = _a.shape(rowids, out_type=dtypes.int64)[0]
    positions = _a.range(zero, n_values, one, dtype=dtypes.int64)
    reverse_index_map = _i.gather(new_splits, rowids) + positions - _i.gather(splits, rowids)
    offset = _a.range(zero, new_splits[-1], one, dtype=dtypes.int64) - _i.gather(new_splits, out_rowids)
    # each output slot reads its value, or (in a row that was empty) the default appended after the values
    source = _i.gather(splits, out_rowids) + offset
    source = _i.where(_i.gather(empty, out_rowids), source * 0 + n_values, source)
    with_default = _a.concat([values, _a.reshape(default_value, [1])], 0)
    return RaggedFillEmptyRows(out_rowids, _i.gather(with_default, source), empty, reverse_index_map)


def ragged_fill_empty_rows_grad(reverse_index_map, grad_values, name=None) -> RaggedFillEmptyRowsGrad:
    """The gradients of ragged_fill_empty_rows: the values' from their output slots, the default's the rest."""
    index_map = _int64_input(reverse_index_map, 0, "RaggedFillEmptyRowsGrad")
    grad_values = convert_to_tensor(grad_values)
    d_values = _i.gather(grad_values, index_map)
    return RaggedFillEmptyRowsGrad(d_values, _r.reduce_sum(grad_values) - _r.reduce_sum(d_values))
