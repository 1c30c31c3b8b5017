"""tf.io.decode_proto and tf.io.encode_proto: protobuf messages (binary, or text for decoding) to one tensor
per requested field and back, for a batch of any shape. As TF's ops: `sizes` (int32, batch + [fields]) counts
the values of each field in each message, and field j's values (batch + [max(1, largest count)]) are padded
with the field's default; sub-messages are their serialized bytes; enums are int32. Encoding writes the
fields in field-number order, packed where the field is, so its bytes are what protobuf writes. Neither op
has a gradient (TF registers none)."""

from __future__ import annotations

import collections
import struct

import numpy as np

from .. import dtypes
from ..dispatch import apply, convert_to_tensor
from ..errors import DataLossError, InvalidArgumentError
from ..registry import OpDef, register
from ..wire import encode_varint
from .proto_descriptors import field_of, message_class, message_descriptor

# FieldDescriptor.CPPTYPE_*: TF names a field by its C++ type in its type errors
_CPP_NAMES = {1: "int32", 2: "int64", 3: "uint32", 4: "uint64", 5: "double", 6: "float", 7: "bool", 8: "enum",
              9: "string", 10: "message"}
# which output dtypes each C++ type may decode to (TF's CheckOutputType)
_ALLOWED = {1: ("int32", "int64"), 2: ("int64",), 3: ("uint32",), 4: ("uint64",), 5: ("float64",),
            6: ("float32", "float64"), 7: ("bool",), 8: ("int32",), 9: ("string",), 10: ("string",)}
_DT_NAMES = {"float32": "DT_FLOAT", "float64": "DT_DOUBLE"}
# FieldDescriptor.TYPE_* names, as encode_proto's errors print a field's type
_TYPE_NAMES = {1: "double", 2: "float", 3: "int64", 4: "uint64", 5: "int32", 6: "fixed64", 7: "fixed32",
               8: "bool", 9: "string", 10: "group", 11: "message", 12: "bytes", 13: "uint32", 14: "enum",
               15: "sfixed32", 16: "sfixed64", 17: "sint32", 18: "sint64"}

DecodeProtoV2 = collections.namedtuple("DecodeProtoV2", ["sizes", "values"])


def _dtype_name(dtype) -> str:
    return dtypes.as_dtype(dtype).name


def _check_output_type(descriptor, field, dtype) -> None:
    name = _dtype_name(dtype)
    if name not in _ALLOWED[field.cpp_type]:
        raise InvalidArgumentError(f"Unexpected output type for {descriptor.full_name}.{field.name}: "
                                   f"{_CPP_NAMES[field.cpp_type]} to {_DT_NAMES.get(name, 'DT_' + name.upper())}")


def _as_bytes(value) -> bytes:
    return value.encode("utf-8") if isinstance(value, str) else bytes(value)


def _default(field):
    """The value a missing field is padded with: its declared default (proto2), else its type's zero."""
    if field.cpp_type == 10:
        return b""
    if field.is_repeated:
        return b"" if field.cpp_type == 9 else 0
    value = field.default_value
    return _as_bytes(value) if field.cpp_type == 9 else value


def _field_values(msg, field) -> list:
    value = getattr(msg, field.name)
    if field.is_repeated:
        items = list(value)
    elif field.has_presence:
        items = [value] if msg.HasField(field.name) else []
    else:  # proto3 implicit presence: written (and so counted) only when not the default
        items = [value] if value != field.default_value else []
    if field.cpp_type == 10:
        return [m.SerializeToString() for m in items]
    if field.cpp_type == 9:
        return [_as_bytes(v) for v in items]
    return items


def _parse(cls, raw, message_format, index, message_type):
    msg = cls()
    raw = raw if isinstance(raw, bytes) else _as_bytes(raw)
    if message_format == "binary":
        try:
            msg.ParseFromString(raw)
        except Exception:  # noqa: BLE001 - protobuf's DecodeError and its relatives
            raise DataLossError(f"message {index} is not a valid binary {message_type}: Failed to "
                                "consume entire buffer") from None
    else:
        from google.protobuf import text_format

        try:
            text_format.Parse(raw.decode("utf-8"), msg)
        except Exception as e:  # noqa: BLE001 - text_format.ParseError, bad UTF-8
            raise DataLossError(f"message {index} is not a valid text {message_type}: {e}") \
                from None
    return msg


