"""ConcreteFunction: one traced graph, optimized and compiled to Python, callable with tensors.

It runs three ways (tinytf/function.py's docstring says which call takes which): `_run`, the compiled code,
one generated frame from the graph's argument values to the packed results; `_call_recorded`, op by op
through the dispatcher so that a recording tape sees every op; `_call_in_graph`, inlined into the graph
being built."""

from __future__ import annotations

import inspect

from tinytf.runtime import nest, shapes
from tinytf.runtime.codegen import compile_graph, node_at
from tinytf.runtime.context import state
from tinytf.runtime.dispatch import convert_to_tensor
from tinytf.runtime.entry import call_entry
from tinytf.runtime.errors import InvalidArgumentError, OpError, ResourceExhaustedError
from tinytf.runtime.interpret import call_inputs, eval_graph
from tinytf.runtime.resource import Resource
from tinytf.runtime.tensor import EagerTensor, Tensor

from .signature import (
    OBJECT,
    PYTHON_VALUE,
    TRACE_TYPE,
    bind_call,
    convert_numpy_leaves,
    describe_key,
    expand_leaves,
    is_tensor_key,
    leaf_key,
)
from .signature_text import concrete_repr, concrete_text
from .tensor_spec import TensorSpec


class _TensorSlot:
    """Marks where a graph output goes in the structured result."""

    __slots__ = ("index",)

    def __init__(self, index):
        self.index = index


