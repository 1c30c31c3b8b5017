"""MirroredStrategy on one machine: one replica per listed CPU device, each a thread. Variables exist once
while the replicas agree (on a single CPU every mirror would hold the same numbers); each replica computes
gradients on its shard, the gradients are summed across replicas, and the optimizer update is applied once, so
every replica reads the same weights at the next step. A replica's own assignment of a variable follows its
aggregation (mirrored_variable.py: NONE gives that replica a copy of its own). numpy releases the GIL in
its kernels, so replicas overlap their matmuls."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from tinytf.runtime import nest
from tinytf.runtime.ops.collective import merge_call

from . import context, mirrored_variable
from .collective import ThreadCollective
from .reduce_op import ReduceOp, as_reduce_op
from .strategy import Strategy
from .values import regroup, select_replica


class MirroredStrategy(Strategy):
    """tf.distribute.MirroredStrategy(devices=None): replicas on the given CPU devices ("/cpu:0", "/cpu:1",
    ...; as in TF, a CPU-only machine has one replica unless devices are listed)."""

    _merges_updates = True
    _sync_on_read_metrics = True  # Keras metrics made under the scope keep one state per replica (TF's ON_READ)
    _mirrors_variables = True  # variables made under the scope are MirroredVariables (mirrored_variable.py)

    def __init__(self, devices=None, cross_device_ops=None):
        if devices is None:  # as TF on a machine without GPUs: every logical CPU (one, unless the CPU was split)
            from tinytf.config_devices import list_logical_devices

            devices = [d.name for d in list_logical_devices("CPU")]
        devices = list(devices)
        if not devices:
            raise ValueError("MirroredStrategy: `devices` must not be empty")
        if len(set(devices)) != len(devices):
            raise ValueError(f"No duplicates allowed in `devices` argument: {devices}")
        for device in devices:
            if "cpu" not in str(device).lower():
                raise ValueError(f"MirroredStrategy: tinytf runs on the CPU only; got device {device!r}")
        self.extended_devices = tuple(devices)
        self._num_replicas = len(devices)
        self._collective = ThreadCollective(self._num_replicas)
        mirrored_variable.install()
        self._lock = threading.Lock()  # one run() at a time: replicas meet at the same collective
        self._pool = None

    @property
    def worker_devices(self) -> tuple:
        """strategy.extended.worker_devices: the replicas' devices, fully named as TF names them."""
        return tuple(f"/job:localhost/replica:0/task:0/device:CPU:{_device_index(d)}" for d in self.extended_devices)

    def _run_replicas(self, fn, args, kwargs):
        n = self._num_replicas
        if n == 1:
            return self._run_one(0, fn, args, kwargs)
        calls = [lambda i=i: fn(*select_replica(i, args), **select_replica(i, kwargs)) for i in range(n)]
        return regroup(self._run_per_replica(calls))

    def _run_per_replica(self, calls, gradient_scales=None) -> list:
        """calls[i]() on replica i (replica 0 on this thread, the others on threads of their own); the list of
        results. gradient_scales[i] weights replica i's gradients in the all-reduce (Keras fit: its share of
        the global batch, since Keras' loss is the mean over the replica's own shard)."""
        n = self._num_replicas
        results, errors = [None] * n, [None] * n

        def replica(i):
            if i:  # a kept thread takes any replica's task: name it after the replica it runs now
                threading.current_thread().name = f"replica-{i}"
            try:
                scale = 1.0 if gradient_scales is None else gradient_scales[i]
                results[i] = self._run_one(i, calls[i], (), {}, scale)
            except BaseException as error:  # noqa: B036 - re-raised on the caller's thread below
                errors[i] = error
                self._collective.abort()

        with self._lock:
            others = [self._replica_threads().submit(replica, i) for i in range(1, n)]
            replica(0)
            for other in others:
                other.result()
            failed = [e for e in errors if e is not None]
            if failed:
                self._collective.reset()
                first = next((e for e in failed if not _is_abort(e)), failed[0])
                raise first
        return results

    def _replica_threads(self) -> ThreadPoolExecutor:
        """The threads of replicas 1..N-1, kept from step to step: starting two threads per step cost about 5%
        of a replicated MLP step. Each step submits one task per thread, and every task waits at the step's
        barriers for the others, so each runs on a thread of its own."""
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self._num_replicas - 1, thread_name_prefix="tinytf-replica")
        return self._pool

    def _run_one(self, i, fn, args, kwargs, gradient_scale=1.0):
        replica = context.ReplicaContext(self, i)
        replica.gradient_scale = gradient_scale
        context.push(self, replica)
        try:
            return fn(*args, **kwargs)
        finally:
            context.pop()

    @property
    def allreduce_seconds(self) -> list:
        """Per all-reduce (one per step: the gradients of all variables together), replica 0's wall time."""
        return self._collective.seconds

    def allreduce_stats(self) -> dict:
        """The all-reduce time per step (seconds): count, mean, median, as RayStrategy reports it."""
        times = np.asarray(self.allreduce_seconds) if self.allreduce_seconds else np.zeros(0)
        return {"count": int(times.size), "mean": float(times.mean()) if times.size else 0.0,
                "median": float(np.median(times)) if times.size else 0.0}

    def _keras_step(self, model, kind, function):
        """fit/evaluate/predict's step under this strategy (the trainer asks for it when there are several
        replicas): each global batch split over the replicas, see mirrored_keras.py."""
        from .mirrored_keras import ReplicatedStep

        return ReplicatedStep(self, model, kind, function)

    # --- the cross-replica merges ------------------------------------------------------------------------
    def _all_reduce(self, replica, reduce_op, value):
        reduce_op = as_reduce_op(reduce_op)
        flat = nest.flatten(value)
        if self._num_replicas == 1:
            return value
        reduced = merge_call(_AllReduce(self, reduce_op), flat)
        return nest.pack_sequence_as(value, reduced)

    def _merge_apply(self, replica, optimizer, grads, variables) -> None:
        from tinytf.runtime.context import state

        merge_call(_ApplyMerge(self, optimizer, variables, compiled=state.graph is not None), grads)


