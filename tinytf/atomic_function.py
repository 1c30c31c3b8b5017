"""`concrete_function.inference_fn`: TF's AtomicFunction, the traced graph itself, called with its flat tensor
arguments (no Python values to bind), returning the function's structured outputs; `call_flat` returns them
flat. A graph that captures values (variables) refuses a plain call, as TF's does (TF's call_with_captures, which
takes the captures from the caller, is not built). `definition` is the graph as a FunctionDef in TF's op names."""

from __future__ import annotations

import itertools

from . import nest
from .runtime.context import state
from .runtime.dispatch import convert_to_tensor
from .runtime.resource import Resource
from .runtime.tensor import EagerTensor, Tensor
from .signature import PYTHON_VALUE, is_tensor_key

_numbers = itertools.count(1)


class AtomicFunction:
    def __init__(self, concrete):
        self._concrete = concrete
        self._name = f"__inference_{concrete.name}_{next(_numbers)}".encode()

    @property
    def name(self) -> bytes:
        return self._name

    @property
    def function_type(self):
        return self._concrete.function_type

    @property
    def graph(self):
        return self._concrete.graph

    def __call__(self, *args):
        concrete = self._concrete
        if concrete._n_args != len(concrete.graph.inputs):
            raise ValueError("The FunctionType defines captured inputs. Use call_with_captures instead.")
        tensors = [a if isinstance(a, (Tensor, Resource)) else convert_to_tensor(a) for a in args]
        if len(tensors) != concrete._n_args:
            raise TypeError(f"{self._name.decode()}: takes {concrete._n_args} flat tensor arguments, got {len(args)}")
        concrete._check_call(_as_leaves(concrete, tensors), called_directly=False)  # TF: a binding TypeError
        if state.graph is not None or any(not isinstance(t, EagerTensor) for t in tensors):
            return concrete._call_in_graph(tensors)
        # not recorded by tapes: TF's atomic call has no gradient (tape.gradient gives None through it)
        return concrete._run(*[t._value if isinstance(t, EagerTensor) else t for t in tensors])

    def call_flat(self, *args) -> list:
        return nest.flatten(self(*args), expand_composites=True)

    @property
    def definition(self):
        """The FunctionDef in TF's op names (what a SavedModel holds for TensorFlow's loader)."""
        from .saved_model.tf_library import TFLibrary  # the exporter is saving's: imported when asked

        graph = self._concrete.unoptimized_graph
        library = TFLibrary()
        library.add(graph, self._name.decode(), {id(c.placeholder): c.outer for c in graph.captures.values()})
        if library.failures:
            raise NotImplementedError(library.failures[0][1])
        return next(f for f in library.functions() if f.signature.name == self._name.decode())

    cached_definition = definition

    def __repr__(self):
        return f"<AtomicFunction> {self._name.decode()}{self.function_type}"


def _as_leaves(concrete, tensors):
    """The call's leaves as the trace's key lists them: tensors where it has tensors, its Python values elsewhere."""
    out, it = [], iter(tensors)
    for k in concrete._key[1]:
        out.append(next(it) if is_tensor_key(k) else k[1] if k[0] == PYTHON_VALUE else None)
    return out
