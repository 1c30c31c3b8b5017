"""User functions of transformations (map, filter, scan, reduce, ...), traced once into a graph as
TensorFlow does: the function sees symbolic tensors of the element spec, AutoGraph converts its Python
control flow, and each element then runs the compiled graph.

Built while a tf.function is traced, the function may read that function's tensors (an argument, a value of a
loop body, a tensor of a function two levels up). As TF passes them to the dataset op as `other_arguments`,
they become extra arguments of the traced function (`lifted`): the dataset lists them as its graph tensors,
the graph's iterator op takes them as inputs, and `bound(values)` is the function with their values."""

from __future__ import annotations

import copy

from tinytf.autograph import convert_for_function
from tinytf.runtime import nest, numpy_errors
from tinytf.runtime.context import state
from tinytf.runtime.interpret import call_inputs, eval_graph
from tinytf.runtime.ops.data import VARIANT
from tinytf.runtime.tensor import EagerTensor, Tensor
from tinytf.runtime.trace import trace

from ..concrete_function import _runtime_error as runtime_error
from ..constant import convert_to_tensor
from ..function import function
from ..ragged.ragged_tensor import RaggedTensor
from ..sparse import SparseTensor
from ..tensor_spec import TensorSpec
from .extension_elements import is_extension, restore, to_parts
from .ragged_elements import from_ragged_tensor, is_ragged_component, to_ragged_tensor
from .sparse_elements import from_sparse_tensor, is_sparse_spec, to_sparse_tensor
from .structure import DatasetSpec, describe


def call_with_element(fn, element, unpack: bool):
    """TF's calling convention: a tuple element is spread over the function's parameters."""
    if unpack and isinstance(element, tuple) and not hasattr(element, "_fields"):
        return fn(*element)
    return fn(element)


def _is_composite(spec) -> bool:
    """A spec whose values are composite tensors (sparse, ragged, datasets) in a function's arguments and
    results."""
    return is_sparse_spec(spec) or is_ragged_component(spec) or isinstance(spec, DatasetSpec)


def _argument_spec(spec):
    """The spec of a traced function's argument for an element component (a ragged_rank 0 spec's values are
    dense tensors, as TF gives them)."""
    return spec if _is_composite(spec) else TensorSpec(spec._shape, spec.dtype)


def _argument(spec, value):
    """A flat element component as the tensor a function receives (a dataset component is the dataset)."""
    if isinstance(spec, DatasetSpec):
        return value
    if is_sparse_spec(spec):
        return to_sparse_tensor(spec, value)
    if is_ragged_component(spec):
        return to_ragged_tensor(spec, value)
    return EagerTensor(value, spec.dtype)


def _component(tensor):
    """A function's result as a flat element component (numpy values; a dataset stays itself)."""
    if hasattr(tensor, "_graph_iterator"):
        return tensor
    if isinstance(tensor, SparseTensor):
        return from_sparse_tensor(tensor)
    if type(tensor) is RaggedTensor:
        return from_ragged_tensor(tensor)
    return tensor._value


def _as_output(value):
    """A function's result as a dataset element, as TF makes it: a returned list becomes a tuple, a list
    nested inside becomes one tensor (packed: `(x, [x, 2 * x])` is a scalar and a vector), Python values
    tensors."""
    if isinstance(value, list):
        value = tuple(value)
    value = _pack_nested_lists(value)
    def leaf(x):
        if isinstance(x, Tensor):
            return x
        if hasattr(x, "_graph_iterator"):
            return x  # a dataset element (TF's DatasetSpec): one variant component, as window's elements
        if is_extension(x):
            return to_parts(x, leaf)
        return x if nest.is_composite(x) else convert_to_tensor(x)
    return nest.map_structure(leaf, value)



def _pack_nested_lists(value):
    if isinstance(value, list):
        return convert_to_tensor(value)
    if isinstance(value, tuple):
        items = [_pack_nested_lists(v) for v in value]
        return type(value)(*items) if hasattr(value, "_fields") else tuple(items)
    if isinstance(value, dict):
        return type(value)((k, _pack_nested_lists(v)) for k, v in value.items())
    return value

