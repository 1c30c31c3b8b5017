"""Simplification rules for the sum of a TensorArray's stack and for its gradient (ops/tensor_list_reduce.py).

`reduce_sum(ta.stack())` copies every element into one new array only to sum it; its gradient,
`gradient_list_unstack(broadcast_reduced(g))`, fills an array of the same size with one value only to cut it
into rows. In a recurrent model's step both arrays are as large as all its outputs together, and both are
alive at the peak of the call: the LSTM workload's peak memory held 1.6 MB of them. The rules replace each by
an op that computes the same values without the big array. They apply only when the stacked (or broadcast)
array has no other use, its shape is fully known and the reduction runs over every axis."""

from __future__ import annotations

from ..ops.gradient_helpers import broadcast_reduced_op
from ..ops.gradient_list import unstack_op as gradient_list_unstack_op
from ..ops.reduce import reduce_sum_op
from ..ops.tensor_array import stack_op as tensor_array_stack_op
from ..ops.tensor_list_reduce import gradient_list_fill_op, tensor_array_sum_op
from .rewrite import make_node


def _known(shape) -> bool:
    return shape is not None and None not in shape


def sum_of_stack(graph, node, nodes, uses):
    """reduce_sum(tensor_array_stack(ta)) over every axis -> tensor_array_sum(ta)."""
    stacked = node.inputs[0]
    source = stacked.node
    if (source.op is not tensor_array_stack_op or uses.get(id(stacked), 0) != 1 or len(node.inputs) != 1
            or node.attrs.get("axis") is not None or node.attrs.get("keepdims")
            or not (stacked.dtype.is_floating or stacked.dtype.is_integer)):
        return None
    new = make_node(graph, tensor_array_sum_op, list(source.inputs), dict(source.attrs),
                    [(node.outputs[0].dtype, ())], node.name, node.location, replaces=node)
    nodes.append(new)
    return new.outputs[0]


def rows_of_broadcast(graph, node, nodes, uses):
    """gradient_list_unstack(broadcast_reduced(g) over every axis of a known shape) -> gradient_list_fill(g)."""
    spread = node.inputs[0]
    source = spread.node
    if source.op is not broadcast_reduced_op or uses.get(id(spread), 0) != 1 or len(source.inputs) != 1:
        return None
    shape, grad = source.attrs["shape"], source.inputs[0]
    if (source.attrs["axis"] is not None or source.attrs["keepdims"] or not _known(shape) or not shape
            or grad._shape != ()):
        return None
    new = make_node(graph, gradient_list_fill_op, [grad], {"shape": tuple(shape), "mean": source.attrs["mean"]},
                    [(t.dtype, t._shape) for t in node.outputs], node.name, node.location, replaces=node)
    nodes.append(new)
    return new.outputs[0]


RULES = {reduce_sum_op: sum_of_stack, gradient_list_unstack_op: rows_of_broadcast}
