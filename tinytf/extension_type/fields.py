"""The fields of an ExtensionType: read from the class's type annotations, then used to type-check and
convert what a constructor is given (a value) or what a Spec constructor is given (a spec).

Supported annotations, as TF's: tf.Tensor, composite tensors (RaggedTensor, SparseTensor, IndexedSlices,
other ExtensionTypes), tf.TensorShape, tf.DType, int/float/bool/str/bytes/None, typing.Tuple (fixed or
`...`), typing.Mapping, typing.Union and typing.Optional; a string names a type not yet defined (a forward
reference, resolved when first needed)."""

from __future__ import annotations

import collections.abc
import sys
import typing

from tinytf.runtime import dtypes, shapes
from tinytf.runtime.shapes import TensorShape
from tinytf.runtime.tensor import Tensor

from ..tensor_spec import TensorSpec
from .immutable_dict import ImmutableDict

NO_DEFAULT = object()
_NONE_TYPE = type(None)
_PYTHON_TYPES = (int, float, bool, str, bytes, _NONE_TYPE)


class Field:
    __slots__ = ("name", "annotation", "default")

    def __init__(self, name, annotation, default=NO_DEFAULT):
        self.name, self.annotation, self.default = name, annotation, default

    def __repr__(self):
        return f"Field({self.name!r}, {self.annotation!r}, default={self.default!r})"


def class_fields(cls) -> list:
    """The fields of ExtensionType class `cls`, base classes' first, in declaration order."""
    fields = {}
    for klass in reversed(cls.__mro__):
        annotations = klass.__dict__.get("__annotations__", {})
        for name, annotation in annotations.items():
            if name.startswith("__") or typing.get_origin(annotation) is typing.ClassVar:
                continue
            default = klass.__dict__.get(name, NO_DEFAULT)
            if isinstance(default, (property, classmethod, staticmethod)):
                default = NO_DEFAULT
            fields[name] = Field(name, annotation, default)
    return list(fields.values())


def check_no_unannotated_fields(cls, fields) -> None:
    """A plain class attribute that is not a method, property or annotated field is refused, as TF refuses
    it: an instance attribute must be declared with its type."""
    names = {f.name for f in fields}
    for key, value in cls.__dict__.items():
        if key in names or key.startswith("__") or key in ("Spec", "_abc_impl") or key.startswith("_tf_"):
            continue
        if callable(value) or isinstance(value, (property, classmethod, staticmethod, type)):
            continue
        raise ValueError(f"The field annotations for {cls.__name__} are invalid. Field {key} is missing a type "
                         "annotation.")


def resolve(annotation, owner):
    """An annotation with its forward references (strings) replaced by the types they name."""
    if isinstance(annotation, str):
        return _evaluate(annotation, owner)
    if isinstance(annotation, typing.ForwardRef):
        return _evaluate(annotation.__forward_arg__, owner)
    args = typing.get_args(annotation)
    if not args:
        return annotation
    resolved = tuple(a if a is Ellipsis else resolve(a, owner) for a in args)
    if resolved == args:
        return annotation
    origin = typing.get_origin(annotation)
    if origin is typing.Union:
        return typing.Union[resolved]
    if origin in (tuple, typing.Tuple):
        return typing.Tuple[resolved]
    if origin in (collections.abc.Mapping, dict):
        return typing.Mapping[resolved]
    return annotation


def _evaluate(text, owner):
    """A forward reference resolves in the class's module, as typing.get_type_hints resolves it (a class
    defined inside a function cannot name itself this way: TF refuses that too)."""
    module = sys.modules.get(owner.__module__)
    try:
        return eval(text, dict(vars(module)) if module is not None else {})  # noqa: S307  (the class's own annotation)
    except NameError:
        raise TypeError(f"Unsupported type annotation {typing.ForwardRef(text)!r}") from None


# Conversion contexts: a constructor's value, or a Spec constructor's spec.
VALUE, SPEC = "value", "spec"