class ConcreteFunction:
    """A traced graph with its compiled code. `graph` is what was optimized and compiled; `code` is the
    generated source; `unoptimized_graph` is the graph as traced (when optimization ran)."""

    def __init__(self, name, graph, key, structured_inputs, structured_outputs, arg_names, signature,
                 leaf_names, unoptimized_graph=None):
        self.name = name
        self.graph = graph
        self.unoptimized_graph = unoptimized_graph or graph
        if graph is not self.unoptimized_graph:  # get_operations() lists the ops as traced, with TF's names
            graph.traced_graph = self.unoptimized_graph
        self._key = key
        self.structured_input_signature = structured_inputs
        self._arg_names = arg_names
        self._signature_fn = signature  # the Python function's inspect.Signature, to bind direct calls
        self._leaf_names = leaf_names  # a name per flat argument, for printed signatures
        self._n_args = len(graph.inputs) - len(_captures(graph))
        self._compiled = compile_graph(graph, name, arg_names + [None] * (len(graph.inputs) - len(arg_names)))
        self._fn, self.code = self._compiled.fn, self._compiled.source  # the graph's code (its entries inline it)
        self._bind_captures(graph)
        self._out_dtypes = [t.dtype for t in graph.outputs]
        self._set_output_structure(structured_outputs)
        # The compiled call: the numpy values of the graph's tensor arguments (variables as themselves) in,
        # wrapped results out, captures bound inside; one Python frame (runtime/entry.py).
        self._run = self.build_entry("run", self._compiled.params[:self._n_args], [], {})
        self._atomic = None  # inference_fn, made when asked

    # --- construction ---------------------------------------------------------------------------------
    def _bind_captures(self, graph):
        """Captured eager tensors are bound by value now; variables weakly, resolved at each call."""
        self._capture_values = []
        self._capture_refs = []
        for capture in _captures(graph):
            if capture.kind == "resource":
                variable = capture.outer
                self._capture_refs.append((len(self._capture_values), capture._outer,
                                           variable.name if variable is not None else capture.placeholder.node.name))
                self._capture_values.append(None)
            else:
                self._capture_values.append(capture.outer._value)

    def _set_output_structure(self, structured_outputs):
        counter = iter(range(len(self.graph.outputs)))
        leaves = nest.flatten(structured_outputs, expand_composites=True) if structured_outputs is not None else []
        template = [(_TensorSlot(next(counter)) if isinstance(x, Tensor) else x) for x in leaves]
        self._out_template = template
        self._single_output = not nest.is_nested(structured_outputs) and isinstance(structured_outputs, Tensor)
        self.structured_outputs = structured_outputs

    def build_entry(self, name, params, prologue, extra):
        """An entry point for this trace (runtime/entry.py): `prologue` binds the graph's argument names."""
        refs = {index: ref for index, ref, _ in self._capture_refs}
        captures = [("ref", refs[i]) if i in refs else ("value", value) for i, value in enumerate(self._capture_values)]
        return call_entry(self._compiled, name, params, prologue, extra, n_args=self._n_args, captures=captures,
                          out_dtypes=self._out_dtypes, pack=None if self._single_output else self._pack,
                          dead=self._dead_variable, error=lambda exc: _runtime_error(exc, self.name),
                          label=f"{self.name} entry", structure=self.structured_outputs)

    def _dead_variable(self, index):
        for i, _, name in self._capture_refs:
            if i == index:
                raise InvalidArgumentError(
                    f"the variable {name!r} captured by {self.name} was deleted; keep a reference to the "
                    "variables a tf.function uses for as long as you call it")

    @property
    def outputs(self) -> list:
        return list(self.graph.outputs)

    @property
    def inputs(self) -> list:
        return list(self.graph.inputs)

    @property
    def captured_inputs(self) -> list:
        return [c.outer for c in _captures(self.graph)]

    @property
    def variables(self) -> list:
        return [c.outer for c in _captures(self.graph) if c.kind == "resource"]

    @property
    def trainable_variables(self) -> list:
        """The captured variables that are trainable (TF's ConcreteFunction.trainable_variables)."""
        return [v for v in self.variables if getattr(v, "trainable", False)]

    # --- calling -----------------------------------------------------------------------------------------
    def _captured(self):
        values = self._capture_values
        if self._capture_refs:
            values = list(values)
            for index, ref, _ in self._capture_refs:
                var = ref()
                if var is None:
                    self._dead_variable(index)
                values[index] = var
        return values

    def _pack(self, results):
        dtypes_ = self._out_dtypes
        if self.structured_outputs is None:
            return None
        leaves = [EagerTensor(results[x.index], dtypes_[x.index]) if isinstance(x, _TensorSlot) else x
                  for x in self._out_template]
        return nest.pack_sequence_as(self.structured_outputs, leaves, expand_composites=True)

    def _call_recorded(self, leaves):
        """Run the traced graph op by op through the dispatcher, so that recording tapes see its ops."""
        args = [x for x in leaves if isinstance(x, (Tensor, Resource))]
        captured = [c.outer for c in _captures(self.unoptimized_graph)]
        if any(c is None for c in captured):
            self._captured()  # raises the deleted-variable error
        captured = [EagerTensor(c._value, c.dtype) if isinstance(c, EagerTensor) else c for c in captured]
        return with_tensors(self.structured_outputs, eval_graph(self.unoptimized_graph, args + captured))

    def _call_in_graph(self, leaves):
        """Called while another function is being traced: this graph is inlined into the outer one."""
        tensors = [x for x in leaves if isinstance(x, (Tensor, Resource))]
        graph = self.unoptimized_graph
        return with_tensors(self.structured_outputs, eval_graph(graph, call_inputs(graph, tensors)))

    def __call__(self, *args, **kwargs):
        args, kwargs = self._with_bound_values(args, kwargs)
        structure = bind_call(self._signature_fn, args, kwargs, self.name)
        leaves = expand_leaves(convert_numpy_leaves(structure))
        self._check_call(leaves)
        symbolic = [x for x in leaves if isinstance(x, Tensor) and not isinstance(x, EagerTensor)]
        if symbolic or state.graph is not None:  # inside a trace, even without tensor arguments: inlined, as TF
            return self._call_in_graph(leaves)  # adds a call (never run now, its effects baked in as constants)
        if state.tapes:
            return self._call_recorded(leaves)
        return self._run(*graph_values(leaves))

    def _with_bound_values(self, args, kwargs):
        """Parameters left out of a call take the Python values they were traced with (as TF binds the
        non-tensor arguments given to get_concrete_function)."""
        try:
            bound = self._signature_fn.bind_partial(*args, **kwargs)
        except TypeError:
            return args, kwargs  # bind_call reports it
        traced_args, traced_kwargs = self.structured_input_signature
        arguments = {}
        for i, param in enumerate(self._signature_fn.parameters.values()):
            if param.name in bound.arguments:
                arguments[param.name] = bound.arguments[param.name]
            elif param.kind in (param.POSITIONAL_ONLY, param.POSITIONAL_OR_KEYWORD):
                if i < len(traced_args) and _is_python_value(traced_args[i]):
                    arguments[param.name] = traced_args[i]
            elif param.kind is param.KEYWORD_ONLY and param.name in traced_kwargs:
                if _is_python_value(traced_kwargs[param.name]):
                    arguments[param.name] = traced_kwargs[param.name]
        if len(arguments) == len(bound.arguments):
            return args, kwargs
        if any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in self._signature_fn.parameters.values()):
            return args, kwargs
        filled = inspect.BoundArguments(self._signature_fn, arguments)
        return filled.args, filled.kwargs

    def _check_call(self, leaves, called_directly=True):
        """Refuse arguments that do not fit the trace (TypeError). A tensor of another dtype given to the
        concrete function itself is TF's InvalidArgumentError (its call op refuses it); through a tf.function's
        input_signature it stays a TypeError, as TF binds it."""
        expected = self._key[1]
        if len(leaves) != len(expected):
            raise TypeError(f"{self.name}: expected {len(expected)} arguments "
                            f"({self.pretty_printed_signature(False)}), got {len(leaves)}")
        for i, (leaf, k) in enumerate(zip(leaves, expected)):
            if is_tensor_key(k):
                if not isinstance(leaf, (Tensor, Resource)):
                    try:
                        leaf = convert_to_tensor(leaf, k[1])
                    except (TypeError, ValueError):
                        pass
                dtype = getattr(leaf, "dtype", None)
                shape = getattr(leaf, "_shape", None)
                if dtype is not k[1] or not shapes.is_subshape(shape, k[2]):
                    got = f"{dtype.name} tensor of shape {shapes.fmt(shape)}" if dtype is not None else repr(leaf)
                    detail = (f"ConcreteFunction {self.name}({', '.join(self._arg_names)}) was constructed with "
                              f"{describe_key(k)} for argument {i}, but was called with {got}")
                    if dtype is not None and dtype is not k[1] and called_directly:
                        raise InvalidArgumentError(  # the words of TF's function call op
                            f"cannot compute {self.name} as input #{i}(zero-based) was expected to be a "
                            f"{_tf_dtype_word(k[1])} tensor but is a {_tf_dtype_word(dtype)} tensor: {detail}")
                    raise TypeError(detail)
            elif k[0] == TRACE_TYPE:
                given = leaf_key(leaf)
                if given[0] != TRACE_TYPE or not (given == k or given[1].is_subtype_of(k[1])):
                    raise TypeError(f"ConcreteFunction {self.name}: argument {i} was traced with {k[1]!r}, but "
                                    f"was called with {leaf!r}")
            elif (PYTHON_VALUE, leaf) != k and k[0] != OBJECT:
                raise TypeError(f"ConcreteFunction {self.name}: argument {i} was traced with the Python value "
                                f"{k[1]!r}, but was called with {leaf!r}")

    @property
    def inference_fn(self):
        """TF's AtomicFunction of this trace: the graph called with its flat tensor arguments."""
        if self._atomic is None:
            from .atomic_function import AtomicFunction

            self._atomic = AtomicFunction(self)
        return self._atomic

    # --- descriptions ------------------------------------------------------------------------------------
    @property
    def function_type(self):
        """This trace's parameters, output and captures with their types (tf.types.experimental.FunctionType)."""
        from .function_type import FunctionType

        return FunctionType(self)

    def pretty_printed_signature(self, verbose=True) -> str:
        """TF 2.21's multi-line description (verbose), or the one-line `name(arg: spec, ...)` form."""
        if verbose:
            return concrete_text(self)
        parts = [f"{name}: {describe_key(k)}" for name, k in zip(self._leaf_names, self._key[1])]
        return f"{self.name}({', '.join(parts)})"

    def __str__(self):
        return f"ConcreteFunction {concrete_text(self)}"

    def __repr__(self):
        return concrete_repr(self)


