"""TF1's MonitoredSession family: a Session that initializes (or restores from the latest checkpoint of
`checkpoint_dir`) through a Scaffold, starts the graph's queue runners under a Coordinator, runs hooks around
every run, and ends the training loop cleanly: `while not sess.should_stop(): sess.run(train_op)` stops when a
hook asks (StopAtStepHook) or the input ends (an OutOfRangeError, swallowed by the `with` block).
MonitoredTrainingSession adds the stock hooks: checkpoints, summaries and the step counter."""

from __future__ import annotations

from tinytf.runtime.errors import OutOfRangeError

from .coordinator import Coordinator
from .graph import get_default_graph
from .queue_runner import start_queue_runners
from .saver import Saver
from .session import Session
from .session_run_hook import SessionRunArgs, SessionRunContext, SessionRunValues

USE_DEFAULT = object()


def _v1():
    from tinytf.compat import v1

    return v1


class Scaffold:
    """The ops a MonitoredSession needs to make a session ready: init_op (run when there is no checkpoint),
    local_init_op (always), ready_op, a Saver and summary_op; finalize() fills in the defaults."""

    def __init__(self, init_op=None, init_feed_dict=None, init_fn=None, ready_op=None,
                 ready_for_local_init_op=None, local_init_op=None, summary_op=None, saver=None, copy_from_scaffold=None,
                 local_init_feed_dict=None):
        if copy_from_scaffold is not None:
            init_op = init_op or copy_from_scaffold.init_op
            init_feed_dict = init_feed_dict or copy_from_scaffold._init_feed_dict
            init_fn = init_fn or copy_from_scaffold._user_init_fn
            ready_op = ready_op or copy_from_scaffold.ready_op
            local_init_op = local_init_op or copy_from_scaffold.local_init_op
            summary_op = summary_op or copy_from_scaffold.summary_op
            saver = saver or copy_from_scaffold.saver
        self._init_op = init_op
        self._init_feed_dict = init_feed_dict
        self._user_init_fn = init_fn
        self._init_fn = (lambda sess: init_fn(self, sess)) if init_fn else None
        self._ready_op = ready_op
        self._ready_for_local_init_op = ready_for_local_init_op
        self._local_init_op = local_init_op
        self._local_init_feed_dict = local_init_feed_dict
        self._summary_op = summary_op
        self._saver = saver
        self._finalized = False

    def finalize(self):
        """Make the default ops that were not given (in the default graph, as TF does)."""
        if self._finalized:
            return self
        v1 = _v1()
        if self._init_op is None:
            self._init_op = _first_of("init_op") or v1.global_variables_initializer()
        if self._ready_op is None:
            self._ready_op = _first_of("ready_op") or v1.report_uninitialized_variables()
        if self._local_init_op is None:
            self._local_init_op = _first_of("local_init_op") or v1.local_variables_initializer()
        if self._summary_op is None:
            self._summary_op = _first_of("summary_op") or _merged_summaries()
        if self._saver is None:
            savers = get_default_graph().collections.get("savers", [])
            self._saver = savers[0] if savers else Saver(allow_empty=True)
        get_default_graph().finalize()  # as TF: the training loop adds no op by mistake
        self._finalized = True
        return self

    @property
    def init_fn(self):
        return self._init_fn

    @property
    def init_op(self):
        return self._init_op

    @property
    def ready_op(self):
        return self._ready_op

    @property
    def ready_for_local_init_op(self):
        return self._ready_for_local_init_op

    @property
    def local_init_op(self):
        return self._local_init_op

    @property
    def local_init_feed_dict(self):
        return self._local_init_feed_dict

    @property
    def summary_op(self):
        return self._summary_op

    @property
    def saver(self):
        return self._saver

    @property
    def init_feed_dict(self):
        return self._init_feed_dict

    @staticmethod
    def get_or_default(arg_name, collection_key, default_constructor):
        found = get_default_graph().collections.get(collection_key, [])
        if len(found) > 1:
            raise RuntimeError(f"More than one item in the collection \"{collection_key}\". Please indicate which "
                               f"one to use by passing it to the tf.Scaffold constructor as:  "
                               f"tf.Scaffold({arg_name}=item to use)")
        if found:
            return found[0]
        op = default_constructor()
        if op is not None:
            get_default_graph().collections.setdefault(collection_key, []).append(op)
        return op


def _first_of(key):
    found = get_default_graph().collections.get(key, [])
    return found[0] if found else None


def _merged_summaries():
    summaries = get_default_graph().collections.get("summaries", [])
    if not summaries:
        return None
    from .summary_ops import merge

    return merge(summaries)


class SessionCreator:
    def create_session(self):
        raise NotImplementedError("create_session is not implemented for SessionCreator")


