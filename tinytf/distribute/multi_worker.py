"""tf.distribute.MultiWorkerMirroredStrategy: synchronous data-parallel training over worker processes, each
running the same program, each with its TF_CONFIG (or a ClusterResolver) naming the cluster and itself.

- Without a cluster (no TF_CONFIG), or with a cluster of one worker, it is one worker with one replica, and
  trains exactly as the same program without a strategy (as TF on a CPU).
- With N workers (the "chief" task, if any, is worker 0, then the "worker" tasks in order) each process is one
  replica: `num_replicas_in_sync` is N, `strategy.run` runs the step on this worker's batch, the gradients
  of optimizer.apply_gradients are summed over the workers (socket_collective.py: TCP through the chief) and
  every worker applies the same update to its own variables, `strategy.reduce` combines the workers' values,
  and `experimental_distribute_dataset` gives each worker its part of every global batch (the dataset's
  auto-shard policy, as RayStrategy applies it: DATA by slicing each global batch, FILE / HINT / OFF by
  sharding the pipeline, worker_shards.py).

Keras fit / evaluate / predict with several workers: multi_worker_keras.py (sharded by the dataset's policy;
predict always slices the global batches). Not done: a FILE / HINT / OFF worker (custom loop or fit) whose
stream ends before the others' is not given empty batches (the others then wait at the next
all-reduce until the timeout): use `drop_remainder=True` and equal shards."""

from __future__ import annotations

import weakref

import numpy as np

import tinytf as _tf
from tinytf.runtime import nest
from tinytf.runtime.ops.collective import merge_call

from . import context
from .cluster_resolver import TFConfigClusterResolver
from .input import DistributedDataset, InputContext
from .reduce_op import ReduceOp, as_reduce_op
from .strategy import Strategy


class CommunicationImplementation:
    """tf.distribute.experimental.CommunicationImplementation: AUTO, RING, NCCL (tinytf's workers always
    meet through the chief over TCP: every value is accepted, none changes the sums)."""


for _name in ("AUTO", "RING", "NCCL"):
    setattr(CommunicationImplementation, _name, f"CommunicationImplementation.{_name}")


class CommunicationOptions:
    """tf.distribute.experimental.CommunicationOptions(bytes_per_pack=0, timeout_seconds=None,
    implementation=AUTO). As in TF, the public class only constructs: the object made is an `Options` (so
    `isinstance(options, CommunicationOptions)` is False there too, and CollectiveHints makes the same kind)."""

    def __new__(cls, *args, **kwargs):
        return Options(*args, **kwargs)


class Options:
    """The communication options that MultiWorkerMirroredStrategy reads (TF's collective_util.Options)."""

    def __init__(self, bytes_per_pack=0, timeout_seconds=None, implementation=CommunicationImplementation.AUTO):
        if bytes_per_pack < 0:
            raise ValueError(f"Argument `bytes_per_pack` must be >=0, Received {bytes_per_pack}.")
        self.bytes_per_pack = bytes_per_pack
        self.timeout_seconds = timeout_seconds
        self.implementation = implementation

    def __repr__(self):
        return (f"Options(bytes_per_pack={self.bytes_per_pack},timeout_seconds={self.timeout_seconds}, "
                f"implementation={self.implementation})")


_latest = None  # the last strategy of several workers made in this process (PreemptionCheckpointHandler's)


def latest_multi_worker_strategy():
    strategy = _latest() if _latest is not None else None
    return strategy if strategy is not None and strategy._collective is not None else None


def worker_tasks(cluster_spec) -> list:
    """The workers of a cluster in TF's order: the chief first, then the "worker" tasks by index."""
    tasks = []
    jobs = cluster_spec.jobs
    for job in ("chief", "worker"):
        if job in jobs:
            tasks += [(job, i) for i in sorted(cluster_spec.task_indices(job))]
    return tasks


