"""Dataset.reduce and get_single_element: a whole dataset folded into one value."""

from __future__ import annotations

from tinytf.runtime import nest
from tinytf.runtime.context import state
from tinytf.runtime.errors import InvalidArgumentError
from tinytf.runtime.ops import data as data_ops
from tinytf.runtime.ops.control import while_loop

from .dataset import dataset_methods
from .functions import TracedFunction
from .graph_loop import new_iterator, specs_of
from .structure import ElementError, common_spec, leaves_of, normalize, pack, spec_of


def traced_reducer(dataset, initial_state, reduce_func):
    """(initial state, its spec, reduce_func traced on (state, element)), the state spec relaxed (and the
    function retraced) when the function changes a state component's shape, as TF does."""
    initial = normalize(initial_state)
    spec = spec_of(initial)
    traced = TracedFunction(reduce_func, [spec, dataset._spec_inside], "reduce", unpack_last=False)
    new = traced.output_spec
    try:
        relaxed = common_spec(spec, new, "reduce")
    except TypeError:
        raise TypeError(f"The element types for the new state must match the initial state. Expected "
                        f"{spec}; got {new}.") from None
    if relaxed != spec:
        spec = relaxed
        traced = TracedFunction(reduce_func, [spec, dataset._spec_inside], "reduce", unpack_last=False)
    return initial, spec, traced


def reduce_dataset(dataset, initial_state, reduce_func):
    if state.graph is not None:
        return graph_reduce(dataset, initial_state, reduce_func)
    initial, spec, traced = traced_reducer(dataset, initial_state, reduce_func)
    values = leaves_of(initial)
    for item in dataset._flat_iter():
        if type(item) is ElementError:
            raise item.error
        values = traced(values + item)
    return pack(spec, values)


def graph_reduce(dataset, initial_state, reduce_func):
    """dataset.reduce while tracing: a while loop over the iterator ops (graph_loop.py), state as loop
    variables."""
    initial, spec, traced = traced_reducer(dataset, initial_state, reduce_func)
    specs = specs_of(dataset._spec_inside)
    handle = new_iterator(dataset)
    first = data_ops.get_next_optional(handle, specs)
    n_state = len(nest.flatten(spec))
    state0 = nest.flatten(initial)

    def cond(has, *rest):
        return has

    def body(has, *rest):
        state, element = rest[:n_state], rest[n_state:]
        new_state = nest.flatten(traced.call_symbolic(*state, *element))
        nxt = data_ops.get_next_optional(handle, specs)
        return (nxt[0], *new_state, *nxt[1:])

    out = while_loop(cond, body, [first[0], *state0, *first[1:]])
    return nest.pack_sequence_as(spec, list(out[1:1 + n_state]))


def single_element(dataset):
    items = dataset._flat_iter()
    first = next(items, None)
    if first is None:
        raise InvalidArgumentError("Dataset was empty.")
    if type(first) is ElementError:
        raise first.error
    if next(items, None) is not None:
        raise InvalidArgumentError("Dataset had more than one element.")
    items.close()
    return pack(dataset._spec_inside, first)


@dataset_methods
class _ReduceMethods:
    def reduce(self, initial_state, reduce_func, name=None):
        return reduce_dataset(self, initial_state, reduce_func)

    def get_single_element(self, name=None):
        return single_element(self)
