"""The word2vec tutorial's data: keras.preprocessing.sequence.skipgrams and make_sampling_table (Python's
`random`, seeded), TF's candidate samplers (log-uniform, uniform, all) with op and global seeds, eagerly and in a
tf.function, compute_accidental_hits, and the tutorial's generate_training_data on a tiny corpus."""

from __future__ import annotations

import random

import numpy as np

from . import outcome, program, val


@program
def p_skipgrams_and_sampling_table(tf):
    sequence = tf.keras.preprocessing.sequence
    table = sequence.make_sampling_table(12)
    out = [np.round(table, 7).tolist(), np.round(sequence.make_sampling_table(5, sampling_factor=0.01), 7).tolist()]
    random.seed(5)
    out.append(list(sequence.skipgrams([1, 2, 0, 3, 4, 5], vocabulary_size=6, window_size=2)))
    random.seed(6)
    out.append(list(sequence.skipgrams([3, 1, 4, 1, 5], vocabulary_size=7, window_size=1, negative_samples=2.0,
                                       categorical=True, seed=11)))
    random.seed(7)
    out.append(list(sequence.skipgrams([2, 3, 4, 5, 6, 7], 8, window_size=3, negative_samples=0, shuffle=False,
                                       sampling_table=sequence.make_sampling_table(8, sampling_factor=0.3))))
    return out


def _draws(tf, sampler, *args, **kwargs):
    return [val(t) for t in sampler(*args, **kwargs)]


@program
def p_candidate_samplers(tf):
    tf.random.set_seed(None)  # no global seed from an earlier program: op seeds as in a fresh process
    classes = tf.constant([[3], [7], [0]], tf.int64)
    out = []
    for unique in (True, False):
        for _ in range(2):  # a second call continues the op kernel's stream
            out.append(_draws(tf, tf.random.log_uniform_candidate_sampler, classes, 1, 5, unique, 50, seed=42))
    out.append(_draws(tf, tf.random.uniform_candidate_sampler, tf.constant([[1, 2]], tf.int64), 2, 6, True, 10,
                      seed=7))
    out.append(_draws(tf, tf.random.uniform_candidate_sampler, tf.constant([[1, 2]], tf.int64), 2, 6, False,
                      1 << 40, seed=7))
    tf.random.set_seed(3)
    out.append(_draws(tf, tf.random.log_uniform_candidate_sampler, classes, 1, 8, True, 1000))
    out.append(_draws(tf, tf.random.log_uniform_candidate_sampler, classes, 1, 8, True, 1000, seed=2))
    graph = tf.function(lambda x: tf.random.log_uniform_candidate_sampler(x, 1, 4, True, 20, seed=1)[0])
    out.append([val(graph(classes)), val(graph(classes))])
    out.append(_draws(tf, tf.random.all_candidate_sampler, tf.constant([[3], [1]], tf.int64), 1, 4, True))
    out.append(_draws(tf, tf.nn.compute_accidental_hits, tf.constant([[3, 1], [2, 9]], tf.int64),
                      tf.constant([1, 2, 3, 1], tf.int64), 2))
    out.append(outcome(lambda: tf.random.log_uniform_candidate_sampler(classes, 1, 5, True, 4, seed=1), "range"))
    out.append(outcome(lambda: tf.random.log_uniform_candidate_sampler(classes, 2, 2, True, 40, seed=1),
                       "num_true"))
    out.append(outcome(lambda: tf.random.uniform_candidate_sampler(classes, 1, 2, True, 5, seed=1), "range"))
    return out


@program
def p_word2vec_generate_training_data(tf):
    """The tutorial's function, at a small size (window 2, 4 negatives, seed 42)."""
    tf.random.set_seed(None)  # no global seed from an earlier program: op seeds as in a fresh process
    seed, num_ns = 42, 4
    sequences = [[1, 3, 5, 2, 4], [2, 6, 1, 0, 0], [7, 1, 3, 8, 2]]
    vocab_size = 9
    random.seed(seed)
    targets, contexts, labels = [], [], []
    sampling_table = tf.keras.preprocessing.sequence.make_sampling_table(vocab_size, sampling_factor=0.5)
    for sequence in sequences:
        positive_skip_grams, _ = tf.keras.preprocessing.sequence.skipgrams(
            sequence, vocabulary_size=vocab_size, sampling_table=sampling_table, window_size=2,
            negative_samples=0)
        for target_word, context_word in positive_skip_grams:
            context_class = tf.expand_dims(tf.constant([context_word], dtype="int64"), 1)
            negative_sampling_candidates, _, _ = tf.random.log_uniform_candidate_sampler(
                true_classes=context_class, num_true=1, num_sampled=num_ns, unique=True, range_max=vocab_size,
                seed=seed, name="negative_sampling")
            context = tf.concat([tf.squeeze(context_class, 1), negative_sampling_candidates], 0)
            label = tf.constant([1] + [0] * num_ns, dtype="int64")
            targets.append(target_word)
            contexts.append(context)
            labels.append(label)
    return [targets, [val(c) for c in contexts], [val(l) for l in labels]]


@program
def p_fit_on_a_dataset_with_no_full_batch(tf):
    """The tutorial at a small corpus size: drop_remainder leaves no batch. Keras 3 warns, trains nothing and
    returns an empty history (it does not raise)."""
    import warnings

    x = np.arange(6, dtype="float32").reshape(3, 2)
    dataset = tf.data.Dataset.from_tensor_slices((x, x[:, :1])).batch(4, drop_remainder=True)
    model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1, kernel_initializer="ones")])
    model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        history = model.fit(dataset, epochs=2, verbose=0)
    ran_out = sum("ran out of data" in str(w.message) for w in caught)
    return [history.history, ran_out > 0, val(tf.convert_to_tensor(model.weights[0]))]
