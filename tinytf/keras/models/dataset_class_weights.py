"""fit(dataset, class_weight=...) as Keras 3's TFDatasetAdapter does it: a map over the batches that turns each
label into its class's weight and hands it on as the batch's sample weights. Labels of rank 2 or more give a
weight per label: one-hot rows (last axis above 1) by their argmax, a trailing axis of 1 squeezed away, so a
segmentation mask of shape (batch, h, w, 1) weighs every pixel."""

from __future__ import annotations

import numpy as np

import tinytf as _tf
from tinytf.runtime import nest


def with_class_weights(dataset, class_weight: dict, unpack):
    """`dataset` with the weights of `class_weight` ({class index: weight}) as its elements' sample weights."""
    table = _tf.convert_to_tensor([class_weight.get(int(c), 1.0) for c in range(max(class_weight.keys()) + 1)])

    def add_weights(*data):
        x, y, sample_weight = unpack(data[0] if len(data) == 1 else data)
        if sample_weight is not None:
            raise ValueError("You cannot `class_weight` and `sample_weight` at the same time.")
        if nest.is_nested(y):
            raise ValueError("`class_weight` is only supported for Models with a single output.")
        if y.shape.rank is not None and y.shape.rank >= 2:
            last = y.shape[-1]
            if last is not None:  # known when traced: Keras' smart_cond takes that branch only
                classes = (_tf.argmax(y, axis=-1, output_type=_tf.int32) if last > 1
                           else _tf.cast(_tf.round(_tf.squeeze(y, axis=-1)), _tf.int32))
            else:
                classes = _tf.cond(_tf.shape(y)[-1] > 1, lambda: _tf.argmax(y, axis=-1, output_type=_tf.int32),
                                   lambda: _tf.cast(_tf.round(_tf.squeeze(y, axis=-1)), _tf.int32))
        else:
            classes = _tf.cast(_tf.round(y), _tf.int32)
        return x, y, _tf.gather(table, classes)

    return dataset.map(add_weights)


def class_weight_to_sample_weights(y, class_weight: dict):
    """Per-sample weights of a numpy batch of labels (a PyDataset's), as Keras 3 computes them: one-hot rows by
    their argmax, a trailing axis of 1 squeezed, labels rounded to class indices."""
    labels = np.asarray(y)
    weights = np.ones(shape=(labels.shape[0],), dtype=np.float32)
    if labels.ndim > 1:
        labels = np.argmax(labels, axis=-1) if labels.shape[-1] != 1 else np.squeeze(labels, axis=-1)
    labels = np.round(labels).astype("int32")
    for i in range(labels.shape[0]):
        weights[i] = class_weight.get(int(labels[i]), 1.0)
    return weights