class TracedFunction:
    """`fn` over elements of `structures` (one structure per argument group: the element, or the state and
    the element), traced once with those specs. Calling it with flat numpy values returns flat numpy values
    of `output_spec`."""

    def __init__(self, fn, structures: list, what: str, unpack_last: bool = True):
        self.what = what
        self.user_function = fn
        self._structures = structures
        self._unpack_last = unpack_last
        fn = convert_for_function(fn)  # AutoGraph converts the user's function (flat_fn is library code)
        counts = [len(nest.flatten(s)) for s in structures]

        def flat_fn(*leaves):
            groups, at = [], 0
            for structure, n in zip(structures, counts):
                groups.append(restore(nest.pack_sequence_as(structure, list(leaves[at:at + n]))))
                at += n
            if len(groups) == 1:
                out = call_with_element(fn, groups[0], unpack_last)
            elif unpack_last and isinstance(groups[-1], tuple) and not hasattr(groups[-1], "_fields"):
                out = fn(*groups[:-1], *groups[-1])
            else:
                out = fn(*groups)
            return _as_output(out)

        flat_fn.__name__ = getattr(fn, "__name__", "fn").replace("<lambda>", "lambda")
        specs = [_argument_spec(s) for structure in structures for s in nest.flatten(structure)]
        self.lifted = ()  # the enclosing graph's tensors the function reads (extra trailing arguments)
        self._lifted_values = ()
        if state.graph is None:
            self._concrete = function(flat_fn, input_signature=specs, autograph=False).get_concrete_function()
        else:
            self._concrete, self.lifted = lifted_concrete_function(flat_fn, specs)
        outputs = self._concrete.structured_outputs
        self.output_spec = nest.map_structure(
            lambda t: t._type_spec if nest.is_composite(t) else TensorSpec(t._shape, t.dtype), outputs)
        self._in_specs = specs
        self._composite_in = any(_is_composite(s) for s in specs)
        self._in_dtypes = None if self._composite_in else [s.dtype for s in specs]
        # Plain numeric elements call the compiled graph directly with numpy values, as a matched tf.function
        # call does (no binding, checks or tensor wrapping per element); sparse and string elements, whose
        # values change form at the boundary, take the ConcreteFunction's call.
        plain = [s for s in nest.flatten(self.output_spec)] + list(specs)
        self._direct = None if any(_is_composite(s) or s.dtype.is_string for s in plain) else self._concrete._fn
        self._lifted_raw = ()

    def __call__(self, values) -> tuple:
        direct = self._direct
        if direct is not None and not state.tapes:
            concrete = self._concrete
            try:
                # the graph's code without its entry: under tinytf's numpy state, as the entry would run it
                # (the pipeline may be pulled under the user's state: eagerly, or by a graph's iterator op)
                return tuple(numpy_errors.call(direct, (*values, *self._lifted_raw, *concrete._captured()), {}))
            except Exception as e:  # noqa: BLE001 - re-raised naming the node and the user's line, as a call does
                raise runtime_error(e, concrete.name) from e
        if self._composite_in:
            tensors = [_argument(s, v) for v, s in zip(values, self._in_specs)]
        else:
            tensors = [EagerTensor(v, dtype) for v, dtype in zip(values, self._in_dtypes)]
        out = self._concrete(*tensors, *self._lifted_values)
        return tuple(_component(t) for t in nest.flatten(out))

    def describe_output(self) -> str:
        return describe(self.output_spec)

    def bound(self, values) -> TracedFunction:
        """This function with its lifted tensors given `values` (numpy values, in `lifted` order)."""
        new = copy.copy(self)
        new._lifted_values = tuple(EagerTensor(v, t.dtype) for v, t in zip(values, self.lifted))
        new._lifted_raw = tuple(t._value for t in new._lifted_values)
        return new

    def call_symbolic(self, *tensors):
        """The function inlined into the graph being built (dataset.reduce's loop body)."""
        return self._concrete(*tensors, *self.lifted)


