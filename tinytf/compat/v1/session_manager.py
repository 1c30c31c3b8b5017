"""tf.compat.v1.train.SessionManager: makes a Session whose model is ready, restoring the latest checkpoint when
there is one (optionally waiting for a chief to write it) and running the init op otherwise, then the local init
op once the model is ready for it; recover_session only restores; wait_for_session waits until another process
has made the model ready. tinytf runs in one process, whose variables live per Session, so wait_for_session is
ready at once only for a model without variables, as a TF worker would be with no chief."""

from __future__ import annotations

import time

from tinytf.runtime.errors import DeadlineExceededError

from .checkpoint_utils import get_checkpoint_state
from .graph import get_default_graph
from .session import Session


def _names(value) -> list:
    return [n.decode() if isinstance(n, bytes) else str(n) for n in list(value)]


def _maybe_name(obj):
    if obj is None:
        return None
    return getattr(obj, "name", str(obj))


class SessionManager:
    def __init__(self, local_init_op=None, ready_op=None, ready_for_local_init_op=None, graph=None,
                 recovery_wait_secs=30, local_init_run_options=None, local_init_feed_dict=None):
        self._local_init_op = local_init_op
        self._ready_op = ready_op
        self._ready_for_local_init_op = ready_for_local_init_op
        self._graph = graph if graph is not None else get_default_graph()
        self._recovery_wait_secs = recovery_wait_secs
        self._local_init_feed_dict = local_init_feed_dict
        if ready_for_local_init_op is not None and local_init_op is None:
            raise ValueError(f"If you pass a ready_for_local_init_op you must also pass a local_init_op , "
                             f"ready_for_local_init_op [{ready_for_local_init_op}]")

    def _restore_checkpoint(self, master, saver, checkpoint_dir, checkpoint_filename_with_path,
                            wait_for_checkpoint, max_wait_secs, config):
        if checkpoint_dir and checkpoint_filename_with_path:
            raise ValueError("Can not provide both checkpoint_dir and checkpoint_filename_with_path.")
        session = Session(master, graph=self._graph, config=config)
        if not saver or not (checkpoint_dir or checkpoint_filename_with_path):
            return session, False
        if checkpoint_filename_with_path:
            saver.restore(session, checkpoint_filename_with_path)
            return session, True
        waited = 0.0
        state = get_checkpoint_state(checkpoint_dir)
        while not state or not state.model_checkpoint_path:
            if wait_for_checkpoint and waited < max_wait_secs:
                time.sleep(self._recovery_wait_secs)
                waited += self._recovery_wait_secs
                state = get_checkpoint_state(checkpoint_dir)
            else:
                return session, False
        saver.restore(session, state.model_checkpoint_path)
        if hasattr(saver, "recover_last_checkpoints"):
            saver.recover_last_checkpoints(state.all_model_checkpoint_paths)
        return session, True

    def _ready(self, op, session):
        if op is None:
            return True, None
        not_ready = _names(session.run(op))
        if not not_ready:
            return True, None
        return False, "Variables not initialized: " + ", ".join(not_ready)

    def _try_run_local_init_op(self, session):
        if self._local_init_op is None:
            return True, None
        ready, message = self._ready(self._ready_for_local_init_op, session)
        if not ready:
            return False, message
        session.run(self._local_init_op, feed_dict=self._local_init_feed_dict)
        return True, None

    def prepare_session(self, master, init_op=None, saver=None, checkpoint_dir=None,
                        checkpoint_filename_with_path=None, wait_for_checkpoint=False, max_wait_secs=7200,
                        config=None, init_feed_dict=None, init_fn=None):
        """A session with the model ready: restored from the checkpoint, or initialized by init_op / init_fn."""
        session, restored = self._restore_checkpoint(master, saver, checkpoint_dir, checkpoint_filename_with_path,
                                                     wait_for_checkpoint, max_wait_secs, config)
        if not restored:
            if init_op is None and not init_fn and self._local_init_op is None:
                raise RuntimeError("Model is not initialized and no init_op or init_fn or local_init_op was given")
            if init_op is not None:
                session.run(init_op, feed_dict=init_feed_dict)
            if init_fn:
                init_fn(session)
        success, message = self._try_run_local_init_op(session)
        if not success:
            raise RuntimeError(f"Init operations did not make model ready for local_init.  Init op: "
                               f"{_maybe_name(init_op)}, init fn: {init_fn}, error: {message}")
        ready, message = self._ready(self._ready_op, session)
        if not ready:
            raise RuntimeError(f"Init operations did not make model ready.  Init op: {_maybe_name(init_op)}, init "
                               f"fn: {init_fn}, local_init_op: {_maybe_name(self._local_init_op)}, error: "
                               f"{message}")
        return session

    def recover_session(self, master, saver=None, checkpoint_dir=None, checkpoint_filename_with_path=None,
                        wait_for_checkpoint=False, max_wait_secs=7200, config=None):
        """(session, whether the model was restored and is ready)."""
        session, restored = self._restore_checkpoint(master, saver, checkpoint_dir, checkpoint_filename_with_path,
                                                     wait_for_checkpoint, max_wait_secs, config)
        success, _ = self._try_run_local_init_op(session)
        if not restored or not success:
            return session, False
        ready, _ = self._ready(self._ready_op, session)
        return session, ready

    def wait_for_session(self, master, config=None, max_wait_secs=float("Inf")):
        """A session once the model is ready (after its local init op); DeadlineExceededError after
        max_wait_secs."""
        start = time.time()
        while True:
            session = Session(master, graph=self._graph, config=config)
            success, _ = self._try_run_local_init_op(session)
            if success:
                ready, _ = self._ready(self._ready_op, session)
                if ready:
                    return session
            session.close()
            remaining = max_wait_secs - (time.time() - start)
            if remaining < self._recovery_wait_secs:
                raise DeadlineExceededError(None, None,
                                            f"Session was not ready after waiting {max_wait_secs} secs.")
            time.sleep(self._recovery_wait_secs)


__all__ = ["SessionManager"]
