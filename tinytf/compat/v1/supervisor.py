"""`tf.compat.v1.train.Supervisor` and `basic_train_loop`: TF1's training helper before MonitoredSession, a
Coordinator, a Saver and a SessionManager together. A chief supervisor with a `logdir` restores the latest
checkpoint there (or runs init_op), writes the graph, and runs three standard service threads while training:
summaries every `save_summaries_secs` (summary_op and a `global_step/sec` step counter) and a checkpoint every
`save_model_secs`. As in TF, each service runs once right away when it starts, and none saves at the end."""

from __future__ import annotations

import contextlib
import logging
import os
import time

from tinytf.runtime.context import state
from tinytf.runtime.errors import AbortedError

from ...io.graph_io import write_graph
from .coordinator import Coordinator, LooperThread
from .global_step import global_step as _global_step_value
from .graph import get_default_graph
from .graph_keys import GraphKeys
from .saver import Saver, export_meta_graph
from .session_manager import SessionManager
from .summary_writer import FileWriter, SessionLog, Summary

_log = logging.getLogger("tensorflow")


class _UseDefault:
    def __repr__(self):
        return "Supervisor.USE_DEFAULT"


class Supervisor:
    """`tf.compat.v1.train.Supervisor(graph=None, ready_op=USE_DEFAULT, is_chief=True, init_op=USE_DEFAULT,
    logdir=None, summary_op=USE_DEFAULT, saver=USE_DEFAULT, global_step=USE_DEFAULT, save_summaries_secs=120,
    save_model_secs=600, ...)`: made in a TF1 graph (RuntimeError eagerly), which it finalizes."""

    USE_DEFAULT = _UseDefault()

    def __init__(self, graph=None, ready_op=USE_DEFAULT, ready_for_local_init_op=USE_DEFAULT, is_chief=True,
                 init_op=USE_DEFAULT, init_feed_dict=None, local_init_op=USE_DEFAULT, logdir=None,
                 summary_op=USE_DEFAULT, saver=USE_DEFAULT, global_step=USE_DEFAULT, save_summaries_secs=120,
                 save_model_secs=600, recovery_wait_secs=30, stop_grace_secs=120, checkpoint_basename="model.ckpt",
                 session_manager=None, summary_writer=USE_DEFAULT, init_fn=None, local_init_run_options=None):
        if state.graph is None:
            raise RuntimeError("Supervisors are incompatible with eager execution.")
        graph = graph if graph is not None else get_default_graph()
        with graph.as_default():
            self._init_ops(graph, ready_op, ready_for_local_init_op, init_op, local_init_op, saver, summary_op,
                           global_step)
        self._graph = graph
        self._init_feed_dict = init_feed_dict
        self._is_chief = is_chief
        self._coord = Coordinator()
        self._recovery_wait_secs = recovery_wait_secs
        self._stop_grace_secs = stop_grace_secs
        self._init_fn = init_fn
        # only a chief writes checkpoints and events
        self._logdir = self._save_summaries_secs = self._save_model_secs = self._save_path = None
        self._summary_writer = None
        self._graph_added_to_summary = False
        if is_chief:
            self._logdir = logdir
            self._save_summaries_secs = save_summaries_secs
            self._save_model_secs = save_model_secs
            if logdir:
                self._save_path = os.path.join(logdir, checkpoint_basename)
            if summary_writer is Supervisor.USE_DEFAULT:
                self._summary_writer = FileWriter(logdir) if logdir else None
            else:
                self._summary_writer = summary_writer
        self._session_manager = session_manager or SessionManager(
            local_init_op=self._local_init_op, ready_op=self._ready_op,
            ready_for_local_init_op=self._ready_for_local_init_op, graph=graph,
            recovery_wait_secs=recovery_wait_secs)
        graph.finalize()  # as TF: the training loop may add no op

    def _init_ops(self, graph, ready_op, ready_for_local_init_op, init_op, local_init_op, saver, summary_op,
                  global_step):
        """The defaults TF makes (and adds to the graph's collections) for each op that was not given."""
        from . import global_variables_initializer, group, report_uninitialized_variables
        from .summary_ops import merge_all
        from .tf1_rest import tables_initializer
        from .v1_functions import local_variables_initializer

        def first(key):
            items = graph.get_collection(key)
            return items[0] if items else None

        def default(given, key, make):
            if given is not Supervisor.USE_DEFAULT:
                return given
            found = first(key)
            if found is None:
                found = make()
                if found is not None:
                    graph.add_to_collection(key, found)
            return found

        self._ready_op = default(ready_op, GraphKeys.READY_OP, report_uninitialized_variables)
        self._ready_for_local_init_op = (first(GraphKeys.READY_FOR_LOCAL_INIT_OP)
                                         if ready_for_local_init_op is Supervisor.USE_DEFAULT
                                         else ready_for_local_init_op)
        self._init_op = default(init_op, GraphKeys.INIT_OP, global_variables_initializer)
        self._local_init_op = default(local_init_op, GraphKeys.LOCAL_INIT_OP,
                                      lambda: group(local_variables_initializer(), tables_initializer()))
        self._saver = default(saver, GraphKeys.SAVERS,
                              lambda: Saver() if graph.get_collection("variables") else None)
        self._summary_op = default(summary_op, GraphKeys.SUMMARY_OP, merge_all)
        self._global_step = default(global_step, GraphKeys.GLOBAL_STEP, lambda: _default_global_step(graph))

    # --- what TF's Supervisor exposes -----------------------------------------------------------------------
    is_chief = property(lambda self: self._is_chief)
    session_manager = property(lambda self: self._session_manager)
    coord = property(lambda self: self._coord)
    init_op = property(lambda self: self._init_op)
    init_feed_dict = property(lambda self: self._init_feed_dict)
    ready_op = property(lambda self: self._ready_op)
    ready_for_local_init_op = property(lambda self: self._ready_for_local_init_op)
    summary_writer = property(lambda self: self._summary_writer)
    summary_op = property(lambda self: self._summary_op)
    save_summaries_secs = property(lambda self: self._save_summaries_secs)
    global_step = property(lambda self: self._global_step)
    saver = property(lambda self: self._saver)
    save_model_secs = property(lambda self: self._save_model_secs)
    save_path = property(lambda self: self._save_path)

    def _write_graph(self):
        if self._logdir:
            write_graph(self._graph.as_graph_def(add_shapes=True), self._logdir, "graph.pbtxt")
        if self._summary_writer and not self._graph_added_to_summary:
            self._summary_writer.add_graph(self._graph)
            saved = getattr(self._saver, "_variables", None) if self._saver is not None else None
            self._summary_writer.add_meta_graph(export_meta_graph(graph=self._graph, variables=saved))
            self._graph_added_to_summary = True

    def start_standard_services(self, sess):
        """Start the summary, step-counter and checkpoint threads of a chief with a logdir; returns them."""
        if not self._is_chief:
            raise RuntimeError("Only chief supervisor can start standard services. Because only chief "
                               "supervisors can write events.")
        if not self._logdir:
            _log.warning("Standard services need a 'logdir' passed to the SessionManager")
            return None
        if self._global_step is not None and self._summary_writer:
            step = _global_step_value(sess, self._global_step)
            self._summary_writer.add_session_log(SessionLog(status=SessionLog.START), step)
        threads = []
        if self._save_summaries_secs and self._summary_writer:
            if self._summary_op is not None:
                threads.append(SVSummaryThread(self, sess))
            if self._global_step is not None:
                threads.append(SVStepCounterThread(self, sess))
        if self._saver and self._save_model_secs:
            threads.append(SVTimerCheckpointThread(self, sess))
        for thread in threads:
            thread.start()
        return threads

    def prepare_or_wait_for_session(self, master="", config=None, wait_for_checkpoint=False, max_wait_secs=7200,
                                    start_standard_services=True):
        """A chief restores the latest checkpoint of logdir or initializes the model (then writes the graph
        and starts the services); another waits until the model is ready. Queue runners start too."""
        self._coord.clear_stop()
        if self._summary_writer:
            self._summary_writer.reopen()
        if self._is_chief:
            sess = self._session_manager.prepare_session(
                master, init_op=self._init_op, saver=self._saver, checkpoint_dir=self._logdir,
                wait_for_checkpoint=wait_for_checkpoint, max_wait_secs=max_wait_secs, config=config,
                init_feed_dict=self._init_feed_dict, init_fn=self._init_fn)
            self._write_graph()
            if start_standard_services:
                self.start_standard_services(sess)
        else:
            sess = self._session_manager.wait_for_session(master, config=config, max_wait_secs=max_wait_secs)
        if start_standard_services:
            self.start_queue_runners(sess)
        return sess

    def start_queue_runners(self, sess, queue_runners=None):
        """Start the threads of the graph's QueueRunners (or of `queue_runners`) under this coordinator."""
        if queue_runners is None:
            queue_runners = self._graph.get_collection(GraphKeys.QUEUE_RUNNERS)
        threads = []
        for runner in queue_runners:
            threads.extend(runner.create_threads(sess, coord=self._coord, daemon=True, start=True))
        return threads

    def loop(self, timer_interval_secs, target, args=None, kwargs=None):
        """Call `target(*args, **kwargs)` every `timer_interval_secs` in a thread until the supervisor stops."""
        looper = LooperThread(self._coord, timer_interval_secs, target=target, args=args, kwargs=kwargs)
        looper.start()
        return looper

    def stop(self, threads=None, close_summary_writer=True, ignore_live_threads=False):
        """Stop the services and wait for the threads (re-raising what a thread reported); close the writer."""
        self._coord.request_stop()
        try:
            self._coord.join(threads, stop_grace_period_secs=self._stop_grace_secs,
                             ignore_live_threads=ignore_live_threads)
        finally:
            if close_summary_writer and self._summary_writer:
                self._summary_writer.add_session_log(SessionLog(status=SessionLog.STOP))
                self._summary_writer.close()
                self._graph_added_to_summary = False

    def request_stop(self, ex=None):
        self._coord.request_stop(ex=ex)

    def should_stop(self) -> bool:
        return self._coord.should_stop()

    def stop_on_exception(self):
        return self._coord.stop_on_exception()

    def wait_for_stop(self):
        self._coord.wait_for_stop()

    def summary_computed(self, sess, summary, global_step=None):
        """Write a summary computed by the caller (at the global step's value when none is given)."""
        if not self._summary_writer:
            raise RuntimeError("Writing a summary requires a summary writer.")
        if global_step is None and self._global_step is not None:
            global_step = _global_step_value(sess, self._global_step)
        self._summary_writer.add_summary(summary, global_step)

    @contextlib.contextmanager
    def managed_session(self, master="", config=None, start_standard_services=True, close_summary_writer=True):
        """A prepared session for a `with` block; an exception of the block stops the services (an
        OutOfRangeError, the end of the input, silently) and the session closes."""
        sess = None
        try:
            sess = self.prepare_or_wait_for_session(master=master, config=config,
                                                    start_standard_services=start_standard_services)
            yield sess
        except Exception as e:  # noqa: BLE001 - handed to the coordinator, which re-raises it in stop()
            self.request_stop(e)
        finally:
            try:
                self.stop(close_summary_writer=close_summary_writer)
            finally:
                if sess is not None:
                    sess.close()

    # TF1's CamelCase names of the same methods
    PrepareSession = prepare_or_wait_for_session
    StartQueueRunners = start_queue_runners
    StartStandardServices = start_standard_services
    Stop = stop
    RequestStop = request_stop
    Loop = loop
    ShouldStop = should_stop
    StopOnException = stop_on_exception
    WaitForStop = wait_for_stop
    SummaryComputed = summary_computed


