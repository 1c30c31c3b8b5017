"""Accuracy metrics: the share of predictions that match the labels, each under its own reading of y_pred."""

from __future__ import annotations

import tinytf as _tf

from ..losses import squeeze_or_expand_to_same_rank
from .base import MeanMetricWrapper


def accuracy(y_true, y_pred):
    y_pred = _tf.convert_to_tensor(y_pred)
    y_true = _tf.cast(_tf.convert_to_tensor(y_true), y_pred.dtype)
    y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
    return _tf.cast(_tf.equal(y_true, y_pred), _tf.float32)


def binary_accuracy(y_true, y_pred, threshold=0.5):
    y_pred = _tf.convert_to_tensor(y_pred)
    y_true = _tf.convert_to_tensor(y_true)
    y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
    predicted = _tf.cast(y_pred > threshold, y_true.dtype)
    return _tf.cast(_tf.equal(y_true, predicted), _tf.float32)  # one value per element, as Keras 3


def _matches(labels, predicted):
    """1.0 where the labels equal the predicted classes (compared in the labels' dtype, as Keras 3)."""
    if predicted.dtype is not labels.dtype:
        predicted = _tf.cast(predicted, labels.dtype)
    return _tf.cast(_tf.equal(labels, predicted), _tf.float32)


def categorical_accuracy(y_true, y_pred):
    y_pred = _tf.convert_to_tensor(y_pred)
    labels = _tf.cast(_tf.argmax(_tf.convert_to_tensor(y_true), axis=-1), y_pred.dtype)
    shape = _tf.shape(labels)
    same_rank = len(labels.shape) == len(y_pred.shape)
    if same_rank:  # labels of shape (samples, 1) once argmax'd: Keras squeezes, then restores the shape
        labels = _tf.squeeze(labels, -1)
    matches = _matches(labels, _tf.argmax(y_pred, axis=-1))
    return _tf.reshape(matches, shape) if same_rank else matches


def sparse_categorical_accuracy(y_true, y_pred):
    y_pred = _tf.convert_to_tensor(y_pred)
    labels = _tf.cast(_tf.convert_to_tensor(y_true), y_pred.dtype)
    shape = _tf.shape(labels)
    column = len(labels.shape) == len(y_pred.shape) and labels.shape[-1] == 1
    if column:
        labels = _tf.squeeze(labels, -1)
    matches = _matches(labels, _tf.argmax(y_pred, axis=-1))
    if column:
        matches = _tf.reshape(matches, shape)
    if len(matches.shape) > 1 and matches.shape[-1] == 1:
        matches = _tf.squeeze(matches, -1)
    return matches


def _in_top_k(labels, y_pred, k):
    """Keras 3's top-k matches: predictions flattened to (samples, classes), labels to (samples,), TF's in_top_k
    (ties at the k-th score count as in; k beyond the classes holds every label), reshaped to the labels."""
    shape = _tf.shape(labels)
    if len(y_pred.shape) > 2:
        y_pred = _tf.reshape(y_pred, [-1, y_pred.shape[-1]])
    flat = len(labels.shape) > 1
    if flat:
        labels = _tf.reshape(labels, [-1])
    matches = _tf.cast(_tf.math.in_top_k(_tf.cast(labels, _tf.int32), y_pred, k), _tf.float32)
    return _tf.reshape(matches, shape) if flat else matches


def top_k_categorical_accuracy(y_true, y_pred, k=5):
    y_pred = _tf.convert_to_tensor(y_pred)
    return _in_top_k(_tf.argmax(_tf.cast(_tf.convert_to_tensor(y_true), y_pred.dtype), axis=-1), y_pred, k)


def sparse_top_k_categorical_accuracy(y_true, y_pred, k=5, from_sorted_ids=False):
    y_pred = _tf.convert_to_tensor(y_pred)
    labels = _tf.convert_to_tensor(y_true)
    if not from_sorted_ids:
        return _in_top_k(labels, y_pred, k)
    # y_pred holds class ids, best first: a hit is the label among the first k (counted once)
    shape = _tf.shape(labels)
    labels = _tf.reshape(_tf.cast(labels, y_pred.dtype), [-1])
    if len(y_pred.shape) > 2:
        y_pred = _tf.reshape(y_pred, [-1, y_pred.shape[-1]])
    hits = _tf.reduce_any(_tf.equal(_tf.expand_dims(labels, 1), y_pred[:, :k]), axis=1)
    return _tf.reshape(_tf.cast(hits, _tf.float32), shape)


class Accuracy(MeanMetricWrapper):
    _direction = "up"

    def __init__(self, name="accuracy", dtype=None):
        super().__init__(accuracy, name=name, dtype=dtype)


class BinaryAccuracy(MeanMetricWrapper):
    _direction = "up"

    def __init__(self, name="binary_accuracy", dtype=None, threshold=0.5):
        super().__init__(binary_accuracy, name=name, dtype=dtype, threshold=threshold)


class CategoricalAccuracy(MeanMetricWrapper):
    _direction = "up"

    def __init__(self, name="categorical_accuracy", dtype=None):
        super().__init__(categorical_accuracy, name=name, dtype=dtype)


class SparseCategoricalAccuracy(MeanMetricWrapper):
    _direction = "up"

    def __init__(self, name="sparse_categorical_accuracy", dtype=None):
        super().__init__(sparse_categorical_accuracy, name=name, dtype=dtype)


class TopKCategoricalAccuracy(MeanMetricWrapper):
    _direction = "up"

    def __init__(self, k=5, name="top_k_categorical_accuracy", dtype=None):
        super().__init__(top_k_categorical_accuracy, name=name, dtype=dtype, k=k)


class SparseTopKCategoricalAccuracy(MeanMetricWrapper):
    _direction = "up"

    def __init__(self, k=5, name="sparse_top_k_categorical_accuracy", dtype=None, from_sorted_ids=False):
        super().__init__(sparse_top_k_categorical_accuracy, name=name, dtype=dtype, k=k)
        if from_sorted_ids:  # in the config only when set, as Keras 3
            self._fn_kwargs["from_sorted_ids"] = True
