"""pad_sequences: a list of variable-length sequences as one padded numpy array (Keras' text and RNN input)."""

from __future__ import annotations

import numpy as np


def _is_text_dtype(dtype) -> bool:
    return np.issubdtype(np.dtype(dtype), np.str_) or np.dtype(dtype) == np.dtype(object)


def pad_sequences(sequences, maxlen=None, dtype="int32", padding="pre", truncating="pre", value=0.0):
    """Pad (or truncate) every sequence to `maxlen` (default: the longest). `padding`/`truncating` say at which
    end ("pre" or "post") values are added or dropped. Returns a (len(sequences), maxlen, ...) numpy array."""
    if not hasattr(sequences, "__len__"):
        raise ValueError("`sequences` must be iterable.")
    lengths, item_shape = [], ()
    for sequence in sequences:
        try:
            lengths.append(len(sequence))
        except TypeError as error:
            raise ValueError(f"`sequences` must be a list of iterables. Found non-iterable: {sequence!r}") from error
        if len(sequence) and not item_shape:
            item_shape = np.asarray(sequence).shape[1:]  # each step may itself be a vector
    if maxlen is None:
        maxlen = max(lengths, default=0)
    if isinstance(value, str) and not _is_text_dtype(dtype):
        raise ValueError(f"`dtype` {dtype} is not compatible with `value`'s type: {type(value)}\nYou should set "
                         f"`dtype=object` for variable length strings.")
    if padding not in ("pre", "post"):
        raise ValueError(f'Padding type "{padding}" not understood')
    if truncating not in ("pre", "post"):
        raise ValueError(f'Truncating type "{truncating}" not understood')
    padded = np.full((len(lengths), maxlen) + tuple(item_shape), value, dtype=dtype)
    for row, sequence in enumerate(sequences):
        if not len(sequence) or maxlen == 0:
            continue
        kept = sequence[-maxlen:] if truncating == "pre" else sequence[:maxlen]
        kept = np.asarray(kept, dtype=dtype)
        if kept.shape[1:] != tuple(item_shape):
            raise ValueError(f"Shape of sample {kept.shape[1:]} of sequence at position {row} is different from "
                             f"expected shape {tuple(item_shape)}")
        if padding == "post":
            padded[row, :len(kept)] = kept
        else:
            padded[row, -len(kept):] = kept
    return padded
