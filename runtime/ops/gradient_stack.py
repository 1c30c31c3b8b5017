"""The stacks a while loop's backward pass reads its per-iteration values from (see autodiff/control_grad)."""

from __future__ import annotations

import itertools

from ..registry import OpDef, gradient, register, wants
from .gradient_list import read_element, set_element
from .tensor_array import VARIANT

# A stack is a loop variable of the forward loop: created empty before it, pushed once per iteration (at the
# iteration's index, an explicit input), read by index in the backward loop. Pushes and reads are
# differentiable so that the backward loop can itself be differentiated (second derivatives): the gradient of
# a stack is a TensorArray-style gradient list (element i: the gradient of the value pushed at iteration i),
# built by the reads' rule and taken apart by the pushes' rule.
_uids = itertools.count()


def new_stack_uid() -> int:
    """A fresh uid for a new stack node (keeps the stacks of different loops apart)."""
    return next(_uids)


class Stack(list):
    """A list with `take` (the generated code's `stack.take(i)` for gradient_stack_take: one method call where
    the kernel call with its keyword attributes cost about twice as much, 11 times a step in an LSTM's backward
    loop; slab stacks, ops/gradient_slab.py, have the same method)."""

    __slots__ = ()

    def take(self, index):
        value = self[index]
        self[index] = None  # the backward loop's one read of this element: its memory goes now, not after the loop
        return value


def _new_stack_kernel(*, uid):
    return Stack()  # private to one run of one loop: pushes append in place


def _push_kernel(stack, index, value):
    stack.append(value)  # pushes happen in iteration order, so `value` lands at position `index`
    return stack


def _read_kernel(stack, index, *, dtype, shape):
    return stack[index]


def _take_kernel(stack, index, *, dtype, shape):
    return stack.take(index)


def _infer_stack(*args, **attrs):
    return VARIANT, ()


stack_new_op = register(OpDef(
    "gradient_stack", _new_stack_kernel, _infer_stack, differentiable=False, foldable=False,
    doc="an empty stack of the values a while loop's backward pass needs (uid keeps stacks apart)"))
stack_push_op = register(OpDef(
    "gradient_stack_push", _push_kernel, _infer_stack, foldable=False,
    render="{0}.append({2}) or {0}", doc="push one iteration's value (in place: the stack is private)"))
stack_read_op = register(OpDef(
    "gradient_stack_read", _read_kernel, lambda stack, index, *, dtype, shape: (dtype, shape),
    foldable=False, render="{0}[{1}]", doc="the value pushed at an iteration"))

stack_take_op = register(OpDef(
    "gradient_stack_take", _take_kernel, lambda stack, index, *, dtype, shape: (dtype, shape),
    differentiable=False, foldable=False, render="{0}.take({1})",
    doc="the value pushed at an iteration, released from the stack (made by the stack_release pass only)"))


@gradient(stack_read_op)
def _stack_read_grad(record, g):
    # only element `index` of the stack was read: a gradient list with that element set
    return set_element(record.inputs[1], g), None


@gradient(stack_push_op)
def _stack_push_grad(record, g_list):
    _, index, value = record.inputs
    # the earlier elements' gradients pass through to the stack before the push (element `index` is never read
    # from it: it only holds the earlier iterations' values); the pushed value gets element `index`
    value_grad = read_element(g_list, index, value.dtype, value._shape, value) if wants(record, 2) else None
    return g_list, None, value_grad
