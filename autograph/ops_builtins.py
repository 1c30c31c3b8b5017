"""Python builtins that AutoGraph calls differently, as TensorFlow's py_builtins do: `range(n)` with a tensor
bound is tf.range (so `for i in range(n)` becomes a graph loop), `len(x)` of a tensor with an unknown first
dimension is tf.shape(x)[0], `int(x)`/`float(x)` are casts. Other types bring their own overrides, as TF's
type registries do (`register_override`): tf.data's datasets for enumerate, zip, map, filter, any, all, abs
and len; tensors for sorted. A builtin with no override is Python's: `enumerate(t)`, `zip(t, u)` or
`map(f, t)` of a symbolic tensor iterate it in Python, which is TF's OperatorNotAllowedInGraphError (a `for`
over the tensor itself is a graph loop).
`print` stays Python's print (it runs while tracing; tf.print is the graph op), unless the tf.function asked
for Feature.BUILTIN_FUNCTIONS: then a print of tensors prints their values each time the graph runs."""

from __future__ import annotations

import builtins
import sys

from tinytf.runtime import dtypes
from tinytf.runtime.ops.array import range as tf_range
from tinytf.runtime.ops.array import shape as shape_of
from tinytf.runtime.ops.math import cast
from tinytf.runtime.ops.python_print import python_print
from tinytf.runtime.ops.tensor_array import TensorArray

from .staging import is_symbolic

UNSPECIFIED = object()  # an argument not given (sorted's key and reverse: TF's override reads their presence)
_OVERRIDES: dict = {}


def register_override(builtin: str, cls, fn) -> None:
    """Converted code's `builtin` (a name: "enumerate", "zip", "map", "filter", "any", "all", "abs", "len",
    "sorted") calls `fn` for values of `cls`, with the builtin's arguments (TF's py_builtins registries)."""
    _OVERRIDES.setdefault(builtin, []).append((cls, fn))


def _override(builtin: str, value):
    for cls, fn in _OVERRIDES.get(builtin, ()):
        if isinstance(value, cls):
            return fn
    return None


def _common_override(builtin: str, values):
    """The override every one of `values` has (zip and map of datasets), or None when they differ."""
    found = {_override(builtin, v) for v in values}
    return found.pop() if len(found) == 1 and None not in found else None


def range_(*args):
    if any(is_symbolic(a) for a in args):
        return tf_range(*args)
    return builtins.range(*args)


def len_(value):
    override = _override("len", value)
    if override is not None:
        return override(value)
    if isinstance(value, TensorArray):  # as TF: its size, a tensor (a graph TensorArray's size may be unknown)
        return value.size()
    if is_symbolic(value):
        if value._shape is None or not value._shape:
            raise TypeError(f"len() is not defined for the tensor {value.name}: it is a scalar or its rank is "
                            "unknown")
        if value._shape[0] is not None:
            return value._shape[0]
        return shape_of(value)[0]
    return builtins.len(value)


def int_(value=0, *args):
    if is_symbolic(value) and not args:
        return cast(value, dtypes.int32)
    return builtins.int(value, *args)


def float_(value=0.0):
    if is_symbolic(value):
        return cast(value, dtypes.float32)
    return builtins.float(value)


def enumerate_(iterable, start=0):
    override = _override("enumerate", iterable)
    return override(iterable, start) if override is not None else builtins.enumerate(iterable, start)


def zip_(*iterables, strict=False):
    override = _common_override("zip", iterables)
    if override is not None:
        return override(*iterables, strict=strict)
    return builtins.zip(*iterables, strict=strict)


def map_(fn, *iterables):
    override = _common_override("map", iterables)
    return override(fn, *iterables) if override is not None else builtins.map(fn, *iterables)


def filter_(function, iterable):
    override = _override("filter", iterable)
    return override(function, iterable) if override is not None else builtins.filter(function, iterable)


def any_(iterable):
    override = _override("any", iterable)
    return override(iterable) if override is not None else builtins.any(iterable)


def all_(iterable):
    override = _override("all", iterable)
    return override(iterable) if override is not None else builtins.all(iterable)


def abs_(x):
    override = _override("abs", x)
    return override(x) if override is not None else builtins.abs(x)


def sorted_(iterable, key=UNSPECIFIED, reverse=UNSPECIFIED):
    override = _override("sorted", iterable)
    if override is not None:
        return override(iterable, key, reverse)
    given = {name: v for name, v in (("key", key), ("reverse", reverse)) if v is not UNSPECIFIED}
    return builtins.sorted(iterable, **given)


def print_(*objects, sep=None, end=None, file=None, flush=False):
    """`print` under Feature.BUILTIN_FUNCTIONS: staged when a symbolic tensor is printed (to stdout, or to
    stderr when `file` is sys.stderr), Python's print otherwise."""
    if any(is_symbolic(o) for o in objects) and file in (None, sys.stdout, sys.stderr):
        python_print(*objects, sep=sep, end=end, to_stderr=file is sys.stderr)
        return None
    return builtins.print(*objects, sep=sep, end=end, file=file, flush=flush)


OVERLOADS = {builtins.range: range_, builtins.len: len_, builtins.int: int_, builtins.float: float_,
             builtins.enumerate: enumerate_, builtins.zip: zip_, builtins.map: map_, builtins.filter: filter_,
             builtins.any: any_, builtins.all: all_, builtins.abs: abs_, builtins.sorted: sorted_}