def _placeholders(graph, specs) -> tuple:
    """A placeholder per spec (a sparse spec: one per component, made into a SparseTensor)."""
    leaves = []
    for s in specs:
        if isinstance(s, DatasetSpec):  # a dataset element (a window): its variant handle
            leaves.append(s._from_components([graph.placeholder(VARIANT, (), "arg")]))
        elif _is_composite(s):
            leaves.append(s._from_components([graph.placeholder(c.dtype, c._shape, "arg") for c in s._component_specs]))
        else:
            leaves.append(graph.placeholder(s.dtype, s._shape, "arg"))
    return leaves, {}


def _tensors_of(result) -> list:
    return [x for x in nest.flatten(result, expand_composites=True) if isinstance(x, Tensor)]


def lifted_concrete_function(flat_fn, specs):
    """(ConcreteFunction of (element leaves..., lifted...), lifted tensors): `flat_fn` traced once into a
    graph nested in the one being built (so it may capture its tensors, from any level up), whose captured
    graph tensors are then made arguments; the graph is replayed into a function of its own (interpret.py
    inlines it), so the user's Python runs once."""
    flat_result = []  # the result's leaves, flattened inside the nested graph (a dataset's variant is made there)

    def leaves(result):
        flat_result.extend(nest.flatten(result, expand_composites=True))
        return [x for x in flat_result if isinstance(x, Tensor)]

    graph, result = trace(flat_fn, lambda g: _placeholders(g, specs), flat_fn.__name__, parent=state.graph,
                          leaves=leaves)
    lifted = []
    for key, capture in list(graph.captures.items()):
        if capture.kind == "tensor":  # a tensor of the enclosing graph: an argument from now on
            lifted.append(capture.outer)
            del graph.captures[key]

    def replay(*args):
        outputs = eval_graph(graph, call_inputs(graph, nest.flatten(list(args), expand_composites=True)))
        flat = iter(outputs)
        return nest.pack_sequence_as(result, [next(flat) if isinstance(x, Tensor) else x for x in flat_result],
                                     expand_composites=True)

    replay.__name__ = flat_fn.__name__
    signature = list(specs) + [TensorSpec(t._shape, t.dtype) for t in lifted]
    concrete = function(replay, input_signature=signature, autograph=False).get_concrete_function()
    return concrete, tuple(lifted)


class TracedDatasetFunction:
    """A flat_map / interleave function inside a graph, traced once as TF does: called on symbolic elements it
    returns a dataset recipe whose graph tensors (symbolic.graph_inputs) are computed from the element and the
    enclosing graph's tensors by the traced function; per element, the function gives their values and the
    recipe is bound to them."""

    def __init__(self, fn, structure, what: str):
        self._pickled_as = (fn, structure, what)  # how the tf.data service sends it (service/travel.py)
        fn = convert_for_function(fn)
        holder = []

        def flat_fn(*leaves):
            dataset = call_with_element(fn, nest.pack_sequence_as(structure, list(leaves)), True)
            if not hasattr(dataset, "_graph_inputs"):
                raise TypeError(f"The `map_func` argument of {what} must return a `Dataset` object, got "
                                f"{type(dataset).__name__}.")
            holder.append(dataset)
            return list(dataset._graph_inputs())

        flat_fn.__name__ = getattr(fn, "__name__", "fn").replace("<lambda>", "lambda")
        specs = [s if isinstance(s, DatasetSpec) else _argument_spec(s) for s in nest.flatten(structure)]
        self._concrete, self.lifted = lifted_concrete_function(flat_fn, specs)
        self._lifted_values = ()
        self.recipe = holder[0]
        self.element_spec = self.recipe.element_spec
        self._in_specs = specs

    def bound(self, values):
        new = copy.copy(self)
        new._lifted_values = tuple(EagerTensor(v, t.dtype) for v, t in zip(values, self.lifted))
        return new

    def __call__(self, structure, values):
        """The dataset for one element (flat numpy values)."""
        tensors = [v if isinstance(s, DatasetSpec) else _argument(s, v) for v, s in zip(values, self._in_specs)]
        out = self._concrete(*tensors, *self._lifted_values)
        return self.recipe._bind([t._value for t in nest.flatten(out)]) if out else self.recipe

