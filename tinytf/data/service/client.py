"""The consumer side of the tf.data service: `distribute`, `register_dataset`, `from_dataset_id`, and the
dataset whose elements the workers produce (DataServiceDataset)."""

from __future__ import annotations

import time

import numpy as np

from tinytf.runtime import dtypes
from tinytf.runtime.errors import InvalidArgumentError, UnavailableError
from tinytf.runtime.tensor import EagerTensor

from ..dataset import UNKNOWN, DatasetV2
from . import travel
from .policies import (
    COMPRESSION_AUTO,
    TARGET_WORKERS,
    check_compression,
    check_job_name,
    parse_service,
    sharding_policy,
)
from .wire import Connection
from .worker import _IN_PROCESS_WORKERS

_PER_REQUEST = 8  # elements a plain read asks a worker for at once (TF's clients keep requests outstanding)
_WAIT_FOR_WORKERS = 0.01  # seconds between heartbeats while a job has no worker yet (TF waits as long)


def _id_text(dataset_id) -> str:
    if hasattr(dataset_id, "numpy"):
        dataset_id = dataset_id.numpy()
    if isinstance(dataset_id, np.ndarray):
        dataset_id = dataset_id.item()
    return dataset_id.decode() if isinstance(dataset_id, bytes) else str(dataset_id)


def register_dataset(service, dataset, compression=COMPRESSION_AUTO, dataset_id=None):
    """Registers `dataset` with the dispatcher at `service`; returns its id, a scalar tf.string tensor (TF's
    ids count from "1000"; `dataset_id` names it instead)."""
    _, address = parse_service(service)
    check_compression(compression)
    connection = Connection(address)
    try:
        reply = connection.request("register_dataset", payload=travel.pack(dataset),
                                   element_spec=dataset.element_spec, cardinality=dataset._cardinality(),
                                   dataset_id=None if dataset_id is None else _id_text(dataset_id))
    finally:
        connection.close()
    return EagerTensor(np.array(reply["dataset_id"].encode(), dtype=object), dtypes.string)


def from_dataset_id(processing_mode, service, dataset_id, element_spec=None, job_name=None, consumer_index=None,
                    num_consumers=None, max_outstanding_requests=None, data_transfer_protocol=None,
                    cross_trainer_cache=None, target_workers="AUTO"):
    """A dataset reading the registered dataset `dataset_id` from the tf.data service at `service`."""
    policy = sharding_policy(processing_mode)
    protocol, address = parse_service(service)
    if job_name is not None and not isinstance(job_name, str) and not hasattr(job_name, "numpy"):
        raise ValueError(f"`job_name` must be a string or Tensor, but `job_name` was of type {type(job_name)}. "
                         f"job_name={job_name}.")
    dataset_id = _id_text(dataset_id)
    if not element_spec:
        connection = Connection(address)
        try:
            element_spec = connection.request("element_spec", dataset_id=dataset_id)["element_spec"]
        finally:
            connection.close()
        if element_spec is None:
            raise ValueError(f"Failed to fetch element spec for dataset id {dataset_id} from tf.data service. If "
                             "the dataset was registered in graph mode or inside a tf.function, the "
                             "`element_spec` must be specified as an argument to `from_dataset_id`.")
    return DataServiceDataset(dataset_id, policy, address, element_spec, job_name, consumer_index, num_consumers,
                              max_outstanding_requests, cross_trainer_cache, target_workers)


def distribute(processing_mode, service, job_name=None, consumer_index=None, num_consumers=None,
               max_outstanding_requests=None, data_transfer_protocol=None, compression="AUTO",
               cross_trainer_cache=None, target_workers="AUTO"):
    """The transformation (for Dataset.apply) that moves the dataset's processing to the tf.data service: the
    dataset is registered with the dispatcher, and iterating the result reads what the workers produce."""
    sharding_policy(processing_mode)
    check_job_name(job_name)
    check_compression(compression)

    def apply(dataset):
        dataset_id = register_dataset(service, dataset, compression)
        return from_dataset_id(processing_mode, service, dataset_id, dataset.element_spec, job_name,
                               consumer_index, num_consumers, max_outstanding_requests, data_transfer_protocol,
                               cross_trainer_cache, target_workers)
    return apply


