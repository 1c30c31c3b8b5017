"""tf.function: trace a Python function per abstract input signature, cache the compiled graphs.

Which path a call takes, and why (every call path of Function and ConcreteFunction):

Function
1. The specialized __call__ (`_specialize`, guards from runtime/entry.py): after a call of up to four
   positional eager tensors, the Function's own __call__ becomes code generated for that trace: each
   argument's type, dtype and shape checked, the graph's body inlined, results wrapped, in one Python frame.
   It exists for the cost of a small call (tiny_call: 4.5k instructions, against 22k through 2; see
   benchmarks/call_overhead.py); any other call falls through to 2.
2. Function.__call__, the keyed path, for every other call:
   - tf.config.run_functions_eagerly(True): the Python function itself.
   - called while another function is traced (`_call_in_outer_trace`): this function's trace (its own cache,
     as TF) is inlined into the outer graph by runtime/interpret.eval_graph (`ConcreteFunction._call_in_graph`);
     a body that reads the outer graph's tensors through its closure is traced into the outer graph instead
     (`_trace_inline`).
   - else the call's pattern (signature.CallPattern: one walk over tensors, numpy arrays and scalars, Python
     scalars and strings, in tuples, lists and dicts, positionally or by keyword, defaults filled in) finds
     the trace in `_fast_cache` and runs its compiled code on the values the walk collected
     (`ConcreteFunction._run`). This is what Keras' train step, nested (x, y) numpy batches, takes.
   - on a miss, and for every call while tf.summary.trace_on notes graphs (`_call_slow`): the full key
     (signature.call_key of the bound, converted arguments: composites, variables, objects by identity,
     TraceTypes, input_signature conversions), lookup or trace; then with a tape recording, the graph is
     replayed op by op by eval_graph so that the tape sees every op (`ConcreteFunction._call_recorded`); else
     the compiled code. The pattern is cached for that trace once its values are checked to be the ones the
     full path passes (signature.same_values), and a call of eager tensors specializes the function (1).
     Traces and cache entries are made under the trace lock; lookups take no lock (a dict read is atomic),
     so threads call one function concurrently.

ConcreteFunction, called directly, binds and checks its arguments against its trace, then runs one of its
three executions, which Function's paths use too:
- `_run`: the compiled code (generated entry: captures bound, outputs wrapped and packed in one frame);
- `_call_recorded`: op by op through the dispatcher, when a tape records (tapes must see every op);
- `_call_in_graph`: inlined into the graph being built, when an argument is symbolic.
"""

from __future__ import annotations

import collections
import functools
import inspect
import logging
import weakref

import numpy as np

from tinytf.runtime import nest, shapes
from tinytf.runtime.check import check_graph
from tinytf.runtime.context import shared, state, trace_lock
from tinytf.runtime.dispatch import convert_to_tensor
from tinytf.runtime.entry import guard_prologue
from tinytf.runtime.errors import InaccessibleTensorError, InvalidArgumentError
from tinytf.runtime.graph import RESOURCE, Capture
from tinytf.runtime.optimize import optimize
from tinytf.runtime.resource import Resource
from tinytf.runtime.tensor import EagerTensor, Tensor
from tinytf.runtime.trace import trace

from . import config, traceback_filtering
from .concrete_function import ConcreteFunction, graph_values, with_tensors
from .data.iterator import Optional
from .none_tensor import NoneTensor, NoneTensorSpec
from .optional_spec import OptionalSpec
from .signature import (
    TENSOR,
    CallPattern,
    bind_call,
    call_key,
    composite_spec,
    convert_numpy_leaves,
    expand_leaves,
    generality,
    generalizes,
    is_tensor_key,
    placeholder_for,
    relax,
    same_values,
)
from .tensor_spec import TensorSpec

logger = logging.getLogger("tinytf")

_RETRACE_WINDOW = 10
_RETRACE_THRESHOLD = 5
_warnings_per_code: dict = collections.Counter()


class _WeakMethod:
    """A method bound to an instance held weakly, so per-instance Functions never keep it alive."""

    def __init__(self, func, instance):
        self.__func__ = func
        self._ref = weakref.ref(instance)
        functools.update_wrapper(self, func)

    @property
    def __self__(self):
        return self._ref()

    def __call__(self, *args, **kwargs):
        instance = self._ref()
        if instance is None:
            raise ReferenceError("the object this tf.function method belongs to was deleted")
        return self.__func__(instance, *args, **kwargs)


