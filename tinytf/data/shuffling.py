"""shuffle with TF's buffer semantics: fill a buffer of `buffer_size` elements, then repeatedly emit a
uniformly chosen one and put the next input element in its place; at the end of input, drain the buffer
in random order. Seeds follow TF's rules (op seed and global seed, via get_seed); the order for a given
seed is deterministic but not TF's (TF's Philox stream is not reproduced here)."""

from __future__ import annotations

import numpy as np

from tinytf.runtime.errors import InvalidArgumentError
from tinytf.runtime.ops.random import get_seed

from .dataset import UnaryDataset, dataset_methods
from .sources import as_int
from .symbolic import deferred_transform


def buffer_shuffle(items, buffer_size: int, rng: np.random.Generator):
    """Yield `items` in TF's shuffle-buffer order, drawing positions from `rng`."""
    buffer = []
    draws, at = rng.random(1024), 0
    for item in items:
        if len(buffer) < buffer_size:
            buffer.append(item)
            continue
        if at == 1024:
            draws, at = rng.random(1024), 0
        j = int(draws[at] * buffer_size)
        at += 1
        yield buffer[j]
        buffer[j] = item
    while buffer:
        if at == 1024:
            draws, at = rng.random(1024), 0
        j = int(draws[at] * len(buffer))
        at += 1
        chosen = buffer[j]
        buffer[j] = buffer[-1]
        buffer.pop()
        yield chosen


class ShuffleDataset(UnaryDataset):
    _tf_name = "_ShuffleDataset"

    def __init__(self, input_dataset, buffer_size, seed=None, reshuffle_each_iteration=True):
        super().__init__(input_dataset)
        self._buffer_size = as_int(buffer_size, "buffer_size")
        if self._buffer_size <= 0 and self._buffer_size != -1:
            raise InvalidArgumentError(f"buffer_size must be greater than zero, got {self._buffer_size}")
        seeds = get_seed(None if seed is None else as_int(seed, "seed"))
        self._seeds = seeds
        self._reshuffle = True if reshuffle_each_iteration is None else bool(reshuffle_each_iteration)
        self._epoch = 0
        self._fixed_entropy = None if seeds is not None else int(np.random.SeedSequence().entropy % (1 << 62))

    def _next_rng(self) -> np.random.Generator:
        """This iteration's generator: the same every iteration without reshuffling, else one per epoch."""
        epoch = self._epoch if self._reshuffle else 0
        self._epoch += 1
        if self._seeds is not None:
            return np.random.default_rng([*self._seeds, epoch])
        if not self._reshuffle:
            return np.random.default_rng([self._fixed_entropy])
        return np.random.default_rng()

    def _buffer(self) -> int:
        n = self._buffer_size
        return n if n > 0 else max(self._input._cardinality(), 1)  # AUTOTUNE/-1: as large as the input

    def _flat_iter(self):
        yield from buffer_shuffle(self._input._flat_iter(), self._buffer(), self._next_rng())


@dataset_methods
class _ShufflingMethods:
    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=True, name=None):
        return (deferred_transform(self, ShuffleDataset, buffer_size, build=lambda ds, size: (
            ShuffleDataset(ds, size, seed, reshuffle_each_iteration)))
                or ShuffleDataset(self, buffer_size, seed, reshuffle_each_iteration))
