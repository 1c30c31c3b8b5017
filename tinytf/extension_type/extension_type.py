"""tf.experimental.ExtensionType: user-defined immutable types whose fields are declared with type
annotations, which TF APIs (tf.function, control flow, tf.nest, tf.data, dispatch) carry as composite
tensors. A subclass gets, as TF's: a constructor that type-checks and converts its fields, `__repr__`,
`__eq__`/`__ne__`, `__validate__`, enforced immutability, and a nested `Spec` TypeSpec class."""

from __future__ import annotations

import inspect

from tinytf.runtime.tensor import Tensor

from ..composite import CompositeTensor
from . import fields as field_rules
from . import structure
from .registry import register
from .spec import IN_CONSTRUCTOR, BatchableExtensionTypeSpec, ExtensionTypeSpec, FrozenFields, make_spec_class

_CACHED_SPEC = "_tf_extension_type_cached_type_spec"


class ExtensionType(FrozenFields, CompositeTensor):
    """Base class for TensorFlow extension types: declare fields with type annotations."""

    _tf_spec_base = ExtensionTypeSpec
    _frozen_kind = "ExtensionType"

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if cls.__dict__.get("_tf_extension_type_internal_base"):
            return
        fields = field_rules.class_fields(cls)
        field_rules.check_no_unannotated_fields(cls, fields)
        cls._tf_extension_type_cached_fields = fields
        cls._tf_extension_type_resolved = False
        if "__init__" in cls.__dict__:
            cls.__init__ = _wrap_user_constructor(cls.__dict__["__init__"])
        else:
            cls.__init__ = _field_constructor(cls, fields)
        user_spec = cls.__dict__.get("Spec")
        base_spec = next(klass.__dict__["Spec"] for klass in cls.__mro__[1:] if "Spec" in klass.__dict__) \
            if any("Spec" in klass.__dict__ for klass in cls.__mro__[1:]) else cls._tf_spec_base
        if not (isinstance(base_spec, type) and issubclass(base_spec, cls._tf_spec_base)):
            base_spec = cls._tf_spec_base
        cls.Spec = make_spec_class(cls, base_spec, user_spec)
        register(cls)

    @classmethod
    def _tf_extension_type_fields(cls) -> list:
        fields = cls.__dict__.get("_tf_extension_type_cached_fields")
        if fields is None:
            raise TypeError(f"{cls.__name__} is abstract: subclass it and declare fields")
        if not cls.__dict__.get("_tf_extension_type_resolved"):
            try:  # forward references (strings) resolve once their types exist
                for f in fields:
                    f.annotation = field_rules.resolve(f.annotation, cls)
                cls._tf_extension_type_resolved = True
            except TypeError:
                pass
        return fields

    def _tf_extension_type_convert_fields(self) -> None:
        field_rules.convert_fields(self._tf_extension_type_fields(), self.__dict__, field_rules.VALUE, type(self))

    def __validate__(self):
        """Checks run after construction (fields already converted); subclasses may override it."""

    @classmethod
    def _fields(cls) -> list:  # FrozenFields' view of the fields
        return cls._tf_extension_type_fields()

    # Printing and comparing -------------------------------------------------------------------------------

    def __repr__(self):
        parts = ", ".join(f"{f.name}={self.__dict__[f.name]!r}" for f in self._tf_extension_type_fields())
        return f"{type(self).__qualname__}({parts})"

    def __eq__(self, other):
        """Same type, same spec, and every component tensor of the same shape and elementwise equal: a scalar
        bool tensor when there are tensors to compare, else a Python bool."""
        if type(self) is not type(other) or self._type_spec != other._type_spec:
            return False
        from .equality import components_equal

        return components_equal(self._to_components(), other._to_components())

    def __ne__(self, other):
        eq = self.__eq__(other)
        if isinstance(eq, Tensor):
            from tinytf.runtime.ops.math import logical_not

            return logical_not(eq)
        return not eq

    __hash__ = None

    # Composite tensor protocol ----------------------------------------------------------------------------

    @property
    def _type_spec(self):
        spec = self.__dict__.get(_CACHED_SPEC)
        if spec is None:
            values = {f.name: structure.spec_of(self.__dict__[f.name]) for f in self._tf_extension_type_fields()}
            from .spec import new_instance

            spec = new_instance(type(self).Spec, values)
            self.__dict__[_CACHED_SPEC] = spec
        return spec

    def _to_components(self) -> list:
        out = []
        for f in self._tf_extension_type_fields():
            structure.value_components(self.__dict__[f.name], out)
        return out

    def _from_components(self, components):
        return self._type_spec._from_components(components)


ExtensionType._tf_extension_type_internal_base = True


class BatchableExtensionType(ExtensionType):
    """An ExtensionType that can represent a batch of values (tf.data batch/unbatch, tf.map_fn): every
    nested tensor, composite and TensorShape field gains an outer dimension."""

    _tf_extension_type_internal_base = True
    _tf_spec_base = BatchableExtensionTypeSpec


def _finish(obj) -> None:
    obj._tf_extension_type_convert_fields()
    obj.__validate__()


def _wrap_user_constructor(user_init):
    def __init__(self, *args, **kwargs):
        self.__dict__[IN_CONSTRUCTOR] = True
        try:
            user_init(self, *args, **kwargs)
        finally:
            del self.__dict__[IN_CONSTRUCTOR]
        _finish(self)
    __init__.__wrapped__ = user_init
    __init__.__doc__ = user_init.__doc__
    return __init__


def _field_constructor(cls, fields):
    """A constructor taking each field as an argument, in declaration order; fields without a default that
    follow one with a default are keyword-only, as TF makes them."""
    params, seen_default = [], False
    for f in fields:
        kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
        if seen_default and f.default is field_rules.NO_DEFAULT:
            kind = inspect.Parameter.KEYWORD_ONLY
        seen_default = seen_default or f.default is not field_rules.NO_DEFAULT
        default = inspect.Parameter.empty if f.default is field_rules.NO_DEFAULT else f.default
        params.append(inspect.Parameter(f.name, kind, default=default))
    params.sort(key=lambda p: p.kind)  # keyword-only after the positional ones
    signature = inspect.Signature(params)

    def __init__(self, *args, **kwargs):
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError as e:
            raise TypeError(f"{cls.__name__}: {e}") from None
        bound.apply_defaults()
        self.__dict__.update(bound.arguments)
        _finish(self)

    __init__.__signature__ = inspect.Signature(
        [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)] + params)
    return __init__
