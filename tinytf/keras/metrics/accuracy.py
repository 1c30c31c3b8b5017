"""Accuracy metrics: the share of predictions that match the labels, each under its own reading of y_pred."""

from __future__ import annotations

import tinytf as _tf

from ..losses import squeeze_to_same_rank
from .base import MeanMetricWrapper


def accuracy(y_true, y_pred):
    y_pred = _tf.convert_to_tensor(y_pred)
    y_true = _tf.cast(_tf.convert_to_tensor(y_true), y_pred.dtype)
    y_true, y_pred = squeeze_to_same_rank(y_true, y_pred)
    return _tf.cast(_tf.equal(y_true, y_pred), _tf.float32)


def binary_accuracy(y_true, y_pred, threshold=0.5):
    y_pred = _tf.convert_to_tensor(y_pred)
    y_true = _tf.convert_to_tensor(y_true)
    y_true, y_pred = squeeze_to_same_rank(y_true, y_pred)
    predicted = _tf.cast(y_pred > threshold, y_true.dtype)
    return _tf.reduce_mean(_tf.cast(_tf.equal(y_true, predicted), _tf.float32), axis=-1)


def categorical_accuracy(y_true, y_pred):
    labels = _tf.argmax(_tf.convert_to_tensor(y_true), axis=-1)
    return _tf.cast(_tf.equal(labels, _tf.argmax(_tf.convert_to_tensor(y_pred), axis=-1)), _tf.float32)


def _sparse_labels(y_true, y_pred):
    labels = _tf.convert_to_tensor(y_true)
    if len(labels.shape) == len(y_pred.shape) and labels.shape[-1] == 1:
        labels = _tf.squeeze(labels, -1)
    return _tf.cast(labels, _tf.int64)


def sparse_categorical_accuracy(y_true, y_pred):
    y_pred = _tf.convert_to_tensor(y_pred)
    predicted = _tf.argmax(y_pred, axis=-1)
    return _tf.cast(_tf.equal(_sparse_labels(y_true, y_pred), predicted), _tf.float32)


def _in_top_k(labels, y_pred, k):
    """Whether each label is among the k highest predictions of its row."""
    _, indices = _tf.math.top_k(y_pred, k=k)
    hits = _tf.equal(_tf.cast(indices, _tf.int64), _tf.expand_dims(labels, -1))
    return _tf.cast(_tf.reduce_any(hits, axis=-1), _tf.float32)


def top_k_categorical_accuracy(y_true, y_pred, k=5):
    y_pred = _tf.convert_to_tensor(y_pred)
    return _in_top_k(_tf.argmax(_tf.convert_to_tensor(y_true), axis=-1), y_pred, k)


def sparse_top_k_categorical_accuracy(y_true, y_pred, k=5):
    y_pred = _tf.convert_to_tensor(y_pred)
    return _in_top_k(_sparse_labels(y_true, y_pred), y_pred, k)


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

    def __init__(self, k=5, name="sparse_top_k_categorical_accuracy", dtype=None):
        super().__init__(sparse_top_k_categorical_accuracy, name=name, dtype=dtype, k=k)
