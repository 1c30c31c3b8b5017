"""Datasets and graphs, as TF has them: a dataset passed to a tf.function is keyed by its element_spec (a
DatasetSpec), not by identity, and reaches the graph as one variant tensor; a dataset built inside a trace
from graph tensors (from_tensor_slices(x) where x is an argument, or transformations of a dataset argument)
is a recipe with holes. The graph's iterator op takes those tensors as inputs, and when it runs, `bind`
copies the recipe with the holes filled by their values, so every call iterates its own arguments. Passed on
to another tf.function, such a dataset becomes the variant output of a `dataset_bind` op, which makes the
bound copy when the graph runs."""

from __future__ import annotations

import copy

import numpy as np

from tinytf.runtime import nest
from tinytf.runtime.context import state
from tinytf.runtime.ops.array import constant_value
from tinytf.runtime.ops.data import VARIANT, bind_dataset
from tinytf.runtime.tensor import EagerTensor, Tensor

from .dataset import UNKNOWN, DatasetV2, dataset_methods
from .structure import DatasetSpec


def is_symbolic(tensor) -> bool:
    return isinstance(tensor, Tensor) and type(tensor) is not EagerTensor


def as_variant(dataset) -> EagerTensor:
    """A dataset as the one component tensor of its DatasetSpec: a variant scalar holding the object."""
    inputs = dataset._graph_inputs()
    if inputs:
        if isinstance(dataset, VariantDataset):
            return dataset._handle
        # One bind per dataset and graph: a tf.function's result is flattened again after its trace (when no
        # graph is being built), and must then find the tensor its graph returns.
        cached = getattr(dataset, "_variant", None)
        if cached is not None and (state.graph is None or cached.graph is state.graph):
            return cached
        dataset._variant = bind_dataset(dataset, inputs)  # the graph makes the dataset of its tensors' values
        return dataset._variant
    holder = np.empty((), dtype=object)
    holder[()] = dataset
    return EagerTensor(holder, VARIANT)


def from_variant(element_spec, tensor):
    """The dataset a variant tensor holds (eager), or a dataset standing for it inside a graph."""
    if type(tensor) is EagerTensor:
        return tensor._value[()]
    return VariantDataset(element_spec, tensor)


class VariantDataset(DatasetV2):
    """A dataset argument inside a trace: its elements are known by spec only; the graph gets the dataset
    itself through the variant tensor when it runs."""

    _tf_name = "_VariantDataset"

    def __init__(self, element_spec, handle):
        super().__init__(element_spec)
        self._handle = handle
        self._graph_tensors = (handle,)

    def _bound_copy(self, values):
        (holder,) = values
        return holder[()] if isinstance(holder, np.ndarray) else holder

    def _cardinality(self):
        return UNKNOWN

    def _flat_iter(self):
        raise TypeError("a dataset argument of a tf.function is iterated by the graph, not while tracing")


def graph_inputs(dataset) -> list:
    """The graph tensors a dataset's recipe depends on, each once, in a fixed order."""
    seen, out = set(), []
    for ds in dataset._lineage():
        for t in getattr(ds, "_graph_tensors", ()):
            if id(t) not in seen:
                seen.add(id(t))
                out.append(t)
    return out


def bind(dataset, values):
    """A concrete copy of `dataset` with its graph tensors (graph_inputs order) replaced by `values`."""
    env = {id(t): v for t, v in zip(graph_inputs(dataset), values)}
    return _rebound(dataset, env, {})


def _rebound(dataset, env, memo):
    """A copy of `dataset` whose inputs are rebound and whose own graph tensors (`_graph_tensors`) take their
    values through its `_bound_copy`."""
    if id(dataset) in memo:
        return memo[id(dataset)]
    if not graph_inputs(dataset):
        memo[id(dataset)] = dataset
        return dataset
    new = copy.copy(dataset)
    for name, value in list(vars(new).items()):
        if isinstance(value, DatasetV2):
            setattr(new, name, _rebound(value, env, memo))
        elif isinstance(value, (tuple, list)) and any(isinstance(v, DatasetV2) for v in value):
            setattr(new, name, type(value)(_rebound(v, env, memo) if isinstance(v, DatasetV2) else v
                                           for v in value))
    own = getattr(dataset, "_graph_tensors", ())
    if own:
        new = new._bound_copy([env[id(t)] for t in own])
    memo[id(dataset)] = new
    return new