def convert(value, annotation, path: str, context: str, owner):
    """`value` type-checked against `annotation` and converted (lists to tensors, sequences to tuples,
    mappings to ImmutableDicts); TypeError naming the field when it cannot be."""
    if isinstance(annotation, (str, typing.ForwardRef)):
        try:
            annotation = resolve(annotation, owner)
        except TypeError as e:
            raise TypeError(f"{path}: {e}") from None
    if annotation is None:
        annotation = _NONE_TYPE
    if annotation is Tensor:
        return _convert_tensor(value, path, context)
    if isinstance(annotation, type) and _is_composite_type(annotation):
        return _convert_composite(value, annotation, path, context)
    if annotation is TensorShape:
        try:
            return TensorShape(shapes.as_shape(value)) if not isinstance(value, TensorShape) else value
        except (TypeError, ValueError):
            raise TypeError(f"{path}: expected 'tf.TensorShape', got {type(value).__name__!r}") from None
    if annotation is dtypes.DType:
        try:
            return dtypes.as_dtype(value)
        except (TypeError, ValueError):
            raise TypeError(f"{path}: expected 'tf.DType', got {type(value).__name__!r}") from None
    if annotation in _PYTHON_TYPES:
        if not isinstance(value, annotation):
            raise TypeError(f"{path}: expected {annotation.__name__!r}, got {type(value).__name__!r}")
        return value
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin in (tuple, typing.Tuple):
        return _convert_tuple(value, args, path, context, owner)
    if origin in (collections.abc.Mapping, dict):
        return _convert_mapping(value, args, path, context, owner)
    if origin is typing.Union:
        for option in args:
            try:
                return convert(value, option, path, context, owner)
            except TypeError:
                pass
        raise TypeError(f"{path}: expected {annotation!r}, got {type(value).__name__!r}")
    raise TypeError(f"{path}: Unsupported type annotation {annotation!r}")


def _is_composite_type(cls) -> bool:
    return hasattr(cls, "_type_spec") and hasattr(cls, "_to_components")


def _convert_tensor(value, path, context):
    if context == SPEC:
        if not isinstance(value, TensorSpec):
            raise TypeError(f"{path}: expected a TensorSpec, got {type(value).__name__!r}")
        return value
    if isinstance(value, Tensor):
        return value
    from ..constant import convert_to_tensor

    try:
        return convert_to_tensor(value)
    except (TypeError, ValueError):
        raise TypeError(f"{path}: expected a Tensor, got {type(value).__name__!r}") from None


def _convert_composite(value, annotation, path, context):
    if context == SPEC:
        value_type = getattr(value, "value_type", None)
        if not (isinstance(value_type, type) and issubclass(value_type, annotation)):
            raise TypeError(f"{path}: expected a TypeSpec for {annotation.__name__!r}, got "
                            f"{type(value).__name__!r}")
        return value
    if not isinstance(value, annotation):
        raise TypeError(f"{path}: expected {annotation.__name__!r}, got {type(value).__name__!r}")
    return value


def _convert_tuple(value, args, path, context, owner):
    if not isinstance(value, collections.abc.Sequence) or isinstance(value, (str, bytes)):
        raise TypeError(f"{path}: expected tuple, got {type(value).__name__!r}")
    if len(args) == 2 and args[1] is Ellipsis:
        return tuple(convert(v, args[0], f"{path}[{i}]", context, owner) for i, v in enumerate(value))
    if len(value) != len(args):
        raise TypeError(f"{path}: expected tuple with length {len(args)}, got {type(value).__name__!r})")
    return tuple(convert(v, t, f"{path}[{i}]", context, owner) for i, (v, t) in enumerate(zip(value, args)))


def _convert_mapping(value, args, path, context, owner):
    if not isinstance(value, collections.abc.Mapping):
        raise TypeError(f"{path}: expected mapping, got {type(value).__name__!r}")
    key_type, value_type = args
    return ImmutableDict((convert(k, key_type, f"{path}[<key>]", context, owner),
                          convert(v, value_type, f"{path}[{k!r}]", context, owner)) for k, v in value.items())


def convert_fields(fields, values: dict, context: str, owner) -> None:
    """Check that `values` has exactly the fields, and convert each in place."""
    names = {f.name for f in fields}
    extra = set(values) - names
    if extra:
        raise ValueError(f"Got unexpected fields: {extra}")
    missing = names - set(values)
    if missing:
        raise ValueError(f"Missing required fields: {missing}")
    for f in fields:
        values[f.name] = convert(values[f.name], f.annotation, f.name, context, owner)
