"""Error classes and the one helper that finds the user's line for a message.

Every error about an op says which op, which dtypes/shapes, and the line of user code that called it.
"""

from __future__ import annotations

import linecache
import os
import sys
from typing import NamedTuple, Optional

# Generated code (AutoGraph output) registers a map from its lines to the user's original lines here.
# key: generated filename -> {generated line: (original filename, original line, function name)}
SOURCE_MAPS: dict = {}


class OpError(Exception):
    """Base of errors raised by ops (TensorFlow's tf.errors.OpError). tinytf raises `OpError(message)`; TF's
    own form `OpError(node_def, op, message, error_code)` (and `SubclassError(node_def, op, message)`) works too,
    so that user code constructing TF's errors runs. `error_code` is TF's canonical code (tf.errors.*)."""

    error_code = 2  # UNKNOWN

    def __init__(self, *args):
        if len(args) >= 3:  # TF's (node_def, op, message[, error_code, ...])
            super().__init__(args[2])
            self._node_def, self._op = args[0], args[1]
            if type(self) is OpError and len(args) >= 4:
                self.error_code = args[3]
        else:
            super().__init__(*args)
            self._node_def = self._op = None

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else ""

    @property
    def op(self):
        return self._op

    @property
    def node_def(self):
        return self._node_def


class CancelledError(OpError):
    """An operation was cancelled (TF's CANCELLED)."""

    error_code = 1


class InvalidArgumentError(OpError, ValueError):
    """An op received inputs of the wrong dtype or shape."""

    error_code = 3


class DeadlineExceededError(OpError):
    """A deadline expired before the operation could complete."""

    error_code = 4


class NotFoundError(OpError):
    """A file or folder that an op needs does not exist (or cannot be created)."""

    error_code = 5


class AlreadyExistsError(OpError):
    """An entity that an operation tried to create already exists."""

    error_code = 6


class PermissionDeniedError(OpError):
    """The caller does not have permission to run the operation."""

    error_code = 7


class ResourceExhaustedError(OpError, MemoryError):
    """An op could not allocate its result (TensorFlow's OOM error)."""

    error_code = 8


class FailedPreconditionError(OpError):
    """The system is not in a state the op needs (reading a folder as a file)."""

    error_code = 9


class AbortedError(OpError):
    """An operation was aborted, typically by a concurrent action."""

    error_code = 10


class OutOfRangeError(OpError, IndexError):
    """Iteration past the end, or an index out of range."""

    error_code = 11


class UnimplementedError(OpError, NotImplementedError):
    error_code = 12


class InternalError(OpError):
    """An invariant of the system broke."""

    error_code = 13


class UnavailableError(OpError):
    """The runtime is currently unavailable."""

    error_code = 14


class DataLossError(OpError):
    """A file is corrupted or truncated (a bad checksum, a record cut short)."""

    error_code = 15


class UnauthenticatedError(OpError):
    """The request does not have valid authentication credentials."""

    error_code = 16


class UnknownError(OpError):
    """An error with no better class (TF's UnknownError: e.g. a Python exception inside tf.py_function)."""

    error_code = 2


class OperatorNotAllowedInGraphError(TypeError):
    """A symbolic tensor was used where Python needs a concrete value (e.g. `if tensor:`)."""


class InaccessibleTensorError(ValueError):
    """A symbolic tensor was used outside the graph that produced it."""


class Location(NamedTuple):
    filename: str
    lineno: int
    function: str

    @property
    def line(self) -> str:
        return linecache.getline(self.filename, self.lineno).strip()

    def __str__(self):
        text = self.line
        where = f'File "{self.filename}", line {self.lineno}, in {self.function}'
        return f"{where}\n    {text}" if text else where


_library: dict = {"dirs": (), "verdicts": {}}  # the library's directories; filename -> is it library code


def _library_dirs() -> tuple:
    """The directories tinytf's own code runs from, taken from the imported packages' real paths (so a
    checkout in a folder named `tinytf` is not mistaken for library code). In the repository layout
    runtime/, autograph/ and tinytf/ are side by side; installed, runtime/ and autograph/ sit in tinytf/.
    Computed again (and the verdicts forgotten) until all three packages are imported."""
    if len(_library["dirs"]) < 3:
        own = __name__.rsplit(".", 1)[0]
        dirs = {os.path.dirname(os.path.realpath(__file__)) + os.sep}
        for name in ("tinytf", "tinytf.autograph", "tinytf.runtime", own):
            path = getattr(sys.modules.get(name), "__file__", None)
            if path:
                dirs.add(os.path.dirname(os.path.realpath(path)) + os.sep)
        if len(dirs) != len(_library["dirs"]):
            _library["dirs"] = tuple(sorted(dirs))
            _library["verdicts"] = {}
    return _library["dirs"]


def _is_user_program(path: str) -> bool:
    """Programs that ship in the package but are user code (their lines are what messages point at)."""
    return os.path.basename(path) == "demo.py" or f"{os.sep}bench{os.sep}" in path or \
        f"{os.sep}benchmarks{os.sep}" in path


def _is_internal(filename: str) -> bool:
    if filename.startswith("<tinytf"):
        return True
    dirs = _library_dirs()
    verdict = _library["verdicts"].get(filename)
    if verdict is None:
        real = os.path.realpath(filename) if os.path.isabs(filename) else filename
        verdict = _library["verdicts"][filename] = real.startswith(dirs) and not _is_user_program(real)
    return verdict


def user_location(skip: int = 1) -> Optional[Location]:
    """The innermost frame on the stack that belongs to user code, mapped through AutoGraph source maps."""
    frame = sys._getframe(skip)
    while frame is not None:
        filename = frame.f_code.co_filename
        mapping = SOURCE_MAPS.get(filename)
        if mapping is not None:
            original = mapping.get(frame.f_lineno)
            if original is not None:
                return Location(*original)
        elif not _is_internal(filename):
            return Location(filename, frame.f_lineno, frame.f_code.co_name)
        frame = frame.f_back
    return None


def at_user_line(message: str) -> str:
    """Append the user's line to a message."""
    loc = user_location(2)
    return f"{message}\n  {loc}" if loc is not None else message