def _decode_kernel(data, *, message_type, field_names, output_types, descriptor_source, message_format,
                   sanitize):
    descriptor = message_descriptor(message_type, descriptor_source)
    fields = [field_of(descriptor, n) for n in field_names]
    for field, dtype in zip(fields, output_types):
        _check_output_type(descriptor, field, dtype)
    cls = message_class(descriptor)
    array = np.asarray(data, dtype=object)
    flat = array.reshape(-1)
    if not len(flat):
        raise InvalidArgumentError("Bufs argument must contain at least one value")
    found = []
    for i, raw in enumerate(flat):
        msg = _parse(cls, raw, message_format, i, message_type)
        found.append([_field_values(msg, f) for f in fields])
    sizes = np.array([[len(v) for v in row] for row in found], np.int32).reshape(len(flat), len(fields))
    outputs = [sizes.reshape(array.shape + (len(fields),))]
    for j, (field, dtype) in enumerate(zip(fields, output_types)):
        width = max([1] + [len(row[j]) for row in found])
        np_type = object if _dtype_name(dtype) == "string" else dtypes.as_dtype(dtype).np
        out = np.empty((len(flat), width), np_type)
        out[...] = _default(field)
        for i, row in enumerate(found):
            if row[j]:
                out[i, :len(row[j])] = row[j]
        outputs.append(out.reshape(array.shape + (width,)))
    return tuple(outputs)


def _decode_infer(data, *, message_type, field_names, output_types, descriptor_source, message_format, sanitize):
    if not data.dtype.is_string:
        raise TypeError(f"bytes must be a string tensor, got {data.dtype.name}")
    if len(field_names) != len(output_types):
        raise ValueError(f"{len(field_names)} field_names but {len(output_types)} output_types")
    if message_format not in ("binary", "text"):
        raise ValueError(f"message_format must be 'binary' or 'text', got {message_format!r}")
    batch = None if data._shape is None else tuple(data._shape)
    outs = [(dtypes.int32, None if batch is None else batch + (len(field_names),))]
    return outs + [(dtypes.as_dtype(t), None if batch is None else batch + (None,)) for t in output_types]


decode_proto_op = register(OpDef("decode_proto", _decode_kernel, _decode_infer, differentiable=False,
                                 doc="serialized protobuf messages as one tensor per field (and their counts)"))


# --- encoding -----------------------------------------------------------------------------------------------------
def _zigzag(value: int, bits: int) -> int:
    return ((value << 1) ^ (value >> (bits - 1))) & ((1 << bits) - 1)


_FIXED = {6: "<Q", 7: "<I", 15: "<i", 16: "<q", 1: "<d", 2: "<f"}  # TYPE_* -> struct format


def _scalar_bytes(field, value) -> tuple[int, bytes]:
    """(wire type, encoded value) of one value of `field`."""
    t = field.type
    if t in _FIXED:
        fmt = _FIXED[t]
        number = float(value) if t in (1, 2) else int(value)
        return (1 if fmt[1] in "Qqd" else 5), struct.pack(fmt, number)
    if t == 17:
        return 0, encode_varint(_zigzag(int(value), 32))
    if t == 18:
        return 0, encode_varint(_zigzag(int(value), 64))
    if t in (9, 10, 11, 12):
        data = _as_bytes(value)
        return 2, encode_varint(len(data)) + data
    return 0, encode_varint(int(value))  # int32/int64/uint32/uint64/bool/enum varints


def _write_field(out: bytearray, field, values) -> None:
    if field.is_packed and len(values):
        body = b"".join(_scalar_bytes(field, v)[1] for v in values)
        out += encode_varint(field.number << 3 | 2) + encode_varint(len(body)) + body
        return
    for v in values:
        wire, data = _scalar_bytes(field, v)
        out += encode_varint(field.number << 3 | wire) + data


