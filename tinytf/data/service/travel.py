"""How a dataset travels from the client to the tf.data service's workers, and how a worker shards it.

A tinytf dataset is a Python recipe (tinytf/data/*), so it travels as a pickle: sources built from tensors,
ranges, files and lists pickle as they are, and a stage holding a traced function (map, filter, flat_map,
interleave, ...) pickles the user's Python function and traces it again where it is unpickled
(_DatasetPickler). What cannot travel: lambdas and nested functions (pickle names a function by its
module and qualified name), from_generator's generators, functions that read a tf.function's graph tensors,
and anything else pickle refuses. Such a dataset is still served by the workers of this process (the servers
are threads): it is kept in a process-wide table, and only a worker of another process fails, naming why."""

from __future__ import annotations

import io
import itertools
import pickle
import threading

from tinytf.runtime.errors import FailedPreconditionError, InvalidArgumentError, NotFoundError

from ..dataset import DatasetV2

_IN_PROCESS: dict = {}  # token -> dataset that pickle refused (served by this process's workers)
_TOKENS = itertools.count()
_LOCK = threading.Lock()


class _DatasetPickler(pickle.Pickler):
    """Pickles a traced function as the user's function and its element structure, traced again when unpickled
    (copying a dataset keeps its traced graphs: only this pickler re-traces)."""

    def reducer_override(self, obj):
        from ..functions import TracedDatasetFunction, TracedFunction

        if type(obj) is TracedFunction:
            _check_travels(obj.lifted, obj.what)
            return TracedFunction, (obj.user_function, obj._structures, obj.what, obj._unpack_last)
        if type(obj) is TracedDatasetFunction:
            _check_travels(obj.lifted, obj._pickled_as[2])
            return TracedDatasetFunction, obj._pickled_as
        return NotImplemented


def _check_travels(lifted, what: str) -> None:
    if lifted:
        raise pickle.PicklingError(f"the {what} function reads tensors of the tf.function that built the dataset; "
                                   "it cannot be pickled (their values exist only in that graph's run)")


def dumps(dataset) -> bytes:
    buffer = io.BytesIO()
    _DatasetPickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(dataset)
    return buffer.getvalue()


def pack(dataset) -> dict:
    """The dataset as a message: its pickle, or a token naming it in this process and why pickle refused."""
    try:
        return {"pickle": dumps(dataset)}
    except Exception as e:  # noqa: BLE001 - any refusal means: keep it in this process
        with _LOCK:
            token = next(_TOKENS)
            _IN_PROCESS[token] = dataset
        return {"in_process": token, "why": f"{type(e).__name__}: {e}"}


def unpack(payload: dict):
    if "pickle" in payload:
        return pickle.loads(payload["pickle"])
    dataset = _IN_PROCESS.get(payload["in_process"])
    if dataset is None:
        raise FailedPreconditionError(
            "tf.data service: this worker runs in another process than the client that registered the dataset, "
            f"and the dataset cannot travel there (it does not pickle: {payload['why']}). Build it from "
            "module-level functions (not lambdas or closures) and tensors, ranges or files.")
    return dataset


# --- sharding a worker's copy of the pipeline (ShardingPolicy) -----------------------------------------------
def source_chain(dataset) -> list:
    """The stages from `dataset` down to its one source, for DYNAMIC sharding (which splits that source)."""
    chain = [dataset]
    while chain[-1]._inputs:
        if len(chain[-1]._inputs) != 1:
            raise InvalidArgumentError(
                f"tf.data service: DYNAMIC sharding (distributed_epoch) splits the dataset's one source, but "
                f"{chain[-1]!r} reads {len(chain[-1]._inputs)} datasets; use parallel_epochs (ShardingPolicy.OFF)")
        chain.append(chain[-1]._inputs[0])
    return chain


def with_source(dataset, source):
    """`dataset`'s pipeline over `source` instead of its own source (the stages above copied)."""
    from tinytf.distribute.worker_shards import _rewrite

    original = source_chain(dataset)[-1]
    if dataset is original:
        return source
    rebuilt = _rewrite(dataset, lambda ds: source if ds is original else None)
    if rebuilt is dataset:  # a stage that is not a plain transformation of one input
        raise InvalidArgumentError(f"tf.data service: DYNAMIC sharding cannot split the source of {dataset!r}; "
                                   "use parallel_epochs (ShardingPolicy.OFF)")
    return rebuilt


class SplitSource(DatasetV2):
    """A DYNAMIC worker's source: the elements of the original source that the dispatcher hands this worker,
    a few splits per request (`next_splits()`: a list, empty at the end), first come first served."""

    _tf_name = "_DataServiceSplitSource"

    def __init__(self, spec, next_splits):
        super().__init__(spec)
        self._next_splits = next_splits

    def _flat_iter(self):
        while True:
            splits = self._next_splits()
            if not splits:
                return
            yield from splits


def statically_sharded(dataset, policy, num_workers: int, index: int, where: str):
    """Worker `index` of `num_workers`'s share of `dataset` under FILE, DATA, FILE_OR_DATA or HINT."""
    from tinytf.distribute.worker_shards import _file_shard, _hint_shard, _rewrite

    from .policies import ShardingPolicy

    if policy in (ShardingPolicy.FILE, ShardingPolicy.FILE_OR_DATA):
        sharded = _rewrite(dataset, lambda ds: _file_shard(ds, num_workers, index, check=True))
        if sharded is not dataset:
            return sharded
        if policy is ShardingPolicy.FILE:
            raise NotFoundError(f"Failed to shard dataset in tf.data service: Found an unshardable source dataset: "
                                f"{where} reads no files, but the sharding policy is FILE; use DATA or FILE_OR_DATA")
        return dataset.shard(num_workers, index)
    if policy is ShardingPolicy.DATA:
        return dataset.shard(num_workers, index)
    return _rewrite(dataset, lambda ds: _hint_shard(ds, num_workers, index))  # HINT
