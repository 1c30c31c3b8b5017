"""The ops through which a graph pulls elements from a tf.data pipeline: a stateful iterator op and its
get_next ops. The pipeline itself lives in tinytf/data (it is Python, not graph); the runtime only knows
this protocol of the `source` attribute:

    source._graph_iterator() -> an iterator object (a fresh one for a dataset, itself for an iterator)
    source._bind(values)     -> the dataset with its graph-tensor inputs (the op's inputs) given values
    iterator._next_flat()    -> the next element as a tuple of numpy values, or None at the end
    iterator._peek_flat()    -> the same element without consuming it (the next _next_flat returns it)

so passes and the code generator treat these ops like any other stateful op."""

from __future__ import annotations

import numpy as np

from .. import dtypes, numpy_errors
from ..dispatch import apply
from ..errors import OutOfRangeError
from ..registry import OpDef, register

VARIANT = dtypes.DType("variant", object)  # the dtype of iterator handles


def _new_iterator(*values, source):
    """A fresh iterator; a dataset built from graph tensors is first bound to their values (its `_bind`)."""
    with numpy_errors.user_state():
        if values:
            source = source._bind(values)
        return source._graph_iterator()


def _components(item) -> tuple:
    """A flat element with its composite components (tuples: a sparse tensor's three arrays, a ragged tensor's
    flat values and row splits) spread out, one value per output of the op, and string scalars (bytes inside
    pipelines) as the 0-d object arrays graph values are."""
    if not any(isinstance(v, (tuple, bytes)) for v in item):
        return tuple(item)
    return tuple(_graph_value(c) for v in item for c in (v if isinstance(v, tuple) else (v,)))


def _graph_value(value):
    if type(value) is bytes:
        array = np.empty((), dtype=object)
        array[()] = value
        return array
    return value


def _get_next_optional(iterator, *, specs):
    with numpy_errors.user_state():
        item = iterator._next_flat()
    if item is None:
        return (np.bool_(False),) + tuple(np.zeros(tuple(d or 0 for d in (shape or ())), dtype.np)
                                          for dtype, shape in specs)
    return (np.bool_(True),) + _components(item)


def _get_next(iterator, *, specs):
    with numpy_errors.user_state():
        item = iterator._next_flat()
    if item is None:
        raise OutOfRangeError("End of sequence")
    out = _components(item)
    return out if len(specs) != 1 else out[0]


def _has_next(iterator):
    with numpy_errors.user_state():
        return np.bool_(iterator._peek_flat() is not None)


# The iterator ops pull from tf.data's Python pipeline (which may run the user's generator): calls_python, so
# eagerly that code runs under the user's numpy error state, and inside graph code (tinytf's quiet state) the
# kernels pull under numpy_errors.user_state(), numpy's default (the pipeline's own tf.functions set tinytf's).
iterator_new_op = register(OpDef(
    "iterator_new", _new_iterator, lambda *inputs, source: (VARIANT, ()), stateful=True, differentiable=False,
    foldable=False, calls_python=True,
    doc="a tf.data iterator over `source` (a fresh one for a dataset, the same for an iterator)"))
iterator_get_next_optional_op = register(OpDef(
    "iterator_get_next_optional", _get_next_optional,
    lambda it, *, specs: [(dtypes.bool_, ())] + list(specs), stateful=True, differentiable=False, foldable=False,
    calls_python=True,
    doc="(has_value, element...) of the iterator's next element; zeros when there is none"))
iterator_get_next_op = register(OpDef(
    "iterator_get_next", _get_next, lambda it, *, specs: list(specs), stateful=True, differentiable=False,
    foldable=False, calls_python=True, doc="the iterator's next element; OutOfRangeError at the end"))


def _bind_dataset(*values, source):
    """The dataset `source` made of the op's input values, held by a variant scalar."""
    holder = np.empty((), dtype=object)
    holder[()] = source._bind(values)
    return holder


dataset_bind_op = register(OpDef(
    "dataset_bind", _bind_dataset, lambda *inputs, source: (VARIANT, ()), stateful=True, differentiable=False,
    foldable=False, doc="a dataset built from graph tensors, bound to their values: what a dataset argument of "
                        "another tf.function receives"))


def _cardinality(*values, source):
    """The number of elements of `source` bound to the op's input values (its graph tensors), as an int64:
    a dataset built from a tf.function's arguments knows its cardinality only when the graph runs."""
    return np.int64(source._bind(values)._cardinality())


dataset_cardinality_op = register(OpDef(
    "dataset_cardinality", _cardinality, lambda *inputs, source: (dtypes.int64, ()), stateful=True,
    differentiable=False, foldable=False,
    doc="the cardinality of a dataset built from graph tensors (INFINITE -1, UNKNOWN -2), computed when it runs"))


def dataset_cardinality(source, inputs):
    return apply(dataset_cardinality_op, list(inputs), {"source": source})


iterator_has_next_op = register(OpDef(
    "iterator_has_next", _has_next, lambda it: (dtypes.bool_, ()), stateful=True, differentiable=False,
    foldable=False, calls_python=True,
    doc="whether the iterator has a next element (looked at, not consumed): a graph loop's test"))


def bind_dataset(source, inputs):
    """A variant tensor holding `source` bound to the values of `inputs` (its graph tensors) when the graph runs."""
    return apply(dataset_bind_op, list(inputs), {"source": source})


def has_next(iterator):
    return apply(iterator_has_next_op, [iterator])


def new_iterator(source, inputs=()):
    """An iterator op over `source`; `inputs` are the graph tensors a dataset built in the graph depends on."""
    return apply(iterator_new_op, list(inputs), {"source": source})


def get_next_optional(iterator, specs: tuple) -> tuple:
    """(has_value, *element leaves) as tensors; `specs` is a tuple of (dtype, shape) per leaf."""
    return apply(iterator_get_next_optional_op, [iterator], {"specs": specs})


def get_next(iterator, specs: tuple):
    out = apply(iterator_get_next_op, [iterator], {"specs": specs})
    return (out,) if len(specs) == 1 else tuple(out)
