"""reduce_sum(x * x) or reduce_sum(square(x)) over every axis becomes one sum_of_squares(x) node.

A squared-error loss (`tf.reduce_sum(y * y)`) otherwise makes y * y as a full-size array, fresh every call
(elementwise fusion renders a one-op block as an expression), only for the sum to read it back: the depthwise
and conv_transpose workloads' 4 MB and 2 MB. runtime/ops/sum_of_squares.py squares and sums leaf by leaf in
cache, with numpy's pairwise order: bit for bit the two ops' result.

Only when the square is read by nothing but this sum (not an output, no control edges either way), the sum
covers every axis without keepdims, and the dtype is float32 or float64."""

from __future__ import annotations

from ..graph import Graph, subgraphs
from ..ops.math import multiply_op, square_op
from ..ops.reduce import reduce_sum_op
from ..ops.sum_of_squares import sum_of_squares_op
from .rewrite import make_node, readers_of, replace_all_uses


def fuse_sums_of_squares(graph: Graph) -> Graph:
    for node in graph.nodes:
        for sub in subgraphs(node):
            fuse_sums_of_squares(sub)
    readers = readers_of(graph)  # id(tensor) -> the nodes reading it
    outputs = {id(t) for t in graph.outputs}
    controlled = {id(d) for node in graph.nodes for d in node.control_inputs or ()}
    mapping: dict = {}
    nodes = []
    for node in graph.nodes:
        x = _squared(node, readers, outputs, controlled)
        if x is None:
            nodes.append(node)
            continue
        fused = make_node(graph, sum_of_squares_op, [x], {}, [(x.dtype, ())], "sum_of_squares", node.location,
                          replaces=node)
        nodes.append(fused)
        mapping[id(node.outputs[0])] = fused.outputs[0]
    if mapping:
        graph.nodes = nodes  # the squares left unread go with pruning
        replace_all_uses(graph, mapping)
    return graph


def _squared(node, readers, outputs, controlled):
    """x when `node` is a whole-array reduce_sum of x * x or square(x) that may become sum_of_squares(x)."""
    if node.op is not reduce_sum_op or node.attrs.get("keepdims") or len(node.inputs) != 1:
        return None
    square = node.inputs[0]
    producer = square.node
    if producer is None or square.dtype.name not in ("float32", "float64") or square._shape is None:
        return None
    if node.attrs.get("axis") is not None and _axes(node.attrs["axis"], len(square._shape)) != \
            tuple(range(len(square._shape))):
        return None
    if producer.op is square_op and len(producer.inputs) == 1:
        x = producer.inputs[0]
    elif producer.op is multiply_op and len(producer.inputs) == 2 and producer.inputs[0] is producer.inputs[1]:
        x = producer.inputs[0]
    else:
        return None
    if x.dtype is not square.dtype or id(square) in outputs or readers.get(id(square), []) != [node]:
        return None
    if any(id(n) in controlled or n.control_inputs for n in (node, producer)):
        return None
    return x


def _axes(axis, rank):
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    return tuple(sorted({a % rank for a in axes})) if rank else ()
