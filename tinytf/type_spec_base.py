"""tf.TypeSpec: the base class of every spec (TensorSpec, the composites' specs, NoneTensorSpec, OptionalSpec,
TensorArraySpec). TF defines equality, compatibility, subtyping and the most specific common supertype once,
over `_serialize()`, the tuple of facts that define a spec; this base does the same. In tinytf's serializations
a (partial) shape is a tuple of ints and Nones, or None for an unknown rank, and TensorShapes count as shapes too:
shapes merge dimension by dimension, nested specs recursively, and every other fact must be equal."""

from __future__ import annotations

from tinytf.runtime import shapes
from tinytf.runtime.shapes import TensorShape


def _as_shape(value):
    """The shape tuple a serialized fact stands for, or `False` when the fact is no shape."""
    if isinstance(value, TensorShape):
        return value._dims
    if isinstance(value, tuple) and all(d is None or (isinstance(d, int) and not isinstance(d, bool))
                                        for d in value):
        return value
    return False


_NO_MATCH = object()


def _nested(value) -> bool:
    """A structure of facts (a tuple, list or dict holding specs, as an OptionalSpec's element_spec), not a shape."""
    return isinstance(value, dict) or isinstance(value, (tuple, list)) and _as_shape(value) is False


def _same_structure(values) -> bool:
    first = values[0]
    if isinstance(first, dict):
        return all(isinstance(v, dict) and v.keys() == first.keys() for v in values)
    return all(type(v) is type(first) and len(v) == len(first) for v in values)


def _columns(values):
    first = values[0]
    if isinstance(first, dict):
        return [[v[k] for v in values] for k in first]
    return [list(column) for column in zip(*values)]


def _rebuild(first, parts):
    if isinstance(first, dict):
        return dict(zip(first, parts))
    return type(first)(parts) if not hasattr(first, "_fields") else type(first)(*parts)


def _merge(values: list):
    """The most specific fact that all `values` are instances of, or _NO_MATCH."""
    first = values[0]
    if isinstance(first, TypeSpec):
        return first.most_specific_common_supertype(values[1:]) or _NO_MATCH
    if _nested(first):
        if not _same_structure(values):
            return _NO_MATCH
        parts = [_merge(column) for column in _columns(values)]
        return _NO_MATCH if any(p is _NO_MATCH for p in parts) else _rebuild(first, parts)
    if all(v == first and type(v) is type(first) for v in values):
        return first
    dims = [None if v is None else _as_shape(v) for v in values]
    if all(d is not False for d in dims) and any(d is not None for d in dims):
        merged = dims[0]
        for d in dims[1:]:
            merged = shapes.most_specific_common(merged, d)
        return TensorShape(merged) if isinstance(first, TensorShape) else merged
    return _NO_MATCH


def _subfact(mine, theirs) -> bool:
    if isinstance(mine, TypeSpec):
        return isinstance(theirs, TypeSpec) and mine.is_subtype_of(theirs)
    if _nested(mine):
        return _same_structure([mine, theirs]) and all(_subfact(a, b) for a, b in _columns([mine, theirs]))
    if mine == theirs and type(mine) is type(theirs):
        return True
    specific = None if mine is None else _as_shape(mine)
    general = None if theirs is None else _as_shape(theirs)
    if specific is False or general is False or (specific is None and general is None):
        return False
    return shapes.is_subshape(specific, general)


def _compatible_fact(a, b) -> bool:
    if isinstance(a, TypeSpec):
        return isinstance(b, TypeSpec) and a.is_compatible_with(b)
    if _nested(a):
        return _same_structure([a, b]) and all(_compatible_fact(x, y) for x, y in _columns([a, b]))
    if a == b and type(a) is type(b):
        return True
    x, y = (None if a is None else _as_shape(a)), (None if b is None else _as_shape(b))
    return x is not False and y is not False and (x is not None or y is not None) and shapes.compatible(x, y)


class TypeSpec:
    """Specifies a TensorFlow value type (TF's abstract base): subclasses define `value_type` and `_serialize()`
    (and, to be rebuilt from merged facts, a constructor taking them in order, as TF's `_deserialize`)."""

    __slots__ = ()

    @property
    def value_type(self):
        """The Python type of the values this spec describes."""
        raise NotImplementedError(f"{type(self).__name__} does not define value_type")

    def _serialize(self) -> tuple:
        """The facts that define this spec (equality, hashing, compatibility and merging use them)."""
        raise NotImplementedError

    @classmethod
    def _deserialize(cls, serialization):
        return cls(*serialization)

    def _rebuilt(self, facts: list):
        try:
            spec = type(self)._deserialize(tuple(facts))
        except (TypeError, ValueError):
            return None
        return spec if spec._serialize() == tuple(facts) else None

    def is_compatible_with(self, spec_or_value) -> bool:
        """True when a value of `spec_or_value` (a spec, or a value whose spec is taken) could be of this spec."""
        other = spec_or_value
        if not isinstance(other, TypeSpec):
            other = getattr(other, "_type_spec", None)
        if type(other) is not type(self):
            return False
        mine, theirs = self._serialize(), other._serialize()
        return len(mine) == len(theirs) and all(_compatible_fact(a, b) for a, b in zip(mine, theirs))

    def is_subtype_of(self, other) -> bool:
        """True when every value of this spec is a value of `other` (a partial shape is a supertype)."""
        if type(other) is not type(self):
            return False
        mine, theirs = self._serialize(), other._serialize()
        return len(mine) == len(theirs) and all(_subfact(a, b) for a, b in zip(mine, theirs))

    def most_specific_common_supertype(self, others):
        """The most specific spec that this spec and every one of `others` are subtypes of, or None."""
        if any(type(o) is not type(self) for o in others):
            return None
        serials = [self._serialize()] + [o._serialize() for o in others]
        if any(len(s) != len(serials[0]) for s in serials):
            return None
        facts = [_merge(list(column)) for column in zip(*serials)]
        if any(f is _NO_MATCH for f in facts):
            return None
        return self if all(o == self for o in others) else self._rebuilt(facts)

    def most_specific_compatible_type(self, other):
        """TF's deprecated form: the common supertype, or ValueError when there is none."""
        result = self.most_specific_common_supertype([other])
        if result is None:
            raise ValueError(f"No TypeSpec is compatible with both {self} and {other}")
        return result

    def __eq__(self, other):
        return type(other) is type(self) and self._serialize() == other._serialize()

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash((type(self).__name__, self._serialize()))

    def __repr__(self):
        return f"{type(self).__name__}{self._serialize()!r}"
