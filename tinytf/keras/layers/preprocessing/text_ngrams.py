"""tf.strings.ngrams as Keras' TextVectorization calls it (no padding, short rows give no n-grams): the
n-grams of each row of a ragged batch of tokens, for several widths, each row's 1-grams first, then its
2-grams, ...; written with ops (gather, string join, a stable sort by row) so it runs in graphs too."""

from __future__ import annotations

import tinytf as _tf


def ngrams(tokens, widths, separator: str = " "):
    """The n-grams of `tokens` (a 1-D tensor, a 2-D tensor or a 2-D RaggedTensor of strings) for each width."""
    single_row = isinstance(tokens, _tf.Tensor) and tokens.shape.rank == 1
    if single_row:
        tokens = _tf.expand_dims(tokens, 0)
    if not isinstance(tokens, _tf.RaggedTensor):
        tokens = _tf.RaggedTensor.from_tensor(tokens)
    values = tokens.flat_values
    splits = _tf.cast(tokens.row_splits, _tf.int64)
    starts, lengths = splits[:-1], splits[1:] - splits[:-1]
    grams, rows = [], []
    for width in widths:
        counts = _tf.maximum(lengths - (width - 1), 0)
        positions = _tf.ragged.range(starts, starts + counts)
        first = positions.flat_values
        words = [_tf.gather(values, first + k) for k in range(width)]
        grams.append(words[0] if width == 1 else _tf.strings.join(words, separator=separator))
        rows.append(positions.value_rowids())
    all_rows = _tf.concat(rows, 0)
    order = _tf.argsort(all_rows, stable=True)
    result = _tf.RaggedTensor.from_value_rowids(_tf.gather(_tf.concat(grams, 0), order), _tf.gather(all_rows, order),
                                                nrows=_tf.shape(lengths, out_type=_tf.int64)[0])
    return result.flat_values if single_row else result
