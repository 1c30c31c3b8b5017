"""ExtensionTypeSpec: the TypeSpec of an ExtensionType, made for each class as `<Class>.Spec`. It keeps a
field per field of the value (TensorSpecs for tensors, TypeSpecs for composites, the Python values
themselves), so two values share a trace when their specs are equal."""

from __future__ import annotations

from tinytf.runtime import shapes
from tinytf.runtime.shapes import TensorShape

from ..composite import TypeSpec
from ..tensor_spec import TensorSpec
from . import fields as field_rules
from . import structure
from .immutable_dict import ImmutableDict

IN_CONSTRUCTOR = "_tf_extension_type_in_constructor"


def new_instance(cls, values: dict):
    """An instance of `cls` with these field values, built without calling its constructor (which may be the
    user's, taking other arguments)."""
    obj = object.__new__(cls)
    obj.__dict__.update(values)
    return obj


class FrozenFields:
    """Fields that only a constructor may set (TF's immutability for extension types and their specs)."""

    __slots__ = ()
    _frozen_kind = ""

    @classmethod
    def _fields(cls) -> list:
        raise NotImplementedError

    def _check_mutable(self, name):
        if IN_CONSTRUCTOR not in self.__dict__ or not any(f.name == name for f in self._fields()):
            raise AttributeError(f"Cannot mutate attribute `{name}` outside the custom constructor of "
                                 f"{self._frozen_kind}.")

    def __setattr__(self, name, value):
        self._check_mutable(name)
        self.__dict__[name] = value

    def __delattr__(self, name):
        self._check_mutable(name)
        del self.__dict__[name]


class ExtensionTypeSpec(FrozenFields, TypeSpec):
    """Base class of every `<ExtensionType>.Spec`."""

    value_type = None  # the ExtensionType class, set on each generated Spec class
    _frozen_kind = "ExtensionTypeSpec"

    @classmethod
    def _fields(cls):
        return cls.value_type._tf_extension_type_fields()

    @classmethod
    def _tf_extension_type_fields(cls) -> list:  # as TF's specs answer it (as_dict reads a spec's fields)
        return cls.value_type._tf_extension_type_fields()

    def _field_values(self) -> list:
        return [self.__dict__[f.name] for f in self._fields()]

    @classmethod
    def from_value(cls, value):
        return value._type_spec

    def _serialize(self) -> tuple:
        return tuple((f.name, structure.hashable(self.__dict__[f.name])) for f in self._fields())

    @property
    def _component_specs(self) -> list:
        out = []
        for v in self._field_values():
            structure.spec_components(v, out)
        return out

    def _to_components(self, value) -> list:
        return list(value._to_components())

    def _from_components(self, components):
        components = list(components)
        values, index = {}, 0
        for f in self._fields():
            values[f.name], index = structure.rebuild(self.__dict__[f.name], components, index)
        if index != len(components):
            raise ValueError("Cannot build an ExtensionType instance from components because more components are "
                             "provided than the number expected by the type spec.")
        return new_instance(self.value_type, values)

    def is_compatible_with(self, other) -> bool:
        other = getattr(other, "_type_spec", other)
        if type(other) is not type(self):
            return False
        return all(_compatible(a, b) for a, b in zip(self._field_values(), other._field_values()))

    def most_specific_common_supertype(self, others):
        """The spec both this and every one of `others` satisfy (tensor shapes relaxed), or None."""
        result = self
        for other in others:
            if type(other) is not type(self):
                return None
            merged = {}
            for f, a, b in zip(self._fields(), result._field_values(), other._field_values()):
                m = _common(a, b)
                if m is _NO_COMMON:
                    return None
                merged[f.name] = m
            result = new_instance(type(self), merged)
        return result

    def __validate__(self):
        """Checks after construction; a Spec class may override it."""

    def __repr__(self):  # mappings print as plain dicts, as TF's serialized spec fields
        parts = ", ".join(f"{f.name}={_plain(self.__dict__[f.name])!r}" for f in self._fields())
        return f"{type(self).__qualname__}({parts})"

    def __reduce__(self):
        return new_instance, (type(self), {f.name: self.__dict__[f.name] for f in self._fields()})


_NO_COMMON = object()


def _plain(value):
    if isinstance(value, tuple):
        return tuple(_plain(v) for v in value)
    if isinstance(value, ImmutableDict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _compatible(a, b) -> bool:
    if isinstance(a, TensorSpec) and isinstance(b, TensorSpec):
        return a.dtype is b.dtype and (shapes.is_subshape(a._shape, b._shape) or shapes.is_subshape(b._shape, a._shape))
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_compatible(x, y) for x, y in zip(a, b))
    if isinstance(a, TensorShape) and isinstance(b, TensorShape):
        return a.is_compatible_with(b)
    if hasattr(a, "is_compatible_with") and hasattr(type(a), "_component_specs"):
        return a.is_compatible_with(b)
    return structure.hashable(a) == structure.hashable(b)