class Function:
    """A Python function compiled to graphs: one ConcreteFunction per abstract signature of its calls."""

    def __init__(self, python_function, name=None, input_signature=None, autograph=True, jit_compile=None,
                 reduce_retracing=False, experimental_relax_shapes=None, experimental_autograph_options=None,
                 experimental_follow_type_hints=None, experimental_implements=None, experimental_cache_capacity=None):
        self._python_function = python_function
        if experimental_cache_capacity is not None and (not isinstance(experimental_cache_capacity, int)
                                                        or experimental_cache_capacity < 1):
            raise ValueError(f"tf.function: experimental_cache_capacity must be a positive int or None, got "
                             f"{experimental_cache_capacity!r}")
        # At most this many traces are kept, the least recently used dropped first (None: unbounded). A bounded
        # function keeps no fast-path entries, so that every call goes through _lookup, which tracks recency.
        self._capacity = experimental_cache_capacity
        self._name = name or getattr(python_function, "__name__", "function")
        self._autograph = autograph
        self._autograph_options = experimental_autograph_options
        self._reduce_retracing = bool(reduce_retracing or experimental_relax_shapes)
        self._input_signature = None if input_signature is None else list(input_signature)
        target = python_function.__func__ if isinstance(python_function, _WeakMethod) else python_function
        signature = inspect.signature(target)
        if isinstance(python_function, _WeakMethod):
            params = list(signature.parameters.values())[1:]
            signature = signature.replace(parameters=params)
        self._signature = signature
        params = list(signature.parameters.values())
        simple = all(p.kind is p.POSITIONAL_OR_KEYWORD for p in params)
        self._fast_arity = len(params) if simple else -1  # calls with exactly this many positional args
        self._cache: dict = {}  # full key -> ConcreteFunction
        # The call's pattern (signature.CallPattern: tensor dtypes and shapes, structure, Python values) ->
        # ConcreteFunction. A bounded cache keeps none, so that every call goes through _lookup, which tracks
        # recency.
        pattern = CallPattern(signature)
        self._pattern = pattern if pattern.usable and experimental_cache_capacity is None else None
        self._fast_cache: dict = {}
        self._concrete: list = []  # every ConcreteFunction traced, in order
        self._tracing_count = 0
        self._calls = 0  # calls through the general path
        self._fast_calls = [0]  # calls through the specialized __call__ (a list: cheap to bump from its code)
        self._trace_calls = collections.deque(maxlen=_RETRACE_WINDOW)
        self._created_variables = False
        self._owned_variables: list = []
        self._instances: dict = {}
        self._converted = None
        functools.update_wrapper(self, target)
        # Each Function gets a class of its own, so that its __call__ can be replaced by code generated for
        # its latest trace (see _specialize): `f(x)` then costs one Python frame.
        self.__class__ = type("Function", (Function,), {"__module__": Function.__module__})

    # --- public API ------------------------------------------------------------------------------
    @property
    def python_function(self):
        return self._python_function

    @property
    def input_signature(self):
        return self._input_signature

    def experimental_get_tracing_count(self) -> int:
        return self._tracing_count

    def __get__(self, instance, owner):
        """Methods: one Function per instance, holding the instance weakly."""
        if instance is None:
            return self
        entry = self._instances.get(id(instance))
        if entry is not None and entry[0]() is instance:
            return entry[1]
        bound = Function(_WeakMethod(self._python_function, instance), self._name, self._input_signature,
                         self._autograph, reduce_retracing=self._reduce_retracing,
                         experimental_autograph_options=self._autograph_options,
                         experimental_cache_capacity=self._capacity)
        key = id(instance)
        try:
            ref = weakref.ref(instance, lambda _, k=key, d=self._instances: d.pop(k, None))
        except TypeError:
            return bound
        self._instances[key] = (ref, bound)
        return bound

    def __call__(self, *args, **kwargs):
        # The latest trace usually answers through the generated __call__ (see _specialize); this is the
        # keyed path (the module docstring): the call's pattern, then (on a miss) its full key.
        try:
            self._calls += 1
            pattern = self._pattern
            if (pattern is not None and not config.run_eagerly and config.call_tracer is None
                    and (not shared.busy or not state.tapes)):
                found = pattern(args, kwargs)
                if found is not None:
                    concrete = self._fast_cache.get(found[0])
                    if concrete is not None:
                        return concrete._run(*found[1])
            if config.run_eagerly:
                return self._python_function(*args, **kwargs)
            if shared.busy and state.graph is not None:
                return self._call_in_outer_trace(args, kwargs)
            return self._call_slow(args, kwargs)
        except Exception as error:  # TF hides its own frames (tinytf/traceback_filtering.py)
            if traceback_filtering._enabled[0]:
                traceback_filtering.filter_exception(error)
            raise

    def get_concrete_function(self, *args, **kwargs) -> ConcreteFunction:
        """The ConcreteFunction for these arguments (tensors, TensorSpecs or Python values), tracing if needed."""
        if self._input_signature is not None:
            if args or kwargs:  # TF: the one trace of the signature, if these arguments fit it
                leaves = nest.flatten(self._canonical(args, kwargs))
                if any(isinstance(x, TensorSpec) for x in leaves):
                    return self._signature_concrete_for_specs(leaves)
                return self._signature_concrete(leaves)[0]
            args = tuple(self._input_signature)
        structure = self._canonical(args, kwargs)
        key = call_key(structure)
        with trace_lock:
            concrete = self._lookup(key)
            if concrete is None:
                concrete = self._trace(structure, key)
        return concrete

    def pretty_printed_concrete_signatures(self, verbose=True) -> str:
        return "\n\n".join(c.pretty_printed_signature(verbose) for c in self._concrete)

    def experimental_get_concrete_functions(self) -> list:
        return list(self._concrete)

    def __repr__(self):
        return f"<tinytf.Function {self._name}>"

    # --- calls -----------------------------------------------------------------------------------
    def _canonical(self, args, kwargs):
        structure = bind_call(self._signature, args, kwargs, self._name)
        if self._input_signature is not None:  # lists and arrays where the signature has a TensorSpec
            args = tuple(_convert_per_spec(a, spec) for a, spec in zip(structure[0], self._input_signature))
            structure = (args + structure[0][len(args):], structure[1])
        return convert_numpy_leaves(structure)

    def _concrete_for(self, args, kwargs):
        """The ConcreteFunction serving this call (traced now if needed) and the call's flat leaves."""
        structure = self._canonical(args, kwargs)
        leaves = expand_leaves(structure)
        if self._input_signature is not None:
            return self._signature_concrete(leaves)
        key = call_key(structure)
        concrete = self._lookup(key)
        if concrete is None:
            with trace_lock:  # one thread traces; the others then find its trace
                concrete = self._lookup(key)
                if concrete is None:
                    if self._reduce_retracing:
                        key = self._relaxed(key)
                    concrete = self._trace(structure, key)
                    concrete = self._lookup(call_key(structure)) or concrete
        return concrete, leaves

    def _call_in_outer_trace(self, args, kwargs):
        """Called while another function is traced: this function keeps its own cache (one trace per
        signature, shared with eager calls, as TensorFlow does) and its graph is inlined into the outer one.
        A body that reads the outer graph's tensors through its closure cannot be traced on its own; it is
        traced into the outer graph instead."""
        try:
            concrete, leaves = self._concrete_for(args, kwargs)
        except InaccessibleTensorError:
            return self._trace_inline(args, kwargs)
        return concrete._call_in_graph(leaves)

    def _call_slow(self, args, kwargs):
        concrete, leaves = self._concrete_for(args, kwargs)
        tracer = config.call_tracer  # tf.summary.trace_on: note the graph (no fast paths until trace_off)
        if tracer is not None:
            result = tracer(concrete, leaves)
            if result is not None:  # the tracer ran the call (config.RAN_RETURNING_NONE: it returned None)
                return None if result is config.RAN_RETURNING_NONE else result
        if state.tapes:  # recording: run the graph op by op so that the tapes see every op
            return concrete._call_recorded(leaves)
        values = graph_values(leaves)
        found = self._pattern(args, kwargs) if self._pattern is not None and config.call_tracer is None else None
        if found is not None and same_values(found[1], values):
            with trace_lock:  # later calls with this pattern go straight to this trace
                self._fast_cache[found[0]] = concrete
                if (not shared.live_tapes and not kwargs and len(args) == self._fast_arity
                        and all(type(a) is EagerTensor for a in args)):
                    # a tape recording on another thread must see this function's ops: no specialized code then
                    self._specialize(concrete, args)
                    if shared.live_tapes:  # a tape started meanwhile (its listeners may have run before)
                        self._unspecialize()
        return concrete._run(*values)

    def _trace_inline(self, args, kwargs):
        """Called while another function is being traced: trace the body into the outer graph (TF traces a
        nested tf.function once per trace of the outer one)."""
        structure = self._canonical(args, kwargs)
        if self._input_signature is not None:
            _check_against_signature(self._input_signature, structure[0])
        self._tracing_count += 1
        hook = self._variable_creation_hook()
        state.variable_hooks.append(hook)
        try:
            return self._python_for_tracing()(*structure[0], **structure[1])
        finally:
            state.variable_hooks.remove(hook)
            self._created_variables = True

    def _specialize(self, concrete, args):
        """Make `self(...)` run generated code for this trace: the key check (each argument's type, dtype and
        shape) and the graph's body in one frame; any other call takes the general path. The generated method
        takes the Python function's own parameter names (so keyword calls bind natively) and no *args or
        **kwargs, whose packing would cost more than the rest of a one-op call."""
        n = len(args)
        if n > 4 or concrete._n_args != n or not n:
            return
        names = list(self._signature.parameters)
        if any(name == "self" or name.startswith("_") for name in names) or len(names) != n:
            return
        fallback = f"    return _generic(self, {', '.join(f'_a{i}' for i in range(n))})"
        extra = {"_generic": _call_general, "_MISSING": _MISSING, "_count": self._fast_calls}
        prologue = guard_prologue(names, args, concrete._compiled.params[:n], fallback, extra)
        signature = ["self"] + [f"{name}=_MISSING" for name in names]
        entry = concrete.build_entry(self._name if self._name.isidentifier() else "__call__", signature, prologue,
                                     extra)
        type(self).__call__ = entry
        config.note_specialized(self)

    def _unspecialize(self):
        """Back to the general __call__ (run_functions_eagerly was switched on, or a tape started)."""
        try:
            delattr(type(self), "__call__")
        except AttributeError:
            pass  # not specialized (or another thread got there first)

    def _signature_concrete(self, leaves):
        """The one trace of a function with an input_signature; Python values are converted per spec."""
        if not self._concrete:
            self.get_concrete_function()
        concrete = self._concrete[0]
        specs = expand_leaves(tuple(self._input_signature))
        if len(leaves) == len(specs):
            leaves = [convert_to_tensor(x, s.dtype)
                      if isinstance(s, TensorSpec) and not isinstance(x, (Tensor, Resource)) else x
                      for x, s in zip(leaves, specs)]
        concrete._check_call(leaves, called_directly=False)
        return concrete, leaves

    def _signature_concrete_for_specs(self, leaves):
        """get_concrete_function(TensorSpec(...)) of a function with an input_signature: its one trace when each
        spec is one the signature's spec covers (TF's TypeError otherwise)."""
        specs = expand_leaves(tuple(self._input_signature))
        for x, spec in zip(leaves, specs):
            if isinstance(x, TensorSpec) and not (x.dtype == spec.dtype and x.shape.is_subtype_of(spec.shape)):
                raise TypeError(f"Binding inputs to tf.function failed due to `Can not cast {x!r} to {spec!r}`. "
                                f"Received args: {tuple(leaves)!r} for signature: {tuple(specs)!r}.")
        if len(leaves) != len(specs):
            raise TypeError(f"{self._name}: {len(leaves)} arguments given, its input_signature has {len(specs)}")
        if not self._concrete:
            self.get_concrete_function()
        return self._concrete[0]

    def _lookup(self, key):
        """The exact trace, or else the most specific cached trace that generalizes this call."""
        found = self._cache.get(key)
        if found is None:
            for concrete in self._concrete:
                if generalizes(concrete._key, key) and (found is None or
                                                        generality(concrete._key) < generality(found._key)):
                    found = concrete
            if found is not None:
                self._cache[key] = found
        if found is not None and self._capacity is not None and self._concrete[-1] is not found:
            with trace_lock:  # the most recently used trace goes last
                if found in self._concrete:
                    self._concrete.remove(found)
                    self._concrete.append(found)
        return found

    def _evict(self):
        """Drop the least recently used traces beyond the capacity (and every cache key they served)."""
        while self._capacity is not None and len(self._concrete) > self._capacity:
            dropped = self._concrete.pop(0)
            for key in [k for k, c in self._cache.items() if c is dropped]:
                del self._cache[key]

    def _relaxed(self, key):
        for concrete in reversed(self._concrete):
            relaxed = relax(concrete._key, key)
            if relaxed is not None:
                return relaxed
        return key

    # --- tracing ---------------------------------------------------------------------------------
    def _python_for_tracing(self):
        if not self._autograph:
            return self._python_function
        if self._converted is None:
            from tinytf.autograph import convert_for_function

            self._converted = convert_for_function(self._python_function, self._autograph_options)
        return self._converted

    def _trace(self, structure, key) -> ConcreteFunction:
        first = not self._created_variables
        created_before = len(self._owned_variables)
        graph, result, arg_names, leaf_names = self._trace_graph(structure, key)
        self._created_variables = True
        if first and len(self._owned_variables) > created_before:
            # As TensorFlow: a first trace that created variables is traced again, and that second trace (which
            # must create none, or TF's error is raised) is the one used.
            graph, result, arg_names, leaf_names = self._trace_graph(structure, key)
        concrete = self._compile(graph, key, structure, result, arg_names, leaf_names)
        self._concrete.append(concrete)
        self._cache[key] = concrete
        self._evict()
        return concrete

    def _trace_graph(self, structure, key):
        """Run the (converted) Python function on placeholders (runtime/trace.trace): (graph, structured
        result, argument names, leaf names)."""
        arg_names, leaf_names = [], []
        python_function = self._python_for_tracing()

        def bind(graph):
            return self._placeholders(graph, structure, key, arg_names, leaf_names)

        def run(*args, **kwargs):
            return _outputs_as_tensors(python_function(*args, **kwargs), self._python_function)

        def tensors_of(result):
            return [x for x in nest.flatten(result, expand_composites=True) if isinstance(x, Tensor)]

        hook = self._variable_creation_hook()
        state.variable_hooks.append(hook)
        try:
            graph, result = trace(run, bind, self._name, what="function", leaves=tensors_of)
        finally:
            state.variable_hooks.remove(hook)
        self._tracing_count += 1
        self._note_trace()
        return graph, with_tensors(result, graph.outputs), arg_names, leaf_names

    def _placeholders(self, graph, structure, key, arg_names, leaf_names):
        """The (args, kwargs) a trace calls the function with: a placeholder per tensor (per component of a
        composite), variables passed as arguments bound to resource placeholders, Python values as they are.
        Fills the names of the graph's arguments and of the flat leaves."""
        leaves = nest.flatten(structure)
        paths = [path for path, _ in nest.flatten_with_paths(structure)]
        traced_leaves = []
        leaf_keys = iter(key[1])
        for leaf, path in zip(leaves, paths):
            name = self._leaf_name(path)
            spec = composite_spec(leaf)
            if spec is not None:  # a composite: one placeholder per component, rebuilt into the composite
                components = []
                for i, component in enumerate(spec._component_specs):
                    next(leaf_keys)
                    leaf_names.append(name if not i else f"{name}_{i}")
                    components.append(graph.placeholder(component.dtype, component._shape, leaf_names[-1]))
                    arg_names.append(components[-1].node.name)
                # the function sees None for a NoneTensor, as TF passes it
                traced_leaves.append(None if isinstance(spec, NoneTensorSpec) else spec._from_components(components))
                continue
            leaf_key = next(leaf_keys)
            leaf_names.append(name)
            if is_tensor_key(leaf_key):
                if leaf_key[0] == TENSOR:
                    placeholder = graph.placeholder(leaf_key[1], leaf_key[2], name)
                    traced_leaves.append(placeholder)
                else:  # a variable passed as an argument: bound to the resource argument at call time
                    placeholder = graph.placeholder(RESOURCE, (), name)
                    graph.captures[id(leaf)] = Capture(leaf, placeholder, "argument")
                    traced_leaves.append(leaf)
                arg_names.append(placeholder.node.name)
            else:
                traced_leaves.append(placeholder_for(leaf_key, leaf))
        args, kwargs = nest.pack_sequence_as(structure, traced_leaves)
        return args, kwargs

    def _compile(self, graph, key, structure, result, arg_names, leaf_names) -> ConcreteFunction:
        checker = check_graph if config.check_graphs() else None
        if checker is not None:
            checker(graph)
        optimized = optimize(graph, config.optimizer_options(), checker)
        leaves = nest.flatten(structure)
        # TF names each spec after its argument (a TensorSpec's own name wins); printed signatures show only
        # the names users gave. One name per leaf: `leaf_names` has one per component (a composite may have
        # several, or none, as a NoneTensorSpec)
        names = [self._leaf_name(path) for path, _ in nest.flatten_with_paths(structure)]
        inputs = nest.pack_sequence_as(structure, [_spec_of(x, getattr(x, "name", None) if isinstance(x, TensorSpec)
                                                            else None, name) for x, name in zip(leaves, names)])
        concrete = ConcreteFunction(self._name, optimized, key, inputs, result, arg_names, self._signature,
                                    leaf_names, unoptimized_graph=graph)
        concrete._printed_inputs = nest.pack_sequence_as(structure, [_spec_of(x, getattr(x, "name", None)
                                                                              if isinstance(x, TensorSpec) else None)
                                                                     for x in leaves])
        return concrete

    def _leaf_name(self, path) -> str:
        parts = [str(p) for p in path[1:]]  # path[0] selects args (0) or kwargs (1)
        if path and path[0] == 0 and len(path) > 1:
            params = list(self._signature.parameters)
            index = path[1]
            parts[0] = params[index] if index < len(params) else f"args_{index}"
        name = "_".join(parts) or "arg"
        return "".join(c if c.isalnum() or c == "_" else "_" for c in name)

    def _variable_creation_hook(self):
        def hook(variable):
            if state.variable_hooks[-1] is not hook:
                return
            if not self._created_variables:
                self._owned_variables.append(variable)  # created by the function: it keeps them alive
                return
            raise ValueError(
                "tf.function only supports singleton tf.Variables created on the first call. Make sure the "
                "tf.Variable is only created once or created outside tf.function. See "
                "https://www.tensorflow.org/guide/function#creating_tfvariables for more information.")

        return hook

    def _note_trace(self):
        calls = self._calls + self._fast_calls[0]
        if self._trace_calls and self._trace_calls[-1] == calls:
            return  # the second trace of one call (variables were created): one call that retraced
        self._trace_calls.append(calls)
        recent = [c for c in self._trace_calls if c > calls - _RETRACE_WINDOW]
        code = getattr(self._python_function, "__code__", None) or getattr(
            getattr(self._python_function, "__func__", None), "__code__", None)
        if len(recent) >= _RETRACE_THRESHOLD and _warnings_per_code[code] < 2:
            _warnings_per_code[code] = _warnings_per_code[code] + 1
            calls = min(calls, _RETRACE_WINDOW)
            logger.warning(
                "%d out of the last %d calls to %s triggered tf.function retracing. Tracing is expensive and "
                "the excessive number of tracings could be due to (1) creating @tf.function repeatedly in a "
                "loop, (2) passing tensors with different shapes, (3) passing Python objects instead of "
                "tensors. For (1), please define your @tf.function outside of the loop. For (2), @tf.function "
                "has reduce_retracing=True option that can avoid unnecessary retracing. For (3), please refer "
                "to https://www.tensorflow.org/guide/function#controlling_retracing and "
                "https://www.tensorflow.org/api_docs/python/tf/function for more details.",
                len(recent), calls, self._python_function)


