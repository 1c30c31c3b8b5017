"""Chunked evaluation of large fused elementwise blocks (passes/fusion_codegen.py emits the calls).

A chain of ufuncs over an array bigger than the L2 cache streams the whole array through memory once per op.
Run chunk by chunk instead (CHUNK_ELEMENTS at a time), every op of the chain works on data still in L2: on
this machine a 25-op chain over 1M float32 took 4.8 ms of CPU time in 64k-element chunks against 6.9 ms over
whole arrays, while arrays that fit in L2 (300k float32) gained nothing, hence CHUNK_MIN_BYTES.

Chunks can also run on several threads, because numpy releases the GIL inside ufuncs on numeric arrays:
the threads take chunks from one shared counter until none is left. The thread count is `num_threads()`:
`set_num_threads(n)` (tf.config.threading.set_intra_op_parallelism_threads calls it), else the smallest of
TINYTF_NUM_THREADS, OMP_NUM_THREADS and OPENBLAS_NUM_THREADS that are set, else the count numpy's BLAS runs
with (the machine's cores, as TensorFlow's intra-op pool and the convolution kernels use). Threads start only
for blocks of THREAD_MIN_ELEMENTS or more. On this project's 2-core machine the second thread halves the
1M-element chain's wall time when a core is idle (TensorFlow runs it on 2 threads: 4.7 ms against tinytf's
5.9 ms on one); under load 13 it made the call 17% slower, the threads waiting for the scheduler. Each
output element is computed by the same ufuncs whichever thread takes its chunk: the same bits on any count."""

from __future__ import annotations

import itertools
import os
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from . import blas_threads

CHUNK_ELEMENTS = 65536  # 256 KiB of float32 per operand: a chain's few live chunks stay in a 2 MiB L2
CHUNK_MIN_BYTES = 2 << 20  # blocks whose output fits in L2 run whole (chunking them measured no gain)
THREAD_MIN_ELEMENTS = 1 << 19  # below this the hand-off to a second thread costs more than it saves

_THREAD_VARIABLES = ("TINYTF_NUM_THREADS", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS")
_setting = {"requested": None}
_pool_lock = threading.Lock()
_pool: dict = {}  # (kind, worker count) -> executor


def _from_environment() -> int:
    counts = []
    for name in _THREAD_VARIABLES:
        value = os.environ.get(name, "").strip()
        if value.isdigit() and int(value) > 0:
            counts.append(int(value))
    return min(counts) if counts else 1


def num_threads() -> int:
    """Threads a chunked block may use (the calling thread included): what the user asked for, else BLAS's
    count (1 where it cannot be read: another BLAS; then os.cpu_count())."""
    requested = requested_threads()
    if requested is not None:
        return requested
    return blas_threads.count() if blas_threads.available() else (os.cpu_count() or 1)


def set_num_threads(count) -> None:
    """Use `count` threads for chunked blocks; 0 or None goes back to the environment's count."""
    _setting["requested"] = int(count) if count else None


def requested_threads():
    """The thread count the user asked for (set_num_threads or one of the environment variables), or None
    when they did not ask: kernels whose own default differs (the convolutions) then use theirs."""
    if _setting["requested"] is not None:
        return _setting["requested"]
    return _from_environment() if any(os.environ.get(n, "").strip().isdigit() for n in _THREAD_VARIABLES) else None


def executor(workers: int, kind: str = "chunk") -> ThreadPoolExecutor:
    """The process's pool of `workers` threads for one kind of kernel work (chunked blocks, convolutions),
    made on first use and kept: kinds keep pools of their own, so one kind's tasks never wait behind
    another's."""
    with _pool_lock:
        pool = _pool.get((kind, workers))
        if pool is None:
            pool = _pool[kind, workers] = ThreadPoolExecutor(workers, thread_name_prefix=f"tinytf-{kind}")
        return pool


def _forget_pools_in_child() -> None:
    """A forked child (MirroredStrategy's replica processes) has none of its parent's pool threads: a task
    submitted to an inherited executor would wait forever. It makes its own on first use."""
    global _pool_lock
    _pool_lock = threading.Lock()
    _pool.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pools_in_child)


def _run_chunks(chunk_fn, inputs, outputs, size, next_chunk, chunk):
    """Take chunk numbers from the shared counter until none is left. Sharing the chunks rather than fixed
    halves means a thread the loaded machine does not schedule delays the call by one chunk, not by half."""
    while True:
        a = next(next_chunk) * chunk  # next() on itertools.count is atomic under the GIL
        if a >= size:
            return
        b = min(a + chunk, size)
        chunk_fn(*[x if x.ndim == 0 else x[a:b] for x in inputs], *[o[a:b] for o in outputs])


def _run_chunks_under(state, *args):
    with np.errstate(**state):
        _run_chunks(*args)


def run_chunked(chunk_fn, inputs, outputs, chunk=None) -> None:
    """Compute `chunk_fn(*input chunks, *output chunks)` over the whole range of `outputs` (C-contiguous
    arrays of one size), `chunk` elements at a time (CHUNK_ELEMENTS by default; the code generator passes
    the size it compiled the chunk function for); inputs are arrays of that size or scalars."""
    chunk = chunk or CHUNK_ELEMENTS
    size = outputs[0].size
    flat_in = [np.asarray(x) for x in inputs]
    flat_in = [x if x.ndim == 0 else x.reshape(-1) for x in flat_in]  # a copy only for non-contiguous inputs
    flat_out = [o.reshape(-1) for o in outputs]
    next_chunk = itertools.count()
    threads = min(num_threads(), size // (THREAD_MIN_ELEMENTS // 2)) if size >= THREAD_MIN_ELEMENTS else 1
    if threads <= 1:
        _run_chunks(chunk_fn, flat_in, flat_out, size, next_chunk, chunk)
        return
    pool = executor(threads - 1)
    # numpy's error state lives in a context variable, and a pool thread runs in a context of its own (numpy's
    # default: it warned on overflow): helpers compute under the caller's state, tinytf's quiet one
    state = np.geterr()
    futures = [pool.submit(_run_chunks_under, state, chunk_fn, flat_in, flat_out, size, next_chunk, chunk)
               for _ in range(threads - 1)]
    try:
        _run_chunks(chunk_fn, flat_in, flat_out, size, next_chunk, chunk)
    finally:
        for f in futures:
            # a helper not started yet would find no chunk left: cancelled, it is not waited for (under load that
            # wait is a whole time slice); a started one is waited for (and its error re-raised) before the
            # outputs are used
            if not f.cancel():
                f.result()
