"""tf.strings.ngrams' op (TF's StringNGrams): the n-grams of each row of a ragged string tensor given as (flat
values, row_splits), for one or more widths, with optional left/right padding. No gradient (strings).

Padding follows TF's kernel: a width w is padded by min(pad_width, w - 1) pads on each side (pad_width = -1
means w - 1, "as much as needed"), so 1-grams are never padded; a row of L tokens gives max(0, L + 2 p - w + 1)
n-grams of width w. With preserve_short_sequences, a non-empty row that gave none gives one n-gram of the
whole row with pad_width pads on each side. When no row has any token, TF's kernel stops early: no n-grams at
all, padding or not."""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..errors import InvalidArgumentError
from ..registry import OpDef, register


def _pad(width: int, pad_width: int) -> int:
    return min(width - 1 if pad_width < 0 else pad_width, width - 1)


def _ngrams(tokens, width, count, pad_width, separator, left, right):
    """`count` n-grams of `width` over `tokens`, padded as TF's CreateNgrams pads them."""
    pad = min(pad_width, width - 1) if pad_width >= 0 else width - 1
    out = []
    for index in range(count):
        left_pads = max(0, pad - index)
        right_pads = max(0, pad - (count - (index + 1)))
        used = width - left_pads - right_pads
        first = 0 if left_pads > 0 else index - pad
        out.append(separator.join([left] * left_pads + list(tokens[first:first + used]) + [right] * right_pads))
    return out


def _kernel(data, splits, *, separator, widths, left_pad, right_pad, pad_width, preserve_short_sequences):
    data = np.asarray(data, dtype=object).reshape(-1)
    splits = np.asarray(splits)
    if splits.size == 0 or splits[0] != 0 or splits[-1] != data.size or np.any(np.diff(splits) < 0):
        raise InvalidArgumentError(f"Invalid split value: data_splits must start at 0, not decrease and end at the "
                                   f"number of values ({data.size}), got {splits.tolist()}")
    if data.size == 0:  # TF's kernel returns at once: no n-grams, even padded ones, when no row has a token
        return np.empty(0, dtype=object), splits.copy()
    rows, out_splits = [], [0]
    for i in range(len(splits) - 1):
        tokens = data[splits[i]:splits[i + 1]]
        row = []
        for width in widths:
            count = max(0, len(tokens) + 2 * _pad(width, pad_width) - width + 1)
            row += _ngrams(tokens, width, count, pad_width, separator, left_pad, right_pad)
        if preserve_short_sequences and not row and len(tokens):
            whole = len(tokens) + 2 * pad_width  # pad_width >= 0 here: -1 would have padded enough
            row = _ngrams(tokens, whole, 1, pad_width, separator, left_pad, right_pad)
        rows += row
        out_splits.append(out_splits[-1] + len(row))
    values = np.empty(len(rows), dtype=object)
    values[:] = rows
    return values, np.asarray(out_splits, dtype=splits.dtype)


def _infer(data, splits, **_attrs):
    if not data.dtype.is_string:
        raise TypeError(f"ngrams expects string data, got {data.dtype.name}")
    if splits.dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"ngrams: data_splits must be int32 or int64, got {splits.dtype.name}")
    return [(dtypes.string, (None,)), (splits.dtype, splits._shape)]


string_ngrams_op = register(OpDef("string_ngrams", _kernel, _infer, differentiable=False,
                                  doc="n-grams of each row of (values, row_splits): (ngrams, row_splits)"))
