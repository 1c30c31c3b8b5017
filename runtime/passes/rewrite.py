"""Small tools every pass uses to edit a graph: read constants, make nodes, replace uses, splice subgraphs."""

from __future__ import annotations

from ..clone import clone_graph
from ..graph import Graph, Node, SymbolicTensor, subgraphs
from ..ops.core import const_op


def const_value(tensor):
    """The value of a tensor produced by a const node, else None."""
    node = tensor.node
    return node.attrs["value"] if node.op is const_op else None


def make_node(graph: Graph, op, inputs, attrs, specs, name: str, location=None, replaces=None) -> Node:
    """A node of `graph` that is not yet in its node list (the pass decides where it goes). A node that
    `replaces` one leaving the graph takes over its name."""
    node = Node(graph, replaces.name if replaces is not None else graph.unique_name(name), op, inputs, attrs,
                location)
    node.outputs = [SymbolicTensor(node, i, dtype, shape) for i, (dtype, shape) in enumerate(specs)]
    if replaces is not None:  # it also keeps TF's name (graph.as_graph_def() of an optimized graph)
        node.tf_name = replaces.tf_name
    return node


def make_const(graph: Graph, value, dtype, name: str = "const", location=None) -> Node:
    return make_node(graph, const_op, (), {"value": value, "dtype": dtype}, [(dtype, value.shape)], name, location)


def use_counts(graph: Graph) -> dict:
    """id(tensor) -> how many times the graph's nodes (their captured inputs included) and outputs use it."""
    counts: dict = {}
    for node in graph.nodes:
        for t in node.inputs:
            counts[id(t)] = counts.get(id(t), 0) + 1
    for t in graph.outputs:
        counts[id(t)] = counts.get(id(t), 0) + 1
    return counts


def readers_of(graph: Graph) -> dict:
    """id(tensor) -> the nodes of the graph reading it (in graph order)."""
    readers: dict = {}
    for node in graph.nodes:
        for t in node.inputs:
            readers.setdefault(id(t), []).append(node)
    return readers


def replace_all_uses(graph: Graph, mapping: dict) -> None:
    """Replace uses of tensors (keyed by id) in node inputs and graph outputs. Subgraphs are closed, so
    the uses inside them come in through their node's inputs and need no recursion."""
    if not mapping:
        return
    for node in graph.nodes:
        if any(id(t) in mapping for t in node.inputs):
            node.inputs = [mapping.get(id(t), t) for t in node.inputs]
    graph.outputs = [mapping.get(id(t), t) for t in graph.outputs]


def set_nodes(graph: Graph, nodes: list) -> None:
    """Install a pass's new node list; control inputs to nodes that are gone are dropped."""
    present = {id(n) for n in nodes}
    for node in nodes:
        if node.control_inputs:
            node.control_inputs = [d for d in node.control_inputs if id(d) in present]
    graph.nodes = nodes


def resolve(mapping: dict, tensor):
    """Follow a replacement chain to its end."""
    while id(tensor) in mapping:
        tensor = mapping[id(tensor)]
    return tensor


def splice(sub: Graph, into: Graph, inputs) -> tuple:
    """Copy the nodes of closed subgraph `sub` into graph `into` with its placeholders bound to `inputs`.
    Returns (new nodes, tensors standing for sub's outputs). Nested graphs are copied and re-parented.
    A pass copies nodes structurally rather than through interpret.eval_graph: the copies keep their names and
    user lines (which error messages report) and the node list stays the pass's to order."""

    env = {id(p): t for p, t in zip(sub.inputs, inputs)}
    new_nodes = []
    for node in sub.nodes:
        attrs = {k: clone_graph(v, into, into._names) if isinstance(v, Graph) else v for k, v in node.attrs.items()}
        for g in [v for v in attrs.values() if isinstance(v, Graph)]:
            _rename_all(g, into)
        copy = make_node(into, node.op, [env[id(t)] for t in node.inputs], attrs,
                         [(t.dtype, t._shape) for t in node.outputs], node.name, node.location)
        for old, new in zip(node.outputs, copy.outputs):
            env[id(old)] = new
        new_nodes.append(copy)
    return new_nodes, [env[id(t)] for t in sub.outputs]


def _rename_all(graph: Graph, owner: Graph) -> None:
    """Give every placeholder and node of a copied graph a fresh name from `owner`'s namer."""
    for t in graph.inputs:
        t.node.name = owner.unique_name(t.node.name)
    for node in graph.nodes:
        node.name = owner.unique_name(node.name)
        for g in subgraphs(node):
            _rename_all(g, owner)
