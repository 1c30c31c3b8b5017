"""The function library of a SavedModel in TensorFlow's own op names, so that TensorFlow loads what tinytf
saves.

TensorFlow's loader turns every FunctionDef of `meta_graph.graph_def.library` into a graph of its ops
(`function_def_to_graph`), so the library must speak TF: `ReadVariableOp` on a DT_RESOURCE argument for a
captured variable, `AddV2`, `StatelessIf` / `While` whose branches and bodies are FunctionDefs of their own.
The GraphDef exporter (tinytf/graph_def/export.py) already writes a graph that way; this module adds what a
SavedModel's functions carry besides their nodes, as TF 2.21 writes them: each argument's
`_user_specified_name` and `_output_shapes`, the resource arguments' handle data (dtype and shape of the
variable), the function's `_input_shapes`.

tinytf's own loader reads the exact graphs instead (graph_io, kept beside this library in the MetaGraphDef's
collection `NATIVE_LIBRARY`): TF's dialect has no place for some tinytf attributes, and a round trip through
tinytf should give back the graph that was traced, node for node."""

from __future__ import annotations

from tensorboard.compat.proto import function_pb2

from tinytf.graph_def import protos as p
from tinytf.graph_def.export import Exporter
from tinytf.runtime.graph import RESOURCE

# The MetaGraphDef collection holding tinytf's own FunctionDefLibrary (serialized, one bytes value). TF's
# TF2 loader does not read collections, and its TF1 loader keeps an unknown bytes collection as it is.
NATIVE_LIBRARY = "tinytf_function_library"


class TFLibrary:
    """The TF-dialect FunctionDefs of the concrete functions being saved (and of their branches and bodies)."""

    def __init__(self):
        self.exporter = Exporter()
        self.failures: list = []  # (function name, reason) of graphs TF's op names cannot express

    def add(self, graph, name: str, captured: dict) -> None:
        """Write `graph` as the FunctionDef `name`. `captured` maps id(placeholder) of a captured input to the
        variable (or tensor) it stands for: variables give their dtype and shape as the argument's handle data."""
        self.exporter.names = set()  # node names are unique per function, as in TF
        before = len(self.exporter.library.function)
        try:
            self.exporter.write_function(graph, name, "")
        except (NotImplementedError, TypeError) as e:
            del self.exporter.library.function[before:]
            self.failures.append((name, str(e)))
            return
        fdef = next(f for f in self.exporter.library.function if f.signature.name == name)
        for i, (arg, tensor) in enumerate(zip(fdef.signature.input_arg, graph.inputs)):
            attrs = fdef.arg_attr[i].attr
            outer = captured.get(id(tensor))
            if tensor.dtype is RESOURCE:
                attrs["_user_specified_name"].s = b"resource"
                if outer is not None and hasattr(outer, "dtype") and outer.dtype is not RESOURCE:  # a variable
                    handle = arg.handle_data.add(dtype=p.type_enum(outer.dtype))
                    handle.shape.CopyFrom(p.shape_proto(getattr(outer, "_shape", None)))
                continue
            attrs["_user_specified_name"].s = tensor.node.name.encode()
            attrs["_output_shapes"].CopyFrom(p.attr_shapes([tensor._shape]))
        fdef.attr["_input_shapes"].CopyFrom(p.attr_shapes([() if t.dtype is RESOURCE else t._shape
                                                          for t in graph.inputs]))

    def functions(self) -> list:
        return list(self.exporter.library.function)


def native_collection(meta_graph, functions) -> None:
    """Keep tinytf's own FunctionDefs in the MetaGraphDef's collection NATIVE_LIBRARY."""
    library = function_pb2.FunctionDefLibrary()
    library.function.extend(functions)
    meta_graph.collection_def[NATIVE_LIBRARY].bytes_list.value.append(library.SerializeToString(deterministic=True))


def native_functions(meta_graph):
    """tinytf's own FunctionDefs of a SavedModel tinytf wrote, or None (a SavedModel TensorFlow wrote)."""
    if NATIVE_LIBRARY not in meta_graph.collection_def:
        return None
    library = function_pb2.FunctionDefLibrary()
    library.ParseFromString(meta_graph.collection_def[NATIVE_LIBRARY].bytes_list.value[0])
    return list(library.function)


__all__ = ["TFLibrary", "native_collection", "native_functions", "NATIVE_LIBRARY"]
