"""TF1's conditional accumulators (tf.compat.v1.ConditionalAccumulator / SparseConditionalAccumulator): gradients
applied with a local step are summed unless stale (local step behind the accumulator's global step); take_grad
waits for `num_required` of them, returns their mean (or sum), resets, and advances the global step. The
accumulator is a `Resource` (tinytf/compat/v1/accumulators.py) with one state per Session; the kernels call:

    acc._apply(local_step, grad)                      acc._apply_sparse(local_step, indices, values, shape)
    acc._take(num_required) -> value                  acc._take_sparse(num_required) -> (indices, values, shape)
    acc._num_accumulated() -> int                     acc._set_global_step(step)

None has a gradient (TF registers none: they are the plumbing of synchronous replicas)."""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..registry import OpDef, register


def _no_output(*args, **attrs):
    return None


accumulator_apply_gradient_op = register(OpDef(
    "accumulator_apply_gradient", lambda acc, step, grad: acc._apply(int(step), grad), _no_output, stateful=True,
    differentiable=False, foldable=False, doc="add a gradient unless stale (TF's ResourceAccumulatorApplyGradient)"))

sparse_accumulator_apply_gradient_op = register(OpDef(
    "sparse_accumulator_apply_gradient",
    lambda acc, step, indices, values, shape: acc._apply_sparse(int(step), indices, values, shape), _no_output,
    stateful=True, differentiable=False, foldable=False,
    doc="add the rows of a sparse gradient unless stale (TF's SparseAccumulatorApplyGradient)"))

accumulator_take_gradient_op = register(OpDef(
    "accumulator_take_gradient", lambda acc, n, *, dtype, shape: acc._take(int(n)),
    lambda acc, n, *, dtype, shape: (dtype, shape), stateful=True, differentiable=False, foldable=False,
    doc="wait for n gradients, give their mean or sum (TF's ResourceAccumulatorTakeGradient)"))

sparse_accumulator_take_gradient_op = register(OpDef(
    "sparse_accumulator_take_gradient", lambda acc, n, *, dtype, rank: acc._take_sparse(int(n)),
    lambda acc, n, *, dtype, rank: [(dtypes.int64, (None,)), (dtype, None), (dtypes.int64, (rank,))],
    stateful=True, differentiable=False, foldable=False,
    doc="wait for n sparse gradients, give the rows' means or sums (TF's SparseAccumulatorTakeGradient)"))

accumulator_num_accumulated_op = register(OpDef(
    "accumulator_num_accumulated", lambda acc: np.int32(acc._num_accumulated()), lambda acc: (dtypes.int32, ()),
    stateful=True, differentiable=False, foldable=False,
    doc="how many gradients wait in an accumulator (TF's ResourceAccumulatorNumAccumulated)"))

accumulator_set_global_step_op = register(OpDef(
    "accumulator_set_global_step", lambda acc, step: acc._set_global_step(int(step)), _no_output, stateful=True,
    differentiable=False, foldable=False,
    doc="set an accumulator's global step (TF's ResourceAccumulatorSetGlobalStep)"))
