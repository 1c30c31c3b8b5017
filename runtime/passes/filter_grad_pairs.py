"""The walk two conv passes share: pair each conv2d_backprop_filter with another conv node that reads the same
tensor, and put one fused node with both outputs in their place.

conv_backprop_pair pairs it with conv2d_backprop_input of the same output gradient (one spectrum of g for
both), conv_transpose_backprop with conv2d of the same input (one window matrix for both). What differs is
the rule for a pair and the fused node's op and inputs, which each pass passes in; the walk, the ordering
check and the rewiring are here."""

from __future__ import annotations

from ..graph import Graph
from ..ops.nn_grad import conv2d_backprop_filter_op
from .rewrite import make_node, replace_all_uses

WINDOW = ("strides", "padding", "dilations")


def fuse_filter_grad_pairs(graph: Graph, partner_op, shared: int, pairs, fused_op, inputs_of) -> list:
    """Fuse pairs of `graph` (not its subgraphs); returns the fused nodes.

    For each conv2d_backprop_filter node in graph order, its partner is the first node of `partner_op` whose
    input 0 is the filter gradient's input `shared` (0: x, 1: g), not already paired, for which
    `pairs(partner, filter_grad, controlled)` holds (`controlled`: ids of the nodes some node waits for).
    The fused node takes `inputs_of(partner, filter_grad)` and the partner's window attributes, gives the
    partner's output then the filter gradient, and goes where the first of the two was, when all its inputs
    are computed before that place (else the pair is left as it is)."""
    partners: dict = {}  # id(shared tensor) -> the partner_op nodes reading it as input 0
    for node in graph.nodes:
        if node.op is partner_op and node.inputs:
            partners.setdefault(id(node.inputs[0]), []).append(node)
    if not partners:
        return []
    position = {id(node): i for i, node in enumerate(graph.nodes)}
    controlled = {id(d) for node in graph.nodes for d in node.control_inputs or ()}
    placed: dict = {}  # id(node that goes) -> the new node taking its place (or None: dropped)
    mapping: dict = {}
    fused_nodes = []
    for node in graph.nodes:
        if node.op is not conv2d_backprop_filter_op or id(node) in placed:
            continue
        for partner in partners.get(id(node.inputs[shared]), ()):
            if id(partner) in placed or not pairs(partner, node, controlled):
                continue
            first, second = sorted((partner, node), key=lambda n: position[id(n)])
            inputs = inputs_of(partner, node)
            if any(t.node is not None and position.get(id(t.node), -1) >= position[id(first)] for t in inputs):
                continue
            fused = make_node(graph, fused_op, inputs, {key: partner.attrs[key] for key in WINDOW},
                              [(partner.outputs[0].dtype, partner.outputs[0]._shape),
                               (node.outputs[0].dtype, node.outputs[0]._shape)],
                              fused_op.name, partner.location)
            placed[id(first)], placed[id(second)] = fused, None
            mapping[id(partner.outputs[0])], mapping[id(node.outputs[0])] = fused.outputs
            fused_nodes.append(fused)
            break
    if not mapping:
        return []
    nodes = []
    for node in graph.nodes:
        if id(node) not in placed:
            nodes.append(node)
        elif placed[id(node)] is not None:
            nodes.append(placed[id(node)])
    graph.nodes = nodes
    replace_all_uses(graph, mapping)
    return fused_nodes
