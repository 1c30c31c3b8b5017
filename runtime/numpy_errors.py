"""tinytf computes under numpy error state of its own, so numpy never warns about the IEEE results TF gives
silently (x / 0 = inf, log(0) = -inf, sqrt(-1) = nan, float32 overflow = inf, NaN cast to an integer, integer
scalars that wrap), while the user's own numpy code keeps the user's state.

numpy (2.x) keeps its error state in a context variable. tinytf sets it to "ignore" only where its own code
runs, and never changes it for the user's code:

- eager kernels run through `run` (dispatch._run_eager, the Tensor operators' fast path): the call of one
  prepared `contextvars.Context` in which numpy's state is "ignore". Entering a context is a pointer swap:
  about 100 machine instructions a call, where `ContextVar.set` + `reset` cost about 1,600 and
  `with np.errstate(all="ignore")` about 10,000 (callgrind, numpy 2.4, Python 3.11). Measured whole: an eager
  op costs about 900 instructions (3-5%) more, the operators' fast path about 180 (5%).
- a generated entry (codegen.build_entry) runs the graph's body and the wrapping of its results as a function
  through `run` too, once per call, not per op: a one-op tf.function call costs about 5,130 instructions,
  against 6,111 when the entry set and reset the variable and about 4,500 with no error state at all (the
  rest is Context.run and the body's own frame); `call` is its fallback.
- constant folding and kernels' own blocks use `quiet()`, a context manager.

A context can be entered by one thread at a time and not twice: when `run` is refused (a kernel running inside
it applies an op, or another thread is in it), `run_refused(error)` tells so and `call` runs the function
under `enter` / `leave` instead.

Kernels that call the user's Python function (py_function, numpy_function) run it under the user's state:
their ops are declared with `calls_python=True`, which the dispatcher runs without `run`, and inside graph code
(which is under tinytf's state) `user_state()` restores numpy's default state, the state a fresh thread has,
as TF calls such functions from its executor's threads.
"""

from __future__ import annotations

import contextlib
import contextvars

import numpy as np

try:
    from numpy._core.umath import _extobj_contextvar as _state
    from numpy._core.umath import _make_extobj
except ImportError:  # numpy 1.x keeps the state per thread, not in a context variable
    _state = None

if _state is not None:
    QUIET = _make_extobj(all="ignore")
    DEFAULT = contextvars.Context().run(_state.get)  # numpy's own default, as a fresh thread sees it
    enter = _state.set  # token = enter(QUIET) ... leave(token)
    leave = _state.reset

    def _quiet_context() -> contextvars.Context:
        token = _state.set(QUIET)
        try:
            return contextvars.copy_context()
        finally:
            _state.reset(token)

    run = _quiet_context().run  # run(fn, *args, **kwargs): fn under tinytf's state

    def is_quiet() -> bool:
        return _state.get() is QUIET

    def _set_default():
        return _state.set(DEFAULT)

else:  # pragma: no cover - numpy 1.x
    QUIET = "ignore"
    DEFAULT = None

    def enter(_quiet):
        return np.seterr(all="ignore")

    def leave(saved):
        np.seterr(**saved)

    def run(fn, *args, **kwargs):
        saved = np.seterr(all="ignore")
        try:
            return fn(*args, **kwargs)
        finally:
            np.seterr(**saved)

    def is_quiet() -> bool:
        return all(mode == "ignore" for mode in np.geterr().values())

    def _set_default():
        return np.seterr(divide="warn", over="warn", under="ignore", invalid="warn")


_REFUSED = "cannot enter context"


def run_refused(error: RuntimeError) -> bool:
    """Whether `error`, raised by `run`, is the context refusing to be entered (rather than the function's own
    RuntimeError): it was raised by `run` itself, before any frame of the function."""
    traceback = error.__traceback__
    return (traceback is not None and traceback.tb_next is None and bool(error.args)
            and isinstance(error.args[0], str) and error.args[0].startswith(_REFUSED))


def call(fn, args, kwargs):
    """fn(*args, **kwargs) under tinytf's state, whether or not `run`'s context can be entered now."""
    try:
        return run(fn, *args, **kwargs)
    except RuntimeError as e:
        if not run_refused(e):
            raise
    token = enter(QUIET)
    try:
        return fn(*args, **kwargs)
    finally:
        leave(token)


@contextlib.contextmanager
def quiet():
    """A block under tinytf's state (for code that is not one call: folding, a kernel's own steps)."""
    token = enter(QUIET)
    try:
        yield
    finally:
        leave(token)


@contextlib.contextmanager
def user_state():
    """A block of the user's Python called back from tinytf code (py_function's function): outside tinytf's
    state the caller's state stays as it is; inside it (graph code), numpy's default state."""
    if not is_quiet():
        yield
        return
    token = _set_default()
    try:
        yield
    finally:
        leave(token)
