"""tf.distribute.coordinator: ClusterCoordinator schedules functions on the workers of a ParameterServerStrategy
and hands back RemoteValues; create_per_worker_dataset makes one dataset (then one iterator) per worker.

Each worker has a thread here that takes the next scheduled closure from one shared queue (so a free worker
picks up work, as TF's) and asks its worker Server to run it over TCP (server.py: a closure of this process is
sent by number; it runs on the Server's own thread). The closure's result or error lands in its RemoteValue.
The first error of a closure cancels the closures still queued (their RemoteValues raise CancelledError) and is
raised by the next join(), done() or schedule(); fetching the failed closure's RemoteValue raises it too.
A worker that goes away (its Server stopped, the connection lost) is marked failed and its closure is put back
for the other workers, as TF re-runs a preempted worker's closure; when no worker is left the closures fail
with UnavailableError (TF waits for a worker instead). A failed worker's thread looks for a Server at its
address again and, once one serves it (a restarted task), takes closures again, as TF's workers rejoin."""

from __future__ import annotations

import queue
import threading

import numpy as np

from tinytf.runtime import nest
from tinytf.runtime.errors import CancelledError, UnavailableError, UnimplementedError

_worker = threading.local()  # .index: the worker whose closure this thread is running
_STOP = object()
_WAIT_SECONDS = 0.5  # join() waits in short slices so that Ctrl-C reaches it
_RECONNECT_SECONDS = 0.2  # how often a lost worker's thread looks for its task's Server again


def experimental_get_current_worker_index():
    """The index of the worker running the calling tf.function (a scheduled function, or a dataset_fn of
    create_per_worker_dataset), read when the function runs: a trace made on one worker serves the others."""
    from tinytf.runtime.context import state

    message = ("Cannot retrieve the worker index. `get_worker_idx_and_num_workers` should be called from within a "
               "tf.function being executed on a worker. This method should only be called from either a "
               "dataset_fn that is passed into `ClusterCoordinator.create_per_worker_dataset`, or a tf.function "
               "that is passed into `ClusterCoordinator.schedule`.")
    if state.graph is None:
        # a dataset function given as a tf.function runs its Python function on the worker (where TF traces it):
        # there the index is known now
        index = getattr(_worker, "index", None)
        if index is None:
            raise RuntimeError(message)
        import tinytf as tf

        return tf.constant(index, tf.int64)

    def call_time_worker_index():
        index = getattr(_worker, "index", None)
        if index is None:
            raise RuntimeError(message)
        return np.int64(index)

    import tinytf as tf

    return tf.numpy_function(call_time_worker_index, [], tf.int64, stateful=True)


class RemoteValue:
    """The eventual result of a scheduled function: fetch() waits and gives numpy values, get() tensors."""

    def __init__(self):
        self._ready = threading.Event()
        self._value = None
        self._error = None

    def _set(self, value=None, error=None) -> None:
        self._value, self._error = value, error
        self._ready.set()

    def _wait(self):
        while not self._ready.wait(_WAIT_SECONDS):
            pass
        if self._error is not None:
            raise self._error
        return self._value

    def fetch(self):
        """The result as numpy values (waits for the function to finish; raises its error)."""
        return nest.map_structure(_as_numpy, self._wait())

    def get(self):
        """The result as tensors (waits for the function to finish; raises its error)."""
        return self._wait()

    def __repr__(self):
        return f"<RemoteValue {'ready' if self._ready.is_set() else 'pending'}>"


def _as_numpy(x):
    return x.numpy() if hasattr(x, "numpy") else x


class PerWorkerValues:
    """One value per worker (a dataset, an iterator): a scheduled function is given the component of the worker
    that runs it."""

    def __init__(self, values):
        self._values = tuple(values)

    def __repr__(self):
        return f"{type(self).__name__}({len(self._values)} workers)"


PerWorkerValue = PerWorkerValues  # tf.distribute.coordinator's name of it


class PerWorkerDistributedIterator(PerWorkerValues):
    """The iterators of a per-worker dataset, one per worker (pass it to scheduled functions, which call next)."""

    def __iter__(self):
        return self

    def __next__(self):  # the elements are on the workers: a scheduled function takes them
        raise NotImplementedError("Iterating over a per-worker iterator on the coordinator is not supported: pass it "
                                  "to a function scheduled with ClusterCoordinator.schedule, which calls next() on "
                                  "its worker's iterator")


class PerWorkerDatasetFromDatasetFunction:
    """create_per_worker_dataset's result: each worker's dataset, made by the dataset function on that worker."""

    def __init__(self, coordinator, values):
        self._coordinator = coordinator
        self._values = tuple(values)

    def __iter__(self) -> PerWorkerDistributedIterator:
        return PerWorkerDistributedIterator(self._coordinator._on_each_worker(iter, lambda i: (self._values[i],)))

    def build(self):
        return self


