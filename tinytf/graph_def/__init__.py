"""GraphDef: tinytf graphs in TensorFlow's GraphDef protobuf (export.py), TensorFlow's graphs into tinytf
(tf_import.py), the readable form TensorBoard shows (display.py), and the op-name table both directions share
(op_names.py)."""

from tinytf.runtime.graph import Graph as _Graph

from . import node_names  # noqa: F401 - installs TF's node names into the engine's namer
from .export import as_graph_def

__all__ = ["as_graph_def"]


def _graph_as_graph_def(self, from_version=None, add_shapes=False):
    """`graph.as_graph_def()`: TF's GraphDef of this graph (a ConcreteFunction's graph or a TF1 graph);
    add_shapes=True gives every node its `_output_shapes`."""
    from tinytf.compat.v1.graph import Graph as V1Graph

    return as_graph_def(self, variables_as_handles=isinstance(self, V1Graph), add_shapes=add_shapes)


def _user_nodes(graph) -> list:
    """The nodes of a function's graph as TF lists its operations: the graph as traced (a ConcreteFunction's
    optimized graph links it), its placeholders first, with TF's names."""
    traced = getattr(graph, "traced_graph", None) or graph
    return [t.node for t in traced.inputs] + list(traced.nodes)


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
