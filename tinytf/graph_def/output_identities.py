"""The `Identity` TF's FuncGraph puts after each output of a tf.function (`Identity`, `Identity_1`, ...), and
the `NoOp` its automatic control dependencies add when the function has stateful ops (the outputs wait for it,
it waits for them): what `concrete.graph.get_operations()` lists last and `as_graph_def()` writes. tinytf's
graph returns its tensors directly and orders its effects itself, so these nodes stand outside it, built once
per graph for the views that show TF's graph."""

from __future__ import annotations

from tinytf.runtime.graph import Node, SymbolicTensor, is_stateful
from tinytf.runtime.ops.core import identity_op
from tinytf.runtime.ops.group import no_op


def output_identities(graph) -> list:
    """One Identity node per output of `graph` (not in graph.nodes), named as TF names them: `Identity`, then
    `Identity_1`, ... past any name the graph already holds (compared without case, as TF's unique_name); then,
    when the graph has outputs and stateful nodes, TF's `NoOp` with a control input from each."""
    cached = graph.__dict__.get("_tf_output_identities")
    if cached is not None and [n.inputs[0] for n in cached] == list(graph.outputs):
        return cached
    taken = {(n.tf_name or n.name).lower() for n in [t.node for t in graph.inputs] + list(graph.nodes)}

    def unique(base):
        name, i = base, 1
        while name.lower() in taken:
            name, i = f"{base}_{i}", i + 1
        taken.add(name.lower())
        return name

    nodes = []
    for tensor in graph.outputs:
        name = unique("Identity")
        node = Node(graph, name, identity_op, [tensor], {}, None)
        node.outputs = [SymbolicTensor(node, 0, tensor.dtype, tensor._shape)]
        node.tf_name = name
        nodes.append(node)
    stateful = [n for n in graph.nodes if is_stateful(n)]
    if nodes and stateful:
        name = unique("NoOp")
        node = Node(graph, name, no_op, [], {}, None)
        node.control_inputs = stateful
        node.tf_name = name
        for identity in nodes:
            identity.control_inputs = [node]
        nodes.append(node)
    graph.__dict__["_tf_output_identities"] = nodes
    return nodes