def _default_global_step(graph):
    """The graph's `global_step:0` when it is an integer tensor, as TF finds it."""
    try:
        tensor = graph.get_tensor_by_name("global_step:0")
    except KeyError:
        return None
    if tensor.dtype.is_integer:
        return tensor
    _log.warning("Found 'global_step' is not an int type: %s", tensor.dtype)
    return None


class SVSummaryThread(LooperThread):
    """Runs the summary op (with the global step) and writes the result, every save_summaries_secs."""

    def __init__(self, sv, sess):
        super().__init__(sv.coord, sv.save_summaries_secs)
        self._sv, self._sess = sv, sess

    def run_loop(self):
        if self._sv.global_step is not None:
            summary, step = self._sess.run([self._sv.summary_op, self._sv.global_step])
        else:
            summary, step = self._sess.run(self._sv.summary_op), None
        if self._sv.summary_writer:
            self._sv.summary_writer.add_summary(summary, step)


class SVStepCounterThread(LooperThread):
    """Writes `global_step/sec` (steps since its last run over the seconds since), every save_summaries_secs."""

    def __init__(self, sv, sess, step_counter=None):
        super().__init__(sv.coord, sv.save_summaries_secs)
        self._sv, self._sess = sv, sess
        self._step_counter = sv.global_step if step_counter is None else step_counter
        op = getattr(self._step_counter, "op", None)  # a TF1 graph's variable has none here: its name's op part
        self._summary_tag = f"{op.name if op is not None else self._step_counter.name.rsplit(':', 1)[0]}/sec"
        self._last_time, self._last_step = 0.0, 0

    def start_loop(self):
        self._last_time = time.time()
        self._last_step = _global_step_value(self._sess, self._step_counter)

    def run_loop(self):
        step = _global_step_value(self._sess, self._step_counter)
        added, self._last_step = step - self._last_step, step
        now = time.time()
        elapsed, self._last_time = now - self._last_time, now
        rate = added / elapsed if elapsed > 0.0 else float("inf")
        if self._sv.summary_writer:
            summary = Summary(value=[Summary.Value(tag=self._summary_tag, simple_value=rate)])
            self._sv.summary_writer.add_summary(summary, step)


