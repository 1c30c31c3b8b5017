"""Input projections over time, computed a block of steps at a time: the ops the `recurrent_projection` pass
(passes/recurrent_projection.py) puts in place of `matmul(xs[t], w)` in a while loop where `xs` and `w` do not
change.

An RNN's step multiplies its input at step t by the input weights (`xs[t] @ wx`: 32 rows in the LSTM
workload), where BLAS runs far below its speed; cuDNN and Keras compute the projection of every step as one
GEMM before the loop. All steps at once would keep T steps of projections alive during the loop (3.2 MB for the
LSTM workload, on top of what the forward pass saves for its gradient), so the projection runs a block of
BLOCK_ROWS rows (whole steps) at a time, the block starting at the step asked for and running in the loop's
direction: the first step of a block computes it, the next steps read their rows from it. A block covers at most
half the steps left, so the blocks shrink where what the loop saves for its gradient is largest (the last
steps of the forward loop) and the projection adds little to the call's peak.

When a block is large (PREFETCH_MIN_WORK multiply-adds) and tinytf may use a second thread, the block after it
(the next one in the loop's direction) is computed on the loop-flush thread (loop_accumulate.py) while the loop
runs the steps of this one: the projection leaves the loop's critical path for the second core (an LSTM step's
forward loop: 2 of its 20 ms of one-core CPU time). The prefetched block has the size and shape the step that
starts it would have computed, on the same single BLAS thread: the same bits. A loop that turns back or stops
early leaves a prefetched block unused (its GEMM done for nothing, on the other core).

The projection object is made fresh before each run of the loop (like the accumulators of loop_accumulate.py),
so concurrent and re-entrant calls never share one. Ops internal to the optimizer: never traced by users,
never differentiated (the pass runs on graphs that are only compiled)."""

from __future__ import annotations

import itertools
import sys

import numpy as np

from .. import chunked
from ..registry import OpDef, register
from .loop_accumulate import loop_matmul
from .tensor_array import VARIANT

# Rows of projected input a block holds: 8 steps of the LSTM workload's batch 32, 16 of rnn_unroll's 16 (one
# 256-row GEMM ran at 92 GFLOP/s here, one thread, against 60 for 32 rows).
BLOCK_ROWS = 256

# Multiply-adds from which the next block is computed ahead on the loop-flush thread: the LSTM step's blocks
# down to its 3-step ones (96x64 @ 64x512, 3M); rnn_unroll's and rnn_forward's (256x32 @ 32x64, 0.5M) stay on
# the caller's (a hand-off costs tens of microseconds).
PREFETCH_MIN_WORK = 1 << 20

# Whether a block whose task the flush thread has not started when the loop reaches it is computed by the loop
# (False: always waited for; the tests that follow blocks onto that thread set it).
CANCEL_UNSTARTED = True

_uids = itertools.count()


def new_projection_uid() -> int:
    """A fresh uid for a new projection node (common-subexpression elimination must not merge two)."""
    return next(_uids)


class Projection:
    """One block of projected steps: steps [start, start + len(block)) of `source` times `weights`, in the rows
    of `buffer` (kept for the next block)."""

    __slots__ = ("source", "weights", "bias", "start", "block", "buffer", "spare", "ahead")

    def __init__(self):
        self.source = self.weights = self.bias = self.block = self.buffer = self.spare = None
        self.start = 0
        self.ahead = None  # (start, stop, future of the product) of the block after this one, being computed


