"""tf.OptionalSpec: the TypeSpec of a tf.experimental.Optional (its element_spec, any structure of specs), as
`Optional.from_value(...)` reports it and TF compares it. tinytf's Optional is no composite tensor yet, so an
OptionalSpec cannot stand in an input_signature here (TF 2.21 accepts one)."""

from __future__ import annotations

from .data.iterator import Optional
from .type_spec_base import TypeSpec


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

    def __repr__(self):
        return f"OptionalSpec({self._element_spec!r},)"
