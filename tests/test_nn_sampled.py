"""Unigram candidate samplers and the sampled losses (nce_loss, sampled_softmax_loss): the samplers' frequencies
against their distributions, the learned sampler's counts, eager against tf.function (passes on and off), the
losses against a numpy transcription of their formulas, and their gradients against finite differences.
TF's own numbers for seeds are in tests/conformance/nn_sampled_losses.py."""

from __future__ import annotations

import numpy as np
import pytest
from gradcheck import check_gradients

import tinytf as tf
from tinytf.nn_sampled_losses import nce_loss_v1, sampled_softmax_loss_v1

CLASSES = tf.constant([[3], [1]], tf.int64)
COUNTS = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]


def test_fixed_unigram_frequencies_follow_counts_to_the_distortion():
    sampled = tf.random.fixed_unigram_candidate_sampler(CLASSES, 1, 6000, False, 6, unigrams=COUNTS, seed=1,
                                                        distortion=0.5)
    freq = np.bincount(sampled.sampled_candidates.numpy(), minlength=6) / 6000
    want = np.sqrt(COUNTS) / np.sum(np.sqrt(COUNTS))
    np.testing.assert_allclose(freq, want, atol=0.02)
    # without rejection the expected count is p * num_sampled
    np.testing.assert_allclose(sampled.true_expected_count.numpy()[:, 0], want[[3, 1]] * 6000, rtol=1e-5)


def test_fixed_unigram_reserved_ids_are_never_drawn_and_shards_keep_their_ids():
    sampled = tf.random.fixed_unigram_candidate_sampler(CLASSES, 1, 200, False, 8, unigrams=COUNTS, seed=2,
                                                        num_reserved_ids=2)[0].numpy()
    assert sampled.min() >= 2
    # shard 1 of 2, two reserved ids: the weights are [0 (reserved id 1), counts of word ids 1, 3, 5]
    shard = tf.random.fixed_unigram_candidate_sampler(CLASSES, 1, 3000, False, 4, unigrams=COUNTS, seed=2,
                                                      num_reserved_ids=2, num_shards=2, shard=1)[0].numpy()
    np.testing.assert_allclose(np.bincount(shard, minlength=4) / 3000, [0, 1 / 9, 3 / 9, 5 / 9], atol=0.03)


def test_fixed_unigram_from_a_vocabulary_file(tmp_path):
    path = tmp_path / "vocab.csv"
    path.write_text("".join(f"w{i},x,{c}\n" for i, c in enumerate(COUNTS)))
    from_file = tf.random.fixed_unigram_candidate_sampler(CLASSES, 1, 5, True, 6, vocab_file=str(path), seed=4)
    from_list = tf.random.fixed_unigram_candidate_sampler(CLASSES, 1, 5, True, 6, unigrams=COUNTS, seed=4)
    for a, b in zip(from_file, from_list):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    path.write_text("a,1\nb,oops\n")
    with pytest.raises(tf.errors.InvalidArgumentError, match="Wrong vocabulary format"):
        tf.random.fixed_unigram_candidate_sampler(CLASSES, 1, 1, True, 2, vocab_file=str(path), seed=4)
    with pytest.raises(tf.errors.NotFoundError):
        tf.random.fixed_unigram_candidate_sampler(CLASSES, 1, 1, True, 2, vocab_file=str(tmp_path / "no"), seed=4)


def test_learned_unigram_learns_the_true_classes():
    classes = tf.constant([[4]] * 50, tf.int64)
    first = tf.random.learned_unigram_candidate_sampler(classes, 1, 1000, False, 5, seed=7)
    # before any update every class weighs 1
    np.testing.assert_allclose(first.true_expected_count.numpy(), 200.0, rtol=1e-6)
    second = tf.random.learned_unigram_candidate_sampler(classes, 1, 1000, False, 5, seed=7)
    # class 4 now counts 51 of 55: its expected count and its frequency follow
    np.testing.assert_allclose(second.true_expected_count.numpy(), 1000 * 51 / 55, rtol=1e-5)
    assert np.mean(second.sampled_candidates.numpy() == 4) > 0.85


