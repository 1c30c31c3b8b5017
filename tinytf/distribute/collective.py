"""In-process all-reduce for replicas that are threads: each replica deposits its arrays, a barrier, every
replica sums the deposits in replica order (so all get bit-identical results), a second barrier before the
slots are reused. A replica that fails aborts the barrier so the others raise instead of waiting forever."""

from __future__ import annotations

import collections
import threading
import time

import numpy as np


class ThreadCollective:
    def __init__(self, num_replicas: int, timeout: float = 600.0):
        self.num_replicas = num_replicas
        self._barrier = threading.Barrier(num_replicas, timeout=timeout)
        self._slots: list = [None] * num_replicas
        self.seconds = collections.deque(maxlen=100_000)  # per sum, replica 0's wall time (allreduce_stats)

    def sum(self, replica_id: int, arrays: list, between=None) -> list:
        """The elementwise sum over replicas of each array; `between(result)` runs on replica 0 alone after
        the sum and before any replica returns (where MirroredStrategy applies the shared update)."""
        start = time.perf_counter()
        self._slots[replica_id] = [np.asarray(a) for a in arrays]
        self.wait()
        deposits = self._slots
        result = [np.sum(np.stack([d[k] for d in deposits]), axis=0, dtype=deposits[0][k].dtype)
                  for k in range(len(arrays))]
        if replica_id == 0:  # the all-reduce's cost as replica 0 sees it, waiting for the slowest included
            self.seconds.append(time.perf_counter() - start)
        try:
            if replica_id == 0 and between is not None:
                between(result)
        finally:
            self.wait()
        return result

    def wait(self) -> None:
        try:
            self._barrier.wait()
        except threading.BrokenBarrierError:
            raise RuntimeError("another replica failed during a cross-replica step") from None

    def abort(self) -> None:
        self._barrier.abort()

    def reset(self) -> None:
        self._barrier.reset()
        self._slots = [None] * self.num_replicas
