"""In-process all-reduce for replicas that are threads: each replica deposits its arrays, a barrier, replica 0
sums the deposits in replica order, a second barrier, and every replica returns the same sums (one summing
thread, not one per replica: the sums cost CPU time the replicas' threads would otherwise each spend again).
A replica that fails aborts the barrier so the others raise instead of waiting forever."""

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

    def sum(self, replica_id: int, arrays: list, between=None, scale: float = 1.0) -> list:
        """The elementwise sum over replicas of each array (times this replica's `scale`, see scaled);
        `between(result)` runs on replica 0 alone after the sum and before any replica returns (where
        MirroredStrategy applies the shared update)."""
        start = time.perf_counter()
        self._slots[replica_id] = [scaled(a, scale) for a in arrays]
        self.wait()
        try:
            if replica_id == 0:
                self._result = [summed([d[k] for d in self._slots]) for k in range(len(arrays))]
                self.seconds.append(time.perf_counter() - start)  # as replica 0 sees it, the slowest included
                if between is not None:
                    between(self._result)
        finally:
            self.wait()
        return self._result

    _result: list = []

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


def summed(arrays: list):
    """arrays[0] + arrays[1] + ... in that order, in the first array's dtype, without stacking them first."""
    total = np.asarray(np.add(arrays[0], arrays[1]) if len(arrays) > 1 else arrays[0])
    for array in arrays[2:]:
        np.add(total, array, out=total)
    return total.astype(arrays[0].dtype, copy=False)


def scaled(array, scale: float, out=None):
    """`array` times `scale` in its own dtype (an empty shard's scale 0 gives zeros), into `out` when given;
    both collectives use this one expression, so that thread and process replicas sum the same bits."""
    array = np.asarray(array)
    if scale == 1.0:
        if out is None:
            return array
        out[...] = array
    elif scale == 0.0:
        if out is None:
            return np.zeros_like(array)
        out[...] = 0
    else:
        return np.multiply(array, array.dtype.type(scale), out=out)
    return out
