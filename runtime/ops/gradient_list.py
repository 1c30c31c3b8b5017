"""Gradients of TensorArrays: the gradient of a TensorArray handle is a handle too, a TensorList of element
gradients where None (or an index past the end) stands for zeros. The ops below build and take apart such
lists; each is linear, and its gradient is its transpose among them (so gradients can be taken again)."""

from __future__ import annotations

import numpy as np

from ..context import state
from ..dispatch import apply
from ..registry import OpDef, gradient, register
from ..tensor import EagerTensor
from .core import constant_node
from .tensor_array import VARIANT, TensorList


def _handle(*args, **attrs):
    return VARIANT, ()


def _op(name, kernel, infer=_handle, doc=""):
    return register(OpDef(name, kernel, infer, foldable=False, doc=doc))


def _element(items, index):
    return items[index] if index < len(items) else None


def _zeros(shape, dtype):
    if np.dtype(dtype).kind == "O":  # the element is itself a handle (a stacked TensorArray): its zero is empty
        return TensorList()
    value = np.zeros(shape, dtype)
    return value[()] if value.ndim == 0 else value


def _target_shape(rest, element_shape):
    """An element's shape: the static attribute, or that of the `like` input (the forward element)."""
    return element_shape if element_shape is not None and None not in element_shape else np.shape(rest[-1])


def _infer_element(g_list, index, *rest, dtype, element_shape):
    return dtype, element_shape if not rest else rest[-1]._shape


# --- the ops -------------------------------------------------------------------------------------------------------
def _add_kernel(a, b):
    out = TensorList()
    for i in range(max(len(a), len(b))):
        x, y = _element(a, i), _element(b, i)
        out.append(y if x is None else x if y is None else x + y)
    return out


add_op = _op("gradient_list_add", _add_kernel, doc="the elementwise sum of two TensorArray gradients")


def _read_kernel(g_list, index, *rest, dtype, element_shape):
    value = _element(g_list, int(index))
    return _zeros(_target_shape(rest, element_shape), dtype.np) if value is None else value


read_op = _op("gradient_list_read", _read_kernel, _infer_element,
              doc="one element gradient (zeros where none was set)")


def _set_kernel(index, g):
    index = int(index)
    return TensorList([None] * index + [g])


set_op = _op("gradient_list_set", _set_kernel, doc="a TensorArray gradient with one element set")


def _clear_kernel(g_list, indices):
    out = TensorList(g_list)
    if isinstance(indices, (int, np.integer)):  # one index (a backward loop's step, every iteration): without
        if int(indices) < len(out):  # the reshape and the array iteration (11 -> 1 microsecond a call)
            out[int(indices)] = None
        return out
    for index in np.reshape(indices, -1):
        if int(index) < len(out):
            out[int(index)] = None
    return out


clear_op = _op("gradient_list_clear", _clear_kernel,
               doc="a TensorArray gradient without the elements at `indices` (they were overwritten)")


def _unstack_kernel(g):
    return TensorList(g)


unstack_op = _op("gradient_list_unstack", _unstack_kernel, doc="the rows of g as element gradients")


def _stack_kernel(g_list, like, *, dtype):
    shape = np.shape(like)
    rows = [_element(g_list, i) for i in range(shape[0])]
    rows = [_zeros(shape[1:], dtype.np) if r is None else r for r in rows]
    return np.stack(rows) if rows else np.zeros(shape, dtype.np)


stack_op = _op("gradient_list_stack", _stack_kernel, lambda g_list, like, *, dtype: (dtype, like._shape),
               doc="element gradients stacked into rows (zeros where none was set)")


def _scatter_kernel(indices, g):
    out = TensorList()
    for index, row in zip(np.reshape(indices, -1), g):
        index = int(index)
        out.extend([None] * (index + 1 - len(out)))
        out[index] = row if out[index] is None else out[index] + row
    return out


scatter_op = _op("gradient_list_scatter", _scatter_kernel, doc="rows of g as the gradients of elements `indices`")


