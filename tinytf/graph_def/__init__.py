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


# The engine's Graph knows nothing of protobufs (runtime imports nothing above it); the face adds the method.
_Graph.as_graph_def = _graph_as_graph_def
