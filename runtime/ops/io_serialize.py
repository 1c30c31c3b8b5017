"""tf.io's byte-level ops: tensors and sparse tensors to and from TensorProto bytes (serialize_tensor,
parse_tensor, serialize_sparse, serialize_many_sparse, deserialize_many_sparse), web-safe base64, raw bytes
read as numbers (decode_raw, and decode_padded_raw for fixed_length), decompression (ZLIB, GZIP), JSON
tf.train.Example text to its binary form, and glob matching of file names. None is differentiable (TF
registers no gradient for any of them). TensorProtos go through tensor_proto_codec.py, the codec SavedModel
uses, so the bytes are TF's (tests/conformance/io_serialize.py compares them with TF 2.21's)."""

from __future__ import annotations

import base64
import binascii
import glob
import gzip
import json
import zlib

import numpy as np
from google.protobuf import json_format, message
from tensorboard.compat.proto import tensor_pb2

from .. import dtypes
from ..errors import DataLossError, InvalidArgumentError
from ..registry import OpDef, register
from ..wire import encode_varint
from . import example_proto
from . import tensor_proto_codec as codec


def _register(name, kernel, infer, doc, stateful=False):
    return register(OpDef(name, kernel, infer, differentiable=False, stateful=stateful, doc=doc))


def _element_map(fn, x):
    """`fn` on each bytes element of a string array (a 0-d array or a bare element for a scalar)."""
    if not isinstance(x, np.ndarray):
        return fn(x)
    out = np.empty(x.shape, dtype=object)
    flat = out.reshape(-1)
    for i, item in enumerate(x.reshape(-1)):
        flat[i] = fn(item)
    return out


def _require_string(x, what):
    if not x.dtype.is_string:
        raise TypeError(f"{what}: expected a string tensor, got {x.dtype.name}")


def _same_shape_string(what):
    def infer(x, **_attrs):
        _require_string(x, what)
        return dtypes.string, x._shape
    return infer


def _scalar_bytes(value) -> bytes:
    return value[()] if isinstance(value, np.ndarray) else value


# --- serialize_tensor / parse_tensor -------------------------------------------------------------------------------
def serialize_array(array, dtype) -> bytes:
    return codec.encode(array, dtype, dtype.as_datatype_enum).SerializeToString()


def _serialize_kernel(x, *, dtype):
    out = np.empty((), dtype=object)
    out[()] = serialize_array(np.asarray(x), dtype)
    return out


def _serialize_infer(x):
    if x.dtype not in dtypes.ALL:
        raise TypeError(f"serialize_tensor: a {x.dtype.name} tensor has no TensorProto form")
    return dtypes.string, ()


serialize_tensor_op = _register("serialize_tensor", _serialize_kernel, lambda x, **_attrs: _serialize_infer(x),
                                "a tensor as TensorProto bytes")


def parse_array(data: bytes, out_type) -> np.ndarray:
    proto = tensor_pb2.TensorProto()
    try:
        proto.ParseFromString(data)
    except message.DecodeError:
        raise InvalidArgumentError(f"Could not parse `serialized` as TensorProto, base64: "
                                   f"{base64.b64encode(data).decode()}") from None
    try:
        dtype = codec.data_dtype(proto.dtype)
        if dtype is not out_type:
            raise InvalidArgumentError(f"Type mismatch between parsed tensor ({_tf_type_name(dtype)}) and dtype "
                                       f"({out_type.name})")
        return codec.decode(proto, dtype)
    except (TypeError, ValueError) as e:
        if isinstance(e, InvalidArgumentError):
            raise
        raise InvalidArgumentError(f"Could not parse `serialized` as TensorProto: {e}") from None


def _tf_type_name(dtype) -> str:
    """TF's DataTypeString: float, double, int32, string, ... (float32 and float64 read as C types)."""
    return {"float32": "float", "float64": "double", "float16": "half"}.get(dtype.name, dtype.name)


def _parse_kernel(serialized, *, out_type):
    array = parse_array(_scalar_bytes(serialized), out_type)
    return array if array.ndim else array.reshape(())


