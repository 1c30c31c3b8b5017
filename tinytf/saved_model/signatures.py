"""Signatures: the functions a SavedModel serves by name (`serving_default`). Each is a function of keyword
arguments named after the inputs, returning a dict of outputs (`output_0`, ... or the function's own dict
keys), traced as its own graph with the served function inlined, as TF's signature wrappers are."""

from __future__ import annotations

import collections.abc
import inspect

from tinytf.runtime import nest
from tinytf.runtime.tensor import Tensor

from ..concrete_function import ConcreteFunction
from ..function import Function
from ..tensor_spec import TensorSpec
from .object_functions import functions_of

DEFAULT_KEY = "serving_default"


class SignatureMap(collections.abc.Mapping):
    """`loaded.signatures` / what `signatures=` becomes: signature key -> callable."""

    def __init__(self, functions=None):
        self._functions = dict(functions or {})

    def __getitem__(self, key):
        return self._functions[key]

    def __iter__(self):
        return iter(sorted(self._functions))

    def __len__(self):
        return len(self._functions)

    def __repr__(self):
        return f"_SignatureMap({dict(self._functions)})"


class SignatureWrapper:
    """One signature being saved: its keyword-argument concrete function and the names of its inputs."""

    _signature_of = True

    def __init__(self, key: str, concrete: ConcreteFunction):
        self.key = key
        args, kwargs = concrete.structured_input_signature
        structure = nest.flatten((args, kwargs))
        # a composite argument (a RaggedTensorSpec) is served as its component tensors, `args_0`, `args_0_1`, ...
        leaves, owners = [], []
        for i, spec in enumerate(structure):
            if isinstance(spec, (TensorSpec, Tensor)):
                leaves.append(spec)
                owners.append((i, None))
            elif hasattr(spec, "_component_specs") and hasattr(spec, "_from_components"):
                for j, component in enumerate(spec._component_specs):
                    leaves.append(component)
                    owners.append((i, j))
            else:
                raise ValueError(f"the signature {key!r} must take only tensors; {concrete.name} was traced with "
                                 "Python values among its arguments (give the function an input_signature)")
        names = []
        traced_names = list(getattr(concrete, "_leaf_names", None) or [])
        for k, (i, j) in enumerate(owners):
            if j is not None and len(traced_names) == len(leaves):
                base = traced_names[k]  # a component: TF names it after the argument (`rt`, `rt_1`)
            else:
                base = getattr(structure[i], "name", None) or f"args_{i}"
            name = _identifier(base)
            while name in names:
                name += "_1"
            names.append(name)
        self.input_names = names
        self.input_specs = [TensorSpec(s._shape, s.dtype, n) for s, n in zip(leaves, names)]
        served = concrete

        def call(*a, **kw):
            bound = wrapper_signature.bind(*a, **kw)
            values = list(structure)
            components: dict = {}
            for n, (i, j) in zip(names, owners):
                if j is None:
                    values[i] = bound.arguments[n]
                else:
                    components.setdefault(i, []).append(bound.arguments[n])
            for i, parts in components.items():
                values[i] = structure[i]._from_components(parts)
            packed_args, packed_kwargs = nest.pack_sequence_as((tuple(args), dict(kwargs)), values)
            return _outputs_dict(served(*packed_args, **packed_kwargs))

        wrapper_signature = inspect.Signature([inspect.Parameter(n, inspect.Parameter.KEYWORD_ONLY) for n in names])
        call.__signature__ = wrapper_signature
        call.__name__ = f"signature_wrapper_{key}"
        function = Function(call, name=call.__name__, autograph=False)
        self.concrete = function.get_concrete_function(**{n: s for n, s in zip(names, self.input_specs)})
        self.output_specs = {k: TensorSpec(v._shape, v.dtype, k) if isinstance(v, Tensor) else v._type_spec
                             for k, v in self.concrete.structured_outputs.items()}


def _identifier(name: str) -> str:
    name = "".join(c if c.isalnum() or c == "_" else "_" for c in name)
    return name if name and not name[0].isdigit() else "_" + name


def _outputs_dict(result) -> dict:
    """A signature's outputs: the function's dict as is, else output_0, output_1, ... (as TF names them)."""
    if isinstance(result, dict):
        return dict(result)
    return {f"output_{i}": t for i, t in enumerate(nest.flatten(result))}


def _as_concrete(function, key):
    if isinstance(function, ConcreteFunction):
        return function
    if isinstance(function, Function):
        if function.input_signature is None:
            raise ValueError(f"The signature {key!r} is a tf.function without an input_signature; TF needs one "
                             "(or pass f.get_concrete_function(...))")
        return function.get_concrete_function()
    raise ValueError(f"Expected a TensorFlow function for which to generate a signature (but got {function}). "
                     "Only `tf.functions` with an input signature or concrete functions can be used as a signature.")


def canonical_signatures(obj, signatures) -> dict:
    """`signatures=` as {key: SignatureWrapper}: a function -> serving_default; a dict as given; None -> the
    object's one tf.function with an input_signature if it has exactly one (as TF), else a Keras model's call."""
    if signatures is None:
        with_signature = [f for _, f in functions_of(obj) if f.input_signature is not None]
        if len(with_signature) == 1:
            signatures = {DEFAULT_KEY: with_signature[0]}
        else:
            default = getattr(obj, "_default_save_signature", None)
            default = default() if callable(default) else None
            signatures = {DEFAULT_KEY: default} if default is not None else {}
    elif not isinstance(signatures, dict):
        signatures = {DEFAULT_KEY: signatures}
    return {key: SignatureWrapper(key, _as_concrete(f, key)) for key, f in signatures.items()}
