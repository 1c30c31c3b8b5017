"""MirroredVariable: a variable made under a MirroredStrategy scope, whose replica-context assignments follow
its `aggregation` as TF's MirroredVariable does.

The replicas are threads that share one copy while they agree (the optimizer's update, applied once in the
merge, and every assignment from the cross-replica context give all replicas the same value). An assignment in
the replica context (inside strategy.run, outside the merge) depends on the aggregation:

- NONE (Keras 3 weights such as BatchNormalization's moving mean and variance): each replica assigns its own
  copy, as TF lets each device update its component, so the copies diverge; a replica reads its own copy, the
  cross-replica context (numpy, get_weights, checkpoints) reads replica 0's, TF's primary;
- SUM / MEAN: the replicas' values are combined (sum, mean) and every replica assigns the result; for
  assign_add / assign_sub the deltas are combined, as TF combines the update's argument;
- ONLY_FIRST_REPLICA: every replica assigns replica 0's value.

Graphs read and write a variable through its `_array` attribute (runtime/ops/state.py), so properties that pick
the calling thread's copy are all it takes for a traced step shared by the replica threads; the combining is a
merge_call node, so it happens when the step runs, in every replica, in the same order."""

from __future__ import annotations

import threading

import numpy as np

from tinytf.runtime.ops.collective import merge_call
from tinytf.variables import Variable, VariableAggregation, creation_class_hooks

from . import context
from .sync_on_read import SyncOnReadVariable

_UNSET = object()
_copies_lock = threading.Lock()  # two replicas diverging at once must not each make the list of copies


class MirroredVariable:
    """Mixed in before the class of the variable being made (tf.Variable, a Keras weight): see the module."""

    _strategy = None
    _aggregation = VariableAggregation.NONE
    _shared = _UNSET  # the value every replica reads while the copies agree
    _copies = None  # one value per replica once a replica-context assignment (aggregation NONE) split them

    def __init__(self, *args, **kwargs):
        self._strategy = context.current_frame().strategy  # the frame _class_under_scope saw, on this thread
        super().__init__(*args, **kwargs)
        register = getattr(self._strategy, "_register_per_replica", None)
        if register is not None:  # process replicas keep its per-replica copies in step (process_replicas.py)
            register(self)

    # --- reads and writes of the value, per calling thread -----------------------------------------------
    def _replica_id(self):
        """The calling thread's replica of this variable's strategy, None in the cross-replica context (which
        includes a replica's merge: the optimizer's update is applied once, for all replicas)."""
        frame = context.current_frame()
        if frame is None or frame.replica is None or frame.strategy is not self._strategy or frame.replica.merging:
            return None
        return frame.replica._replica_id

    @property
    def _array(self):
        copies = self._copies
        if copies is None:
            return self._shared
        replica = self._replica_id()
        return copies[0 if replica is None else replica]

    @_array.setter
    def _array(self, value):
        replica = self._replica_id() if self._shared is not _UNSET else None
        if replica is None or self._aggregation != VariableAggregation.NONE:
            self._copies, self._shared = None, value  # every replica's (SUM/MEAN/FIRST values arrive combined)
            if replica is None and self._strategy is not None:
                changed = getattr(self._strategy, "_state_changed", None)
                if changed is not None:  # set here outside a process step: forked replicas are out of date
                    changed()
            return
        with _copies_lock:
            if self._copies is None:
                self._copies = [self._shared] * self._strategy.num_replicas_in_sync
        self._copies[replica] = value

    @property
    def _replica_values(self) -> tuple:
        """Each replica's value (TF's per-device components), for experimental_local_results."""
        copies = self._copies
        return tuple(copies) if copies is not None else (self._shared,) * self._strategy.num_replicas_in_sync

    def __reduce_ex__(self, protocol):
        """Pickled (and copied) as the plain variable class it mixes into, holding the value this context reads
        (outside the replicas: replica 0's, what checkpoints save): the strategy, its threads and the other
        replicas' copies belong to this process."""
        base = next(c for c in type(self).__mro__ if not issubclass(c, MirroredVariable))
        state = {k: v for k, v in self.__dict__.items() if k not in ("_strategy", "_copies", "_shared")}
        state["_array"] = self._array
        return _plain_variable, (base,), state

    # --- assignments in the replica context combine the replicas' arguments -----------------------------
    def assign(self, value, use_locking=False, name=None, read_value=True):
        return super().assign(self._combined(value, "assign"), use_locking, name, read_value)

    def assign_add(self, delta, use_locking=False, name=None, read_value=True):
        if getattr(self, "_assign_add_combines_values", False):
            return self.assign(self.read_value() + delta)
        return super().assign(self.read_value() + self._combined(delta, "assign_add"))

    def assign_sub(self, delta, use_locking=False, name=None, read_value=True):
        if getattr(self, "_assign_add_combines_values", False):
            return self.assign(self.read_value() - delta)
        return super().assign(self.read_value() - self._combined(delta, "assign_sub"))

    # A Keras 3 weight's assign_add is assign(value + delta), so TF 2.21 combines the replicas' new VALUES
    # (SUM of two replicas adding 1 and 2 to 3 gives 4 + 5 = 9, where a tf.Variable gives 3 + 1 + 2 = 6):
    # recorded in tests/conformance/distribute_keras_aggregation.py. KerasVariable sets
    # _assign_add_combines_values (read with getattr: this class comes first in the mixed class's MRO).

    def _combined(self, value, method):
        """`value` combined over the replicas by the aggregation, when assigned in the replica context."""
        if self._aggregation == VariableAggregation.NONE or self._replica_id() is None:
            return value
        from tinytf.runtime.dispatch import convert_to_tensor

        tensor = convert_to_tensor(value.read_value() if isinstance(value, Variable) else value, self.dtype)
        return merge_call(_Combine(self, method), [tensor])[0]