def _worker_pipeline(dataset):
    """The dataset a worker iterates: a DistributedDataset of the strategy (one replica per worker, as the
    tutorial's `strategy.distribute_datasets_from_function(dataset_fn)`) yields its dataset's elements, so the
    worker iterates that dataset, whose iterator a tf.function can take."""
    from .input import DistributedDataset

    if isinstance(dataset, DistributedDataset) and dataset._num_replicas == 1 and dataset._worker_slice is None \
            and dataset._per_worker is None:
        return dataset._dataset
    return dataset


class _Closure:
    """A scheduled call, run by a worker Server of this process (`run(server)`), keeping its own outcome."""

    def __init__(self, strategy, fn, args, kwargs, remote_value):
        self.strategy, self.fn, self.args, self.kwargs = strategy, fn, args, kwargs
        self.remote_value = remote_value
        self.worker_index = None
        self.outcome = None  # ("ok", value) or ("error", exception)

    def run(self, server) -> None:
        _worker.index = self.worker_index
        try:
            args, kwargs = _select_worker(self.worker_index, (self.args, self.kwargs))
            with self.strategy.scope():
                self.outcome = ("ok", self.fn(*args, **kwargs))
        except Exception as e:  # noqa: BLE001  (every error goes to the RemoteValue and the coordinator)
            self.outcome = ("error", e)
        finally:
            _worker.index = None


def _select_worker(index, structure):
    return nest.map_structure(lambda x: x._values[index] if isinstance(x, PerWorkerValues) else x, structure)


class _Worker:
    """A worker task seen from the coordinator: its connection and the thread that feeds it closures."""

    def __init__(self, coordinator, index, address):
        from .server import Connection, local_server

        if local_server(address) is None:
            raise UnimplementedError(None, None, (
                f"ClusterCoordinator: the worker /job:worker/task:{index} at {address} is not a tf.distribute.Server "
                "of this process. tinytf's workers run the coordinator's functions in its memory (they close over "
                "its models and iterators, which do not pickle): start the worker Servers in this process "
                "(tf.test.create_local_cluster, or tf.distribute.Server(...) per task)"))
        self.index, self.address = index, address
        self.coordinator = coordinator
        self.connection = Connection(address, timeout=10.0, who=f"/job:worker/task:{index}")
        self.failed = False
        self.thread = threading.Thread(target=self._loop, daemon=True, name=f"tinytf-coordinator-worker-{index}")
        self.thread.start()

    def run(self, closure) -> None:
        """Have the worker Server run `closure` (raises UnavailableError when the worker is gone)."""
        from .server import register_closure

        closure.worker_index = self.index
        self.connection.call(("run", ("local", register_closure(closure))))

    def _loop(self) -> None:
        coordinator = self.coordinator
        while True:
            closure = coordinator._queue.get()
            if closure is _STOP:
                return
            if closure.outcome is not None:  # cancelled while queued
                continue
            try:
                self.run(closure)
            except UnavailableError as e:
                self.failed = True
                coordinator._worker_lost(self, closure, e)
                if not self._reconnect():
                    return
                continue
            coordinator._finished(closure)

    def _reconnect(self) -> bool:
        """Wait for a Server to serve this worker's address again (a restarted task) and connect to it; False
        when the coordinator shuts down first."""
        from .server import Connection, local_server

        stopping = self.coordinator._stopping
        while not stopping.wait(_RECONNECT_SECONDS):
            if local_server(self.address) is None:
                continue
            try:
                connection = Connection(self.address, timeout=1.0, who=f"/job:worker/task:{self.index}")
            except UnavailableError:
                continue
            self.connection.close()
            self.connection, self.failed = connection, False
            return True
        return False


