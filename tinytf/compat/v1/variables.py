"""TF1 variable collections: the variables created while a TF1 graph is the default, and the op that
(re)initializes them."""

from __future__ import annotations

from tinytf.runtime import dtypes
from tinytf.runtime.context import state
from tinytf.runtime.dispatch import apply
from tinytf.runtime.ops.array import stack
from tinytf.runtime.ops.indexing import boolean_mask
from tinytf.runtime.ops.math import logical_not
from tinytf.runtime.ops.state import var_is_initialized_op

from ...constant import constant
from ...scopes import name_scope
from .graph import Graph, get_default_graph
from .initial_assignments import initial_assignments


def global_variables():
    return list(get_default_graph().collections.get("variables", []))


def trainable_variables():
    return [v for v in global_variables() if v.trainable]


def get_collection(key, scope=None):
    """The default graph's collection `key` (a copy), filtered to names that `scope` (a regex) matches."""
    return get_default_graph().get_collection(key, scope)


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


def is_variable_initialized(variable):
    """`tf.compat.v1.is_variable_initialized`: a bool tensor, True once the session running it has given
    `variable` a value (TF's VarIsInitializedOp; eagerly a variable always has one)."""
    return apply(var_is_initialized_op, (variable,))


def report_uninitialized_variables(var_list=None, name="report_uninitialized_variables"):
    """The names (a string vector) of the variables of `var_list` (default: the graph's global and local
    variables) that the session running it has not initialized, built as TF builds it: each variable's
    VarIsInitializedOp under the `name` scope, stacked, negated, and masking a constant of the names."""
    if var_list is None:
        graph = get_default_graph()
        var_list = global_variables() + list(graph.collections.get("local_variables", []))
    with name_scope(name):
        if not var_list:
            return constant([], dtype=dtypes.string)
        if state.graph is None:  # TF reads each variable's `.op.name`, which an eager variable lacks
            raise AttributeError("Tensor.op is undefined when eager execution is enabled.")
        uninitialized = logical_not(stack([is_variable_initialized(v) for v in var_list]))
        names = constant([v.name.rsplit(":", 1)[0] for v in var_list])
        return boolean_mask(names, uninitialized)


__all__ = ["global_variables", "trainable_variables", "variables_initializer", "global_variables_initializer",
           "is_variable_initialized", "report_uninitialized_variables",
           "get_collection", "add_to_collection"]
