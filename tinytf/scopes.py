"""Scopes: `tf.name_scope` for readable variable names, and `init_scope`, which steps out of any graph
being traced so that variable initial values are computed eagerly, once."""

from __future__ import annotations

import contextlib

from tinytf.runtime.context import no_tapes, state
from tinytf.runtime.naming import current_scope as current_name_scope
from tinytf.runtime.naming import scope_stack as _name_stack  # the engine's namer prefixes node names with it


class name_scope:
    """`tf.name_scope(name)`: prefixes the names of variables created inside it."""

    def __init__(self, name, default_name=None, values=None):
        self._name = (name or default_name or "").rstrip("/")

    @property
    def name(self) -> str:
        return self._name

    def __enter__(self):
        if self._name:
            _name_stack.append(self._name)
        return current_name_scope()

    def __exit__(self, *exc):
        if self._name:
            _name_stack.pop()
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
