"""A scalar gradient spread over a whole array only to be added to, subtracted from or multiplied with an array
of that shape is used as the scalar.

The gradient of `reduce_sum(z)` (a loss) is broadcast_reduced(g, z): g, a scalar, copied into an array of z's
full size, which the gradient of z's producer then multiplies in: for `reduce_sum(y * y) * 0.5`, `0.5 * y +
y * 0.5` with the 0.5 read from a 4 MB array (the depthwise and conv_transpose workloads: a 4 MB fill and one
more 4 MB stream through the fused block, 0.4 + ~0.7 ms of their 6-14 ms of CPU). numpy's broadcasting gives
the same values from the scalar, and the fusion pass (after this one) then inlines it as a constant.

Only where every reader of the broadcast value is an add, subtract or multiply whose other operand has the
broadcast's full static shape and dtype (each result keeps its shape, and every element is the same
operation on the same two numbers: bit for bit), the gradient is a scalar (not a reduce_mean's, which divides
it first) and the broadcast is not an output of the graph."""

from __future__ import annotations

from ..graph import Graph, subgraphs
from ..ops.gradient_helpers import broadcast_reduced_op
from ..ops.math import add_op, multiply_op, subtract_op
from .rewrite import readers_of, replace_all_uses

_BROADCASTING = (add_op, subtract_op, multiply_op)


def use_scalar_gradients(graph: Graph) -> Graph:
    for node in graph.nodes:
        for sub in subgraphs(node):
            use_scalar_gradients(sub)
    readers = readers_of(graph)  # id(tensor) -> the nodes reading it
    outputs = {id(t) for t in graph.outputs}
    mapping: dict = {}
    for node in graph.nodes:
        if node.op is not broadcast_reduced_op or node.attrs.get("mean") or len(node.inputs) != 1:
            continue
        scalar, spread = node.inputs[0], node.outputs[0]
        if scalar._shape is None or tuple(scalar._shape) != () or id(spread) in outputs or spread._shape is None \
                or None in spread._shape:
            continue
        if all(_takes_a_scalar(reader, spread) for reader in readers.get(id(spread), [])):
            mapping[id(spread)] = scalar
    replace_all_uses(graph, mapping)  # the broadcast nodes left unread go with pruning
    return graph


def _takes_a_scalar(reader, spread) -> bool:
    """Whether `reader` computes the same result from the scalar as from its broadcast `spread`."""
    if reader.op not in _BROADCASTING or len(reader.inputs) != 2:
        return False
    a, b = reader.inputs
    other = b if a is spread else a
    return other is not spread and (a is spread or b is spread) and other.dtype is spread.dtype and \
        other._shape is not None and tuple(other._shape) == tuple(spread._shape)