def _check_input_type(field, dtype) -> None:
    name = _dtype_name(dtype)
    if name not in _ALLOWED[field.cpp_type]:
        shown = {"float32": "float", "float64": "double"}.get(name, name)
        raise InvalidArgumentError(f"Incompatible type for field {field.name}.  Saw dtype: {shown} but field type "
                                   f"is: {_TYPE_NAMES[field.type]}")


def _encode_kernel(sizes, *values, field_names, message_type, descriptor_source, value_dtypes):
    descriptor = message_descriptor(message_type, descriptor_source)
    fields = [field_of(descriptor, n) for n in field_names]
    for field, dtype in zip(fields, value_dtypes):
        _check_input_type(field, dtype)
    sizes = np.asarray(sizes)
    batch = sizes.shape[:-1]
    count = int(np.prod(batch, dtype=np.int64))
    flat_sizes = sizes.reshape(count, len(fields))
    flat_values = []
    for j, v in enumerate(values):
        v = np.asarray(v)
        if v.shape[:-1] != batch:
            raise InvalidArgumentError(f"values[{j}] has shape {list(v.shape)}, but its batch "
                                       f"dimensions must be the batch shape of sizes, {list(batch)}")
        flat_values.append(v.reshape(count, v.shape[-1]))
    order = sorted(range(len(fields)), key=lambda j: fields[j].number)  # protobuf's field order
    out = np.empty(count, dtype=object)
    for i in range(count):
        message = bytearray()
        for j in order:
            n, width = int(flat_sizes[i, j]), flat_values[j].shape[1]
            if n > width:
                raise InvalidArgumentError(f"Size to write must not be larger than value tensor; but saw: {n} > "
                                           f"{width} at message {i} field {j}")
            _write_field(message, fields[j], flat_values[j][i, :n])
        out[i] = bytes(message)
    return out.reshape(batch)


def _encode_infer(sizes, *values, field_names, message_type, descriptor_source, value_dtypes):
    if sizes.dtype is not dtypes.int32:
        raise TypeError(f"sizes must be int32, got {sizes.dtype.name}")
    if len(values) != len(field_names):
        raise ValueError(f"{len(field_names)} field_names but {len(values)} values")
    if sizes._shape is not None and sizes._shape and sizes._shape[-1] not in (None, len(field_names)):
        raise ValueError(f"the last dimension of sizes ({sizes._shape[-1]}) must be the number of "
                         f"fields ({len(field_names)})")
    return dtypes.string, None if sizes._shape is None else tuple(sizes._shape[:-1])


encode_proto_op = register(OpDef("encode_proto", _encode_kernel, _encode_infer, differentiable=False,
                                 doc="tensors of field values as serialized protobuf messages"))


# --- wrappers ---------------------------------------------------------------------------------------------------
def decode_proto(bytes, message_type, field_names, output_types, descriptor_source="local://",  # noqa: A002
                 message_format="binary", sanitize=False, name=None):
    """`tf.io.decode_proto`: (sizes, [one tensor per field]) of a batch of serialized messages."""
    data = convert_to_tensor(bytes)
    attrs = {"message_type": str(message_type), "field_names": tuple(str(n) for n in field_names),
             "output_types": tuple(dtypes.as_dtype(t) for t in output_types),
             "descriptor_source": descriptor_source, "message_format": message_format, "sanitize": bool(sanitize)}
    result = apply(decode_proto_op, (data,), attrs, name=name or "DecodeProtoV2")
    return DecodeProtoV2(result[0], list(result[1:]))


def encode_proto(sizes, values, field_names, message_type, descriptor_source="local://", name=None):
    """`tf.io.encode_proto`: serialized messages from per-field value tensors and their counts."""
    sizes = convert_to_tensor(sizes, dtype=dtypes.int32)
    values = [convert_to_tensor(v) for v in values]
    attrs = {"field_names": tuple(str(n) for n in field_names), "message_type": str(message_type),
             "descriptor_source": descriptor_source, "value_dtypes": tuple(v.dtype for v in values)}
    return apply(encode_proto_op, (sizes, *values), attrs, name=name or "EncodeProto")
