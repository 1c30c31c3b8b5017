"""keras.losses against numpy formulas, eager vs tf.function, gradients by finite differences; metrics'
running state eagerly and in tf.function, reset, and the tf.losses / tf.metrics aliases."""

from __future__ import annotations

import numpy as np
import pytest
from gradcheck import check_gradients, uniform_arrays
from ways import run_all_ways

import tinytf as tf

keras = tf.keras
L, M = keras.losses, keras.metrics

Y_TRUE, Y_PRED = uniform_arrays((4, 3), (4, 3), seed=11)
POS_TRUE, POS_PRED = uniform_arrays((4, 3), (4, 3), seed=12, low=0.1, high=1.0)


@pytest.mark.parametrize("loss,reference", [
    (L.MeanSquaredError(dtype="float64"), lambda t, p: np.mean((p - t) ** 2)),
    (L.MeanAbsoluteError(dtype="float64"), lambda t, p: np.mean(np.abs(p - t))),
    (L.Huber(delta=0.5, dtype="float64"), lambda t, p: np.mean(np.where(np.abs(p - t) <= 0.5, 0.5 * (p - t) ** 2,
                                                        0.5 * np.abs(p - t) - 0.125))),
    (L.LogCosh(dtype="float64"), lambda t, p: np.mean(np.log(np.cosh(p - t)))),
    (L.CosineSimilarity(dtype="float64"), lambda t, p: np.mean(-np.sum(t * p, -1) / np.linalg.norm(t, axis=-1)
                                                / np.linalg.norm(p, axis=-1))),
    (L.SquaredHinge(dtype="float64"), lambda t, p: np.mean(np.maximum(1 - t * p, 0) ** 2)),
    (L.MeanSquaredError(reduction="sum", dtype="float64"), lambda t, p: np.sum(np.mean((p - t) ** 2, -1))),
])
def test_regression_losses_all_ways_and_gradients(loss, reference):
    run_all_ways(loss, tf.constant(Y_TRUE), tf.constant(Y_PRED), expected=reference(Y_TRUE, Y_PRED))
    check_gradients(lambda p: loss(tf.constant(Y_TRUE), p), [Y_PRED])


@pytest.mark.parametrize("loss,reference", [
    (L.BinaryCrossentropy(dtype="float64"), lambda t, p: np.mean(-(t * np.log(p) + (1 - t) * np.log(1 - p)))),
    (L.KLDivergence(dtype="float64"), lambda t, p: np.mean(np.sum(t * np.log(t / p), -1))),
    (L.Poisson(dtype="float64"), lambda t, p: np.mean(p - t * np.log(p + 1e-7))),
    (L.MeanAbsolutePercentageError(dtype="float64"), lambda t, p: np.mean(100 * np.abs((t - p) / t))),
])
def test_positive_losses_all_ways_and_gradients(loss, reference):
    p = np.clip(POS_PRED, 0.1, 0.9)
    run_all_ways(loss, tf.constant(POS_TRUE), tf.constant(p), expected=reference(POS_TRUE, p))
    check_gradients(lambda q: loss(tf.constant(POS_TRUE), q), [p])


def test_crossentropies_from_logits_match_probabilities():
    (logits,) = uniform_arrays((5, 4), seed=13, low=-2, high=2)
    labels = np.array([0, 3, 1, 2, 2])
    onehot = np.eye(4)[labels]
    probs = np.exp(logits) / np.exp(logits).sum(-1, keepdims=True)
    want = np.mean(-np.log(probs[np.arange(5), labels]))
    f64 = {"dtype": "float64"}  # Keras computes a loss in its dtype: floatx unless given
    for value in [L.SparseCategoricalCrossentropy(from_logits=True, **f64)(tf.constant(labels), tf.constant(logits)),
                  L.SparseCategoricalCrossentropy(dtype="float64")(tf.constant(labels), tf.constant(probs)),
                  L.CategoricalCrossentropy(from_logits=True, **f64)(tf.constant(onehot), tf.constant(logits)),
                  L.CategoricalCrossentropy(dtype="float64")(tf.constant(onehot), tf.constant(probs))]:
        np.testing.assert_allclose(float(value), want, rtol=1e-6)
    check_gradients(lambda z: L.CategoricalCrossentropy(from_logits=True, label_smoothing=0.1, dtype="float64")(
        tf.constant(onehot), z), [logits])
    check_gradients(lambda z: L.BinaryCrossentropy(from_logits=True, label_smoothing=0.2, dtype="float64")(
        tf.constant(onehot), z), [logits])


def test_sample_weight_and_reductions():
    t, p = tf.constant(Y_TRUE), tf.constant(Y_PRED)
    per_sample = np.mean((Y_PRED - Y_TRUE) ** 2, -1)
    w = np.array([1.0, 0.0, 2.0, 0.5])
    np.testing.assert_allclose(float(L.MeanSquaredError()(t, p, sample_weight=tf.constant(w))),
                               np.sum(per_sample * w) / 4, rtol=1e-6)
    np.testing.assert_allclose(L.MeanSquaredError(reduction="none")(t, p).numpy(), per_sample, rtol=1e-6)
    with pytest.raises(ValueError, match="reduction"):
        L.MeanSquaredError(reduction="avg")


def test_metrics_accumulate_in_function_and_reset():
    acc, auc, rmse = M.BinaryAccuracy(), M.AUC(num_thresholds=50), M.RootMeanSquaredError()

    @tf.function
    def update(t, p):
        acc.update_state(t, p)
        auc.update_state(t, p)
        rmse.update_state(t, p)

    t = np.array([0, 1, 1, 0, 1], np.float32)
    p = np.array([0.2, 0.7, 0.4, 0.1, 0.9], np.float32)
    update(tf.constant(t), tf.constant(p))
    update(tf.constant(t), tf.constant(p))
    assert float(acc.result()) == pytest.approx(0.8)
    assert float(auc.result()) == pytest.approx(1.0, abs=1e-6)
    assert float(rmse.result()) == pytest.approx(np.sqrt(np.mean((t - p) ** 2)), rel=1e-6)
    acc.reset_states()
    assert float(acc.result()) == 0.0


def test_mean_iou_and_precision_recall_against_numpy():
    rng = np.random.default_rng(3)
    labels, preds = rng.integers(0, 3, 50), rng.integers(0, 3, 50)
    cm = np.zeros((3, 3))
    np.add.at(cm, (labels, preds), 1)
    iou = np.diag(cm) / (cm.sum(0) + cm.sum(1) - np.diag(cm))
    metric = M.MeanIoU(num_classes=3)
    metric.update_state(labels, preds)
    assert float(metric.result()) == pytest.approx(iou.mean(), rel=1e-6)
    truth, scores = rng.integers(0, 2, 40), rng.uniform(size=40)
    precision, recall = M.Precision(), M.Recall()
    precision.update_state(truth, scores)
    recall.update_state(truth, scores)
    predicted = scores > 0.5
    assert float(precision.result()) == pytest.approx((predicted & (truth == 1)).sum() / predicted.sum(), rel=1e-6)
    assert float(recall.result()) == pytest.approx((predicted & (truth == 1)).sum() / (truth == 1).sum(), rel=1e-6)


def test_aliases_and_lookup():
    assert tf.losses.MeanSquaredError is L.MeanSquaredError and tf.metrics.Mean is M.Mean
    assert L.get("mse") is L.mean_squared_error and isinstance(M.get("mae"), M.MeanAbsoluteError)
    with pytest.raises(ValueError, match="nope"):
        M.get("nope")
