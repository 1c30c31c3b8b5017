"""TF1 variable collections: the variables created while a TF1 graph is the default, and the op that
(re)initializes them."""

from __future__ import annotations

from tinytf.runtime.context import state

from .graph import Graph, get_default_graph
from .initial_assignments import initial_assignments


def global_variables():
    return list(get_default_graph().collections.get("variables", []))


def trainable_variables():
    return [v for v in global_variables() if v.trainable]


def get_collection(key, scope=None):
    """The default graph's collection `key` (a copy), filtered to names starting with `scope` when given."""
    if key == "trainable_variables":
        items = trainable_variables()
    else:
        items = list(get_default_graph().collections.get(key, []))
    return [i for i in items if scope is None or getattr(i, "name", "").startswith(scope)]


def add_to_collection(name, value) -> None:
    get_default_graph().collections.setdefault(name, []).append(value)


def variables_initializer(var_list, name="init"):
    """An op that assigns each variable its value as of now (tinytf computes initial values when a variable
    is created, so this is the value it was created with, unless a session already changed it)."""
    if not isinstance(state.graph, Graph):
        raise RuntimeError("variables_initializer builds a graph op: call it inside `graph.as_default()` (or after "
                           "tf.compat.v1.disable_eager_execution())")
    return initial_assignments(var_list, name)


def global_variables_initializer():
    return variables_initializer(global_variables())


__all__ = ["global_variables", "trainable_variables", "variables_initializer", "global_variables_initializer",
           "get_collection", "add_to_collection"]
