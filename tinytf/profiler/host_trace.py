"""The host profiler behind tf.profiler.experimental: while a session is on it records a span for every eager op
(runtime op observers), every tf.function call (config.call_tracer, chained with tf.summary's) and every
tf.profiler.experimental.Trace block, then writes them in the Chrome trace-event format that chrome://tracing,
Perfetto and TensorBoard's trace viewer read: <logdir>/plugins/profile/<YYYY_MM_DD_HH_MM_SS>/<host>.trace.json.gz,
the run folder TF's profiler creates (TF writes its XPlane protobuf there; tinytf writes the trace viewer's JSON).
"""

from __future__ import annotations

import gzip
import json
import os
import socket
import threading
import time

from tinytf import config
from tinytf.runtime.context import add_op_observer, remove_op_observer, state
from tinytf.runtime.errors import AlreadyExistsError, UnavailableError

_lock = threading.Lock()
_session: list = [None]  # the running _Session, or None


class _Session:
    def __init__(self, logdir: str, options):
        self.logdir, self.options = logdir, options
        self.start_ns = time.perf_counter_ns()
        self.wall_start = time.time()
        self.events: list = []  # (name, category, start_ns, end_ns, thread id, args)
        self.previous_tracer = None

    def add(self, name, category, start_ns, end_ns, args=None):
        self.events.append((name, category, start_ns, end_ns, threading.get_ident(), args))

    # --- the hooks ---
    def on_op(self, op, inputs, outputs, start_ns, end_ns):
        from tinytf.graph_def.node_names import tf_type

        self.add(tf_type(op), "op", start_ns, end_ns)

    def on_call(self, concrete, leaves):
        """config.call_tracer: time one tf.function call (runs it, unless an earlier tracer did)."""
        from tinytf.concrete_function import graph_values

        start = time.perf_counter_ns()
        previous = self.previous_tracer
        result = previous(concrete, leaves) if previous is not None else None
        if result is None:
            if state.tapes:  # recorded calls run op by op on the general path: their ops are timed there
                return None
            result = concrete._run(*graph_values(leaves))
        self.add(f"__inference_{concrete.name}", "function", start, time.perf_counter_ns())
        return config.RAN_RETURNING_NONE if result is None else result

    # --- output ---
    def trace_events(self) -> dict:
        pid = os.getpid()
        threads = sorted({e[4] for e in self.events})
        tids = {ident: i + 1 for i, ident in enumerate(threads)}
        events = [{"ph": "M", "pid": pid, "name": "process_name", "args": {"name": "/host:CPU"}}]
        events += [{"ph": "M", "pid": pid, "tid": tids[t], "name": "thread_name",
                    "args": {"name": "python main" if t == threading.main_thread().ident else f"thread {tids[t]}"}}
                   for t in threads]
        for name, category, start, end, ident, args in self.events:
            event = {"ph": "X", "pid": pid, "tid": tids[ident], "name": name, "cat": category,
                     "ts": (start - self.start_ns) / 1000.0, "dur": max(end - start, 0) / 1000.0}
            if args:
                event["args"] = {k: str(v) for k, v in args.items()}
            events.append(event)
        return {"displayTimeUnit": "ns", "metadata": {"highres-ticks": True}, "traceEvents": events}

    def write(self) -> str:
        run = time.strftime("%Y_%m_%d_%H_%M_%S", time.localtime(self.wall_start))
        folder = os.path.join(self.logdir, "plugins", "profile", run)
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, f"{socket.gethostname()}.trace.json.gz")
        with gzip.open(path, "wt", encoding="utf-8") as f:
            json.dump(self.trace_events(), f)
        return path


def start(logdir, options=None) -> None:
    """Start profiling: spans of eager ops, tf.function calls and Trace blocks, until stop()."""
    with _lock:
        if _session[0] is not None:
            raise AlreadyExistsError("Another profiler is running.")
        session = _Session(os.fspath(logdir), options)
        session.previous_tracer = config.call_tracer
        _session[0] = session
    add_op_observer(session.on_op)
    config.call_tracer = session.on_call
    config.unspecialize_all()  # specialized tf.function calls skip the general path, where calls are timed


def stop(save: bool = True):
    """Stop profiling and write the trace under the logdir given to start(); returns the file written."""
    with _lock:
        session = _session[0]
        if session is None:
            raise UnavailableError("Cannot export profiling results. No profiler is running.")
        _session[0] = None
    remove_op_observer(session.on_op)
    if config.call_tracer == session.on_call:  # `==`: each read of session.on_call is a new bound method
        config.call_tracer = session.previous_tracer
    return session.write() if save else None


def current():
    return _session[0]


def record_span(name, start_ns, end_ns, args) -> None:
    session = _session[0]
    if session is not None:
        session.add(name, "trace", start_ns, end_ns, args)
