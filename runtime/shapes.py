"""Partial shapes. Internally a shape is a tuple of ints and Nones, or None when even the rank is unknown;
TensorShape is the user-facing wrapper that TF2 code expects (`x.shape.as_list()`, `x.shape[0]`)."""

from __future__ import annotations

from typing import Optional

from .dimension import Dimension, dimension_value

Shape = Optional[tuple]


class TensorShape:
    """A possibly partial shape, as `tf.TensorShape`."""

    __slots__ = ("_dims",)

    def __init__(self, dims):
        if isinstance(dims, TensorShape):
            dims = dims._dims
        elif isinstance(dims, int) or hasattr(dims, "__index__") and not hasattr(dims, "__len__"):
            dims = (int(dims),)  # TF: TensorShape(2) is the shape [2]
        elif dims is not None:
            try:
                dims = tuple(None if d is None else int(d) for d in dims)
            except TypeError:  # an unknown Dimension among them (int(Dimension(None)) fails)
                dims = tuple(None if d is None else int(d) for d in map(dimension_value, dims))
        self._dims = dims  # the tuple of ints and Nones every internal user reads (or None: unknown rank)

    @property
    def dims(self):
        """TF's list of `Dimension` objects (a new list each time), or None when the rank is unknown."""
        return None if self._dims is None else [Dimension(d) for d in self._dims]

    @property
    def rank(self):
        return None if self._dims is None else len(self._dims)

    ndims = rank

    def as_list(self) -> list:
        if self._dims is None:
            raise ValueError("as_list() is not defined on an unknown TensorShape.")
        return list(self._dims)

    def is_fully_defined(self) -> bool:
        return self._dims is not None and None not in self._dims

    def num_elements(self):
        if not self.is_fully_defined():
            return None
        n = 1
        for d in self._dims:
            n *= d
        return n

    def is_compatible_with(self, other) -> bool:
        return compatible(self._dims, as_shape(other))

    def merge_with(self, other) -> TensorShape:
        merged = merge(self._dims, as_shape(other))
        if merged is False:
            raise ValueError(f"Shapes {self} and {TensorShape(as_shape(other))} are not compatible")
        return TensorShape(merged)

    # TF's rank and compatibility assertions (ValueError with TF's messages) ----------------------------------

    def assert_is_compatible_with(self, other) -> None:
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {TensorShape(as_shape(other))} are incompatible")

    def assert_same_rank(self, other) -> None:
        other = TensorShape(as_shape(other))
        if self.rank is not None and other.rank is not None and self.rank != other.rank:
            raise ValueError(f"Shapes {self} and {other} must have the same rank")

    def assert_has_rank(self, rank) -> None:
        if self.rank not in (None, rank):
            raise ValueError(f"Shape {self} must have rank {rank}")

    def assert_is_fully_defined(self) -> None:
        if not self.is_fully_defined():
            raise ValueError(f"Shape {self} is not fully defined")

    def with_rank(self, rank) -> TensorShape:
        try:
            return self.merge_with(TensorShape([None] * rank))
        except ValueError:
            raise ValueError(f"Shape {self} must have rank {rank}") from None

    def with_rank_at_least(self, rank) -> TensorShape:
        if self.rank is not None and self.rank < rank:
            raise ValueError(f"Shape {self} must have rank at least {rank}")
        return self

    def with_rank_at_most(self, rank) -> TensorShape:
        if self.rank is not None and self.rank > rank:
            raise ValueError(f"Shape {self} must have rank at most {rank}")
        return self

    def concatenate(self, other) -> TensorShape:
        other = as_shape(other)
        return TensorShape(None if self._dims is None or other is None else self._dims + other)

    def __add__(self, other):
        return self.concatenate(other)

    def __radd__(self, other):
        return TensorShape(as_shape(other)).concatenate(self)

    def most_specific_compatible_shape(self, other) -> TensorShape:
        """The most specific shape every shape compatible with self or with other is compatible with."""
        other = as_shape(other)
        if self._dims is None or other is None or len(self._dims) != len(other):
            return TensorShape(None)
        return TensorShape([a if a == b else None for a, b in zip(self._dims, other)])

    def most_specific_common_supertype(self, others):
        result = self
        for other in others:
            if not isinstance(other, TensorShape):
                return None
            result = result.most_specific_compatible_shape(other)
        return result

    def is_subtype_of(self, other) -> bool:
        """True when every dim of `other` is unknown or equal to self's (and the ranks agree)."""
        if not isinstance(other, TensorShape):
            return False
        return is_subshape(self._dims, other._dims)

    def __bool__(self):  # TF: a shape of known rank is true, also a scalar's (len 0)
        return self._dims is not None

    def __len__(self):
        if self._dims is None:
            raise ValueError("Cannot take the length of shape with unknown rank.")
        return len(self._dims)

    def __iter__(self):
        if self._dims is None:
            raise ValueError("Cannot iterate over a shape with unknown rank.")
        return iter(self._dims)

    def __getitem__(self, key):
        if isinstance(key, slice):
            return TensorShape(self._dims[key])
        return self._dims[key]

    def __eq__(self, other):
        try:
            return self._dims == as_shape(other)
        except (TypeError, ValueError):
            return NotImplemented

    def __hash__(self):
        return hash(self._dims)

    def __repr__(self):
        if self._dims is None:
            return "TensorShape(None)"
        return f"TensorShape({list(self._dims)})"

    def __str__(self):
        if self._dims is None:
            return "<unknown>"
        if len(self._dims) == 1:
            return f"({self._dims[0]},)"
        return "(" + ", ".join(str(d) for d in self._dims) + ")"


