"""tf.io.write_graph: a graph's GraphDef to a file, as protobuf text (`as_text=True`, TF's default) or binary.
The file is written under a temporary name and renamed, so a failed write never leaves half a graph behind."""

from __future__ import annotations

import os
import tempfile

from google.protobuf import text_format


def write_graph(graph_or_graph_def, logdir, name, as_text=True) -> str:
    """`tf.io.write_graph`: write the GraphDef of a graph (or a GraphDef) to logdir/name; returns the path."""

    graph_def = graph_or_graph_def
    if hasattr(graph_def, "as_graph_def"):
        graph_def = graph_def.as_graph_def()
    if not hasattr(graph_def, "SerializeToString"):
        raise TypeError(f"write_graph: expected a graph or a GraphDef, got {type(graph_or_graph_def).__name__}")
    logdir = os.fspath(logdir)
    os.makedirs(logdir, exist_ok=True)
    path = os.path.join(logdir, name)
    data = text_format.MessageToString(graph_def).encode() if as_text else graph_def.SerializeToString()
    handle, temporary = tempfile.mkstemp(dir=logdir, prefix=f".{os.path.basename(name)}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as f:
            f.write(data)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.remove(temporary)
        raise
    return path
