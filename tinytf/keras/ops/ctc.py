"""keras.ops.ctc_loss and ctc_decode with Keras 3's TensorFlow-backend semantics: batch-major logits, the mask
(blank) class 0 by default, float64 computed in float32 as Keras does; decoding by tf.nn's greedy or beam-search
decoder, returned dense (top_paths, batch, max_length) with -1 past each sequence."""

from __future__ import annotations

import tinytf as tf

from .core import convert_to_tensor
from .dtype_rules import result_type
from .symbolic import export_all


def ctc_loss(target, output, target_length, output_length, mask_index=0):
    """The CTC loss of each sequence of a batch: targets (batch, max_label_length), logits (batch, time, classes)."""
    target = tf.cast(convert_to_tensor(target), "int32")
    output = convert_to_tensor(output)
    dtype = result_type(output.dtype.name, "float32")
    compute = "float32" if dtype == "float64" else dtype
    loss = tf.nn.ctc_loss(labels=target, logits=tf.cast(output, compute), label_length=target_length,
                          logit_length=output_length, blank_index=mask_index, logits_time_major=False)
    return tf.cast(loss, dtype)


def ctc_decode(inputs, sequence_lengths, strategy="greedy", beam_width=100, top_paths=1, merge_repeated=True,
               mask_index=0):
    """Decoded label sequences (paths, batch, max_length), -1 past their end, and their scores: (batch, 1) negated
    sums of the frame maxima (greedy) or (batch, top_paths) log probabilities (beam_search)."""
    inputs = convert_to_tensor(inputs)
    shape = tf.shape(inputs)
    num_samples, num_steps = shape[0], shape[1]
    inputs = tf.transpose(inputs, (1, 0, 2))
    inputs = tf.cast(inputs, result_type(inputs.dtype.name, "float32"))
    sequence_lengths = tf.cast(convert_to_tensor(sequence_lengths), "int32")
    if strategy == "greedy":
        decoded, scores = tf.nn.ctc_greedy_decoder(inputs=inputs, sequence_length=sequence_lengths,
                                                   merge_repeated=merge_repeated, blank_index=mask_index)
    elif strategy == "beam_search":
        if mask_index is not None:  # the beam search decoder's blank is the last class
            inputs = tf.concat([inputs[..., :mask_index], inputs[..., mask_index + 1:],
                                inputs[..., mask_index:mask_index + 1]], axis=-1)
        decoded, scores = tf.nn.ctc_beam_search_decoder(inputs=inputs, sequence_length=sequence_lengths,
                                                        beam_width=beam_width, top_paths=top_paths)
    else:
        raise ValueError(f"Invalid strategy {strategy}. Supported values are 'greedy' and 'beam_search'.")
    dense = []
    for st in decoded:
        st = tf.SparseTensor(st.indices, st.values, tf.cast(tf.stack([num_samples, num_steps]), "int64"))
        dense.append(tf.sparse.to_dense(sp_input=st, default_value=-1))
    decoded_dense = tf.cast(tf.stack(dense, axis=0), "int32")
    if strategy == "beam_search" and mask_index is not None:
        if mask_index < 0:
            mask_index = mask_index + inputs.shape[-1]
        decoded_dense = tf.where(decoded_dense >= mask_index, decoded_dense + 1, decoded_dense)
    return decoded_dense, scores


__all__ = ["ctc_decode", "ctc_loss"]
export_all(globals(), __all__)