def as_shape(value) -> Shape:
    """Normalize a TensorShape, list, tuple or None into the internal tuple form."""
    if isinstance(value, TensorShape):
        return value._dims
    if value is None:
        return None
    if hasattr(value, "numpy") and not isinstance(value, (list, tuple)):
        value = value.numpy().tolist()
    if isinstance(value, int):
        return (value,)
    try:
        return tuple(None if d is None else int(d) for d in value)
    except TypeError:  # an unknown Dimension among them
        return tuple(None if d is None else int(d) for d in map(dimension_value, value))


def compatible(a: Shape, b: Shape) -> bool:
    if a is None or b is None:
        return True
    if len(a) != len(b):
        return False
    return all(x is None or y is None or x == y for x, y in zip(a, b))


def merge(a: Shape, b: Shape):
    """The most specific shape compatible with both, or False when they conflict."""
    if a is None:
        return b
    if b is None:
        return a
    if len(a) != len(b):
        return False
    out = []
    for x, y in zip(a, b):
        if x is not None and y is not None and x != y:
            return False
        out.append(x if x is not None else y)
    return tuple(out)


def most_specific_common(a: Shape, b: Shape) -> Shape:
    """The least general shape that both fit into: differing dims become None (used by relaxed retracing)."""
    if a is None or b is None or len(a) != len(b):
        return None
    return tuple(x if x == y else None for x, y in zip(a, b))


def is_subshape(specific: Shape, general: Shape) -> bool:
    """True when every tensor of shape `specific` also has shape `general`."""
    if general is None:
        return True
    if specific is None or len(specific) != len(general):
        return False
    return all(g is None or s == g for s, g in zip(specific, general))


def broadcast(a: Shape, b: Shape) -> Shape:
    """numpy broadcasting on partial shapes; raises ValueError on a certain mismatch."""
    if a is None or b is None:
        return None
    if a == b:
        return a
    n = max(len(a), len(b))
    a = (1,) * (n - len(a)) + a
    b = (1,) * (n - len(b)) + b
    out = []
    for x, y in zip(a, b):
        if x == 1:
            out.append(y)
        elif y == 1:
            out.append(x)
        elif x is None:
            out.append(y)
        elif y is None or x == y:
            out.append(x)
        else:
            raise ValueError("shapes cannot be broadcast together")
    return tuple(out)


def num_elements(shape: Shape):
    if shape is None or None in shape:
        return None
    n = 1
    for d in shape:
        n *= d
    return n


def fmt(shape: Shape) -> str:
    """Shapes in messages, as TF prints them: (2, 3), (None, 4), <unknown>."""
    return str(TensorShape(shape))


def typed(dtype, shape: Shape) -> str:
    """A dtype and a shape in the compact form of printed graphs and op errors: float32[2,?], int32[],
    float32[?] for an unknown rank."""
    dims = "?" if shape is None else ",".join("?" if d is None else str(d) for d in shape)
    return f"{dtype.name}[{dims}]"
