"""MirroredStrategy's replicas as processes: replica 0 is this process, replicas 1..N-1 are processes forked
from it, each holding a copy of everything this process held at the fork (the model, its optimizer, the step
functions and their traces). Every step, replica i gets its shard of the arguments through a pipe, runs the
same step as replica 0, meets the others in the gradient all-reduce (process_collective.py) and applies the same
update to its own copy of the variables, so the copies stay identical without ever being sent.

What is sent per step is small: the callable's key, replica i's arguments (numpy arrays), the replica's metric
state going in and out (SyncOnReadVariable copies: each replica keeps its own, and this process reads their sum
for the logs), and the replica's own copies of aggregation-NONE variables (BatchNormalization's moving
statistics), so that the cross-replica reads here see every replica's values as with thread replicas.

When the replicas must be forked again: forked copies only know what existed at the fork, so a callable that
was not registered then, a variable of the strategy created or assigned here outside a step (a checkpoint
restore, `variable.assign` in the cross-replica context), or a failed step stops the replica processes, and the
next step forks new ones from the current state. Variables made outside the strategy's scope are not watched.

A replica process that dies makes the step raise ReplicaProcessError in this process (its exit code in the
message), and the others are stopped. Replica processes die with this process (PR_SET_PDEATHSIG), stop when
their pipe closes, and are stopped by `shutdown()`, by garbage collection of the strategy, and at exit."""

from __future__ import annotations

import ctypes
import functools
import io
import multiprocessing
import os
import pickle
import select
import signal
import time
import traceback
import weakref

import numpy as np

from tinytf.runtime import nest

from .process_collective import TIMEOUT_SECONDS, ProcessCollective, ReplicaProcessError, _Aborted

_STOP_SECONDS = 5.0


class ProcessReplicas:
    """The replica processes of one MirroredStrategy (while they run)."""

    def __init__(self, strategy, registry: dict):
        n = strategy.num_replicas_in_sync
        context = multiprocessing.get_context("fork")
        self.num_replicas = n
        self.collective = ProcessCollective(context, n, _variable_bytes(strategy))
        self.keys = frozenset(registry)
        self._connections, self._processes, self._pollers = [], [], []
        # not a bound method: the finalizer below holds the collective, which must not hold this object
        self.collective.barrier.alive_check = functools.partial(_check_alive, self._processes)
        global _launch
        for i in range(1, n):
            parent_end, child_end = context.Pipe()
            # what the child starts from travels by the fork, not in the Process object's arguments:
            # multiprocessing keeps started Process objects, which would keep the model alive here
            _launch = (weakref.ref(strategy), child_end, registry, self.collective)
            process = context.Process(target=_replica_main, args=(i,), name=f"tinytf-replica-{i}", daemon=True)
            try:
                process.start()
            finally:
                _launch = None
            child_end.close()
            self._connections.append(parent_end)
            self._processes.append(process)
            poller = select.poll()  # the answer, or the process's end (its sentinel)
            poller.register(parent_end.fileno(), select.POLLIN)
            poller.register(process.sentinel, select.POLLIN)
            self._pollers.append(poller)
        self._finalizer = weakref.finalize(self, _stop, list(self._connections), list(self._processes),
                                           self.collective)

    @property
    def pids(self) -> list:
        return [p.pid for p in self._processes]

    def send(self, replica_id: int, message) -> None:
        """A message to replica i; its large arrays go through the replica's input region of the shared buffer
        (a pipe moves 64 KiB per wake-up of the reader: half an MLP batch took seven)."""
        try:
            self._connections[replica_id - 1].send_bytes(dumps(message, self.collective.input_region(replica_id)))
        except (BrokenPipeError, OSError):
            self._check_alive()
            raise

    def receive(self, replica_id: int):
        """Replica i's answer to its last message: ("ok", result, state) or raises its error."""
        connection, process = self._connections[replica_id - 1], self._processes[replica_id - 1]
        poller = self._pollers[replica_id - 1]
        deadline = time.monotonic() + TIMEOUT_SECONDS
        while True:
            if time.monotonic() > deadline:
                raise ReplicaProcessError(f"MirroredStrategy: the process of replica {replica_id} (pid {process.pid}) "
                                          f"did not answer within {TIMEOUT_SECONDS:.0f} s")
            ready = {fd for fd, _ in poller.poll(5000)}  # (one poll object per replica: one system call a wait)
            if connection.fileno() in ready:
                try:
                    return connection.recv()
                except EOFError:
                    pass
            if process.sentinel in ready or not process.is_alive():
                if connection.poll():
                    return connection.recv()
                _raise_died(replica_id, process)

    def _check_alive(self) -> None:
        _check_alive(self._processes)

    def alive(self) -> bool:
        return all(p.is_alive() for p in self._processes)

    def shutdown(self) -> None:
        self._finalizer()


