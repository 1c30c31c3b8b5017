"""sum(x * x) over every element without making x * x: numpy's own pairwise sum, leaf by leaf, in cache.

`reduce_sum(y * y)` (a squared-error loss, l2_loss) writes y * y to memory as a new array (4 MB for the
depthwise workload's output, fresh every call) and reads it back for the sum: three streams of y's size
where one would do. numpy sums a contiguous float32/float64 array by pairwise summation: a run of n > 128
values is split at n / 2 rounded down to a multiple of 8 and the two halves' sums are added, recursively.
Here the same split is walked down to runs of at most LEAF_ELEMENTS; each leaf run is squared into a
thread's L2-sized buffer and summed by np.sum (which walks the same tree below it), and the leaves' sums are
added back up the tree in its order. Every float addition is the one np.sum(x * x) makes: the same bits
(tests/test_sum_of_squares.py checks it against np.sum over sizes that end on every split).

What it saves is memory more than time: 1M float32, 1 thread, load 8, CPU minimum of 30 x 5 calls: 0.53 ms
for np.sum(x * x), 0.45 ms here (leaves of 32k values: 0.74 ms, the calls per leaf cost more than the cache
saves), and no 4 MB temporary. Two threads over the leaves measured slower under load (0.67 ms CPU, twice
the wall time): one thread it is.

Other dtypes, non-contiguous arrays and small arrays (whose x * x stays in cache) take np.sum(x * x)."""

from __future__ import annotations

import threading

import numpy as np

from ..registry import OpDef, register
from .thread_buffers import workspace

LEAF_ELEMENTS = 262144  # 1 MiB of float32: in L2 (2 MiB) while np.sum reads it; fewer leaves cost calls
MIN_ELEMENTS = 1 << 17  # below 512 KiB of float32, x * x is cache-resident: the plain way costs as little

_local = threading.local()


def sum_of_squares(x):
    """np.sum(x * x, dtype=x.dtype), bit for bit, without the full-size x * x (the module's docstring)."""
    x = np.asarray(x)
    if x.dtype not in (np.float32, np.float64) or x.size < MIN_ELEMENTS or not x.flags.c_contiguous:
        return np.sum(x * x, dtype=x.dtype)
    flat = x.reshape(-1)
    leaves: list = []
    tree = _split(0, flat.size, leaves)
    square = workspace(_local, "square", (min(LEAF_ELEMENTS, flat.size),), flat.dtype)
    sums = []
    for lo, n in leaves:
        part = square[:n]
        np.multiply(flat[lo:lo + n], flat[lo:lo + n], out=part)
        sums.append(np.sum(part, dtype=flat.dtype))
    return _combine(tree, sums)


def _split(lo, n, leaves):
    """numpy's pairwise tree over flat[lo:lo + n] cut at runs of at most LEAF_ELEMENTS: a leaf's index into
    `leaves`, or (left, right)."""
    if n <= LEAF_ELEMENTS:
        leaves.append((lo, n))
        return len(leaves) - 1
    half = n // 2
    half -= half % 8
    return _split(lo, half, leaves), _split(lo + half, n - half, leaves)


def _combine(tree, sums):
    if isinstance(tree, int):
        return sums[tree]
    return _combine(tree[0], sums) + _combine(tree[1], sums)  # numpy scalars: the dtype's own addition


def _kernel(x):
    return sum_of_squares(x)


def _infer(x):
    if x.dtype.name not in ("float32", "float64"):
        raise TypeError(f"sum_of_squares: x must be float32 or float64, got {x.dtype.name}")
    return x.dtype, ()


sum_of_squares_op = register(OpDef(
    "sum_of_squares", _kernel, _infer, differentiable=False,
    doc="reduce_sum(x * x) over all axes without making x * x, bit for bit (made by the sum_of_squares pass "
        "after differentiation, so it is never differentiated itself)"))
