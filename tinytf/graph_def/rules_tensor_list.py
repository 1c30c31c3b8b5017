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
    "tensor_list_resize": lambda n, const: ("TensorListResize", n.refs, {}),
    "tensor_list_scatter_into_existing": lambda n, const: ("TensorListScatterIntoExistingList", n.refs, _element(n)),
    "tensor_list_gather": lambda n, const: ("TensorListGather", n.refs, _element(n)),
    "tensor_list_concat": lambda n, const: ("TensorListConcatV2", n.refs, _with_shape_type(n)),
    "tensor_list_split": lambda n, const: ("TensorListSplit", n.refs, _with_shape_type(n)),
    "optional_from_value": lambda n, const: ("OptionalFromValue", n.refs,
                                             {"Toutput_types": p.attr_types([t.dtype for t in n.inputs])}),
    "optional_none": lambda n, const: ("OptionalNone", [], {}),
    "optional_get_value": lambda n, const: ("OptionalGetValue", n.refs, {
        "output_types": p.attr_types(list(n.attrs["output_types"])),
        "output_shapes": p.attr_shapes(list(n.attrs["output_shapes"]))}),
    "optional_has_value": lambda n, const: ("OptionalHasValue", n.refs, {}),
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
    "tensor_list_length": "TensorListLength", "tensor_list_resize": "TensorListResize",
    "tensor_list_scatter_into_existing": "TensorListScatterIntoExistingList", "tensor_list_gather": "TensorListGather",
    "tensor_list_concat": "TensorListConcatV2", "tensor_list_split": "TensorListSplit",
    "optional_from_value": "OptionalFromValue", "optional_none": "OptionalNone",
    "optional_get_value": "OptionalGetValue", "optional_has_value": "OptionalHasValue",
    "tensor_list_element_shape": "TensorListElementShape",
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


# --- TensorArray gradients (runtime/ops/gradient_list.py) as TF's lists -------------------------------------------
# A gradient list holds element gradients by index, where an element never set, or past the list's end, counts as
# zeros. A TF list's element that was never set reads as zeros too (given its full shape), so each op is written
# with its list first grown to the length it reaches (TensorListResize to Maximum(TensorListLength, n) adds
# unset elements): the same numbers, and each op has TF's element dtype from its own node.
_INT32 = {"T": p.attr_type(dtypes.int32)}


def _int32_index(n, const, i):
    ref = n.refs[i]
    if n.inputs[i].dtype is not dtypes.int32:
        ref = const.node("Cast", "Cast", [ref], {"SrcT": p.attr_type(n.inputs[i].dtype),
                                                 "DstT": p.attr_type(dtypes.int32), "Truncate": p.attr(False)})
    return ref


def _grown(const, list_ref, size_ref, hint="grown"):
    """The list grown (with unset elements) to at least `size_ref` elements."""
    length = const.node(f"{hint}/TensorListLength", "TensorListLength", [list_ref], {})
    size = const.node(f"{hint}/Maximum", "Maximum", [length, size_ref], _INT32)
    return const.node(f"{hint}/TensorListResize", "TensorListResize", [list_ref, size], {})


def _plus_one(const, index_ref):
    return const.node("add", "AddV2", [index_ref, _int(const, "add/y", 1)], _INT32)


def _shape_of(n, const, tensor, ref, part, hint):
    """Shape(tensor)[1:] ("rows") or [0] ("count"): a Const when the shape is known, else Shape and StridedSlice."""
    shape = tensor._shape
    if shape is not None and None not in shape:
        return _int(const, hint, list(shape[1:]) if part == "rows" else shape[0])
    full = const.node(f"{hint}/Shape", "Shape", [ref], {"T": p.attr_type(tensor.dtype), "out_type": _INT32["T"]})
    begin, end = (1, 0) if part == "rows" else (0, 1)
    masks = {"end_mask": p.attr(1), "shrink_axis_mask": p.attr(0)} if part == "rows" else \
        {"end_mask": p.attr(0), "shrink_axis_mask": p.attr(1)}
    attrs = {"T": _INT32["T"], "Index": _INT32["T"], "begin_mask": p.attr(0), "ellipsis_mask": p.attr(0),
             "new_axis_mask": p.attr(0), **masks}
    bounds = [_int(const, f"{hint}/{what}", [value]) for what, value in (("begin", begin), ("end", end),
                                                                          ("strides", 1))]
    return const.node(hint, "StridedSlice", [full] + bounds, attrs)


