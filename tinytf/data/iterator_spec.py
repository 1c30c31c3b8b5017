"""tf.data.IteratorSpec: the type spec of an iterator. An iterator passed to a tf.function is keyed by its
element spec (any iterator of the same elements reuses the trace, as TF's) and reaches the graph as one
variant tensor holding it; the function's iterator ops pull from whichever iterator the call passes."""

from __future__ import annotations

import numpy as np

from tinytf.runtime.ops import data as data_ops
from tinytf.runtime.ops.data import VARIANT
from tinytf.runtime.tensor import EagerTensor

from ..tensor_spec import TensorSpec
from .graph_loop import GraphIterator
from .iterator import Iterator
from .structure import describe


class IteratorSpec:
    """`tf.data.IteratorSpec(element_spec)`."""

    def __init__(self, element_spec):
        self._element_spec = element_spec

    @property
    def element_spec(self):
        return self._element_spec

    @property
    def value_type(self):
        return Iterator

    @staticmethod
    def from_value(value):
        return IteratorSpec(value.element_spec)

    def __eq__(self, other):
        return type(other) is IteratorSpec and other._element_spec == self._element_spec

    def __hash__(self):
        return hash(describe(self._element_spec))

    def __repr__(self):
        return f"IteratorSpec({describe(self._element_spec)},)"

    def is_compatible_with(self, other) -> bool:
        return self == getattr(other, "_type_spec", other)

    def most_specific_common_supertype(self, others):
        return self if all(self == o for o in others) else None

    @property
    def _component_specs(self) -> list:
        return [TensorSpec((), VARIANT)]

    def _to_components(self, value) -> list:
        return value._to_components()

    def _from_components(self, components):
        (tensor,) = components
        if type(tensor) is EagerTensor:
            return tensor._value[()]
        return _ArgumentIterator(self._element_spec, tensor)


class _Held:
    """The iterator op's source for an iterator argument: the iterator its variant input holds."""

    @staticmethod
    def _bind(values):
        (holder,) = values
        return holder[()] if isinstance(holder, np.ndarray) else holder


class _ArgumentIterator(GraphIterator):
    """An iterator argument inside a trace: next()/get_next()/loops are iterator ops on the passed iterator."""

    def __init__(self, element_spec, handle):
        self._dataset = None
        self.element_spec = element_spec
        self._handle = data_ops.new_iterator(_Held, [handle])
        self._variant = handle
        self._python_steps = 0

    def _to_components(self) -> list:
        return [self._variant]

    @property
    def _type_spec(self):
        return IteratorSpec(self.element_spec)


def _iterator_components(self) -> list:
    holder = np.empty((), dtype=object)
    holder[()] = self
    return [EagerTensor(holder, VARIANT)]


# The iterator's face as a composite value (iterator.py is below this module, which installs it).
Iterator._to_components = _iterator_components
Iterator._type_spec = property(lambda self: IteratorSpec(self._structure))
