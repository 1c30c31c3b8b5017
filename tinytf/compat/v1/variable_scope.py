"""TF1 variable sharing: `variable_scope` names a group of variables and says whether `get_variable` may
create them (reuse=False), must find them (reuse=True) or either (AUTO_REUSE). Variables are kept per TF1
graph, by full name; eagerly, as in TF2, every get_variable call creates a new variable."""

from __future__ import annotations

import contextlib
import threading

import numpy as np

from tinytf.runtime import dtypes, naming
from tinytf.runtime.context import state
from tinytf.runtime.shapes import TensorShape
from tinytf.runtime.tensor import Tensor

from ...scopes import name_scope
from ...variables import Variable
from .graph import Graph
from .initializers import glorot_uniform_initializer, zeros_initializer
from .partitioned_variables import (
    PartitionedVariable,
    SaveSliceInfo,
    call_partitioner,
    iter_slices,
    shard_initializer,
    slice_dim_and_count,
)

AUTO_REUSE = "AUTO_REUSE"  # TF1's _ReuseMode.AUTO_REUSE: create when missing, share when present


class VariableScope:
    """A named scope's settings: its full name, reuse mode and the defaults its get_variable calls take."""

    def __init__(self, reuse, name="", initializer=None, regularizer=None, dtype=dtypes.float32,
                 name_scope=""):
        self.name = name
        self.reuse = reuse
        self.initializer = initializer
        self.regularizer = regularizer
        self.dtype = dtype
        self.original_name_scope = name_scope
        self.custom_getter = None
        self.partitioner = None

    def set_partitioner(self, partitioner):
        self.partitioner = partitioner

    def reuse_variables(self):
        self.reuse = True

    def set_initializer(self, initializer):
        self.initializer = initializer

    def get_variable(self, name, shape=None, dtype=None, initializer=None, **kwargs):
        return get_variable(f"{self.name}/{name}" if self.name else name, shape, dtype, initializer, **kwargs)


class _Scopes(threading.local):
    def __init__(self):
        self.stack: list = []  # the VariableScopes entered in this thread, innermost last


_scopes = _Scopes()
_ROOT = VariableScope(False)


def get_variable_scope() -> VariableScope:
    return _scopes.stack[-1] if _scopes.stack else _ROOT


def _store(graph) -> dict:
    """The graph's variables by full name, and how often each scope name was opened (for default_name)."""
    if not hasattr(graph, "_variable_store"):
        graph._variable_store = {"variables": {}, "scope_counts": {}}
    return graph._variable_store


@contextlib.contextmanager
def variable_scope(name_or_scope, default_name=None, values=None, initializer=None, regularizer=None,
                   caching_device=None, partitioner=None, custom_getter=None, reuse=None, dtype=None,
                   use_resource=None, constraint=None, auxiliary_name_scope=True):
    """Enter a variable scope: a name (nested under the current scope), a VariableScope object (re-entered
    by its full name), or None with a `default_name` made unique ("dense", "dense_1", ...)."""
    parent = get_variable_scope()
    if name_or_scope is None and default_name is None:
        raise TypeError("If default_name is None then name_or_scope is required")
    counts = _scope_counts()
    if isinstance(name_or_scope, VariableScope):
        full_name = name_or_scope.name
        inherited = name_or_scope
    else:
        prefix = f"{parent.name}/" if parent.name else ""
        if name_or_scope is None:
            base = prefix + default_name
            seen = counts.get(base, 0)
            index = 1
            while seen and counts.get(f"{base}_{index}", 0):
                index += 1
            full_name = base if not seen else f"{base}_{index}"
        else:
            full_name = prefix + str(name_or_scope)
        inherited = parent
    # TF's variable-scope store: each scope opened counts once (so default_name finds a fresh name); leaving a
    # scope entered by name forgets the counts of its sub-scopes (entered again, "rnn" hands out
    # "rnn/basic_lstm_cell" again), leaving one entered as an object restores them as they were.
    counts[full_name] = counts.get(full_name, 0) + 1
    saved_counts = dict(counts) if isinstance(name_or_scope, VariableScope) else None
    if reuse is False:
        reuse = parent.reuse  # TF1: reuse=False cannot switch off an outer scope's reuse
    mode = True if parent.reuse is True else (reuse if reuse is not None else inherited.reuse)
    scope = VariableScope(mode, full_name, initializer or inherited.initializer, regularizer or inherited.regularizer,
                          dtypes.as_dtype(dtype) if dtype is not None else inherited.dtype, full_name + "/")
    scope.custom_getter = _composed(custom_getter, inherited.custom_getter)
    scope.partitioner = partitioner if partitioner is not None else inherited.partitioner
    _scopes.stack.append(scope)
    try:
        if auxiliary_name_scope:
            with name_scope(full_name.rsplit("/", 1)[-1]):
                yield scope
        else:
            yield scope
    finally:
        _scopes.stack.pop()
        if saved_counts is not None:
            counts.clear()
            counts.update(saved_counts)
        else:
            for key in counts:
                if key.startswith(full_name + "/"):
                    counts[key] = 0


