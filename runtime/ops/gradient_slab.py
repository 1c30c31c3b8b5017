"""Gradient stacks whose elements live in buffers kept across calls: the ops the `loop_saved_slabs` pass
(passes/loop_saved_slabs.py) puts in place of a forward loop's `gradient_stack` and `gradient_stack_push`.

A recurrent loop saves, per step, the values its backward loop reads (the LSTM workload: seven 32x128 float32
arrays a step, 5.6 MB over 50 steps). As fresh arrays they grow glibc's heap during the forward loop and shrink
it during the backward loop; when glibc then trims the heap, the next call touches every page again: 900-1500
minor page faults per LSTM step. A slab stack keeps its elements in rows of chunks that belong to the compiled
function (a `SlabPool` per stack node) and are reused by the next call: the value's producer writes straight
into its row (`row(i)`, the code generator's planned buffer for it) or the push
copies it there.

Safety does not rest on an analysis of where the saved values go: a pool hands a stack to a call only if no
one else holds it or any of its chunks (`sys.getrefcount`: every view of a row holds its chunk). A stack in use
by a running call (another thread, a re-entrant call) or whose rows escaped the call that filled them (a saved
value returned, kept in a TensorArray that is returned) is left alone, and a new one is made. Reads return
views of the rows; a read releasing its element (`gradient_stack_take`) leaves the row to the stack."""

from __future__ import annotations

import itertools
import sys
import threading

import numpy as np

from ..registry import OpDef, register
from .tensor_array import VARIANT

CHUNK_BYTES = 128 * 1024  # rows are allocated in chunks of about this size (a stack wastes less than one)
POOL_STACKS = 4  # stacks a pool keeps for later calls (more are made when that many are in use or escaped)

_uids = itertools.count()


def new_slab_uid() -> int:
    """A fresh uid for a new slab stack node (common-subexpression elimination must not merge two)."""
    return next(_uids)


class SlabStack:
    """One call's stack of same-shaped values, in rows of chunks kept by its pool."""

    __slots__ = ("shape", "dtype", "per_chunk", "chunks", "length", "_row", "_row_index")

    def __init__(self, shape, dtype):
        self.shape, self.dtype = shape, dtype
        row_bytes = max(1, int(np.prod(shape, dtype=np.int64)) * dtype.itemsize)
        self.per_chunk = max(1, CHUNK_BYTES // row_bytes)
        self.chunks: list = []
        self.length = 0
        self._row = self._row_index = None  # the row last handed to a producer, not yet pushed

    def row(self, index):
        """The buffer element `index` is to be written into (its producer's `out=`)."""
        chunk, position = divmod(int(index), self.per_chunk)
        while chunk >= len(self.chunks):
            self.chunks.append(np.empty((self.per_chunk, *self.shape), self.dtype))
        row = self._row = self.chunks[chunk][position]
        self._row_index = index
        return row

    def push(self, index, value):
        """Element `index` is `value`: already there if its producer wrote it into row(index), else copied."""
        if value is not self._row or index != self._row_index:
            np.copyto(self.row(index), value, casting="unsafe")
        self._row = self._row_index = None
        if index >= self.length:
            self.length = int(index) + 1
        return self

    def __getitem__(self, index):
        chunk, position = divmod(int(index), self.per_chunk)
        return self.chunks[chunk][position]

    def take(self, index):
        """Element `index` for the backward loop's one read of it (the row stays the stack's)."""
        chunk, position = divmod(int(index), self.per_chunk)
        return self.chunks[chunk][position]

    def __setitem__(self, index, value):
        if value is not None:  # only a take's release is expected: the row stays the stack's
            raise TypeError("a slab stack's elements are written by push")

    def __len__(self):
        return self.length


class SlabPool:
    """The stacks of one slab-stack node, kept across calls of its compiled function."""

    def __init__(self, shape, dtype):
        self.shape, self.dtype = tuple(shape), np.dtype(dtype)
        self.stacks: list = []
        self._lock = threading.Lock()

    def take(self) -> SlabStack:
        with self._lock:  # between the check and the caller's reference no other thread may claim the stack
            for stack in self.stacks:
                if _free(stack):
                    stack.length = 0
                    return stack
            stack = SlabStack(self.shape, self.dtype)
            if len(self.stacks) >= POOL_STACKS:  # drop those in use or escaped: they die with their users
                self.stacks = [s for s in self.stacks if _free(s)][:POOL_STACKS - 1]
            self.stacks.append(stack)
            return stack

    @property
    def nbytes(self) -> int:
        return sum(c.nbytes for s in self.stacks for c in s.chunks)

    def __repr__(self):
        return f"SlabPool({self.dtype.name}{list(self.shape)})"


def _observed(stack) -> tuple:
    """(references to the stack, the most references to one of its chunks)."""
    return sys.getrefcount(stack), max((sys.getrefcount(c) for c in stack.chunks), default=0)


def _free(stack) -> bool:
    """Whether no call holds `stack` and no view of its rows outlived the call that filled them (called as
    SlabPool.take calls it: the pool's list and the loop's variable hold the stack)."""
    count, chunk_count = _observed(stack)
    return count <= _FREE[0] and chunk_count <= _FREE[1]


def _baseline() -> tuple:
    # the counts of a stack nobody else holds, seen as take sees them (a list, a loop variable, one call between
    # the loop and _observed): measured rather than assumed, so that an interpreter counting otherwise cannot
    # make a busy stack look free
    stacks = [SlabStack((1,), np.dtype(np.float32))]
    stacks[0].push(0, np.zeros(1, np.float32))
    for stack in stacks:
        return _as_free_sees(stack)


def _as_free_sees(stack) -> tuple:
    return _observed(stack)


_FREE = _baseline()


def _new_kernel(*, uid, pool):
    return pool.take()


def _push_kernel(stack, index, value):
    return stack.push(index, value)


def _infer_stack(*args, **attrs):
    return VARIANT, ()


slab_stack_op = register(OpDef(
    "gradient_slab_stack", _new_kernel, _infer_stack, differentiable=False, foldable=False,
    doc="an empty gradient stack whose elements live in rows kept across calls (made by the loop_saved_slabs "
        "pass)"))
slab_push_op = register(OpDef(
    "gradient_slab_push", _push_kernel, _infer_stack, differentiable=False, foldable=False,
    render="{0}.push({1}, {2})",
    doc="push one iteration's value into its row (written there by its producer, or copied)"))
