"""tf.random.experimental.stateless_shuffle (helper gapsa): a permutation of the first dimension, determined by
the seed, equal eagerly and in tf.function, and TF's own for the seeds in conformance toplevel_gaps."""

from __future__ import annotations

import numpy as np
import pytest

import tinytf as tf

shuffle = tf.random.experimental.stateless_shuffle


@pytest.mark.parametrize("n", [0, 1, 2, 5, 64])
def test_is_a_permutation_fixed_by_the_seed(n):
    x = tf.range(n)
    a = shuffle(x, seed=[3, 9]).numpy()
    assert sorted(a.tolist()) == list(range(n))
    assert np.array_equal(a, shuffle(x, seed=[3, 9]).numpy())
    assert np.array_equal(a, tf.function(lambda v: shuffle(v, seed=[3, 9]))(x).numpy())


def test_rows_move_whole_and_seeds_differ():
    x = tf.reshape(tf.range(20.0), [10, 2])
    y = shuffle(x, seed=[1, 2]).numpy()
    assert all(row[1] == row[0] + 1 for row in y.tolist())
    assert not np.array_equal(y, shuffle(x, seed=[2, 1]).numpy())
    assert shuffle(tf.range(10), seed=[1, 2]).numpy().tolist() == [0, 3, 8, 1, 5, 4, 9, 7, 6, 2]  # TF 2.21's


def test_bad_seed_and_algorithm():
    with pytest.raises((ValueError, tf.errors.InvalidArgumentError), match="seed"):
        shuffle(tf.range(3), seed=[1])
    with pytest.raises(ValueError, match="Unsupported algorithm"):
        shuffle(tf.range(3), seed=[1, 2], alg="threefry")