def _block_bounds(steps, t, down, rows_per_step):
    """[start, stop) of the block starting at step t walking down (or up): at most half the steps left, where
    what the loop saves grows towards its end and the blocks get small."""
    left = t + 1 if down else steps - t  # steps from t to the end of the loop's walk
    size = max(1, min(BLOCK_ROWS // max(1, rows_per_step), (left + 1) // 2))
    start = t + 1 - size if down else t
    return start, start + size


def _product(source, weights, bias, transpose_b, start, stop, out):
    """source[start:stop] @ weights (+ bias) as one GEMM of (stop - start) * batch rows, into `out` if given."""
    rows = source[start:stop]
    flat = rows.reshape(-1, rows.shape[-1])
    w = weights.T if transpose_b else weights
    product = loop_matmul(flat, w, out=out)  # one BLAS thread, as the accumulators' flushes
    if bias is not None:  # once per block: added to one step's (batch, units) it cost 2.5x a plain add
        np.add(product, bias, out=product)
    return product


def _new_kernel(*, uid):
    return Projection()


def _free_buffer(projection, which, rows, columns, dtype):
    """The projection's buffer `which` ("buffer": the last block's, "spare": the one before) if it has the
    size of the block to compute and no step's row of it is still alive (a smaller block gets a new buffer, so
    that the large one goes as the loop nears its end), else None.
    A row handed out is a view of the buffer, so the buffer's reference count says whether one is: the
    projection's own reference, the local name and getrefcount's argument are all there are when none is (a
    row saved for a gradient, or kept by the user, keeps its block)."""
    buffer = getattr(projection, which)
    if buffer is None or buffer.shape[0] != rows or buffer.shape[1] != columns or buffer.dtype != dtype:
        return None
    return buffer if sys.getrefcount(buffer) <= 3 else None


def _out_for(projection, source, weights, start, stop, transpose_b, which):
    """A buffer of the projection's to compute steps [start, stop) into, or None (see _free_buffer)."""
    rows = (stop - start) * source.shape[1]
    columns = weights.shape[0 if transpose_b else 1]
    return _free_buffer(projection, which, rows, columns, np.result_type(source, weights))


def _prefetch(projection, source, weights, bias, transpose_b, down):
    """Start computing the block after the current one on the loop-flush thread, when it is large enough."""
    steps = source.shape[0]
    edge = projection.start - 1 if down else projection.start + len(projection.block)
    if not 0 <= edge < steps:
        projection.spare = None  # (kept no longer than the block it was freed for: the call's peak is near)
        return
    start, stop = _block_bounds(steps, edge, down, source.shape[1])
    work = (stop - start) * int(np.prod(source.shape[1:], dtype=np.int64)) * weights.shape[0 if transpose_b else 1]
    if work < PREFETCH_MIN_WORK or chunked.num_threads() < 2:
        projection.spare = None
        return
    out = _out_for(projection, source, weights, start, stop, transpose_b, "spare")
    projection.spare = None  # the buffer is the task's until its block is taken
    if out is None:  # allocated here, not by the flush thread: glibc gives that thread an arena of its own,
        # whose freed top it trims, and the next call faults the pages in again (~90 a call)
        out = np.empty(((stop - start) * source.shape[1], weights.shape[0 if transpose_b else 1]),
                       np.result_type(source, weights))
    future = chunked.executor(1, "loop-flush").submit(_product, source, weights, bias, transpose_b, start, stop, out)
    projection.ahead = (start, stop, future)


def _project_kernel(projection, source, weights, index, bias=None, *, transpose_b):
    steps = source.shape[0]
    t = int(index)
    if t < 0:
        t += steps
    if not 0 <= t < steps:
        return source[index]  # out of range: the slice's own error, as `source[index] @ weights` would give
    block = projection.block
    if (block is None or projection.source is not source or projection.weights is not weights
            or projection.bias is not bias or not projection.start <= t < projection.start + len(block)):
        down = block is not None and t < projection.start  # the block runs in the loop's direction
        same = projection.source is source and projection.weights is weights and projection.bias is bias
        ahead, projection.ahead = projection.ahead, None
        projection.block = block = None  # the old block's view of the buffer goes before its count is read
        if ahead is not None and same and t == (ahead[1] - 1 if down else ahead[0]) \
                and not (CANCEL_UNSTARTED and ahead[2].cancel()):
            # the block computed ahead, once its task has run; a task the flush thread has not started yet (busy
            # with another call's flushes, or not scheduled on a loaded machine) is cancelled and the block
            # computed here: waiting for a thread's wake-up can cost more than the GEMM
            start, stop = ahead[0], ahead[1]
            product = ahead[2].result()
        else:  # a block computed ahead for nothing (the loop turned back or jumped) is left to its task: its
            # buffer is the task's alone
            start, stop = _block_bounds(steps, t, down, source.shape[1])
            out = _out_for(projection, source, weights, start, stop, transpose_b, "buffer")
            product = _product(source, weights, bias, transpose_b, start, stop, out)
        projection.spare, projection.buffer = projection.buffer, product
        projection.bias = bias
        block = product.reshape(stop - start, source.shape[1], product.shape[-1])
        projection.source, projection.weights, projection.start, projection.block = source, weights, start, block
        _prefetch(projection, source, weights, bias, transpose_b, down)
    return block[t - projection.start]


def _infer_projection(*args, **attrs):
    return VARIANT, ()


def _infer_projected(projection, source, weights, index, bias=None, *, transpose_b):
    dtype = source.dtype
    columns = weights._shape[0 if transpose_b else 1] if weights._shape is not None else None
    batch = source._shape[1] if source._shape is not None else None
    return dtype, (batch, columns)


loop_projection_op = register(OpDef(
    "loop_projection", _new_kernel, _infer_projection, differentiable=False, foldable=False,
    doc="an empty block of projected steps for one run of a loop (made by the recurrent_projection pass)"))
project_step_op = register(OpDef(
    "project_step", _project_kernel, _infer_projected, differentiable=False, foldable=False,
    doc="source[index] @ weights (+ bias), read from a block of steps projected by one GEMM"))

