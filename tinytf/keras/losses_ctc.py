"""keras.losses.CTC and keras.losses.ctc as Keras 3 writes them: targets (batch, max_length) with 0 the mask
(blank) index, which also pads them; logits (batch, time, classes), every frame counted."""

from __future__ import annotations

import tinytf as tf

from . import ops


def ctc(y_true, y_pred):
    """The CTC loss of each sequence (label lengths are the non-zero entries of each target row)."""
    y_true, y_pred = ops.convert_to_tensor(y_true), ops.convert_to_tensor(y_pred)
    if len(y_true.shape) != 2:
        raise ValueError("Targets `y_true` are expected to be a tensor of shape `(batch_size, max_length)` in integer "
                         f"format. Received: y_true.shape={tuple(y_true.shape)}")
    if len(y_pred.shape) != 3:
        raise ValueError("Logits `y_pred` are expected to be a tensor of shape `(batch_size, max_length, "
                         f"num_classes)`. Received: y_pred.shape={tuple(y_pred.shape)}")
    mask_index = 0
    shape = tf.shape(y_pred)
    input_length = shape[1] * tf.ones([shape[0]], "int32")
    label_length = tf.cast(tf.reduce_sum(tf.cast(tf.not_equal(y_true, tf.cast(mask_index, y_true.dtype)), "int32"),
                                         axis=-1), "int32")
    return ops.ctc_loss(y_true, y_pred, label_length, input_length, mask_index=mask_index)