class SVTimerCheckpointThread(LooperThread):
    """Saves a checkpoint (numbered by the global step) every save_model_secs."""

    def __init__(self, sv, sess):
        super().__init__(sv.coord, sv.save_model_secs)
        self._sv, self._sess = sv, sess

    def run_loop(self):
        self._sv.saver.save(self._sess, self._sv.save_path, global_step=self._sv.global_step)
        if self._sv.summary_writer and self._sv.global_step is not None:
            step = _global_step_value(self._sess, self._sv.global_step)
            log = SessionLog(status=SessionLog.CHECKPOINT, checkpoint_path=self._sv.save_path)
            self._sv.summary_writer.add_session_log(log, step)


def basic_train_loop(supervisor, train_step_fn, args=None, kwargs=None, master=""):
    """Call `train_step_fn(sess, *args, **kwargs)` until the supervisor should stop, in a managed session;
    an AbortedError starts a new session and carries on, as TF's loop does."""
    args = [] if args is None else args
    kwargs = {} if kwargs is None else kwargs
    should_retry = True
    while should_retry:
        try:
            should_retry = False
            with supervisor.managed_session(master) as sess:
                while not supervisor.should_stop():
                    train_step_fn(sess, *args, **kwargs)
        except AbortedError:
            should_retry = True
