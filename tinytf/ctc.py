"""tf.nn's CTC functions as TF 2.21 defines them: ctc_loss (dense labels with lengths, blank 0 by default; sparse
labels with an explicit blank_index), ctc_greedy_decoder, ctc_beam_search_decoder, ctc_unique_labels and
collapse_repeated. The loss and the decoders are registered ops (runtime/ops/ctc.py, ctc_beam.py); the rest is
written with ops."""

from __future__ import annotations

import numpy as np

from tinytf.runtime import dtypes
from tinytf.runtime.dispatch import apply, convert_to_tensor
from tinytf.runtime.errors import InvalidArgumentError
from tinytf.runtime.ops import array as _array
from tinytf.runtime.ops import indexing as _indexing
from tinytf.runtime.ops import math as _math
from tinytf.runtime.ops import reduce as _reduce
from tinytf.runtime.ops import segment as _segment
from tinytf.runtime.ops.ctc import ctc_greedy_decoder_op, ctc_loss_op
from tinytf.runtime.ops.ctc_beam import ctc_beam_search_decoder_op
from tinytf.runtime.ops.scatter import scatter_nd
from tinytf.runtime.ops.set_ops import unique
from tinytf.runtime.ops.sorting import argsort
from tinytf.runtime.tensor import EagerTensor

from .core_api import sequence_mask
from .map_fn import map_fn
from .sparse import SparseTensor


def _classes(logits):
    classes = logits.shape[-1]
    if classes is None:
        raise ValueError("ctc_loss: the number of classes (the logits' last dimension) must be known")
    return classes


def _sparse_rows(labels):
    """Dense labels and each row's length from a SparseTensor: as TF's CTCLoss reads it, each row's values in
    order, packed to the left (their column indices only order them)."""
    rows = _indexing.gather(labels.indices, 0, axis=1)
    batch = _math.cast(_indexing.gather(labels.dense_shape, 0), rows.dtype)
    lengths = _segment.unsorted_segment_sum(_array.ones_like(rows), rows, batch)
    starts = _reduce.cumsum(lengths, exclusive=True)
    positions = _math.cast(_array.range(_array.shape(rows)[0]), rows.dtype) - _indexing.gather(starts, rows)
    width = _math.maximum(_reduce.reduce_max(lengths), _math.cast(0, rows.dtype))
    dense = scatter_nd(_array.stack([rows, positions], axis=1), labels.values, _array.stack([batch, width]))
    return dense, lengths


def _check_time(label_length, logit_length):
    """TF's CTCLoss (the sparse-labels path) refuses empty label rows and labels longer than their sequence."""
    if isinstance(label_length, EagerTensor) and isinstance(logit_length, EagerTensor):
        empty = np.nonzero(label_length.numpy() == 0)[0]
        if empty.size:
            raise InvalidArgumentError(f"Labels length is zero in batch {int(empty[0])}")
        longer = np.nonzero(label_length.numpy() > logit_length.numpy())[0]
        if longer.size:
            b = int(longer[0])
            raise InvalidArgumentError(
                f"Not enough time for target transition sequence (required: {int(label_length.numpy()[b])}, "
                f"available: {int(logit_length.numpy()[b])}){b}You can turn this error into a warning by using the "
                "flag ignore_longer_outputs_than_inputs")


def ctc_loss(labels, logits, label_length, logit_length, logits_time_major=True, unique=None, blank_index=None,
             name=None):
    """The CTC loss of each batch entry: -log p(labels | logits), summed over alignments. Dense labels
    (batch, max_label_length) need label_length and use blank_index 0 by default; SparseTensor labels need
    blank_index (negative counts from num_classes). `unique` (from ctc_unique_labels) only speeds TF up."""
    logits = convert_to_tensor(logits)
    orig_dtype = logits.dtype
    if orig_dtype in (dtypes.float16, dtypes.bfloat16):
        logits = _math.cast(logits, dtypes.float32)
    if not logits_time_major:
        logits = _array.transpose(logits, [1, 0, 2])
    logit_length = convert_to_tensor(logit_length)
    classes = _classes(logits)
    if isinstance(labels, SparseTensor):
        if blank_index is None:
            raise ValueError("Argument `blank_index` must be provided when `labels` is a `SparseTensor`.")
        blank_index = blank_index + classes if blank_index < 0 else blank_index
        dense, label_length = _sparse_rows(labels)
        _check_time(label_length, logit_length)
        # TF's CTCLoss wants the blank last: that class moves to the end and the labels above it down by one
        if blank_index != classes - 1:
            logits = _array.concat([_last(logits, 0, blank_index), _last(logits, blank_index + 1, None),
                                    _last(logits, blank_index, blank_index + 1)], axis=2)
            dense = _indexing.where(_math.less(dense, blank_index), dense, dense - 1)
        blank = classes - 1
    else:
        blank_index = 0 if blank_index is None else blank_index
        blank_index = blank_index + classes if blank_index < 0 else blank_index
        dense, label_length = convert_to_tensor(labels), convert_to_tensor(label_length)
        # TF's dense path wants the blank first: that class moves to the front and the labels below it up by one
        if blank_index != 0:
            logits = _array.concat([_last(logits, blank_index, blank_index + 1), _last(logits, 0, blank_index),
                                    _last(logits, blank_index + 1, None)], axis=2)
            dense = _indexing.where(_math.less(dense, blank_index), dense + 1, dense)
        blank = 0
    loss, _ = apply(ctc_loss_op, (logits, dense, label_length, logit_length), {"blank": blank}, name=name)
    return _math.cast(loss, orig_dtype) if loss.dtype is not orig_dtype else loss


