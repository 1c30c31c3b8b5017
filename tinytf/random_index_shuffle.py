"""tf.random_index_shuffle and tf.random.experimental.index_shuffle (runtime/ops/random_index_shuffle.py)."""

from __future__ import annotations

from tinytf.runtime.dispatch import apply, convert_to_tensor
from tinytf.runtime.ops.array import pad
from tinytf.runtime.ops.random_index_shuffle import random_index_shuffle_op


def random_index_shuffle(index, seed, max_index, rounds=4, name=None):
    """Outputs the position of `index` in a permutation of [0, ..., max_index], keyed by `seed` (shape [3], or
    [n, 3] with vector indices); `rounds` of TF's Simon cipher (even, >= 4)."""
    index = convert_to_tensor(index)
    return apply(random_index_shuffle_op, (index, convert_to_tensor(seed), convert_to_tensor(max_index, index.dtype)),
                 {"rounds": int(rounds)}, name=name)


def index_shuffle(index, seed, max_index):
    """tf.random.experimental.index_shuffle: random_index_shuffle with a [2] (or [n, 2]) seed, padded in front
    with TF's constant 498247692, and 4 rounds."""
    seed = convert_to_tensor(seed)
    rank = 1 if seed._shape is None else len(seed._shape)
    seed = pad(seed, [[1, 0]] + [[0, 0]] * (rank - 1), constant_values=498247692)
    return random_index_shuffle(index, seed, max_index, rounds=4)
