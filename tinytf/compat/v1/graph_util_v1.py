"""tf.compat.v1.graph_util's own functions on GraphDef protos and TF1 graphs (helper v1alias): extract_sub_graph
(the nodes the destinations depend on, data or control, in the GraphDef's order), remove_training_nodes
(CheckNumerics dropped, Identity and StopGradient spliced out, as TF's) and tensor_shape_from_node_def_name
(the static shape of a node's output in a graph). The GraphDef is tensorboard's proto, as tf.compat.v1.GraphDef
and Graph.as_graph_def give it."""

from __future__ import annotations

import copy

from tensorboard.compat.proto import graph_pb2


def _node_name(name: str) -> str:
    """A node's name from an input reference: '^control' and 'node:1' both name their node."""
    return name[1:].split(":")[0] if name.startswith("^") else name.split(":")[0]


def extract_sub_graph(graph_def, dest_nodes):
    """A GraphDef of the nodes `dest_nodes` reach through their inputs, in graph_def's node order, with its
    library and versions. TypeError for a non-GraphDef or a bare string; AssertionError for an absent node."""
    if not isinstance(graph_def, graph_pb2.GraphDef):
        raise TypeError(f"graph_def must be a graph_pb2.GraphDef proto, but got type {type(graph_def)}.")
    if isinstance(dest_nodes, str):
        raise TypeError(f"dest_nodes must be an iterable of strings, but got type {type(dest_nodes)}.")
    by_name, order, inputs = {}, {}, {}
    for index, node in enumerate(graph_def.node):
        name = _node_name(node.name)
        by_name[name], order[name] = node, index
        inputs[name] = [_node_name(i) for i in node.input]
    for dest in dest_nodes:
        assert dest in by_name, f"{dest} is not in graph"
    keep, stack = set(), list(dest_nodes)
    while stack:
        name = stack.pop()
        if name in keep:
            continue
        keep.add(name)
        stack.extend(inputs.get(name, ()))
    out = graph_pb2.GraphDef()
    for name in sorted(keep, key=lambda n: order[n]):
        out.node.extend([copy.deepcopy(by_name[name])])
    out.library.CopyFrom(graph_def.library)
    out.versions.CopyFrom(graph_def.versions)
    return out


def _copy_with_inputs(node, inputs):
    new = copy.deepcopy(node)
    del new.input[:]
    new.input.extend(inputs)
    return new


def remove_training_nodes(input_graph, protected_nodes=None):
    """A GraphDef for inference: CheckNumerics nodes removed (and the references to them), then Identity and
    StopGradient nodes spliced out (their users read their input instead), except protected ones, those with
    control inputs, those that are control inputs, and those other nodes are colocated with. As TF, only
    references to a node's output 0 by its bare name are rewired; the library and versions are not kept."""
    protected = set(protected_nodes or ())
    removed = {n.name for n in input_graph.node if n.op == "CheckNumerics" and n.name not in protected}
    kept = [_copy_with_inputs(n, [i for i in n.input if i.lstrip("^") not in removed])
            for n in input_graph.node if n.name not in removed]
    control_inputs, has_control_input, colocated = set(), set(), set()
    for node in kept:
        for name in node.input:
            if "^" in name:
                control_inputs.add(name.replace("^", ""))
                has_control_input.add(node.name)
        if "_class" in node.attr:
            for entry in node.attr["_class"].list.s:
                entry = entry.decode("utf-8")
                colocated.add(entry[5:] if entry.startswith("loc:@") else entry)
    spliced = {node.name: node.input[0] for node in kept
               if node.op in ("Identity", "StopGradient") and node.name not in protected
               and node.name not in colocated and node.name not in has_control_input
               and node.name not in control_inputs}

    def rewired(name):
        while name.lstrip("^") in spliced:
            name = spliced[name.lstrip("^")]
        return name

    out = graph_pb2.GraphDef()
    out.node.extend([_copy_with_inputs(n, [rewired(i) for i in n.input]) for n in kept if n.name not in spliced])
    return out


def tensor_shape_from_node_def_name(graph, input_name):
    """The static shape of `input_name` ("node" means its output 0) in `graph`."""
    canonical = input_name if ":" in input_name else input_name + ":0"
    return graph.get_tensor_by_name(canonical).get_shape()


__all__ = ["extract_sub_graph", "remove_training_nodes", "tensor_shape_from_node_def_name"]
