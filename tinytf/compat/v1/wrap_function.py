"""`tf.compat.v1.wrap_function(fn, signature)`: TF1 graph-building code (placeholders, get_variable, collections,
import_meta_graph) run once into a TF1 graph of its own, and called like a concrete function with eager tensors.

The variables the code creates are lifted, as TF lifts them: they become eager variables (`wf.variables`),
initialized at wrap time and readable and assignable outside, and every call of the function (or of a function
`prune` cuts out of its graph) reads and updates those very variables. The graph runs through a Session whose
variables keep their own values (session.py's `_live_variables`), so a prune is a Session.run of other fetches.
"""

from __future__ import annotations

import numpy as np

from tinytf.runtime import nest
from tinytf.runtime.dispatch import convert_to_tensor
from tinytf.runtime.graph import SymbolicTensor
from tinytf.runtime.ops.state import UNSET

from ...function_kinds import ConcreteFunction as _ConcreteFunctionType
from ...tensor_spec import TensorSpec
from ...variables import ResourceVariable, Variable
from .graph import Graph
from .ops import Operation
from .session import Session


class _LiveSession(Session):
    """The Session a WrappedFunction runs its graph in: its variables hold their values themselves (eager)."""

    _live_variables = True

    def _value_of(self, variable):
        value = variable._array
        if value is UNSET:
            return super()._value_of(variable)  # TF's "uninitialized" error
        return value.copy() if isinstance(value, np.ndarray) else value


class WrappedFunction:
    """What `wrap_function` and `prune` return: called with one eager tensor (or value) per flat input, it runs
    its graph and returns its outputs as eager tensors in the structure the wrapped code returned."""

    def __init__(self, graph: Graph, session: _LiveSession, inputs: list, structured_outputs, variables: tuple,
                 structured_input_signature, name: str):
        self.graph = graph
        self._session = session
        self._arguments = list(inputs)
        self.structured_outputs = structured_outputs
        self.outputs = [t for t in nest.flatten(structured_outputs) if isinstance(t, SymbolicTensor)]
        self._variables = variables
        self.structured_input_signature = structured_input_signature
        self.name = name
        self._tensors_only = False  # a pruned function takes tensors only (TF's flat signature)

    @property
    def inputs(self) -> list:
        """The arguments' placeholders, then the handles of the variables the graph captures (as TF lists them)."""
        handles = [c.placeholder for c in self.graph.captures.values() if c.kind == "resource"]
        return self._arguments + handles

    @property
    def variables(self) -> tuple:
        return self._variables

    @property
    def trainable_variables(self) -> tuple:
        return tuple(v for v in self._variables if v.trainable)

    def __call__(self, *args, **kwargs):
        if kwargs:
            raise NotImplementedError("Keyword arguments are not supported when calling a wrap_function-decorated "
                                      f"function. Got {kwargs}.")
        if len(args) != len(self._arguments):
            raise ValueError(f"Signature specifies {len(self._arguments)} arguments, got: {len(args)}. Expected "
                             f"inputs: {[t.name for t in self._arguments]}.")
        feeds = {}
        for placeholder, arg in zip(self._arguments, args):
            if isinstance(arg, SymbolicTensor):
                raise NotImplementedError(f"{self.name}: tinytf runs a wrapped function eagerly only; calling it "
                                          "with the symbolic tensors of a tf.function is not supported")
            if self._tensors_only and not hasattr(arg, "numpy"):
                raise TypeError(f"{self.name}({', '.join(t.name.split(':')[0] for t in self._arguments)}): expected "
                                f"argument #{len(feeds)}(zero-based) to be a Tensor; got {type(arg).__name__} "
                                f"({arg!r}).")
            dtype = getattr(arg, "dtype", None)
            if hasattr(arg, "numpy") and dtype is not None and dtype != placeholder.dtype:
                raise ValueError(f"Tensor conversion requested dtype {placeholder.dtype.name} for Tensor with dtype "
                                 f"{dtype.name}: {arg!r}")
            feeds[placeholder] = convert_to_tensor(arg, placeholder.dtype).numpy()
        fetches = self.structured_outputs
        if all(f is None for f in nest.flatten(fetches)):  # nothing to run (TF returns the structure as is)
            return fetches
        return nest.map_structure(_eager, fetches, self._session.run(fetches, feeds))

    def prune(self, feeds, fetches, name=None, input_signature=None) -> WrappedFunction:
        """A function of `feeds` (tensors of this graph or their names, in the order the new function takes
        them) returning `fetches` (any structure of tensors, ops or names; an op gives None): TF's prune."""
        flat_feeds = [self._element(f, tensor=True) for f in nest.flatten(feeds)]
        resolved = nest.map_structure(self._element, fetches)
        signature = (tuple(TensorSpec(t._shape, t.dtype) for t in flat_feeds), {})
        pruned = WrappedFunction(self.graph, self._session, flat_feeds, resolved, self._variables,
                                 input_signature if input_signature is not None else signature, name or "pruned")
        pruned._tensors_only = True
        return pruned

    def _element(self, item, tensor=False):
        """The tensor or op of this graph that `item` (it, or its name) stands for."""
        if isinstance(item, str):
            if ":" in item or tensor:
                return self.graph.get_tensor_by_name(item)
            return self.graph.get_operation_by_name(item)
        graph = getattr(item, "graph", None)
        if graph is not self.graph:
            raise ValueError(f"prune: {item!r} is not an element of the wrapped function's graph")
        if tensor and not isinstance(item, SymbolicTensor):
            raise TypeError(f"prune: feeds must be tensors of the graph (or their names), got {item!r}")
        return item

    def __repr__(self):
        return f"<WrappedFunction {self.name}>"


