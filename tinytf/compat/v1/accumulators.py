"""`tf.compat.v1.ConditionalAccumulator` and `SparseConditionalAccumulator`, as TF1's synchronous replicas use
them: `apply_grad(grad, local_step)` adds a gradient unless it is stale (its local step behind the
accumulator's global step); `take_grad(n)` waits until n gradients are in, gives their mean ("MEAN", per row
for sparse ones) or sum ("SUM"), empties the accumulator and advances its global step. Each Session has its own
accumulator state, as TF's resource of a Session (the ops: runtime/ops/accumulator.py)."""

from __future__ import annotations

import collections
import threading
import weakref

import numpy as np

from tinytf.runtime import dtypes as _dtypes
from tinytf.runtime.dispatch import apply, convert_to_tensor
from tinytf.runtime.errors import CancelledError, InvalidArgumentError
from tinytf.runtime.ops import accumulator as ops
from tinytf.runtime.ops.math import cast
from tinytf.runtime.resource import Resource
from tinytf.runtime.shapes import TensorShape
from tinytf.runtime.tensor import Tensor

from ...indexed_slices import IndexedSlices
from ...queue.session_state import current_key
from ...queue.waiting import wait_until
from .graph import get_default_graph
from .ops import Operation, last_op

SparseAccumulatorTakeGradient = collections.namedtuple("SparseAccumulatorTakeGradient", ["indices", "values", "shape"])


class _State:
    def __init__(self):
        self.global_step = 0
        self.count = 0
        self.total = None  # dense: the sum; sparse: {row index: [sum of rows, times applied]}


class ConditionalAccumulatorBase(Resource):
    """What both accumulators share: dtype, shape, the per-Session state, num_accumulated, set_global_step."""

    _graph_name = "accumulator"
    _shape = ()

    def __init__(self, dtype, shape, accumulator_ref=None, name=None, reduction_type="MEAN"):
        if reduction_type not in ("MEAN", "SUM"):
            raise ValueError(f"Attr 'reduction_type' of 'ResourceConditionalAccumulator' Op passed string "
                             f"'{reduction_type}' not in: \"MEAN\", \"SUM\".")
        self._dtype = _dtypes.as_dtype(dtype)
        self._value_shape = TensorShape(shape)
        self._reduction = reduction_type
        self._name = name
        self._states = weakref.WeakKeyDictionary()
        self._cond = threading.Condition()

    @property
    def dtype(self):
        """The gradients' dtype (a graph captures the accumulator itself as a resource placeholder)."""
        return self._dtype

    @property
    def accumulator_ref(self):
        return self

    @property
    def name(self):
        return self._name

    def _state(self) -> _State:
        key = current_key()
        state = self._states.get(key)
        if state is None:
            state = self._states[key] = _State()
        return state

    def num_accumulated(self, name=None):
        return apply(ops.accumulator_num_accumulated_op, [self], name=name or "num_accumulated")

    def set_global_step(self, new_global_step, name=None):
        step = cast(convert_to_tensor(new_global_step), _dtypes.int64)
        apply(ops.accumulator_set_global_step_op, [self, step], name=name or "set_global_step")
        return Operation(last_op(get_default_graph()))

    # --- the kernels' protocol --------------------------------------------------------------------------
    def _num_accumulated(self) -> int:
        with self._cond:
            return self._state().count

    def _set_global_step(self, step: int) -> None:
        with self._cond:
            self._state().global_step = step

    def _wait_for(self, num_required: int) -> _State:
        if num_required < 1:
            raise InvalidArgumentError(f"Argument num_required must be positive, but was {num_required}")
        session = current_key()  # a take blocked in a Session's thread ends when that Session closes
        wait_until(self._cond, lambda: self._state().count >= num_required or getattr(session, "_closed", False))
        if getattr(session, "_closed", False):
            raise CancelledError("the Session running AccumulatorTakeGradient was closed")
        return self._state()

    def _fresh(self, state, local_step) -> bool:
        return local_step >= state.global_step

    def _check_shape(self, shape):
        if not self._value_shape.is_compatible_with(TensorShape(list(shape))):
            raise InvalidArgumentError(f"Shape mismatch: expected {self._value_shape}, got {TensorShape(list(shape))}")


