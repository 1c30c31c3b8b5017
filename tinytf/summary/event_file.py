"""One TensorBoard event file with its background writer thread. A summary op only appends
(wall time, plugin, tag, step, value, options) to a list; the thread encodes values into Event protobufs
and writes them as TFRecord records (length, masked CRC32C, data, CRC; tinytf.io.tfrecord), so a
summary inside a training step costs an append, as TF's queued writer intends."""

from __future__ import annotations

import itertools
import os
import socket
import threading
import time

import numpy as np
from tensorboard.compat.proto import event_pb2, summary_pb2

from ..io.tfrecord import frame
from . import encode

_file_numbers = itertools.count()


class EventFile:
    """Owns the file and the thread; the thread holds a reference to this object only (never to the
    SummaryWriter), so a dropped writer can close it."""

    def __init__(self, logdir: str, max_queue: int, flush_secs: float, filename_suffix: str):
        name = (f"events.out.tfevents.{int(time.time()):010d}.{socket.gethostname()}.{os.getpid()}."
                f"{next(_file_numbers)}{filename_suffix}")
        self.path = os.path.join(logdir, name)
        self._file = open(self.path, "wb")
        version = event_pb2.Event(wall_time=time.time(), file_version="brain.Event:2")
        self._file.write(frame(version.SerializeToString()))
        self._file.flush()
        self._max_queue = max_queue
        self._flush_secs = flush_secs
        self._pending: list = []
        self._written = 0  # how many queued items are on disk (flush waits for all queued before it)
        self._queued = 0
        self._flush_wanted = False
        self._closing = False
        self._error = None  # the first exception of the thread, raised to the caller at the next call
        self._changed = threading.Condition()
        self._thread = threading.Thread(target=self._run, name=f"tinytf summary writer {self.path}", daemon=True)
        self._thread.start()

    def put(self, plugin: str, tag: str, step: int, value, options: dict) -> None:
        if isinstance(value, np.ndarray):
            value = value.copy()  # generated code may reuse the buffer before the thread encodes it
        with self._changed:
            self._raise_pending_error()
            if self._closing:
                raise ValueError(f"the summary writer of {self.path!r} is closed; cannot write {tag!r}")
            self._pending.append((time.time(), plugin, tag, step, value, options))
            self._queued += 1
            if len(self._pending) >= self._max_queue:
                self._flush_wanted = True
                self._changed.notify()

    def flush(self) -> None:
        """Return once everything queued so far is on disk."""
        with self._changed:
            target = self._queued
            self._flush_wanted = True
            self._changed.notify()
            while self._written < target and self._error is None and self._thread.is_alive():
                self._changed.wait()
            self._raise_pending_error()

    def close(self) -> None:
        with self._changed:
            if self._closing:
                return
            self._closing = True
            self._changed.notify()
        self._thread.join()
        with self._changed:
            self._raise_pending_error()

    def _raise_pending_error(self):
        if self._error is not None:
            error, self._error = self._error, None
            raise error

    def _run(self):
        deadline = time.monotonic() + self._flush_secs
        while True:
            with self._changed:
                while not (self._flush_wanted or self._closing) and time.monotonic() < deadline:
                    self._changed.wait(timeout=max(0.0, deadline - time.monotonic()))
                batch, self._pending = self._pending, []
                self._flush_wanted = False
                closing = self._closing
            try:
                self._file.write(b"".join(frame(_event(*item)) for item in batch))
                self._file.flush()
            except Exception as e:  # noqa: BLE001 - handed to the caller by put/flush/close
                with self._changed:
                    self._error = self._error or e
            with self._changed:
                self._written += len(batch)
                self._changed.notify_all()
            deadline = time.monotonic() + self._flush_secs
            if closing:
                self._file.close()
                return


def _event(wall_time, plugin, tag, step, value, options) -> bytes:
    if plugin == "graph_def_event":  # tf.summary.graph: the GraphDef goes in the Event itself, not in a summary
        return event_pb2.Event(wall_time=wall_time, step=step, graph_def=value).SerializeToString()
    if plugin == "raw_pb":  # tf.summary.experimental.write_raw_pb: serialized Summary protos, merged
        summary = summary_pb2.Summary()
        for proto in np.asarray(value, dtype=object).reshape(-1):
            try:
                summary.MergeFromString(proto)
            except Exception:  # noqa: BLE001 - a bad proto from a traced call: skipped, as the eager check refuses
                continue
        return event_pb2.Event(wall_time=wall_time, step=step, summary=summary).SerializeToString()
    tensor, metadata = encode.ENCODERS[plugin](value, **options)
    summary = summary_pb2.Summary(value=[summary_pb2.Summary.Value(
        tag=tag, metadata=metadata, tensor=encode.tensor_proto(tensor))])
    return event_pb2.Event(wall_time=wall_time, step=step, summary=summary).SerializeToString()
