"""The losses and metrics added for issue 11 against numpy formulas, eager vs tf.function (passes on and off),
gradients against finite differences in float64, state reset, and names resolved by compile. TF 2.21's own
numbers are in tests/conformance/keras_losses_extra.py and keras_metrics_extra.py."""

from __future__ import annotations

import numpy as np
import pytest
from gradcheck import check_gradients, uniform_arrays
from ways import run_all_ways

import tinytf as tf

keras = tf.keras
L, M = keras.losses, keras.metrics
F64 = {"dtype": "float64"}

(LOGITS,) = uniform_arrays((4, 3), seed=21, low=-2.0, high=2.0)
PROBS = np.exp(LOGITS) / np.exp(LOGITS).sum(-1, keepdims=True)
ONEHOT = np.eye(3)[[0, 2, 1, 2]]
BINARY = np.array([[0, 1, 1], [1, 0, 0], [0, 0, 1], [1, 1, 0]], np.float64)


def _np_binary_focal(t, p, gamma=2.0, alpha=0.25, balance=False):
    p = np.clip(p, 1e-7, 1 - 1e-7)
    bce = -(t * np.log(p) + (1 - t) * np.log(1 - p))
    p_t = t * p + (1 - t) * (1 - p)
    focal = (1 - p_t) ** gamma * bce
    if balance:
        focal = (t * alpha + (1 - t) * (1 - alpha)) * focal
    return np.mean(np.mean(focal, -1))


def _np_categorical_focal(t, p, gamma=2.0, alpha=0.25):
    p = np.clip(p / p.sum(-1, keepdims=True), 1e-7, 1 - 1e-7)
    return np.mean(np.sum(alpha * (1 - p) ** gamma * -t * np.log(p), -1))


@pytest.mark.parametrize("loss,reference,y_true,y_pred", [
    (L.BinaryFocalCrossentropy(**F64), _np_binary_focal, BINARY, PROBS),
    (L.BinaryFocalCrossentropy(apply_class_balancing=True, gamma=3.0, alpha=0.4, **F64),
     lambda t, p: _np_binary_focal(t, p, 3.0, 0.4, True), BINARY, PROBS),
    (L.CategoricalFocalCrossentropy(**F64), _np_categorical_focal, ONEHOT, PROBS),
    (L.CategoricalHinge(**F64), lambda t, p: np.mean(np.maximum(
        np.max((1 - t) * p, -1) - np.sum(t * p, -1) + 1, 0)), ONEHOT, LOGITS),
    (L.Dice(**F64), lambda t, p: 1 - 2 * np.sum(t * p) / (np.sum(t) + np.sum(p) + 1e-7), ONEHOT, PROBS),
    (L.Tversky(alpha=0.3, beta=0.7, **F64), lambda t, p: 1 - np.sum(t * p) / (
        np.sum(t * p) + 0.3 * np.sum((1 - p) * t) + 0.7 * np.sum(p * (1 - t)) + 1e-7), ONEHOT, PROBS),
])
def test_losses_all_ways_and_gradients(loss, reference, y_true, y_pred):
    run_all_ways(loss, tf.constant(y_true), tf.constant(y_pred), expected=reference(y_true, y_pred))
    check_gradients(lambda p: loss(tf.constant(y_true), p), [y_pred])


def test_focal_from_logits_matches_probabilities():
    got = L.CategoricalFocalCrossentropy(from_logits=True, **F64)(tf.constant(ONEHOT), tf.constant(LOGITS))
    want = L.CategoricalFocalCrossentropy(**F64)(tf.constant(ONEHOT), tf.constant(PROBS))
    np.testing.assert_allclose(float(got), float(want), rtol=1e-6)
    check_gradients(lambda z: L.BinaryFocalCrossentropy(from_logits=True, label_smoothing=0.1, **F64)(
        tf.constant(BINARY), z), [LOGITS])


def test_generalized_cross_entropy_and_circle_gradients():
    labels = np.array([0, 2, 1, 2])
    gce = L.CategoricalGeneralizedCrossEntropy(q=0.3, **F64)
    want = np.mean((1 - PROBS[np.arange(4), labels] ** 0.3) / 0.3)
    run_all_ways(gce, tf.constant(labels), tf.constant(PROBS), expected=want)
    check_gradients(lambda p: gce(tf.constant(labels), p), [PROBS])
    emb = LOGITS / np.linalg.norm(LOGITS, axis=-1, keepdims=True)
    circle = L.Circle(gamma=3.0, **F64)
    run_all_ways(circle, tf.constant(np.array([0, 1, 0, 1])), tf.constant(emb))
    check_gradients(lambda e: circle(tf.constant(np.array([0, 1, 0, 1])), e), [emb])


