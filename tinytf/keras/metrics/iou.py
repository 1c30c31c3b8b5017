"""MeanIoU: intersection over union per class from a running confusion matrix, averaged over the classes
that occur."""

from __future__ import annotations

import tinytf as _tf

from ..naming import unique_name
from .base import Metric


class MeanIoU(Metric):
    """The mean over classes of tp / (tp + fp + fn), y_true and y_pred given as class ids."""

    _direction = "up"

    def __init__(self, num_classes, name=None, dtype=None, ignore_class=None, sparse_y_true=True,
                 sparse_y_pred=True, axis=-1):
        super().__init__(name=name or unique_name("mean_io_u"), dtype=dtype)  # numbered, as in Keras 3
        self.num_classes, self.ignore_class = num_classes, ignore_class
        self.sparse_y_true, self.sparse_y_pred, self.axis = sparse_y_true, sparse_y_pred, axis
        self.total_cm = self.add_variable((num_classes, num_classes), name="total_confusion_matrix")

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true, y_pred = _tf.convert_to_tensor(y_true), _tf.convert_to_tensor(y_pred)
        if not self.sparse_y_true:
            y_true = _tf.argmax(y_true, axis=self.axis)
        if not self.sparse_y_pred:
            y_pred = _tf.argmax(y_pred, axis=self.axis)
        labels = _tf.reshape(_tf.cast(y_true, _tf.int32), [-1])
        predictions = _tf.reshape(_tf.cast(y_pred, _tf.int32), [-1])
        weights = _tf.ones_like(_tf.cast(labels, self._dtype))
        if sample_weight is not None:
            weights = _tf.reshape(_tf.cast(sample_weight, self._dtype) * _tf.ones_like(_tf.cast(y_true, self._dtype)),
                                  [-1])
        if self.ignore_class is not None:
            weights = weights * _tf.cast(_tf.not_equal(labels, self.ignore_class), self._dtype)
        rows = _tf.one_hot(labels, self.num_classes, dtype=self._dtype) * _tf.expand_dims(weights, -1)
        cols = _tf.one_hot(predictions, self.num_classes, dtype=self._dtype)
        self.total_cm.assign_add(_tf.matmul(rows, cols, transpose_a=True))

    def result(self):
        cm = self.total_cm.read_value()
        rows = _tf.reduce_sum(cm, axis=1)
        cols = _tf.reduce_sum(cm, axis=0)
        true_positives = _tf.linalg.diag_part(cm) if hasattr(_tf.linalg, "diag_part") else \
            _tf.reduce_sum(cm * _tf.eye(self.num_classes, dtype=self._dtype), axis=1)
        denominator = rows + cols - true_positives
        present = _tf.reduce_sum(_tf.cast(_tf.not_equal(denominator, 0), self._dtype))
        iou = _tf.math.divide_no_nan(true_positives, denominator)
        return _tf.math.divide_no_nan(_tf.reduce_sum(iou), present)

    def get_config(self) -> dict:
        return {**super().get_config(), "num_classes": self.num_classes, "ignore_class": self.ignore_class,
                "sparse_y_true": self.sparse_y_true, "sparse_y_pred": self.sparse_y_pred, "axis": self.axis}
