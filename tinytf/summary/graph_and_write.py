"""tf.summary.graph and tf.summary.write.

`graph` writes a graph as TensorBoard's Graphs dashboard reads it: an Event whose `graph_def` holds the
serialized GraphDef, at step 0 (TF's write_graph_summary). It is eager-only, as in TF.
`write` is the generic summary every tf.summary.* is built on: a tensor of any dtype under `tag` (verbatim, no
name scope), with the SummaryMetadata given (a proto or its bytes), through the same stateful write_summary op,
so inside a tf.function it writes on every call.
"""

from __future__ import annotations

from tensorboard.compat.proto import graph_pb2, summary_pb2

from tinytf.runtime.context import executing_eagerly
from tinytf.runtime.graph import Graph as _EngineGraph
from tinytf.runtime.ops.summary import write_summary

from ..constant import constant
from . import encode
from .summaries import _record, _step, _value
from .writer import state

GRAPH_DEF_EVENT = "graph_def_event"  # the writer thread's kind for an Event.graph_def (event_file.py)


def graph(graph_data):
    """Write `graph_data` (a tf.Graph, a tf.function's graph, or a GraphDef) to the default writer. Returns a
    bool tensor: False when no writer is the default or summaries are not recorded."""
    if not executing_eagerly():
        raise ValueError("graph() cannot be invoked inside a graph context.")
    writer = state.writer
    if writer is None or not bool(_record().numpy()):
        return constant(False)
    if isinstance(graph_data, graph_pb2.GraphDef):
        serialized = graph_data.SerializeToString()
    elif isinstance(graph_data, _EngineGraph) or _is_v1_graph(graph_data):
        serialized = graph_data.as_graph_def().SerializeToString()
    else:
        raise ValueError(f"Argument 'graph_data' is not tf.Graph or tf.compat.v1.GraphDef. Received "
                         f"graph_data={graph_data} of type {type(graph_data).__name__}.")
    writer.write_value(GRAPH_DEF_EVENT, "", 0, serialized, {})
    return constant(True)


def _is_v1_graph(value) -> bool:
    from ..compat.v1.graph import Graph as V1Graph
    return isinstance(value, V1Graph)


def write(tag, tensor, step=None, metadata=None, name=None):
    """Write `tensor` (or the tensor `tensor()` returns, called only when recording) under `tag` at `step`, with
    `metadata` (a SummaryMetadata or its serialized bytes). Returns a bool tensor: whether it was written."""
    if state.writer is None:
        return constant(False)
    if metadata is None:
        serialized = b""
    elif hasattr(metadata, "SerializeToString"):
        serialized = metadata.SerializeToString()
    else:
        serialized = bytes(metadata)
    record = _record()
    if executing_eagerly() and not bool(record.numpy()):
        return constant(False)
    value = _value(tensor() if callable(tensor) else tensor)
    return write_summary(state.writer, "generic", tag, _step(step), value, record, {"metadata": serialized})


def _generic(value, metadata):
    parsed = summary_pb2.SummaryMetadata()
    parsed.ParseFromString(metadata)
    return value, parsed


encode.ENCODERS["generic"] = _generic