def test_float64_numpy_inputs_compute_in_the_loss_dtype():
    """Keras converts y_true and y_pred to the loss's dtype (floatx unless given)."""
    assert L.Dice()(np.ones((2, 2)), np.full((2, 2), 0.5)).dtype == tf.float32
    assert L.Dice(dtype="float64")(np.ones((2, 2)), np.full((2, 2), 0.5)).dtype == tf.float64


def _np_counts(t, p, thr, w):
    above = p > thr
    return (np.sum(w * (above & (t == 1))), np.sum(w * (above & (t == 0))),
            np.sum(w * (~above & (t == 0))), np.sum(w * (~above & (t == 1))))


@pytest.mark.parametrize("graph", [False, True])
def test_confusion_counts_and_operating_points_against_numpy(graph):
    rng = np.random.default_rng(5)
    t = rng.integers(0, 2, 40)
    p = rng.uniform(0, 1, 40).astype(np.float32)
    w = rng.uniform(0.1, 2.0, 40).astype(np.float32)
    thresholds = [0.1, 0.35, 0.8]
    metrics = [M.TruePositives(thresholds), M.FalsePositives(thresholds), M.TrueNegatives(thresholds),
               M.FalseNegatives(thresholds)]
    for metric in metrics:
        update = tf.function(metric.update_state) if graph else metric.update_state
        update(t[:25], p[:25], sample_weight=w[:25])
        update(t[25:], p[25:], sample_weight=w[25:])
    want = np.array([_np_counts(t, p, thr, w) for thr in thresholds]).T
    for metric, row in zip(metrics, want):
        np.testing.assert_allclose(metric.result().numpy(), row, rtol=1e-5)
    # precision at recall >= 0.5, over 11 thresholds, as a brute-force search
    par = M.PrecisionAtRecall(0.5, num_thresholds=11)
    par.update_state(t, p)
    best = 0.0
    for thr in np.linspace(0, 1, 11):
        tp, fp, _, fn = _np_counts(t, p, thr, 1.0)
        if tp + fn and tp / (tp + fn) >= 0.5 and tp + fp:
            best = max(best, tp / (tp + fp))
    np.testing.assert_allclose(float(par.result()), best, rtol=1e-6)
    for metric in metrics + [par]:
        metric.reset_state()
        assert not np.any(metric.result().numpy())


def test_f1_r2_iou_against_numpy_and_reset():
    rng = np.random.default_rng(6)
    t = np.eye(4)[rng.integers(0, 4, 30)]
    p = rng.uniform(0, 1, (30, 4)).astype(np.float32)
    f1 = M.F1Score(average="macro")
    f1.update_state(t, p)
    pred = (p == p.max(-1, keepdims=True)).astype(float)
    tp, fp, fn = (pred * t).sum(0), (pred * (1 - t)).sum(0), ((1 - pred) * t).sum(0)
    precision, recall = tp / (tp + fp + 1e-7), tp / (tp + fn + 1e-7)
    np.testing.assert_allclose(float(f1.result()), np.mean(2 * precision * recall / (precision + recall + 1e-7)),
                               rtol=1e-5)
    y, yhat = rng.normal(size=(20, 2)), rng.normal(size=(20, 2))
    r2 = M.R2Score(class_aggregation=None)
    r2.update_state(y, yhat)
    want = 1 - ((y - yhat) ** 2).sum(0) / ((y - y.mean(0)) ** 2).sum(0)
    np.testing.assert_allclose(r2.result().numpy(), want, rtol=1e-4)
    iou = M.IoU(num_classes=3, target_class_ids=[0, 2])
    labels, preds = rng.integers(0, 3, 50), rng.integers(0, 3, 50)
    iou.update_state(labels, preds)
    ious = [np.sum((labels == c) & (preds == c)) / np.sum((labels == c) | (preds == c)) for c in (0, 2)]
    np.testing.assert_allclose(float(iou.result()), np.mean(ious), rtol=1e-5)
    for metric in (f1, r2, iou):
        metric.reset_state()
    assert float(iou.result()) == 0.0


def test_metric_names_resolve_in_compile():
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, activation="sigmoid")])
    model.compile(optimizer="sgd", loss="binary_focal_crossentropy",
                  metrics=["true_positives", "false_negatives", "msle", "log_cosh_error", "r2_score"])
    x = np.linspace(-1, 1, 16, dtype=np.float32).reshape(8, 2)
    y = (x[:, :1] > 0).astype(np.float32)
    logs = model.evaluate(x, y, verbose=0, return_dict=True)
    assert {"true_positives", "false_negatives", "msle", "log_cosh_error", "r2_score", "loss"} <= set(logs)
    assert logs["true_positives"] + logs["false_negatives"] == float(y.sum())
