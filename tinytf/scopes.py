"""Scopes: `tf.name_scope` for readable variable names, and `init_scope`, which steps out of any graph
being traced so that variable initial values are computed eagerly, once."""

from __future__ import annotations

import contextlib

from tinytf.runtime.context import no_tapes, state
from tinytf.runtime.naming import current_scope as current_name_scope
from tinytf.runtime.naming import enter_scope, exit_scope


class name_scope:
    """`tf.name_scope(name)`: prefixes the names of the variables and graph nodes created inside it. In a graph,
    as in TF, a scope opened again is made unique (`sc`, then `sc_1`); a name ending in "/" is a whole scope,
    not nested in the current one."""

    def __init__(self, name, default_name=None, values=None):
        self._given = name or default_name or ""
        self._name = self._given.rstrip("/")
        self._saved: list = []  # the scopes to restore, one per (possibly nested) entry

    @property
    def name(self) -> str:
        return self._name

    def __enter__(self):
        self._saved.append(enter_scope(state.graph, self._given))
        return current_name_scope()

    def __exit__(self, *exc):
        exit_scope(self._saved.pop())
        return False


@contextlib.contextmanager
def init_scope():
    """Run the block eagerly even while a function is being traced (as TF's tf.init_scope)."""
    previous = state.graph
    state.graph = None
    try:
        with no_tapes():
            yield
    finally:
        state.graph = previous