class _AllReduce:
    """The merge callback of ReplicaContext.all_reduce."""

    def __init__(self, strategy, reduce_op):
        self.strategy, self.reduce_op = strategy, reduce_op

    def __call__(self, *arrays):
        replica = context.current_replica_context()
        result = self.strategy._collective.sum(replica._replica_id, arrays)
        if self.reduce_op is ReduceOp.MEAN:
            result = [r / r.dtype.type(self.strategy._num_replicas) if r.dtype.kind in "fc" else
                      r // self.strategy._num_replicas for r in result]
        return result


class _ApplyMerge:
    """The merge callback of optimizer.apply_gradients in a replica: sum the gradients over the replicas,
    then replica 0 applies the update to the shared variables while the others wait at the barrier.

    When apply_gradients was traced (the step is a tf.function), the update runs as a tf.function of its own,
    traced once per step trace: applied eagerly it was the largest cost of a replicated MLP step (about 40% of
    replica 0's time, op by op dispatch), where one process has the update compiled into its step."""

    def __init__(self, strategy, optimizer, variables, compiled=False):
        self.strategy, self.optimizer, self.variables = strategy, optimizer, list(variables)
        self._update = self._compiled_update() if compiled else self._eager_update

    def __call__(self, *grads):
        replica = context.current_replica_context()
        scale = replica.gradient_scale
        if scale != 1.0:  # this replica's share of the global batch (Keras fit); an empty shard adds zeros
            grads = [np.zeros_like(g) if scale == 0.0 else np.asarray(g) * np.asarray(g).dtype.type(scale)
                     for g in grads]

        def update(summed):
            replica.merging = True
            try:
                self._update(summed)
            finally:
                replica.merging = False

        return self.strategy._collective.sum(replica._replica_id, grads, between=update)

    def _eager_update(self, summed):
        self.optimizer.apply(summed, self.variables)

    def _compiled_update(self):
        from tinytf.function import function

        optimizer, variables = self.optimizer, self.variables

        @function
        def apply_summed(*summed):
            optimizer.apply(list(summed), variables)

        return lambda summed: apply_summed(*summed)


def _device_index(device) -> int:
    tail = str(device).rsplit(":", 1)[-1]
    return int(tail) if tail.isdigit() else 0


def _is_abort(error) -> bool:
    return isinstance(error, RuntimeError) and "another replica failed" in str(error)
