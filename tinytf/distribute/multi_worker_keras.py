"""Keras fit / evaluate / predict under MultiWorkerMirroredStrategy with several workers (processes, each
running the same program). With the dataset's DATA sharding (and for arrays) every worker reads the same
global batches and keeps its slice of each, split as TF rebatches it (input.split_sizes); with FILE, HINT or
OFF each worker reads its own pipeline (worker_shards.py), whose batches are its share. Each worker runs the
model's own step tf.function on its part, as one replica:

- train: the step's optimizer.apply_gradients meets the other workers (MultiWorkerMirroredStrategy's merge):
  each worker's gradients, weighted by its share of the global batch (Keras' loss is the mean over the
  worker's slice, so the weighted sum is the gradient of the mean over the global batch), are summed over the
  workers through the chief, and every worker applies the same update to its own copy of the variables; a
  worker whose slice is empty (a last batch smaller than the number of workers) adds zero gradients;
- metrics: each worker updates its own metric state; the logs are the metrics' results on the state summed
  over the workers (TF reads Keras' on-read metric variables in the cross-replica context, which sums every
  replica's), so every worker logs the loss and accuracy of the whole global batch;
- predict: the workers' outputs gathered in worker order (= the batch's order), on every worker."""

from __future__ import annotations

import numpy as np

import tinytf as _tf
from tinytf.runtime import nest

from . import context
from .input import split_sizes


class WorkerStep:
    """Called like the trainer's step function, with the flat leaves of one global batch."""

    def __init__(self, strategy, model, kind: str, function, sliced=True):
        self.strategy, self.model, self.kind, self.function = strategy, model, kind, function
        self.sliced = sliced  # False: the batches are this worker's own (a FILE / HINT / OFF pipeline)

    def own_batches(self):
        """The same step for batches that are already this worker's share of the global batch."""
        return WorkerStep(self.strategy, self.model, self.kind, self.function, sliced=False)

    def _sizes(self, count: int) -> list:
        """Each worker's rows of this global batch: the slices, or each worker's own batch's rows (one small
        all-reduce: worker i's count at position i)."""
        n, index = self.strategy.num_replicas_in_sync, self.strategy._worker_index
        if self.sliced:
            return split_sizes(count, n)
        mine = np.zeros(n, np.int64)
        mine[index] = count
        return [int(c) for c in self.strategy._collective.sum(index, [mine])[0]]

    def __call__(self, *leaves):
        strategy = self.strategy
        arrays = [np.asarray(leaf.numpy() if hasattr(leaf, "numpy") else leaf) for leaf in leaves]
        index = strategy._worker_index
        sizes = self._sizes(int(np.shape(arrays[0])[0]))
        count = sum(sizes)
        start = sum(sizes[:index]) if self.sliced else 0  # an own batch is all this worker's
        mine = [_tf.convert_to_tensor(a[start:start + sizes[index]]) for a in arrays]
        replica = context.ReplicaContext(strategy, index)
        replica.gradient_scale = sizes[index] / count if count else 0.0
        context.push(strategy, replica)
        try:
            if self.kind == "predict":  # an empty slice runs too: its zero rows give the outputs' shapes
                return self._gathered(self.function(*mine), sizes, index)
            if sizes[index]:
                self.function(*mine)
            elif self.kind == "train":
                self._join_with_zero_gradients()
        finally:
            context.pop()
        return global_metric_results(strategy, self.model)

    def _join_with_zero_gradients(self):
        from .mirrored import _ApplyMerge

        variables = self.model.trainable_variables
        zeros = [np.zeros(tuple(v.shape), v.dtype.as_numpy_dtype) for v in variables]
        _ApplyMerge(self.strategy, self.model.optimizer, variables)(*zeros)

    def _gathered(self, outputs, sizes, index):
        """The workers' outputs joined along the batch: each worker places its rows in a zero array of the
        global batch, and the sum over the workers (exact: the other workers add zeros) is the concatenation."""
        flat = [np.asarray(t.numpy() if hasattr(t, "numpy") else t) for t in nest.flatten(outputs)]
        start = sum(sizes[:index])
        placed = []
        for array in flat:
            full = np.zeros((sum(sizes),) + array.shape[1:], array.dtype)
            full[start:start + array.shape[0]] = array
            placed.append(full)
        summed = self.strategy._collective.sum(index, placed)
        return nest.pack_sequence_as(outputs, [_tf.convert_to_tensor(a) for a in summed])


def global_metric_results(strategy, model) -> dict:
    """model.get_metrics_result() read outside the replica: metric state made under the scope is summed over
    the workers as it is read (worker_sync_on_read.py); every worker calls this at the same point of fit."""
    return {k: _tf.convert_to_tensor(v.numpy() if hasattr(v, "numpy") else v)
            for k, v in model.get_metrics_result().items()}
