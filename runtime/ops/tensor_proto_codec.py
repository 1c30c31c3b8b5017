"""numpy arrays <-> TF's TensorProto, the one codec of tinytf: SavedModel constants (tinytf/saved_model/attr_codec.py)
and tf.io.serialize_tensor / parse_tensor (io_serialize.py) both use it, so a tensor serialized by either reads
back in the other and in TensorFlow.

Writing follows TF's Tensor::AsProtoTensorContent: numbers (bool, float16 and bfloat16 included) as their
little-endian bytes in `tensor_content`, strings in `string_val`. Reading also takes what TF writes for small
or splat constants: the typed *_val fields, where a shorter list repeats its last element."""

from __future__ import annotations

import numpy as np
from tensorboard.compat.proto import tensor_pb2, tensor_shape_pb2, types_pb2

from .. import dtypes


def shape_proto(shape) -> tensor_shape_pb2.TensorShapeProto:
    """None is an unknown rank, a None dimension is -1 (TF's unknown size)."""
    proto = tensor_shape_pb2.TensorShapeProto()
    if shape is None:
        proto.unknown_rank = True
    else:
        for d in shape:
            proto.dim.add(size=-1 if d is None else int(d))
    return proto


def shape_of_proto(proto):
    if proto.unknown_rank:
        return None
    return tuple(None if d.size < 0 else int(d.size) for d in proto.dim)


def encode(array, dtype, enum: int) -> tensor_pb2.TensorProto:
    """`array` (of tinytf dtype `dtype`, TF DataType number `enum`) as a TensorProto."""
    array = np.asarray(array)
    proto = tensor_pb2.TensorProto(dtype=enum, tensor_shape=shape_proto(array.shape))
    if dtype.is_string:
        proto.string_val.extend(x if isinstance(x, bytes) else str(x).encode() for x in array.reshape(-1))
    else:
        little = np.ascontiguousarray(array, dtype=np.dtype(dtype.np).newbyteorder("<"))
        proto.tensor_content = little.tobytes()
    return proto


_VAL_FIELDS = {  # TF's repeated *_val fields, used by TF's writers for small or splat constants
    types_pb2.DT_FLOAT: "float_val", types_pb2.DT_DOUBLE: "double_val", types_pb2.DT_INT32: "int_val",
    types_pb2.DT_INT16: "int_val", types_pb2.DT_INT8: "int_val", types_pb2.DT_UINT8: "int_val",
    types_pb2.DT_UINT16: "int_val", types_pb2.DT_INT64: "int64_val", types_pb2.DT_BOOL: "bool_val",
    types_pb2.DT_UINT32: "uint32_val", types_pb2.DT_UINT64: "uint64_val", types_pb2.DT_HALF: "half_val",
    types_pb2.DT_BFLOAT16: "half_val", types_pb2.DT_COMPLEX64: "scomplex_val",
    types_pb2.DT_COMPLEX128: "dcomplex_val",
}


def decode(proto, dtype) -> np.ndarray:
    """A TensorProto (whose dtype number is that of tinytf's `dtype`) as a numpy array."""
    shape = shape_of_proto(proto.tensor_shape) or ()
    if None in shape:
        raise ValueError(f"a TensorProto of shape {list(shape)} has an unknown dimension")
    count = int(np.prod(shape, dtype=np.int64))
    if dtype.is_string:
        values = list(proto.string_val) if not proto.tensor_content else _string_content(proto.tensor_content, count)
        array = np.empty(count, dtype=object)
        for i in range(count):
            array[i] = values[min(i, len(values) - 1)] if values else b""
        return array.reshape(shape)
    if proto.tensor_content:
        flat = np.frombuffer(proto.tensor_content, dtype=np.dtype(dtype.np).newbyteorder("<")).astype(dtype.np)
        if flat.size != count:
            raise ValueError(f"a TensorProto of shape {list(shape)} holds {flat.size} values")
        return flat.reshape(shape)
    values = list(getattr(proto, _VAL_FIELDS.get(proto.dtype, "float_val")))
    if proto.dtype in (types_pb2.DT_HALF, types_pb2.DT_BFLOAT16):  # stored as their 16-bit patterns
        flat = np.array(values, dtype=np.uint16).view(dtype.np)
    elif proto.dtype in (types_pb2.DT_COMPLEX64, types_pb2.DT_COMPLEX128):  # (real, imag) pairs
        pairs = np.array(values, dtype=np.float64).reshape(-1, 2)
        flat = (pairs[:, 0] + 1j * pairs[:, 1]).astype(dtype.np)
    else:
        flat = np.array(values, dtype=dtype.np)
    if flat.size < count:
        fill = flat[-1] if flat.size else np.zeros((), dtype.np)[()]
        flat = np.concatenate([flat, np.full(count - flat.size, fill, dtype=dtype.np)])
    return flat[:count].reshape(shape)


def _string_content(content: bytes, count: int) -> list:
    """Strings packed in tensor_content (TF's AsProtoTensorContent, as tf.data snapshots write them): the
    varint lengths of all of them, then their bytes one after another."""
    lengths, at = [], 0
    for _ in range(count):
        shift = n = 0
        while True:
            byte = content[at]
            at += 1
            n |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                break
        lengths.append(n)
    out = []
    for n in lengths:
        out.append(bytes(content[at:at + n]))
        at += n
    return out


def data_dtype(enum: int):
    """The tinytf dtype of a TF DataType number (resource and variant have no data form here)."""
    found = dtypes._BY_ENUM.get(enum % 100)  # TF's *_REF types are the plain ones plus 100
    if found is None:
        raise TypeError(f"TensorFlow DataType {enum} has no tinytf counterpart")
    return found