class ChiefSessionCreator(SessionCreator):
    """Makes the session: restores the latest checkpoint of `checkpoint_dir` (or the given file) when there is
    one, else runs the scaffold's init_op and init_fn; then its local_init_op."""

    def __init__(self, scaffold=None, master="", config=None, checkpoint_dir=None,
                 checkpoint_filename_with_path=None):
        self._scaffold = scaffold or Scaffold()
        self._master = master
        self._config = config
        self._checkpoint_dir = checkpoint_dir
        self._checkpoint_filename_with_path = checkpoint_filename_with_path

    def create_session(self):
        scaffold = self._scaffold.finalize()
        session = Session(self._master, graph=get_default_graph(), config=self._config)
        path = self._checkpoint_filename_with_path
        if path is None and self._checkpoint_dir:
            from ...train.state_file import latest_checkpoint

            path = latest_checkpoint(self._checkpoint_dir)
        if path:
            scaffold.saver.restore(session, path)
        else:
            session.run(scaffold.init_op, feed_dict=scaffold.init_feed_dict)
            if scaffold.init_fn:
                scaffold.init_fn(session)
        if scaffold.local_init_op is not None:
            session.run(scaffold.local_init_op, feed_dict=scaffold.local_init_feed_dict)
        not_ready = session.run(scaffold.ready_op) if scaffold.ready_op is not None else []
        if len(not_ready):
            names = [n.decode() if isinstance(n, bytes) else str(n) for n in list(not_ready)]
            raise RuntimeError(f"Init operations did not make model ready.  Init op: {scaffold.init_op}, init fn: "
                               f"{scaffold.init_fn}, error: Variables not initialized: {', '.join(names)}")
        return session


class WorkerSessionCreator(ChiefSessionCreator):
    """On one machine there is no chief to wait for: a worker's session is made as the chief's is."""

    def __init__(self, scaffold=None, master="", config=None, max_wait_secs=30 * 60):
        super().__init__(scaffold, master, config)


class _MonitoredSession:
    def __init__(self, session_creator, hooks, should_recover=False, stop_grace_period_secs=120):
        self._graph = get_default_graph()
        self._graph_was_finalized = self._graph.finalized  # closing unfinalizes a graph this session finalized
        self._hooks = list(hooks or [])
        for hook in self._hooks:
            hook.begin()
        self._session_creator = session_creator
        self._stop_grace_period_secs = stop_grace_period_secs
        self._tf_session = session_creator.create_session()
        self._coord = Coordinator(clean_stop_exception_types=[])
        self._threads = start_queue_runners(self._tf_session, self._coord)
        for hook in self._hooks:
            hook.after_create_session(self._tf_session, self._coord)
        self._should_stop = False
        self._closed = False

    @property
    def graph(self):
        return self._tf_session.graph

    def _tf_sess(self):
        return self._tf_session

    def should_stop(self) -> bool:
        return self._should_stop or self._closed or self._coord.should_stop()

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        """Run `fetches` with every hook's fetches and feeds added; hooks then see their results."""
        if self.should_stop():
            raise RuntimeError("Run called even after should_stop requested.")
        context = SessionRunContext(original_args=SessionRunArgs(fetches, feed_dict), session=self._tf_session)
        feeds = dict(feed_dict or {})
        hook_fetches = {}
        for hook in self._hooks:
            request = hook.before_run(context)
            if request is None:
                continue
            hook_fetches[hook] = request.fetches
            for key, value in (request.feed_dict or {}).items():
                if key in feeds and feed_dict is not None and key in feed_dict:
                    raise RuntimeError(f"Same tensor is fed by a SessionRunHook and user. Conflict(s): [{key}]")
                if key in feeds:
                    raise RuntimeError(f"Same tensor is fed by two hooks. Conflict(s): [{key}]")
                feeds[key] = value
        names = {hook: f"hook_{i}" for i, hook in enumerate(hook_fetches)}
        wanted = {"caller": fetches, **{names[h]: f for h, f in hook_fetches.items() if f is not None}}
        try:
            outputs = self._tf_session.run(_plain(wanted), feed_dict=feeds or None)
        except OutOfRangeError:
            self._should_stop = True
            raise
        for hook in self._hooks:
            results = outputs.get(names[hook]) if hook in names else None
            hook.after_run(context, SessionRunValues(results=results, options=options, run_metadata=run_metadata))
        self._should_stop = self._should_stop or context.stop_requested
        return outputs["caller"]

    def run_step_fn(self, step_fn):
        """`step_fn(step_context)`: the context's run_with_hooks runs with the hooks; request_stop ends it."""
        context = _StepContext(self)
        try:
            return step_fn(context)
        except _StopLoop:
            self._should_stop = True
            return None

    def close(self):
        self._close_internal(None)

    def _close_internal(self, exception_type):
        if self._closed:
            return
        try:
            if exception_type is None:
                for hook in self._hooks:
                    hook.end(self._tf_session)
        finally:
            try:
                self._coord.request_stop()
                self._coord.join(self._threads, stop_grace_period_secs=self._stop_grace_period_secs,
                                 ignore_live_threads=True)
            finally:
                self._tf_session.close()
                self._closed = True
                if not self._graph_was_finalized:
                    self._graph._unsafe_unfinalize()

    def __enter__(self):
        return self

    def __exit__(self, exception_type, exception_value, traceback):
        if exception_type in (OutOfRangeError, StopIteration):
            exception_type = None
        self._close_internal(exception_type)
        return exception_type is None


