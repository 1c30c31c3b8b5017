"""What every Keras loss function does to its arguments first: y_pred as a float tensor, y_true in its dtype,
and ranks made equal by Keras 3's squeeze-or-expand of a trailing size-1 axis (shared by losses.py,
losses_extra.py and the metrics)."""

from __future__ import annotations

import tinytf as _tf

EPSILON = 1e-7  # Keras' backend.epsilon()


def as_tensors(y_true, y_pred, dtype=None):
    """y_pred as a float tensor, y_true cast to its dtype."""
    y_pred = _tf.convert_to_tensor(y_pred)
    if dtype is not None and y_pred.dtype.name != dtype:
        y_pred = _tf.cast(y_pred, dtype)
    if not y_pred.dtype.is_floating:
        y_pred = _tf.cast(y_pred, _tf.float32)
    y_true = _tf.convert_to_tensor(y_true)
    if y_true.dtype is not y_pred.dtype:
        y_true = _tf.cast(y_true, y_pred.dtype)
    return y_true, y_pred


def squeeze_or_expand_to_same_rank(a, b, expand_rank_1=True):
    """Keras 3's rule for ranks that differ by one, where the larger has a trailing size-1 axis: a rank-1
    smaller one gains that axis (expand_rank_1), otherwise the larger one loses it. So labels (batch,) against
    predictions (batch, 1) become (batch, 1): one value per sample, not one per batch."""
    rank_a, rank_b = len(a.shape), len(b.shape)
    if rank_a == rank_b + 1 and a.shape[-1] == 1:
        if rank_b == 1 and expand_rank_1:
            b = _tf.expand_dims(b, -1)
        else:
            a = _tf.squeeze(a, -1)
    elif rank_b == rank_a + 1 and b.shape[-1] == 1:
        if rank_a == 1 and expand_rank_1:
            a = _tf.expand_dims(a, -1)
        else:
            b = _tf.squeeze(b, -1)
    return a, b