def test_unigram_samplers_in_a_function_draw_anew_each_call(passes):
    tf.random.set_seed(None)  # fresh eager kernels: their streams start where the graph nodes' start
    graph = tf.function(lambda c: tf.random.fixed_unigram_candidate_sampler(c, 1, 4, True, 6, unigrams=COUNTS,
                                                                            seed=3)[0])
    eager = [tf.random.fixed_unigram_candidate_sampler(CLASSES, 1, 4, True, 6, unigrams=COUNTS, seed=3)[0].numpy()
             for _ in range(2)]
    np.testing.assert_array_equal([graph(CLASSES).numpy() for _ in range(2)], eager)
    learned = tf.function(lambda c: tf.random.learned_unigram_candidate_sampler(c, 1, 3, True, 6, seed=3)[1])
    before, after = learned(CLASSES).numpy(), learned(CLASSES).numpy()
    assert not np.allclose(before, after)  # the node's counts grew between the calls


def test_unigram_sampler_errors():
    fixed = tf.random.fixed_unigram_candidate_sampler
    with pytest.raises(tf.errors.InvalidArgumentError, match="weights size"):
        fixed(CLASSES, 1, 2, True, 6, unigrams=[1.0, 2.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="only provide one"):
        fixed(CLASSES, 1, 2, True, 6, unigrams=COUNTS, vocab_file="x.csv")
    with pytest.raises(tf.errors.InvalidArgumentError, match="range is too small"):
        fixed(CLASSES, 1, 7, True, 6, unigrams=COUNTS)
    with pytest.raises(ValueError, match="matrix"):
        tf.function(lambda c: fixed(c, 1, 2, True, 6, unigrams=COUNTS))(tf.constant([1], tf.int64))


# --- the losses ------------------------------------------------------------------------------------------------
RNG = np.random.default_rng(0)
W, B, X = RNG.normal(size=(10, 4)), RNG.normal(size=10) * 0.5, RNG.normal(size=(3, 4))
LABELS = np.array([[1], [7], [3]], np.int64)
SAMPLED = (tf.constant([3, 0, 9, 1, 2], tf.int64), tf.constant([[0.5], [0.25], [0.1]], tf.float64),
           tf.constant([0.1, 0.2, 0.3, 0.4, 0.5], tf.float64))


def _numpy_logits(w, b, x, labels, sampled, true_q, sampled_q, remove_hits):
    true = np.einsum("bd,btd->bt", x, w[labels]) + b[labels] - np.log(true_q)
    samp = x @ w[sampled].T + b[sampled] - np.log(sampled_q)
    if remove_hits:
        hit = (labels[:, :, None] == sampled[None, None, :]).any(1)
        samp = np.where(hit, samp - np.finfo(np.float32).max, samp)
    return true, samp


def _numpy_nce(w, b, x, labels, sampled_values, remove_hits=False):
    true, samp = _numpy_logits(w, b, x, labels, *[np.asarray(s) for s in sampled_values], remove_hits)
    xent = lambda z, y: np.maximum(z, 0) - z * y + np.log1p(np.exp(-np.abs(z)))  # noqa: E731
    return xent(true, 1.0 / labels.shape[1]).sum(1) + xent(samp, 0.0).sum(1)


def _numpy_sampled_softmax(w, b, x, labels, sampled_values, remove_hits=True):
    true, samp = _numpy_logits(w, b, x, labels, *[np.asarray(s) for s in sampled_values], remove_hits)
    logits = np.concatenate([true, samp], 1)
    log_z = logits.max(1) + np.log(np.exp(logits - logits.max(1, keepdims=True)).sum(1))
    return log_z - true.sum(1) / labels.shape[1]


@pytest.mark.parametrize("remove_hits", [False, True])
def test_nce_loss_matches_its_formula_eagerly_and_in_functions(remove_hits, passes):
    want = _numpy_nce(W, B, X, LABELS, SAMPLED, remove_hits)
    fn = lambda w, b, x: tf.nn.nce_loss(w, b, LABELS, x, 5, 10, sampled_values=SAMPLED,  # noqa: E731
                                        remove_accidental_hits=remove_hits)
    np.testing.assert_allclose(fn(W, B, X).numpy(), want, rtol=1e-10)
    np.testing.assert_allclose(tf.function(fn)(W, B, X).numpy(), want, rtol=1e-10)


def test_sampled_softmax_loss_matches_its_formula(passes):
    want = _numpy_sampled_softmax(W, B, X, LABELS, SAMPLED)
    fn = lambda w, b, x: tf.nn.sampled_softmax_loss(w, b, LABELS, x, 5, 10, sampled_values=SAMPLED)  # noqa: E731
    np.testing.assert_allclose(fn(W, B, X).numpy(), want, rtol=1e-10)
    np.testing.assert_allclose(tf.function(fn)(W, B, X).numpy(), want, rtol=1e-10)


def test_num_true_two_spreads_the_label():
    labels = np.array([[1, 2], [7, 0], [3, 3]], np.int64)
    values = (SAMPLED[0], tf.constant([[0.5, 0.3], [0.25, 0.1], [0.1, 0.2]], tf.float64), SAMPLED[2])
    got = tf.nn.nce_loss(W, B, labels, X, 5, 10, num_true=2, sampled_values=values)
    np.testing.assert_allclose(got.numpy(), _numpy_nce(W, B, X, labels, values), rtol=1e-10)


@pytest.mark.parametrize("loss", [tf.nn.nce_loss, tf.nn.sampled_softmax_loss])
def test_sampled_loss_gradients_wrt_weights_biases_inputs(loss):
    check_gradients(lambda w, b, x: loss(w, b, LABELS, x, 5, 10, sampled_values=SAMPLED), [W, B, X], rtol=1e-6)


def test_sampled_loss_gradient_of_weights_is_indexed_slices():
    w = tf.Variable(W)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.nn.nce_loss(w, B, LABELS, X, 5, 10, sampled_values=SAMPLED))
    grad = tape.gradient(loss, w)
    assert isinstance(grad, tf.IndexedSlices)
    assert sorted(set(grad.indices.numpy().tolist())) == [0, 1, 2, 3, 7, 9]


