"""ExtensionType specs in a SavedModel's function signatures, as TF writes them: a TypeSpecProto of class
EXTENSION_TYPE_SPEC named `<registered name>.Spec`, whose type_state is the spec's (field name, value) pairs.
A class is registered by the `__name__` it declares (TF's rule); an unregistered one cannot be saved
(TF's NotEncodableError)."""

from __future__ import annotations

from tensorboard.compat.proto import struct_pb2

from tinytf.runtime.shapes import TensorShape

from ..extension_type.immutable_dict import ImmutableDict
from ..extension_type.registry import registered_name, spec_class_named
from ..extension_type.spec import ExtensionTypeSpec, new_instance
from .attr_codec import dtype_enum, dtype_of_enum, shape_of_proto, shape_proto


class NotEncodableError(Exception):
    """A value TF's structure coder has no encoder for (TF's nested_structure_coder.NotEncodableError)."""


def is_extension_spec(value) -> bool:
    return isinstance(value, ExtensionTypeSpec) or hasattr(type(value), "_tf_extension_type_fields")


def encode_spec(value, out: struct_pb2.StructuredValue, encode) -> None:
    spec = value if isinstance(value, ExtensionTypeSpec) else value._type_spec
    name = registered_name(type(spec))
    if name is None:
        raise NotEncodableError(f"No encoder for object {spec!r} of type {type(spec)}.")
    proto = out.type_spec_value
    proto.type_spec_class = struct_pb2.TypeSpecProto.EXTENSION_TYPE_SPEC
    proto.type_spec_class_name = name
    proto.num_flat_components = len(spec._component_specs)
    state = proto.type_state.tuple_value
    for field in spec._fields():
        pair = state.values.add().tuple_value
        pair.values.add().string_value = field.name
        pair.values.add().CopyFrom(_encode_field(spec.__dict__[field.name], encode))


def _encode_field(value, encode) -> struct_pb2.StructuredValue:
    out = struct_pb2.StructuredValue()
    if isinstance(value, TensorShape):
        out.tensor_shape_value.CopyFrom(shape_proto(value._dims))
    elif hasattr(value, "as_numpy_dtype") and hasattr(value, "name") and not hasattr(value, "_shape"):
        out.tensor_dtype_value = dtype_enum(value)
    elif isinstance(value, ImmutableDict):
        out.dict_value.SetInParent()
        for k, v in value.items():
            out.dict_value.fields[k].CopyFrom(_encode_field(v, encode))
    elif isinstance(value, tuple):
        out.tuple_value.SetInParent()
        for v in value:
            out.tuple_value.values.add().CopyFrom(_encode_field(v, encode))
    else:
        out.CopyFrom(encode(value))
    return out


def decode_spec(proto, decode):
    spec_class = spec_class_named(proto.type_spec_class_name)
    if spec_class is None:
        raise ValueError(f"this SavedModel's functions take or return the ExtensionType registered as "
                         f"{proto.type_spec_class_name[:-len('.Spec')]!r}: define that class (with the same "
                         "`__name__`) before loading it")
    fields = {}
    for pair in proto.type_state.tuple_value.values:
        name_value, field_value = pair.tuple_value.values
        fields[name_value.string_value] = _decode_field(field_value, decode)
    return new_instance(spec_class, fields)


def _decode_field(value, decode):
    kind = value.WhichOneof("kind")
    if kind == "tensor_shape_value":
        return TensorShape(shape_of_proto(value.tensor_shape_value))
    if kind == "tensor_dtype_value":
        return dtype_of_enum(value.tensor_dtype_value)
    if kind == "dict_value":
        return ImmutableDict((k, _decode_field(v, decode)) for k, v in value.dict_value.fields.items())
    if kind == "tuple_value":
        return tuple(_decode_field(v, decode) for v in value.tuple_value.values)
    return decode(value)
