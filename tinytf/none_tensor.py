"""tf.NoneTensorSpec: the spec of TF's NoneTensor, the composite that stands for `None` where a structure of
values needs a value (tf.data elements, branch outputs). It has no component tensors."""

from __future__ import annotations

from .composite import CompositeTensor, TypeSpec


class NoneTensor(CompositeTensor):
    """A composite with no components: TF's stand-in for None."""

    __slots__ = ()

    @property
    def _type_spec(self) -> NoneTensorSpec:
        return NoneTensorSpec()

    def _to_components(self) -> list:
        return []

    def __repr__(self):
        return "<NoneTensor>"


class NoneTensorSpec(TypeSpec):
    """`tf.NoneTensorSpec()`: the TypeSpec of NoneTensor (every one equals every other)."""

    __slots__ = ()
    value_type = NoneTensor

    @classmethod
    def from_value(cls, value) -> NoneTensorSpec:
        if value is not None and not isinstance(value, NoneTensor):
            raise ValueError(f"NoneTensorSpec.from_value expects None or a NoneTensor, got {type(value).__name__}")
        return cls()

    def _serialize(self) -> tuple:
        return ()

    @property
    def _component_specs(self) -> list:
        return []

    def _to_components(self, value) -> list:
        return []

    def _from_components(self, components) -> NoneTensor:
        return NoneTensor()

    def __repr__(self):
        return "NoneTensorSpec()"