class ConditionalAccumulator(ConditionalAccumulatorBase):
    """Averages (or sums) dense gradients of one shape."""

    def __init__(self, dtype, shape=None, shared_name=None, name="conditional_accumulator", reduction_type="MEAN"):
        super().__init__(dtype, shape, None, name, reduction_type)

    def apply_grad(self, grad, local_step=0, name=None):
        """An op adding `grad` unless `local_step` is behind the global step."""
        if isinstance(grad, Tensor) and grad.dtype != self._dtype:
            raise ValueError(f"Tensor conversion requested dtype {self._dtype.name} for Tensor with dtype "
                             f"{grad.dtype.name}: {grad!r}")
        grad = convert_to_tensor(grad, dtype=self._dtype)
        grad.shape.assert_is_compatible_with(self._value_shape)
        step = cast(convert_to_tensor(local_step), _dtypes.int64)
        apply(ops.accumulator_apply_gradient_op, [self, step, grad], name=name or "AccumulatorApplyGradient")
        return Operation(last_op(get_default_graph()))

    def take_grad(self, num_required, name=None):
        """The mean (or sum) of `num_required` gradients, once that many are in."""
        shape = None if self._value_shape.rank is None else tuple(self._value_shape.as_list())
        return apply(ops.accumulator_take_gradient_op, [self, convert_to_tensor(num_required, _dtypes.int32)],
                     {"dtype": self._dtype, "shape": shape}, name=name or "AccumulatorTakeGradient")

    def _apply(self, local_step, grad):
        grad = np.asarray(grad)
        with self._cond:
            state = self._state()
            if not self._fresh(state, local_step):
                return
            self._check_shape(grad.shape)
            if state.total is not None and state.total.shape != grad.shape:
                raise InvalidArgumentError(f"Shape mismatch: expected {list(state.total.shape)}, got "
                                           f"{list(grad.shape)}")
            state.total = grad.copy() if state.total is None else state.total + grad
            state.count += 1
            self._cond.notify_all()

    def _take(self, num_required):
        with self._cond:
            state = self._wait_for(num_required)
            total = state.total
            out = total / state.count if self._reduction == "MEAN" else total
            state.total, state.count = None, 0
            state.global_step += 1
            return np.asarray(out, dtype=self._dtype.np)


class SparseConditionalAccumulator(ConditionalAccumulatorBase):
    """Averages (or sums) sparse gradients (IndexedSlices) row by row: a row's mean is over the gradients that
    had that row."""

    def __init__(self, dtype, shape=None, shared_name=None, name="sparse_conditional_accumulator",
                 reduction_type="MEAN"):
        super().__init__(dtype, shape, None, name, reduction_type)

    def apply_indexed_slices_grad(self, grad, local_step=0, name=None):
        return self.apply_grad(grad.indices, grad.values, grad.dense_shape, local_step, name)

    def apply_grad(self, grad_indices, grad_values, grad_shape=None, local_step=0, name=None):
        """An op adding the rows `grad_values` at `grad_indices` unless `local_step` is stale."""
        indices = cast(convert_to_tensor(grad_indices), _dtypes.int64)
        values = convert_to_tensor(grad_values, dtype=self._dtype)
        if grad_shape is None:
            shape = convert_to_tensor(np.zeros([0], np.int64))
        else:
            shape = cast(convert_to_tensor(grad_shape), _dtypes.int64)
        step = cast(convert_to_tensor(local_step), _dtypes.int64)
        apply(ops.sparse_accumulator_apply_gradient_op, [self, step, indices, values, shape],
              name=name or "SparseAccumulatorApplyGradient")
        return Operation(last_op(get_default_graph()))

    def take_grad(self, num_required, name=None):
        """(indices, values, shape) of the rows' means (or sums), once `num_required` gradients are in."""
        rank = self._value_shape.rank
        out = apply(ops.sparse_accumulator_take_gradient_op, [self, convert_to_tensor(num_required, _dtypes.int32)],
                    {"dtype": self._dtype, "rank": rank}, name=name or "SparseAccumulatorTakeGradient")
        return SparseAccumulatorTakeGradient(*out)

    def take_indexed_slices_grad(self, num_required, name=None):
        taken = self.take_grad(num_required, name)
        return IndexedSlices(indices=taken.indices, values=taken.values, dense_shape=taken.shape)

    def _apply_sparse(self, local_step, indices, values, shape):
        values = np.asarray(values)
        with self._cond:
            state = self._state()
            if not self._fresh(state, local_step):
                return
            if len(shape):
                self._check_shape(shape)
            self._check_shape([None, *values.shape[1:]])
            rows = state.total if state.total is not None else {}
            for index, row in zip(np.asarray(indices).tolist(), values):
                entry = rows.get(index)
                if entry is None:
                    rows[index] = [row.copy(), 1]
                else:
                    entry[0] = entry[0] + row
                    entry[1] += 1
            state.total = rows
            state.count += 1
            state.shape = np.asarray(shape, np.int64) if len(shape) else getattr(state, "shape", None)
            self._cond.notify_all()

    def _take(self, num_required):  # not used: a sparse accumulator is taken by rows
        raise InvalidArgumentError("a SparseConditionalAccumulator is taken with take_grad / take_indexed_slices_grad")

    def _take_sparse(self, num_required):
        with self._cond:
            state = self._wait_for(num_required)
            rows = state.total or {}
            order = sorted(rows)
            width = list(self._value_shape.as_list()[1:]) if self._value_shape.rank else []
            values = np.stack([rows[i][0] / rows[i][1] if self._reduction == "MEAN" else rows[i][0] for i in order]) \
                if order else np.zeros([0, *width])
            shape = getattr(state, "shape", None)
            if shape is None:
                known = self._value_shape
                shape = np.asarray(known.as_list() if known.is_fully_defined() else [-1, *values.shape[1:]], np.int64)
            state.total, state.count = None, 0
            state.global_step += 1
            return np.asarray(order, np.int64), values.astype(self._dtype.np), shape


__all__ = ["ConditionalAccumulator", "ConditionalAccumulatorBase", "SparseConditionalAccumulator"]