def _composed(getter, outer):
    """A scope's custom getter: its own wrapping the one it inherits, as TF composes them."""
    if getter is None or outer is None:
        return getter or outer
    return lambda base, *args, **kwargs: getter(lambda *a, **k: outer(base, *a, **k), *args, **kwargs)


_eager_scope_counts: dict = {}  # eagerly, TF keeps its variable-scope store on the global default graph


def enclosing_tf1_graph():
    """The TF1 graph being built, also from inside one of its subgraphs (a while_loop body, a cond branch);
    None eagerly and in a tf.function traced from eager code."""
    graph = state.graph
    while graph is not None and not isinstance(graph, Graph):
        graph = getattr(graph, "parent", None)
    return graph


def _scope_counts() -> dict:
    graph = enclosing_tf1_graph()
    return _store(graph)["scope_counts"] if graph is not None else _eager_scope_counts

def get_variable(name, shape=None, dtype=None, initializer=None, regularizer=None, trainable=None,
                 collections=None, caching_device=None, partitioner=None, validate_shape=True,
                 use_resource=None, custom_getter=None, constraint=None, synchronization=None, aggregation=None):
    """`tf.compat.v1.get_variable`: the variable `scope/name` of the default TF1 graph, created (with the
    scope's initializer, else Glorot-uniform for floats and zeros otherwise) or shared as the scope's reuse
    mode says; TF's ValueErrors when sharing is refused or finds nothing."""
    scope = get_variable_scope()
    getter = getattr(scope, "custom_getter", None)
    if getter is not None:  # TF1's custom_getter(getter, name, ...): e.g. an RNN cell recording its weights
        return getter(_get_variable, name, shape=shape, dtype=dtype, initializer=initializer,
                      regularizer=regularizer, trainable=trainable, collections=collections,
                      validate_shape=validate_shape, constraint=constraint, partitioner=partitioner)
    return _get_variable(name, shape, dtype, initializer, regularizer, trainable, collections,
                         validate_shape=validate_shape, constraint=constraint, partitioner=partitioner)


def _get_variable(name, shape=None, dtype=None, initializer=None, regularizer=None, trainable=None,
                  collections=None, validate_shape=True, constraint=None, partitioner=None, **ignored):
    partitioner = partitioner if partitioner is not None else get_variable_scope().partitioner
    if partitioner is not None:
        return get_partitioned_variable(name, shape, dtype, initializer, regularizer, trainable, collections,
                                        validate_shape=validate_shape, constraint=constraint,
                                        partitioner=partitioner)
    return _get_single_variable(name, shape, dtype, initializer, regularizer, trainable, collections,
                                validate_shape=validate_shape, constraint=constraint)


