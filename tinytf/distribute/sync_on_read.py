"""SyncOnReadVariable: a variable with one value per replica, combined when read outside the replicas.

TF makes metric state this way under MirroredStrategy (synchronization ON_READ, aggregation SUM): each replica
adds its own batch shard's counts to its own copy, with no cross-replica traffic per update, and reading the
variable in the cross-replica context (the training loop's logs, `metric.result()` after fit) sums the copies.
Here the replicas are threads, so "its own copy" is chosen by the calling thread's replica context. Graphs
read and write a variable through its `_array` attribute (runtime/ops/state.py), so a property is all it takes
for a traced step shared by the replica threads to touch each replica's own copy."""

from __future__ import annotations

import numpy as np

from tinytf.variables import Variable, VariableAggregation

from . import context
from .collective import summed


class SyncOnReadVariable(Variable):
    """A variable of `strategy` whose value is per replica. In a replica of that strategy, reads and writes
    are the replica's own copy; elsewhere (cross-replica) a read gives the copies' aggregate (SUM: their sum,
    MEAN: their mean, ONLY_FIRST_REPLICA: replica 0's), and an assignment gives every copy the value (for SUM,
    value / N each, as TF's on_read_assign_cross_replica does, so that the sum reads back as the value; replica 0
    takes what an integer division leaves over, which TF loses)."""

    def __init__(self, strategy, initial_value, aggregation=VariableAggregation.SUM, **kwargs):
        if aggregation not in (VariableAggregation.SUM, VariableAggregation.MEAN,
                               VariableAggregation.ONLY_FIRST_REPLICA):
            raise ValueError(f"SyncOnReadVariable: unsupported aggregation {aggregation!r} (SUM, MEAN or "
                             "ONLY_FIRST_REPLICA)")
        self._strategy = strategy
        self._aggregation = aggregation
        self._copies = None  # set by the first assignment below (Variable.__init__): every replica starts equal
        super().__init__(initial_value, trainable=False, synchronization=3, aggregation=aggregation, **kwargs)
        register = getattr(strategy, "_register_per_replica", None)
        if register is not None:  # process replicas keep its per-replica copies in step (process_replicas.py)
            register(self)

    @property
    def aggregation(self):
        return self._aggregation

    @property
    def synchronization(self):
        return 3  # VariableSynchronization.ON_READ

    def _replica_id(self):
        frame = context.current_frame()
        if frame is not None and frame.replica is not None and frame.strategy is self._strategy:
            return frame.replica._replica_id
        return None

    @property
    def _array(self):
        replica = self._replica_id()
        if replica is not None:
            return self._copies[replica]
        copies = self._copies
        if self._aggregation == VariableAggregation.ONLY_FIRST_REPLICA:
            return copies[0]
        total = summed([np.asarray(c) for c in copies])  # read every step for the logs: no stacked copy
        if self._aggregation == VariableAggregation.MEAN:
            total = _divided(total, len(copies))
        return total if np.ndim(total) else total[()]

    @_array.setter
    def _array(self, value):
        n = self._strategy.num_replicas_in_sync
        if self._copies is None:  # the initial value: every replica's copy
            self._copies = [value] * n
            return
        replica = self._replica_id()
        if replica is not None:
            self._copies[replica] = value
            return
        if self._aggregation == VariableAggregation.SUM:  # replica 0 takes the remainder: the sum is exact
            array = np.asarray(value)
            share = _divided(array, n)
            first = (array - share * array.dtype.type(n - 1)).astype(array.dtype)
            self._copies = [first if np.ndim(first) else first[()]] + [share if np.ndim(share) else share[()]] * (n - 1)
            return
        self._copies = [value] * n

    def __repr__(self):
        return (f"<tf.distribute SyncOnReadVariable '{self.name}' shape={self.shape} dtype={self.dtype.name}, "
                f"{len(self._copies)} replicas>")


def _divided(array, n: int):
    if array.dtype.kind in "fc":
        return (array / array.dtype.type(n)).astype(array.dtype)
    return array // n


def metric_variable(initial_value, dtype, name):
    """The variable a Keras metric keeps its state in: per replica (SUM) under a strategy with several
    replicas in this process, as TF creates metric variables; a plain variable otherwise."""
    from .strategy import get_strategy

    strategy = get_strategy()
    if getattr(strategy, "_collective_across_workers", None) is not None:  # MultiWorkerMirroredStrategy
        from .worker_sync_on_read import WorkerSyncOnReadVariable

        return WorkerSyncOnReadVariable(strategy, initial_value, name=name, dtype=dtype)
    if getattr(strategy, "_sync_on_read_metrics", False) and strategy.num_replicas_in_sync > 1:
        return SyncOnReadVariable(strategy, initial_value, VariableAggregation.SUM, name=name, dtype=dtype)
    return Variable(initial_value, trainable=False, name=name, dtype=dtype)
