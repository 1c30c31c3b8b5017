"""Auto-sharding of a dataset over the workers of a multi-worker strategy (RayStrategy), by the dataset's
`options().experimental_distribute.auto_shard_policy`, as TF's multi-worker strategies do it:

- FILE: each worker reads its own files: the filenames feeding the first file reader are sharded (worker i
  of N takes files i, i+N, ...), which is `shard(N, i)` inserted before the reader's inputs, as TF's
  AutoShardDataset does. Fewer files than workers, or no file reader at all, is TF's error.
- AUTO: FILE when a file reader is found, DATA otherwise.
- DATA: each global batch is split over the workers (worker i gets the i-th slice), which is what DATA
  sharding of a batched dataset amounts to; the driver reads the data once and splits it.
- HINT: every `shard(SHARD_HINT, SHARD_HINT)` in the pipeline becomes `shard(N, i)`.
- OFF: every worker reads the whole dataset.

With FILE, HINT and OFF each worker runs its own copy of the pipeline, and its batches of the global size
are rebatched to its share of the global batch (TF's rebatching); the workers' streams are read in
lockstep, one batch each per step, and a worker whose stream ended gets empty batches until all have."""

from __future__ import annotations

import copy

from tinytf.data.autoshard import SHARD_HINT, AutoShardPolicy
from tinytf.data.batching import BatchDataset
from tinytf.data.readers import FileReaderDataset
from tinytf.data.transforms import FlatMapDataset, ShardDataset, UnaryDataset
from tinytf.runtime import dtypes
from tinytf.runtime.errors import InvalidArgumentError, NotFoundError

from .input import split_sizes


def policy_of(dataset) -> AutoShardPolicy:
    policy = dataset.options().experimental_distribute.auto_shard_policy
    return AutoShardPolicy.AUTO if policy is None else AutoShardPolicy(policy)


def per_worker_datasets(dataset, num_workers: int):
    """The N per-worker pipelines for FILE, HINT and OFF (and AUTO that finds files), each giving its
    worker's share of every global batch; None when the driver should split batches itself (DATA)."""
    pipelines = sharded_pipelines(dataset, num_workers)
    if pipelines is None:
        return None
    sizes = split_sizes(_global_batch_size(dataset), num_workers)
    return [pipeline.rebatch(size) if size else None for pipeline, size in zip(pipelines, sizes)]


def sharded_pipelines(dataset, num_workers: int):
    """Each worker's copy of the pipeline, sharded by the policy (TF's AutoShardDataset, before the
    per-replica rebatch); None for DATA, and for AUTO when no file reader is found."""
    policy = policy_of(dataset)
    if num_workers == 1 or policy is AutoShardPolicy.DATA:
        return None
    if policy is AutoShardPolicy.AUTO:
        if _rewrite(dataset, lambda ds: _file_shard(ds, 2, 0, check=False)) is dataset:
            return None  # no file reader: AUTO falls back to DATA
        policy = AutoShardPolicy.FILE
    if policy is AutoShardPolicy.OFF:
        return [dataset] * num_workers
    pipelines = []
    for index in range(num_workers):
        if policy is AutoShardPolicy.FILE:
            sharded = _rewrite(dataset, lambda ds, i=index: _file_shard(ds, num_workers, i, check=True))
            if sharded is dataset:
                raise NotFoundError(f"Found an unshardable source dataset: {dataset!r} reads no files, but its "
                                    "auto_shard_policy is FILE; use AutoShardPolicy.DATA (or AUTO)")
        else:  # HINT
            sharded = _rewrite(dataset, lambda ds, i=index: _hint_shard(ds, num_workers, i))
        pipelines.append(sharded)
    return pipelines


def _rewrite(dataset, replace):
    """`dataset` with the first node (from the top) that `replace` changes replaced, the nodes above it
    copied onto the new input; the same object when `replace` changes nothing."""
    replaced = replace(dataset)
    if replaced is not None:
        return replaced
    if not isinstance(dataset, UnaryDataset):
        return dataset
    new_input = _rewrite(dataset._input, replace)
    if new_input is dataset._input:
        return dataset
    rebuilt = copy.copy(dataset)
    rebuilt._input = new_input
    rebuilt._inputs = (new_input,) + tuple(dataset._inputs[1:])
    return rebuilt


def _file_shard(ds, num_workers: int, index: int, check: bool):
    if isinstance(ds, FileReaderDataset) and ds._files is not None:
        if check and len(ds._files) < num_workers:
            raise InvalidArgumentError(f"Number of files ({len(ds._files)}) is less than the number of workers "
                                       f"({num_workers}): FILE auto-sharding gives every worker at least one file")
        reader = copy.copy(ds)
        reader._files = list(ds._files)[index::num_workers]
        return reader
    spec = getattr(ds._input, "element_spec", None) if isinstance(ds, FlatMapDataset) else None
    if spec is not None and getattr(spec, "dtype", None) == dtypes.string and spec.shape.rank == 0:
        count = ds._input._cardinality()  # flat_map/interleave over filenames: the reader is made per file
        if check and 0 <= count < num_workers:
            raise InvalidArgumentError(f"Number of files ({count}) is less than the number of workers "
                                       f"({num_workers}): FILE auto-sharding gives every worker at least one file")
        rebuilt = copy.copy(ds)
        rebuilt._input = ShardDataset(ds._input, num_workers, index)
        rebuilt._inputs = (rebuilt._input,)
        return rebuilt
    return None


def _hint_shard(ds, num_workers: int, index: int):
    if isinstance(ds, ShardDataset) and ds._n == SHARD_HINT:
        inner = _rewrite(ds._input, lambda d: _hint_shard(d, num_workers, index))
        return ShardDataset(inner, num_workers, index)
    return None


def _global_batch_size(dataset) -> int:
    node = dataset
    while isinstance(node, UnaryDataset):
        if isinstance(node, BatchDataset):
            return node._size
        node = node._input
    raise ValueError("experimental_distribute_dataset expects a batched dataset (elements with a leading batch "
                     "dimension); call dataset.batch(global_batch_size) first")
