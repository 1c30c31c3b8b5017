"""tf.keras.backend's CTC helpers (Keras 2 functions TF 2.21 still ships, deprecated): ctc_batch_cost on softmax
outputs (the blank is the last class), ctc_label_dense_to_sparse and ctc_decode (greedy or beam search, dense
results padded with -1)."""

from __future__ import annotations

import tinytf as tf
from tinytf.ctc import beam_search_decode

from .config import epsilon


def ctc_label_dense_to_sparse(labels, label_lengths):
    """The first label_lengths[i] labels of each row of a dense (batch, max_length) tensor as a SparseTensor."""
    labels = tf.convert_to_tensor(labels)
    shape = tf.shape(labels)
    mask = tf.sequence_mask(label_lengths, shape[1])
    indices = tf.cast(tf.where(mask), tf.int64)
    return tf.SparseTensor(indices, tf.gather_nd(labels, indices), tf.cast(shape, tf.int64))


def ctc_batch_cost(y_true, y_pred, input_length, label_length):
    """The CTC loss of each batch entry, (batch, 1), of softmax outputs y_pred (batch, time, classes)."""
    label_length = tf.cast(tf.squeeze(label_length, axis=-1), tf.int32)
    input_length = tf.cast(tf.squeeze(input_length, axis=-1), tf.int32)
    sparse_labels = ctc_label_dense_to_sparse(y_true, label_length)
    sparse_labels = tf.SparseTensor(sparse_labels.indices, tf.cast(sparse_labels.values, tf.int32),
                                    sparse_labels.dense_shape)
    log_probs = tf.math.log(tf.transpose(y_pred, perm=[1, 0, 2]) + epsilon())
    loss = tf.nn.ctc_loss(sparse_labels, log_probs, None, input_length, blank_index=-1)
    return tf.expand_dims(loss, 1)


def ctc_decode(y_pred, input_length, greedy=True, beam_width=100, top_paths=1):
    """([decoded (batch, time) per path, -1 past the end], log probabilities) of softmax outputs y_pred."""
    shape = tf.shape(y_pred)
    num_samples, num_steps = shape[0], shape[1]
    log_probs = tf.math.log(tf.transpose(y_pred, perm=[1, 0, 2]) + epsilon())
    input_length = tf.cast(input_length, tf.int32)
    if greedy:
        decoded, log_prob = tf.nn.ctc_greedy_decoder(inputs=log_probs, sequence_length=input_length)
    else:
        # tf.compat.v1.nn.ctc_beam_search_decoder: merge_repeated=True
        decoded, log_prob = beam_search_decode(log_probs, input_length, beam_width, top_paths, merge_repeated=True)
    dense = [tf.sparse.to_dense(tf.SparseTensor(st.indices, st.values, tf.cast(tf.stack([num_samples, num_steps]),
                                                                             tf.int64)), default_value=-1)
             for st in decoded]
    return dense, log_prob