@pytest.mark.parametrize("strategy", ["mod", "div"])
def test_sharded_weights_match_the_whole_table(strategy):
    shards = ([W[i::3] for i in range(3)] if strategy == "mod" else [W[:4], W[4:7], W[7:]])
    b_shards = ([B[i::3] for i in range(3)] if strategy == "mod" else [B[:4], B[4:7], B[7:]])
    whole = nce_loss_v1(W, B, LABELS, X, 5, 10, sampled_values=SAMPLED, partition_strategy=strategy)
    split = nce_loss_v1(shards, b_shards, LABELS, X, 5, 10, sampled_values=SAMPLED, partition_strategy=strategy)
    np.testing.assert_allclose(split.numpy(), whole.numpy(), rtol=1e-12)
    soft = sampled_softmax_loss_v1(shards, b_shards, LABELS, X, 5, 10, sampled_values=SAMPLED,
                                   partition_strategy=strategy)
    np.testing.assert_allclose(soft.numpy(), _numpy_sampled_softmax(W, B, X, LABELS, SAMPLED), rtol=1e-10)


def test_sampled_losses_with_drawn_samples_train_in_a_function():
    w, b = tf.Variable(W.astype(np.float32)), tf.Variable(B.astype(np.float32))  # the sampler's Q is float32
    opt = tf.keras.optimizers.SGD(0.5)

    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.nn.sampled_softmax_loss(w, b, LABELS, x, 4, 10, seed=1))
        opt.apply_gradients(zip(tape.gradient(loss, [w, b]), [w, b]))
        return loss

    losses = [float(step(X.astype(np.float32))) for _ in range(30)]
    assert losses[-1] < losses[0] * 0.5


def test_bad_shapes_raise():
    with pytest.raises(ValueError, match="inputs must be"):
        tf.nn.nce_loss(W, B, LABELS, X[0], 5, 10)
    with pytest.raises(ValueError, match="labels must be"):
        tf.nn.sampled_softmax_loss(W, B, LABELS[:, 0], X, 5, 10)
