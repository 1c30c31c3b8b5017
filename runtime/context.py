"""Execution state. Per thread (as TensorFlow's graph-building context): which graph is being built (None
means eager), which gradient tapes are recording, and the hooks that watch variable creation; a trace on one
thread never changes what ops do on another. Shared by all threads: the global random seed, the count of
recording tapes, and the lock that serializes tracing. Hot paths read `state.graph` and `state.tapes`
directly."""

from __future__ import annotations

import contextlib
import threading


class _Shared:
    __slots__ = ("seed", "live_tapes", "busy", "op_observers")

    def __init__(self):
        self.seed = None  # global seed from tf.random.set_seed (one per process, as in TF)
        self.live_tapes = 0  # tapes recording on any thread (specialized tf.function calls must not bypass them)
        # Threads that are building a graph or have tapes. Reading a thread-local attribute costs several times
        # a plain one, so eager hot paths test `not shared.busy` first and read `state` only when it is not 0.
        self.busy = 0
        # Called as f(op, inputs, outputs, start_ns, end_ns) after every eager op (tf.debugging's placement log,
        # tf.profiler). While any is set, shared.busy counts one more, so the operator fast paths step aside.
        self.op_observers = ()


shared = _Shared()
_busy_lock = threading.Lock()  # `+=` on an attribute is not atomic across threads


class _State(threading.local):
    """Each thread sees its own attributes; __init__ runs once per thread, on its first access."""

    def __init__(self):
        self.graph = None  # the Graph being traced into, or None when executing eagerly
        self.tapes = []  # active GradientTapes, innermost last; empty almost always (replaced, never mutated)
        self.paused_tapes = []  # tape lists paused by backward traces in progress, outermost first
        self.variable_hooks = []  # called with each new Variable (tf.function watches creation while tracing)
        self.numeric_checks = False  # tf.debugging.enable_check_numerics (runtime/numerics_checks.py)

    def __setattr__(self, name, value):
        """Writes to graph, tapes and numeric_checks keep shared.busy counting this thread while it is not plainly
        eager."""
        if name != "graph" and name != "tapes" and name != "numeric_checks":
            super().__setattr__(name, value)
            return
        was = self._busy()
        super().__setattr__(name, value)
        now = self._busy()
        if was != now:
            with _busy_lock:
                shared.busy += 1 if now else -1

    def _busy(self) -> bool:
        return (getattr(self, "graph", None) is not None or bool(getattr(self, "tapes", None))
                or getattr(self, "numeric_checks", False))

    @property
    def seed(self):
        return shared.seed

    @seed.setter
    def seed(self, value):
        shared.seed = value


state = _State()

# Serializes tracing (and the trace caches it fills) across threads. Reentrant: a trace calls other
# tf.functions, which may trace in turn. Eager ops and calls of traced functions never take it.
trace_lock = threading.RLock()

# Called when a tape starts recording: tinytf's specialized tf.function call paths (which run compiled code
# that no tape sees) step aside while tapes record.
tape_started_listeners: list = []


def notify_tape_started() -> None:
    # Counted first, then the listeners: a thread that specializes a function checks the count afterwards
    # (see Function._call_slow), so either it sees this tape or the listeners see its specialization. Not under
    # the trace lock: starting a tape must not wait for another thread's trace.
    with _busy_lock:
        shared.live_tapes += 1
    for listener in tape_started_listeners:
        listener()


def notify_tape_stopped() -> None:
    with _busy_lock:  # `-=` on an attribute is not atomic across threads
        shared.live_tapes -= 1


def executing_eagerly() -> bool:
    return state.graph is None


@contextlib.contextmanager
def building(graph):
    """Make `graph` the graph that ops are added to (on this thread), restoring the previous one on exit."""
    previous = state.graph
    state.graph = graph
    try:
        yield graph
    finally:
        state.graph = previous


@contextlib.contextmanager
def no_tapes():
    """Pause recording on all tapes (used while building subgraphs and by tape.stop_recording)."""
    saved = state.tapes
    state.tapes = []
    try:
        yield
    finally:
        state.tapes = saved


def add_op_observer(observer) -> None:
    """Call `observer(op, inputs, outputs, start_ns, end_ns)` after each eager op, on every thread."""
    with _busy_lock:
        if not shared.op_observers:
            shared.busy += 1
        shared.op_observers = shared.op_observers + (observer,)


def remove_op_observer(observer) -> None:
    with _busy_lock:
        if observer not in shared.op_observers:
            return
        # `!=`, not `is not`: a bound method (session.on_op) is a new object at each attribute read
        shared.op_observers = tuple(o for o in shared.op_observers if o != observer)
        if not shared.op_observers:
            shared.busy -= 1
