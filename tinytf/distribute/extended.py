"""tf.distribute.StrategyExtended (`strategy.extended`): the lower-level API a strategy offers to libraries
(devices, reductions to destinations, updates of distributed variables). One class serves every strategy:
what differs (devices, the cross-device algorithm, who checkpoints) is asked of the strategy."""

from __future__ import annotations

import contextlib

from . import context
from .cross_device_ops import CrossDeviceOps, ReductionToOneDevice
from .reduce_op import as_reduce_op
from .values import Mirrored


class StrategyExtended:
    """What `strategy.extended` returns (TF names the class per strategy: MirroredExtended, ...)."""

    def __init__(self, container_strategy):
        self._container_strategy = container_strategy

    # --- devices and roles -------------------------------------------------------------------------------
    @property
    def worker_devices(self) -> tuple:
        """The devices of this worker's replicas, fully named ("/job:localhost/replica:0/task:0/device:CPU:0")."""
        return self._container_strategy._worker_devices()

    @property
    def parameter_devices(self) -> tuple:
        """The devices holding the variables: the replicas' own (a mirrored variable has a copy on each)."""
        return self._container_strategy._worker_devices()

    @property
    def experimental_require_static_shapes(self) -> bool:
        return False

    @property
    def should_checkpoint(self) -> bool:
        """Whether this worker should save checkpoints (every worker but a multi-worker strategy's non-chief)."""
        return self._container_strategy._is_chief()

    @property
    def should_save_summary(self) -> bool:
        return self._container_strategy._is_chief()

    @property
    def experimental_should_init(self) -> bool:
        return True

    def _cross_device_ops(self) -> CrossDeviceOps:
        return getattr(self._container_strategy, "_cross_device_ops", None) or ReductionToOneDevice()

    # --- variables ---------------------------------------------------------------------------------------
    def variable_created_in_scope(self, v) -> bool:
        """Whether `v` was made under this strategy's scope."""
        return self._container_strategy._created_in_scope(v)

    @contextlib.contextmanager
    def colocate_vars_with(self, colocate_with_variable):
        """Variables made in this block go where `colocate_with_variable` is. Every copy of a variable of a
        tinytf strategy is in this machine's memory already, so the block only checks that it is entered
        under the strategy's scope, as TF requires."""
        self._require_scope()
        strategy = self._container_strategy
        if not getattr(strategy, "_is_default", False) and not strategy._created_in_scope(colocate_with_variable):
            # TF's validate_colocate: every strategy but the default one colocates only with its own variables
            raise ValueError("`colocate_vars_with` must only be passed a variable created in this "
                             f"tf.distribute.Strategy.scope(), not: {colocate_with_variable!r}")
        yield

    def value_container(self, value):
        """The distributed container of `value` (a variable of this strategy is its own container)."""
        return value

    def update(self, var, fn, args=(), kwargs=None, group=True):
        """fn(var, *args, **kwargs) applied to `var` from the cross-replica context: once for all of its
        copies (they hold the same value), the result given once per replica (TF's Mirrored) when the strategy
        has several; group=False gives the per-replica results as a tuple."""
        strategy = self._container_strategy
        if context.current_replica_context() is not None and context.current_frame().strategy is strategy \
                and strategy.num_replicas_in_sync > 1:
            raise RuntimeError("strategy.extended.update() must be called in the cross-replica context "
                               "(outside strategy.run)")
        from .values import local_results

        args = tuple(local_results(a)[0] for a in args)  # mirrored arguments: each replica's component is equal
        kwargs = {k: local_results(v)[0] for k, v in (kwargs or {}).items()}
        result = fn(var, *args, **kwargs)
        n = strategy.num_replicas_in_sync
        if n == 1:
            return result
        value = result.read_value() if hasattr(result, "read_value") else result  # TF's components are tensors
        if not group:
            return (value,) * n
        return Mirrored([value] * n)

    # --- reductions to destinations ----------------------------------------------------------------------
    def reduce_to(self, reduce_op, value, destinations, options=None):
        """`value` (per replica) combined by `reduce_op` and placed on `destinations` (a device, a variable, a
        distributed value): with several destination devices a Mirrored value."""
        return self._cross_device_ops().reduce(as_reduce_op(reduce_op), value, destinations, options)

    def batch_reduce_to(self, reduce_op, value_destination_pairs, options=None):
        """reduce_to() of each (value, destinations) pair."""
        return self._cross_device_ops().batch_reduce(as_reduce_op(reduce_op), value_destination_pairs, options)

    def broadcast_to(self, tensor, destinations):
        return self._cross_device_ops().broadcast(tensor, destinations)

    def call_for_each_replica(self, fn, args=(), kwargs=None):
        """fn on every replica (as strategy.run, without its tf.function handling)."""
        return self._container_strategy.run(fn, args, kwargs)

    def read_var(self, v):
        """The value of a variable of this strategy, read in the cross-replica context."""
        return v.read_value()

    def _require_scope(self) -> None:
        """TF's _require_strategy_scope_extended: the current strategy (of a scope, a replica or a merge) must be
        this one. The default strategy's check passes only where no other strategy is current."""
        from .strategy import get_strategy, has_strategy

        current, strategy = get_strategy(), self._container_strategy
        if current is strategy:
            return
        if not has_strategy():
            raise RuntimeError(f'Need to be inside "with strategy.scope()" for {strategy}')
        raise RuntimeError(f"Mixing different tf.distribute.Strategy objects: {current} is not {strategy}")


# TF's class names of `strategy.extended`, which programs print
class MirroredExtended(StrategyExtended):
    pass


class OneDeviceExtended(StrategyExtended):
    pass


class CollectiveAllReduceExtended(StrategyExtended):
    pass


class ParameterServerStrategyV2Extended(StrategyExtended):
    @property
    def parameter_devices(self) -> tuple:
        """The ps tasks' devices, where ParameterServerStrategy's variables live."""
        return self._container_strategy._parameter_devices()
