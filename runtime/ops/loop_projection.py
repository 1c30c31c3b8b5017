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

The projection object is made fresh before each run of the loop (like the accumulators of loop_accumulate.py),
so concurrent and re-entrant calls never share one. Ops internal to the optimizer: never traced by users,
never differentiated (the pass runs on graphs that are only compiled)."""

from __future__ import annotations

import itertools
import sys

import numpy as np

from ..registry import OpDef, register
from .loop_accumulate import loop_matmul
from .tensor_array import VARIANT

# Rows of projected input a block holds: 8 steps of the LSTM workload's batch 32, 16 of rnn_unroll's 16 (one
# 256-row GEMM ran at 92 GFLOP/s here, one thread, against 60 for 32 rows).
BLOCK_ROWS = 256

_uids = itertools.count()


def new_projection_uid() -> int:
    """A fresh uid for a new projection node (common-subexpression elimination must not merge two)."""
    return next(_uids)


class Projection:
    """One block of projected steps: steps [start, start + len(block)) of `source` times `weights`, in the rows
    of `buffer` (kept for the next block)."""

    __slots__ = ("source", "weights", "bias", "start", "block", "buffer")

    def __init__(self):
        self.source = self.weights = self.bias = self.block = self.buffer = None
        self.start = 0


def _new_kernel(*, uid):
    return Projection()


def _free_buffer(projection, rows, columns, dtype):
    """The buffer of the last block if the next block has its size and no step's row of it is still alive (a
    smaller block gets a new buffer, so that the large one goes as the loop nears its end), else None.
    A row handed out is a view of the buffer, so the buffer's reference count says whether one is: the
    projection's own reference, the block's (a view of it) and getrefcount's argument are all there are when
    none is (a row saved for a gradient, or kept by the user, keeps its block)."""
    buffer = projection.buffer
    if buffer is None or buffer.shape[0] != rows or buffer.shape[1] != columns or buffer.dtype != dtype:
        return None
    return buffer if sys.getrefcount(buffer) <= 3 else None


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
        left = t + 1 if down else steps - t  # steps from t to the end of the loop's walk
        # at most half the steps left: what the loop saves grows towards its end, where the blocks get small
        size = max(1, min(BLOCK_ROWS // max(1, source.shape[1]), (left + 1) // 2))
        start = t + 1 - size if down else t
        stop = start + size
        rows = source[start:stop]
        flat = rows.reshape(-1, rows.shape[-1])
        w = weights.T if transpose_b else weights
        projection.block = block = None  # the old block's view of the buffer goes before its count is read
        out = _free_buffer(projection, flat.shape[0], w.shape[1], np.result_type(flat, w))
        product = loop_matmul(flat, w, out=out)  # one BLAS thread, as the accumulators' flushes
        if bias is not None:  # once per block: added to one step's (batch, units) it cost 2.5x a plain add
            np.add(product, bias, out=product)
        projection.buffer = product
        projection.bias = bias
        block = product.reshape(stop - start, rows.shape[1], product.shape[-1])
        projection.source, projection.weights, projection.start, projection.block = source, weights, start, block
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