def _variable_bytes(strategy) -> int:
    """The bytes of the strategy's variables now (every variable made under its scope is registered)."""
    total = 0
    for ref in strategy._per_replica_variables:
        variable = ref()
        if variable is not None:
            total += np.asarray(variable.numpy()).nbytes
    return total


def _check_alive(processes) -> None:
    for i, process in enumerate(processes, start=1):
        if process.exitcode is not None:
            _raise_died(i, process)


def _raise_died(replica_id, process):
    code = process.exitcode
    how = f"signal {signal.Signals(-code).name}" if code is not None and code < 0 else f"exit code {code}"
    raise ReplicaProcessError(f"MirroredStrategy: the process of replica {replica_id} (pid {process.pid}) died "
                              f"({how}) during a step; the replica processes were stopped, and the next step "
                              "starts new ones from this process's variables")


def _stop(connections, processes, collective) -> None:
    for connection in connections:
        try:
            connection.send(("stop",))
        except (BrokenPipeError, OSError):
            pass
    collective.abort()  # a replica waiting at the barrier (its step failed elsewhere) leaves it
    for process in processes:
        process.join(_STOP_SECONDS)
        if process.is_alive():
            process.kill()
            process.join(_STOP_SECONDS)
    for connection in connections:
        connection.close()
    collective.close()


def _die_with_parent() -> None:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: killed when the parent (replica 0) dies
    except (OSError, AttributeError):  # not Linux: the barrier's parent check and the closed pipe remain
        pass


_launch = None  # (strategy ref, pipe end, registry, collective) while a replica process is forked


class _InReplica:
    """What a replica process's strategy holds as its replica processes: the collective shared with replica 0."""

    def __init__(self, collective):
        self.collective = collective


def _replica_main(replica_id) -> None:
    """The loop of replica process `replica_id`: run what replica 0 sends until told to stop."""
    _die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the parent, which stops us
    strategy_ref, connection, registry, collective = _launch
    strategy = strategy_ref()
    share_kernel_threads(strategy.num_replicas_in_sync)
    strategy._process_replica_id = replica_id
    strategy._replica_processes = _InReplica(collective)
    try:
        while True:
            try:
                message = loads(connection.recv_bytes(), collective.input_region(replica_id))
            except (EOFError, OSError):
                return
            if message[0] == "stop":
                return
            _, key, payload, state_in = message
            try:
                set_replica_state(strategy, replica_id, state_in)
                result = registry[key]._replica_call(strategy, replica_id, payload)
                answer = ("ok", result, replica_state(strategy, replica_id))
            except BaseException as error:  # noqa: B036 - sent to replica 0, which raises it
                if not isinstance(error, _Aborted):
                    collective.barrier.fail(replica_id)
                answer = ("error", _picklable(error), traceback.format_exc())
            try:
                connection.send(answer)
            except Exception as error:  # noqa: BLE001 - a result that cannot be pickled: say so instead
                connection.send(("error", TypeError(f"MirroredStrategy: replica {replica_id}'s result cannot be sent "
                                                    f"to replica 0 ({error}); return tensors or numbers"), ""))
    finally:
        os._exit(0)  # no atexit handlers of the parent's (they belong to replica 0)


