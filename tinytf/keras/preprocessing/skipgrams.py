"""keras.preprocessing.sequence.skipgrams and make_sampling_table, as Keras 3's legacy module has them (the
word2vec tutorial's data). They draw from Python's `random` module, as Keras does, so after `random.seed(s)`
(or keras.utils.set_random_seed) they give Keras' pairs and labels."""

from __future__ import annotations

import random

import numpy as np

_EULER_GAMMA = 0.577  # Keras' rounded constant, kept so the tables are Keras' own


def make_sampling_table(size, sampling_factor=1e-5):
    """The probability of keeping the word of each frequency rank (word2vec's subsampling), from Zipf's law:
    rank r has frequency about 1 / (r (log r + gamma)), and a word is kept with probability
    min(1, sqrt(sampling_factor / frequency)) (written as f / sqrt(f), as Keras writes it)."""
    rank = np.arange(size)
    rank[0] = 1
    inverse_frequency = rank * (np.log(rank) + _EULER_GAMMA) + 0.5 - 1.0 / (12.0 * rank)
    f = sampling_factor * inverse_frequency
    return np.minimum(1.0, f / np.sqrt(f))


def skipgrams(sequence, vocabulary_size, window_size=4, negative_samples=1.0, shuffle=True, categorical=False,
              sampling_table=None, seed=None):
    """(couples, labels): every (word, context word) pair within `window_size` labelled 1, then
    `negative_samples` times as many (word, random word) pairs labelled 0; word index 0 is padding and skipped.
    With `shuffle`, couples and labels are shuffled alike (the same seed for both shuffles)."""
    positive, labels = [], []
    for i, word in enumerate(sequence):
        if not word:
            continue
        if sampling_table is not None and sampling_table[word] < random.random():
            continue
        for j in range(max(0, i - window_size), min(len(sequence), i + window_size + 1)):
            if j != i and sequence[j]:
                positive.append([word, sequence[j]])
                labels.append([0, 1] if categorical else 1)
    couples = positive
    if negative_samples > 0:
        count = int(len(labels) * negative_samples)
        words = [pair[0] for pair in positive]
        random.shuffle(words)
        couples = positive + [[words[i % len(words)], random.randint(1, vocabulary_size - 1)] for i in range(count)]
        labels = labels + [[1, 0] if categorical else 0] * count
    if shuffle:
        if seed is None:
            seed = random.randint(0, 10e6)
        random.seed(seed)
        random.shuffle(couples)
        random.seed(seed)
        random.shuffle(labels)
    return couples, labels
