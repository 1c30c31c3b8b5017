"""tf.data's random sources as TF 2.21 draws them: Dataset.random (the RandomDataset kernel's Philox words,
the same each iteration), and sample_from_datasets (a stateless multinomial per element, seeded by pairs of
Dataset.random), with zero weights dropped, exhausted members skipped, stop_on_empty_dataset, global seeds,
and the imbalanced-data tutorial's resampling of two shuffled, repeated datasets."""

from __future__ import annotations

import numpy as np

from . import program


def _items(dataset):
    return [np.asarray(x).tolist() for x in dataset.as_numpy_iterator()]


@program
def p_dataset_random(tf):
    tf.random.set_seed(None)  # no global seed from an earlier program: op seeds as in a fresh process
    ds = tf.data.Dataset.random(seed=42)
    return [_items(ds.take(4)), _items(ds.take(2)), _items(tf.data.experimental.RandomDataset(seed=3).take(2))]


@program
def p_sample_from_datasets_order(tf):
    tf.random.set_seed(None)  # no global seed from an earlier program: op seeds as in a fresh process
    zeros, ones = tf.data.Dataset.from_tensors(0).repeat(), tf.data.Dataset.from_tensors(1).repeat()
    mixed = tf.data.Dataset.sample_from_datasets([zeros, ones], [0.5, 0.5], seed=6)
    short, long = tf.data.Dataset.range(3), tf.data.Dataset.range(10, 16)
    out = [_items(mixed.take(20)), _items(mixed.take(5)),
           _items(tf.data.Dataset.sample_from_datasets([zeros, ones, zeros], [0.2, 0.0, 0.8], seed=1).take(12)),
           _items(tf.data.Dataset.sample_from_datasets([short, long], seed=3)),
           _items(tf.data.Dataset.sample_from_datasets([short, long], seed=3, stop_on_empty_dataset=True)),
           _items(tf.data.Dataset.sample_from_datasets([short, long], [0.9, 0.1], seed=8).batch(4))]
    tf.random.set_seed(5)
    out.append(_items(tf.data.Dataset.sample_from_datasets([short, long], [0.7, 0.3])))
    return out


@program
def p_resampling_shuffled_repeats(tf):
    """The imbalanced-data tutorial's resampled dataset (no prefetch: TF's prefetch thread timing decides how
    far a repeat's reshuffling has gone, so a prefetched pipeline is not repeatable in TF itself)."""
    tf.random.set_seed(None)  # no global seed from an earlier program: op seeds as in a fresh process
    rng = np.random.default_rng(0)
    pos = tf.data.Dataset.from_tensor_slices((rng.normal(size=(5, 2)), np.ones(5))).shuffle(100, seed=5).repeat()
    neg = tf.data.Dataset.from_tensor_slices((rng.normal(size=(20, 2)), np.zeros(20))).shuffle(100, seed=5).repeat()
    resampled = tf.data.Dataset.sample_from_datasets([pos, neg], weights=[0.5, 0.5], seed=6).batch(8)
    first = [[np.round(x, 6).tolist(), y.tolist()] for x, y in resampled.take(3).as_numpy_iterator()]
    again = [y.tolist() for _, y in resampled.take(3).as_numpy_iterator()]
    return [first, again]
