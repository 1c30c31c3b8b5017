"""The callables of a loaded SavedModel: a tf.function with its saved traces (LoadedFunction) and a bare
concrete function such as a signature (SignatureFunction). Calls pick the trace whose saved input
structure and specs fit the arguments; a call that fits none raises TF's error listing the ones saved."""

from __future__ import annotations

import inspect

from tinytf.runtime import nest, shapes
from tinytf.runtime.dispatch import convert_to_tensor
from tinytf.runtime.resource import Resource
from tinytf.runtime.tensor import Tensor

from ..tensor_spec import TensorSpec


def _fit(value, spec):
    """`value` for a place of the saved structure: a tensor fitting a TensorSpec (lists and numpy arrays are
    converted to its dtype), or a Python value equal to the traced one. Returns (ok, value)."""
    if isinstance(spec, TensorSpec):
        if not isinstance(value, (Tensor, Resource)):
            try:
                value = convert_to_tensor(value, spec.dtype)
            except (TypeError, ValueError):
                return False, value
        ok = value.dtype is spec.dtype and shapes.is_subshape(value._shape, spec._shape)
        return ok, value
    if isinstance(value, (Tensor, Resource)):
        return False, value
    if hasattr(type(spec), "_component_specs"):  # a composite (an ExtensionType): its spec must fit the saved one
        value_spec = getattr(value, "_type_spec", None)
        return value_spec is not None and _spec_fits(value_spec, spec), value
    return type(value) is type(spec) and value == spec, value


def _spec_fits(value_spec, saved) -> bool:
    """A composite's spec fits a saved one: same kind and static fields, tensors of fitting shapes."""
    if type(value_spec) is not type(saved):
        return False
    mine, theirs = value_spec._component_specs, saved._component_specs
    if len(mine) != len(theirs) or any(a.dtype is not b.dtype or not shapes.is_subshape(a._shape, b._shape)
                                       for a, b in zip(mine, theirs)):
        return False
    relaxed = saved.most_specific_common_supertype([value_spec]) if hasattr(saved, "most_specific_common_supertype") \
        else None
    return relaxed == saved if relaxed is not None else value_spec.is_compatible_with(saved)


def match(structure, saved):
    """The call's (args, kwargs) converted to fit the saved structure, or None when they do not fit."""
    try:
        nest.assert_same_structure(structure, saved)
    except (ValueError, TypeError):
        return None
    fitted = []
    for value, spec in zip(nest.flatten(structure), nest.flatten(saved)):
        ok, value = _fit(value, spec)
        if not ok:
            return None
        fitted.append(value)
    return nest.pack_sequence_as(structure, fitted)


def _describe_value(value, name=None) -> str:
    """An argument as TF's message shows it: tensors by name, shape and dtype, the rest by repr."""
    if isinstance(value, Tensor):
        shape = None if value._shape is None else tuple(value._shape)
        return f"<tf.Tensor '{name or 'input'}:0' shape={shape} dtype={value.dtype.name}>"
    return repr(value)


def _describe_call(args, kwargs, names) -> str:
    lines = [f"  Positional arguments ({len(args)} total):"]
    lines += [f"    * {_describe_value(a, n)}" for a, n in zip(args, list(names) + [None] * len(args))]
    lines.append(f"  Keyword arguments: {kwargs}")
    return "\n".join(lines)