def _element_shape_ref(n, const, like_index=2):
    """A read's element shape: the static attribute when fully known, else the shape of its `like` input."""
    shape = n.attrs.get("element_shape")
    if shape is not None and None not in shape:
        return _shape_const(const, shape)
    like = n.inputs[like_index]
    return const.node("element_shape", "Shape", [n.refs[like_index]],
                      {"T": p.attr_type(like.dtype), "out_type": _INT32["T"]})


def _list_read(n, const):  # (g_list, index[, like]): element `index`, zeros where unset or past the end
    index = _int32_index(n, const, 1)
    grown = _grown(const, n.refs[0], _plus_one(const, index))
    return "TensorListGetItem", [grown, index, _element_shape_ref(n, const)], \
        {"element_dtype": p.attr_type(n.attrs["dtype"])}


def _list_set(n, const):  # (index, g): a list of index + 1 elements, only the last set
    index = _int32_index(n, const, 0)
    g = n.inputs[1]
    reserved = const.node("TensorListReserve", "TensorListReserve",
                          [_shape_const(const, g._shape), _plus_one(const, index)],
                          {"element_dtype": p.attr_type(g.dtype), "shape_type": _INT32["T"]})
    return "TensorListSetItem", [reserved, index, n.refs[1]], {"element_dtype": p.attr_type(g.dtype),
                                                               "resize_if_index_out_of_bounds": p.attr(False)}


def _list_add(n, const):  # the two lists grown to the longer one's length, then TF's elementwise AddN of lists
    length = const.node("TensorListLength", "TensorListLength", [n.refs[1]], {})
    a = _grown(const, n.refs[0], length, "grown_a")
    b = _grown(const, n.refs[1], const.node("TensorListLength_1", "TensorListLength", [a], {}), "grown_b")
    return "AddN", [a, b], {"N": p.attr(2), "T": p.attr_type(n.inputs[0].dtype)}


def _list_unstack(n, const):  # (g): its rows as a list
    g = n.inputs[0]
    return "TensorListFromTensor", [n.refs[0], _shape_of(n, const, g, n.refs[0], "rows", "element_shape")], \
        {"element_dtype": p.attr_type(g.dtype), "shape_type": _INT32["T"]}


def _list_stack(n, const):  # (g_list, like): the element gradients as like's rows, zeros where unset
    like = n.inputs[1]
    rows = _shape_of(n, const, like, n.refs[1], "count", "num_rows")
    resized = const.node("TensorListResize", "TensorListResize", [n.refs[0], rows], {})
    return "TensorListStack", [resized, _shape_of(n, const, like, n.refs[1], "rows", "element_shape")], \
        {"element_dtype": p.attr_type(n.attrs["dtype"]), "num_elements": p.attr(-1)}


def _flat_indices(n, const, i):
    """Input i (indices of any rank) as an int32 vector, and the list length they need: Max + 1 (0 if empty)."""
    flat = const.node("indices", "Reshape", [_int32_index(n, const, i), _int(const, "indices/shape", [-1])],
                      {"T": _INT32["T"], "Tshape": _INT32["T"]})
    largest = const.node("indices/Max", "Max", [flat, _int(const, "indices/Max/axis", 0)],
                         {"T": _INT32["T"], "Tidx": _INT32["T"], "keep_dims": p.attr(False)})
    need = const.node("indices/Maximum", "Maximum", [_plus_one(const, largest), _int(const, "indices/zero", 0)],
                      _INT32)
    return flat, need


def _list_scatter(n, const):  # (indices, g): g's rows as the gradients of elements `indices` (repeats add up)
    g = n.inputs[1]
    flat, need = _flat_indices(n, const, 0)
    summed = const.node("UnsortedSegmentSum", "UnsortedSegmentSum", [n.refs[1], flat, need],
                        {"T": p.attr_type(g.dtype), "Tindices": _INT32["T"], "Tnumsegments": _INT32["T"]})
    return "TensorListFromTensor", [summed, _shape_of(n, const, g, n.refs[1], "rows", "element_shape")], \
        {"element_dtype": p.attr_type(g.dtype), "shape_type": _INT32["T"]}


