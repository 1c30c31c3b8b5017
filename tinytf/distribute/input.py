"""Distributed input: each global batch a dataset yields is split over the replicas, as TF rebatches it:
B = k*N + r gives the first r replicas k+1 elements and the others k (a short last batch may leave some
replicas empty, as in TF when drop_remainder is False)."""

from __future__ import annotations

import enum

import numpy as np

import tinytf as _tf
from tinytf.autograph.ops_builtins import register_override
from tinytf.data.structure import ElementError, pack
from tinytf.runtime import nest
from tinytf.runtime.context import state

from .distributed_loop import split_symbolic
from .values import PerReplica


class InputReplicationMode(enum.Enum):
    PER_WORKER = "PER_WORKER"
    PER_REPLICA = "PER_REPLICA"


class InputOptions:
    """tf.distribute.InputOptions (accepted; prefetching to devices has no meaning on the CPU)."""

    def __init__(self, experimental_fetch_to_device=None, experimental_replication_mode=InputReplicationMode.
                 PER_WORKER, experimental_place_dataset_on_device=False, experimental_per_replica_buffer_size=1):
        self.experimental_fetch_to_device = experimental_fetch_to_device
        self.experimental_replication_mode = experimental_replication_mode
        self.experimental_place_dataset_on_device = experimental_place_dataset_on_device
        self.experimental_per_replica_buffer_size = experimental_per_replica_buffer_size


class InputContext:
    """tf.distribute.InputContext: which input pipeline this is, and the per-replica batch size."""

    def __init__(self, num_input_pipelines=1, input_pipeline_id=0, num_replicas_in_sync=1):
        self.num_input_pipelines = num_input_pipelines
        self.input_pipeline_id = input_pipeline_id
        self.num_replicas_in_sync = num_replicas_in_sync

    def get_per_replica_batch_size(self, global_batch_size: int) -> int:
        if global_batch_size % self.num_replicas_in_sync:
            raise ValueError(f"The `global_batch_size` {global_batch_size} is not divisible by "
                             f"`num_replicas_in_sync` {self.num_replicas_in_sync}")
        return global_batch_size // self.num_replicas_in_sync


def split_sizes(batch: int, num_replicas: int) -> list:
    base, extra = divmod(batch, num_replicas)
    return [base + (1 if i < extra else 0) for i in range(num_replicas)]


def split_batch(element, num_replicas: int) -> list:
    """One global batch (a structure of tensors with a leading batch axis) as num_replicas structures."""
    leaves = nest.flatten(element)
    if not leaves:
        raise ValueError("experimental_distribute_dataset: the dataset's elements are empty structures")
    sizes = {int(np.shape(np.asarray(leaf))[0]) if np.ndim(np.asarray(leaf)) else None for leaf in leaves}
    if None in sizes:
        raise ValueError("experimental_distribute_dataset expects a batched dataset (elements with a leading batch "
                         "dimension); call dataset.batch(global_batch_size) first")
    if len(sizes) > 1:
        raise ValueError(f"experimental_distribute_dataset: the components of an element disagree on the batch "
                         f"size: {sorted(sizes)}")
    bounds = np.cumsum([0] + split_sizes(sizes.pop(), num_replicas))
    return [nest.map_structure(lambda t, a=a, b=b: _tf.convert_to_tensor(t)[a:b], element)
            for a, b in zip(bounds[:-1], bounds[1:])]


