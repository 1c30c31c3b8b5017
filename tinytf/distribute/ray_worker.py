"""The Ray side of RayStrategy: a worker actor (one replica) and the rendezvous actor of the object-store
all-reduce (ray_transports.py describes both transports: gloo through ray.util.collective, and the object
store: each worker puts its gradients in the store and sends only the object reference to the rendezvous;
when all N references are in, every worker gets the list, reads the others' arrays and sums them in worker
order)."""

from __future__ import annotations

import asyncio
import time

import numpy as np
import ray
from ray import cloudpickle

from . import context
from .ray_transports import CollectiveSum, ObjectStoreSum
from .reduce_op import ReduceOp, as_reduce_op
from .shipped_state import ShippedObject, reachable
from .values import select_replica


@ray.remote
class Rendezvous:
    """Collects one object reference per worker for each round and hands every worker the full list."""

    def __init__(self, num_workers: int):
        self.num_workers = num_workers
        self.rounds: dict = {}

    async def exchange(self, round_id: int, index: int, wrapped):
        entry = self.rounds.get(round_id)
        if entry is None:
            entry = self.rounds[round_id] = {"refs": [None] * self.num_workers, "event": asyncio.Event(),
                                             "left": self.num_workers}
        entry["refs"][index] = wrapped[0]
        if all(r is not None for r in entry["refs"]):
            entry["event"].set()
        await entry["event"].wait()
        entry["left"] -= 1
        refs = entry["refs"]
        if entry["left"] == 0:
            del self.rounds[round_id]
        return refs


class _WorkerSide:
    """What code inside strategy.run sees as the strategy on a worker: N replicas in sync, and the merges
    (all-reduce, gradient all-reduce then local update) going over the rendezvous."""

    _merges_updates = True

    def __init__(self, worker):
        self._worker = worker
        self._num_replicas = worker.num_workers

    @property
    def num_replicas_in_sync(self) -> int:
        return self._num_replicas

    def _all_reduce(self, replica, reduce_op, value):
        from tinytf.runtime import nest
        from tinytf.runtime.ops.collective import merge_call

        flat = nest.flatten(value)
        return nest.pack_sequence_as(value, merge_call(_WorkerAllReduce(self._worker, as_reduce_op(reduce_op)),
                                                       flat))

    def _merge_apply(self, replica, optimizer, grads, variables) -> None:
        from tinytf.runtime.ops.collective import merge_call

        merge_call(_WorkerApply(self._worker, optimizer, variables), grads)