class _Combine:
    """merge_call's callback: every replica deposits its value; SUM and MEAN give each the sum (mean),
    ONLY_FIRST_REPLICA replica 0's (a sum where the others add zeros)."""

    def __init__(self, variable, method):
        self.variable, self.method = variable, method

    def __call__(self, value):
        variable = self.variable
        replica = variable._replica_id()
        if replica is None:  # a step traced in a replica and run elsewhere: nothing to combine with
            return [value]
        value = np.asarray(value)
        aggregation = variable._aggregation
        if aggregation == VariableAggregation.ONLY_FIRST_REPLICA and replica != 0:
            value = np.zeros_like(value)
        total = variable._strategy._collective.sum(replica, [value])[0]
        if aggregation == VariableAggregation.MEAN:
            n = variable._strategy.num_replicas_in_sync
            total = total / total.dtype.type(n) if total.dtype.kind in "fc" else total // n
        return [total]


def _plain_variable(cls):
    """An empty instance of a plain variable class, which unpickling fills with a MirroredVariable's state."""
    return object.__new__(cls)


_mirrored_classes: dict = {}


def _mirrored_class(cls):
    """MirroredVariable mixed into `cls` (one class per base, made once)."""
    mirrored = _mirrored_classes.get(cls)
    if mirrored is None:
        mirrored = _mirrored_classes[cls] = type(cls.__name__, (MirroredVariable, cls), {
            "__module__": cls.__module__, "__qualname__": cls.__qualname__,
            "__doc__": f"{cls.__name__} made under a MirroredStrategy scope (see tinytf.distribute.mirrored_variable)"})
    return mirrored


def _class_under_scope(cls):
    """Variable.__new__'s hook: under the scope (or in a replica) of a MirroredStrategy with several replicas,
    a variable is a MirroredVariable of that strategy; metric state (SyncOnReadVariable) stays per replica."""
    frame = context.current_frame()
    strategy = frame.strategy if frame is not None else None
    if strategy is None or not getattr(strategy, "_mirrors_variables", False) or strategy.num_replicas_in_sync < 2 \
            or issubclass(cls, (MirroredVariable, SyncOnReadVariable)):
        return cls
    return _mirrored_class(cls)


def install() -> None:
    if _class_under_scope not in creation_class_hooks:
        creation_class_hooks.append(_class_under_scope)
