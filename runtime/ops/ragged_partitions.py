"""The row partitions of a tf.io.RaggedFeature, applied record by record as TF's parsing_config applies them
(innermost partition first): RowSplits, RowLengths, RowStarts, RowLimits, ValueRowIds (int64 features of the
same Example) and UniformRowLength (a constant). The result is the flat values and one row-splits vector per
ragged dimension, outermost first, with the records' splits joined into batch splits; trailing
UniformRowLength partitions become dense inner dimensions of the values, as TF reshapes them."""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..errors import InvalidArgumentError

UNIFORM = "uniform_row_length"


def _invalid(which, detail):
    raise InvalidArgumentError(f"Arguments to {which} do not form a valid RaggedTensor:{detail}")


def folded_lengths(partitions) -> list:
    """The trailing (innermost) UniformRowLength lengths: TF makes them dense inner dimensions of the values."""
    out = []
    for kind, ref in reversed(partitions):
        if kind != UNIFORM:
            break
        out.insert(0, int(ref))
    return out


def ragged_output_types(dtype, partitions, single) -> list:
    inner = folded_lengths(partitions)
    splits = (0 if single else 1) + len(partitions) - len(inner)
    return [(dtype, (None, *inner))] + [(dtypes.int64, (None,))] * splits


def _splits_of(kind, part, nrows):
    """One partition over `nrows` rows -> (its row splits, the number of rows it makes)."""
    if kind == UNIFORM:
        if part <= 0 or nrows % part:
            raise InvalidArgumentError(f"Cannot partition {nrows} values into rows of uniform length {part}")
        return np.arange(0, nrows + 1, part, dtype=np.int64), nrows // part
    part = np.asarray(part, np.int64)
    if kind == "row_splits":
        splits = part
        which = "from_row_splits"
    elif kind == "row_lengths":
        if (part < 0).any():
            _invalid("from_row_lengths", "negative")
        splits, which = np.concatenate([[0], np.cumsum(part)]).astype(np.int64), "from_row_lengths"
    elif kind == "row_starts":
        splits, which = np.concatenate([part, [nrows]]).astype(np.int64), "from_row_starts"
    elif kind == "row_limits":
        splits, which = np.concatenate([[0], part]).astype(np.int64), "from_row_limits"
    else:  # value_rowids
        if part.size != nrows:
            _invalid("from_value_rowids", "nvals")
        if (part < 0).any() or (np.diff(part) < 0).any():
            _invalid("from_value_rowids", "monotonic")
        lengths = np.bincount(part, minlength=int(part.max(initial=-1)) + 1)
        return np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64), lengths.size
    if splits.size == 0 or splits[0] != 0:
        _invalid(which, "zero")
    if (np.diff(splits) < 0).any():
        _invalid(which, "monotonic")
    if splits[-1] != nrows:
        _invalid(which, "nvals")
    return splits, splits.size - 1


def ragged_outputs(values, kinds, parts, validate, single) -> list:
    """values: the value feature's Decoded column; parts: per partition a Decoded int64 column or a uniform
    length. Returns [flat values, *row splits (outermost first; a batch's own splits first)]."""
    n = values.counts.size
    folded = len(folded_lengths(list(zip(kinds, parts))))
    kept = len(kinds) - folded
    part_offsets = [None if isinstance(p, int) else np.concatenate([[0], np.cumsum(p.counts)]) for p in parts]
    per_level = [[] for _ in range(kept)]  # per kept partition: each record's splits
    top_rows = np.zeros(n, np.int64)
    for r in range(n):
        nrows = int(values.counts[r])
        for level in reversed(range(len(kinds))):
            p = parts[level]
            part = p if isinstance(p, int) else p.values[part_offsets[level][r]:part_offsets[level][r + 1]]
            splits, nrows = _splits_of(kinds[level], part, nrows)
            if level < kept:
                per_level[level].append(splits)
        top_rows[r] = nrows
    flat = values.values
    if folded:
        inner = [int(p) for p in parts[kept:]]
        flat = flat.reshape([-1, *inner])
    out = [flat]
    if not single:
        out.append(np.concatenate([[0], np.cumsum(top_rows)]).astype(np.int64))
    for level in range(kept):
        out.append(_joined(per_level[level]))
    return out


def _joined(record_splits) -> np.ndarray:
    """Records' row splits joined into one vector (each record's offset by the rows before it)."""
    if not record_splits:
        return np.zeros(1, np.int64)
    totals = np.cumsum([0] + [int(s[-1]) for s in record_splits])
    parts = [s[:-1] + totals[i] for i, s in enumerate(record_splits)]
    return np.concatenate(parts + [[totals[-1]]]).astype(np.int64)
