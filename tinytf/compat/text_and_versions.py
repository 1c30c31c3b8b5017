"""tf.compat's helpers besides v1: bytes/text conversion, the numeric type tuples, TensorShape dimension
access that works on TF1 and TF2 shapes alike, and the forward-compatibility date switch."""

from __future__ import annotations

import contextlib
import datetime
import logging
import numbers
import os

import numpy as np

from tinytf.runtime.dimension import Dimension

bytes_or_text_types = (bytes, str)
integral_types = (numbers.Integral, np.integer)
real_types = (numbers.Real, np.integer, np.floating)
complex_types = (numbers.Complex, np.number)


def as_bytes(bytes_or_text, encoding: str = "utf-8") -> bytes:
    """str -> bytes in `encoding`; bytes (and bytearray) pass through. Anything else is a TypeError, as in TF."""
    encoding = __import__("codecs").lookup(encoding).name
    if isinstance(bytes_or_text, bytearray):
        return bytes(bytes_or_text)
    if isinstance(bytes_or_text, str):
        return bytes_or_text.encode(encoding)
    if isinstance(bytes_or_text, bytes):
        return bytes_or_text
    raise TypeError(f"Expected binary or unicode string, got {bytes_or_text!r}")


def as_text(bytes_or_text, encoding: str = "utf-8") -> str:
    """bytes -> str decoded from `encoding`; str passes through."""
    encoding = __import__("codecs").lookup(encoding).name
    if isinstance(bytes_or_text, str):
        return bytes_or_text
    if isinstance(bytes_or_text, bytes):
        return bytes_or_text.decode(encoding)
    raise TypeError(f"Expected binary or unicode string, got {bytes_or_text!r}")


def as_str(bytes_or_text, encoding: str = "utf-8") -> str:
    """TF 2's as_str: as_text under another name (a separate function in TF too)."""
    return as_text(bytes_or_text, encoding)


def as_str_any(value, encoding: str = "utf-8") -> str:
    """bytes decode; anything else goes through str()."""
    if isinstance(value, bytes):
        return as_str(value, encoding=encoding)
    return str(value)


def path_to_str(path):
    """An os.PathLike (pathlib.Path) becomes its string; anything else is returned unchanged."""
    if hasattr(path, "__fspath__"):
        path = as_str_any(path.__fspath__())
    return path


def dimension_value(dimension):
    """The int (or None) of a TF1 Dimension, or the value itself when it is already an int/None (TF2 shapes)."""
    if isinstance(dimension, Dimension):
        return dimension.value
    return dimension


def dimension_at_index(shape, index) -> Dimension:
    """shape's dimension `index` as a Dimension, Dimension(None) when the rank itself is unknown."""
    from tinytf.runtime.shapes import TensorShape

    shape = TensorShape(shape) if not isinstance(shape, TensorShape) else shape
    if shape.rank is None:
        return Dimension(None)
    return shape.dims[index]


# TF 2.21's forward-compatibility horizon (tensorflow/python/compat/compat.py); TF moves it daily at HEAD,
# a release keeps its own. TF_FORWARD_COMPATIBILITY_DELTA_DAYS moves it forward, as in TF.
_HORIZON = datetime.date(2026, 1, 16)
_DELTA_DAYS_VAR = "TF_FORWARD_COMPATIBILITY_DELTA_DAYS"
_date_number: int | None = None


def _date_to_number(year: int, month: int, day: int) -> int:
    return (year << 9) | (month << 5) | day


def _update_date_number(date_to_override: datetime.date | None = None) -> None:
    global _date_number
    if date_to_override:
        date = date_to_override
    else:
        date = _HORIZON
        delta = os.getenv(_DELTA_DAYS_VAR)
        if delta:
            date += datetime.timedelta(days=int(delta))
    if date < _HORIZON:
        logging.getLogger("tensorflow").warning(
            "Trying to set the forward compatibility date to the past date %s. This will be ignored by "
            "TensorFlow.", date)
        return
    _date_number = _date_to_number(date.year, date.month, date.day)


_update_date_number()


def forward_compatible(year: int, month: int, day: int) -> bool:
    """True when the forward-compatibility window for (year, month, day) has passed: the date lies before
    the horizon."""
    return _date_number > _date_to_number(year, month, day)


@contextlib.contextmanager
def forward_compatibility_horizon(year: int, month: int, day: int):
    """Within the block, forward_compatible answers as if the horizon were (year, month, day) (for tests)."""
    try:
        _update_date_number(datetime.date(year, month, day))
        yield
    finally:
        _update_date_number()