_MISSING = object()
_CONVERTED_OUTPUTS = (bool, int, float, complex, str, bytes, np.generic, np.ndarray, Resource)


def _outputs_as_tensors(result, function_name=None):
    """A function's outputs are tensors, as in TF: Python numbers, strings and numpy values become constants, a
    returned Variable (or an assign's result) its value; None and composites (sparse, ragged, TensorArray)
    stay. Any other object raises TF's TypeError."""
    def leaf(x):
        if x is None or isinstance(x, Tensor) or nest.is_composite(x):
            return x
        if isinstance(x, _CONVERTED_OUTPUTS):
            return convert_to_tensor(x)
        raise TypeError(f"To be compatible with tf.function, Python functions must return zero or more Tensors or "
                        f"ExtensionTypes or None values; in compilation of {function_name}, found return value of "
                        f"type {type(x).__name__}, which is not a Tensor or ExtensionType.")

    if result is None:
        return None
    if not nest.is_nested(result):
        return leaf(result)
    return nest.map_structure(leaf, result)


def _call_general(function, *args):
    """The general path, for calls the specialized __call__ does not take (parameters left out are _MISSING)."""
    return Function.__call__(function, *[a for a in args if a is not _MISSING])


def _convert_per_spec(value, spec):
    """An argument of a function with an input_signature: values in TensorSpec places become tensors of the
    spec's dtype (TF accepts Python lists and numpy arrays there)."""
    if isinstance(spec, NoneTensorSpec):  # TF binds whatever stands there as None (a NoneTensor, no components)
        return NoneTensor()
    if isinstance(spec, OptionalSpec) and isinstance(value, Optional) and not spec.is_compatible_with(value):
        # TF binds the Optional (one variant tensor) and fails when the graph reads it
        raise InvalidArgumentError(f"The Optional passed has element spec {value.element_spec!r}, but the "
                                   f"input_signature's OptionalSpec expects {spec.element_spec!r}")
    if isinstance(spec, TensorSpec):
        if isinstance(value, (Tensor, Resource)) or value is None:
            return value
        try:
            return convert_to_tensor(value, spec.dtype)
        except (TypeError, ValueError):
            return value  # reported against the signature
    if isinstance(spec, (list, tuple)) and isinstance(value, (list, tuple)) and len(spec) == len(value):
        return type(value)(_convert_per_spec(v, s) for v, s in zip(value, spec))
    if isinstance(spec, dict) and isinstance(value, dict):
        return {k: _convert_per_spec(v, spec[k]) if k in spec else v for k, v in value.items()}
    return value


