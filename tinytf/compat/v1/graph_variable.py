"""Variables created while a TF1 graph is the default: they join the graph's collection, their initial value is
a tensor of the graph (computed in the session that runs the variable's initializer, as in TF), and their
assignments return ops that a session runs when fetched.

The nodes a variable adds are TF's (`tf.compat.v1` with resource variables), named as TF names them:
  w/Initializer/initial_value   Const (a Python value; a callable's ops are built under `w/Initializer/`)
  w                             VarHandleOp (the graph's resource placeholder for the variable)
  w/IsInitialized/VarIsInitializedOp   whether the session running it has given `w` a value
  w/Assign                      AssignVariableOp: `w.initializer`
  w/Read/ReadVariableOp         ReadVariableOp: what `sess.run(w)` reads in TF
"""

from __future__ import annotations

import contextlib
import threading

import numpy as np

from tinytf.runtime import naming
from tinytf.runtime.context import state
from tinytf.runtime.dispatch import apply, convert_to_tensor
from tinytf.runtime.graph import SymbolicTensor
from tinytf.runtime.ops.state import assign_variable_op, read_variable_op, var_is_initialized_op
from tinytf.runtime.tensor import EagerTensor

from ...variables import ResourceVariable, Variable
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
        """`v.initializer`: the op that gives `v` its initial value in the session that runs it (`v/Assign`,
        built with the variable; for a variable made without graph nodes, on first use)."""
        op = self.__dict__.get("_v1_initializer")
        if op is None:
            with self._v1_graph.as_default():
                op = self._v1_initializer = initial_assignments([self], self.name.rsplit(":", 1)[0] + "/Assign")
        return op

    @property
    def initial_value(self):
        """The graph tensor the initializer assigns (`w/Initializer/initial_value:0`, or the user's tensor)."""
        if state.graph is None:  # TF's graph tensors are not shown outside their graph's `as_default()`
            raise RuntimeError("This property is not supported when eager execution is enabled.")
        tensor = self.__dict__.get("_v1_initial_value")
        if tensor is None:
            raise NotImplementedError(f"{self.name} was made without graph nodes (by import_graph_def): its "
                                      "initial value is the imported graph's")
        return tensor

    def eval(self, session=None):
        """`v.eval()`: the variable's value in `session` or the default session."""
        return run_in_default(self, None, session, "evaluate tensor")

    def load(self, value, session=None):
        """TF1's `v.load(value, sess)`: give `v` the value in `session` (or the default session), through one
        placeholder and assignment made on the first load, so loading again adds nothing to the graph."""
        made = self.__dict__.get("_v1_load")
        if made is None:
            with self._v1_graph.as_default():
                fed = self._v1_graph.placeholder(self.dtype, self.shape, self.name.rsplit(":", 1)[0] + "/load")
                made = self._v1_load = (fed, self.assign(fed))
        fed, op = made
        run_in_default(op, {fed: value}, session, "load a variable")

    # tf.train.Checkpoint in a TF1 graph (TF runs its save and restore ops in a session): the value lives in a
    # Session, so a checkpoint reads it from the default one, and a restore assigns it in `run_restore_ops`.
    _checkpoint_values_live_in_sessions = True

    def _checkpoint_read(self):
        from .default_session import get_default_session

        session = get_default_session()
        if session is None:
            raise ValueError(f"Cannot save the graph variable {self.name} to a checkpoint without a default "
                             "Session: save inside `with tf.compat.v1.Session():`")
        return session._value_of(self)

    def _checkpoint_count_up(self) -> int:
        """A Checkpoint's save counter made in a TF1 graph: +1 in the default Session (TF initializes it there
        on the first save)."""
        from .default_session import get_default_session

        session = get_default_session()
        if session is None:
            raise ValueError("Checkpoint.save in a TF1 graph needs a default Session (with tf.compat.v1.Session():)")
        count = int(session._values.get(id(self), 0)) + 1
        self._checkpoint_assign_in(session, count)
        return count

    def _checkpoint_assign_in(self, session, value) -> None:
        from .default_session import get_default_session

        session = session or get_default_session()
        if session is None:
            raise ValueError("run_restore_ops: no session given and no default Session, to restore "
                             f"{self.name} in")
        array = np.array(value, dtype=self.dtype.np)
        session._values[id(self)] = array[()] if array.ndim == 0 else array  # a scalar as a Session keeps it

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


# --- the variable's nodes -----------------------------------------------------------------------------------
class _Plain(threading.local):
    active = False


_plain = _Plain()


@contextlib.contextmanager
def without_variable_nodes():
    """Variables created in the block add no nodes to the TF1 graph (import_graph_def: the imported GraphDef
    brings its own initializer and reads, under the names it gives them)."""
    previous, _plain.active = _plain.active, True
    try:
        yield
    finally:
        _plain.active = previous


@contextlib.contextmanager
def _scope(*names):
    """Build under exactly the name scope `names` (TF's absolute `w/Initializer/`), whatever the current one."""
    saved = list(naming.scope_stack)
    naming.scope_stack[:] = list(names)
    try:
        yield
    finally:
        naming.scope_stack[:] = saved


def start_variable(graph, variable, initial_value, dtype, name):
    """The variable's handle and initial value tensor in `graph` (None when the block says no nodes). The handle
    is the variable's resource placeholder; its name, made unique under the current name scope, is the scope of
    the variable's other nodes and the variable's name (`w`, `w_1`, `scope/w`)."""
    if _plain.active:
        return None
    handle = graph.capture(variable, name=name or "Variable").node
    handle_name = handle.tf_name
    with _scope(handle_name, "Initializer"):
        if callable(initial_value):
            initial_value = initial_value()
        if isinstance(initial_value, Variable):
            initial_value = initial_value.read_value()
        if isinstance(initial_value, EagerTensor):  # computed eagerly: a constant of the graph
            initial_value = initial_value._value
        if not (isinstance(initial_value, SymbolicTensor) and initial_value.graph is graph):
            initial_value = convert_to_tensor(initial_value, dtype, name="initial_value")
    graph.move_to_end(handle)  # TF creates the handle after the initial value
    variable._v1_handle_name = handle_name
    return initial_value


def finish_variable(graph, variable, initial_value) -> None:
    """`w/Assign` (the initializer) and `w/Read/ReadVariableOp`, once the variable knows its dtype and shape."""
    attrs = {"dtype": variable.dtype, "shape": variable._shape}
    handle_name = variable.__dict__.pop("_v1_handle_name")
    variable._name = f"{handle_name}:0"
    with _scope(handle_name, "IsInitialized"):
        variable._v1_is_initialized = apply(var_is_initialized_op, (variable,), name="VarIsInitializedOp")
    with _scope(handle_name):
        apply(assign_variable_op, (variable, initial_value), attrs, name="Assign")
        variable._v1_initializer = Operation(last_op(graph))
    with _scope(handle_name, "Read"):
        variable._v1_read = apply(read_variable_op, (variable,), attrs, name="ReadVariableOp")
    variable._v1_initial_value = initial_value
