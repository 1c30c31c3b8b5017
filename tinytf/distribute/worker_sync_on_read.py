"""Metric state under MultiWorkerMirroredStrategy with several workers: each worker (one replica) keeps its own
value, and a read outside strategy.run (metric.result() in a custom training loop, fit's logs) sums the
workers' values over their connections, as TF's ON_READ / SUM metric variables are read in the cross-replica
context. Every worker must read at the same point of the program, as in TF (the read is an all-reduce). An
assignment outside the replicas gives each worker value / N (worker 0 also what an integer division leaves),
so that the sum reads back as the value: metric.reset_state() zeroes every worker."""

from __future__ import annotations

import numpy as np

from tinytf.variables import Variable, VariableAggregation

from . import context
from .sync_on_read import _divided


class WorkerSyncOnReadVariable(Variable):
    def __init__(self, strategy, initial_value, **kwargs):
        self._strategy = strategy
        self._local = None
        super().__init__(initial_value, trainable=False, synchronization=3, aggregation=VariableAggregation.SUM,
                         **kwargs)

    @property
    def aggregation(self):
        return VariableAggregation.SUM

    @property
    def synchronization(self):
        return 3  # VariableSynchronization.ON_READ

    def _in_replica(self) -> bool:
        frame = context.current_frame()
        return frame is not None and frame.replica is not None and frame.strategy is self._strategy

    @property
    def _array(self):
        if self._in_replica():
            return self._local
        local = np.asarray(self._local)
        total = self._strategy._collective.sum(self._strategy._worker_index, [local])[0]
        return total if np.ndim(total) else total[()]

    @_array.setter
    def _array(self, value):
        if self._local is None or self._in_replica():  # the initial value: every worker starts from it
            self._local = value
            return
        array = np.asarray(value)
        n = self._strategy.num_replicas_in_sync
        share = _divided(array, n)
        if self._strategy._worker_index == 0:
            share = (array - share * array.dtype.type(n - 1)).astype(array.dtype)
        self._local = share if np.ndim(share) else share[()]

    def __repr__(self):
        return (f"<tf.distribute SyncOnReadVariable '{self.name}' shape={self.shape} dtype={self.dtype.name}, "
                f"{self._strategy.num_replicas_in_sync} workers>")
