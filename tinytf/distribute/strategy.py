"""tf.distribute.Strategy: the API every strategy shares (scope, run, reduce, local results, distributed
datasets), and the default strategy that is current when no scope is entered (one replica, this thread)."""

from __future__ import annotations

import contextlib
import weakref

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
    _extended_class = "StrategyExtended"  # the class of strategy.extended (extended.py), by TF's name

    @property
    def num_replicas_in_sync(self) -> int:
        return self._num_replicas

    @property
    def extended(self):
        """tf.distribute.StrategyExtended: devices, reductions to destinations, variable updates."""
        extended = self.__dict__.get("_extended")
        if extended is None:
            from . import extended as module

            extended = self._extended = getattr(module, self._extended_class)(self)
        return extended

    @property
    def cluster_resolver(self):
        """The ClusterResolver of a multi-worker strategy; None for the strategies of one worker."""
        return None

    def _worker_devices(self) -> tuple:
        return ("/job:localhost/replica:0/task:0/device:CPU:0",)

    def _is_chief(self) -> bool:
        return True

    def _created_in_scope(self, variable) -> bool:
        made = self.__dict__.get("_scope_variables")
        return (made is not None and made.get(id(variable)) is variable) or getattr(variable, "_strategy", None) is self

    @contextlib.contextmanager
    def scope(self):
        """Variables, models and optimizers created inside belong to this strategy."""
        frame = context.current_frame()
        if frame is not None and frame.strategy is not self and not isinstance(frame.strategy, _DefaultStrategy):
            raise ValueError("Mixing different tf.distribute.Strategy objects: entering the scope of "
                             f"{type(self).__name__} inside the scope of {type(frame.strategy).__name__}")
        from tinytf.runtime.context import state

        hook = self._remember_variable  # extended.variable_created_in_scope asks for the variables made here
        state.variable_hooks.append(hook)
        context.push(self, None)
        try:
            yield self
        finally:
            context.pop()
            state.variable_hooks.remove(hook)

    def _remember_variable(self, variable) -> None:
        frame = context.current_frame()
        if frame is None or frame.strategy is not self:
            return
        made = self.__dict__.get("_scope_variables")
        if made is None:  # by id: variables are unhashable, as in TF
            made = self._scope_variables = weakref.WeakValueDictionary()
        made[id(variable)] = variable

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
            if len(parts) > 1:  # the strategy's cross-device algorithm adds the components (cross_device_ops.py)
                total = self.extended._cross_device_ops()._accumulate(parts)
            else:
                total = parts[0]
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

    def gather(self, value, axis):
        """The replicas' components of `value` concatenated along `axis` (TF's strategy.gather)."""
        parts = [_tf.convert_to_tensor(p) for p in local_results(value)]
        return parts[0] if len(parts) == 1 else _tf.concat(parts, axis=axis)

    def experimental_distribute_values_from_function(self, value_fn):
        """value_fn(tf.distribute.experimental.ValueContext) per replica, as a PerReplica value."""
        from .values import ValueContext

        values = [value_fn(ValueContext(i, self._num_replicas)) for i in range(self._num_replicas)]
        return values[0] if self._num_replicas == 1 else PerReplica(values)

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

    _is_default = True  # extended.colocate_vars_with accepts any variable (TF's default extended)

    def reduce(self, reduce_op, value, axis=None):
        """As TF's default strategy: without an axis the value comes back as it is (a Python number too)."""
        if axis is None and not isinstance(value, PerReplica):
            as_reduce_op(reduce_op)  # still checked: "MAX" is no ReduceOp
            return value
        return super().reduce(reduce_op, value, axis)

    def _run_replicas(self, fn, args, kwargs):
        return run_in_one_replica(self, fn, args, kwargs)


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


def experimental_set_strategy(strategy) -> None:
    """Make `strategy` current in this thread as if its scope were entered and never left (None: the default
    strategy again). A later call replaces it. Inside the scope of another strategy it raises, as TF does;
    inside a scope of the strategy already set (which TF enters as a no-op) it does not."""
    from tinytf.runtime.context import state

    stack = context._stack()
    current = getattr(context._local, "set_frame", None)
    for frame in stack:
        if frame is not current and not (current is not None and frame.strategy is current.strategy):
            raise RuntimeError("Must not be called inside a `tf.distribute.Strategy` scope.")
    if current is not None:
        context._local.set_frame = None
        stack.remove(current)
        if current.hook in state.variable_hooks:
            state.variable_hooks.remove(current.hook)
    if strategy is not None:
        frame = context._Frame(strategy, None)
        frame.hook = strategy._remember_variable
        stack.insert(0, frame)  # below any scope entered later
        state.variable_hooks.append(frame.hook)
        context._local.set_frame = frame


def run_in_one_replica(strategy, fn, args, kwargs):
    """fn in replica 0 of `strategy` (the strategies of one replica: the default one, OneDeviceStrategy)."""
    context.push(strategy, context.ReplicaContext(strategy, 0))
    try:
        return fn(*args, **kwargs)
    finally:
        context.pop()
