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
OpenBLAS (another BLAS, another OS), `available()` is False and the kernels use one thread of their own.

BLAS goes back to its count LINGER_S after the last region ends, not at once, by a small daemon thread. An
OpenBLAS worker that has run a GEMM spins, busy, for about 2^28 cycles before it sleeps (OPENBLAS_THREAD_TIMEOUT,
read only when the library starts): measured here, 47-60 ms of CPU after one 64x3136 @ 3136x10 GEMM, a CNN's
dense layer. Between a training step's convolutions run that layer's GEMMs (and a fit loop's Python); with
BLAS back at two threads they woke the worker, which then spun through the next convolutions on the core
their second thread needed: the CNN step's CPU time was 128-140 ms against 81-90 ms with the spin cut short
(OPENBLAS_THREAD_TIMEOUT=4; load 7, one run each). Kept at one thread across such short gaps, those small
GEMMs run on one core (tens of microseconds more) and wake nothing. The price: a large GEMM within LINGER_S
of a convolution runs on one thread; `restore()` gives BLAS its count back at once.

Which count a GEMM runs with must not depend on that timing: OpenBLAS's float32 GEMM gives other bits on 1
thread than on 2 once its depth is large (64x784 @ 784x256: 13,103 of 16,384 values differ by an ulp, while
64x256 @ 256x10 or 64x3136 @ 3136x10 agree), so a train step's loss could differ in its last bit between two
calls, or between a planned and an unplanned function, depending on whether a convolution had run in the
last 50 ms. `matmul()`, which tinytf's matmul op and the loop accumulators call, makes the count a function of
the shapes: GEMMs of at most THREADED_MAX M*K*N run on one thread inside OpenBLAS whatever the count (its
own threshold: 65536 * GEMM_MULTITHREAD_THRESHOLD 4) and are left alone; up to WIDE_MIN they run inside
`single()` (one thread, as the linger would give them, and waking no spinning worker: a CNN's dense layer,
64x3136 @ 3136x10, is one of them); larger ones inside `wide()`, at BLAS's own count, which waits for other
threads' regions to end and holds new ones off while the GEMM runs."""

from __future__ import annotations

import ctypes
import os
import threading
import time
from contextlib import contextmanager

import numpy as np

_PREFIXES = ("scipy_openblas", "openblas")
_SUFFIXES = ("64_", "", "_64")
_found: dict = {}
_lock = threading.Lock()
_region = {"depth": 0, "saved": 1, "pinned": False, "until": 0.0, "restorer": None, "wide": 0, "waiting": 0,
           "wake": 0.0}  # wake: when the restorer's timed wait ends
_thread = threading.local()  # .depth: this thread's open single() regions
_changed = threading.Condition(_lock)
LINGER_S = 0.05  # BLAS stays at one thread this long after the last region: a step's gaps between its convs
THREADED_MAX = 65536 * 4  # OpenBLAS runs GEMMs of at most this M*K*N on one thread whatever its count
WIDE_MIN = 1 << 22  # M*K*N from which matmul() runs at BLAS's own count (8 MFLOP: 0.1 ms on one core here)


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
    """The count the user's GEMMs run with: BLAS's thread count now (1 when it cannot be read), or, while a
    region holds it at one thread or it lingers there after the last region, the count it goes back to.
    Never the region's 1: a kernel asking how many threads to use gets one answer whether or not another
    thread's kernel happens to be running (a kernel called from inside a task stays on its caller's thread
    by conv_kernels' own mark, not by this count)."""
    functions = _functions()
    if functions is None:
        return 1
    with _lock:
        return max(1, _region["saved"] if _region["pinned"] else int(functions[0]()))


@contextmanager
def single():
    """BLAS on one thread inside the block (and back to its count LINGER_S after the last open block ends)."""
    functions = _functions()
    if functions is None:
        yield
        return
    get, put = functions
    with _lock:
        while _region["wide"]:  # another thread's wide() GEMM runs at BLAS's count: let it finish
            _wait()
        if _region["depth"] == 0 and not _region["pinned"]:
            _region["saved"] = int(get())
            if _region["saved"] != 1:
                put(1)
                _region["pinned"] = True
        _region["depth"] += 1
    _thread.depth = getattr(_thread, "depth", 0) + 1
    try:
        yield
    finally:
        _thread.depth -= 1
        with _lock:
            _region["depth"] -= 1
            if _region["depth"] == 0 and _region["pinned"]:
                _region["until"] = time.monotonic() + LINGER_S
                if _region["restorer"] is None:
                    _region["restorer"] = threading.Thread(target=_restore_later, name="tinytf-blas-restore",
                                                           daemon=True)
                    _region["restorer"].start()
            if _region["depth"] == 0 and (_region["waiting"] or _region["wake"] > _region["until"]):
                # the restorer (unpinned before, or asleep past the new end: LINGER_S was made shorter), and
                # wide() blocks waiting for the regions to end
                _changed.notify_all()


@contextmanager
def wide():
    """BLAS at its own count inside the block: other threads' single() regions are waited for (and new ones
    held off until the block ends), and a lingering one-thread count is given back. Inside a single() region
    of this thread, BLAS stays at one thread (waiting for the region to end would wait forever)."""
    functions = _functions()
    if functions is None or getattr(_thread, "depth", 0):
        yield
        return
    with _lock:
        while _region["depth"]:
            _wait()
        _restore_locked()
        _region["wide"] += 1
    try:
        yield
    finally:
        with _lock:
            _region["wide"] -= 1
            if not _region["wide"] and _region["waiting"]:
                _changed.notify_all()


def matmul(a, b, out=None):
    """np.matmul(a, b, out=out) with BLAS's thread count a function of the shapes (see the module's doc)."""
    if a.ndim < 2 or b.ndim < 2 or a.dtype.char not in "fdFD":  # no BLAS GEMM for these
        return np.matmul(a, b, out=out)
    size = a.shape[-2] * a.shape[-1] * b.shape[-1]
    if size <= THREADED_MAX:
        return np.matmul(a, b, out=out)
    with single() if size < WIDE_MIN else wide():
        return np.matmul(a, b, out=out)


def restore() -> None:
    """BLAS back to its count now, if it lingers at one thread after a region (no region may be open)."""
    with _lock:
        _restore_locked()


def _restore_locked():
    if _region["pinned"] and _region["depth"] == 0:
        _functions()[1](_region["saved"])
        _region["pinned"] = False


def _wait():
    """Wait (holding _lock) until a region or wide block ends. Counted: the ends notify only when someone
    waits so, because on a loaded machine waking a thread can cost the notifier its time slice (measured: 2-3 ms
    per conv kernel at load 9, when every region's end woke the restorer). The restorer's timed wait for the
    linger's end is not counted: it wakes by itself and looks at the (possibly later) end again."""
    _region["waiting"] += 1
    try:
        _changed.wait()
    finally:
        _region["waiting"] -= 1


def _restore_later():
    """The restorer thread: gives BLAS its count back once LINGER_S has passed with no region open. While BLAS
    is pinned it only sleeps with a timeout (looking again every LINGER_S while a region is open), so region
    ends need not wake it; unpinned, it waits, counted, for the next region's end."""
    with _lock:
        while True:
            if not _region["pinned"]:
                _wait()
                continue
            left = LINGER_S if _region["depth"] else _region["until"] - time.monotonic()
            if left > 0:
                _region["wake"] = time.monotonic() + left
                _changed.wait(left)
                continue
            _restore_locked()


def _after_fork_in_child():
    """A forked child has no restorer thread: give BLAS its count back now, and start one when needed."""
    global _lock, _changed
    _lock = threading.Lock()
    _changed = threading.Condition(_lock)
    _region["restorer"] = None
    _region["depth"] = 0
    _region["wide"] = 0
    _region["waiting"] = 0
    _thread.depth = 0
    if _region["pinned"] and _functions() is not None:
        _functions()[1](_region["saved"])
    _region["pinned"] = False


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
