"""tf.data.experimental.service.DispatchServer: registers datasets and workers, creates jobs, and hands out
the splits of DYNAMIC jobs. A real server on 127.0.0.1 (wire.py); clients and workers talk to it by address.

With `fault_tolerant_mode` the registered datasets are journaled under `work_dir`, and a dispatcher started
again on the same `work_dir` knows them (TF journals its whole state; jobs are not restored here)."""

from __future__ import annotations

import collections
import itertools
import os
import pickle
import threading

from tinytf.runtime.errors import InvalidArgumentError, NotFoundError

from ..dataset import INFINITE
from . import travel
from .policies import STATIC, ShardingPolicy
from .wire import Server


def _time_or_placeholder(value):
    """TF's servers read 0 as "choose a default": the Python API's None becomes 0, and an explicit 0 becomes 1."""
    if value == 0:
        return 1
    return 0 if value is None else value


class DispatcherConfig(collections.namedtuple("DispatcherConfig", [
        "port", "protocol", "work_dir", "fault_tolerant_mode", "worker_addresses", "job_gc_check_interval_ms",
        "job_gc_timeout_ms", "worker_timeout_ms", "worker_max_concurrent_snapshots"])):
    """The dispatcher's configuration: `port` (0: any free port), `worker_addresses` (needed by the static
    sharding policies: a worker's index is its place in the list), `work_dir` and `fault_tolerant_mode`."""

    def __new__(cls, port=0, protocol=None, work_dir=None, fault_tolerant_mode=False, worker_addresses=None,
                job_gc_check_interval_ms=None, job_gc_timeout_ms=None, worker_timeout_ms=None,
                worker_max_concurrent_snapshots=0):
        return super().__new__(cls, port, "grpc" if protocol is None else protocol, work_dir, fault_tolerant_mode,
                               worker_addresses, _time_or_placeholder(job_gc_check_interval_ms),
                               _time_or_placeholder(job_gc_timeout_ms), worker_timeout_ms,
                               worker_max_concurrent_snapshots)


class _Job:
    def __init__(self, job_id, dataset_id, dataset, policy, job_name, num_consumers, cross_trainer_cache):
        self.id, self.dataset_id, self.dataset, self.policy = job_id, dataset_id, dataset, policy
        self.job_name, self.num_consumers, self.cross_trainer_cache = job_name, num_consumers, cross_trainer_cache
        self.tasks: dict = {}  # worker address -> task id
        self.clients: set = set()
        self.split_lock = threading.Lock()
        self.splits: dict = {}  # repetition -> iterator over the source's elements (DYNAMIC)


