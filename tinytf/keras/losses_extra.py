"""The Keras 3 loss functions that came after the classic set: focal cross-entropies, categorical hinge, Dice,
Tversky, Circle (metric learning) and the generalized cross-entropy for noisy labels. Each follows Keras 3's
source formula op for op, so the numbers match TensorFlow's tf.keras to float32 rounding; keras.losses wraps
them as Loss classes."""

from __future__ import annotations

import tinytf as _tf

from . import masking
from .loss_inputs import EPSILON, as_tensors


def _check_axis(axis):
    if isinstance(axis, bool):
        raise ValueError(f"`axis` must be of type `int`. Received: axis={axis} of type {type(axis)}")


def _smoothed(y_true, label_smoothing, classes=None):
    """Labels pulled towards uniform: binary towards 0.5, categorical towards 1/classes."""
    if not label_smoothing:
        return y_true
    if classes is None:
        return y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    return y_true * (1.0 - label_smoothing) + label_smoothing / classes


def _binary_crossentropy_elementwise(y_true, y_pred):
    """Keras' ops.binary_crossentropy on probabilities (clipped to [eps, 1 - eps])."""
    p = _tf.clip_by_value(y_pred, EPSILON, 1.0 - EPSILON)
    return -(y_true * _tf.math.log(p) + (1.0 - y_true) * _tf.math.log(1.0 - p))


def binary_focal_crossentropy(y_true, y_pred, apply_class_balancing=False, alpha=0.25, gamma=2.0,
                              from_logits=False, label_smoothing=0.0, axis=-1):
    """Binary cross-entropy times (1 - p_t)^gamma, which down-weighs the examples already classified well
    (Lin et al., 2017); with apply_class_balancing, also alpha for positives and 1 - alpha for negatives."""
    y_true, y_pred = as_tensors(y_true, y_pred)
    y_true = _smoothed(y_true, label_smoothing)
    if from_logits:
        y_pred = _tf.sigmoid(y_pred)
    bce = _binary_crossentropy_elementwise(y_true, y_pred)
    p_t = y_true * y_pred + (1 - y_true) * (1 - y_pred)
    focal_bce = _tf.pow(1.0 - p_t, gamma) * bce
    if apply_class_balancing:
        focal_bce = (y_true * alpha + (1 - y_true) * (1 - alpha)) * focal_bce
    return _tf.reduce_mean(focal_bce, axis=axis)


def categorical_focal_crossentropy(y_true, y_pred, alpha=0.25, gamma=2.0, from_logits=False, label_smoothing=0.0,
                                   axis=-1):
    """Categorical cross-entropy with each class's term scaled by alpha (1 - p)^gamma."""
    _check_axis(axis)
    y_true, y_pred = as_tensors(y_true, y_pred)
    y_true = _smoothed(y_true, label_smoothing, _tf.cast(_tf.shape(y_true)[-1], y_pred.dtype))
    if from_logits:
        y_pred = _tf.nn.softmax(y_pred, axis=axis)
    output = y_pred / _tf.reduce_sum(y_pred, axis=axis, keepdims=True)
    output = _tf.clip_by_value(output, EPSILON, 1.0 - EPSILON)
    cce = -y_true * _tf.math.log(output)
    return _tf.reduce_sum(_tf.pow(1.0 - output, gamma) * alpha * cce, axis=axis)


def categorical_hinge(y_true, y_pred):
    """max(0, 1 + max over wrong classes of y_pred - y_pred of the true class), for one-hot y_true."""
    y_true, y_pred = as_tensors(y_true, y_pred)
    pos = _tf.reduce_sum(y_true * y_pred, axis=-1)
    neg = _tf.reduce_max((1.0 - y_true) * y_pred, axis=-1)
    return _tf.maximum(neg - pos + 1.0, _tf.zeros([], y_pred.dtype))


def dice(y_true, y_pred, axis=None):
    """1 - 2 |y_true * y_pred| / (|y_true| + |y_pred| + eps), summed over `axis` (all axes by default)."""
    y_true, y_pred = as_tensors(y_true, y_pred)
    intersection = _tf.reduce_sum(y_true * y_pred, axis=axis)
    total = _tf.reduce_sum(y_true, axis=axis) + _tf.reduce_sum(y_pred, axis=axis) + EPSILON
    return 1 - 2.0 * intersection / total


