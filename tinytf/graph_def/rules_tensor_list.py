"""Export rules for TF 2's TensorList ops and for the stacks of tinytf's while-loop gradients.

The TensorList ops (runtime/ops/tensor_list.py, what tinytf imports TF's lists as) are TF's ops one for one.

tinytf's while-loop gradient keeps each per-iteration value the backward loop needs in a mutable stack
(runtime/ops/gradient_stack.py): created empty before the forward loop, pushed once per iteration in order,
read by iteration index in the backward loop. A GraphDef has no mutable lists, but the stacks are used so that
value semantics give the same numbers: each push's result is the loop variable's next value, and reads happen
only after the forward loop. So the exporter writes them as TF's while_v2 does its accumulators: EmptyTensorList
before the loop, TensorListPushBack in the body, and TensorListGetItem at the backward loop's iteration (TF pops
with TensorListPopBack; reading by index is the same value, and leaves tinytf's backward loop as it is).
EmptyTensorList needs the element dtype, which the stack node does not hold: `stack_elements` finds it at the
push that feeds the stack's loop variable."""

from __future__ import annotations

import numpy as np

from tinytf.runtime import dtypes
from tinytf.runtime.ops.gradient_stack import stack_new_op, stack_push_op

from . import protos as p


def _int(const, hint, values):
    return const(hint, np.asarray(values, np.int32), dtypes.int32)


def _shape_const(const, shape, hint="element_shape"):
    if shape is None:
        return _int(const, hint, -1)
    return _int(const, hint, [-1 if d is None else int(d) for d in shape])


def _element(n):
    return {"element_dtype": p.attr_type(n.attrs["element_dtype"])}


def _with_shape_type(n):
    return {**_element(n), "shape_type": p.attr_type(dtypes.int32)}


def _stack(n, const):
    attrs = {**_element(n), "num_elements": p.attr(int(n.attrs.get("num_elements", -1)))}
    return "TensorListStack", n.refs, attrs


def _set_item(n, const):
    attrs = {**_element(n),
             "resize_if_index_out_of_bounds": p.attr(bool(n.attrs.get("resize_if_index_out_of_bounds", False)))}
    return "TensorListSetItem", n.refs, attrs


RULES = {
    "tensor_list_empty": lambda n, const: ("EmptyTensorList", n.refs, _with_shape_type(n)),
    "tensor_list_reserve": lambda n, const: ("TensorListReserve", n.refs, _with_shape_type(n)),
    "tensor_list_from_tensor": lambda n, const: ("TensorListFromTensor", n.refs, _with_shape_type(n)),
    "tensor_list_push_back": lambda n, const: ("TensorListPushBack", n.refs, _element(n)),
    "tensor_list_pop_back": lambda n, const: ("TensorListPopBack", n.refs, _element(n)),
    "tensor_list_get_item": lambda n, const: ("TensorListGetItem", n.refs, _element(n)),
    "tensor_list_set_item": _set_item,
    "tensor_list_stack": _stack,
    "tensor_list_length": lambda n, const: ("TensorListLength", n.refs, {}),
    "tensor_list_element_shape": lambda n, const: ("TensorListElementShape", n.refs,
                                                   {"shape_type": p.attr_type(n.attrs["shape_type"])}),
    "tensor_list_zeros_like": lambda n, const: ("ZerosLike", n.refs, {"T": p.attr_type(n.inputs[0].dtype)}),
    "tensor_list_add": lambda n, const: ("AddN", n.refs, {"N": p.attr(2), "T": p.attr_type(n.inputs[0].dtype)}),
    # the stacks of while-loop gradients (gradient_stack itself: stack_rule below, which needs its element)
    "gradient_stack_push": lambda n, const: ("TensorListPushBack", [n.refs[0], n.refs[2]],
                                             {"element_dtype": p.attr_type(n.inputs[2].dtype)}),
    "gradient_stack_read": lambda n, const: _read(n, const),
    "gradient_stack_take": lambda n, const: _read(n, const),
}

TF_NAMES = {
    "tensor_list_empty": "EmptyTensorList", "tensor_list_reserve": "TensorListReserve",
    "tensor_list_from_tensor": "TensorListFromTensor", "tensor_list_push_back": "TensorListPushBack",
    "tensor_list_pop_back": "TensorListPopBack", "tensor_list_get_item": "TensorListGetItem",
    "tensor_list_set_item": "TensorListSetItem", "tensor_list_stack": "TensorListStack",
    "tensor_list_length": "TensorListLength", "tensor_list_element_shape": "TensorListElementShape",
    "tensor_list_zeros_like": "ZerosLike", "tensor_list_add": "AddN",
    "gradient_stack": "EmptyTensorList", "gradient_stack_push": "TensorListPushBack",
    "gradient_stack_read": "TensorListGetItem", "gradient_stack_take": "TensorListGetItem",
}


def _read(n, const):
    """A stack read at an iteration: TensorListGetItem with the element's static shape."""
    return "TensorListGetItem", [n.refs[0], n.refs[1], _shape_const(const, n.attrs["shape"])], \
        {"element_dtype": p.attr_type(n.attrs["dtype"])}


def stack_rule(element, const):
    """gradient_stack -> EmptyTensorList of the pushed values' dtype and shape (`element`: (dtype, shape))."""
    if element is None:
        raise NotImplementedError("a while-loop gradient stack whose pushes the exporter cannot find (it is not "
                                  "the initial value of a loop variable that a push in the body updates)")
    dtype, shape = element
    refs = [_shape_const(const, shape), _int(const, "max_num_elements", -1)]
    return "EmptyTensorList", refs, {"element_dtype": p.attr_type(dtype), "shape_type": p.attr_type(dtypes.int32)}


def stack_elements(graph) -> dict:
    """id(gradient_stack node) -> (dtype, shape) of the values pushed onto it, for every loop in `graph` and the
    graphs nested in it: the stack is a while node's initial value, and the body's result for that loop
    variable is a push."""
    found: dict = {}

    def walk(g):
        for node in g.nodes:
            if node.op.name == "while_loop":
                body = node.attrs["body_graph"]
                for i in range(node.attrs["n_vars"]):
                    init, result = node.inputs[i].node, body.outputs[i].node
                    if init.op is stack_new_op and result.op is stack_push_op:
                        value = result.inputs[2]
                        found[id(init)] = (value.dtype, value._shape)
            for _, sub in node.subgraph_items():
                walk(sub)

    walk(graph)
    return found
