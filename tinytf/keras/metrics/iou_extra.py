"""IoU, BinaryIoU, OneHotIoU and OneHotMeanIoU, Keras 3's: intersection over union per class from a running
confusion matrix (integer counts by default, as Keras keeps them), averaged over the chosen target classes
that occur. Ids outside [0, num_classes) and `ignore_class` do not count."""

from __future__ import annotations

import tinytf as _tf

from ..naming import snake_case, unique_name
from .base import Metric

_EPSILON = 1e-7


class IoU(Metric):
    """tp / (tp + fp + fn) for each of `target_class_ids`, averaged over those with a non-empty union."""

    _direction = "up"

    def __init__(self, num_classes, target_class_ids, name=None, dtype=None, ignore_class=None, sparse_y_true=True,
                 sparse_y_pred=True, axis=-1):
        # Keras numbers unnamed ones (io_u, io_u_1) and counts in "int", int64 on TensorFlow
        super().__init__(name=name or unique_name(snake_case(type(self).__name__)), dtype=dtype or "int64")
        if max(target_class_ids) >= num_classes:
            raise ValueError(f"Target class id {max(target_class_ids)} is out of range, which is [0, {num_classes}).")
        self.num_classes, self.target_class_ids = num_classes, list(target_class_ids)
        self.ignore_class, self.sparse_y_true, self.sparse_y_pred, self.axis = (ignore_class, sparse_y_true,
                                                                                sparse_y_pred, axis)
        self.total_cm = self.add_variable((num_classes, num_classes), name="total_confusion_matrix")

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true, y_pred = _tf.convert_to_tensor(y_true), _tf.convert_to_tensor(y_pred)
        if not self.sparse_y_true:
            y_true = _tf.argmax(y_true, axis=self.axis)
        if not self.sparse_y_pred:
            y_pred = _tf.argmax(y_pred, axis=self.axis)
        y_true = _tf.reshape(_tf.cast(y_true, self._dtype), [-1])
        y_pred = _tf.reshape(_tf.cast(y_pred, self._dtype), [-1])
        weights = _tf.ones_like(y_true) if sample_weight is None else _tf.reshape(
            _tf.cast(_tf.convert_to_tensor(sample_weight), self._dtype), [-1]) * _tf.ones_like(y_true)
        n = _tf.cast(self.num_classes, self._dtype)
        zero = _tf.zeros_like(y_true)
        in_bounds = _tf.logical_and(_tf.logical_and(y_true >= zero, y_true < n),
                                    _tf.logical_and(y_pred >= zero, y_pred < n))
        if self.ignore_class is not None:
            in_bounds = _tf.logical_and(in_bounds, _tf.not_equal(y_true, _tf.cast(self.ignore_class, self._dtype)))
        y_true, y_pred = _tf.where(in_bounds, y_true, zero), _tf.where(in_bounds, y_pred, zero)
        weights = _tf.where(in_bounds, weights, zero)
        rows = _tf.one_hot(_tf.cast(y_true, _tf.int32), self.num_classes, dtype=self._dtype) * \
            _tf.expand_dims(weights, -1)
        cols = _tf.one_hot(_tf.cast(y_pred, _tf.int32), self.num_classes, dtype=self._dtype)
        self.total_cm.assign_add(_tf.matmul(rows, cols, transpose_a=True))

    def result(self):
        cm = _tf.cast(self.total_cm.read_value(), _tf.float32)
        true_positives = _tf.linalg.diag_part(cm)
        denominator = _tf.reduce_sum(cm, axis=0) + _tf.reduce_sum(cm, axis=1) - true_positives
        ids = _tf.constant(self.target_class_ids, _tf.int32)
        true_positives, denominator = _tf.gather(true_positives, ids), _tf.gather(denominator, ids)
        valid = denominator > 1e-9
        iou = _tf.where(valid, true_positives / (denominator + _EPSILON), _tf.zeros_like(denominator))
        return _tf.reduce_sum(iou, axis=self.axis) / (_tf.reduce_sum(_tf.cast(valid, _tf.float32)) + _EPSILON)

    def reset_state(self) -> None:
        self.total_cm.assign(_tf.zeros_like(self.total_cm))

    def get_config(self) -> dict:
        return {**super().get_config(), "num_classes": self.num_classes, "target_class_ids": self.target_class_ids,
                "ignore_class": self.ignore_class, "sparse_y_true": self.sparse_y_true,
                "sparse_y_pred": self.sparse_y_pred, "axis": self.axis}


class BinaryIoU(IoU):
    """IoU of two classes from probabilities: a prediction at or above `threshold` is class 1."""

    def __init__(self, target_class_ids=(0, 1), threshold=0.5, name=None, dtype=None):
        super().__init__(num_classes=2, target_class_ids=target_class_ids, name=name, dtype=dtype)
        self.threshold = threshold

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_pred = _tf.cast(_tf.cast(_tf.convert_to_tensor(y_pred), _tf.float32) >= self.threshold, self._dtype)
        super().update_state(_tf.cast(_tf.convert_to_tensor(y_true), self._dtype), y_pred, sample_weight)

    def get_config(self) -> dict:
        return {"target_class_ids": self.target_class_ids, "threshold": self.threshold, "name": self.name,
                "dtype": self.dtype}


class OneHotIoU(IoU):
    """IoU with one-hot y_true (and, unless sparse_y_pred, per-class scores in y_pred)."""

    def __init__(self, num_classes, target_class_ids, name=None, dtype=None, ignore_class=None, sparse_y_pred=False,
                 axis=-1):
        super().__init__(num_classes, target_class_ids, name=name, dtype=dtype, ignore_class=ignore_class,
                         sparse_y_true=False, sparse_y_pred=sparse_y_pred, axis=axis)

    def get_config(self) -> dict:
        config = super().get_config()
        del config["sparse_y_true"]
        return config


class OneHotMeanIoU(IoU):
    """MeanIoU (every class a target) with one-hot y_true (and, unless sparse_y_pred, per-class scores in
    y_pred), counting in Keras' integer confusion matrix."""

    def __init__(self, num_classes, name=None, dtype=None, ignore_class=None, sparse_y_pred=False, axis=-1):
        super().__init__(num_classes, list(range(num_classes)), name=name, dtype=dtype, ignore_class=ignore_class,
                         sparse_y_true=False, sparse_y_pred=sparse_y_pred, axis=axis)

    def get_config(self) -> dict:
        config = super().get_config()
        del config["sparse_y_true"], config["target_class_ids"]
        return config
