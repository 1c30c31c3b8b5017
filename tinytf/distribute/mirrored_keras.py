"""Keras fit / evaluate / predict under MirroredStrategy: each global batch is split over the replicas (as TF
rebatches it, input.split_sizes), every replica runs the model's own step tf.function on its shard in its
thread, and:

- train: the optimizer's apply_gradients inside the step meets the other replicas (MirroredStrategy's merge):
  the gradients are summed, each weighted by the replica's share of the global batch (Keras' loss is the mean
  over the replica's shard, so the weighted sum is the gradient of the mean over the global batch: exactly
  one replica's update on the whole batch, even when the shards are uneven), and applied once;
- metrics: made under the scope, they keep one state per replica (sync_on_read.py); the logs are read in the
  cross-replica context, where each metric's state is the sum of the replicas' states, so the logged loss and
  accuracy are those of one replica on the whole batch;
- predict: the replicas' outputs joined in replica order (= the batch's order).

A replica whose shard is empty (a last batch smaller than the number of replicas) runs no step: in training it
only joins the all-reduce with zero gradients, so the others do not wait for it."""

from __future__ import annotations

import numpy as np

import tinytf as _tf
from tinytf.runtime import nest

from .input import split_sizes


class ReplicatedStep:
    """Called like the trainer's step function (the flat leaves of one global batch)."""

    def __init__(self, strategy, model, kind: str, function):
        self.strategy, self.model, self.kind, self.function = strategy, model, kind, function
        self.key = id(function)
        self.calibration_key = id(model)  # evaluate and predict run as the model's training measured faster
        self.calibrates = kind == "train"

    def __call__(self, *leaves):
        n = self.strategy.num_replicas_in_sync
        arrays = [np.asarray(leaf.numpy() if hasattr(leaf, "numpy") else leaf) for leaf in leaves]
        count = int(np.shape(arrays[0])[0])
        sizes = split_sizes(count, n)
        bounds = np.cumsum([0] + sizes)
        shards = [[_tf.convert_to_tensor(a[bounds[i]:bounds[i + 1]]) for a in arrays] for i in range(n)]
        function = self.function

        def call(i):
            if sizes[i]:
                return lambda: function(*shards[i])
            return self._empty_replica

        scales = [size / count for size in sizes] if self.kind == "train" and count else None
        payloads = [[a[bounds[i]:bounds[i + 1]] for a in arrays] if sizes[i] else None for i in range(n)]
        outputs = self.strategy._run_per_replica([call(i) for i in range(n)], scales, self, payloads)
        ran = [out for out, size in zip(outputs, sizes) if size]
        if self.kind == "predict":
            return nest.map_structure(lambda *parts: _tf.concat(list(parts), axis=0), *ran)
        return self._logs(ran)

    def _replica_call(self, strategy, replica_id, payload):
        """In a replica process: this step on the replica's shard (None: an empty shard)."""
        from .process_replicas import to_numpy

        shard, scale = payload
        call = self._empty_replica if shard is None else (
            lambda: self.function(*[_tf.convert_to_tensor(a) for a in shard]))
        return strategy._run_one(replica_id, lambda: to_numpy(call()), (), {}, scale)

    def _empty_replica(self):
        if self.kind != "train":
            return None
        variables = self.model.trainable_variables
        zeros = [np.zeros(tuple(v.shape), v.dtype.as_numpy_dtype) for v in variables]
        from .mirrored import _ApplyMerge

        _ApplyMerge(self.strategy, self.model.optimizer, variables)(*zeros)  # eager: the merge itself
        return None

    def _logs(self, per_replica: list):
        """The step's logs in the cross-replica context: a metric's entry is its result over every replica's
        state (what Keras reads through SyncOnRead variables); any other entry the replicas' mean."""
        if not per_replica or not isinstance(per_replica[0], dict):
            return per_replica[0] if per_replica else {}
        metrics = {m.name: m for m in self.model._flat_metrics()}
        logs = {}
        for key, value in per_replica[0].items():
            metric = metrics.get(key)
            if metric is not None:
                logs[key] = metric.result()
            elif len(per_replica) > 1 and all(isinstance(r.get(key), _tf.Tensor) for r in per_replica):
                logs[key] = _tf.reduce_mean(_tf.stack([r[key] for r in per_replica]), axis=0)
            else:
                logs[key] = value
        return logs
