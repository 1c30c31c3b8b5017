"""Sums a while loop accumulates, computed in batches: the ops the `loop_accumulation` pass
(passes/loop_accumulation.py) puts in place of `acc = acc + matmul(a, b)` and `acc = acc + reduce_sum(x)`.

A loop that adds one small matrix product per iteration (the weight gradient of an RNN's backward loop:
`h_t^T @ dz_t`, 32 rows each) runs BLAS far below its speed on small operands. The sum of the products is
one product of the operands concatenated along the contracted axis, so the loop keeps the operands (by
reference) in an accumulator and the products run as a few large GEMMs: one per FLUSH_ROWS contracted rows
(after a first few smaller ones), which also bounds the memory the kept operands hold; each product after
the first is added to the total a block of columns at a time, through a small buffer. A reduce_sum's pending
operands are added elementwise and reduced once. After the loop, the total is added to the initial value.

A flush joins its operands into buffers the compiled function keeps across calls (`JoinPool`, one per accumulator
node), not into fresh arrays: the joins of a backward loop's first flushes are live at the call's peak, when
everything the forward loop saved is still alive (rnn_unroll: 363 KiB a call against hand-written numpy's 260,
with fresh joins; see docs/performance.md).

The accumulator is a loop variable made fresh before each run of the loop (like the gradient stacks), so
concurrent and re-entrant calls never share one; its join buffers are checked out of the pool for the run.
The ops are optimizer-internal: never traced by users, never differentiated (the pass runs on graphs that are
only compiled)."""

from __future__ import annotations

import itertools
import sys
import threading

import numpy as np

from .. import blas_threads, chunked
from ..registry import OpDef, register
from .tensor_array import VARIANT

# Contracted rows kept before the pending products run as one GEMM (the flushes before it grow to it: _due).
# On this machine (OpenBLAS, one thread) the LSTM step's CPU time was the same or lower with 256 rows (8 steps
# of 32) as with 1024. Its peak memory is at the backward loop's start, with the flushes growing from one step
# and the saved values freed as they are read (passes/stack_release.py): 6239 KiB whether 64, 128 or 256 rows
# (hand-written numpy: 6517; 6505 with 256 rows from the first flush on).
FLUSH_ROWS = 256

# The largest temporary a flush adds its product to the total through (bytes).
PARTIAL_BYTES = 64 * 1024

# Smaller left operands are joined by a copy (cheaper than finding out that they lie one after another).
ADJACENT_MIN_BYTES = 8192

# Multiply-adds from which a flush runs on the flush thread (about 0.1 ms on one core here): a hand-off costs
# tens of microseconds, more on a loaded machine; rnn_unroll's flushes (64x256 @ 256x64) stay on the caller's.
THREAD_MIN_WORK = 1 << 22

# Elements added from which a reduce_sum's flush runs on the flush thread too (the LSTM step's bias gradient:
# 8 steps of 32x512, 0.5 of its 20 ms of one-core time; rnn_unroll's 16 steps of 16x64 stay on the caller's).
SUM_THREAD_MIN_ELEMENTS = 1 << 16

# Join buffers a pool keeps for later calls (more are made while that many are in use: concurrent calls).
POOL_BUFFERS = 4

_uids = itertools.count()


def loop_matmul(a, b, out=None):
    """np.matmul for the GEMMs of a loop's batched products (flushes here, input projection blocks in
    loop_projection.py), always on one BLAS thread. They run every few iterations among the loop's small
    one-thread GEMMs; at BLAS's own count (blas_threads.matmul's choice for their size) each woke OpenBLAS's
    worker, which then spun for tens of milliseconds through the small GEMMs after it on the core the rest of
    the machine needed: the LSTM step took 449 ms of CPU against TensorFlow's 23 at load 12 with two threads,
    and 22 ms with them on one. One call site, one thread count: the bits do not depend on timing."""
    if a.dtype.char not in "fdFD":
        return np.matmul(a, b, out=out)
    with blas_threads.single():
        return np.matmul(a, b, out=out)