def _spec_of(leaf, given_name=None, leaf_name=None):
    """The spec recorded for one argument: named `given_name` (a TensorSpec's own) or else `leaf_name`."""
    spec = composite_spec(leaf)
    if isinstance(spec, NoneTensorSpec):
        return None  # TF's structured_input_signature shows None for it
    if spec is not None:
        return spec
    if isinstance(leaf, (Tensor, TensorSpec)):
        return TensorSpec(leaf._shape, leaf.dtype, given_name or leaf_name)
    if isinstance(leaf, Resource):
        return TensorSpec(leaf._shape, leaf.dtype, "variable")
    return leaf


def _check_against_signature(signature, args):
    for i, (spec, value) in enumerate(zip(signature, args)):
        if isinstance(spec, TensorSpec) and (getattr(value, "dtype", None) is not spec.dtype or
                                             not shapes.is_subshape(getattr(value, "_shape", None), spec._shape)):
            raise TypeError(f"argument {i} ({value!r}) is not compatible with the input_signature {spec}")


def function(func=None, input_signature=None, autograph=True, jit_compile=None, reduce_retracing=False,
             experimental_relax_shapes=None, name=None, experimental_cache_capacity=None, **kwargs):
    """`@tf.function` / `tf.function(f, input_signature=...)`. tinytf's experimental_cache_capacity bounds how
    many traces one function keeps (least recently used dropped first)."""

    def decorate(f):
        return Function(f, name=name, input_signature=input_signature, autograph=autograph,
                        jit_compile=jit_compile, reduce_retracing=reduce_retracing,
                        experimental_relax_shapes=experimental_relax_shapes,
                        experimental_autograph_options=kwargs.get("experimental_autograph_options"),
                        experimental_cache_capacity=experimental_cache_capacity)

    return decorate if func is None else decorate(func)


__all__ = ["Function", "function"]