class DispatchServer:
    """A tf.data service dispatcher. `target` ("grpc://localhost:PORT") is what `distribute` takes; workers
    connect to `target.split("://")[1]`."""

    def __init__(self, config=None, start=True):
        config = config or DispatcherConfig()
        if config.fault_tolerant_mode and not config.work_dir:
            raise ValueError("Cannot enable fault tolerant mode without configuring a work dir. Make sure to set "
                             "`work_dir` in the `config` object passed to `DispatcherServer`.")
        self._config = config
        self._lock = threading.Lock()
        self._datasets: dict = {}  # dataset id -> (payload, element spec)
        self._dataset_ids = itertools.count(1000)  # TF's dispatcher numbers datasets from 1000, jobs from 5000
        self._job_ids = itertools.count(5000)
        self._task_ids = itertools.count(1)
        self._client_ids = itertools.count(1)
        self._jobs: dict = {}
        self._named_jobs: dict = {}
        self._workers: list = []
        self._saves: list = []  # distributed_save runs (threads)
        self._stopped = threading.Event()
        self._restore_journal()
        self._server = Server(config.port, self._handle, "tf.data-dispatcher")
        if start:
            self.start()

    def start(self) -> None:
        self._server.start()

    def join(self) -> None:
        self._server.join()

    def stop(self) -> None:
        self._stop()

    def _stop(self) -> None:
        self._stopped.set()
        self._server.stop()
        for run in self._saves:  # a save in progress ends: its workers' connections fail or it finishes
            run.join()

    def __del__(self):
        server = getattr(self, "_server", None)
        if server is not None:
            server.stop()

    @property
    def target(self) -> str:
        return f"{self._config.protocol}://localhost:{self._server.port}"

    @property
    def _address(self) -> str:
        return f"localhost:{self._server.port}"

    def _num_workers(self) -> int:
        with self._lock:
            return len(self._workers)

    # --- requests -----------------------------------------------------------------------------------------
    def _handle(self, kind: str, fields: dict):
        return getattr(self, f"_on_{kind}")(**fields)

    def _on_register_worker(self, address):
        with self._lock:
            if address not in self._workers:
                self._workers.append(address)
        return {}

    def _on_unregister_worker(self, address):
        with self._lock:
            if address in self._workers:
                self._workers.remove(address)
        return {}

    def _on_register_dataset(self, payload, element_spec, cardinality, dataset_id):
        with self._lock:
            if dataset_id is None:
                dataset_id = str(next(self._dataset_ids))
                while dataset_id in self._datasets:
                    dataset_id = str(next(self._dataset_ids))
            if dataset_id not in self._datasets:
                self._datasets[dataset_id] = (payload, element_spec, cardinality)
                self._journal(dataset_id)
        return {"dataset_id": dataset_id}

    def _on_element_spec(self, dataset_id):
        with self._lock:
            entry = self._datasets.get(dataset_id)
        return {"element_spec": None if entry is None else entry[1]}

    def _on_get_or_create_job(self, dataset_id, policy, job_name, num_consumers, cross_trainer_cache):
        with self._lock:
            if dataset_id not in self._datasets:
                raise NotFoundError(f"tf.data service: dataset id {dataset_id} not found (register_dataset gives "
                                    "the ids this dispatcher knows)")
            if cross_trainer_cache:  # TF checks these when the iterator is made
                if not job_name:
                    raise InvalidArgumentError("Cross-trainer caching requires named jobs. Got empty `job_name`.")
                cardinality = self._datasets[dataset_id][2]
                if cardinality != INFINITE:
                    raise InvalidArgumentError(f"Cross-trainer caching requires the input dataset to be infinite. "
                                               f"Got input with cardinality {cardinality}")
            job = self._named_jobs.get(job_name) if job_name else None
            if job is not None and job.policy != policy:  # a named job is the job: its dataset is the first's
                raise InvalidArgumentError(
                    f"tf.data service: job {job_name!r} was created with sharding policy "
                    f"{ShardingPolicy(job.policy).name}; a consumer asked for it with {ShardingPolicy(policy).name}")
            if job is None:
                self._check_static_workers(policy)
                payload = self._datasets[dataset_id][0]
                # the dispatcher splits DYNAMIC jobs' sources itself, so it needs the dataset
                dataset = travel.unpack(payload) if policy == ShardingPolicy.DYNAMIC else None
                job = _Job(next(self._job_ids), dataset_id, dataset, policy, job_name, num_consumers,
                           cross_trainer_cache)
                self._jobs[job.id] = job
                if job_name:
                    self._named_jobs[job_name] = job
            client_id = next(self._client_ids)
            job.clients.add(client_id)
            return {"job_id": job.id, "client_id": client_id}

    def _check_static_workers(self, policy):
        if policy not in STATIC:
            return
        listed = list(self._config.worker_addresses or ())
        for address in self._workers:
            if address not in listed:
                raise NotFoundError(f"Failed to get or create iteration: Failed to shard dataset in tf.data "
                                    f"service: Worker {address} is not in the workers list. Got workers list "
                                    f"{', '.join(listed)}.")

    def _on_release_job(self, job_id, client_id):
        with self._lock:
            job = self._jobs.get(job_id)
            if job is None:
                return {}
            job.clients.discard(client_id)
            # An unnamed job ends with its consumer. A named job stays, as TF keeps it: a consumer that joins
            # it later reads on from where the others left it (nothing, once they read it to the end).
            if job.clients or job.job_name:
                return {"end_tasks": []}
            del self._jobs[job_id]
        return {"end_tasks": list(job.tasks.values())}

    def _on_client_heartbeat(self, job_id):
        """The job's tasks, one per registered worker (a worker that registered since gets one now)."""
        with self._lock:
            job = self._jobs.get(job_id)
            if job is None:
                raise NotFoundError(f"tf.data service: job {job_id} not found (the dispatcher was restarted?)")
            self._check_static_workers(job.policy)
            for address in self._workers:
                if address not in job.tasks:
                    job.tasks[address] = next(self._task_ids)
            listed = list(self._config.worker_addresses or ())
            tasks = []
            for address, task_id in sorted(job.tasks.items(), key=lambda kv: kv[1]):
                if address not in self._workers:
                    continue
                index = listed.index(address) if address in listed else 0
                tasks.append({"task_id": task_id, "address": address, "job_id": job.id,
                              "dataset_id": job.dataset_id, "policy": job.policy, "worker_index": index,
                              "num_workers": len(listed) if job.policy in STATIC else len(self._workers),
                              "num_consumers": job.num_consumers, "cross_trainer_cache": job.cross_trainer_cache})
            return {"tasks": tasks}

    def _on_distributed_save(self, dataset_id, path, compression, run_id):
        from .distributed_save import SaveRun

        job = self._on_get_or_create_job(dataset_id, int(ShardingPolicy.DYNAMIC), None, None, False)
        with self._lock:
            entry = self._datasets[dataset_id]
        run = SaveRun(self, job["job_id"], path, run_id, entry[1], compression)
        self._saves.append(run)
        run.start()
        return {}

    def _tasks_when_workers(self, job_id):
        """The job's tasks once a worker has registered (None if the dispatcher stops first)."""
        while not self._stopped.is_set():
            tasks = self._on_client_heartbeat(job_id)["tasks"]
            if tasks:
                return tasks
            self._stopped.wait(0.01)
        return None

    def _on_dataset(self, dataset_id):
        with self._lock:
            return {"payload": self._datasets[dataset_id][0]}

    def _on_get_split(self, job_id, repetition, up_to=1):
        """The next elements (up to `up_to`) of a DYNAMIC job's source for one repetition of it (a worker's
        pipeline that repeats reads its source again: each pass is split anew); an empty list at its end."""
        with self._lock:
            job = self._jobs.get(job_id)
        if job is None:
            return {"splits": []}
        with job.split_lock:
            splits = job.splits.get(repetition)
            if splits is None:
                splits = job.splits[repetition] = travel.source_chain(job.dataset)[-1]._flat_iter()
            return {"splits": [split for _, split in zip(range(up_to), splits)]}

    # --- fault-tolerant mode: the registered datasets journaled under work_dir ------------------------------
    def _journal_dir(self):
        if not (self._config.fault_tolerant_mode and self._config.work_dir):
            return None
        return os.path.join(self._config.work_dir, "tinytf_dispatcher_journal")

    def _journal(self, dataset_id):
        directory = self._journal_dir()
        if directory is None or "pickle" not in self._datasets[dataset_id][0]:
            return
        os.makedirs(directory, exist_ok=True)
        path = os.path.join(directory, f"dataset_{len(os.listdir(directory)):08d}")
        with open(path + ".tmp", "wb") as f:
            pickle.dump((dataset_id, self._datasets[dataset_id]), f)
        os.replace(path + ".tmp", path)

    def _restore_journal(self):
        directory = self._journal_dir()
        if directory is None or not os.path.isdir(directory):
            return
        for name in sorted(os.listdir(directory)):
            if name.endswith(".tmp"):
                continue
            with open(os.path.join(directory, name), "rb") as f:
                dataset_id, entry = pickle.load(f)
            self._datasets[dataset_id] = entry
            if dataset_id.isdigit():
                self._dataset_ids = itertools.count(max(int(dataset_id) + 1, next(self._dataset_ids)))
