"""Candidate sampling as word2vec and large-vocabulary models use it: the fixed unigram sampler (unigrams, a
vocabulary file, distortion, reserved ids, shards) and the learned one (its counts grow run after run), with
op and global seeds, eagerly and in a tf.function; tf.nn.nce_loss and tf.nn.sampled_softmax_loss (accidental
hits, num_true > 1, given sampled_values) with their gradients wrt weights, biases and inputs."""

from __future__ import annotations

import os
import tempfile

from . import data, outcome, program, val


def _draws(sampled):
    return [val(t) for t in sampled]


@program
def p_fixed_unigram_sampler(tf):
    tf.random.set_seed(None)
    classes = tf.constant([[3], [1]], tf.int64)
    counts = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    out = []
    for unique in (True, False):
        for _ in range(2):  # a second run continues the kernel's stream
            out.append(_draws(tf.random.fixed_unigram_candidate_sampler(classes, 1, 5, unique, 6, unigrams=counts,
                                                                        seed=3)))
    out.append(_draws(tf.nn.fixed_unigram_candidate_sampler(classes, 1, 5, True, 8, unigrams=counts, seed=3,
                                                            distortion=0.5, num_reserved_ids=2)))
    out.append(_draws(tf.random.fixed_unigram_candidate_sampler(classes, 1, 3, True, 4, unigrams=counts, seed=3,
                                                                num_reserved_ids=2, num_shards=2, shard=1)))
    big = [float(i % 7 + 1) for i in range(1000)]
    out.append(_draws(tf.random.fixed_unigram_candidate_sampler(classes, 1, 40, False, 1000, unigrams=big, seed=9,
                                                                distortion=0.75)))
    tf.random.set_seed(4)
    out.append(_draws(tf.random.fixed_unigram_candidate_sampler(classes, 1, 4, True, 6, unigrams=counts)))
    graph = tf.function(lambda c: tf.random.fixed_unigram_candidate_sampler(c, 1, 3, True, 6, unigrams=counts,
                                                                            seed=1)[0])
    out.append([val(graph(classes)), val(graph(classes))])
    tf.random.set_seed(None)  # leave no global seed to the programs after this one
    return out


@program
def p_fixed_unigram_sampler_vocab_file(tf):
    tf.random.set_seed(None)
    fd, path = tempfile.mkstemp(suffix=".csv")
    with os.fdopen(fd, "w") as f:
        f.write("the,10\nof,7.5\nand,5\nto,2\nin,1\nis,0.5\n")
    try:
        classes = tf.constant([[0], [4]], tf.int64)
        return [_draws(tf.random.fixed_unigram_candidate_sampler(classes, 1, 4, True, 6, vocab_file=path, seed=5)),
                _draws(tf.random.fixed_unigram_candidate_sampler(classes, 1, 4, False, 7, vocab_file=path, seed=5,
                                                                 num_reserved_ids=1, distortion=0.75))]
    finally:
        os.remove(path)


@program
def p_learned_unigram_sampler(tf):
    tf.random.set_seed(None)
    classes = tf.constant([[3], [1]], tf.int64)
    out = [_draws(tf.random.learned_unigram_candidate_sampler(classes, 1, 5, True, 6, seed=3)) for _ in range(3)]
    out.append(_draws(tf.nn.learned_unigram_candidate_sampler(classes, 1, 5, False, 6, seed=3)))
    pairs = tf.constant([[3, 3], [1, 2]], tf.int64)
    out.append(_draws(tf.random.learned_unigram_candidate_sampler(pairs, 2, 20, False, 7, seed=3)))
    graph = tf.function(lambda c: tf.random.learned_unigram_candidate_sampler(c, 1, 4, True, 9, seed=2)[::2])
    out.append([val(graph(classes)), val(graph(classes)), val(graph(classes))])
    return out