def _plain(fetches):
    """Hook fetches as Session.run takes them (a dict of nests)."""
    return {key: value if not isinstance(value, SessionRunArgs) else value.fetches for key, value in fetches.items()}


class _StopLoop(Exception):
    pass


class _StepContext:
    def __init__(self, monitored):
        self._monitored = monitored

    @property
    def session(self):
        return self._monitored._tf_session

    def run_with_hooks(self, *args, **kwargs):
        return self._monitored.run(*args, **kwargs)

    def request_stop(self):
        raise _StopLoop()


class MonitoredSession(_MonitoredSession):
    """`tf.compat.v1.train.MonitoredSession(session_creator, hooks)`."""

    def __init__(self, session_creator=None, hooks=None, stop_grace_period_secs=120):
        super().__init__(session_creator or ChiefSessionCreator(), hooks, should_recover=True,
                         stop_grace_period_secs=stop_grace_period_secs)


class SingularMonitoredSession(_MonitoredSession):
    """A MonitoredSession made from a scaffold and checkpoint_dir directly, with raw_session()."""

    def __init__(self, hooks=None, scaffold=None, master="", config=None, checkpoint_dir=None,
                 stop_grace_period_secs=120, checkpoint_filename_with_path=None):
        creator = ChiefSessionCreator(scaffold=scaffold, master=master, config=config, checkpoint_dir=checkpoint_dir,
                                      checkpoint_filename_with_path=checkpoint_filename_with_path)
        super().__init__(creator, hooks, should_recover=False, stop_grace_period_secs=stop_grace_period_secs)

    def raw_session(self):
        return self._tf_session


def MonitoredTrainingSession(master="", is_chief=True, checkpoint_dir=None, scaffold=None, hooks=None,  # noqa: N802
                             chief_only_hooks=None, save_checkpoint_secs=USE_DEFAULT, save_summaries_steps=USE_DEFAULT,
                             save_summaries_secs=USE_DEFAULT, config=None, stop_grace_period_secs=120,
                             log_step_count_steps=100, max_wait_secs=7200, save_checkpoint_steps=USE_DEFAULT,
                             summary_dir=None, save_graph_def=True):
    """A MonitoredSession for training: restores from `checkpoint_dir` and saves there (every 600 s unless
    save_checkpoint_steps/secs say otherwise), writes summaries every 100 steps and global_step/sec to
    `summary_dir` (default: checkpoint_dir), as TF's function does."""
    from .hooks import CheckpointSaverHook, StepCounterHook, SummarySaverHook

    if save_summaries_steps is USE_DEFAULT and save_summaries_secs is USE_DEFAULT:
        save_summaries_steps, save_summaries_secs = 100, None
    elif save_summaries_secs is USE_DEFAULT:
        save_summaries_secs = None
    elif save_summaries_steps is USE_DEFAULT:
        save_summaries_steps = None
    if save_checkpoint_steps is USE_DEFAULT and save_checkpoint_secs is USE_DEFAULT:
        save_checkpoint_steps, save_checkpoint_secs = None, 600
    elif save_checkpoint_secs is USE_DEFAULT:
        save_checkpoint_secs = None
    elif save_checkpoint_steps is USE_DEFAULT:
        save_checkpoint_steps = None
    scaffold = scaffold or Scaffold()
    all_hooks = list(chief_only_hooks or []) if is_chief else []
    creator = ChiefSessionCreator(scaffold=scaffold, checkpoint_dir=checkpoint_dir, master=master, config=config)
    summary_dir = summary_dir or checkpoint_dir
    if is_chief and summary_dir:
        if log_step_count_steps and log_step_count_steps > 0:
            all_hooks.append(StepCounterHook(output_dir=summary_dir, every_n_steps=log_step_count_steps))
        if (save_summaries_steps and save_summaries_steps > 0) or (save_summaries_secs and save_summaries_secs > 0):
            all_hooks.append(SummarySaverHook(scaffold=scaffold, save_steps=save_summaries_steps,
                                              save_secs=save_summaries_secs, output_dir=summary_dir))
    if is_chief and checkpoint_dir:
        if (save_checkpoint_secs and save_checkpoint_secs > 0) or (save_checkpoint_steps and save_checkpoint_steps > 0):
            all_hooks.append(CheckpointSaverHook(checkpoint_dir, save_steps=save_checkpoint_steps,
                                                 save_secs=save_checkpoint_secs, scaffold=scaffold))
    all_hooks.extend(hooks or [])
    return MonitoredSession(session_creator=creator, hooks=all_hooks, stop_grace_period_secs=stop_grace_period_secs)


__all__ = ["ChiefSessionCreator", "MonitoredSession", "MonitoredTrainingSession", "Scaffold", "SessionCreator",
           "SingularMonitoredSession", "WorkerSessionCreator"]

