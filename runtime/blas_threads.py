"""numpy's BLAS thread count, read and (for a while) set to one.

The convolution kernels (runtime/ops/conv_kernels.py) split their work into cache-sized chunks and run them
on their own threads. Each chunk's GEMM is small, and OpenBLAS's threading of small GEMMs is poor: on this
project's 2-core machine a 392x800 @ 800x64 chunk with 2 BLAS threads cost 5x the CPU time of one thread
(thread hand-offs per call), and two Python threads each calling a 2-thread BLAS wait for each other's
workers. So while the kernels' threads run, BLAS runs single-threaded: `single()` sets its count to one and
gives the old count back when the last such region ends (regions of several threads or calls nest; a count
kept under a lock, so concurrent calls cannot leave BLAS at one thread).

The count is set through OpenBLAS's own functions (what threadpoolctl does, without the dependency), found in
the OpenBLAS library this process loaded (numpy's bundled scipy-openblas or a system one). Where there is no
OpenBLAS (another BLAS, another OS), `available()` is False and the kernels use one thread of their own."""

from __future__ import annotations

import ctypes
import os
import threading
from contextlib import contextmanager

_PREFIXES = ("scipy_openblas", "openblas")
_SUFFIXES = ("64_", "", "_64")
_found: dict = {}
_lock = threading.Lock()
_region = {"depth": 0, "saved": None}


def _loaded_openblas_paths():
    """Paths of the OpenBLAS libraries mapped into this process, numpy's own first (scipy or another
    extension may bring a second one that numpy does not call)."""
    import numpy

    try:
        with open("/proc/self/maps") as maps:
            paths = {line.split()[-1] for line in maps if "openblas" in line.lower() and ".so" in line}
    except OSError:
        return []
    home = os.path.dirname(os.path.dirname(numpy.__file__))
    own = (os.path.join(home, "numpy.libs"), os.path.dirname(numpy.__file__))
    return sorted((p for p in paths if p.startswith("/")), key=lambda p: (not p.startswith(own), p))


def _functions():
    """(get_num_threads, set_num_threads) of the loaded OpenBLAS, or None."""
    if "functions" not in _found:
        _found["functions"] = None
        for path in _loaded_openblas_paths():
            try:
                lib = ctypes.CDLL(path)
            except OSError:
                continue
            for prefix in _PREFIXES:
                for suffix in _SUFFIXES:
                    get = getattr(lib, f"{prefix}_get_num_threads{suffix}", None)
                    put = getattr(lib, f"{prefix}_set_num_threads{suffix}", None)
                    if get is not None and put is not None:
                        get.restype, get.argtypes = ctypes.c_int, []
                        put.restype, put.argtypes = None, [ctypes.c_int]
                        _found["functions"] = (get, put)
                        return _found["functions"]
    return _found["functions"]


def available() -> bool:
    return _functions() is not None


def count() -> int:
    """BLAS's thread count now (1 when it cannot be read)."""
    functions = _functions()
    return max(1, int(functions[0]())) if functions else 1


@contextmanager
def single():
    """BLAS on one thread inside the block (and back to its count after the last open block ends)."""
    functions = _functions()
    if functions is None:
        yield
        return
    get, put = functions
    with _lock:
        if _region["depth"] == 0:
            _region["saved"] = int(get())
            if _region["saved"] != 1:
                put(1)
        _region["depth"] += 1
    try:
        yield
    finally:
        with _lock:
            _region["depth"] -= 1
            if _region["depth"] == 0 and _region["saved"] != 1:
                put(_region["saved"])
