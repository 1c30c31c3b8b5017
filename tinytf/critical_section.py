"""tf.CriticalSection: functions executed in it run one at a time. Eagerly, execute() calls the function while
holding the section's lock. In a tf.function, execute() puts a lock op before the function's ops and an unlock op
after them (runtime/ops/critical_section.py): stateful ops keep program order, so every run of the graph takes the
lock, does the body's variable reads and writes, computes its outputs, and releases the lock. Executing a section
from inside itself raises ValueError, as TF's would-be deadlock check does.

If a body fails while the graph runs, its unlock never runs: the section stays held by that thread, which may
take it again (its next lock goes through), while other threads wait for it, as they would wait on TF's mutex
held by a failed step. TF's exclusive_resource_access check (two sections touching one variable) is not made."""

from __future__ import annotations

import itertools
import threading

from tinytf.runtime import nest
from tinytf.runtime.context import state
from tinytf.runtime.dispatch import apply
from tinytf.runtime.graph import RESOURCE
from tinytf.runtime.ops.critical_section import critical_section_lock_op, critical_section_unlock_op
from tinytf.runtime.resource import Resource
from tinytf.runtime.tensor import Tensor

from .control_dependencies import control_dependencies

_ids = itertools.count()
_running = threading.local()  # the sections this thread is executing (or tracing an execution of) now


def _active() -> list:
    if not hasattr(_running, "sections"):
        _running.sections = []
    return _running.sections


class CriticalSection(Resource):
    """Critical section: a resource that executes functions in serial order."""

    _graph_name = "critical_section"
    dtype = RESOURCE
    _shape = ()

    def __init__(self, name=None, shared_name=None, critical_section_def=None, import_scope=None):
        if critical_section_def is not None:
            raise NotImplementedError("CriticalSection from a CriticalSectionDef (TF1 graph import) is not supported")
        self._name = name or "CriticalSection"
        self._shared_name = shared_name
        self._id = next(_ids)
        self._mutex = threading.Lock()
        self._owner = None  # the thread holding the section (graph runs: see the module docstring)

    @property
    def name(self) -> str:
        return self._name

    def __repr__(self):
        return f"<tf.CriticalSection '{self._name}'>"

    def _lock(self):
        me = threading.get_ident()
        if self._owner == me:  # a graph run of this thread failed inside the section: it holds it still
            return
        self._mutex.acquire()
        self._owner = me

    def _unlock(self):
        self._owner = None
        self._mutex.release()

    def execute(self, fn, exclusive_resource_access=True, name=None):
        """Execute function `fn()` inside the critical section and return its outputs (tensors, or a nest of
        them). `fn` takes no arguments: close over them (`cs.execute(lambda: f(x))`)."""
        if self in _active():
            raise ValueError(f"Attempting to lock a CriticalSection ({self._name}) in which we are already running. "
                             "This is illegal and may cause deadlocks.")
        _active().append(self)
        try:
            if state.graph is None:
                with self._mutex:
                    self._owner = threading.get_ident()
                    try:
                        return fn()
                    finally:
                        self._owner = None
            return self._execute_in_graph(fn, name)
        finally:
            _active().remove(self)

    def _execute_in_graph(self, fn, name):
        token = apply(critical_section_lock_op, (self,), name=name)
        with control_dependencies([token]):
            result = fn()
        flat = nest.flatten(result)
        tensors = [x for x in flat if isinstance(x, Tensor)]
        released = apply(critical_section_unlock_op, (self, token, *tensors))
        released = [] if released is None else [released] if len(tensors) == 1 else list(released)
        outputs = iter(released)
        return nest.pack_sequence_as(result, [next(outputs) if isinstance(x, Tensor) else x for x in flat])
