"""CTC beyond the recorded conformance programs (tests/conformance/ctc_ops.py): the loss against a brute-force sum
over every alignment, gradients against finite differences (eagerly and in graphs, dense and sparse labels, any
blank), the three ways (eager, passes on, passes off) with unknown dimensions, and a Keras model trained with
keras.losses.CTC."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from gradcheck import check_gradients

import tinytf as tf


def brute_force_loss(logits, labels, blank):
    """-log of the summed probability of every frame labelling that collapses (repeats merged, blanks dropped) to
    `labels`: the definition of the CTC loss, for tiny inputs."""
    log_probs = logits - np.log(np.sum(np.exp(logits), axis=-1, keepdims=True))
    total = 0.0
    for path in itertools.product(range(logits.shape[-1]), repeat=logits.shape[0]):
        collapsed = [k for i, k in enumerate(path) if k != blank and (i == 0 or k != path[i - 1])]
        if collapsed == list(labels):
            total += np.exp(sum(log_probs[t, k] for t, k in enumerate(path)))
    return -np.log(total)


@pytest.mark.parametrize("labels, blank", [([1, 2], 0), ([1, 1], 0), ([1], 2), ([0, 1, 0], 2), ([], 1)])
def test_loss_is_the_sum_over_alignments(labels, blank):
    logits = np.random.default_rng(len(labels) + blank).normal(size=(5, 3))
    padded = np.array([labels + [0] * (3 - len(labels))])
    got = tf.nn.ctc_loss(padded, logits[:, None, :], [len(labels)], [5], blank_index=blank)
    np.testing.assert_allclose(got.numpy()[0], brute_force_loss(logits, labels, blank), rtol=1e-10)


def test_logit_length_ignores_the_frames_after_it():
    logits = np.random.default_rng(3).normal(size=(6, 1, 4))
    short = tf.nn.ctc_loss([[1, 3]], logits, [2], [4]).numpy()
    np.testing.assert_allclose(short[0], brute_force_loss(logits[:4, 0], [1, 3], 0), rtol=1e-10)


LABELS = [[1, 2, 2], [3, 1, 0]]


@pytest.mark.parametrize("fn", [
    lambda x: tf.nn.ctc_loss(LABELS, tf.reshape(x, [6, 2, 4]), [3, 2], [6, 5]),
    lambda x: tf.nn.ctc_loss(LABELS, tf.reshape(x, [2, 6, 4]), [3, 2], [6, 6], logits_time_major=False,
                             blank_index=-1),
    lambda x: tf.nn.ctc_loss(tf.sparse.from_dense(tf.constant(LABELS)), tf.reshape(x, [6, 2, 4]), None, [6, 4],
                             blank_index=0),
], ids=["dense", "batch_major_last_blank", "sparse"])
def test_gradients_match_finite_differences(fn):
    check_gradients(fn, [np.random.default_rng(5).normal(size=(48,))], rtol=1e-5, atol=1e-7)


def test_three_ways_with_unknown_dimensions():
    logits = np.random.default_rng(6).normal(size=(7, 3, 5)).astype(np.float32)
    labels, label_length, logit_length = np.array([[1, 2, 0], [3, 3, 4], [2, 0, 0]]), [2, 3, 1], [7, 6, 3]

    def loss(x):
        return tf.nn.ctc_loss(labels, x, label_length, logit_length)

    eager = loss(tf.constant(logits)).numpy()
    saved = tf.config.optimizer.get_experimental_options()
    for passes in (True, False):
        tf.config.optimizer.set_experimental_options({"disable_all": not passes})
        try:
            traced = tf.function(loss, input_signature=[tf.TensorSpec([None, None, 5], tf.float32)])
            np.testing.assert_allclose(traced(tf.constant(logits)).numpy(), eager, rtol=1e-6)
        finally:
            tf.config.optimizer.set_experimental_options({"disable_all": saved.get("disable_all", False)})
    decoded, scores = tf.function(lambda x: tf.nn.ctc_greedy_decoder(x, logit_length))(tf.constant(logits))
    best = logits.argmax(-1)
    for b in range(3):
        frames = [int(k) for i, k in enumerate(best[:logit_length[b], b])
                  if k != 4 and (i == 0 or k != best[i - 1, b])]
        got = decoded[0].values.numpy()[decoded[0].indices.numpy()[:, 0] == b].tolist()
        assert got == frames
    np.testing.assert_allclose(scores.numpy()[:, 0], [-logits[:n, b].max(-1).sum() for b, n in
                                                      enumerate(logit_length)], rtol=1e-6)


def test_beam_search_with_a_wide_beam_finds_the_best_labelling():
    logits = np.random.default_rng(8).normal(size=(4, 1, 3)) * 2.0
    (decoded,), log_probability = tf.nn.ctc_beam_search_decoder(logits, [4], beam_width=50)
    best = decoded.values.numpy().tolist()
    # every labelling's probability by brute force (blank last): the beam's best is the most probable one
    scores = {}
    for path in itertools.product(range(3), repeat=4):
        collapsed = tuple(k for i, k in enumerate(path) if k != 2 and (i == 0 or k != path[i - 1]))
        scores.setdefault(collapsed, brute_force_loss(logits[:, 0], list(collapsed), 2))
    assert tuple(best) == min(scores, key=scores.get)
    np.testing.assert_allclose(log_probability.numpy()[0, 0], -scores[tuple(best)], rtol=1e-6)


def test_a_keras_model_learns_with_the_ctc_loss():
    keras = tf.keras
    # seeded: unseeded, the initial weights followed whatever ran before, and 15 epochs sometimes fell short;
    # with 30 epochs every seed of 0-7 converges (loss 7.0-8.2 -> 0.04-0.07)
    keras.utils.set_random_seed(0)
    x = np.tile(np.eye(10, dtype=np.float32), (16, 1, 1))  # each frame knows its position
    y = np.tile([[1, 2, 0]], (16, 1))
    model = keras.Sequential([keras.Input((10, 10)), keras.layers.Dense(4)])
    model.compile(optimizer=keras.optimizers.Adam(0.1), loss=keras.losses.CTC())
    history = model.fit(x, y, epochs=30, batch_size=8, verbose=0)
    assert history.history["loss"][-1] < 0.1 * history.history["loss"][0]
    decoded, _ = keras.ops.ctc_decode(model.predict(x[:2], verbose=0), [10, 10])
    assert decoded.numpy()[0, :, :2].tolist() == [[1, 2], [1, 2]]
