"""The op that gives TF1 variables their initial values in a session: variables_initializer builds it for a
list, and a variable's own `initializer` for itself (which is why it lives apart from variables.py: that module
imports the Graph, whose module imports the graph variables)."""

from __future__ import annotations

from ...constant import constant
from ...scopes import init_scope
from .ops import group


def initial_assignments(var_list, name):
    """One op running each variable's initializer: the `v/Assign` a variable made in a TF1 graph has, which
    assigns its initial value as computed in the session (fresh random numbers each run, placeholders fed
    then); a variable made without graph nodes (import_graph_def's, an eager one) is assigned its value as of
    now."""
    assigns = []
    for variable in var_list:
        initializer = variable.__dict__.get("_v1_initializer")
        if initializer is not None:
            assigns.append(initializer)
            continue
        with init_scope():
            current = variable.numpy()
        assigns.append(variable.assign(constant(current, variable.dtype)))
    return group(*assigns, name=name)
