"""Datasets inside tf.function: `for x in dataset` is one while loop node whose body pulls the next element
through the runtime's iterator ops (runtime/ops/data.py), `iter(dataset)`/`next()` are those ops, and
`dataset.reduce` is a while loop too. The pipeline stays Python: the graph holds it as an op attribute."""

from __future__ import annotations

from tinytf.autograph.iterables import Source
from tinytf.runtime import nest
from tinytf.runtime.errors import at_user_line
from tinytf.runtime.ops import data as data_ops

from .extension_elements import restore
from .ragged_elements import is_ragged_spec
from .structure import describe


def _is_composite(spec) -> bool:
    """A leaf that is several outputs of the iterator ops (sparse, ragged; a ragged_rank 0 spec's values are
    dense tensors)."""
    return (hasattr(spec, "_component_specs") and hasattr(spec, "_from_components")
            and not (is_ragged_spec(spec) and spec._ragged_rank == 0))


def specs_of(structure) -> tuple:
    """(dtype, shape) of each output of the iterator ops: a composite leaf gives its components'."""
    out = []
    for s in nest.flatten(structure):
        parts = s._component_specs if _is_composite(s) else [s]
        out.extend((p.dtype, p._shape) for p in parts)
    return tuple(out)


def _pack(structure, values):
    """The element of the iterator ops' outputs: composite leaves rebuilt from their components."""
    values, leaves = list(values), []
    for s in nest.flatten(structure):
        if _is_composite(s):
            n = len(s._component_specs)
            leaves.append(s._from_components(values[:n]))
            del values[:n]
        else:
            leaves.append(values.pop(0))
    return restore(nest.pack_sequence_as(structure, leaves))  # extension types' parts become values again


def new_iterator(source):
    """The iterator op of a dataset (its graph-tensor inputs wired in) or of an eager iterator."""
    inputs = source._graph_inputs() if hasattr(source, "_graph_inputs") else ()
    return data_ops.new_iterator(source, inputs)


class DatasetSource(Source):
    """AutoGraph's loop source for a dataset or an iterator. The loop's test looks at the next element without
    taking it (iterator_has_next) and each iteration takes it (iterator_get_next) as it starts, so a loop left
    by `break` consumes exactly the elements it saw, as TF's iterator loop does."""

    uses_index = False

    def __init__(self, source, structure, handle=None):
        self.structure = structure
        self.specs = specs_of(structure)
        self.handle = new_iterator(source) if handle is None else handle
        self.hidden = (data_ops.has_next(self.handle),)
        self.names = ("has_next",)

    def conditions(self, hidden):
        return [hidden[0]]

    def item(self, hidden, index):
        return _pack(self.structure, data_ops.get_next(self.handle, self.specs))

    def advance(self, hidden):
        return (data_ops.has_next(self.handle),)

    def check_loop(self, names):
        """As TF: a `return` inside a loop over a dataset is refused (break is fine)."""
        if any(str(n).startswith("do_return") for n in names):
            raise NotImplementedError(at_user_line(
                "a return statement cannot be placed inside this TensorFlow loop; this may happen if a return "
                "statement depends on a static Python condition such as a hyperparameter. Set a variable and "
                "`break` instead, and return after the loop."))


def dataset_loop_source(dataset):
    """The loop source of `for x in dataset` in a graph, or None when iterating eagerly (a Python loop)."""
    from tinytf.runtime.context import state

    if state.graph is None:
        return None
    return DatasetSource(dataset, dataset._spec_inside)


_MAX_UNROLLED_NEXT = 10_000  # next() calls on one iterator in one trace before a Python loop is assumed


class GraphIterator:
    """`iter(dataset)` while tracing: a graph iterator op, created when the function runs."""

    def __init__(self, dataset):
        self._dataset = dataset
        self.element_spec = dataset._spec_inside
        self._handle = new_iterator(dataset)
        self._python_steps = 0

    def __iter__(self):
        return self

    def __next__(self):
        self._python_steps += 1
        if self._python_steps > _MAX_UNROLLED_NEXT:
            raise RuntimeError(at_user_line(
                f"next() was called {_MAX_UNROLLED_NEXT} times on a dataset iterator while tracing: a Python loop "
                "over a dataset inside a tf.function needs AutoGraph (the default; autograph=False turns it off), "
                "which makes it one graph loop."))
        return self.get_next()

    def get_next(self, name=None):
        values = data_ops.get_next(self._handle, specs_of(self.element_spec))
        return _pack(self.element_spec, values)

    def get_next_as_optional(self):
        from .iterator import Optional

        has, *values = data_ops.get_next_optional(self._handle, specs_of(self.element_spec))
        return Optional(_pack(self.element_spec, values), self.element_spec, has)

    def _tinytf_graph_loop_source(self, name: str):
        return DatasetSource(None, self.element_spec, self._handle)

    def __repr__(self):
        return f"<tinytf.data.Iterator (in a graph) element_spec={describe(self.element_spec)}>"


def iterator_get_next(iterator):
    """next(it) in a graph, for an iterator made eagerly (and captured by the function)."""
    handle = data_ops.new_iterator(iterator)
    values = data_ops.get_next(handle, specs_of(iterator.element_spec))
    return _pack(iterator.element_spec, values)


def iterator_get_next_as_optional(iterator):
    from .iterator import Optional

    handle = data_ops.new_iterator(iterator)
    has, *values = data_ops.get_next_optional(handle, specs_of(iterator.element_spec))
    return Optional(_pack(iterator.element_spec, values), iterator.element_spec, has)
