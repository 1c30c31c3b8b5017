"""tf.data.experimental.service.WorkerServer: runs its share of each job's pipeline and serves the elements.
It registers with the dispatcher when it starts; a task (one job on this worker) is made when a consumer first
asks it for an element: the worker fetches the dataset from the dispatcher (travel.py) and shards it by the
job's policy. A task's iterator is shared by the job's consumers (job sharing by `job_name`)."""

from __future__ import annotations

import collections
import threading

from . import travel
from .policies import STATIC, ShardingPolicy
from .wire import Connection, Server

_SPLITS_PER_REQUEST = 4  # DYNAMIC: source elements a worker takes from the dispatcher at once (few: fair shares)
_IN_PROCESS_WORKERS: set = set()  # the addresses of this process's workers (target_workers="LOCAL")


class WorkerConfig(collections.namedtuple("WorkerConfig", [
        "dispatcher_address", "worker_address", "port", "protocol", "heartbeat_interval_ms",
        "dispatcher_timeout_ms", "data_transfer_protocol", "data_transfer_address"])):
    """The worker's configuration: `dispatcher_address` ("localhost:PORT"), `worker_address` (what the
    dispatcher tells consumers; "%port%" is replaced by the bound port), `port` (0: any free port)."""

    def __new__(cls, dispatcher_address, worker_address=None, port=0, protocol=None, heartbeat_interval_ms=None,
                dispatcher_timeout_ms=None, data_transfer_protocol=None, data_transfer_address=None):
        from .dispatcher import _time_or_placeholder

        return super().__new__(
            cls, dispatcher_address, "localhost:%port%" if worker_address is None else worker_address, port,
            "grpc" if protocol is None else protocol, _time_or_placeholder(heartbeat_interval_ms),
            _time_or_placeholder(dispatcher_timeout_ms), data_transfer_protocol,
            "localhost:%dts_port%" if data_transfer_address is None else data_transfer_address)


class _Task:
    """One job's pipeline on this worker, read by the job's consumers under a lock."""

    def __init__(self, info: dict, dispatcher: Connection):
        dataset = travel.unpack(dispatcher.request("dataset", dataset_id=info["dataset_id"])["payload"])
        policy = ShardingPolicy(info["policy"])
        if policy is ShardingPolicy.DYNAMIC:
            dataset = travel.with_source(dataset, self._split_source(dataset, info["job_id"], dispatcher))
        elif policy in STATIC:
            dataset = travel.statically_sharded(dataset, policy, info["num_workers"], info["worker_index"],
                                                repr(dataset))
        self._elements = dataset._flat_iter()
        self._lock = threading.Lock()
        self._ended = False
        self._rounds: dict = {}  # coordinated reads: round -> [one element per consumer, ...]
        self._taken: dict = {}
        self._num_consumers = info["num_consumers"]
        self._cache: list = []  # cross-trainer cache: what was produced, read on by each trainer
        self._positions: dict = {}

    @staticmethod
    def _split_source(dataset, job_id, dispatcher):
        source = travel.source_chain(dataset)[-1]
        passes = iter(range(1 << 62))

        class _Repetitions(travel.SplitSource):
            def _flat_iter(self):  # each pass over the source (a repeat above it) is split anew
                repetition = next(passes)
                return travel.SplitSource(self._spec_inside, lambda: dispatcher.request(
                    "get_split", job_id=job_id, repetition=repetition,
                    up_to=_SPLITS_PER_REQUEST)["splits"])._flat_iter()
        return _Repetitions(source._spec_inside, None)

    def _next(self):
        if self._ended:
            return None
        item = next(self._elements, None)
        if item is None:
            self._ended = True
        return item

    def elements(self, up_to: int) -> list:
        """Up to `up_to` next elements (fewer at the end; none once it has ended)."""
        with self._lock:
            items = []
            while len(items) < up_to:
                item = self._next()
                if item is None:
                    break
                items.append(item)
            return items

    def element(self, consumer_index=None, round_index=None, trainer_id=None):
        with self._lock:
            if trainer_id is not None:
                position = self._positions.get(trainer_id, 0)
                while position >= len(self._cache):
                    item = self._next()
                    if item is None:
                        return None
                    self._cache.append(item)
                self._positions[trainer_id] = position + 1
                return self._cache[position]
            if consumer_index is None:
                return self._next()
            # coordinated reads: round r holds one element per consumer, all made before any is served, so
            # that every consumer gets an element in a round or none does
            row = self._rounds.get(round_index)
            if row is None:
                row = [self._next() for _ in range(self._num_consumers)]
                if any(item is None for item in row):
                    row = [None] * self._num_consumers
                self._rounds[round_index] = row
            item = row[consumer_index]
            taken = self._taken[round_index] = self._taken.get(round_index, 0) + 1
            if taken == self._num_consumers:
                del self._rounds[round_index], self._taken[round_index]
            return item


class WorkerServer:
    """A tf.data service worker: `start()` (unless start=False), `join()`, `stop()` / `_stop()`."""

    def __init__(self, config, start=True):
        if config.dispatcher_address is None:
            raise ValueError("Must specify a `dispatcher_address` in the `config` passed to `WorkerServer`.")
        self._config = config
        self._server = Server(config.port, self._handle, "tf.data-worker")
        self._address = config.worker_address.replace("%port%", str(self._server.port))
        self._tasks: dict = {}
        self._lock = threading.Lock()
        self._dispatcher = None
        if start:
            self.start()

    def start(self) -> None:
        if self._server.started:
            return
        self._server.start()
        self._dispatcher = Connection(self._config.dispatcher_address)
        self._dispatcher.request("register_worker", address=self._address)
        _IN_PROCESS_WORKERS.add(self._address)

    def join(self) -> None:
        self._server.join()

    def stop(self) -> None:
        self._stop()

    def _stop(self) -> None:
        _IN_PROCESS_WORKERS.discard(self._address)
        if self._dispatcher is not None:
            try:
                self._dispatcher.request("unregister_worker", address=self._address)
            except Exception:  # noqa: BLE001 - the dispatcher may be gone already
                pass
            self._dispatcher.close()
            self._dispatcher = None
        self._server.stop()

    def __del__(self):
        if getattr(self, "_server", None) is not None:
            self._stop()

    def _num_tasks(self) -> int:
        with self._lock:
            return len(self._tasks)

    def _handle(self, kind: str, fields: dict):
        if kind == "end_tasks":
            with self._lock:
                for task_id in fields["task_ids"]:
                    self._tasks.pop(task_id, None)
            return {}
        if kind == "save_stream":  # distributed_save: this worker's stream of the job's elements, to files
            from .distributed_save import write_stream

            info = fields["task"]
            task = _Task(info, self._dispatcher)
            spec = self._dispatcher.request("element_spec", dataset_id=info["dataset_id"])["element_spec"]

            return {"count": write_stream(task._elements, fields["path"], fields["run_id"], fields["stream"],
                                          spec, fields["compression"])}
        if kind != "get_element":
            raise ValueError(f"tf.data service worker: unknown request {kind!r}")
        info = fields["task"]
        with self._lock:
            task = self._tasks.get(info["task_id"])
            if task is None:
                task = self._tasks[info["task_id"]] = _Task(info, self._dispatcher)
        if fields.get("up_to"):  # a plain read: up to `up_to` elements in one reply (fewer round trips)
            items = task.elements(fields["up_to"])
            return {"elements": items} if items else {"end": True}
        item = task.element(fields.get("consumer_index"), fields.get("round_index"), fields.get("trainer_id"))
        return {"end": True} if item is None else {"element": item}