def _parse_infer(serialized, *, out_type):
    _require_string(serialized, "parse_tensor")
    if serialized._shape not in (None, ()):
        raise ValueError(f"Expected `serialized` to be a scalar, got shape: {list(serialized._shape)}")
    return out_type, None


parse_tensor_op = _register("parse_tensor", _parse_kernel, _parse_infer, "TensorProto bytes as a tensor")


# --- base64 (web-safe alphabet: - and _ for + and /) ---------------------------------------------------------------
def _encode_base64(pad):
    def one(data: bytes) -> bytes:
        text = base64.urlsafe_b64encode(data)
        return text if pad else text.rstrip(b"=")
    return one


def _decode_base64(data: bytes) -> bytes:
    body = data.rstrip(b"=") if data.endswith(b"=") else data
    if len(body) % 4 == 1:
        raise InvalidArgumentError("Base64 string length cannot be 1 modulo 4.")
    if not all(ch in b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_" for ch in body):
        raise InvalidArgumentError("Invalid character found in base64.")
    try:
        return base64.urlsafe_b64decode(body + b"=" * (-len(body) % 4))
    except binascii.Error as e:
        raise InvalidArgumentError(f"Invalid base64: {e}") from None


encode_base64_op = _register("encode_base64", lambda x, *, pad: _element_map(_encode_base64(pad), x),
                             _same_shape_string("encode_base64"), "web-safe base64 of each string")
decode_base64_op = _register("decode_base64", lambda x: _element_map(_decode_base64, x),
                             _same_shape_string("decode_base64"), "each web-safe base64 string decoded")


# --- decode_raw -----------------------------------------------------------------------------------------------------
RAW_TYPES = ("float16", "bfloat16", "float32", "float64", "int32", "uint16", "uint8", "int16", "int8", "int64",
             "complex64", "complex128", "bool")


def _raw_values(data: bytes, out_type, little_endian: bool) -> np.ndarray:
    """`data` as numbers of `out_type`: each element's bytes reversed when their order is not the machine's,
    as TF's kernel does (a big-endian complex64 swaps all 8 bytes, real and imaginary parts included)."""
    size = np.dtype(out_type.np).itemsize
    raw = np.frombuffer(data, dtype=np.uint8).reshape(-1, size)
    if little_endian != (np.little_endian):
        raw = raw[:, ::-1]
    if out_type is dtypes.bool_:
        return raw.reshape(-1) != 0
    return np.ascontiguousarray(raw).view(out_type.np).reshape(-1)


def _decode_raw_kernel(x, *, out_type, little_endian):
    items = list(np.asarray(x, dtype=object).reshape(-1))
    size = np.dtype(out_type.np).itemsize
    width = None
    for i, data in enumerate(items):
        if len(data) % size:
            raise InvalidArgumentError(f"Input to DecodeRaw has length {len(data)} that is not a multiple of "
                                       f"{size}, the size of {_tf_type_name(out_type)}")
        if width is not None and len(data) != width * size:
            raise InvalidArgumentError(f"DecodeRaw requires input strings to all be the same size, but element {i} "
                                       f"has size {width * size} != {len(data)}")  # TF's order
        width = len(data) // size
    rows = [_raw_values(data, out_type, little_endian) for data in items]
    out = np.stack(rows) if rows else np.zeros((0, 0), dtype=out_type.np)
    return out.reshape(np.shape(x) + (width or 0,))


def _decode_raw_infer(x, *, out_type, little_endian):
    _require_string(x, "decode_raw")
    if x._shape is None:
        return out_type, None
    return out_type, tuple(x._shape) + (None,)


decode_raw_op = _register("decode_raw", _decode_raw_kernel, _decode_raw_infer,
                          "each string's bytes read as numbers of out_type")


def _decode_padded_kernel(x, *, out_type, fixed_length, little_endian):
    size = np.dtype(out_type.np).itemsize
    items = list(np.asarray(x, dtype=object).reshape(-1))
    out = np.zeros((len(items), fixed_length // size), dtype=out_type.np)
    for i, data in enumerate(items):
        data = data[:fixed_length]
        data = data[:len(data) - len(data) % size]
        out[i, :len(data) // size] = _raw_values(data, out_type, little_endian)
    return out.reshape(np.shape(x) + (fixed_length // size,))


def _decode_padded_infer(x, *, out_type, fixed_length, little_endian):
    _require_string(x, "decode_raw")
    size = np.dtype(out_type.np).itemsize
    if fixed_length % size:
        raise ValueError(f"fixed_length ({fixed_length}) must be a multiple of the size of out_type ({size})")
    if x._shape is None:
        return out_type, None
    return out_type, tuple(x._shape) + (fixed_length // size,)


decode_padded_raw_op = _register("decode_padded_raw", _decode_padded_kernel, _decode_padded_infer,
                                 "each string's first fixed_length bytes read as numbers, zero-padded")


# --- decode_compressed ----------------------------------------------------------------------------------------------
def _decompress(kind):
    def one(data: bytes) -> bytes:
        if kind == "":
            return data
        try:
            return zlib.decompress(data) if kind == "ZLIB" else gzip.decompress(data)
        except (zlib.error, OSError, EOFError) as e:
            raise DataLossError(f"inflate() failed: {e}") from None
    return one


decode_compressed_op = _register("decode_compressed", lambda x, *, kind: _element_map(_decompress(kind), x),
                                 _same_shape_string("decode_compressed"), "each string decompressed (ZLIB or GZIP)")


# --- JSON tf.train.Example ------------------------------------------------------------------------------------------
# protobuf's JSON mapping checks and reads the text; the bytes are then written as TF's DecodeJSONExample writes
# them (protobuf's JSON-to-binary path): features in the order of the JSON text, and list values unpacked (one
# tag per value), not in the packed form a message's SerializeToString would choose.
def _delimited(field: int, payload: bytes) -> bytes:
    return encode_varint(field << 3 | 2) + encode_varint(len(payload)) + payload


def _feature_bytes(feature) -> bytes:
    kind = feature.WhichOneof("kind")
    if kind is None:
        return b""
    values = getattr(feature, kind).value
    if kind == "bytes_list":
        body = b"".join(_delimited(1, v) for v in values)
    elif kind == "float_list":
        body = b"".join(b"\x0d" + np.float32(v).tobytes() for v in values)
    else:
        body = b"".join(b"\x08" + encode_varint(int(v)) for v in values)
    return _delimited({"bytes_list": 1, "float_list": 2, "int64_list": 3}[kind], body)


def _json_example(text: bytes) -> bytes:
    try:
        tree = json.loads(text.decode("utf-8"), object_pairs_hook=dict)
        example = json_format.ParseDict(tree, example_proto.Example())
    except (ValueError, json_format.ParseError) as e:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise InvalidArgumentError(f"Error while parsing JSON: {e}") from None
    if not example.HasField("features"):
        return b""
    order = list(((tree.get("features") or {}).get("feature") or {}).keys())
    entries = b"".join(_delimited(1, _delimited(1, key.encode("utf-8")) +
                                  _delimited(2, _feature_bytes(example.features.feature[key])))
                       for key in order)
    return _delimited(1, entries)


decode_json_example_op = _register("decode_json_example", lambda x: _element_map(_json_example, x),
                                   _same_shape_string("decode_json_example"),
                                   "JSON tf.train.Example text as binary Example protos")


# --- matching_files (reads the file system when it runs: stateful, never folded) -------------------------------------
def _matching_kernel(pattern):
    found = []
    for item in np.asarray(pattern, dtype=object).reshape(-1):
        path = item.decode("utf-8") if isinstance(item, bytes) else str(item)
        found += glob.glob(path, include_hidden=True)
    out = np.empty(len(found), dtype=object)
    out[:] = sorted(p.encode("utf-8") for p in found)
    return out


def _matching_infer(pattern):
    _require_string(pattern, "matching_files")
    if pattern._shape is not None and len(pattern._shape) > 1:
        raise ValueError(f"matching_files: pattern must be a scalar or vector, got shape {list(pattern._shape)}")
    return dtypes.string, (None,)


matching_files_op = _register("matching_files", _matching_kernel, _matching_infer,
                              "the sorted file names matching glob patterns", stateful=True)


# --- sparse tensors as three serialized tensors ----------------------------------------------------------------------
def _three(indices, values, shape, dtype) -> list:
    return [serialize_array(np.asarray(indices, np.int64), dtypes.int64), serialize_array(np.asarray(values), dtype),
            serialize_array(np.asarray(shape, np.int64), dtypes.int64)]


def _serialize_sparse_kernel(indices, values, shape, *, dtype):
    out = np.empty(3, dtype=object)
    out[:] = _three(indices, values, shape, dtype)
    return out


def _serialize_many_kernel(indices, values, shape, *, dtype):
    indices, values, shape = np.asarray(indices), np.asarray(values), np.asarray(shape)
    if shape.size < 2:
        raise InvalidArgumentError(f"Rank of input SparseTensor should be > 1, but saw rank: {shape.size}")
    out = np.empty((int(shape[0]), 3), dtype=object)
    for row in range(int(shape[0])):
        mine = indices[:, 0] == row
        out[row] = _three(indices[mine][:, 1:].reshape(-1, shape.size - 1), values[mine], shape[1:], dtype)
    return out


def _sparse_infer(many):
    def infer(indices, values, shape, **_attrs):
        return dtypes.string, ((None, 3) if many else (3,))
    return infer


serialize_sparse_op = _register("serialize_sparse", _serialize_sparse_kernel, _sparse_infer(False),
                                "a SparseTensor's indices, values and shape as three TensorProto strings")
serialize_many_sparse_op = _register("serialize_many_sparse", _serialize_many_kernel, _sparse_infer(True),
                                     "each row of a SparseTensor serialized as serialize_sparse does")


def _deserialize_many_kernel(serialized, *, dtype):
    serialized = np.asarray(serialized, dtype=object)
    if serialized.ndim != 2 or serialized.shape[1] != 3:
        raise InvalidArgumentError(f"Serialized sparse should be a matrix with 3 columns, got shape "
                                   f"{list(serialized.shape)}")
    all_indices, all_values, shapes = [], [], []
    for row, (ind, val, shp) in enumerate(serialized):
        values_proto = tensor_pb2.TensorProto.FromString(val)
        if values_proto.dtype != dtype.as_datatype_enum:
            raise InvalidArgumentError(f"Requested SparseTensor of type {_tf_type_name(dtype)} but "
                                       f"SparseTensor[{row}].values.dtype() == "
                                       f"{_tf_type_name(codec.data_dtype(values_proto.dtype))}")
        indices = parse_array(ind, dtypes.int64)
        shape = parse_array(shp, dtypes.int64)
        if shapes and shape.size != shapes[0].size:
            raise InvalidArgumentError(f"Inconsistent shape across SparseTensors: rank prior to SparseTensor[{row}] "
                                       f"was: {shapes[0].size} but rank of SparseTensor[{row}] is: {shape.size}")
        shapes.append(shape)
        indices = indices.reshape(-1, shape.size)
        all_indices.append(np.concatenate([np.full((indices.shape[0], 1), row, np.int64), indices], axis=1))
        all_values.append(codec.decode(values_proto, dtype).reshape(-1))
    rank = shapes[0].size if shapes else 0
    dense = np.concatenate([[len(shapes)], np.max(np.stack(shapes), axis=0) if shapes else np.zeros(0, np.int64)])
    indices = np.concatenate(all_indices) if all_indices else np.zeros((0, rank + 1), np.int64)
    values = np.concatenate(all_values) if all_values else np.zeros(0, dtype.np)
    return indices.astype(np.int64), values.astype(dtype.np), dense.astype(np.int64)


def _deserialize_many_infer(serialized, *, dtype):
    _require_string(serialized, "deserialize_many_sparse")
    return [(dtypes.int64, (None, None)), (dtype, (None,)), (dtypes.int64, (None,))]


deserialize_many_sparse_op = _register("deserialize_many_sparse", _deserialize_many_kernel, _deserialize_many_infer,
                                       "a [N, 3] batch of serialized SparseTensors as one SparseTensor of rank + 1")
