"""Keras 3 metrics fed labels of shape (batch,) and predictions of shape (batch, 1), the shapes a binary
classifier's fit gives them (text classification tutorial): which metrics squeeze, which raise, and that each
counts samples, not batches (the states after two updates of 8 and 1 samples)."""

from __future__ import annotations

import numpy as np

from . import outcome, program, val

_LABELS = (np.array([1, 0, 1, 1, 0, 0, 1, 0], "int32"), np.array([1], "int32"))
_PREDICTIONS = (np.array([[0.7], [0.2], [0.4], [0.6], [0.9], [0.1], [0.8], [0.3]], "float32"),
                np.array([[0.3]], "float32"))
_METRICS = ("BinaryAccuracy", "BinaryCrossentropy", "MeanSquaredError", "MeanAbsoluteError", "Accuracy", "Hinge",
            "SquaredHinge", "LogCoshError", "MeanAbsolutePercentageError", "MeanSquaredLogarithmicError",
            "RootMeanSquaredError", "KLDivergence", "Poisson", "CosineSimilarity", "AUC", "Precision", "Recall",
            "TruePositives")


def _two_updates(tf, name, labels_rank_one):
    metric = getattr(tf.keras.metrics, name)()
    for labels, predictions in zip(_LABELS, _PREDICTIONS):
        metric.update_state(labels if labels_rank_one else labels[:, None], predictions)
    return [val(metric.result()), [val(tf.convert_to_tensor(v)) for v in metric.variables[:2]]]


@program
def p_metrics_with_rank_one_labels(tf):
    return [[name, outcome(lambda n=name: _two_updates(tf, n, True), "rank")] for name in _METRICS]


@program
def p_metrics_with_column_labels(tf):
    return [[name, outcome(lambda n=name: _two_updates(tf, n, False), "rank")] for name in _METRICS]


@program
def p_metric_functions_shapes(tf):
    labels, predictions = _LABELS[0], _PREDICTIONS[0]
    out = []
    for fn in ("binary_accuracy", "binary_crossentropy", "categorical_accuracy",
               "sparse_categorical_accuracy", "top_k_categorical_accuracy", "sparse_top_k_categorical_accuracy"):
        for y in (labels, labels[:, None]):
            phrase = "1-dimensional" if "top_k" in fn else "rank"
            out.append([fn, outcome(lambda f=fn, y=y: getattr(tf.keras.metrics, f)(y, predictions), phrase)])
    return out
