"""tf.data.experimental.distributed_save: the tf.data service's workers write a dataset to `path`, in the format
Dataset.save writes (saving.py: `dataset_spec.pb`, one shard directory per worker stream of TFRecord files of
TensorProtos, and `snapshot.metadata` written last, finalized), so `tf.data.Dataset.load(path)` reads it back
(with `wait=True` while it is still being written). TF 2.21 writes its own chunked layout here; this one is
the layout its `Dataset.save` documents, which TF's `Dataset.load` reads too.

The save runs in the background, as TF's does: the dispatcher splits the dataset among its workers (DYNAMIC
sharding: each element is written once), each worker writes its stream, and the dispatcher finalizes."""

from __future__ import annotations

import os
import random
import threading

from tinytf.runtime import nest

from .. import saving
from ..structure import ElementError
from .policies import check_compression, parse_service


def distributed_save(dataset, path, data_service_address, compression="AUTO"):
    """Starts writing `dataset` to `path` with the tf.data service at `data_service_address`; returns None at
    once (load it with `tf.data.Dataset.load(path, wait=True)` to read it as it is finalized)."""
    from .client import register_dataset
    from .wire import Connection

    check_compression(compression)
    path = os.fspath(path)
    saving._dense_specs(dataset._spec_inside, "distributed_save")
    codec = saving._compression(compression, "distributed_save")
    _, address = parse_service(data_service_address)
    dataset_id = register_dataset(address, dataset, compression).numpy().decode()
    os.makedirs(path, exist_ok=True)
    saving._write_spec(path, dataset._spec_inside)
    connection = Connection(address)
    try:
        connection.request("distributed_save", dataset_id=dataset_id, path=path, compression=codec,
                           run_id=str(random.getrandbits(63)))
    finally:
        connection.close()


def write_stream(elements, path: str, run_id: str, stream: int, spec, compression: str) -> int:
    """A worker's part: its elements into shard `stream` of the run; returns how many it wrote."""
    specs = nest.flatten(spec)
    writer, writers = saving._shard_files(os.path.join(path, run_id), compression)
    count = 0
    try:
        for item in elements:
            if type(item) is ElementError:
                raise item.error
            w = writer(stream)
            for value, s in zip(item, specs):
                w.write(saving.serialize_array(value, s.dtype))
            count += 1
    finally:
        for w in writers.values():
            w.close()
    return count


def finalize(path: str, run_id: str, spec, count: int) -> None:
    """The metadata, written last: until it is there, Dataset.load(path) finds no finalized snapshot."""
    dtypes = [s.dtype for s in nest.flatten(spec)]
    with open(os.path.join(path, saving.METADATA + ".tmp"), "wb") as f:
        f.write(saving.encode_metadata(run_id, dtypes, count, True))
    os.replace(os.path.join(path, saving.METADATA + ".tmp"), os.path.join(path, saving.METADATA))


class SaveRun(threading.Thread):
    """The dispatcher's side of one distributed_save: one request per worker ("save_stream"), in parallel,
    then the metadata. Waits for a worker if none has registered yet."""

    def __init__(self, dispatcher, job_id, path, run_id, spec, compression):
        super().__init__(name="tf.data-distributed-save", daemon=True)
        self._dispatcher, self._job_id = dispatcher, job_id
        self._path, self._run_id, self._spec, self._compression = path, run_id, spec, compression
        self.error = None

    def run(self):
        from .wire import Connection

        try:
            tasks = self._dispatcher._tasks_when_workers(self._job_id)
            if tasks is None:
                return  # the dispatcher stopped first
            counts, errors = [0] * len(tasks), []

            def save(i, task):
                try:
                    connection = Connection(task["address"])
                    try:
                        counts[i] = connection.request("save_stream", task=task, path=self._path,
                                                       run_id=self._run_id, stream=i,
                                                       compression=self._compression)["count"]
                    finally:
                        connection.close()
                except Exception as e:  # noqa: BLE001 - reported below: the snapshot is not finalized
                    errors.append(e)
            threads = [threading.Thread(target=save, args=(i, t), daemon=True) for i, t in enumerate(tasks)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            if errors:
                raise errors[0]
            finalize(self._path, self._run_id, self._spec, sum(counts))
        except Exception as e:  # noqa: BLE001 - kept for the dispatcher to report; the snapshot stays unfinalized
            self.error = e