class _WorkerAllReduce:
    def __init__(self, worker, reduce_op):
        self.worker, self.reduce_op = worker, reduce_op

    def __call__(self, *arrays):
        summed = self.worker.sum_across_workers(arrays)
        if self.reduce_op is ReduceOp.MEAN:
            n = self.worker.num_workers
            summed = [s / s.dtype.type(n) if s.dtype.kind in "fc" else s // n for s in summed]
        return summed


class _WorkerApply:
    """Gradients summed over the workers (each first weighted by the worker's gradient scale), then applied
    to this worker's own copy of the variables: every worker makes the same update."""

    def __init__(self, worker, optimizer, variables):
        self.worker, self.optimizer, self.variables = worker, optimizer, list(variables)

    def __call__(self, *grads):
        scale = self.worker.gradient_scale
        if scale != 1.0:
            grads = [np.zeros_like(g) if scale == 0.0 else (g * g.dtype.type(scale)) for g in grads]
        summed = self.worker.sum_across_workers(grads)
        replica = context.current_replica_context()
        replica.merging = True
        try:
            self.optimizer.apply(summed, self.variables)
        finally:
            replica.merging = False
        return summed


def pack_with_variables(obj):
    """A cloudpickle of (obj, its variables): unpickled together, the copies keep the driver's order."""
    from tinytf.variables import Variable

    variables = reachable(obj, Variable)
    return cloudpickle.dumps((obj, variables)), variables


@ray.remote
class Worker:
    """One replica: holds its own copies of the model/optimizer/step it was sent, runs steps on its shard."""

    def __init__(self, index: int, num_workers: int, rendezvous):
        import tinytf  # noqa: F401 - load the library (and its ops) once, at start

        self.index, self.num_workers, self.rendezvous = index, num_workers, rendezvous
        self.gradient_scale = 1.0
        self.summer = ObjectStoreSum(index, rendezvous)
        self.allreduce_seconds = []
        self.objects: dict = {}  # token -> ShippedObject
        self.side = _WorkerSide(self)

    def pid(self) -> int:
        import os

        return os.getpid()

    def join_collective_group(self, group_name: str) -> None:
        """Sum over gloo from now on (every worker calls this at once: the group forms when all have)."""
        self.summer = CollectiveSum(self.index, self.num_workers, group_name, self.summer)

    def sum_across_workers(self, arrays) -> list:
        """The all-reduce (ray_transports.py): every worker gets the same sums."""
        start = time.perf_counter()
        arrays = [np.asarray(a) for a in arrays]
        summed = arrays if self.num_workers == 1 else self.summer(arrays)
        self.allreduce_seconds.append(time.perf_counter() - start)
        return summed

    def load(self, token: str, payload: bytes) -> None:
        self.objects[token] = ShippedObject(*cloudpickle.loads(payload))

    def variable_values(self, token: str) -> list:
        return [np.asarray(v.numpy()) for v in self.objects[token].variables]

    def take_allreduce_seconds(self) -> list:
        out, self.allreduce_seconds = self.allreduce_seconds, []
        return out

    def _in_replica(self, call):
        context.push(self.side, context.ReplicaContext(self.side, self.index))
        try:
            return call()
        finally:
            context.pop()

    def run(self, token: str, args, kwargs, return_variables: bool):
        """strategy.run on this replica: the step on this worker's arguments; numpy results back."""
        import tinytf as tf
        from tinytf.runtime import nest

        fn = self.objects[token].obj
        to_tensor = lambda a: tf.convert_to_tensor(a) if isinstance(a, np.ndarray) else a
        result = self._in_replica(lambda: fn(*nest.map_structure(to_tensor, args),
                                             **nest.map_structure(to_tensor, kwargs)))
        result = nest.map_structure(lambda t: np.asarray(t.numpy()) if hasattr(t, "numpy") else t, result)
        new_slots = self.objects[token].take_new_slots()  # every worker, so all variable lists grow alike
        return result, new_slots, (self.variable_values(token) if return_variables else None)

    # --- Keras fit ----------------------------------------------------------------------------------------
    def fit_begin_epoch(self, token: str) -> None:
        model = self.objects[token].obj
        model._reset_metrics()

    def fit_step(self, token: str, batch, local_count: int, global_count: int) -> dict:
        """Keras' train step on this worker's shard; returns this worker's metric parts (fit_logs). Keras'
        loss is the mean over the local batch, so the gradients are weighted by local/global before the sum:
        the sum is then the gradient of the mean over the global batch, as one process would compute (an
        empty shard contributes zeros)."""
        import tinytf as tf
        from tinytf.runtime import nest

        model = self.objects[token].obj
        self.gradient_scale = local_count / global_count
        try:
            if local_count == 0:
                zeros = [np.zeros(v.shape, v.dtype.as_numpy_dtype) for v in model.trainable_variables]
                self._in_replica(lambda: _WorkerApply(self, model.optimizer, model.trainable_variables)(*zeros))
            else:
                data = tuple(nest.map_structure(tf.convert_to_tensor, part) for part in batch if part is not None)
                self._in_replica(lambda: model._step_function("train")(data))
        finally:
            self.gradient_scale = 1.0
        return self.fit_logs(token)

    def fit_logs(self, token: str) -> dict:
        model = self.objects[token].obj
        logs = {}
        for metric in model._flat_metrics():  # mean metrics combine exactly over workers from (total, count)
            has_parts = hasattr(metric, "total") and hasattr(metric, "count")
            logs[metric.name] = (float(np.asarray(metric.result())),
                                 float(np.asarray(metric.total.numpy())) if has_parts else None,
                                 float(np.asarray(metric.count.numpy())) if has_parts else None)
        return logs


def shard_args(args, num_workers):
    """Per-worker arguments: worker i gets the i-th component of every PerReplica, as numpy."""
    from tinytf.runtime import nest

    def to_numpy(value):
        return np.asarray(value.numpy()) if hasattr(value, "numpy") else value

    return [nest.map_structure(to_numpy, select_replica(i, args)) for i in range(num_workers)]