@program
def p_unigram_sampler_errors(tf):
    classes = tf.constant([[3], [1]], tf.int64)
    fixed = tf.random.fixed_unigram_candidate_sampler
    return [outcome(lambda: fixed(classes, 1, 3, True, 6, unigrams=[1.0, 2.0], seed=1), "weights size"),
            outcome(lambda: fixed(classes, 1, 7, True, 6, unigrams=[1.0] * 6, seed=1), "range"),
            outcome(lambda: fixed(classes, 2, 2, True, 6, unigrams=[1.0] * 6, seed=1), "num_true"),
            outcome(lambda: fixed(classes, 1, 2, True, 6, seed=1), "vocab_file or unigrams"),
            outcome(lambda: tf.random.learned_unigram_candidate_sampler(classes, 1, 2, True, 3, seed=1), "range")]


def _model(tf):
    weights = tf.Variable(data([10, 4], seed=1))
    biases = tf.Variable(data([10], seed=2, scale=0.5))
    inputs = tf.constant(data([3, 4], seed=3))
    return weights, biases, inputs


def _dense(tf, g):
    return val(tf.convert_to_tensor(g))


@program
def p_nce_and_sampled_softmax_losses(tf):
    weights, biases, inputs = _model(tf)
    labels = tf.constant([[1], [7], [3]], tf.int64)
    pairs = tf.constant([[1, 2], [7, 0], [3, 3]], tf.int64)
    tf.random.set_seed(5)
    with tf.GradientTape() as tape:
        tape.watch(inputs)
        softmax = tf.nn.sampled_softmax_loss(weights, biases, labels, inputs, 4, 10, seed=3)
        nce = tf.nn.nce_loss(weights, biases, pairs, inputs, 5, 10, num_true=2)
        hits = tf.nn.nce_loss(weights, biases, labels, inputs, 5, 10, remove_accidental_hits=True)
        total = tf.reduce_sum(softmax) + tf.reduce_sum(nce) + tf.reduce_sum(hits)
    grads = tape.gradient(total, [weights, biases, inputs])
    tf.random.set_seed(None)  # leave no global seed to the programs after this one
    return [val(softmax), val(nce), val(hits), [_dense(tf, g) for g in grads]]


@program
def p_sampled_losses_given_samples(tf):
    weights, biases, inputs = _model(tf)
    labels = tf.constant([[1], [7], [3]], tf.int64)
    pairs = tf.constant([[1, 2], [7, 0], [3, 3]], tf.int64)
    single = (tf.constant([3, 0, 9, 1, 2], tf.int64), tf.constant([[0.5], [0.25], [0.1]]),
              tf.constant([0.1, 0.2, 0.3, 0.4, 0.5]))
    double = (single[0], tf.constant([[0.5, 0.3], [0.25, 0.1], [0.1, 0.2]]), single[2])
    out = [val(tf.nn.nce_loss(weights, biases, labels, inputs, 5, 10, sampled_values=single)),
           val(tf.nn.nce_loss(weights, biases, labels, inputs, 5, 10, sampled_values=single,
                              remove_accidental_hits=True)),
           val(tf.nn.nce_loss(weights, biases, pairs, inputs, 5, 10, num_true=2, sampled_values=double)),
           val(tf.nn.sampled_softmax_loss(weights, biases, labels, inputs, 5, 10, sampled_values=single)),
           val(tf.nn.sampled_softmax_loss(weights, biases, pairs, inputs, 5, 10, num_true=2, sampled_values=double,
                                          remove_accidental_hits=False))]
    shards = [tf.constant(data([4, 4], seed=1)), tf.constant(data([3, 4], seed=4)), tf.constant(data([3, 4], seed=5))]
    out.append(val(tf.nn.sampled_softmax_loss(shards, biases, labels, inputs, 5, 10, sampled_values=single)))

    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            loss = tf.reduce_mean(tf.nn.nce_loss(weights, biases, labels, x, 5, 10, sampled_values=single))
        return loss, [tf.convert_to_tensor(g) for g in tape.gradient(loss, [weights, biases, x])]

    loss, grads = step(inputs)
    out.append([val(loss), [val(g) for g in grads]])
    return out
