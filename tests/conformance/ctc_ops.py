"""CTC as TensorFlow 2.21 computes it: tf.nn.ctc_loss with dense and sparse labels, blank_index, batch-major
logits and logit_length masks (losses and gradients), the greedy and beam-search decoders, ctc_unique_labels,
collapse_repeated, keras.ops.ctc_loss / ctc_decode, keras.losses.CTC and tf.keras.backend's ctc helpers."""

from __future__ import annotations

import numpy as np

from . import outcome, program, val


def _logits(shape, seed, scale=1.5):
    return (np.random.RandomState(seed).normal(size=shape) * scale).astype("float32")


LABELS = np.array([[1, 2, 2, 0], [3, 1, 0, 0], [2, 2, 2, 1]], np.int32)
LABEL_LENGTH = np.array([3, 2, 4], np.int32)
LOGIT_LENGTH = np.array([8, 6, 9], np.int32)


def _loss_and_grad(tf, fn, logits):
    x = tf.constant(logits)
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = fn(x)
        weighted = loss * tf.range(1.0, 1.0 + tf.cast(tf.size(loss), loss.dtype), dtype=loss.dtype)
    return [val(loss), val(tape.gradient(weighted, x))]


@program
def p_ctc_loss_dense(tf):
    logits = _logits((9, 3, 5), 1)
    out = [_loss_and_grad(tf, lambda x: tf.nn.ctc_loss(LABELS, x, LABEL_LENGTH, LOGIT_LENGTH), logits)]
    for blank in (2, 4, -1):
        out.append(_loss_and_grad(tf, lambda x, b=blank: tf.nn.ctc_loss(LABELS, x, LABEL_LENGTH, LOGIT_LENGTH,
                                                                        blank_index=b), logits))
    batch_major = np.transpose(logits, [1, 0, 2])
    out.append(_loss_and_grad(tf, lambda x: tf.nn.ctc_loss(LABELS, x, LABEL_LENGTH, LOGIT_LENGTH,
                                                           logits_time_major=False), batch_major))
    unique = tf.nn.ctc_unique_labels(LABELS)
    out.append(val(tf.nn.ctc_loss(LABELS, logits, LABEL_LENGTH, LOGIT_LENGTH, unique=unique)))
    out.append(val(tf.nn.ctc_loss(tf.constant([[0, 0]]), logits[:, :1], [0], [5])))  # an empty label sequence
    traced = tf.function(lambda x: tf.nn.ctc_loss(LABELS, x, LABEL_LENGTH, LOGIT_LENGTH))
    out.append(val(traced(tf.constant(logits))))
    return out


@program
def p_ctc_loss_sparse(tf):
    logits = _logits((9, 3, 5), 2)
    sparse = tf.sparse.from_dense(tf.constant(LABELS))
    out = []
    for blank in (0, 4, -1, 2):
        out.append(_loss_and_grad(tf, lambda x, b=blank: tf.nn.ctc_loss(sparse, x, None, LOGIT_LENGTH,
                                                                        blank_index=b), logits))
    gaps = tf.sparse.from_dense(tf.constant([[1, 3, 3, 0], [0, 1, 0, 2], [0, 0, 0, 3]]))  # values packed per row
    out.append(_loss_and_grad(tf, lambda x: tf.nn.ctc_loss(gaps, x, None, LOGIT_LENGTH, blank_index=4), logits))
    empty_row = tf.sparse.from_dense(tf.constant([[1, 3], [2, 0], [0, 0]]))
    out.append(outcome(lambda: tf.nn.ctc_loss(empty_row, logits, None, LOGIT_LENGTH, blank_index=4),
                       "Labels length is zero in batch 2"))
    out.append(outcome(lambda: tf.nn.ctc_loss(sparse, logits, None, LOGIT_LENGTH), "blank_index"))
    out.append(outcome(lambda: tf.nn.ctc_loss(tf.sparse.from_dense(tf.constant([[1, 1, 1, 1]])), logits[:, :1],
                                              None, [3], blank_index=0), "Not enough time"))
    return out


@program
def p_ctc_decoders(tf):
    logits = _logits((7, 3, 5), 3, scale=2.0)
    lengths = [7, 4, 6]
    out = []
    for kwargs in ({}, {"merge_repeated": False}, {"blank_index": 0}, {"merge_repeated": False, "blank_index": 2}):
        (decoded,), log_probability = tf.nn.ctc_greedy_decoder(logits, lengths, **kwargs)
        out.append([val(decoded.indices), val(decoded.values), val(decoded.dense_shape), val(log_probability)])
    for beam_width, top_paths in ((1, 1), (3, 2), (10, 3)):
        decoded, log_probability = tf.nn.ctc_beam_search_decoder(logits, lengths, beam_width, top_paths)
        out.append([[val(d.indices), val(d.values), val(d.dense_shape)] for d in decoded] + [val(log_probability)])
    out.append(outcome(lambda: tf.nn.ctc_beam_search_decoder(logits[:1], [1, 1, 1], 5, 4), "Less leaves"))
    return out


