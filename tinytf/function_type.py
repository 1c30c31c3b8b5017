"""ConcreteFunction.function_type (tf.types.experimental.FunctionType): the parameters a trace takes, each
with the type it was traced for, its output type and its captures; printed as TF prints it
(`(a: TensorSpec(...), b: Literal[3], *, c: ...) -> ...`, and the multi-line form for repr)."""

from __future__ import annotations

import inspect

from tinytf.runtime import nest

from .signature_text import _printed_inputs, concrete_text, parameters, type_text


class FunctionType:
    """The type of one trace: `parameters` (name -> inspect.Parameter whose annotation is the traced type),
    `output`, `captures`, and the flat input and output specs."""

    def __init__(self, concrete):
        self._concrete = concrete
        self._params = parameters(concrete._signature_fn, _printed_inputs(concrete))

    @property
    def parameters(self) -> dict:
        return {name: inspect.Parameter(name, getattr(inspect.Parameter, kind or "POSITIONAL_ONLY"),
                                        annotation=value) for name, kind, value in self._params}

    @property
    def output(self):
        return self._concrete.structured_outputs

    @property
    def captures(self) -> dict:
        graph = self._concrete.graph
        return {id(c.outer): c.placeholder for c in graph.captures.values() if c.kind != "argument"}

    @property
    def flat_inputs(self) -> list:
        args, kwargs = _printed_inputs(self._concrete)
        return [x for x in nest.flatten((list(args), kwargs), expand_composites=True) if hasattr(x, "dtype")]

    @property
    def flat_outputs(self) -> list:
        from .tensor_spec import TensorSpec

        return [TensorSpec(t._shape, t.dtype) for t in nest.flatten(self.output, expand_composites=True)
                if hasattr(t, "_shape")]

    def __str__(self):
        parts, slash_done, star_done = [], False, False
        kinds = [kind for _, kind, _ in self._params]
        for i, (name, kind, value) in enumerate(self._params):
            if kind == "KEYWORD_ONLY" and not star_done:
                parts.append("*")
                star_done = True
            parts.append(f"{name}: {type_text(value)}")
            last_positional_only = kind == "POSITIONAL_ONLY" and (i + 1 == len(kinds) or kinds[i + 1] != kind)
            if last_positional_only and not slash_done:
                parts.append("/")
                slash_done = True
        return f"({', '.join(parts)}) -> {type_text(self.output)}"

    def __repr__(self):
        return concrete_text(self._concrete)
