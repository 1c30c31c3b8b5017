"""Nested Python structures (a function's arguments and results) as TF's StructuredValue protos, and back:
tuples, lists, dicts, TensorSpecs, None and Python scalars, as TF writes a SavedConcreteFunction's
canonicalized_input_signature and output_signature."""

from __future__ import annotations

from tensorboard.compat.proto import struct_pb2

from tinytf.runtime.tensor import Tensor

from ..tensor_spec import TensorSpec
from .attr_codec import dtype_enum, dtype_of_enum, shape_of_proto, shape_proto
from .extension_specs import decode_spec, encode_spec, is_extension_spec
from .ragged_specs import decode_ragged_spec, encode_ragged_spec, is_ragged_proto, is_ragged_spec


def encode(value) -> struct_pb2.StructuredValue:
    out = struct_pb2.StructuredValue()
    if value is None:
        out.none_value.SetInParent()
    elif isinstance(value, (TensorSpec, Tensor)):
        out.tensor_spec_value.name = getattr(value, "name", None) or "" if isinstance(value, TensorSpec) else ""
        out.tensor_spec_value.shape.CopyFrom(shape_proto(value._shape))
        out.tensor_spec_value.dtype = dtype_enum(value.dtype)
    elif isinstance(value, bool):
        out.bool_value = value
    elif isinstance(value, int):
        out.int64_value = value
    elif isinstance(value, float):
        out.float64_value = value
    elif isinstance(value, str):
        out.string_value = value
    elif isinstance(value, tuple) and hasattr(value, "_fields"):
        out.named_tuple_value.name = type(value).__name__
        for field, item in zip(value._fields, value):
            out.named_tuple_value.values.add(key=field).value.CopyFrom(encode(item))
    elif isinstance(value, tuple):
        out.tuple_value.SetInParent()
        for item in value:
            out.tuple_value.values.add().CopyFrom(encode(item))
    elif isinstance(value, list):
        out.list_value.SetInParent()
        for item in value:
            out.list_value.values.add().CopyFrom(encode(item))
    elif is_ragged_spec(value):  # a RaggedTensorSpec, or a traced RaggedTensor (an output)
        encode_ragged_spec(value, out)
    elif is_extension_spec(value):  # an ExtensionType's spec, or a traced value of one (an output)
        encode_spec(value, out, encode)
    elif isinstance(value, dict):
        out.dict_value.SetInParent()
        for key, item in value.items():
            if not isinstance(key, str):
                raise ValueError(f"a SavedModel function's structures have string dict keys, got {key!r}")
            out.dict_value.fields[key].CopyFrom(encode(item))
    else:
        raise ValueError(f"a SavedModel cannot record the argument or result {value!r:.80} "
                         f"({type(value).__name__}); use tensors, Python scalars, strings, None and "
                         "tuples/lists/dicts of them")
    return out


def decode(value: struct_pb2.StructuredValue):
    kind = value.WhichOneof("kind")
    if kind == "none_value" or kind is None:
        return None
    if kind == "tensor_spec_value":
        spec = value.tensor_spec_value
        return TensorSpec(shape_of_proto(spec.shape), dtype_of_enum(spec.dtype), spec.name or None)
    if kind in ("bool_value", "int64_value", "float64_value", "string_value"):
        return getattr(value, kind)
    if kind == "tuple_value":
        return tuple(decode(v) for v in value.tuple_value.values)
    if kind == "list_value":
        return [decode(v) for v in value.list_value.values]
    if kind == "dict_value":
        return {k: decode(v) for k, v in sorted(value.dict_value.fields.items())}
    if kind == "type_spec_value" and is_ragged_proto(value):
        return decode_ragged_spec(value.type_spec_value)
    if kind == "type_spec_value" and \
            value.type_spec_value.type_spec_class == struct_pb2.TypeSpecProto.EXTENSION_TYPE_SPEC:
        return decode_spec(value.type_spec_value, decode)
    if kind == "named_tuple_value":  # the namedtuple class is not saved: its fields come back as a dict
        return {pair.key: decode(pair.value) for pair in value.named_tuple_value.values}
    raise ValueError(f"tinytf does not read the {kind} entries of a SavedModel's structures")


__all__ = ["encode", "decode"]
