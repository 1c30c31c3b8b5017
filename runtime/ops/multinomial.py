"""TF's multinomial (categorical) draw on a Philox word stream, as its CPU kernel makes it: per row, the
logits (as doubles, less their finite maximum) exponentiated into an unnormalized cumulative sum over the
finite entries, then for each sample u * total with u a double of two words, and the class the first whose
cumulative sum exceeds it. Rows follow one another on the stream (one shard: TF's kernel splits rows across
threads only for large batches). Used by sample_from_datasets' selector (StatelessMultinomial)."""

from __future__ import annotations

import bisect

import numpy as np

from .philox import WordStream


def draw(words: WordStream, logits: np.ndarray, num_samples: int) -> np.ndarray:
    """(rows, num_samples) int64 class indices for `logits` of shape (rows, classes)."""
    logits = np.asarray(logits)
    out = np.empty((logits.shape[0], num_samples), np.int64)
    for row, values in enumerate(logits):
        finite = np.isfinite(values)
        top = float(values[finite].max()) if finite.any() else float(np.finfo(values.dtype).min)
        mass = np.exp(values.astype(np.float64) - top)
        cumulative = np.cumsum(np.where(finite, mass, 0.0)).tolist()
        total = cumulative[-1] if cumulative else 0.0
        for j in range(num_samples):
            out[row, j] = bisect.bisect_right(cumulative, words.double() * total)
    return out