def new_accumulator_uid() -> int:
    """A fresh uid for a new accumulator node (common-subexpression elimination must not merge two)."""
    return next(_uids)


class JoinBuffers:
    """Flat arrays one accumulator joins its pending operands into (`a`, `b`) and adds a product through
    (`block`), grown to the largest size a flush asked for and kept by a `JoinPool` for the next call. The 2-D
    views of them a flush asks for are kept too (a loop's flushes ask for the same few shapes every call: making
    a view each time cost rnn_unroll 5% of its call)."""

    __slots__ = ("a", "b", "block", "views")

    def __init__(self):
        self.a = self.b = self.block = None
        self.views: dict = {}

    def view(self, which: str, rows: int, columns: int, dtype):
        """A C-contiguous (rows, columns) array of `dtype` in buffer `which` (reallocated when too small)."""
        key = (which, rows, columns, dtype)
        view = self.views.get(key)
        if view is None:
            flat = getattr(self, which)
            if flat is None or flat.dtype != dtype or flat.size < rows * columns:
                flat = np.empty(rows * columns, dtype)
                setattr(self, which, flat)
                self.views = {k: v for k, v in self.views.items() if k[0] != which}  # views of the old one go
            view = self.views[key] = flat[:rows * columns].reshape(rows, columns)
        return view

    @property
    def nbytes(self) -> int:
        return sum(x.nbytes for x in (self.a, self.b, self.block) if x is not None)


class JoinPool:
    """The join buffers of one accumulator node, kept across calls of its compiled function. A run of the loop
    takes buffers no one else holds (`sys.getrefcount`: a running accumulator, on any thread, holds its own), so
    concurrent and re-entrant calls never share one; the joins never escape a flush (its products are new arrays
    or are added to the total), so nothing else can hold them."""

    def __init__(self):
        self.buffers: list = []
        self._lock = threading.Lock()

    def take(self) -> JoinBuffers:
        with self._lock:  # between the check and the caller's reference no other thread may claim the buffers
            for buffers in self.buffers:
                if sys.getrefcount(buffers) <= 3:  # the list, the loop's name and getrefcount's argument
                    return buffers
            buffers = JoinBuffers()
            if len(self.buffers) < POOL_BUFFERS:
                self.buffers.append(buffers)
            return buffers

    @property
    def nbytes(self) -> int:
        return sum(b.nbytes for b in self.buffers)

    def __repr__(self):
        return f"JoinPool({len(self.buffers)} buffers, {self.nbytes} bytes)"


class Accumulator:
    """The terms of one loop's sum not yet added (`pending`), and the sum of those that were (`total`)."""

    __slots__ = ("total", "pending", "rows", "limit", "future", "buffers", "staged")

    def __init__(self, buffers=None):
        self.total = None
        self.pending = []
        self.rows = 0
        self.limit = 0  # the pending rows that make the next flush due
        self.future = None  # the last flush handed to the flush thread
        self.buffers = buffers  # JoinBuffers the flushes join into (None: fresh arrays)
        self.staged = None  # (a rows, b rows) the operands are copied into as they come, False, or None: undecided


def _in_background(acc, work, task, *args) -> None:
    """Run `task(acc, *args)` after the accumulator's earlier flushes: on the process's one flush thread when the
    flush has at least THREAD_MIN_WORK multiply-adds (or an earlier one of this accumulator went there) and tinytf
    may use a second thread (chunked.num_threads()), else now. The flushes are off the loop's critical path
    (each step's recurrence needs none of them), so on a 2-core machine they run beside the steps after them:
    the LSTM step's weight-gradient GEMMs are a third of its time. One thread runs every flush in the order
    they were handed over, so each total gets its products added in the same order: the same bits as running
    them here."""
    if acc.future is not None or (work >= THREAD_MIN_WORK and chunked.num_threads() > 1):
        acc.future = chunked.executor(1, "loop-flush").submit(task, acc, *args)
    else:
        task(acc, *args)


