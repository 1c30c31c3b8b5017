"""Blocking on a queue while a TF1 Session runs: a Session that swaps its variables' values in holds one
process-wide lock for the run (tinytf/compat/v1/session.py), and a QueueRunner thread's enqueue may need it too
(a `limit_epochs` counter is a variable). So a queue op that must wait lets that lock go while it waits, and
takes it back, in the same order every other run takes the two locks, before it goes on."""

from __future__ import annotations

from ..compat.v1.session import _SWAP_LOCK


def wait_until(cond, ready, poll: float = 0.05) -> None:
    """Wait on `cond` (held by the caller) until ready() is true."""
    while not ready():
        owned = _SWAP_LOCK._is_owned()
        saved = _SWAP_LOCK._release_save() if owned else None
        cond.wait(poll)
        if owned:
            cond.release()
            _SWAP_LOCK._acquire_restore(saved)
            cond.acquire()
