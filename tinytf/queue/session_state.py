"""Whose queue contents: in TF each Session has its own queue kernels, so what one Session enqueued another
Session of the same graph does not see (and eager code and tf.functions use one more, separate state). A TF1
Session marks itself as the running one on its thread while it runs ops (compat/v1/session.py), and a queue
keeps one state per Session, forgotten when the Session goes away."""

from __future__ import annotations

import threading


class _Running(threading.local):
    session = None


running = _Running()


class _Eager:
    """The key of the state that ops run outside any Session use."""


EAGER = _Eager()


def current_key():
    session = running.session
    return EAGER if session is None else session
