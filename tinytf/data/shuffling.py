"""shuffle as TensorFlow's ShuffleDataset kernel does it, so a seeded pipeline gives TF's order: fill a
buffer of `buffer_size` elements; to emit, draw a 32-bit word w from a Philox stream, take the element at
offset w mod (elements held) from the buffer's oldest slot, move the oldest element into the hole, and read
the next input element into the buffer. Seeds follow TF's rules (op seed and global seed, via get_seed):
with reshuffle_each_iteration (the default) a seed generator, a Philox stream of its own, hands each new
iteration (each epoch, each `repeat`) two words as that iteration's (seed, seed2); without it every
iteration uses the dataset's seeds."""

from __future__ import annotations

import numpy as np

from tinytf.runtime.errors import InvalidArgumentError
from tinytf.runtime.ops.philox import PhiloxGenerator, blocks
from tinytf.runtime.ops.random import get_seed

from .dataset import UnaryDataset, dataset_methods
from .iteration_seeds import begin_pass
from .sources import as_int
from .symbolic import deferred_transform

_BLOCKS_PER_REFILL = 64  # 256 words a Philox call: a shuffle of n elements draws n words


class PhiloxWords:
    """TF's SingleSampleAdapter<PhiloxRandom>: the 32-bit words of successive Philox blocks, one at a time."""

    def __init__(self, seed: int, seed2: int):
        self._generator = PhiloxGenerator(seed, seed2)
        self._words: list = []
        self._at = 0

    def __call__(self) -> int:
        if self._at == len(self._words):
            start = self._generator.reserve(_BLOCKS_PER_REFILL)
            self._words = blocks(self._generator.key, start, _BLOCKS_PER_REFILL).reshape(-1).tolist()
            self._at = 0
        word = self._words[self._at]
        self._at += 1
        return word


def philox_words_at(seed: int, seed2: int, first: int, count: int) -> list:
    """Words first .. first + count - 1 of the stream PhiloxWords(seed, seed2) would give."""
    generator = PhiloxGenerator(seed, seed2)
    block, skip = divmod(first, 4)
    words = blocks(generator.key, generator.counter + block, -(-(skip + count) // 4)).reshape(-1)
    return [int(w) for w in words[skip:skip + count]]


def buffer_shuffle(items, buffer_size: int, words: PhiloxWords):
    """Yield `items` in the order of TF's shuffle buffer, drawing from `words`."""
    buffer = [None] * buffer_size
    oldest = newest = 0  # TF's slice [start, end): absolute positions, taken modulo buffer_size
    items = iter(items)
    exhausted = False
    while True:
        while not exhausted and newest - oldest < buffer_size:
            try:
                buffer[newest % buffer_size] = next(items)
            except StopIteration:
                exhausted = True
                break
            newest += 1
        if oldest == newest:
            return
        index = (oldest + words() % (newest - oldest)) % buffer_size
        chosen = buffer[index]
        buffer[index] = buffer[oldest % buffer_size]
        buffer[oldest % buffer_size] = None
        oldest += 1
        yield chosen


class ShuffleDataset(UnaryDataset):
    _tf_name = "_ShuffleDataset"

    def __init__(self, input_dataset, buffer_size, seed=None, reshuffle_each_iteration=True):
        super().__init__(input_dataset)
        self._buffer_size = as_int(buffer_size, "buffer_size")
        if self._buffer_size <= 0 and self._buffer_size != -1:
            raise InvalidArgumentError(f"buffer_size must be greater than zero, got {self._buffer_size}")
        seeds = get_seed(None if seed is None else as_int(seed, "seed"))
        if seeds is None:  # not seeded: random seeds, drawn once, as the kernel does for (0, 0)
            seeds = tuple(int(w) for w in np.random.SeedSequence().generate_state(4, np.uint64)[:2] >> np.uint64(1))
        self._seeds = seeds
        self._reshuffle = True if reshuffle_each_iteration is None else bool(reshuffle_each_iteration)
        self._epoch = 0

    def _next_words(self) -> PhiloxWords:
        """This iteration's Philox stream. Reshuffling: seeded by the next two words of the dataset's seed
        generator (TF's RandomSeedGenerator); otherwise by the dataset's own seeds, the same every time."""
        seed, seed2 = self._seeds
        epoch = begin_pass(self)  # a counter, not a live stream, so a restored iterator replays its epoch's seeds
        if not self._reshuffle:
            return PhiloxWords(seed, seed2)
        return PhiloxWords(*philox_words_at(seed, seed2, 2 * epoch, 2))

    def _buffer(self) -> int:
        n = self._buffer_size
        return n if n > 0 else max(self._input._cardinality(), 1)  # AUTOTUNE/-1: as large as the input

    def _flat_iter(self):
        yield from buffer_shuffle(self._input._flat_iter(), self._buffer(), self._next_words())


@dataset_methods
class _ShufflingMethods:
    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=True, name=None):
        return (deferred_transform(self, ShuffleDataset, buffer_size, build=lambda ds, size: (
            ShuffleDataset(ds, size, seed, reshuffle_each_iteration)))
                or ShuffleDataset(self, buffer_size, seed, reshuffle_each_iteration))