class MultiWorkerMirroredStrategy(Strategy):
    """MultiWorkerMirroredStrategy(cluster_resolver=None, communication_options=None): see the module."""

    _extended_class = "CollectiveAllReduceExtended"

    @property
    def _merges_updates(self) -> bool:  # one worker: apply_gradients updates as without a strategy
        return self._num_replicas > 1

    def __init__(self, cluster_resolver=None, communication_options=None):
        self._cluster_resolver = cluster_resolver if cluster_resolver is not None else TFConfigClusterResolver()
        self._communication_options = communication_options or Options()
        spec = self._cluster_resolver.cluster_spec()
        tasks = worker_tasks(spec) if spec else []
        self._task = (self._cluster_resolver.task_type, self._cluster_resolver.task_id)
        if spec and "ps" in spec.jobs:
            raise ValueError("MultiWorkerMirroredStrategy: the cluster has a \"ps\" job; parameter servers are "
                             "ParameterServerStrategy's")
        if tasks and self._task not in tasks:
            raise ValueError(f"MultiWorkerMirroredStrategy: this task {self._task} is not a worker of the cluster "
                             f"{spec} (TF_CONFIG's \"task\" must name its chief or one of its workers)")
        self._tasks = tasks
        self._num_replicas = max(1, len(tasks))
        self._worker_index = tasks.index(self._task) if tasks else 0
        self._collective = None
        if self._num_replicas > 1:  # as TF's workers, wait here until every worker is up
            from .socket_collective import CONNECT_TIMEOUT_SECONDS, SocketCollective

            timeout = self._communication_options.timeout_seconds or CONNECT_TIMEOUT_SECONDS
            addresses = [spec.task_address(job, i) for job, i in tasks]
            self._collective = SocketCollective(addresses, self._worker_index, timeout)
            global _latest
            _latest = weakref.ref(self)

    @property
    def cluster_resolver(self):
        return self._cluster_resolver

    @property
    def _collective_across_workers(self):
        """The workers' all-reduce when there are several (metric state made under the scope is summed over
        the workers when read, worker_sync_on_read.py), else None."""
        return self._collective

    def _worker_devices(self) -> tuple:
        if not self._tasks:
            return ("/job:localhost/replica:0/task:0/device:CPU:0",)
        job, index = self._task
        return (f"/job:{job}/replica:0/task:{index}/device:CPU:0",)

    def _is_chief(self) -> bool:
        """The "chief" task, or worker 0 of a cluster without one (TF's multi_worker_util.is_chief)."""
        return self._worker_index == 0

    def shutdown(self) -> None:
        """Close the connections to the other workers (tinytf-specific; the process ending closes them too)."""
        if self._collective is not None:
            self._collective.close()

    # --- replica computation: this worker's one replica ----------------------------------------------------
    def _run_replicas(self, fn, args, kwargs):
        replica = context.ReplicaContext(self, self._worker_index)
        context.push(self, replica)
        try:
            return fn(*args, **kwargs)
        finally:
            context.pop()

    def _all_reduce(self, replica, reduce_op, value):
        if self._num_replicas == 1:
            return value
        from .mirrored import _AllReduce

        reduced = merge_call(_AllReduce(self, as_reduce_op(reduce_op)), nest.flatten(value))
        return nest.pack_sequence_as(value, reduced)

    def _merge_apply(self, replica, optimizer, grads, variables) -> None:
        from tinytf.runtime.context import state

        from .mirrored import _ApplyMerge

        merge_call(_ApplyMerge(self, optimizer, variables, compiled=state.graph is not None), grads)

    def experimental_local_results(self, value) -> tuple:
        return (value,)

    def reduce(self, reduce_op, value, axis=None):
        """This worker's value combined with the other workers' (all of them must call reduce alike): SUM
        adds, MEAN divides by the workers (with an axis: by the total length of that axis)."""
        reduce_op = as_reduce_op(reduce_op)
        if self._num_replicas == 1:
            return super().reduce(reduce_op, value, axis)
        tensor = _tf.convert_to_tensor(value)
        local = tensor if axis is None else _tf.reduce_sum(tensor, axis=axis)
        count = _tf.constant(1 if axis is None else int(tensor.shape[axis]), _tf.int64) if axis is None or \
            tensor.shape[axis] is not None else _tf.cast(_tf.shape(tensor)[axis], _tf.int64)
        total, total_count = merge_call(_WorkerSum(self), [local, count])
        if reduce_op is ReduceOp.SUM:
            return total
        if axis is not None and not total.dtype.is_floating:  # TF divides with truediv: integers give float64
            total = _tf.cast(total, _tf.float64)
        if not total.dtype.is_floating:
            return total // _tf.cast(total_count, total.dtype)
        return total / _tf.cast(total_count, total.dtype)

    # --- data: this worker's part of every global batch ------------------------------------------------------
    def experimental_distribute_dataset(self, dataset, options=None) -> DistributedDataset:
        if self._num_replicas == 1:
            return DistributedDataset(dataset, 1, options)
        from .worker_shards import per_worker_datasets

        pipelines = per_worker_datasets(dataset, self._num_replicas)
        if pipelines is None:  # DATA: every worker reads the whole pipeline and keeps its slice of each batch
            return DistributedDataset(dataset, 1, options, worker_slice=(self._worker_index, self._num_replicas))
        mine = pipelines[self._worker_index]
        if mine is None:
            raise ValueError(f"MultiWorkerMirroredStrategy: the global batch is smaller than the {self._num_replicas}"
                             f" workers, so worker {self._worker_index} has no share of it")
        return DistributedDataset(mine, 1, options)

    def distribute_datasets_from_function(self, dataset_fn, options=None) -> DistributedDataset:
        """dataset_fn(InputContext) gives this worker's pipeline (input_pipeline_id = the worker's index)."""
        dataset = dataset_fn(InputContext(self._num_replicas, self._worker_index, self._num_replicas))
        return DistributedDataset(dataset, 1, options)

    def _keras_step(self, model, kind, function):
        """fit/evaluate/predict's step with several workers: this worker's slice of each global batch, see
        multi_worker_keras.py (the trainer asks for it only when there are several replicas)."""
        from .multi_worker_keras import WorkerStep

        return WorkerStep(self, model, kind, function)

    def _keras_worker_input(self, x):
        """fit / evaluate's input on this worker: its own pipeline for a dataset sharded by FILE, HINT or OFF
        (worker_shards.py), else x itself (every worker slices the global batches)."""
        from tinytf.data.dataset import DatasetV2

        if not isinstance(x, DatasetV2):
            return x, False
        from .worker_shards import per_worker_datasets

        pipelines = per_worker_datasets(x, self._num_replicas)
        if pipelines is None:
            return x, False
        return pipelines[self._worker_index], True

    def _keras_metrics_result(self, model) -> dict:
        """The model's metric results over every worker's state (fit's epoch logs, evaluate's result)."""
        if self._num_replicas == 1:
            return model.get_metrics_result()
        from .multi_worker_keras import global_metric_results

        return global_metric_results(self, model)


class _WorkerSum:
    """merge_call's callback: the values summed over the workers."""

    def __init__(self, strategy):
        self.strategy = strategy

    def __call__(self, *arrays):
        return self.strategy._collective.sum(self.strategy._worker_index, [np.asarray(a) for a in arrays])