def _gather_kernel(g_list, indices, like, *, dtype):
    shape = np.shape(like)[1:]
    rows = [_element(g_list, int(i)) for i in np.reshape(indices, -1)]
    rows = [_zeros(shape, dtype.np) if r is None else r for r in rows]
    return np.stack(rows) if rows else np.zeros((0,) + shape, dtype.np)


gather_op = _op("gradient_list_gather", _gather_kernel, lambda g_list, indices, like, *, dtype: (dtype, like._shape),
                doc="the element gradients at `indices`, as rows (zeros where none was set)")


def _split_kernel(handle, g):
    out = TensorList()
    start = 0
    for element in handle:
        size = np.shape(element)[0] if element is not None else 0
        out.append(g[start:start + size])
        start += size
    return out


split_op = _op("gradient_list_split", _split_kernel,
               doc="g cut into the gradients of the elements a TensorArray concat joined")


def _concat_kernel(g_list, handle, *, dtype):
    parts = []
    for i, element in enumerate(handle):
        value = _element(g_list, i)
        parts.append(np.zeros(np.shape(element), dtype.np) if value is None else value)
    return np.concatenate(parts) if parts else np.zeros((0,), dtype.np)


concat_op = _op("gradient_list_concat", _concat_kernel, lambda g_list, handle, *, dtype: (dtype, None),
                doc="element gradients joined along their first dimension (the transpose of split)")


# --- wrappers the TensorArray rules use -------------------------------------------------------------------------------
def empty_gradient_list():
    """The zero gradient of a TensorArray: no element gradient set."""

    if state.graph is not None:
        return constant_node(TensorList(), VARIANT)

    return EagerTensor(TensorList(), VARIANT)


def add_lists(a, b):
    return apply(add_op, (a, b))


def read_element(g_list, index, dtype, element_shape, like):
    if element_shape is not None and None not in element_shape:
        return apply(read_op, (g_list, index), {"dtype": dtype, "element_shape": tuple(element_shape)})
    return apply(read_op, (g_list, index, like), {"dtype": dtype, "element_shape": element_shape})


def set_element(index, g):
    return apply(set_op, (index, g))


def clear_elements(g_list, indices):
    return apply(clear_op, (g_list, indices))


def unstack_rows(g):
    return apply(unstack_op, (g,))


def stack_rows(g_list, like):
    """Element gradients as the rows of a tensor shaped like `like` (zeros where none was set)."""
    return apply(stack_op, (g_list, like), {"dtype": like.dtype})


def scatter_rows(indices, g):
    return apply(scatter_op, (indices, g))


def gather_rows(g_list, indices, like):
    return apply(gather_op, (g_list, indices, like), {"dtype": like.dtype})


def split_rows(handle, g):
    return apply(split_op, (handle, g))


def concat_rows(g_list, handle, dtype):
    return apply(concat_op, (g_list, handle), {"dtype": dtype})


# --- their gradients (each op is linear; the gradient is its transpose) ------------------------------------------
@gradient(add_op)
def _add_grad(record, g):
    return g, g


@gradient(read_op)
def _read_grad(record, g):
    return (set_element(record.inputs[1], g),) + (None,) * (len(record.inputs) - 1)


@gradient(set_op)
def _set_grad(record, g_list):
    index, g = record.inputs
    return None, read_element(g_list, index, g.dtype, g._shape, g)


@gradient(clear_op)
def _clear_grad(record, g_list):
    return clear_elements(g_list, record.inputs[1]), None


@gradient(unstack_op)
def _unstack_grad(record, g_list):
    return stack_rows(g_list, record.inputs[0])


@gradient(stack_op)
def _stack_grad(record, g):
    return unstack_rows(g), None


@gradient(scatter_op)
def _scatter_grad(record, g_list):
    indices, g = record.inputs
    return None, gather_rows(g_list, indices, g)


@gradient(gather_op)
def _gather_grad(record, g):
    return scatter_rows(record.inputs[1], g), None, None


@gradient(split_op)
def _split_grad(record, g_list):
    handle, g = record.inputs
    return None, concat_rows(g_list, handle, g.dtype)


@gradient(concat_op)
def _concat_grad(record, g):
    return split_rows(record.inputs[1], g), None