def tversky(y_true, y_pred, alpha=0.5, beta=0.5, axis=None):
    """1 - TP / (TP + alpha FP + beta FN), Dice's generalization that weighs false positives and negatives."""
    y_true, y_pred = as_tensors(y_true, y_pred)
    intersection = _tf.reduce_sum(y_true * y_pred, axis=axis)
    fp = _tf.reduce_sum((1 - y_pred) * y_true, axis=axis)
    fn = _tf.reduce_sum(y_pred * (1 - y_true), axis=axis)
    return 1 - intersection / (intersection + fp * alpha + fn * beta + EPSILON)


def _pos_neg_masks(query_labels, key_labels, remove_diagonal):
    """Pairs with the same label (positives, the diagonal left out) and with different labels (negatives)."""
    query_labels = _tf.reshape(query_labels, (-1, 1)) if len(query_labels.shape) == 1 else query_labels
    key_labels = _tf.reshape(key_labels, (-1, 1)) if len(key_labels.shape) == 1 else key_labels
    positive = _tf.equal(query_labels, _tf.transpose(key_labels))
    negative = _tf.logical_not(positive)
    if remove_diagonal:
        eye = _tf.eye(_tf.size(query_labels), _tf.size(key_labels), dtype=_tf.bool)
        positive = _tf.logical_and(positive, _tf.logical_not(eye))
    return positive, negative


def circle(y_true, y_pred, ref_labels=None, ref_embeddings=None, remove_diagonal=True, gamma=80, margin=0.4):
    """Circle loss (Sun et al., 2020) on L2-normalized embeddings `y_pred` with integer labels `y_true`: pairs of
    one label are pulled together, pairs of different labels pushed apart, each weighted by how far it is from
    its optimum. Samples whose loss is 0 are masked out of the mean, as Keras does."""
    y_pred = _tf.convert_to_tensor(y_pred)
    y_true = _tf.cast(y_true, _tf.int32)
    ref_embeddings = y_pred if ref_embeddings is None else _tf.convert_to_tensor(ref_embeddings)
    ref_labels = y_true if ref_labels is None else _tf.cast(ref_labels, _tf.int32)
    optim_pos, optim_neg = margin, 1 + margin
    delta_pos, delta_neg = margin, 1 - margin
    distances = _tf.maximum(1 - _tf.matmul(y_pred, _tf.transpose(ref_embeddings)), 0.0)
    positive, negative = _pos_neg_masks(y_true, ref_labels, remove_diagonal)
    pos_weights = _tf.maximum((optim_pos + distances) * _tf.cast(positive, distances.dtype), 0.0)
    neg_weights = _tf.maximum((optim_neg - distances) * _tf.cast(negative, distances.dtype), 0.0)
    pos_wdists = -1 * gamma * pos_weights * (delta_pos - distances)
    neg_wdists = gamma * neg_weights * (delta_neg - distances)
    minus_inf = _tf.fill(_tf.shape(distances), _tf.constant(float("-inf"), distances.dtype))
    p_loss = _tf.math.reduce_logsumexp(_tf.where(positive, pos_wdists, minus_inf), axis=1)
    n_loss = _tf.math.reduce_logsumexp(_tf.where(negative, neg_wdists, minus_inf), axis=1)
    loss = _tf.nn.softplus(p_loss + n_loss)
    masking.set_keras_mask(loss, loss > 0)
    return loss


def categorical_generalized_cross_entropy(y_true, y_pred, q):
    """(1 - p^q) / q with p the predicted probability of the integer label: between cross-entropy (q -> 0)
    and mean absolute error (q = 1), robust to noisy labels (Zhang & Sabuncu, 2018)."""
    y_pred = _tf.convert_to_tensor(y_pred)
    one_hot = _tf.cast(_tf.one_hot(_tf.cast(y_true, _tf.int64), _tf.shape(y_pred)[-1]), y_pred.dtype)
    p = _tf.reduce_sum(y_pred * one_hot, axis=-1)
    return (1 - _tf.pow(p, q)) / q
