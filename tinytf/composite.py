"""Composite tensors: values made of several component tensors (SparseTensor, RaggedTensor), and their
TypeSpecs. One mechanism serves every composite: a TypeSpec lists its component specs and turns a value into
its components and back, so tf.function keys a composite argument by its spec, traces it as placeholders of
its components and rebuilds it inside the graph (and on output), and control flow carries it as its
components (runtime/nest.py's `_to_components` / `_from_components` protocol)."""

from __future__ import annotations

from tinytf.runtime import shapes
from tinytf.runtime.shapes import TensorShape

from .tensor_spec import TensorSpec
from .type_spec_base import TypeSpec as _PublicTypeSpec


class TypeSpec(_PublicTypeSpec):
    """The static description of a composite: hashable, comparable, and able to (un)flatten values (tf.TypeSpec,
    its base, gives equality, subtyping and common supertypes)."""

    __slots__ = ()
    value_type: type = object

    def _serialize(self) -> tuple:
        """The facts that define this spec (equality, hashing and printing use them)."""
        raise NotImplementedError

    @property
    def _component_specs(self) -> list:
        """One TensorSpec per component tensor, in `_to_components` order."""
        raise NotImplementedError

    def _to_components(self, value) -> list:
        return list(value._to_components())

    def _from_components(self, components):
        raise NotImplementedError

    def is_compatible_with(self, other) -> bool:
        other = getattr(other, "_type_spec", other)
        if type(other) is not type(self):
            return False
        mine, theirs = self._component_specs, other._component_specs
        return len(mine) == len(theirs) and all(
            a.dtype is b.dtype and (shapes.is_subshape(b._shape, a._shape) or shapes.is_subshape(a._shape, b._shape))
            for a, b in zip(mine, theirs))

    def __eq__(self, other):
        return type(other) is type(self) and self._serialize() == other._serialize()

    def __hash__(self):
        return hash((type(self).__name__, self._serialize()))


class CompositeTensor:
    """Base of values made of component tensors: subclasses define `_type_spec` and `_to_components`."""

    __slots__ = ()

    @property
    def _type_spec(self) -> TypeSpec:
        raise NotImplementedError

    def _to_components(self) -> list:
        raise NotImplementedError

    def _from_components(self, components):
        return self._type_spec._from_components(components)


def component_spec(shape, dtype) -> TensorSpec:
    return TensorSpec(shape, dtype)


def shape_repr(shape) -> str:
    """A (partial) shape as TF prints it inside a spec: TensorShape([2, None])."""
    return repr(TensorShape(shape))
