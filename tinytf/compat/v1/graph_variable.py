"""Variables created while a TF1 graph is the default: they join the graph's collection, and their
assignments return ops that a session runs when fetched."""

from __future__ import annotations

from tinytf.runtime.context import state

from ...variables import ResourceVariable
from .default_session import run_in_default
from .initial_assignments import initial_assignments
from .ops import Operation, last_op


class GraphVariable(ResourceVariable):
    """A variable created in a TF1 graph: its assignments return an op, which a session runs when fetched
    (and which then gives the new value), as TF1's `sess.run(v.assign(...))` expects."""

    def assign(self, value, use_locking=False, name=None, read_value=True):
        if getattr(state.graph, "collections", None) is None:
            return super().assign(value, use_locking, name, read_value)
        super().assign(value, use_locking, name, read_value)
        return Operation(last_op(state.graph), variable=self)

    @property
    def initializer(self):
        """`v.initializer`: the op that gives `v` its initial value in the session that runs it (built on first
        use, in the variable's graph)."""
        op = self.__dict__.get("_v1_initializer")
        if op is None:
            with self._v1_graph.as_default():
                op = self._v1_initializer = initial_assignments([self], self.name.rsplit(":", 1)[0] + "/Assign")
        return op

    def eval(self, session=None):
        """`v.eval()`: the variable's value in `session` or the default session."""
        return run_in_default(self, None, session, "evaluate tensor")

    def assign_add(self, delta, use_locking=False, name=None, read_value=True):
        return self.assign(self.read_value() + delta)

    def assign_sub(self, delta, use_locking=False, name=None, read_value=True):
        return self.assign(self.read_value() - delta)


GraphVariable.__name__ = GraphVariable.__qualname__ = "ResourceVariable"  # the class name TF1 code prints


def collect_variable(variable):
    """Registered while a TF1 graph is the default (see Graph.as_default): the variable joins the graph's
    collection and its assignments become fetchable ops."""
    collections = getattr(state.graph, "collections", None)  # only TF1 graphs have collections
    if collections is not None:
        variable.__class__ = GraphVariable
        variable._v1_graph = state.graph
        collections.setdefault("variables", []).append(variable)
