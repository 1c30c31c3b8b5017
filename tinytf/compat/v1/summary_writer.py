"""TF1's `tf.compat.v1.summary.FileWriter`: Event protocol buffers (summaries, the graph, session logs) appended
to an `events.out.tfevents.*` file as TFRecords, the file TensorBoard reads. FileWriterCache shares one writer
per folder, as TF1's hooks do."""

from __future__ import annotations

import logging
import os
import socket
import threading
import time

from tensorboard.compat.proto import event_pb2, summary_pb2

from ...io.tfrecord import frame

Event = event_pb2.Event
SessionLog = event_pb2.SessionLog
Summary = summary_pb2.Summary
SummaryMetadata = summary_pb2.SummaryMetadata
HistogramProto = summary_pb2.HistogramProto


class FileWriter:
    """Writes Events to a new event file in `logdir`; add_summary takes a Summary proto or its serialized
    bytes (what a TF1 summary op gives when run)."""

    def __init__(self, logdir, graph=None, max_queue=10, flush_secs=120, graph_def=None, filename_suffix=None,
                 session=None):
        self._logdir = os.fspath(logdir)
        os.makedirs(self._logdir, exist_ok=True)
        self._suffix = filename_suffix or ""
        self._lock = threading.Lock()
        self._max_queue = max_queue
        self._pending: list = []
        self._closed = False
        self._open()
        if graph is not None or graph_def is not None:
            self.add_graph(graph, graph_def=graph_def)

    def _open(self):
        name = f"events.out.tfevents.{int(time.time()):010d}.{socket.gethostname()}{self._suffix}"
        self._path = os.path.join(self._logdir, name)
        self._file = open(self._path, "ab")
        self._file.write(frame(Event(wall_time=time.time(), file_version="brain.Event:2").SerializeToString()))
        self._file.flush()
        self._closed = False

    def get_logdir(self) -> str:
        return self._logdir

    def add_event(self, event):
        with self._lock:
            if self._closed:
                raise RuntimeError(f"the FileWriter of {self._logdir!r} is closed; reopen() it first")
            self._pending.append(frame(event.SerializeToString()))
            if len(self._pending) >= self._max_queue:
                self._write_pending()

    def add_summary(self, summary, global_step=None):
        if isinstance(summary, (bytes, bytearray)):
            summary = Summary.FromString(bytes(summary))
        elif hasattr(summary, "item") and not isinstance(summary, Summary):  # a fetched 0-d string array
            summary = Summary.FromString(summary.item())
        event = Event(wall_time=time.time(), summary=summary)
        if global_step is not None:
            event.step = int(global_step)
        self.add_event(event)

    def add_session_log(self, session_log, global_step=None):
        event = Event(wall_time=time.time(), session_log=session_log)
        if global_step is not None:
            event.step = int(global_step)
        self.add_event(event)

    def add_graph(self, graph, global_step=None, graph_def=None):
        if graph is not None and graph_def is not None:
            raise ValueError("Please pass only graph, or graph_def (deprecated), but not both.")
        if graph is not None:
            graph_def = graph.as_graph_def(add_shapes=True)
        event = Event(wall_time=time.time(), graph_def=graph_def.SerializeToString())
        if global_step is not None:
            event.step = int(global_step)
        self.add_event(event)

    def add_meta_graph(self, meta_graph_def, global_step=None):
        """An Event holding a MetaGraphDef (TensorBoard's graph and its collections)."""
        event = Event(wall_time=time.time(), meta_graph_def=meta_graph_def.SerializeToString())
        if global_step is not None:
            event.step = int(global_step)
        self.add_event(event)

    def add_run_metadata(self, run_metadata, tag, global_step=None):
        tagged = event_pb2.TaggedRunMetadata(tag=tag, run_metadata=run_metadata.SerializeToString())
        event = Event(wall_time=time.time(), tagged_run_metadata=tagged)
        if global_step is not None:
            event.step = int(global_step)
        self.add_event(event)

    def _write_pending(self):
        if self._pending:
            self._file.write(b"".join(self._pending))
            self._file.flush()
            self._pending = []

    def flush(self):
        with self._lock:
            if not self._closed:
                self._write_pending()

    def close(self):
        with self._lock:
            if not self._closed:
                self._write_pending()
                self._file.close()
                self._closed = True

    def reopen(self):
        with self._lock:
            if self._closed:
                self._open()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class FileWriterCache:
    """One FileWriter per folder, shared by the hooks that write there."""

    _cache: dict = {}
    _lock = threading.Lock()

    @staticmethod
    def get(logdir):
        with FileWriterCache._lock:
            writer = FileWriterCache._cache.get(logdir)
            if writer is None:
                from .graph import get_default_graph

                writer = FileWriterCache._cache[logdir] = FileWriter(logdir)
                try:
                    writer.add_graph(get_default_graph())
                except AttributeError as e:  # a graph holding queues: tinytf's GraphDef export writes variables only
                    logging.getLogger("tensorflow").warning(
                        "the event file in %s has no graph: tinytf cannot export this graph as a GraphDef (%s)",
                        logdir, e)
            return writer

    @staticmethod
    def clear():
        with FileWriterCache._lock:
            for writer in FileWriterCache._cache.values():
                writer.close()
            FileWriterCache._cache = {}


__all__ = ["Event", "FileWriter", "FileWriterCache", "HistogramProto", "SessionLog", "Summary", "SummaryMetadata"]