class DistributedDataset:
    """tf.distribute.DistributedDataset, what experimental_distribute_dataset and
    distribute_datasets_from_function return: iterating yields, per global batch, a structure whose leaves are
    PerReplica values (plain tensors with one replica); `iter()` gives a DistributedIterator."""

    def __init__(self, dataset, num_replicas: int, options=None, already_per_replica: bool = False,
                 per_worker=None, worker_slice=None):
        if not hasattr(dataset, "__iter__"):
            raise TypeError(f"experimental_distribute_dataset expects a tf.data.Dataset, got {type(dataset).__name__}")
        self._dataset = dataset
        self._num_replicas = num_replicas
        self._options = options
        self._per_replica_input = already_per_replica
        self._per_worker = per_worker  # one pipeline per worker (worker_shards.py), or None: split batches
        self._worker_slice = worker_slice  # (i, N): this process is worker i of N and keeps its slice of each batch

    @property
    def element_spec(self):
        """The dataset's element spec; with several replicas in this process each leaf a PerReplicaSpec of one
        TensorSpec per replica, its batch dimension unknown (as TF's), so it can be a tf.function's
        input_signature."""
        spec = self._dataset.element_spec
        if self._num_replicas == 1 or self._per_worker is not None:
            return spec
        from tinytf.tensor_spec import TensorSpec

        from .values import PerReplica, PerReplicaSpec

        def per_replica(leaf):
            if not isinstance(leaf, TensorSpec):
                return leaf
            shape = leaf.shape.as_list() if leaf.shape.rank is not None else None
            one = TensorSpec(None if shape is None else [None] + shape[1:], leaf.dtype, leaf.name)
            return PerReplicaSpec(PerReplica, [one] * self._num_replicas)

        return nest.map_structure(per_replica, spec)

    def __iter__(self):
        return DistributedIterator(self)

    def _tinytf_graph_loop_source(self, name: str):
        """`for batch in distributed_dataset` inside a tf.function (AutoGraph): one graph loop over the
        dataset whose every global batch is split over the replicas with tensor ops (distributed_loop.py)."""
        from .distributed_loop import loop_source

        return loop_source(self)

    def _data_iterator(self):
        """The dataset's own iterator, which a DistributedIterator reads both eagerly and inside a tf.function
        (where get_next is a graph op, so each call of the function takes the next batch), or None where
        batches come from several pipelines (per worker, per replica) and are read eagerly only."""
        if self._per_worker is not None or self._per_replica_input or not hasattr(self._dataset, "_spec_inside"):
            return None
        return iter(self._dataset)

    def _split(self, element, symbolic: bool):
        """One global batch as this process's replicas see it (PerReplica leaves with several replicas)."""
        split = split_symbolic if symbolic else split_batch
        if self._worker_slice is not None:
            index, num_workers = self._worker_slice
            return split(element, num_workers)[index]
        if self._num_replicas == 1:
            return element
        return nest.map_structure(lambda *p: PerReplica(p), *split(element, self._num_replicas))

    def _elements(self, data_iterator=None):
        if data_iterator is not None:
            for element in data_iterator:
                yield self._split(element, symbolic=False)
            return
        if self._worker_slice is not None:
            index, num_workers = self._worker_slice
            for element in self._dataset:
                yield split_batch(element, num_workers)[index]
            return
        if self._per_worker is not None:
            spec = self._dataset.element_spec
            for items in lockstep(self._per_worker):
                parts = [pack(spec, item) for item in items]
                yield nest.map_structure(lambda *p: PerReplica(p), *parts)
            return
        if self._num_replicas == 1:
            yield from self._dataset
            return
        if self._per_replica_input:
            iterator = iter(self._dataset)
            while True:
                parts = []
                for _ in range(self._num_replicas):
                    try:
                        parts.append(next(iterator))
                    except StopIteration:
                        if parts:
                            raise ValueError("distribute_datasets_from_function: the dataset ended inside a "
                                             "global step (its length is not a multiple of the replicas)") from None
                        return
                yield nest.map_structure(lambda *p: PerReplica(p), *parts)
        for element in self._dataset:
            parts = split_batch(element, self._num_replicas)
            yield nest.map_structure(lambda *p: PerReplica(p), *parts)


