"""tf.debugging.enable_traceback_filtering / disable_traceback_filtering / is_traceback_filtering_enabled.

TF hides the frames of its own source files from the tracebacks of errors that pass through its API, so that
an error shows the user's lines. tinytf does the same with the frames of its three packages (tinytf, its
runtime and autograph): errors leaving a tf.function call (tinytf/function.py) are filtered in place, and the
traceback printed for an uncaught exception is filtered by tinytf's excepthook (installed only when Python's
default hook is in place, so IPython's and pytest's own hooks are left alone). Eager op calls are not wrapped
(a wrapper would cost every op a Python frame): their errors are filtered when printed uncaught.
"""

from __future__ import annotations

import os
import sys
import types

_enabled = [True]  # TF's default: on
_internal_dirs: list = []


def _dirs() -> list:
    if not _internal_dirs:
        import tinytf
        import tinytf.autograph
        import tinytf.runtime

        for module in (tinytf, tinytf.runtime, tinytf.autograph):
            _internal_dirs.append(os.path.dirname(os.path.abspath(module.__file__)) + os.sep)
    return _internal_dirs


def is_internal_frame(filename: str) -> bool:
    """Frames of tinytf's packages and of the graph code tinytf generates (`<tinytf-graph ...>`)."""
    if filename.startswith("<tinytf-graph"):
        return True
    return filename.startswith(tuple(_dirs()))


def _filtered(tb):
    frames = []
    while tb is not None:
        if not is_internal_frame(tb.tb_frame.f_code.co_filename):
            frames.append(tb)
        tb = tb.tb_next
    new = None
    for old in reversed(frames):
        new = types.TracebackType(new, old.tb_frame, old.tb_lasti, old.tb_lineno)
    return new


def filter_exception(error: BaseException) -> BaseException:
    """Drop tinytf's frames from `error`'s traceback and from those of its cause and context (TF filters the
    whole chain). A traceback of tinytf frames only is kept as it is: something must point at the raise."""
    seen = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        tb = error.__traceback__
        if tb is not None:
            kept = _filtered(tb)
            if kept is not None:
                error.__traceback__ = kept
        error = error.__cause__ or error.__context__
    return error


def enable_traceback_filtering() -> None:
    """Hide tinytf's internal frames in the tracebacks of errors raised through tinytf (TF's default)."""
    _enabled[0] = True


def disable_traceback_filtering() -> None:
    """Show every frame, tinytf's included (for debugging tinytf itself)."""
    _enabled[0] = False


def is_traceback_filtering_enabled() -> bool:
    return _enabled[0]


def _excepthook(kind, value, tb):
    if _enabled[0] and value is not None:
        kept = _filtered(tb) if tb is not None else None
        if kept is not None:
            tb = kept
            value.__traceback__ = kept
        filter_exception(value.__cause__ or value.__context__)
    _previous_hook[0](kind, value, tb)


_previous_hook = [sys.__excepthook__]


def install_excepthook() -> None:
    """Filter uncaught exceptions' tracebacks, unless another hook (IPython, pytest, the user's) is in place."""
    if sys.excepthook is sys.__excepthook__:
        _previous_hook[0] = sys.excepthook
        sys.excepthook = _excepthook
