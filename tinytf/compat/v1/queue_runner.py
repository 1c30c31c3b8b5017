"""TF1's QueueRunner: threads that run a queue's enqueue ops in a Session until the input ends (an
OutOfRangeError from upstream closes the queue) or a Coordinator asks them to stop (the queue is then closed with
its pending enqueues cancelled). add_queue_runner keeps runners in the graph's QUEUE_RUNNERS collection and
start_queue_runners starts them all, as TF1 training loops do."""

from __future__ import annotations

import threading

from tinytf.runtime.context import state
from tinytf.runtime.errors import CancelledError, OutOfRangeError

from .default_session import get_default_session
from .graph import get_default_graph

_QUEUE_RUNNERS = "queue_runners"


class QueueRunner:
    def __init__(self, queue=None, enqueue_ops=None, close_op=None, cancel_op=None,
                 queue_closed_exception_types=None, queue_runner_def=None, import_scope=None):
        if state.graph is None:
            raise RuntimeError("QueueRunners are not supported when eager execution is enabled. Instead, please "
                               "use tf.data to get data into your model.")
        if queue_runner_def is not None:
            raise NotImplementedError("tinytf's QueueRunner is not built from a QueueRunnerDef proto")
        if not queue:
            raise ValueError("Must provide queue.")
        if not enqueue_ops:
            raise ValueError("Must provide enqueue_ops.")
        self._queue = queue
        self._enqueue_ops = list(enqueue_ops)
        self._close_op = close_op if close_op is not None else queue.close()
        self._cancel_op = cancel_op if cancel_op is not None else queue.close(cancel_pending_enqueues=True)
        self._queue_closed_exception_types = tuple(queue_closed_exception_types or (OutOfRangeError,))
        self._lock = threading.Lock()
        self._runs_per_session: dict = {}
        self._exceptions_raised: list = []

    @property
    def queue(self):
        return self._queue

    @property
    def enqueue_ops(self):
        return self._enqueue_ops

    @property
    def close_op(self):
        return self._close_op

    @property
    def cancel_op(self):
        return self._cancel_op

    @property
    def queue_closed_exception_types(self):
        return self._queue_closed_exception_types

    @property
    def exceptions_raised(self) -> list:
        return self._exceptions_raised

    @property
    def name(self) -> str:
        return self._queue.name

    def _run(self, sess, enqueue_op, coord=None):
        """One thread: run enqueue_op until the input ends or a stop is requested; the last of the runner's
        threads to end closes the queue (so its consumers drain it, then see OutOfRangeError)."""
        decremented = False
        try:
            while True:
                if coord is not None and coord.should_stop():
                    break
                try:
                    sess.run(enqueue_op)
                except self._queue_closed_exception_types:
                    with self._lock:
                        self._runs_per_session[sess] -= 1
                        decremented = True
                        if self._runs_per_session[sess] == 0:
                            try:
                                sess.run(self._close_op)
                            except Exception:  # noqa: BLE001 - TF logs and ignores a failing close
                                pass
                        return
        except CancelledError:
            return
        except Exception as e:  # noqa: BLE001 - handed to the coordinator, or raised when there is none
            if coord is not None:
                coord.request_stop(e)
            else:
                with self._lock:
                    self._exceptions_raised.append(e)
                raise
        finally:
            if not decremented:
                with self._lock:
                    self._runs_per_session[sess] -= 1

    def _close_on_stop(self, sess, cancel_op, coord):
        coord.wait_for_stop()
        try:
            sess.run(cancel_op)
        except Exception:  # noqa: BLE001 - the session may be closed already
            pass

    def create_threads(self, sess, coord=None, daemon=False, start=False):
        """The threads that run the enqueue ops in `sess` (and, with a coordinator, one that cancels the
        queue when a stop is requested)."""
        with self._lock:
            if self._runs_per_session.get(sess, 0) > 0:
                return []  # already running in this session
            self._runs_per_session[sess] = len(self._enqueue_ops)
            self._exceptions_raised = []
        threads = [threading.Thread(target=self._run, args=(sess, op, coord), daemon=daemon)
                   for op in self._enqueue_ops]
        if coord is not None:
            threads.append(threading.Thread(target=self._close_on_stop, args=(sess, self._cancel_op, coord),
                                            daemon=daemon))
        for thread in threads:
            if coord is not None:
                coord.register_thread(thread)
            if start:
                thread.start()
        return threads


def add_queue_runner(qr, collection=_QUEUE_RUNNERS):
    """Add `qr` to the default graph's QUEUE_RUNNERS collection (start_queue_runners starts it)."""
    get_default_graph().collections.setdefault(collection, []).append(qr)


def start_queue_runners(sess=None, coord=None, daemon=True, start=True, collection=_QUEUE_RUNNERS):
    """Start every queue runner of the session's graph; returns their threads."""
    if state.graph is None and sess is None:
        raise RuntimeError("Queues are not compatible with eager execution.")
    if sess is None:
        sess = get_default_session()
        if not sess:
            raise ValueError("Cannot start queue runners: No default session is registered. Use `with "
                             "sess.as_default()` or pass an explicit session to tf.start_queue_runners(sess=sess)")
    if hasattr(sess, "_tf_sess"):  # a MonitoredSession: its raw session runs the enqueue ops
        sess = sess._tf_sess()
    threads = []
    for qr in list(sess.graph.collections.get(collection, [])):
        threads.extend(qr.create_threads(sess, coord=coord, daemon=daemon, start=start))
    return threads


__all__ = ["QueueRunner", "add_queue_runner", "start_queue_runners"]
