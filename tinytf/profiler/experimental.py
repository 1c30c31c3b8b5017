"""tf.profiler.experimental: start/stop, the Profile context, Trace spans, ProfilerOptions, and the profiler
server and client (tinytf/profiler/host_trace.py records; remote.py serves)."""

from __future__ import annotations

import collections
import time
import types

from . import host_trace, remote


class ProfilerOptions(collections.namedtuple(
        "ProfilerOptions", ["host_tracer_level", "python_tracer_level", "device_tracer_level", "delay_ms"])):
    """TF's options: host_tracer_level (op spans are kept at every level above 0), python_tracer_level,
    device_tracer_level (no devices besides the host here), delay_ms (start that much later)."""

    def __new__(cls, host_tracer_level=2, python_tracer_level=0, device_tracer_level=1, delay_ms=None):
        return super().__new__(cls, host_tracer_level, python_tracer_level, device_tracer_level, delay_ms)


def start(logdir, options=None) -> None:
    """Start profiling; the trace goes to <logdir>/plugins/profile/<run>/<host>.trace.json.gz on stop()."""
    if options is not None and options.delay_ms:
        time.sleep(options.delay_ms / 1000.0)
    host_trace.start(logdir, options)


def stop() -> None:
    host_trace.stop()


class Profile:
    """`with tf.profiler.experimental.Profile(logdir):` profiles the block."""

    def __init__(self, logdir, options=None):
        self._logdir, self._options = logdir, options

    def __enter__(self):
        start(self._logdir, self._options)

    def __exit__(self, kind, value, tb):
        stop()


class Trace:
    """A named span on the trace viewer's timeline, with its keyword arguments as the span's arguments (TF's
    step_num=... marks training steps). Costs nothing when no profiler runs."""

    def __init__(self, name, **kwargs):
        self.name, self.kwargs = name, kwargs
        self._start = None

    def __enter__(self):
        if host_trace.current() is not None:
            self._start = time.perf_counter_ns()
        return self

    def __exit__(self, kind, value, tb):
        if self._start is not None:
            host_trace.record_span(self.name, self._start, time.perf_counter_ns(), self.kwargs)
            self._start = None


server = types.SimpleNamespace(start=remote.start_server)
client = types.SimpleNamespace(trace=remote.trace, monitor=remote.monitor)
