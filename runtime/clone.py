"""Copying graphs: `clone_graph` for passes that must not touch the traced original (re-applying a graph's
nodes into another graph is interpret.eval_graph's job)."""

from __future__ import annotations

from . import effects
from .graph import Graph, Node, SymbolicTensor


def clone_graph(graph: Graph, parent: Graph = None, _names=None) -> Graph:
    """A deep copy with the same names, captures (same outer values) and nested graphs."""
    new = Graph(graph.name, parent=parent)
    new._names = dict(graph._names) if _names is None else _names
    env = {}
    for t in graph.inputs:
        copy = _copy_node(t.node, new, [], {**t.node.attrs}, env)
        new.inputs.append(copy.outputs[0])
    for key, capture in graph.captures.items():
        new.captures[key] = capture.rebound(env[id(capture.placeholder)])
    for node in graph.nodes:
        attrs = {k: clone_graph(v, new, new._names) if isinstance(v, Graph) else v for k, v in node.attrs.items()}
        copy = _copy_node(node, new, [env[id(t)] for t in node.inputs], attrs, env)
        new.nodes.append(copy)
    node_map = {id(n): c for n, c in zip(graph.nodes, new.nodes)}
    for node, copy in zip(graph.nodes, new.nodes):
        copy.control_inputs = [node_map[id(d)] for d in node.control_inputs if id(d) in node_map]
    new.outputs = [env[id(t)] for t in graph.outputs]
    latest = effects.latest(graph)
    if latest is not None:
        effects.restart(new, node_map.get(id(latest)))
    return new


def _copy_node(node, graph, inputs, attrs, env) -> Node:
    copy = Node(graph, node.name, node.op, inputs, attrs, node.location)
    copy.tf_name, copy.tf_helpers = node.tf_name, node.tf_helpers
    copy.outputs = [SymbolicTensor(copy, t.index, t.dtype, t._shape) for t in node.outputs]
    for old, new in zip(node.outputs, copy.outputs):
        env[id(old)] = new
    return copy


__all__ = ["clone_graph"]
