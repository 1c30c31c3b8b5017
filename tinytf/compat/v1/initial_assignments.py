"""The op that gives TF1 variables their initial values in a session: variables_initializer builds it for a
list, and a variable's own `initializer` for itself (which is why it lives apart from variables.py: that module
imports the Graph, whose module imports the graph variables)."""

from __future__ import annotations

from ...constant import constant
from ...scopes import init_scope
from .ops import group


def initial_assignments(var_list, name):
    """One op assigning each variable its value as of now, in the current graph (tinytf computes initial values
    when a variable is created, so this is the value it was created with, unless a session already changed
    it)."""
    assigns = []
    for variable in var_list:
        with init_scope():
            current = variable.numpy()
        assigns.append(variable.assign(constant(current, variable.dtype)))
    return group(*assigns, name=name)