def _list_gather(n, const):  # (g_list, indices, like): the element gradients at `indices`, zeros where unset
    flat, need = _flat_indices(n, const, 1)
    like = n.inputs[2]
    return "TensorListGather", [_grown(const, n.refs[0], need), flat,
                                _shape_of(n, const, like, n.refs[2], "rows", "element_shape")], \
        {"element_dtype": p.attr_type(n.attrs["dtype"])}


def list_clear_rule(n, const, read):
    """gradient_list_clear(g_list, indices) -> the elements at `indices` set to zeros (TF has no op that unsets an
    element; zeros read, add and stack the same). The zeros take their dtype and shape from `read`: the NodeView of
    the gradient_list_read (one index: a TensorArray write's gradient) or gradient_list_gather (several: a
    scatter's) of the same list and indices, which the same gradient rule makes."""
    if read is None:
        raise NotImplementedError("a TensorArray gradient's cleared elements (gradient_list_clear) without the read "
                                  "of the same elements: no TF form is written for them")
    if read.op == "gradient_list_gather":
        flat, need = _flat_indices(n, const, 1)
        like = read.inputs[2]
        zeros = const.node("zeros", "ZerosLike", [read.refs[2]], {"T": p.attr_type(like.dtype)})
        return "TensorListScatterIntoExistingList", [_grown(const, n.refs[0], need), zeros, flat], \
            {"element_dtype": p.attr_type(read.attrs["dtype"])}
    index = _int32_index(n, const, 1)
    grown = _grown(const, n.refs[0], _plus_one(const, index))
    dtype = read.attrs["dtype"]
    zeros = const.node("zeros", "Fill", [_element_shape_ref(read, const), const("zeros/value", np.zeros((), dtype.np),
                                                                                dtype)],
                       {"T": p.attr_type(dtype), "index_type": _INT32["T"]})
    return "TensorListSetItem", [grown, index, zeros], {"element_dtype": p.attr_type(dtype),
                                                        "resize_if_index_out_of_bounds": p.attr(False)}


RULES.update({
    "gradient_list_read": _list_read, "gradient_list_set": _list_set, "gradient_list_add": _list_add,
    "gradient_list_unstack": _list_unstack, "gradient_list_stack": _list_stack,
    "gradient_list_scatter": _list_scatter, "gradient_list_gather": _list_gather,
})
TF_NAMES.update({
    "gradient_list_read": "TensorListGetItem", "gradient_list_set": "TensorListSetItem", "gradient_list_add": "AddN",
    "gradient_list_unstack": "TensorListFromTensor", "gradient_list_stack": "TensorListStack",
    "gradient_list_clear": "TensorListSetItem", "gradient_list_scatter": "TensorListFromTensor",
    "gradient_list_gather": "TensorListGather",
})


def _gradient_list_dtypes(graph, found: set) -> set:
    """The element dtypes of the gradient-list ops in `graph` and the graphs nested in it."""
    for node in graph.nodes:
        name = node.op.name
        if name in ("gradient_list_read", "gradient_list_stack", "gradient_list_gather"):
            found.add(node.attrs["dtype"])
        elif name == "gradient_list_set":
            found.add(node.inputs[1].dtype)
        elif name in ("gradient_list_unstack", "gradient_list_scatter"):
            found.add(node.inputs[-1].dtype)
        for _, sub in node.subgraph_items():
            _gradient_list_dtypes(sub, found)
    return found


def empty_gradient_list_rule(node, const):
    """A constant empty gradient list (the zero gradient of a TensorArray) -> EmptyTensorList. TF's lists have an
    element dtype that adding two lists checks; the constant has none, so it is the one element dtype of the
    gradient lists around it (the graph holding it and its loops), if they agree."""
    value = node.attrs["value"]
    if not isinstance(value, list) or len(value):
        raise NotImplementedError("a constant TensorArray handle holding elements: no TF form")
    dtypes_found = _gradient_list_dtypes(node.graph, set())
    if len(dtypes_found) != 1:
        raise NotImplementedError("an empty TensorArray gradient among TensorArray gradients of "
                                  f"{len(dtypes_found) or 'no'} element dtypes: its own element dtype is not known")
    (dtype,) = dtypes_found
    refs = [_int(const, "element_shape", -1), _int(const, "max_num_elements", -1)]
    return refs, {"element_dtype": p.attr_type(dtype), "shape_type": p.attr_type(dtypes.int32)}
