"""MirroredStrategy on one machine: one replica per listed CPU device, each a thread. Variables exist once
while the replicas agree (on a single CPU every mirror would hold the same numbers); each replica computes
gradients on its shard, the gradients are summed across replicas, and the optimizer update is applied once, so
every replica reads the same weights at the next step. A replica's own assignment of a variable follows its
aggregation (mirrored_variable.py: NONE gives that replica a copy of its own). numpy releases the GIL in
its kernels, so replicas overlap their matmuls."""

from __future__ import annotations

import threading
import time
import weakref
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from tinytf.runtime import nest
from tinytf.runtime.ops.collective import merge_call

from . import context, mirrored_variable
from .collective import ThreadCollective
from .cross_device_ops import CrossDeviceOps
from .device_names import full_device_name
from .reduce_op import ReduceOp, as_reduce_op
from .replica_backend import BACKENDS, Calibration, backend_from_environment
from .strategy import Strategy
from .values import regroup, select_replica


class MirroredStrategy(Strategy):
    """tf.distribute.MirroredStrategy(devices=None): one replica per given device ("/cpu:0", "/cpu:1", ...; as in
    TF, a CPU-only machine has one replica unless devices are listed). GPU names are accepted as TF accepts them
    on a machine without GPUs: the replicas carry those names and run on the CPU (TF's soft placement)."""

    _extended_class = "MirroredExtended"

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
        self.extended_devices = tuple(devices)
        if cross_device_ops is not None and not isinstance(cross_device_ops, CrossDeviceOps):
            raise TypeError(f"MirroredStrategy: cross_device_ops must be a tf.distribute.CrossDeviceOps (such as "
                            f"tf.distribute.ReductionToOneDevice()), got {type(cross_device_ops).__name__}")
        self._cross_device_ops = cross_device_ops  # strategy.extended.reduce_to's algorithm (cross_device_ops.py)
        self._num_replicas = len(devices)
        self._thread_collective = ThreadCollective(self._num_replicas)
        mirrored_variable.install()
        self._lock = threading.Lock()  # one run() at a time: replicas meet at the same collective
        self._pool = None
        self._backend = backend_from_environment()
        # process replicas (process_replicas.py): the callables they know, their processes, whether those
        # are out of date, and the per-replica variables (metric state, diverged copies) kept in step
        self._registry: dict = {}
        self._replica_processes = None
        self._process_replica_id = 0  # > 0 in a forked replica process
        self._in_process_step = False
        self._processes_stale = False
        self._per_replica_variables: list = []
        self._calibration: dict = {}  # auto: key -> Calibration
        self._traced_steps: dict = {}  # strategy.run inside a tf.function's trace: id(fn) -> (fn, its tf.function)

    def _worker_devices(self) -> tuple:
        """strategy.extended.worker_devices: the replicas' devices, fully named as TF names them."""
        return tuple(full_device_name(d) for d in self.extended_devices)

    @property
    def replica_backend(self) -> str:
        """"auto", "threads" or "processes" (tinytf-specific; from TINYTF_MIRRORED_REPLICAS at creation)."""
        return self._backend

    @replica_backend.setter
    def replica_backend(self, backend: str) -> None:
        if backend not in BACKENDS:
            raise ValueError(f"MirroredStrategy.replica_backend must be one of {BACKENDS}, got {backend!r}")
        self._backend = backend
        if backend == "threads":
            self.shutdown()

    @property
    def _collective(self):
        """The all-reduce of the replicas now running: shared memory between processes during a process
        step (and always in a replica process), else the threads' one."""
        if self._process_replica_id or self._in_process_step:
            return self._replica_processes.collective
        return self._thread_collective

    def _run_replicas(self, fn, args, kwargs):
        n = self._num_replicas
        if n == 1:
            return self._run_one(0, fn, args, kwargs)
        from tinytf.runtime.context import state

        if state.graph is not None and not self._process_replica_id:  # @tf.function around strategy.run
            from .traced_run import run_in_trace

            return run_in_trace(self, fn, args, kwargs)
        calls = [lambda i=i: fn(*select_replica(i, args), **select_replica(i, kwargs)) for i in range(n)]
        remote = self._registry.get(id(fn))
        if remote is None or remote.fn is not fn:
            remote = self._register(_RunCall(fn))
        from .process_replicas import to_numpy

        def payloads():  # only when the replicas run as processes (thread replicas take the tensors as they are)
            return [None] + [to_numpy((select_replica(i, args), select_replica(i, kwargs))) for i in range(1, n)]

        return regroup(self._run_per_replica(calls, None, remote, payloads))

    def _run_per_replica(self, calls, gradient_scales=None, remote=None, payloads=None) -> list:
        """calls[i]() on replica i (replica 0 on this thread, the others on threads of their own, or in
        processes of their own when `remote`, a registered callable, can run payloads[i] there: see
        _backend_for); the list of results. gradient_scales[i] weights replica i's gradients in the
        all-reduce (Keras fit: its share of the global batch, since Keras' loss is the mean over the
        replica's own shard)."""
        backend = self._backend_for(remote)
        calibration = self._calibration.get(remote.calibration_key) if remote is not None else None
        start = time.perf_counter()
        if backend == "processes":
            results = self._run_in_processes(calls, gradient_scales, remote, payloads)
        else:
            results = self._run_in_threads(calls, gradient_scales)
        if calibration is not None and remote.calibrates:
            calibration.record(backend, time.perf_counter() - start)
        return results

    def _run_in_threads(self, calls, gradient_scales=None) -> list:
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
                self._thread_collective.abort()

        with self._lock:
            others = [self._replica_threads().submit(replica, i) for i in range(1, n)]
            replica(0)
            for other in others:
                other.result()
            failed = [e for e in errors if e is not None]
            if failed:
                self._thread_collective.reset()
                first = next((e for e in failed if not _is_abort(e)), failed[0])
                raise first
        return results

    # --- replicas as processes ---------------------------------------------------------------------------
    def _backend_for(self, remote) -> str:
        """"threads" or "processes" for this step: the strategy's replica_backend, or under "auto" the
        calibration of this model (Keras) or step function (strategy.run), see Calibration."""
        from tinytf.runtime.context import state

        if remote is None or self._num_replicas < 2 or self._process_replica_id or state.graph is not None:
            return "threads"  # (strategy.run while a tf.function traces: the replicas' steps join its graph)
        if self.replica_backend != "auto":
            return self.replica_backend
        calibration = self._calibration.get(remote.calibration_key)
        if calibration is None:
            calibration = self._calibration[remote.calibration_key] = Calibration()
        backend = calibration.next_backend(remote.calibrates)
        if backend == "threads" and calibration.decided and self._replica_processes is not None:
            self.shutdown()  # measured slower: do not keep idle processes around
        return backend

    def _run_in_processes(self, calls, gradient_scales, remote, payloads) -> list:
        from .process_collective import _Aborted
        from .process_replicas import set_replica_state, share_kernel_threads, sync_on_read_state, to_tensors

        n = self._num_replicas
        scales = gradient_scales or [1.0] * n
        payloads = payloads() if callable(payloads) else payloads
        with self._lock:
            replicas = self._processes_for(remote)
            for i in range(1, n):
                replicas.send(i, ("run", remote.key, (payloads[i], scales[i]), sync_on_read_state(self, i)))
            self._in_process_step = True
            restore_threads = share_kernel_threads(n)  # replica 0 too takes its share of the cores
            results = [None] * n
            try:
                try:
                    results[0] = self._run_one(0, calls[0], (), {}, scales[0])
                except _Aborted:  # a replica process failed: raise its own error
                    for i in range(1, n):
                        answer = replicas.receive(i)
                        if answer[0] == "error" and not isinstance(answer[1], _Aborted):
                            raise _remote_error(answer) from None
                    raise
                for i in range(1, n):
                    answer = replicas.receive(i)
                    if answer[0] == "error":
                        raise _remote_error(answer)
                    results[i] = to_tensors(answer[1])
                    set_replica_state(self, i, answer[2])
            except BaseException:
                self.shutdown()
                raise
            finally:
                self._in_process_step = False
                if restore_threads is not None:
                    from tinytf.runtime import chunked

                    chunked.set_num_threads(restore_threads)
        return results

    def _processes_for(self, remote):
        """The running replica processes, forked anew when they do not know `remote`, when this process's
        variables changed since the fork, or when one of them is gone."""
        replicas = self._replica_processes
        if replicas is not None and (self._processes_stale or remote.key not in replicas.keys or not replicas.alive()):
            self.shutdown()
            replicas = None
        if replicas is None:
            from .process_replicas import ProcessReplicas

            self._processes_stale = False
            replicas = self._replica_processes = ProcessReplicas(self, dict(self._registry))
        return replicas

    _REGISTRY_SIZE = 64

    def _register(self, remote):
        """Keep `remote` (a step replica processes may run) under its key. A loop that makes a new function
        per step (strategy.run(lambda: ...)) must not grow the table forever: the oldest go (processes
        forked before keep their own copies)."""
        self._registry[remote.key] = remote
        while len(self._registry) > self._REGISTRY_SIZE:
            oldest = next(iter(self._registry))
            del self._registry[oldest]
            self._calibration.pop(oldest, None)
        return remote

    def _register_per_replica(self, variable) -> None:
        """A variable with per-replica copies (metric state, a MirroredVariable) was made: replica processes
        find it by its creation index, so one made here outside a process step needs new processes."""
        self._per_replica_variables.append(weakref.ref(variable))
        self._state_changed()

    def _state_changed(self) -> None:
        """This process's variables of the strategy changed outside a process step: the forked copies no longer
        hold them."""
        if not self._in_process_step and not self._process_replica_id:
            self._processes_stale = True

    @property
    def replica_pids(self) -> list:
        """The process ids of replicas 1..N-1 while they run as processes (tinytf-specific), else []."""
        return self._replica_processes.pids if self._replica_processes is not None else []

    def shutdown(self) -> None:
        """Stop the replica processes, if any (tinytf-specific; the next step that needs them forks new ones)."""
        replicas, self._replica_processes = self._replica_processes, None
        if replicas is not None and not self._process_replica_id:
            replicas.shutdown()

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
        processes = self._replica_processes
        return list(self._thread_collective.seconds) + (list(processes.collective.seconds) if processes else [])

    def allreduce_stats(self) -> dict:
        """The all-reduce time per step (seconds): count, mean, median, as RayStrategy reports it."""
        times = np.asarray(self.allreduce_seconds) if self.allreduce_seconds else np.zeros(0)
        return {"count": int(times.size), "mean": float(times.mean()) if times.size else 0.0,
                "median": float(np.median(times)) if times.size else 0.0}

    def _keras_step(self, model, kind, function):
        """fit/evaluate/predict's step under this strategy (the trainer asks for it when there are several
        replicas): each global batch split over the replicas, see mirrored_keras.py. One object per step
        function, registered: replica processes run the one they were forked with."""
        from .mirrored_keras import ReplicatedStep

        step = self._registry.get(id(function))
        if step is None or step.function is not function or step.model is not model or step.kind != kind:
            step = self._register(ReplicatedStep(self, model, kind, function))
        return step

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


