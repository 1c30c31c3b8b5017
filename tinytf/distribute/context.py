"""Which strategy is current, and whether code runs in a replica or in the cross-replica context. Per thread,
because MirroredStrategy's replicas are threads: each sees its own replica context."""

from __future__ import annotations

import threading

import numpy as np

_local = threading.local()


def _stack() -> list:
    stack = getattr(_local, "stack", None)
    if stack is None:
        stack = _local.stack = []
    return stack


class ReplicaContext:
    """tf.distribute.ReplicaContext: what code inside strategy.run sees (which replica it is)."""

    def __init__(self, strategy, replica_id: int):
        self._strategy = strategy
        self._replica_id = replica_id
        self.merging = False  # true while this replica's merge (all-reduce + update) runs: no nested merge
        self.gradient_scale = 1.0  # weight of this replica's gradients in the all-reduce (see MirroredStrategy)

    @property
    def strategy(self):
        return self._strategy

    @property
    def num_replicas_in_sync(self) -> int:
        return self._strategy.num_replicas_in_sync

    @property
    def replica_id_in_sync_group(self):
        """This replica's index, an int32 tensor. In a tf.function it is read when the graph runs, not when it
        is traced: MirroredStrategy's replica threads share one trace, so a traced constant would give every
        replica the id of the one that traced."""
        from tinytf.constant import constant
        from tinytf.runtime.context import state
        from tinytf.runtime.ops.collective import merge_call

        if state.graph is None:
            return constant(self._replica_id)
        return merge_call(_running_replica_id, [constant(self._replica_id)])[0]

    def all_reduce(self, reduce_op, value):
        """Combine `value` (a structure of tensors) over the replicas: every replica gets the result."""
        return self._strategy._all_reduce(self, reduce_op, value)


def _running_replica_id(traced_id):
    """merge_call's callback: the id of the replica whose thread runs the graph now."""
    replica = current_replica_context()
    return [np.int32(replica._replica_id if replica is not None else traced_id)]


class _Frame:
    def __init__(self, strategy, replica: ReplicaContext | None):
        self.strategy = strategy
        self.replica = replica


def push(strategy, replica: ReplicaContext | None) -> None:
    _stack().append(_Frame(strategy, replica))


def pop() -> None:
    _stack().pop()


def current_frame():
    stack = _stack()
    return stack[-1] if stack else None


def current_replica_context() -> ReplicaContext | None:
    frame = current_frame()
    return frame.replica if frame is not None else None
