"""Gradients of the TensorList ops (ops/tensor_list.py). As for TensorArrays, the gradient of a list is a
gradient list (ops/gradient_list.py: element i is the gradient of element i, None or past the end standing for
zeros), so the rules pair up as in TF: SetItem's gradient reads the element, GetItem's sets it, Stack's is the
rows as a list (FromTensor), FromTensor's stacks them, PushBack's reads the pushed element, PopBack's sets it.
Every rule is written with ops that have gradients themselves (second derivatives)."""

from __future__ import annotations

from ..registry import gradient, wants
from .array import zeros_like
from .gradient_list import (
    add_lists,
    clear_elements,
    concat_rows,
    empty_gradient_list,
    gather_rows,
    read_element,
    scatter_rows,
    set_element,
    split_rows,
    stack_rows,
    unstack_rows,
)
from .tensor_list import (
    add_op,
    concat_op,
    from_tensor_op,
    gather_op,
    get_item_op,
    pop_back_op,
    push_back_op,
    resize_op,
    scatter_op,
    set_item_op,
    split_op,
    stack_op,
    tensor_list_length,
    tensor_list_resize,
)
from .tensor_list_optional import from_value_op, get_value_op, optional_from_value, optional_get_value


@gradient(push_back_op)
def _push_back_grad(record, g_list):
    handle, tensor = record.inputs
    index = tensor_list_length(handle)  # where the pushed element sits
    tensor_grad = read_element(g_list, index, tensor.dtype, tensor._shape, tensor) if wants(record, 1) else None
    # the pushed element's gradient goes to the tensor only, not to the list pushed onto
    return clear_elements(g_list, index), tensor_grad


@gradient(pop_back_op)
def _pop_back_grad(record, g_list, g_item):
    if g_item is None:
        return (empty_gradient_list() if g_list is None else g_list), None
    popped = set_element(tensor_list_length(record.outputs[0]), g_item)
    return (popped if g_list is None else add_lists(g_list, popped)), None


@gradient(set_item_op)
def _set_item_grad(record, g_list):
    _, index, item = record.inputs
    item_grad = read_element(g_list, index, item.dtype, item._shape, item) if wants(record, 2) else None
    return clear_elements(g_list, index), None, item_grad  # the old element was overwritten: no gradient


@gradient(get_item_op)
def _get_item_grad(record, g):
    return set_element(record.inputs[1], g), None, None


@gradient(stack_op)
def _stack_grad(record, g):
    return unstack_rows(g), None


@gradient(from_tensor_op)
def _from_tensor_grad(record, g_list):
    return stack_rows(g_list, record.inputs[0]), None


@gradient(add_op)
def _add_grad(record, g_list):
    return g_list, g_list


@gradient(resize_op)
def _resize_grad(record, g_list):
    # the elements kept pass their gradients through; those cut off, or added unset, have none
    return tensor_list_resize(g_list, tensor_list_length(record.inputs[0])), None


# --- TF's optionals (ops/tensor_list_optional.py): FromValue and GetValue are each other's transpose ---------------
@gradient(from_value_op)
def _from_value_grad(record, g):
    types, shapes = zip(*[(t.dtype, t._shape) for t in record.inputs])
    return tuple(optional_get_value(g, types, shapes))


@gradient(get_value_op)
def _get_value_grad(record, *grads):
    return (optional_from_value([zeros_like(o) if g is None else g for g, o in zip(grads, record.outputs)]),)


@gradient(scatter_op)
def _scatter_grad(record, g_list):
    _, tensor, indices = record.inputs
    tensor_grad = gather_rows(g_list, indices, tensor) if wants(record, 1) else None
    return clear_elements(g_list, indices), tensor_grad, None  # the overwritten elements get no gradient


@gradient(gather_op)
def _gather_grad(record, g):
    return scatter_rows(record.inputs[1], g), None, None


@gradient(concat_op)
def _concat_grad(record, g, g_lengths):
    if g is None:
        return None, None, None
    return split_rows(record.inputs[0], g), None, None


@gradient(split_op)
def _split_grad(record, g_list):
    return concat_rows(g_list, record.outputs[0], record.inputs[0].dtype), None, None