def _get_single_variable(name, shape=None, dtype=None, initializer=None, regularizer=None, trainable=None,
                         collections=None, validate_shape=True, constraint=None):
    scope = get_variable_scope()
    full_name = f"{scope.name}/{name}" if scope.name else name
    graph = enclosing_tf1_graph()
    in_graph = graph is not None
    known = _store(graph)["variables"] if in_graph else {}
    existing = known.get(full_name)
    if existing is not None:
        if scope.reuse is False or scope.reuse is None:
            raise ValueError(f"Variable {full_name} already exists, disallowed. Did you mean to set reuse=True or "
                             "reuse=tf.AUTO_REUSE in VarScope?")
        if shape is not None and tuple(shape) != tuple(existing.shape.as_list()):
            raise ValueError(f"Trying to share variable {full_name}, but specified shape {tuple(shape)} and found "
                             f"shape {tuple(existing.shape.as_list())}.")
        return existing
    if scope.reuse is True and in_graph:
        raise ValueError(f"Variable {full_name} does not exist, or was not created with tf.get_variable(). Did "
                         "you mean to set reuse=tf.AUTO_REUSE in VarScope?")
    if initializer is None:
        initializer = scope.initializer
    variable = _create(full_name, shape, dtype, initializer, scope.dtype, trainable, validate_shape, constraint)
    if in_graph:
        known[full_name] = variable
        _collect(graph, variable, collections, regularizer or scope.regularizer, full_name)
    return variable


def get_partitioned_variable(name, shape=None, dtype=None, initializer=None, regularizer=None, trainable=None,
                             collections=None, validate_shape=True, constraint=None, partitioner=None):
    """The variable `scope/name` as shards (`scope/name/part_0`, ...) split as `partitioner(shape=, dtype=)`
    says, shared by name as single variables are (TF's errors when the partitioning found differs)."""
    scope = get_variable_scope()
    full_name = (f"{scope.name}/{name}" if name else scope.name) if scope.name else name
    if initializer is not None and not callable(initializer):  # a tensor or value: the shape is its shape
        value_shape = TensorShape(getattr(initializer, "shape", None) or np.shape(initializer))
        if shape is not None and not TensorShape(shape).is_compatible_with(value_shape):
            raise ValueError(f"Initializer passed in has shape {value_shape}, but the shape given is "
                             f"{TensorShape(shape)}")
        shape = value_shape
        if dtype is None and isinstance(initializer, Tensor):
            dtype = initializer.dtype
    shape = TensorShape(shape)
    dtype = dtypes.as_dtype(dtype) if dtype is not None else scope.dtype
    graph = enclosing_tf1_graph()
    known = _store(graph).setdefault("partitioned", {}) if graph is not None else {}
    partitions = None
    if scope.reuse is not True or partitioner:
        partitions = call_partitioner(partitioner, shape, dtype)
    existing = known.get(full_name)
    if existing is not None:
        if scope.reuse is False or scope.reuse is None:
            raise ValueError(f"Partitioned variable with name {full_name} already exists. Did you mean to set "
                             "reuse=True or reuse=tf.AUTO_REUSE in VarScope?")
        if not shape.is_compatible_with(existing.get_shape()):
            raise ValueError(f"Trying to reuse partitioned variable {full_name}, but specified shape {shape} and "
                             f"found shape {existing.get_shape()}.")
        if partitions is not None and existing._get_partitions() != partitions:
            raise ValueError(f"Trying to reuse partitioned variable {full_name}, but specified partitions "
                             f"{partitions} and found partitions {existing._get_partitions()}.")
        return existing
    if scope.reuse is True and graph is not None:
        raise ValueError(f"PartitionedVariable {full_name} does not exist, or was not created with tf.get_variable()"
                         ". Did you mean to set reuse=False or reuse=tf.AUTO_REUSE in VarScope?")
    dim, count = slice_dim_and_count(partitions)
    if initializer is None:
        initializer = scope.initializer
    shards = []
    for i, (offset, part_shape) in enumerate(iter_slices(shape.as_list(), count, dim)):
        init = shard_initializer(initializer, offset, part_shape, shape.as_list(), dtype)
        shard_name = f"{full_name}/part_{i}"
        with _scope_named(""):  # the shard's name is already whole
            shard = _get_single_variable(shard_name, None if init is not None and not callable(init) else part_shape,
                                         dtype, init, regularizer, trainable, collections,
                                         validate_shape=validate_shape, constraint=constraint)
        shard._save_slice_info = SaveSliceInfo(full_name, shape.as_list(), offset, part_shape)
        shards.append(shard)
    whole = PartitionedVariable(full_name, shape, dtype, shards, partitions)
    if graph is not None:
        known[full_name] = whole
    return whole


