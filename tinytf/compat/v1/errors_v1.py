"""tf.compat.v1.errors' own functions: the table between TF's canonical error codes and exception classes, and
`raise_exception_on_not_ok_status`, the context manager TF1 code wrapped around C API calls (its status is set
by the code inside; a code other than OK raises that code's exception on exit). The codes and classes
themselves are tf.errors' (tf1_aliases.py)."""

from __future__ import annotations

import warnings

from ... import errors as _errors

_CODE_TO_EXCEPTION_CLASS = {
    _errors.CANCELLED: _errors.CancelledError, _errors.UNKNOWN: _errors.UnknownError,
    _errors.INVALID_ARGUMENT: _errors.InvalidArgumentError, _errors.DEADLINE_EXCEEDED: _errors.DeadlineExceededError,
    _errors.NOT_FOUND: _errors.NotFoundError, _errors.ALREADY_EXISTS: _errors.AlreadyExistsError,
    _errors.PERMISSION_DENIED: _errors.PermissionDeniedError, _errors.UNAUTHENTICATED: _errors.UnauthenticatedError,
    _errors.RESOURCE_EXHAUSTED: _errors.ResourceExhaustedError,
    _errors.FAILED_PRECONDITION: _errors.FailedPreconditionError, _errors.ABORTED: _errors.AbortedError,
    _errors.OUT_OF_RANGE: _errors.OutOfRangeError, _errors.UNIMPLEMENTED: _errors.UnimplementedError,
    _errors.INTERNAL: _errors.InternalError, _errors.UNAVAILABLE: _errors.UnavailableError,
    _errors.DATA_LOSS: _errors.DataLossError,
}
_EXCEPTION_CLASS_TO_CODE = {cls: code for code, cls in _CODE_TO_EXCEPTION_CLASS.items()}


def exception_type_from_error_code(error_code):
    """The exception class of a canonical code; KeyError for OK or an unknown code, as TF."""
    return _CODE_TO_EXCEPTION_CLASS[error_code]


def error_code_from_exception_type(cls):
    """The canonical code of one of tf.errors' classes. For any other class TF warns and returns (not raises)
    an UnknownError instance, and so does this."""
    try:
        return _EXCEPTION_CLASS_TO_CODE[cls]
    except (KeyError, TypeError):
        warnings.warn("Unknown class exception", stacklevel=2)
        return _errors.UnknownError(None, None, "Unknown class exception", None)


class Status:
    """What `raise_exception_on_not_ok_status` hands its block: a code (OK to start with) and a message."""

    def __init__(self):
        self.code = _errors.OK
        self.message = ""

    def set(self, code: int, message: str) -> None:
        self.code, self.message = int(code), str(message)


class raise_exception_on_not_ok_status:  # noqa: N801 - TF's name: it was a contextmanager function once
    """`with raise_exception_on_not_ok_status() as status:` ... on exit, a status whose code is not OK raises
    that code's exception with its message (an unknown code: UnknownError after a warning, as TF)."""

    def __enter__(self) -> Status:
        self.status = Status()
        return self.status

    def __exit__(self, type_arg, value_arg, traceback_arg):
        status, self.status = self.status, None
        if status.code != _errors.OK:
            try:
                raise exception_type_from_error_code(status.code)(None, None, status.message)
            except KeyError:
                warnings.warn(f"Unknown error code: {status.code}", stacklevel=2)
                raise _errors.UnknownError(None, None, status.message, status.code) from None
        return False


__all__ = ["error_code_from_exception_type", "exception_type_from_error_code", "raise_exception_on_not_ok_status"]