_ConcreteFunctionType.register(WrappedFunction)  # isinstance(wf, tf.types.experimental.ConcreteFunction), as TF


def _eager(fetch, value):
    if value is None or isinstance(fetch, Operation) and fetch._v1_variable is None:
        return None
    dtype = fetch.dtype if isinstance(fetch, SymbolicTensor) else None
    return convert_to_tensor(value, dtype)


def _placeholder(graph: Graph, spec, path: str):
    if not isinstance(spec, TensorSpec):
        raise TypeError(f"wrap_function: signature entries must be tf.TensorSpec, got {spec!r} at {path or 'top'}")
    return graph.placeholder(spec.dtype, spec.shape, spec.name or "Placeholder")


def _graph_output(value):
    """An output of the wrapped code as the graph holds it: tensors and ops as they are, a variable as its
    value, any other value a constant of the graph (TF converts it too)."""
    if value is None or isinstance(value, (SymbolicTensor, Operation)):
        return value
    if isinstance(value, Variable):
        return value.read_value()
    return convert_to_tensor(value)


def wrap_function(fn, signature, name=None) -> WrappedFunction:
    """`tf.compat.v1.wrap_function`: run `fn` once on placeholders made from `signature` (a list of
    tf.TensorSpec structures, one per argument) in a graph of its own, lift the variables it creates and return
    the WrappedFunction. Its variables are initialized now; those imported without an initializer run
    (import_meta_graph's) stay uninitialized until restored (a Saver with sess=None)."""
    signature = [] if signature is None else list(signature)
    graph = Graph()
    with graph.as_default():
        args = [nest.map_structure(lambda spec, i=i: _placeholder(graph, spec, f"argument {i}"), spec)
                for i, spec in enumerate(signature)]
        outputs = nest.map_structure(_graph_output, fn(*args))
    made = tuple(graph.collections.get("variables", []))
    session = _LiveSession(graph=graph)
    initialized = [v for v in made if "_v1_initial_value" in v.__dict__]
    for variable in made:
        if "_v1_initial_value" not in variable.__dict__:
            variable._array = UNSET
    if initialized:
        session.run([v.initializer for v in initialized])
    for variable in made:  # lifted: plain eager variables from now on (checkpointable, assignable)
        variable.__class__ = ResourceVariable
    inputs = nest.flatten(args)
    specs = (tuple(nest.map_structure(lambda t: TensorSpec(t._shape, t.dtype), a) for a in args), {})
    return WrappedFunction(graph, session, inputs, outputs, made, specs,
                           f"wrapped_function_{name}" if name else "wrapped_function")
