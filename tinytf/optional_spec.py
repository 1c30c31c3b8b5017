"""tf.OptionalSpec: the TypeSpec of a tf.experimental.Optional (its element_spec, any structure of specs), as
`Optional.from_value(...)` reports it and TF compares it. An Optional is a composite here (TF's is one variant
tensor): its components are the `has_value` boolean, then the element's tensors (zeros of the element's shapes
when empty), so an OptionalSpec stands in an input_signature and an Optional passes in and out of a tf.function."""

from __future__ import annotations

import numpy as np

from tinytf.runtime import dtypes, nest
from tinytf.runtime.dispatch import convert_to_tensor
from tinytf.runtime.tensor import EagerTensor

from .composite import TypeSpec
from .data.iterator import Optional
from .tensor_spec import TensorSpec

_HAS_VALUE = TensorSpec([], dtypes.bool_)


class OptionalSpec(TypeSpec):
    """`tf.OptionalSpec(element_spec)`."""

    __slots__ = ("_element_spec",)
    value_type = Optional

    def __init__(self, element_spec):
        self._element_spec = element_spec

    @property
    def element_spec(self):
        return self._element_spec

    @staticmethod
    def from_value(value) -> OptionalSpec:
        if not isinstance(value, Optional):
            raise ValueError(f"Expected value to be an Optional, but saw: {type(value)}")
        return OptionalSpec(value.element_spec)

    def _serialize(self) -> tuple:
        return (self._element_spec,)

    def __hash__(self):  # the element spec may be a dict: hashed through its flat specs and its printed form
        return hash(("OptionalSpec", repr(self._element_spec)))

    @property
    def _component_specs(self) -> list:
        from .data.graph_loop import specs_of

        return [_HAS_VALUE] + [TensorSpec(shape, dtype) for dtype, shape in specs_of(self._element_spec)]

    def _to_components(self, value) -> list:
        from .data.graph_loop import specs_of

        has_value = value.has_value()
        if isinstance(has_value, bool):  # made in a graph by from_value: known to hold one, but a component
            has_value = convert_to_tensor(has_value, dtypes.bool_)
        if value._value is not None:
            parts = []
            for leaf, spec in zip(nest.flatten(value._value), nest.flatten(self._element_spec)):
                parts.extend(spec._to_components(leaf) if hasattr(spec, "_component_specs") else [leaf])
            return [has_value, *parts]
        # empty: zeros of the element's shapes (an unknown dimension as 0) stand for the missing value
        zeros = [EagerTensor(np.zeros(tuple(d or 0 for d in (shape or ())), dtype.np), dtype)
                 for dtype, shape in specs_of(self._element_spec)]
        return [has_value, *zeros]

    def _from_components(self, components) -> Optional:
        from .data.graph_loop import _pack

        has_value, *values = components
        return Optional(_pack(self._element_spec, values), self._element_spec, has_value)

    def __repr__(self):
        return f"OptionalSpec({self._element_spec!r},)"
