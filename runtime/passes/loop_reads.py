"""Variable reads out of loops: a while loop whose body and condition write no variable reads each variable's
value once, before the loop, instead of once per iteration.

An RNN written with `tf.range` reads its weight variables inside the loop (`h @ wh`), so to the rest of the
optimizer each step's weights are a new value: loop-invariant motion cannot move the products that use them,
the recurrent_projection pass cannot batch the input projection over time, and the gradient's stacks save the
weights once per step. Reads are stateful (they see assignments in program order), so they may leave the loop
only when nothing in it can assign: every stateful node of the body and condition, nested graphs included, is
itself a read. Assignments always replace a variable's array (never write into it), so a read before the loop
sees what every read in it would have. The hoisted read keeps the loop's control inputs: it still runs after
the side effects the loop ran after."""

from __future__ import annotations

from ..graph import Graph, subgraphs
from ..ops.control import while_op
from ..ops.state import read_variable_op
from .rewrite import make_node, replace_all_uses, set_nodes


def hoist_variable_reads(graph: Graph) -> Graph:
    nodes = []
    for node in graph.nodes:
        for sub in subgraphs(node):
            hoist_variable_reads(sub)
        if node.op is while_op and _writes_nothing(node):
            nodes.extend(_hoist_reads(graph, node))
        nodes.append(node)
    set_nodes(graph, nodes)
    return graph


def _writes_nothing(loop) -> bool:
    """Whether every stateful node the loop runs (its subgraphs' and theirs, recursively) is a variable read."""
    def only_reads(g) -> bool:
        for node in g.nodes:
            if node.op is read_variable_op:
                continue
            if node.op.stateful or any(not only_reads(sub) for sub in subgraphs(node)):
                return False
        return True

    return all(only_reads(sub) for sub in subgraphs(loop))


def _hoist_reads(graph, loop) -> list:
    body, cond = loop.attrs["body_graph"], loop.attrs["cond_graph"]
    n_vars = loop.attrs["n_vars"]
    first_capture = n_vars + loop.attrs["has_max"]
    outer = {id(p): t for p, t in zip(body.inputs[n_vars:], loop.inputs[first_capture:])}
    hoisted, kept, mapping = [], [], {}
    for node in body.nodes:
        handle = node.inputs[0] if node.op is read_variable_op else None
        if handle is None or id(handle) not in outer:  # a read of a loop variable's resource stays
            kept.append(node)
            continue
        read = make_node(graph, read_variable_op, [outer[id(handle)]], dict(node.attrs),
                         [(t.dtype, t._shape) for t in node.outputs], node.name, node.location)
        read.control_inputs = list(loop.control_inputs)
        hoisted.append(read)
        value = read.outputs[0]
        placeholder = body.placeholder(value.dtype, value._shape, node.name)
        cond.placeholder(value.dtype, value._shape, node.name)  # cond and body take the same inputs
        loop.inputs.append(value)
        mapping[id(node.outputs[0])] = placeholder
    if hoisted:
        set_nodes(body, kept)
        replace_all_uses(body, mapping)
    return hoisted