class DistributedIterator:
    """tf.distribute.DistributedIterator: `next(it)` / `it.get_next()` give the next global batch split over
    the replicas; at the end next() raises StopIteration and get_next() tf.errors.OutOfRangeError, as in TF;
    get_next_as_optional() gives a tf.experimental.Optional that is empty at the end."""

    def __init__(self, dataset: DistributedDataset):
        self._distributed_dataset = dataset
        self._data_iterator = dataset._data_iterator()
        self._elements = dataset._elements(self._data_iterator)

    @property
    def element_spec(self):
        return self._distributed_dataset.element_spec

    def __iter__(self):
        return self

    def __next__(self):
        if state.graph is not None:
            return self._next_in_graph()
        return next(self._elements)

    def get_next(self):
        if state.graph is not None:
            return self._next_in_graph()
        try:
            return next(self._elements)
        except StopIteration:
            from tinytf.runtime.errors import OutOfRangeError

            raise OutOfRangeError("End of sequence") from None

    def _next_in_graph(self):
        """`next(iterator)` inside a tf.function (TF's `train_step(iterator)` pattern): the next global batch
        taken each time the graph RUNS (taken at trace time, it would be a constant). One dataset: its iterator's
        graph read, split over the replicas with tensor ops. Several pipelines (per worker, per replica): a
        stateful node giving every replica's part of every leaf. At the end, OutOfRangeError, as TF's."""
        if self._data_iterator is not None:
            return self._distributed_dataset._split(self._data_iterator.get_next(), symbolic=True)
        from tinytf.runtime.ops.py_function import py_function

        from .values import PerReplica

        dataset = self._distributed_dataset
        spec = dataset._dataset.element_spec
        leaves = nest.flatten(spec)
        parts = 1 if dataset._num_replicas == 1 or dataset._worker_slice is not None else dataset._num_replicas
        elements = self._elements

        def take():
            try:
                element = next(elements)
            except StopIteration:
                from tinytf.runtime.errors import OutOfRangeError

                raise OutOfRangeError("End of sequence") from None
            flat = []
            for value in nest.flatten(element):
                flat += list(value.values) if isinstance(value, PerReplica) else [value]
            return flat

        produced = py_function(take, [], Tout=[leaf.dtype for leaf in leaves for _ in range(parts)])
        packed = []
        for k, leaf in enumerate(leaves):
            shape = leaf.shape.as_list() if leaf.shape.rank is not None else None
            components = produced[k * parts:(k + 1) * parts]
            for tensor in components:  # the batch dimension of a replica's part is not known
                tensor.set_shape(None if shape is None else [None] + shape[1:] if parts > 1 else shape)
            packed.append(components[0] if parts == 1 else PerReplica(components))
        return nest.pack_sequence_as(spec, packed)

    def get_next_as_optional(self):
        from tinytf.data.iterator import Optional

        if state.graph is not None:
            if self._data_iterator is None:
                raise NotImplementedError("tinytf reads this distributed iterator (per-worker or per-replica "
                                          "input) as an Optional eagerly only: use get_next inside the tf.function")
            inner = self._data_iterator.get_next_as_optional()
            value = self._distributed_dataset._split(inner._value, symbolic=True)
            return Optional(value, self.element_spec, inner.has_value())
        try:
            value = next(self._elements)
        except StopIteration:
            return Optional.empty(self.element_spec)
        return Optional(value, self.element_spec, _tf.constant(True))


def lockstep(datasets: list):
    """Per step, one batch from each worker's pipeline (flat numpy leaves per worker), until every pipeline
    has ended; an ended one (or a worker with no share of the batch) contributes an empty batch."""
    iterators = [None if ds is None else ds._flat_iter() for ds in datasets]
    while True:
        items = [None if it is None else next(it, None) for it in iterators]
        if all(item is None for item in items):
            return
        for item in items:
            if type(item) is ElementError:
                raise item.error
        template = next(item for item in items if item is not None)
        yield [item if item is not None else tuple(np.zeros((0,) + np.shape(leaf)[1:], np.asarray(leaf).dtype)
                                                   for leaf in template) for item in items]


def _enumerate_not_implemented(distributed, start=0):
    # TF registers this for its distributed datasets and iterators: a tf.function keeps its own counter instead
    raise NotImplementedError(f"enumerate not supported with {type(distributed).__name__} types within "
                              "tf.functions. Use a for loop over the dataset and keep a separate counter instead.")


register_override("enumerate", DistributedDataset, _enumerate_not_implemented)
register_override("enumerate", DistributedIterator, _enumerate_not_implemented)
