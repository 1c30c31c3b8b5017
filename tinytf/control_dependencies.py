"""tf.control_dependencies. tinytf's traced graphs (tf.function) already run every stateful node (assertions,
prints, variable writes, py_function calls) in program order, and its generated code runs nodes one after
another, so there ops made inside the scope always run after the control inputs made before it: the scope only
checks its arguments (and, eagerly, calls the callables it is given, as TF does). A TF1 graph runs only what a
session fetches: there the scope adds its control inputs to every op made inside it, as TF does, so fetching
such an op runs them first (an assign before a read, a batch-norm update before a train op, an Assert)."""

from __future__ import annotations

import contextlib

from tinytf.runtime.context import executing_eagerly, state
from tinytf.runtime.graph import Node


def _node_of(control):
    """The graph node of an Operation (`_v1_node`), a tensor, or a node; None for what has no node."""
    node = getattr(control, "_v1_node", None)
    if node is not None:
        return node
    if isinstance(control, Node):
        return control
    return getattr(control, "node", None)


@contextlib.contextmanager
def control_dependencies(control_inputs):
    if executing_eagerly():
        for control in control_inputs or []:
            if callable(control):
                control()
        yield
        return
    scopes = getattr(state.graph, "control_scopes", None)  # TF1 graphs keep them (compat/v1/graph.py)
    if scopes is None:
        yield
        return
    nodes = None if control_inputs is None else [n for n in map(_node_of, control_inputs) if n is not None]
    scopes.append(nodes)
    try:
        yield
    finally:
        scopes.pop()