@program
def p_ctc_label_helpers(tf):
    return [val(tf.nn.collapse_repeated(tf.constant([[1, 1, 2, 2, 3], [4, 4, 4, 0, 0], [5, 5, 5, 5, 5]]),
                                        [5, 3, 2])),
            val(tf.nn.collapse_repeated(tf.constant([[7, 7], [8, 9]], tf.int64), tf.constant([2, 2], tf.int64))),
            val(tf.nn.ctc_unique_labels(tf.constant([[3, 4, 4, 3], [1, 1, 2, 0], [9, 8, 7, 6]])))]


@program
def p_keras_ctc(tf):
    keras = tf.keras
    logits = np.transpose(_logits((9, 3, 5), 4), [1, 0, 2])
    out = [_loss_and_grad(tf, lambda x: keras.ops.ctc_loss(LABELS, x, LABEL_LENGTH, LOGIT_LENGTH), logits),
           _loss_and_grad(tf, lambda x: keras.ops.ctc_loss(LABELS, x, LABEL_LENGTH, LOGIT_LENGTH, mask_index=4),
                          logits),
           val(keras.ops.ctc_loss(LABELS, logits.astype("float64"), LABEL_LENGTH, LOGIT_LENGTH)),
           _loss_and_grad(tf, lambda x: keras.losses.ctc(LABELS, x), logits),
           val(keras.losses.CTC()(LABELS, logits)), val(keras.losses.CTC(reduction="sum")(LABELS, logits)),
           keras.losses.CTC().get_config(), keras.losses.get("ctc").__name__,
           outcome(lambda: keras.losses.ctc(LABELS[0], logits), "y_true")]
    for kwargs in ({}, {"merge_repeated": False}, {"mask_index": 4}, {"strategy": "beam_search", "beam_width": 4,
                                                                       "top_paths": 2},
                   {"strategy": "beam_search", "mask_index": 2}):
        out.append(val(keras.ops.ctc_decode(logits, LOGIT_LENGTH, **kwargs)))
    out.append(outcome(lambda: keras.ops.ctc_decode(logits, LOGIT_LENGTH, strategy="best"), "Invalid strategy"))
    return out


@program
def p_keras_backend_ctc(tf):
    backend = tf.keras.backend
    probs = tf.nn.softmax(tf.constant(np.transpose(_logits((9, 3, 5), 5), [1, 0, 2])))
    sparse = backend.ctc_label_dense_to_sparse(tf.constant(LABELS), tf.constant(LABEL_LENGTH))
    out = [val(sparse.indices), val(sparse.values), val(sparse.dense_shape),
           val(backend.ctc_batch_cost(LABELS, probs, LOGIT_LENGTH[:, None], LABEL_LENGTH[:, None]))]
    decoded, log_prob = backend.ctc_decode(probs, LOGIT_LENGTH)
    out.append([val(decoded), val(log_prob)])
    decoded, log_prob = backend.ctc_decode(probs, LOGIT_LENGTH, greedy=False, beam_width=5, top_paths=2)
    out.append([val(decoded), val(log_prob)])
    return out


@program
def p_ctc_docstring_examples(tf):
    inf = float("inf")
    logits = tf.constant([[[0., -inf, -inf], [-2.3, -inf, -0.1]],
                          [[-inf, -0.5, -inf], [-inf, -inf, -0.1]],
                          [[-inf, -inf, -inf], [-0.1, -inf, -2.3]]])
    seq_lens = tf.constant([2, 3])
    outputs = tf.nn.ctc_greedy_decoder(logits, seq_lens, blank_index=1)
    (decoded,), log_probability = outputs
    out = [val(decoded.indices), val(decoded.values), val(decoded.dense_shape), val(log_probability)]
    # tf.nn.ctc_loss's example, with fixed numbers where it draws random ones
    batch_size, num_labels, max_label_length, num_frames = 8, 6, 5, 12
    rng = np.random.RandomState(50)
    labels = tf.constant(rng.randint(1, num_labels, (batch_size, max_label_length)), tf.int64)
    logits = tf.constant(rng.uniform(size=(num_frames, batch_size, num_labels)).astype("float32"))
    label_length = tf.constant(rng.randint(2, max_label_length, batch_size), tf.int64)
    label_mask = tf.sequence_mask(label_length, maxlen=max_label_length, dtype=label_length.dtype)
    labels *= label_mask
    logit_length = [num_frames] * batch_size
    with tf.GradientTape() as t:
        t.watch(logits)
        ref_loss = tf.nn.ctc_loss(labels=labels, logits=logits, label_length=label_length,
                                  logit_length=logit_length, blank_index=0)
    ref_grad = t.gradient(ref_loss, logits)
    return out + [val(ref_loss), val(ref_grad)]
