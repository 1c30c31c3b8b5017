"""The fingerprint of a pipeline, which names its snapshot directory: equal recipes (the same stages, the
same source values, functions with the same graphs and captured values) get the same fingerprint, in this
process and in another, so a later run reads the snapshot an earlier one wrote. A part tinytf cannot describe
by value (an object of unknown kind) counts by its identity: the snapshot is then reused only within this
process, and a pipeline is never given another pipeline's elements."""

from __future__ import annotations

import hashlib
import sys

import numpy as np

from tinytf.runtime.printer import graph_to_text

from .dataset import DatasetV2
from .functions import TracedFunction

# What a stage keeps that is not its recipe: where it was made, memoized state, iteration caches.
_SKIPPED = {"_where", "_variant", "_options", "_cached", "_graph_tensors", "_direct", "_lifted_raw"}


def fingerprint(dataset) -> str:
    h = hashlib.sha256()
    _feed(dataset, h, set())
    return str(int.from_bytes(h.digest()[:8], "little") >> 1)  # a decimal name, as TF's directories have


def _feed(value, h, seen) -> None:
    if isinstance(value, DatasetV2):
        h.update(b"D" + type(value).__qualname__.encode())
        if id(value) in seen:
            return
        seen.add(id(value))
        for name in sorted(vars(value)):
            if name not in _SKIPPED:
                h.update(name.encode())
                _feed(getattr(value, name), h, seen)
    elif isinstance(value, TracedFunction):
        concrete = value._concrete
        with np.printoptions(threshold=sys.maxsize):
            h.update(graph_to_text(concrete.graph).encode())
        for v in concrete._captured():
            _feed(np.asarray(v), h, seen)
        for v in value._lifted_values:
            _feed(np.asarray(v._value), h, seen)
    elif value is None or isinstance(value, (bool, int, float, complex, str, bytes, np.generic)):
        h.update(repr((type(value).__name__, value)).encode())
    elif isinstance(value, np.ndarray):
        h.update(f"A{value.dtype}{value.shape}".encode())
        if value.dtype == object:
            h.update(repr(value.tolist()).encode())
        else:
            h.update(np.ascontiguousarray(value).tobytes())
    elif isinstance(value, (tuple, list)):
        h.update(f"T{len(value)}".encode())
        for v in value:
            _feed(v, h, seen)
    elif isinstance(value, dict):
        h.update(f"M{len(value)}".encode())
        for k in sorted(value, key=repr):
            _feed(k, h, seen)
            _feed(value[k], h, seen)
    elif hasattr(value, "_value") and isinstance(getattr(value, "_value", None), np.ndarray):  # an eager tensor
        _feed(value._value, h, seen)
    elif type(value).__repr__ is not object.__repr__ and " at 0x" not in repr(value):  # a spec, a dtype, an enum
        h.update(repr(value).encode())
    else:
        h.update(f"id{id(value)}".encode())  # unknown: this process only
