"""TensorArray reductions without the stacked array: the ops the `stacked_reductions` rules
(passes/stacked_reductions.py) put in place of `reduce_sum(ta.stack())` and of its gradient,
`unstack(broadcast_reduced(g))`.

The loss of a recurrent model is often the sum of a TensorArray's stack. Stacking copies every element into one
new array (T x B x H: 800 KB for the LSTM workload) only to sum it; the gradient then builds an array of the
same size filled with one value and cuts it into T rows. Summing the elements one by one, and handing every
row the same read-only array of that value, computes the same numbers without either array.

Both ops are optimizer-internal: never traced by users, never differentiated (the rules run on graphs that are
only compiled)."""

from __future__ import annotations

import numpy as np

from ..errors import InvalidArgumentError
from ..registry import OpDef, register
from .tensor_array import VARIANT, TensorList, _check_handle, _element, _empty


def _sum_kernel(handle, *, dtype, element_shape, num_elements):
    """reduce_sum(stack(handle)) over every axis, element by element (the stack kernel's checks included)."""
    size = len(handle)
    if num_elements is not None and size != num_elements:
        raise InvalidArgumentError(f"the TensorArray holds {size} elements but its static size is {num_elements}")
    if not size:
        return np.sum(_empty(dtype, element_shape), dtype=dtype.np)
    values = [_element(handle, i, dtype, element_shape) for i in range(size)]
    shapes = {v.shape for v in values}
    if len(shapes) > 1:
        seen = ", ".join(sorted(str(list(s)) for s in shapes))
        raise InvalidArgumentError(f"cannot stack elements of different shapes: {seen}")
    # one partial sum per element (numpy's pairwise sum within it), then their sum: the same rounding class as
    # np.sum over the stacked array
    partials = np.array([np.sum(v, dtype=v.dtype) for v in values], dtype=dtype.np)
    return np.sum(partials, dtype=dtype.np)


def _infer_sum(handle, *, dtype, element_shape, num_elements):
    _check_handle(handle)
    return dtype, ()


tensor_array_sum_op = register(OpDef(
    "tensor_array_sum", _sum_kernel, _infer_sum, differentiable=False, foldable=False,
    doc="the sum of every element of a TensorArray, without stacking them (made by the simplification pass)"))


def _fill_kernel(grad, *, shape, mean):
    """The rows of broadcast_reduced(grad) over all of `shape` (axis None): one read-only array shared by all
    of them, so no kernel can write into one row and change the others."""
    grad = np.asarray(grad)
    if mean:
        grad = grad / np.asarray(max(int(np.prod(shape, dtype=np.int64)), 1), grad.dtype)
    row = np.full(shape[1:], grad, dtype=grad.dtype)
    row.flags.writeable = False
    return TensorList([row] * shape[0])


def _infer_fill(grad, *, shape, mean):
    return VARIANT, ()


gradient_list_fill_op = register(OpDef(
    "gradient_list_fill", _fill_kernel, _infer_fill, differentiable=False, foldable=False,
    doc="element gradients that all hold one value (the gradient of the sum of a stack; made by the "
        "simplification pass)"))