class _RunCall:
    """strategy.run's function, as a replica process runs it: its arguments arrive as numpy arrays."""

    calibrates = True

    def __init__(self, fn):
        self.fn = fn
        self.key = self.calibration_key = id(fn)

    def _replica_call(self, strategy, replica_id, payload):
        from .process_replicas import to_numpy, to_tensors

        (args, kwargs), scale = payload
        args, kwargs = to_tensors(args), to_tensors(kwargs)
        return strategy._run_one(replica_id, lambda: to_numpy(self.fn(*args, **kwargs)), (), {}, scale)


def _running_replica(strategy):
    """The replica context a merge callback runs in. A step traced into a tf.function by a strategy with one
    replica in this process (MirroredStrategy of one device, a worker of MultiWorkerMirroredStrategy) runs its
    merges when the graph runs, outside strategy.run: that one replica's."""
    replica = context.current_replica_context()
    if replica is None or replica.strategy is not strategy:
        replica = context.ReplicaContext(strategy, getattr(strategy, "_worker_index", 0))
    return replica


def _remote_error(answer):
    error = answer[1]
    if hasattr(error, "add_note"):
        error.add_note(f"(raised in a replica process of MirroredStrategy)\n{answer[2]}")
    return error


class _AllReduce:
    """The merge callback of ReplicaContext.all_reduce."""

    def __init__(self, strategy, reduce_op):
        self.strategy, self.reduce_op = strategy, reduce_op

    def __call__(self, *arrays):
        replica = _running_replica(self.strategy)
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
        replica = _running_replica(self.strategy)
        # this replica's share of the global batch (Keras fit), applied by the collective as it takes the
        # gradients (the process collective writes the scaled values straight into shared memory: one pass)
        scale = replica.gradient_scale

        def update(summed):
            # the update runs in this strategy's context, as TF's merge_fn: a merge of a traced step runs when
            # the graph runs, outside strategy.run, where get_strategy() would otherwise be the default one (and
            # the optimizer's first slots, made here, would fail its strategy check)
            replica.merging = True
            context.push(self.strategy, replica)
            try:
                self._update(summed)
            finally:
                context.pop()
                replica.merging = False

        return self.strategy._collective.sum(replica._replica_id, grads, between=update, scale=scale)

    def _eager_update(self, summed):
        self.optimizer.apply(summed, self.variables)

    def _compiled_update(self):
        from tinytf.function import function

        optimizer, variables = self.optimizer, self.variables

        @function
        def apply_summed(*summed):
            optimizer.apply(list(summed), variables)

        return lambda summed: apply_summed(*summed)


def _is_abort(error) -> bool:
    return isinstance(error, RuntimeError) and "another replica failed" in str(error)
