"""GraphDef: tinytf graphs in TensorFlow's GraphDef protobuf (export.py), TensorFlow's graphs into tinytf
(tf_import.py), the readable form TensorBoard shows (display.py), and the op-name table both directions share
(op_names.py)."""

from tinytf.runtime import naming
from tinytf.runtime.graph import Graph as _Graph

from . import node_names  # noqa: F401 - installs TF's node names into the engine's namer
from .export import as_graph_def
from .output_identities import output_identities

__all__ = ["as_graph_def"]


def _graph_as_graph_def(self, from_version=None, add_shapes=False, optimized=False):
    """`graph.as_graph_def()`: TF's GraphDef of this graph (a ConcreteFunction's graph or a TF1 graph);
    add_shapes=True gives every node its `_output_shapes`. A function's graph exports as traced (what the user
    wrote, TF's names, as TF shows it); `optimized=True` (tinytf's own, for inspecting the passes) exports the
    optimized graph that runs instead."""
    from tinytf.compat.v1.graph import Graph as V1Graph

    if not isinstance(self, V1Graph):
        graph = self if optimized else getattr(self, "traced_graph", None) or self
        naming.name_unclaimed(graph)
        return as_graph_def(graph, add_shapes=add_shapes)
    graph_def = as_graph_def(self, variables_as_handles=True, add_shapes=add_shapes)
    _in_creation_order(self, graph_def)
    return graph_def


def _in_creation_order(graph, graph_def) -> None:
    """Put a TF1 graph's NodeDefs in the order its ops were created, as TF writes them (the exporter writes the
    inputs first); a helper NodeDef the exporter adds for an op (its axis constant) stays just before it."""
    created = {graph.tf_names.get(id(node)): i for i, node in enumerate(graph._created)}
    keyed, pending = [], []
    for position, node_def in enumerate(graph_def.node):
        pending.append((position, node_def))
        if node_def.name in created:
            keyed += [(created[node_def.name], p, n) for p, n in pending]
            pending = []
    keyed += [(len(created), p, n) for p, n in pending]
    ordered = [n for _, _, n in sorted(keyed, key=lambda item: item[:2])]
    copies = [type(n)() for n in ordered]
    for copy, node_def in zip(copies, ordered):
        copy.CopyFrom(node_def)
    del graph_def.node[:]
    graph_def.node.extend(copies)


def _user_nodes(graph) -> list:
    """The nodes of a function's graph as TF lists its operations: the graph as traced (a ConcreteFunction's
    optimized graph links it), its placeholders first, with TF's names, then the `Identity` TF puts after each
    output."""
    traced = getattr(graph, "traced_graph", None) or graph
    naming.name_unclaimed(traced)
    return [t.node for t in traced.inputs] + list(traced.nodes) + output_identities(traced)


def _get_operations(self) -> list:
    """`graph.get_operations()` of a tf.function's graph: its operations as traced, with TF's names and types
    (`sc/mul`, `Mul`), as TF shows them; the optimized graph that runs may fuse them."""
    from tinytf.compat.v1.ops import Operation

    return [Operation(node) for node in _user_nodes(self)]


def _get_operation_by_name(self, name: str):
    from tinytf.compat.v1.ops import Operation

    for node in _user_nodes(self):
        if (node.tf_name or node.name) == name:
            return Operation(node)
    raise KeyError(f"The name '{name}' refers to an Operation not in the graph.")


def _get_tensor_by_name(self, name: str):
    op_name, _, index = name.rpartition(":")
    if not op_name or not index.isdigit():
        raise ValueError(f"The name '{name}' looks like an (invalid) Operation name, not a Tensor name "
                         "(tensor names end in ':<output index>', e.g. 'x:0').")
    try:
        outputs = _get_operation_by_name(self, op_name).outputs
    except KeyError:
        raise KeyError(f"The name '{name}' refers to a Tensor which does not exist.") from None
    if int(index) >= len(outputs):
        raise KeyError(f"The name '{name}' refers to a Tensor which does not exist: {op_name} has "
                       f"{len(outputs)} outputs.")
    return outputs[int(index)]


# The engine's Graph knows nothing of protobufs (runtime imports nothing above it); the face adds the methods.
# (A TF1 graph has its own get_operations and lookups, kept as it is built.)
_Graph.as_graph_def = _graph_as_graph_def
_Graph.get_operations = _get_operations
_Graph.get_operation_by_name = _get_operation_by_name
_Graph.get_tensor_by_name = _get_tensor_by_name
