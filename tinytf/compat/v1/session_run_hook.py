"""TF1's SessionRunHook protocol: a hook adds fetches and feeds to each MonitoredSession.run (before_run returns
SessionRunArgs), sees their values after it (after_run gets SessionRunValues) and may ask the loop to stop
(run_context.request_stop())."""

from __future__ import annotations

import collections


class SessionRunHook:
    """A hook's callbacks, in order: begin (graph still open), after_create_session, then before_run/after_run
    around every run, end (when the session closes without an error)."""

    def begin(self):
        pass

    def after_create_session(self, session, coord):
        pass

    def before_run(self, run_context):
        return None

    def after_run(self, run_context, run_values):
        pass

    def end(self, session):
        pass


class SessionRunArgs(collections.namedtuple("SessionRunArgs", ["fetches", "feed_dict", "options"])):
    """What a hook adds to a run: fetches (any nest Session.run takes), feeds, RunOptions."""

    def __new__(cls, fetches, feed_dict=None, options=None):
        return super().__new__(cls, fetches, feed_dict, options)


class SessionRunContext:
    """The run being made (the caller's fetches and feeds) and the session; hooks stop the loop through it."""

    def __init__(self, original_args, session):
        self._original_args = original_args
        self._session = session
        self._stop_requested = False

    @property
    def original_args(self):
        return self._original_args

    @property
    def session(self):
        return self._session

    @property
    def stop_requested(self) -> bool:
        return self._stop_requested

    def request_stop(self):
        self._stop_requested = True


SessionRunValues = collections.namedtuple("SessionRunValues", ["results", "options", "run_metadata"])

__all__ = ["SessionRunArgs", "SessionRunContext", "SessionRunHook", "SessionRunValues"]