class LoadedFunction:
    """A loaded tf.function: calls go to the saved trace their arguments fit."""

    def __init__(self, concretes, signature: inspect.Signature, name: str, has_input_signature: bool = False):
        self._concretes = concretes
        self._signature = signature
        self.__name__ = name
        self._has_input_signature = has_input_signature

    def _canonical(self, args, kwargs):
        try:
            bound = self._signature.bind(*args, **kwargs)
        except TypeError as e:
            raise TypeError(f"{self.__name__}() {e}") from None
        bound.apply_defaults()
        return tuple(bound.args), dict(bound.kwargs)

    def __call__(self, *args, **kwargs):
        call = self._canonical(args, kwargs)
        for concrete in self._concretes:
            saved = concrete.structured_input_signature
            fitted = match((call[0], call[1]), (tuple(saved[0]), dict(saved[1])))
            if fitted is not None:
                return concrete(*fitted[0], **fitted[1])
        raise self._no_match(call)

    def _no_match(self, call):
        names = list(self._signature.parameters)
        if self._has_input_signature and len(self._concretes) == 1:
            spec_args = self._concretes[0].structured_input_signature[0]
            got = [TensorSpec(getattr(a, "_shape", None), a.dtype) if isinstance(a, Tensor) else a for a in call[0]]
            bad = next(((g, s) for g, s in zip(got, spec_args) if g != TensorSpec(s._shape, s.dtype)), (got, spec_args))
            expected = ", ".join(f"{n}: {TensorSpec(s._shape, s.dtype)!r}" for n, s in zip(names, spec_args))
            received = "(" + "".join(f"{a!r}, " for a in call[0]).rstrip(" ") + ")"
            return TypeError(f"Binding inputs to tf.function failed due to `Can not cast {bad[0]!r} to "
                             f"{TensorSpec(bad[1]._shape, bad[1].dtype)!r}`. Received args: {received} and kwargs: "
                             f"{call[1]} for signature: ({expected}).")
        options = []
        for i, concrete in enumerate(self._concretes, 1):
            saved_args, saved_kwargs = concrete.structured_input_signature
            options.append(f"Option {i}:\n" + _describe_call(saved_args, saved_kwargs, ()))
        return ValueError(
            "Could not find matching concrete function to call loaded from the SavedModel. Got:\n"
            + _describe_call(call[0], call[1], names)
            + f"\n\n Expected these arguments to match one of the following {len(self._concretes)} option(s):\n\n"
            + "\n\n".join(options))

    @property
    def concrete_functions(self) -> list:
        """The saved traces, a list attribute as on TF's RestoredFunction (Keras' TFSMLayer reads it)."""
        return list(self._concretes)

    def get_concrete_function(self, *args, **kwargs):
        """The saved trace these arguments (tensors or TensorSpecs) fit."""
        if not args and not kwargs and len(self._concretes) == 1:
            return self._concretes[0]
        call = self._canonical(args, kwargs)
        for concrete in self._concretes:
            saved = concrete.structured_input_signature
            specs = nest.map_structure(lambda x: x if not isinstance(x, TensorSpec) else _SpecValue(x), call)
            if match(specs, (tuple(saved[0]), dict(saved[1]))) is not None:
                return concrete
        raise self._no_match(call)

    def __repr__(self):
        return f"<tinytf loaded function {self.__name__} ({len(self._concretes)} traces)>"


class _SpecValue(Tensor):
    """A TensorSpec standing in for a tensor while matching get_concrete_function's arguments."""

    def __init__(self, spec):
        self.dtype, self._shape = spec.dtype, spec._shape


class SignatureFunction:
    """A bare concrete function of a SavedModel (a signature): keyword arguments named after its inputs,
    positionally only as many as were allowed when it was saved."""

    def __init__(self, concrete, keywords, allowed_positional: int):
        self._concrete = concrete
        self._keywords = keywords
        self._allowed_positional = allowed_positional

    def __call__(self, *args, **kwargs):
        if len(args) > self._allowed_positional:
            raise TypeError(f"{self._concrete.name}(*, {', '.join(self._keywords)}) takes its arguments by keyword "
                            f"(got {len(args)} positional); call it as f({self._keywords[0] if self._keywords else 'x'}"
                            "=...)")
        for name, value in zip(self._keywords, args):
            if name in kwargs:
                raise TypeError(f"{self._concrete.name}() got multiple values for argument {name!r}")
            kwargs[name] = value
        unknown = sorted(set(kwargs) - set(self._keywords))
        missing = [k for k in self._keywords if k not in kwargs]
        if unknown or missing:
            raise TypeError(f"{self._concrete.name}() takes the keyword arguments {self._keywords}; "
                            f"missing {missing}, unexpected {unknown}")
        saved_args, saved_kwargs = self._concrete.structured_input_signature
        flat_specs = nest.flatten((tuple(saved_args), dict(saved_kwargs)))
        values = [kwargs[k] for k in self._keywords]
        if len(values) == len(flat_specs):
            fitted = []
            for value, spec in zip(values, flat_specs):
                ok, value = _fit(value, spec)
                if not ok:
                    raise TypeError(f"{self._concrete.name}: the argument for {spec!r} got {value!r}")
                fitted.append(value)
            call_args, call_kwargs = nest.pack_sequence_as((tuple(saved_args), dict(saved_kwargs)), fitted)
            return self._concrete(*call_args, **call_kwargs)
        return self._concrete(**kwargs)

    @property
    def structured_outputs(self):
        """The outputs as TensorSpecs named by their keys, as TF describes a signature's outputs."""
        outputs = self._concrete.structured_outputs
        if isinstance(outputs, dict):
            return {k: TensorSpec(v._shape, v.dtype, k) if isinstance(v, Tensor) else v for k, v in outputs.items()}
        return nest.map_structure(lambda v: TensorSpec(v._shape, v.dtype) if isinstance(v, Tensor) else v, outputs)

    def __getattr__(self, name):  # structured_input_signature, graph, variables, inputs, outputs...
        return getattr(self._concrete, name)

    def __repr__(self):
        return repr(self._concrete)


__all__ = ["LoadedFunction", "SignatureFunction"]