def _settled(acc) -> None:
    """Wait for the accumulator's flushes (re-raising what one raised)."""
    future, acc.future = acc.future, None
    if future is not None:
        future.result()


def _due(acc) -> bool:
    """Whether the pending terms run now. The first flush comes after one iteration and each next one after twice
    the rows of the last, up to FLUSH_ROWS: a backward loop's first iterations run when everything its forward
    loop saved is still alive (the call's peak), so that is where the accumulator keeps the fewest operands."""
    if acc.rows < acc.limit:
        return False
    acc.limit = min(FLUSH_ROWS, 2 * acc.rows)
    return True


def _new_kernel(*, uid, pool=None):
    return Accumulator(None if pool is None else pool.take())


def _operand(x, transposed):
    return x.T if transposed else x


def _flush_matmul(acc, transpose_a, transpose_b):
    if acc.staged:
        rows, acc.rows = acc.rows, 0
        a, b = acc.staged
        _add_product_to_total(acc, a[:rows].T, b[:rows])  # the rows a join would have made, in the same layout
        return
    terms, rows, acc.pending, acc.rows = acc.pending, acc.rows, [], 0
    columns = terms[0][1].shape[0 if transpose_b else 1]
    _in_background(acc, sum(a.size for a, _ in terms) * columns, _add_products, terms, rows, transpose_a,
                   transpose_b)


def _add_products(acc, terms, rows, transpose_a, transpose_b):
    if len(terms) == 1:
        (a, b), = terms
        terms.clear()
    else:  # sum_i a_i @ b_i == [a_0 a_1 ...] @ [b_0; b_1; ...]: concatenate along the contracted axis
        a_parts, b_parts = [t[0] for t in terms], [t[1] for t in terms]
        terms.clear()  # the kept operands are now held by the two lists alone (the caller's list is this one)
        a = _adjacent_rows(a_parts, b_parts) if transpose_a else None
        if a is None:
            a = _joined(a_parts, 0 if transpose_a else 1, rows, acc.buffers, "a")
        a_parts.clear()  # operands held nowhere else (an RNN's saved states, read once) are freed before b
        b = _joined(b_parts, 1 if transpose_b else 0, rows, acc.buffers, "b")  # is joined (docs/performance.md)
        b_parts.clear()
    _add_product_to_total(acc, _operand(a, transpose_a), _operand(b, transpose_b))


def _add_product_to_total(acc, a, b):
    if acc.total is None:
        acc.total = loop_matmul(a, b)  # a fresh array: the first product becomes the total
    else:
        _add_product(acc.total, a, b, acc.buffers)


def _joined(parts, axis, rows, buffers, which):
    """np.concatenate(parts, axis) (2-D parts whose `axis` sums to `rows`), into the accumulator's join buffer
    `which` when it has buffers: the same bits as a fresh concatenation (the parts are one node's values, one
    dtype)."""
    if buffers is None:
        return np.concatenate(parts, axis=axis)
    other = parts[0].shape[1 - axis]
    out = buffers.view(which, rows, other, parts[0].dtype) if axis == 0 else \
        buffers.view(which, other, rows, parts[0].dtype)
    return np.concatenate(parts, axis=axis, out=out)


def _adjacent_rows(a_parts, b_parts):
    """The rows of `a_parts` joined without a copy, when they lie one after another in one array (an RNN's
    `xs[t]` for consecutive t, saved states in consecutive rows of a slab stack): a view of that memory, else
    None. A backward loop hands its steps over last first; then both lists are put in the order of the memory
    (the same sum, its terms in another order)."""
    first = a_parts[0]
    base, step = first.base, first.nbytes
    if base is None or step < ADJACENT_MIN_BYTES or not first.flags.c_contiguous or first.ndim != 2:
        return None
    pointers = []
    for part in a_parts:
        if part.base is not base or part.shape != first.shape or part.dtype != first.dtype \
                or not part.flags.c_contiguous:
            return None
        pointers.append(part.__array_interface__["data"][0])
    if all(q - p == step for p, q in zip(pointers, pointers[1:])):
        start = first
    elif all(p - q == step for p, q in zip(pointers, pointers[1:])):
        a_parts.reverse()
        b_parts.reverse()
        start = a_parts[0]
    else:
        return None
    rows, columns = first.shape
    return np.lib.stride_tricks.as_strided(start, (rows * len(a_parts), columns), start.strides, writeable=False)


