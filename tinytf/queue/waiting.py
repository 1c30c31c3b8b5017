"""Blocking on a queue while a TF1 Session runs: a Session that swaps its variables' values in holds one
process-wide lock for the run (tinytf/compat/v1/session.py), and a QueueRunner thread's enqueue may need it too
(a `limit_epochs` counter is a variable). So a queue op that must wait gives its run's values back and lets that
lock go while it waits; it takes the lock back (never while holding the queue's own lock, so the two locks are
always taken in the same order) and swaps the values in again before it goes on."""

from __future__ import annotations

from ..compat.v1.session import reacquire_swap_lock, release_swap_lock


def wait_until(cond, ready, poll: float = 0.05) -> None:
    """Wait on `cond` (held by the caller) until ready() is true."""
    while not ready():
        saved = release_swap_lock()
        cond.wait(poll)
        if saved is not None:
            cond.release()
            reacquire_swap_lock(saved)
            cond.acquire()
