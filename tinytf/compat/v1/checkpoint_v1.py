"""`tf.compat.v1.train.Checkpoint` (TF's CheckpointV1): tf.train.Checkpoint's object-based checkpoints, whose
`save` and `write` take the Session whose values they write (default: the default Session, as in TF1 code
inside `with sess:`); objects are given by keyword only."""

from __future__ import annotations

import contextlib

from ...train.checkpoint import Checkpoint as _Checkpoint


def _in(session):
    return session.as_default() if session is not None else contextlib.nullcontext()


class CheckpointV1(_Checkpoint):
    """Groups trackable objects by keyword; `save(prefix, session)`, `write(prefix, session)`, `restore(path)`."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)

    def save(self, file_prefix, session=None, options=None) -> str:
        """Write `file_prefix-N` (N = the new save counter) from `session`'s values; the directory's latest."""
        with _in(session):
            return super().save(file_prefix, options=options)

    def write(self, file_prefix, session=None, options=None) -> str:
        """Write a checkpoint at exactly `file_prefix` from `session`'s values."""
        with _in(session):
            return super().write(file_prefix, options=options)

    def restore(self, save_path):
        """A status whose `run_restore_ops(session)` / `initialize_or_restore(session)` give graph variables
        their saved values in that Session (eager ones are assigned now)."""
        return super().restore(save_path)

    @property
    def read(self):  # TF2's pair of `write`: TF1's Checkpoint has none
        raise AttributeError("'CheckpointV1' object has no attribute 'read'")


Checkpoint = CheckpointV1

__all__ = ["Checkpoint"]