def graph_values(leaves) -> list:
    """What the compiled code takes for a call's flat leaves: the numpy value of each eager tensor, each
    variable itself; Python values were baked into the trace."""
    return [x._value if isinstance(x, EagerTensor) else x for x in leaves if isinstance(x, (Tensor, Resource))]


def _is_python_value(value) -> bool:
    return not nest.is_nested(value) and not isinstance(value, (Tensor, Resource, TensorSpec))


def with_tensors(structure, tensors):
    """`structure` with its tensors replaced, in order, by `tensors` (other leaves kept)."""
    if structure is None:
        return None
    flat = iter(tensors)
    return nest.pack_sequence_as(structure, [next(flat) if isinstance(x, Tensor) else x
                                             for x in nest.flatten(structure, expand_composites=True)],
                                 expand_composites=True)


def _captures(graph):
    return [c for c in graph.captures.values() if c.kind != "argument"]


def _runtime_error(exc, function_name):
    """An exception raised by generated code, re-raised naming the node and the user's line."""
    tb = exc.__traceback__
    node = None
    while tb is not None:
        found = node_at(tb.tb_frame, tb.tb_lineno)
        if found is not None:
            node = found
        tb = tb.tb_next
    if node is None:
        return exc
    where = f"\n  {node.location}" if node.location is not None and str(node.location) not in str(exc) else ""
    message = f"{node.op.name} (node {node.name} of {function_name}): {exc}{where}"
    if isinstance(exc, MemoryError) and not isinstance(exc, OpError):
        return ResourceExhaustedError(message)
    if isinstance(exc, OpError):  # a kernel's own TF error keeps its class (OutOfRangeError is also an IndexError)
        return type(exc)(message)
    if isinstance(exc, (InvalidArgumentError, IndexError, ValueError, ArithmeticError)):
        return InvalidArgumentError(message)  # as the same mistake raises eagerly
    try:
        return type(exc)(message)
    except Exception:  # noqa: BLE001 - exception types with other constructors
        return InvalidArgumentError(message)


__all__ = ["ConcreteFunction"]


def _tf_dtype_word(dtype) -> str:
    """A dtype as TF's kernels name it in messages (DataTypeString: float32 is "float", float64 "double")."""
    return {"float32": "float", "float64": "double"}.get(dtype.name, dtype.name)
