"""Cheaper ufunc calls for fused elementwise blocks, same bits (the `elementwise_tuning` pass's switch).

A fused block is a run of ufunc calls; at 10k float32 elements a call's fixed cost (about 1 us) is a fifth of
the chain's time, and a few of the calls take slow paths that an equivalent call avoids. Measured here per
call on 10k elements (numpy 2.4, AVX2, CPU time):
- `np.maximum(x, 0.0)` 6-10 us, `np.maximum(x, zeros)` 2-3 us: numpy's SIMD loop for maximum/minimum only
  takes two contiguous arrays, a scalar operand (stride 0) falls to the element-by-element loop. The same
  holds for float64 and the integer types (float16 gains nothing). So a literal operand of maximum/minimum
  becomes a read-only array filled with it (`filled`), of the operand's size, shared by every block using
  that value; the result is the same ufunc on the same values, the same bits (NaN and signed zeros too:
  tests/test_fusion_tuning.py checks them).
- `np.reciprocal(x)` 3.5 us, `np.divide(1, x)` 2.5 us on float32: both compute 1/x correctly rounded (the
  same bits: float16 checked on all 65,536 values), reciprocal has no SIMD loop. Real floats only (integer
  reciprocal truncates; complex reciprocal uses another formula).
- The chunk function of a large block (runtime/chunked.py) computes its intermediates in its output's chunk
  when the output is written last, instead of allocating a temporary per chunk: one chunk less in L2 and no
  allocation (1M float32 chain, one thread: 11.2 -> 9.9 ms CPU at load 5).
The pass only marks the graph; passes/fusion_codegen.py reads the mark through the code generator."""

from __future__ import annotations

import os
import threading

import numpy as np

# maximum/minimum get a filled array for a literal operand in these dtypes (float16 measured no gain, bool's
# maximum is `or`)
_FILLED_TYPES = {np.dtype(t) for t in (np.float32, np.float64, np.int8, np.int16, np.int32, np.int64, np.uint8,
                                       np.uint16, np.uint32, np.uint64)}
_FILLED_UFUNCS = {"maximum", "minimum"}
_REAL_FLOATS = {"float16", "float32", "float64"}

_filled_lock = threading.Lock()
_filled: dict = {}  # (dtype str, value bytes) -> the largest read-only 1-D array made for that value


def _new_lock_in_child() -> None:
    """A child forked while another thread held the lock would wait for it forever (as runtime/chunked.py's
    pools): it gets a lock of its own; the arrays it inherits stay valid."""
    global _filled_lock
    _filled_lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_new_lock_in_child)


def mark_for_tuning(graph):
    graph.tune_elementwise = True
    return graph


def tuned_plan(step, plan):
    """The plan of ufunc calls `plan` [(ufunc name, args)] for `step`, with reciprocal as a division."""
    if step.dtype.name not in _REAL_FLOATS:
        return plan
    return [("divide", (1,) + args) if name == "reciprocal" else (name, args) for name, args in plan]


# the largest filled array made: a block bigger than this (not chunked: broadcasting inside it) keeps the
# scalar rather than hold a copy of its size for as long as the process runs
FILLED_MAX_BYTES = 1 << 20


def fills_literal(ufunc_name, dtype, size) -> bool:
    """Whether a literal operand of this ufunc in a step of `dtype` over `size` elements is better passed as
    a filled array."""
    dtype = np.dtype(dtype.np)
    return ufunc_name in _FILLED_UFUNCS and dtype in _FILLED_TYPES and size * dtype.itemsize <= FILLED_MAX_BYTES


def filled(value, dtype, size: int) -> np.ndarray:
    """A read-only array of `size` elements of `dtype` (a numpy dtype), each `value`; slices of one array
    per value, grown when a larger one is asked for (arrays handed out before keep the old one alive)."""
    value = np.asarray(value).astype(dtype)
    key = (value.dtype.str, value.tobytes())
    with _filled_lock:
        base = _filled.get(key)
        if base is None or base.size < size:
            base = np.full(size, value, dtype)
            base.setflags(write=False)
            _filled[key] = base
    return base[:size]
