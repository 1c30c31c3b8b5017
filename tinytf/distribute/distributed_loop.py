"""`for x in strategy.experimental_distribute_dataset(ds)` inside a tf.function (TF's "iterate inside a
tf.function" pattern): AutoGraph makes it one graph loop over the global batches, and each batch is split
over the replicas with tensor ops, as input.split_batch splits it eagerly (B = k*N + r: the first r replicas
get k + 1 rows), so the loop body's strategy.run gets PerReplica values of graph tensors."""

from __future__ import annotations

import tinytf as _tf
from tinytf.runtime import nest

from .values import PerReplica


def split_symbolic(element, num_replicas: int) -> list:
    """One global batch (graph tensors with a leading batch axis) as num_replicas structures."""
    leaves = nest.flatten(element)
    size = _tf.shape(leaves[0], out_type=_tf.int32)[0]
    base, extra = size // num_replicas, size % num_replicas
    parts = []
    for i in range(num_replicas):
        start = i * base + _tf.minimum(i, extra)
        length = base + _tf.cast(i < extra, _tf.int32)
        parts.append(nest.map_structure(lambda t, a=start, n=length: t[a:a + n], element))
    return parts


class _SplitSource:
    """AutoGraph's loop source: the dataset's own, with each element split over the replicas."""

    def __init__(self, inner, num_replicas: int, worker_index=None):
        self._inner, self._num_replicas, self._worker_index = inner, num_replicas, worker_index

    def __getattr__(self, name):
        return getattr(self._inner, name)

    def item(self, hidden, index):
        element = self._inner.item(hidden, index)
        parts = split_symbolic(element, self._num_replicas)
        if self._worker_index is not None:  # a worker of MultiWorkerMirroredStrategy keeps its slice
            return parts[self._worker_index]
        return nest.map_structure(lambda *p: PerReplica(p), *parts)


def loop_source(distributed):
    from tinytf.data.graph_loop import dataset_loop_source

    dataset = distributed._dataset
    if distributed._per_worker is not None or distributed._per_replica_input:
        return None  # per-worker pipelines and per-replica input are read eagerly (a Python loop)
    inner = dataset_loop_source(dataset) if hasattr(dataset, "_spec_inside") else None
    if inner is None:
        return None
    if distributed._worker_slice is not None:
        index, num_workers = distributed._worker_slice
        return _SplitSource(inner, num_workers, index)
    if distributed._num_replicas == 1:
        return inner
    return _SplitSource(inner, distributed._num_replicas)