def share_kernel_threads(num_replicas: int):
    """Unless the user set a thread count (TINYTF_NUM_THREADS, OMP_NUM_THREADS, OPENBLAS_NUM_THREADS,
    tf.config.threading), each replica process's kernels (the convolutions' and chunked elementwise threads)
    use its share of the cores: N processes each starting as many threads as there are cores would fight over
    them. Returns the count to put back (None: nothing was changed)."""
    from tinytf.runtime import chunked

    if chunked.requested_threads() is not None:
        return None
    chunked.set_num_threads(max(1, (os.cpu_count() or 1) // num_replicas))
    return 0  # set_num_threads(0): back to the environment's count


_INLINE_BYTES = 4096  # smaller arrays travel inside the pickle


class _RegionPickler(pickle.Pickler):
    """Pickles a message with its arrays of _INLINE_BYTES or more copied into a shared region (a class made
    once: defining it per message cost about a tenth of the message's time)."""

    def __init__(self, file, region):
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.region, self.used = region, 0

    def persistent_id(self, obj):
        if type(obj) is not np.ndarray or obj.nbytes < _INLINE_BYTES or obj.dtype.hasobject:
            return None
        offset = -(-self.used // 64) * 64
        if offset + obj.nbytes > len(self.region):
            return None  # the region is full: this one goes through the pipe
        target = np.frombuffer(self.region, dtype=obj.dtype, count=obj.size, offset=offset).reshape(obj.shape)
        target[...] = obj
        self.used = offset + obj.nbytes
        return (offset, obj.dtype.str, obj.shape)


class _RegionUnpickler(pickle.Unpickler):
    """The message _RegionPickler made; its arrays are copied out of the region (the next step rewrites it)."""

    def __init__(self, file, region):
        super().__init__(file)
        self.region = region

    def persistent_load(self, pid):
        offset, dtype, shape = pid
        dtype = np.dtype(dtype)
        count = int(np.prod(shape, dtype=np.int64))
        return np.frombuffer(self.region, dtype=dtype, count=count, offset=offset).reshape(shape).copy()


def dumps(message, region) -> bytes:
    """Pickle `message`, its arrays of _INLINE_BYTES or more copied into `region` (a shared memoryview)."""
    buffer = io.BytesIO()
    _RegionPickler(buffer, region).dump(message)
    return buffer.getvalue()


def loads(data: bytes, region):
    """The message `dumps` made, its arrays copied out of `region`."""
    return _RegionUnpickler(io.BytesIO(data), region).load()


def _picklable(error):
    try:
        pickle.dumps(error)
        return error
    except Exception:  # noqa: BLE001 - an exception that cannot travel: its type's name and message
        return RuntimeError(f"{type(error).__name__}: {error}")


def to_numpy(structure):
    """Tensors and variables as numpy arrays (in a replica process: inside the replica context, so that a
    returned variable gives this replica's own copy)."""
    def value(t):
        t = getattr(t, "_parent", t)  # an assign's UnreadVariable: its variable
        return np.asarray(t.numpy()) if hasattr(t, "numpy") else t

    return nest.map_structure(value, structure)


def to_tensors(structure):
    import tinytf as _tf

    return nest.map_structure(lambda a: _tf.convert_to_tensor(a) if isinstance(a, np.ndarray) else a, structure)


# --- the per-replica state that replica 0 reads -------------------------------------------------------------
def replica_state(strategy, replica_id) -> dict:
    """Replica `replica_id`'s own values of the strategy's per-replica variables, by creation index."""
    state = {}
    for index, ref in enumerate(strategy._per_replica_variables):
        variable = ref()
        copies = None if variable is None else variable._copies
        if copies is not None:
            state[index] = np.asarray(copies[replica_id])
    return state


def set_replica_state(strategy, replica_id, state: dict) -> None:
    """Put a replica's per-replica values in place (replica 0 keeps them for every replica)."""
    variables = strategy._per_replica_variables
    for index, value in state.items():
        variable = variables[index]() if index < len(variables) else None
        if variable is None:
            continue
        if variable._copies is None:  # a MirroredVariable whose replicas agreed until now
            variable._copies = [variable._shared] * strategy.num_replicas_in_sync
        variable._copies[replica_id] = value if np.ndim(value) else value[()]


def sync_on_read_state(strategy, replica_id) -> dict:
    """What replica 0 sends with a step: replica i's metric state as this process holds it (a reset of the
    metrics here, between epochs, must reach the replica's copy)."""
    from .sync_on_read import SyncOnReadVariable

    state = {}
    for index, ref in enumerate(strategy._per_replica_variables):
        variable = ref()
        if isinstance(variable, SyncOnReadVariable) and variable._copies is not None:
            state[index] = np.asarray(variable._copies[replica_id])
    return state