def _common_shape(a, b):
    if a is None or b is None or len(a) != len(b):
        return None
    return tuple(x if x == y else None for x, y in zip(a, b))


def _common(a, b):
    if isinstance(a, TensorSpec) and isinstance(b, TensorSpec):
        return TensorSpec(_common_shape(a._shape, b._shape), a.dtype) if a.dtype is b.dtype else _NO_COMMON
    if isinstance(a, TensorShape) and isinstance(b, TensorShape):
        return TensorShape(_common_shape(a._dims, b._dims))
    if isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b):
        items = tuple(_common(x, y) for x, y in zip(a, b))
        return _NO_COMMON if any(i is _NO_COMMON for i in items) else items
    if isinstance(a, ExtensionTypeSpec) and type(a) is type(b):
        m = a.most_specific_common_supertype([b])
        return _NO_COMMON if m is None else m
    return a if structure.hashable(a) == structure.hashable(b) else _NO_COMMON


class ExtensionTypeBatchEncoder:
    """How a BatchableExtensionType's spec gains and loses a batch dimension, as TF's default encoder: every
    nested TypeSpec and TensorShape field gets an outer dimension (the rest is kept)."""

    def batch(self, spec, batch_size):
        def add(leaf):
            if isinstance(leaf, TensorSpec):
                return TensorSpec(None if leaf._shape is None else (batch_size,) + leaf._shape, leaf.dtype)
            if isinstance(leaf, TensorShape):
                return TensorShape(None if leaf._dims is None else (batch_size,) + leaf._dims)
            if hasattr(leaf, "_batch"):
                return leaf._batch(batch_size)
            return leaf
        return new_instance(type(spec), {f.name: structure.map_specs(add, spec.__dict__[f.name])
                                         for f in spec._fields()})

    def unbatch(self, spec):
        def drop(leaf):
            if isinstance(leaf, TensorSpec):
                return TensorSpec(None if leaf._shape is None else leaf._shape[1:], leaf.dtype)
            if isinstance(leaf, TensorShape):
                return TensorShape(None if leaf._dims is None else leaf._dims[1:])
            if hasattr(leaf, "_unbatch"):
                return leaf._unbatch()
            return leaf
        return new_instance(type(spec), {f.name: structure.map_specs(drop, spec.__dict__[f.name])
                                         for f in spec._fields()})

    def encode(self, spec, value, minimum_rank=0):
        return tuple(value._to_components())

    def decode(self, spec, encoded_value):
        return spec._from_components(list(encoded_value))

    def encoding_specs(self, spec):
        return tuple(spec._component_specs)


class BatchableExtensionTypeSpec(ExtensionTypeSpec):
    """Spec of a BatchableExtensionType: it can add and remove an outer batch dimension."""

    __batch_encoder__ = ExtensionTypeBatchEncoder()

    def _batch(self, batch_size):
        return self.__batch_encoder__.batch(self, batch_size)

    def _unbatch(self):
        return self.__batch_encoder__.unbatch(self)


def make_spec_class(value_cls, base_spec, user_spec):
    """`<value_cls>.Spec`: the user's nested `class Spec` (if any) on top of the base spec class."""
    bases = (user_spec, base_spec) if user_spec is not None else (base_spec,)
    namespace = {"value_type": value_cls, "__module__": value_cls.__module__,
                 "__qualname__": f"{value_cls.__qualname__}.Spec"}
    spec_cls = type(f"{value_cls.__name__}.Spec", bases, namespace)  # TF names it "<Class>.Spec"
    if user_spec is not None and "__init__" in user_spec.__dict__:
        spec_cls.__init__ = _wrap_spec_constructor(user_spec.__dict__["__init__"])
    else:
        spec_cls.__init__ = _spec_constructor(value_cls)
    return spec_cls


def _finish_spec(spec) -> None:
    field_rules.convert_fields(spec._fields(), spec.__dict__, field_rules.SPEC, spec.value_type)
    spec.__validate__()


def _spec_constructor(value_cls):
    def __init__(self, *args, **kwargs):
        names = [f.name for f in value_cls._tf_extension_type_fields()]
        if len(args) > len(names):
            raise TypeError(f"{value_cls.__name__}.Spec takes {len(names)} arguments, got {len(args)}")
        values = dict(zip(names, args))
        for k, v in kwargs.items():
            if k in values:
                raise TypeError(f"{value_cls.__name__}.Spec got multiple values for argument {k!r}")
            values[k] = v
        self.__dict__.update(values)
        _finish_spec(self)
    return __init__


def _wrap_spec_constructor(user_init):
    def __init__(self, *args, **kwargs):
        self.__dict__[IN_CONSTRUCTOR] = True
        try:
            user_init(self, *args, **kwargs)
        finally:
            del self.__dict__[IN_CONSTRUCTOR]
        _finish_spec(self)
    __init__.__wrapped__ = user_init
    return __init__
