"""tf.distribute.Strategy: the API every strategy shares (scope, run, reduce, local results, distributed
datasets), and the default strategy that is current when no scope is entered (one replica, this thread)."""

from __future__ import annotations

import contextlib

import tinytf as _tf

from . import context
from .input import DistributedDataset, InputContext
from .reduce_op import ReduceOp, as_reduce_op
from .values import PerReplica, local_results


class Strategy:
    """Base class. Subclasses set `_num_replicas` and implement `_run_replicas` and, when replicas really
    differ, `_all_reduce` and `_merge_apply` (the gradient all-reduce plus the optimizer update)."""

    _num_replicas = 1
    _merges_updates = False  # True: optimizer.apply_gradients inside run() all-reduces across replicas

    @property
    def num_replicas_in_sync(self) -> int:
        return self._num_replicas

    @property
    def extended(self):
        return self

    @contextlib.contextmanager
    def scope(self):
        """Variables, models and optimizers created inside belong to this strategy."""
        frame = context.current_frame()
        if frame is not None and frame.strategy is not self and not isinstance(frame.strategy, _DefaultStrategy):
            raise ValueError("Mixing different tf.distribute.Strategy objects: entering the scope of "
                             f"{type(self).__name__} inside the scope of {type(frame.strategy).__name__}")
        context.push(self, None)
        try:
            yield self
        finally:
            context.pop()

    # --- per-replica computation ---------------------------------------------------------------------
    def run(self, fn, args=(), kwargs=None, options=None):
        """fn on every replica, each with its own component of the PerReplica arguments; returns the
        results as PerReplica values (the plain result with one replica)."""
        if context.current_replica_context() is not None and context.current_frame().strategy is self \
                and not isinstance(self, _DefaultStrategy):
            raise RuntimeError("strategy.run was called inside strategy.run (a replica context); call it from "
                               "the cross-replica context")
        return self._run_replicas(fn, tuple(args), dict(kwargs or {}))

    def _run_replicas(self, fn, args, kwargs):
        raise NotImplementedError

    def experimental_local_results(self, value) -> tuple:
        """The values on this worker's replicas, as a tuple (one element for a non-distributed value)."""
        return local_results(value)

    def reduce(self, reduce_op, value, axis=None):
        """Combine a per-replica value across replicas (and along `axis` of each, when given): SUM adds,
        MEAN divides by the number of replicas (or, with an axis, by the total length of that axis)."""
        reduce_op = as_reduce_op(reduce_op)
        if not isinstance(value, PerReplica) and self._num_replicas > 1 and reduce_op is ReduceOp.SUM:
            raise ValueError(f"A non-DistributedValues value {value} cannot be reduced with the given reduce op "
                             f"{reduce_op}.")
        parts = [_tf.convert_to_tensor(p) for p in local_results(value)] if isinstance(value, PerReplica) else [
            _tf.convert_to_tensor(value)]
        if axis is None:
            total = _tf.add_n(parts) if len(parts) > 1 else parts[0]
            if reduce_op is ReduceOp.MEAN and len(parts) > 1:
                total = total / _tf.cast(len(parts), total.dtype)
            return total
        sums = [_tf.reduce_sum(p, axis=axis) for p in parts]
        total = _tf.add_n(sums) if len(sums) > 1 else sums[0]
        if reduce_op is ReduceOp.SUM:
            return total
        count = _tf.add_n([_tf.shape(p)[axis] for p in parts]) if len(parts) > 1 else _tf.shape(parts[0])[axis]
        if not total.dtype.is_floating:  # TF divides with truediv: integers give float64
            total = _tf.cast(total, _tf.float64)
        return total / _tf.cast(count, total.dtype)

    # --- data ----------------------------------------------------------------------------------------
    def experimental_distribute_dataset(self, dataset, options=None) -> DistributedDataset:
        """Each global batch of `dataset` split over the replicas (a PerReplica per element)."""
        return DistributedDataset(dataset, self._num_replicas, options)

    def distribute_datasets_from_function(self, dataset_fn, options=None) -> DistributedDataset:
        """dataset_fn(InputContext) builds the per-replica input; here one pipeline serves all replicas."""
        dataset = dataset_fn(InputContext(1, 0, self._num_replicas))
        return DistributedDataset(dataset, self._num_replicas, options, already_per_replica=True)

    # --- cross-replica hooks -------------------------------------------------------------------------
    def _all_reduce(self, replica, reduce_op, value):
        return value

    def _merge_apply(self, replica, optimizer, grads, variables) -> None:
        raise NotImplementedError


class _DefaultStrategy(Strategy):
    """The strategy in force when none is: one replica, code runs as written."""

    def _run_replicas(self, fn, args, kwargs):
        context.push(self, context.ReplicaContext(self, 0))
        try:
            return fn(*args, **kwargs)
        finally:
            context.pop()


_DEFAULT = _DefaultStrategy()
_DEFAULT_REPLICA = context.ReplicaContext(_DEFAULT, 0)


def get_strategy() -> Strategy:
    """The strategy of the innermost scope (or replica), else the default strategy."""
    frame = context.current_frame()
    return frame.strategy if frame is not None else _DEFAULT


def has_strategy() -> bool:
    frame = context.current_frame()
    return frame is not None and not isinstance(frame.strategy, _DefaultStrategy)


def in_cross_replica_context() -> bool:
    frame = context.current_frame()
    return frame is not None and frame.replica is None


def get_replica_context():
    """The ReplicaContext inside strategy.run (and by default); None inside a strategy's scope."""
    frame = context.current_frame()
    if frame is None:
        return _DEFAULT_REPLICA
    return frame.replica


def get_cross_replica_context():
    """The strategy when in the cross-replica context, else None."""
    frame = context.current_frame()
    if frame is None:
        return _DEFAULT
    return frame.strategy if frame.replica is None else None