def with_bound_functions(dataset, values, *names):
    """`_bound_copy` of a dataset whose graph tensors are the lifted tensors of its traced functions (`names`,
    attributes holding a TracedFunction each), in that order."""
    new = copy.copy(dataset)
    values = list(values)
    for name in names:
        traced = getattr(dataset, name)
        n = len(traced.lifted)
        setattr(new, name, traced.bound(values[:n]))
        del values[:n]
    new._graph_tensors = ()
    return new


def lifted_tensors(*functions) -> tuple:
    """The graph tensors the traced functions of a dataset read, in order."""
    return tuple(t for f in functions for t in f.lifted)


class Deferred(DatasetV2):
    """A dataset whose constructor was given graph tensors (Dataset.range(n), take(n), batch(n), list_files(p),
    CsvDataset(name) with n, p, name arguments of a tf.function): the call is kept, and binding makes it again
    with the tensors' values, so each run of the graph checks and builds it as an eager call would."""

    def __init__(self, build, args, element_spec, inputs=(), tf_name=None):
        super().__init__(element_spec, inputs)
        self._build, self._args = build, tuple(args)
        self._graph_tensors = tuple(a for a in self._args if is_symbolic(a))
        if tf_name is not None:
            self._tf_name = tf_name

    def _bound_copy(self, values):
        by_id = {id(t): EagerTensor(np.asarray(v), t.dtype) for t, v in zip(self._graph_tensors, values)}
        return self._build(*[by_id.get(id(a), a) if is_symbolic(a) else a for a in self._args])

    def _cardinality(self):
        return UNKNOWN

    def _flat_iter(self):
        raise TypeError("a dataset of graph tensors is iterated by the graph that holds them, not while tracing")


def concrete_where_known(element):
    """Graph constants (a list converted while tracing, a tf.ragged.constant's components) as eager tensors:
    only true graph inputs stay symbolic."""
    def concrete(t):
        if not is_symbolic(t):
            return t
        value = constant_value(t)
        return t if value is None else EagerTensor(np.asarray(value), t.dtype)
    return nest.map_structure(concrete, element, expand_composites=True)


def symbolic_tensors(element) -> tuple:
    """The graph tensors of an element, composites' components included, in nest order."""
    return tuple(t for t in nest.flatten(element, expand_composites=True) if is_symbolic(t))


def concrete_args(args) -> list:
    """Arguments with graph constants (a literal converted while tracing) as eager tensors: only tensors whose
    value depends on the graph's inputs stay symbolic."""
    return [concrete_where_known(a) if isinstance(a, Tensor) else a for a in args]


def any_symbolic(args) -> bool:
    return any(is_symbolic(a) for a in args)


def deferred(build, args, element_spec, inputs, tf_name):
    """A dataset `build(*args)` made when the graph runs (Deferred), when some of `args` are graph tensors that
    are not constants; None otherwise (the caller builds it now). `element_spec` is a function: the spec
    without the tensors' values."""
    args = concrete_args(args)
    if not any_symbolic(args):
        return None
    return Deferred(build, args, element_spec(), inputs, tf_name)


def deferred_transform(dataset, cls, *args, element_spec=None, build=None):
    """`cls(dataset, *args)` (or `build(dataset, *args)`) made when the graph runs, if some of `args` are graph
    tensors; None otherwise."""
    spec = dataset._spec_inside if element_spec is None else element_spec
    return deferred(build or cls, (dataset, *args), lambda: spec, (dataset,), cls._tf_name)


@dataset_methods
class _GraphMethods:
    def _to_components(self) -> list:
        return [as_variant(self)]

    def _component_count(self) -> int:
        return 1  # counted without making the variant (which binds the recipe in the graph being built)

    def _graph_inputs(self) -> list:
        """The graph tensors this recipe depends on (empty for a dataset of concrete values)."""
        return graph_inputs(self)

    def _bind(self, values):
        """This recipe with its graph tensors replaced by `values` (what the graph's iterator op does)."""
        return bind(self, values)


def _dataset_of_components(spec, components):
    return from_variant(spec.element_spec, components[0])


DatasetSpec._from_components = _dataset_of_components  # structure.py is below DatasetV2; the variant is here