class DataServiceDataset(DatasetV2):
    """Elements produced by the tf.data service's workers. Each iteration joins (or creates) a job; without
    coordinated reads it asks the job's tasks for elements in turn (so the workers' elements interleave in
    no fixed order, as in TF)."""

    _tf_name = "_DataServiceDatasetV2"

    def __init__(self, dataset_id, policy, address, element_spec, job_name, consumer_index, num_consumers,
                 max_outstanding_requests, cross_trainer_cache, target_workers):
        if (consumer_index is None) != (num_consumers is None):
            raise ValueError("Must either set both `consumer_index` and `num_consumers`, or neither. "
                             f"consumer_index={consumer_index}, num_consumers={num_consumers}")
        if num_consumers is not None and job_name is None:
            raise ValueError(f"`job_name` must be set when setting `num_consumers`. num_consumers was set to "
                             f"{num_consumers}.")
        if num_consumers is not None and not 0 <= int(consumer_index) < int(num_consumers):
            raise InvalidArgumentError(f"tf.data service: consumer_index {consumer_index} is not in "
                                       f"[0, num_consumers={num_consumers})")
        if max_outstanding_requests is not None and int(max_outstanding_requests) <= 0 and \
                max_outstanding_requests != -1:
            raise InvalidArgumentError(f"max_outstanding_requests must be positive or AUTOTUNE (-1), got "
                                       f"{max_outstanding_requests}")
        if str(target_workers).upper() not in TARGET_WORKERS:
            raise InvalidArgumentError(f"Unrecognized target workers: {target_workers}")
        super().__init__(element_spec)
        self._dataset_id, self._policy, self._address = dataset_id, policy, address
        self._job_name = None if job_name is None else _id_text(job_name)
        self._consumer_index = None if consumer_index is None else int(consumer_index)
        self._num_consumers = None if num_consumers is None else int(num_consumers)
        self._trainer_id = None if cross_trainer_cache is None else cross_trainer_cache.trainer_id
        self._local_only = str(target_workers).upper() == "LOCAL"

    def _cardinality(self):
        return UNKNOWN

    def _flat_iter(self):
        return _JobReader(self)


class _JobReader:
    """One iteration's consumer: it joins (or creates) the job when made, as TF's iterator does when it is
    created, and leaves it when closed or dropped (not when the elements end: a consumer that has read to the
    end still holds a shared job, so another consumer that joins it then finds it ended, as in TF)."""

    def __init__(self, dataset):
        self._dataset = dataset
        self._dispatcher = Connection(dataset._address)
        self._workers: dict = {}
        self._job = None
        try:
            self._job = self._dispatcher.request(
                "get_or_create_job", dataset_id=dataset._dataset_id, policy=int(dataset._policy),
                job_name=dataset._job_name, num_consumers=dataset._num_consumers,
                cross_trainer_cache=dataset._trainer_id is not None)
        except BaseException:
            self.close()
            raise
        read = self._coordinated if dataset._num_consumers is not None else self._any_order
        self._elements = read(self._dispatcher, self._workers, self._job["job_id"])

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._elements)

    def close(self):
        dispatcher, self._dispatcher = self._dispatcher, None
        if dispatcher is not None:
            self._finish(dispatcher, self._workers, self._job)

    def __del__(self):
        try:
            self.close()
        except Exception:  # noqa: BLE001 - at interpreter exit the servers and modules may be gone
            pass

    def _tasks(self, dispatcher, job_id) -> list:
        """The job's tasks, once there is at least one (TF's consumers wait for workers)."""
        while True:
            tasks = dispatcher.request("client_heartbeat", job_id=job_id)["tasks"]
            if self._dataset._local_only:
                tasks = [t for t in tasks if t["address"] in _IN_PROCESS_WORKERS]
            if tasks:
                return tasks
            time.sleep(_WAIT_FOR_WORKERS)

    def _ask(self, workers, task, **fields):
        """A worker's reply for `task`; a worker that went away counts as having ended the task."""
        address = task["address"]
        try:
            if address not in workers:
                workers[address] = Connection(address)
            return workers[address].request("get_element", task=task, **fields)
        except UnavailableError:
            workers.pop(address, None)
            return {"end": True}

    def _any_order(self, dispatcher, workers, job_id):
        ended: set = set()
        while True:
            tasks = [t for t in self._tasks(dispatcher, job_id) if t["task_id"] not in ended]
            if not tasks:
                return
            for task in tasks:
                trainer_id = self._dataset._trainer_id
                reply = self._ask(workers, task, trainer_id=trainer_id, up_to=None if trainer_id else _PER_REQUEST)
                if "end" in reply:
                    ended.add(task["task_id"])
                elif "elements" in reply:
                    yield from reply["elements"]
                else:
                    yield reply["element"]

    def _coordinated(self, dispatcher, workers, job_id):
        """Coordinated reads: round r is served by task r mod (number of tasks), which gives each of the
        `num_consumers` consumers one element of that round; the rounds end together."""
        round_index = 0
        while True:
            tasks = self._tasks(dispatcher, job_id)
            task = tasks[round_index % len(tasks)]
            reply = self._ask(workers, task, consumer_index=self._dataset._consumer_index, round_index=round_index)
            if "end" in reply:
                return
            yield reply["element"]
            round_index += 1

    def _finish(self, dispatcher, workers, job):
        try:
            if job is not None:
                ended = dispatcher.request("release_job", job_id=job["job_id"], client_id=job["client_id"])
                for connection in workers.values():  # the job's last consumer left: its tasks are dropped
                    if ended.get("end_tasks"):
                        connection.request("end_tasks", task_ids=ended["end_tasks"])
        except UnavailableError:
            pass  # a stopped dispatcher or worker has nothing left to release
        finally:
            for connection in workers.values():
                connection.close()
            dispatcher.close()