def _last(x, start, stop):
    return _indexing.getitem(x, (Ellipsis, slice(start, stop)))


def ctc_greedy_decoder(inputs, sequence_length, merge_repeated=True, blank_index=None):
    """The most likely class of each frame, repeats merged (merge_repeated) and blanks dropped: ([SparseTensor of
    the decoded labels], the negative sum of each sequence's frame maxima (batch, 1)). The blank defaults to the
    last class."""
    inputs = convert_to_tensor(inputs)
    blank = -1 if blank_index is None else int(blank_index)
    indices, values, shape, log_probability = apply(
        ctc_greedy_decoder_op, (inputs, convert_to_tensor(sequence_length, dtypes.int32)),
        {"merge_repeated": bool(merge_repeated), "blank": blank})
    return [SparseTensor(indices, values, shape)], log_probability


def beam_search_decode(inputs, sequence_length, beam_width=100, top_paths=1, merge_repeated=True):
    """TF's CTCBeamSearchDecoder: ([top_paths SparseTensors of labels], log probabilities (batch, top_paths));
    merge_repeated (TF1's default) also merges repeated labels of a path that a blank separated."""
    inputs = convert_to_tensor(inputs)
    outputs = apply(ctc_beam_search_decoder_op, (inputs, convert_to_tensor(sequence_length, dtypes.int32)),
                    {"beam_width": int(beam_width), "top_paths": int(top_paths),
                     "merge_repeated": bool(merge_repeated)})
    outputs = outputs if isinstance(outputs, (list, tuple)) else (outputs,)
    decoded = [SparseTensor(*outputs[3 * i:3 * i + 3]) for i in range(int(top_paths))]
    return decoded, outputs[-1]


def ctc_beam_search_decoder(inputs, sequence_length, beam_width=100, top_paths=1):
    """The top_paths most likely label sequences of time-major logits (blank last) by beam search, repeated
    labels kept where a blank separates them: ([SparseTensor per path], log probabilities (batch, top_paths))."""
    return beam_search_decode(inputs, sequence_length, beam_width, top_paths, merge_repeated=False)


def ctc_unique_labels(labels, name=None):
    """Each row's unique labels (padded with 0, int64) and, for each label, the index of its unique value (int32),
    the `unique` argument of ctc_loss."""
    labels = convert_to_tensor(labels)
    width = labels.shape[1]

    def unique_row(row):
        values, index = unique(row)
        padded = _array.pad(values, _array.stack([_array.stack([0, _array.shape(index)[0] - _array.shape(values)[0]])]))
        padded = _math.cast(padded, dtypes.int64)
        if width is not None:
            padded = _array.reshape(padded, [width])
        return [padded, index]

    return map_fn(unique_row, labels, fn_output_signature=[dtypes.int64, dtypes.int32])


def collapse_repeated(labels, seq_length, name=None):
    """Labels with runs of a repeated label merged, left-aligned and zero-padded to the longest new length, and
    the new lengths."""
    labels = convert_to_tensor(labels)
    seq_length = convert_to_tensor(seq_length)
    first = _array.ones_like(_indexing.getitem(labels, (slice(None), slice(0, 1))), dtypes.bool_)
    changed = _math.not_equal(_indexing.getitem(labels, (slice(None), slice(1, None))),
                              _indexing.getitem(labels, (slice(None), slice(None, -1))))
    keep = _math.logical_and(_array.concat([first, changed], axis=1),
                             sequence_mask(seq_length, maxlen=_array.shape(labels)[1]))
    new_length = _reduce.reduce_sum(_math.cast(keep, dtypes.int32), axis=1)
    new_max = _reduce.reduce_max(new_length)
    # the kept labels of each row, in order, then zeros: a stable sort of the "dropped" flags puts them first
    order = argsort(_math.cast(_math.logical_not(keep), dtypes.int32), axis=1, stable=True)
    moved = _indexing.getitem(_indexing.gather(labels, order, batch_dims=1), (slice(None), slice(None, new_max)))
    result = _indexing.where(sequence_mask(new_length, maxlen=new_max), moved, _array.zeros_like(moved))
    return result, _math.cast(new_length, seq_length.dtype)
