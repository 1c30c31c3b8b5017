"""tf.summary.trace_on / trace_off / trace_export: the graphs of the tf.functions called while a trace is on,
written to the default writer as TF's trace_export writes them (a RunMetadata whose function_graphs hold the
graphs, under the graphs plugin's "graph_run_metadata_graph"), so TensorBoard's Graphs tab lists them by
tag. The graph written is the readable form of tinytf.graph_def.display (boxes named after the user's lines,
variables and loops). With profiler=True each call runs op by op with a clock around every top-level op, and
the RunMetadata also carries step_stats (TensorBoard's "compute time" colouring of the graph)."""

from __future__ import annotations

import logging
import time

from tensorboard.compat.proto import config_pb2, step_stats_pb2

from tinytf import config
from tinytf.runtime.context import executing_eagerly, state
from tinytf.runtime.graph import Graph

from .writer import state as summary_state

_logger = logging.getLogger("tinytf")
_DEVICE = "/job:localhost/replica:0/task:0/device:CPU:0"


class _Trace:
    def __init__(self, graph: bool, profiler: bool):
        self.graph, self.profiler = graph, profiler
        self.functions: list = []  # ConcreteFunctions called, in first-call order
        self.profiles: dict = {}  # id(ConcreteFunction) -> [(node, start_us, end_us)] of its latest call

    def __call__(self, concrete, leaves):
        if all(f is not concrete for f in self.functions):
            self.functions.append(concrete)
        if self.profiler and not state.tapes:
            return _profiled_call(self, concrete, leaves)
        return None


_trace = {"current": None}


def trace_on(graph=True, profiler=False, profiler_outdir=None):
    """Start noting the graph of every tf.function called (and, with profiler=True, timing its ops; tinytf's
    profile goes into the event file, `profiler_outdir` is accepted and unused: there is no TF Profiler)."""
    if not executing_eagerly():  # as TF: a warning, not an error
        _logger.warning("Cannot enable trace inside a tf.function.")
        return
    if _trace["current"] is not None:
        _logger.warning("Trace already enabled")
        return
    _trace["current"] = _Trace(bool(graph), bool(profiler))
    config.call_tracer = _trace["current"]
    config.unspecialize_all()  # specialized calls skip the general path, where calls are noted


def trace_off():
    """Stop the trace and forget what it noted."""
    _trace["current"] = None
    config.call_tracer = None


def trace_export(name, step=None, profiler_outdir=None):
    """Write the noted graphs (and profiles) under the tag `name` at `step` to the default writer, then stop
    the trace. Without a default writer nothing is written (the trace still stops)."""
    if not executing_eagerly():
        _logger.warning("Cannot export trace inside a tf.function.")
        return
    trace = _trace["current"]
    if trace is None:
        raise ValueError("Must enable trace before export through tf.summary.trace_on.")
    try:
        writer = summary_state.writer
        if writer is None:
            return
        if step is None:
            step = summary_state.step
            if step is None:
                raise ValueError("No step set. Please specify one either through the `step` argument or "
                                 "through tf.summary.experimental.set_step()")
        step = int(step.numpy() if hasattr(step, "numpy") else step)
        # TF writes the graphs alone (graph=True) or the graphs with the run's step stats (profiler=True)
        plugin = "graph_run_metadata" if trace.profiler else "graph_run_metadata_graph"
        writer.write_value(plugin, name, step, run_metadata(trace).SerializeToString(), {})
    finally:
        trace_off()


def run_metadata(trace: _Trace) -> config_pb2.RunMetadata:
    from tinytf.graph_def.display import display_graph_def

    metadata = config_pb2.RunMetadata()
    stats = step_stats_pb2.DeviceStepStats(device=_DEVICE)
    for concrete in trace.functions:
        names: dict = {}
        graph_def = display_graph_def(concrete.graph, names)
        if trace.graph:
            metadata.function_graphs.add().pre_optimization_graph.CopyFrom(graph_def)
        for node, start, end in trace.profiles.get(id(concrete), ()):
            if id(node) not in names:
                continue
            stats.node_stats.add(node_name=names[id(node)], all_start_micros=start, op_start_rel_micros=0,
                                 op_end_rel_micros=end - start, all_end_rel_micros=end - start,
                                 timeline_label=f"{names[id(node)]} = {node.op.name}()")
    if trace.profiler:
        metadata.step_stats.dev_stats.append(stats)
    return metadata


def _profiled_call(trace: _Trace, concrete, leaves):
    """Run the function's graph op by op through the dispatcher, timing each top-level op (a cond or a loop
    is timed as a whole)."""
    from tinytf.runtime.interpret import eval_graph as replay_graph
    from tinytf.runtime.resource import Resource
    from tinytf.runtime.tensor import EagerTensor, Tensor

    from ..concrete_function import _captures, with_tensors

    graph = concrete.graph
    args = [x for x in leaves if isinstance(x, (Tensor, Resource))]
    captured = [c.outer for c in _captures(graph)]
    if any(c is None for c in captured):
        concrete._captured()  # raises the deleted-variable error
    timings = []
    outputs = _timed_replay(graph, args + captured, timings, replay_graph, EagerTensor)
    trace.profiles[id(concrete)] = timings
    result = with_tensors(concrete.structured_outputs, outputs)
    return config.RAN_RETURNING_NONE if result is None else result  # None would make the caller run it again


def _timed_replay(graph: Graph, inputs, timings, replay_graph, EagerTensor):
    """replay_graph's walk for the top level, one node at a time, each inside a subgraph of one node."""
    env = {id(p): value for p, value in zip(graph.inputs, inputs)}
    for node in graph.nodes:
        if node.op.name == "const":
            env[id(node.outputs[0])] = EagerTensor(node.attrs["value"], node.attrs["dtype"])
            continue
        single = Graph(graph.name, parent=None)
        single.inputs = [t for t in node.inputs]
        single.nodes = [node]
        single.outputs = list(node.outputs)
        wall, start = time.time(), time.perf_counter()
        results = replay_graph(single, [env[id(t)] for t in node.inputs])
        elapsed = time.perf_counter() - start
        timings.append((node, int(wall * 1e6), int((wall + elapsed) * 1e6)))
        for out, value in zip(node.outputs, results):
            env[id(out)] = value
    return [env[id(t)] for t in graph.outputs]