@contextlib.contextmanager
def _scope_named(name):
    """The current scope's settings under another full name (for variables whose name is already whole)."""
    outer = get_variable_scope()
    inner = VariableScope(outer.reuse, name, outer.initializer, outer.regularizer, outer.dtype,
                          outer.original_name_scope)
    _scopes.stack.append(inner)
    try:
        yield inner
    finally:
        _scopes.stack.pop()


def create_partitioned_variables(shape, slicing, initializer, dtype=dtypes.float32, trainable=True, collections=None,
                                 name=None, reuse=None):
    """`tf.compat.v1.create_partitioned_variables` (deprecated in TF): the shards, as a list, of a variable of
    `shape` split as `slicing` says, named by the variable scope `name` (default "PartitionedVariable")."""
    if len(shape) != len(slicing):
        raise ValueError(f"The 'shape' and 'slicing' of a partitioned Variable must have the length: shape: {shape}, "
                         f"slicing: {slicing}")
    if len(shape) < 1:
        raise ValueError(f"A partitioned Variable must have rank at least 1: shape: {shape}")
    with variable_scope(name, "PartitionedVariable", reuse=reuse):
        whole = get_partitioned_variable(None, shape=shape, dtype=dtype, initializer=initializer,
                                         trainable=trainable, collections=collections,
                                         partitioner=lambda **unused: slicing)
    return list(whole)


def _collect(graph, variable, collections, regularizer, full_name) -> None:
    """TF1's `collections=` (the variable joins those instead of GLOBAL_VARIABLES: LOCAL_VARIABLES for a
    metric's counters) and `regularizer=` (its loss joins REGULARIZATION_LOSSES)."""
    if collections is not None:
        collections = list(collections)
        members = graph.collections.setdefault("variables", [])
        if "variables" not in collections and variable in members:
            members.remove(variable)
        for key in collections:
            if key not in ("variables", "trainable_variables"):
                graph.collections.setdefault(key, []).append(variable)
    if regularizer is not None:
        with name_scope(f"{full_name}/Regularizer/"):
            loss = regularizer(variable)
        if loss is not None:
            graph.collections.setdefault("regularization_losses", []).append(loss)


def _create(full_name, shape, dtype, initializer, scope_dtype, trainable, validate_shape, constraint):
    """A new variable named exactly `full_name` (name scopes do not apply to get_variable, as in TF1)."""
    if initializer is not None and not callable(initializer):  # a value or a tensor: its shape is the shape
        if shape is not None:
            raise ValueError("If initializer is a constant, do not specify shape.")

        def initial_value():
            return initializer
    else:
        if shape is None:
            raise ValueError(f"Shape of a new variable ({full_name}) must be fully defined, but instead was None.")
        dtype = dtypes.as_dtype(dtype) if dtype is not None else scope_dtype
        if initializer is None:
            initializer = glorot_uniform_initializer() if dtype.is_floating else zeros_initializer()

        def initial_value():
            return initializer(list(shape), dtype=dtype)
    saved = list(naming.scope_stack)
    naming.scope_stack.clear()  # TF names the variable and its nodes by its full name, outside any name scope
    try:
        return Variable(initial_value, trainable=True if trainable is None else trainable, dtype=dtype,
                        validate_shape=validate_shape, constraint=constraint, name=full_name)
    finally:
        naming.scope_stack[:] = saved


__all__ = ["AUTO_REUSE", "VariableScope", "create_partitioned_variables", "get_variable", "get_variable_scope",
           "variable_scope"]