class ClusterCoordinator:
    """ClusterCoordinator(strategy): one per ParameterServerStrategy (making a second gives the first)."""

    def __new__(cls, strategy):
        existing = getattr(strategy, "_coordinator", None)
        if existing is not None:
            return existing
        return super().__new__(cls)

    def __init__(self, strategy):
        if getattr(self, "_initialized", False):
            return
        if not getattr(strategy, "_is_parameter_server_strategy_v2", False):
            raise ValueError("Only `tf.distribute.experimental.ParameterServerStrategy` is supported to work with "
                             "`tf.distribute.experimental.coordinator.ClusterCoordinator` currently.")
        self._strategy = strategy
        self._queue: queue.Queue = queue.Queue()
        self._cond = threading.Condition()
        self._pending = 0  # closures scheduled and not finished
        self._error = None  # the first error since the last one raised
        self._stopping = threading.Event()
        self._workers = []
        try:
            for i, address in enumerate(strategy._worker_addresses):
                self._workers.append(_Worker(self, i, address))
        except BaseException:
            self.shutdown()  # the threads of the workers already reached
            raise
        strategy._coordinator = self
        self._initialized = True

    @property
    def strategy(self):
        return self._strategy

    # --- scheduling ----------------------------------------------------------------------------------------
    def schedule(self, fn, args=None, kwargs=None) -> RemoteValue:
        """Queue fn(*args, **kwargs) for the next free worker; PerWorkerValues arguments give each worker its
        own component. Raises the error of an earlier function not raised yet."""
        from tinytf.concrete_function import ConcreteFunction
        from tinytf.function import Function

        if not isinstance(fn, (Function, ConcreteFunction)):
            raise TypeError("`tf.distribute.experimental.coordinator.ClusterCoordinator.schedule` only accepts a "
                            "`tf.function` or a concrete function.")
        args, kwargs = tuple(args or ()), dict(kwargs or {})
        for leaf in nest.flatten((args, kwargs)):
            if isinstance(leaf, RemoteValue):
                raise ValueError("`tf.distribute.experimental.coordinator.RemoteValue` used as an input to scheduled "
                                 "function is not yet supported.")
        self._raise_pending_error()
        if isinstance(fn, Function):  # traced here, under the scope, as TF does: slot variables go to the ps tasks
            with self._strategy.scope():
                first_args, first_kwargs = _select_worker(0, (args, kwargs))
                fn.get_concrete_function(*first_args, **first_kwargs)
        remote_value = RemoteValue()
        closure = _Closure(self._strategy, fn, args, kwargs, remote_value)
        with self._cond:
            if not any(not w.failed for w in self._workers):
                raise UnavailableError(None, None, "ClusterCoordinator: every worker has failed")
            self._pending += 1
        self._queue.put(closure)
        return remote_value

    def join(self) -> None:
        """Wait until every scheduled function has finished; raise the first error among them (then clear it)."""
        with self._cond:
            while self._pending:
                self._cond.wait(_WAIT_SECONDS)
        self._raise_pending_error()

    def done(self) -> bool:
        """Whether every scheduled function has finished (raises a pending error, as join)."""
        self._raise_pending_error()
        return self._pending == 0

    def fetch(self, val):
        """`val` with every RemoteValue fetched (numpy) and PerWorkerValues as a tuple of their fetched values."""
        def one(x):
            if isinstance(x, RemoteValue):
                return x.fetch()
            if isinstance(x, PerWorkerValues):
                return tuple(one(v) for v in x._values)
            return x
        return nest.map_structure(one, val)

    def create_per_worker_dataset(self, dataset_fn) -> PerWorkerDatasetFromDatasetFunction:
        """One dataset per worker: dataset_fn() run on each worker (a tf.function's Python function is run: its
        dataset is the worker's), or a dataset given directly, copied per worker by iterating it there."""
        from tinytf.function import Function

        if isinstance(dataset_fn, Function):
            dataset_fn = dataset_fn.python_function
        if callable(dataset_fn) and not hasattr(dataset_fn, "element_spec"):
            values = self._on_each_worker(dataset_fn, lambda i: ())
        else:
            values = [dataset_fn] * len(self._workers)
        return PerWorkerDatasetFromDatasetFunction(self, [_worker_pipeline(v) for v in values])

    def _on_each_worker(self, fn, args_of) -> list:
        """fn(*args_of(i)) run by each worker now (not queued: TF's resource closures), in worker order."""
        results = []
        for worker in self._workers:
            closure = _Closure(self._strategy, fn, args_of(worker.index), {}, None)
            worker.run(closure)
            status, value = closure.outcome
            if status == "error":
                raise value
            results.append(value)
        return results

    # --- the worker threads' reports -----------------------------------------------------------------------
    def _finished(self, closure) -> None:
        status, value = closure.outcome
        if status == "ok":
            closure.remote_value._set(value)
        else:  # the coordinator's error first: whoever fetched this RemoteValue's error sees it at join/schedule
            with self._cond:
                if self._error is None:
                    self._error = value
            self._cancel_queued()
            closure.remote_value._set(error=value)
        with self._cond:
            self._pending -= 1
            self._cond.notify_all()

    def _cancel_queued(self) -> None:
        error = CancelledError(None, None, "The corresponding function is cancelled. Please reschedule the function.")
        while True:
            try:
                closure = self._queue.get_nowait()
            except queue.Empty:
                return
            if closure is _STOP:
                self._queue.put(_STOP)
                return
            closure.outcome = ("error", error)
            closure.remote_value._set(error=error)
            with self._cond:
                self._pending -= 1
                self._cond.notify_all()

    def _worker_lost(self, worker, closure, error) -> None:
        """A worker went away while running `closure`: another worker runs it, or it fails when none is left."""
        if any(not w.failed for w in self._workers):
            self._queue.put(closure)
            return
        closure.outcome = ("error", error)
        self._finished(closure)
        while True:  # nobody is left to take the queued closures
            try:
                queued = self._queue.get_nowait()
            except queue.Empty:
                return
            if queued is not _STOP:
                queued.outcome = ("error", error)
                queued.remote_value._set(error=error)
                with self._cond:
                    self._pending -= 1
                    self._cond.notify_all()

    def _raise_pending_error(self) -> None:
        with self._cond:
            error, self._error = self._error, None
        if error is not None:
            raise error

    def shutdown(self) -> None:
        """Stop the worker threads and close the connections (tinytf's; TF's coordinator lives as long as the
        program)."""
        self._stopping.set()
        for _ in self._workers:
            self._queue.put(_STOP)
        for worker in self._workers:
            worker.thread.join(timeout=10)
            worker.connection.close()
        if getattr(self._strategy, "_coordinator", None) is self:
            self._strategy._coordinator = None