def _add_product(total, a, b, buffers=None):
    """total += a @ b, the product computed a block of columns at a time into one small buffer: the full
    product would be a temporary as large as the total (256 KiB for an LSTM's recurrent weight gradient),
    alive at the top of the call's memory, where the backward loop starts."""
    rows, columns = total.shape
    if total.dtype not in (np.float32, np.float64):  # matmul may answer in another dtype (bfloat16: float32)
        np.add(total, loop_matmul(a, b), out=total)
        return
    width = max(1, min(columns, PARTIAL_BYTES // (rows * total.itemsize)))
    block = np.empty((rows, width), total.dtype) if buffers is None else \
        buffers.view("block", rows, width, total.dtype)
    for start in range(0, columns, width):
        stop = min(columns, start + width)
        part = block if stop - start == width else np.empty((rows, stop - start), total.dtype)
        loop_matmul(a, b[:, start:stop], out=part)
        total[:, start:stop] += part


def _accumulate_matmul_kernel(acc, a, b, *, transpose_a, transpose_b):
    rows, k = acc.rows, a.shape[0 if transpose_a else 1]
    staged = acc.staged
    if staged is None:
        staged = acc.staged = _staging(acc, a, b, k, transpose_a, transpose_b)
    if staged:
        a_rows, b_rows = staged
        if rows + k > len(a_rows):  # (steps of one known shape always fit: the flush is due at FLUSH_ROWS)
            _flush_matmul(acc, transpose_a, transpose_b)
            rows = 0
        a_rows[rows:rows + k] = a
        b_rows[rows:rows + k] = b
    else:
        acc.pending.append((a, b))
    acc.rows = rows + k
    if _due(acc):
        _flush_matmul(acc, transpose_a, transpose_b)
    return acc


def _staging(acc, a, b, k, transpose_a, transpose_b):
    """Rows of the accumulator's join buffers to copy each iteration's operands into as they come, or False
    (the operands are kept by reference and joined at the flush). Copied, the operands die with their iteration:
    rnn_unroll's backward loop held a flush's 16 steps of states and gradients (128 KiB, at its peak) only
    for the join that copied them anyway. For `a^T @ b` (the contracted rows leading both operands: the rows
    copied in are the rows of the join) with operands a join would copy (smaller than ADJACENT_MIN_BYTES;
    larger ones may lie one after another and join as a view), and flushes small enough to run on the caller's
    thread (THREAD_MIN_WORK), so no flush reads the rows while the next iterations write them."""
    if acc.buffers is None or not transpose_a or transpose_b or a.ndim != 2 or b.ndim != 2 \
            or a.dtype != b.dtype or a.dtype.char not in "fd" or a.nbytes >= ADJACENT_MIN_BYTES:
        return False
    capacity = FLUSH_ROWS + k  # the rows pending when the flush is due are fewer
    if capacity * a.shape[1] * b.shape[1] >= THREAD_MIN_WORK:
        return False
    return acc.buffers.view("a", capacity, a.shape[1], a.dtype), acc.buffers.view("b", capacity, b.shape[1], b.dtype)


def _flush_sum(acc, axis, keepdims):
    terms = acc.pending
    acc.pending, acc.rows = [], 0
    # elementwise adds, counted as work enough for the flush thread from SUM_THREAD_MIN_ELEMENTS on
    elements = sum(np.size(x) for x in terms)
    if elements < SUM_THREAD_MIN_ELEMENTS:
        _in_background(acc, 0, _add_sum, terms, axis, keepdims)
        return
    # on the flush thread, into an array allocated here: glibc gives that thread an arena of its own, whose
    # freed top it trims, and the next call faults its pages in again
    pair = terms[:2]  # what np.add(terms[0], terms[1]) would make: their broadcast shape and result type
    added = np.empty(np.broadcast_shapes(*(np.shape(x) for x in pair)), np.result_type(*pair))
    _in_background(acc, THREAD_MIN_WORK, _add_sum, terms, axis, keepdims, added)


def _add_sum(acc, terms, axis, keepdims, added=None):
    # sum_t reduce(x_t) == reduce(sum_t x_t): the pending operands are added elementwise into one new array
    # (not stacked: that array would be as large as all of them) and reduced once; `added`, when given, is
    # that array, allocated by the caller's thread (see _flush_sum)
    if added is None:
        added = np.array(terms[0], copy=True) if len(terms) == 1 else np.add(terms[0], terms[1])
    elif len(terms) == 1:
        np.copyto(added, terms[0])
    else:
        np.add(terms[0], terms[1], out=added)
    for x in terms[2:]:
        np.add(added, x, out=added)
    terms.clear()
    partial = np.sum(added, axis=axis, keepdims=keepdims, dtype=added.dtype)
    if acc.total is None:
        acc.total = np.array(partial)  # a fresh array (np.sum may give a numpy scalar)
    else:
        np.add(acc.total, partial, out=acc.total)


def _accumulate_sum_kernel(acc, x, *, axis, keepdims):
    acc.pending.append(x)  # by reference: in an RNN the same array is also a pending matmul operand
    acc.rows += x.shape[0] if x.ndim else 1
    if _due(acc):
        _flush_sum(acc, axis, keepdims)
    return acc


def _total_matmul_kernel(acc, init, *, transpose_a, transpose_b, shape=None):
    if acc.pending or acc.rows:  # (rows: terms copied into the join buffers' rows)
        _flush_matmul(acc, transpose_a, transpose_b)
    _settled(acc)
    return _with_init(acc, init, shape)


def _total_sum_kernel(acc, init, *, axis, keepdims, shape=None):
    if acc.pending:
        _flush_sum(acc, axis, keepdims)
    _settled(acc)
    return _with_init(acc, init, shape)


def _with_init(acc, init, shape):
    """The total plus the loop variable's initial value: `init` itself, or (given `shape`) the one value of a
    fill the pass left out, so that no full array of it is alive during the loop."""
    if acc.total is None:  # the loop ran no iteration: its variable kept its initial value
        return init if shape is None else np.full(shape, init, dtype=np.asarray(init).dtype)
    total, acc.total = acc.total, None
    np.add(init, total, out=total)
    return total


def _infer_handle(*args, **attrs):
    return VARIANT, ()


def _infer_total(acc, init, *, shape=None, **attrs):
    return init.dtype, init._shape if shape is None else tuple(shape)


loop_accumulator_op = register(OpDef(
    "loop_accumulator", _new_kernel, _infer_handle, differentiable=False, foldable=False,
    doc="an empty accumulator for the sum a while loop builds (made by the loop_accumulation pass)"))
accumulate_matmul_op = register(OpDef(
    "accumulate_matmul", _accumulate_matmul_kernel, _infer_handle, differentiable=False, foldable=False,
    doc="keep one iteration's matmul operands; run the pending products as one GEMM every FLUSH_ROWS rows"))
accumulate_sum_op = register(OpDef(
    "accumulate_sum", _accumulate_sum_kernel, _infer_handle, differentiable=False, foldable=False,
    doc="keep one iteration's reduce_sum operand; add the pending ones elementwise and reduce them once"))
accumulated_matmul_op = register(OpDef(
    "accumulated_matmul", _total_matmul_kernel, _infer_total, differentiable=False, foldable=False,
    doc="the loop's initial value plus every product the accumulator was given"))
accumulated_sum_op = register(OpDef(
    "accumulated_sum", _total_sum_kernel, _infer_total, differentiable=False, foldable=False,
    doc="the loop's initial value plus every reduce_sum term the accumulator was given"))
