"""Small builders of TF's protobuf messages (AttrValue, TensorShapeProto, TensorProto), on the compiled
definitions the tensorboard package ships, so tinytf writes TF's wire format without depending on TF."""

from __future__ import annotations

import numpy as np
from tensorboard.compat.proto import attr_value_pb2, tensor_shape_pb2, types_pb2
from tensorboard.util import tensor_util

_TYPES = {
    "float16": types_pb2.DT_HALF, "bfloat16": types_pb2.DT_BFLOAT16, "float32": types_pb2.DT_FLOAT,
    "float64": types_pb2.DT_DOUBLE, "int8": types_pb2.DT_INT8, "int16": types_pb2.DT_INT16,
    "int32": types_pb2.DT_INT32, "int64": types_pb2.DT_INT64, "uint8": types_pb2.DT_UINT8,
    "uint16": types_pb2.DT_UINT16, "uint32": types_pb2.DT_UINT32, "uint64": types_pb2.DT_UINT64,
    "bool": types_pb2.DT_BOOL, "complex64": types_pb2.DT_COMPLEX64, "complex128": types_pb2.DT_COMPLEX128,
    "string": types_pb2.DT_STRING, "resource": types_pb2.DT_RESOURCE, "variant": types_pb2.DT_VARIANT,
    "qint8": types_pb2.DT_QINT8, "quint8": types_pb2.DT_QUINT8, "qint16": types_pb2.DT_QINT16,
    "quint16": types_pb2.DT_QUINT16, "qint32": types_pb2.DT_QINT32,
}
TYPE_NAMES = {number: name for name, number in _TYPES.items()}


def type_enum(dtype) -> int:
    """TF's DataType number of a tinytf dtype."""
    try:
        return _TYPES[dtype.name]
    except KeyError:
        raise TypeError(f"GraphDef export: the dtype {dtype.name} has no TensorFlow DataType") from None


def shape_proto(shape) -> tensor_shape_pb2.TensorShapeProto:
    """None is an unknown rank, a None dimension is -1 (TF's unknown size)."""
    if shape is None:
        return tensor_shape_pb2.TensorShapeProto(unknown_rank=True)
    return tensor_shape_pb2.TensorShapeProto(
        dim=[tensor_shape_pb2.TensorShapeProto.Dim(size=-1 if d is None else int(d)) for d in shape])


def attr_type(dtype) -> attr_value_pb2.AttrValue:
    return attr_value_pb2.AttrValue(type=type_enum(dtype))


def attr_types(dtypes) -> attr_value_pb2.AttrValue:
    return attr_value_pb2.AttrValue(list=attr_value_pb2.AttrValue.ListValue(type=[type_enum(d) for d in dtypes]))


def attr_shape(shape) -> attr_value_pb2.AttrValue:
    return attr_value_pb2.AttrValue(shape=shape_proto(shape))


def attr_shapes(shapes) -> attr_value_pb2.AttrValue:
    return attr_value_pb2.AttrValue(list=attr_value_pb2.AttrValue.ListValue(shape=[shape_proto(s) for s in shapes]))


def attr_ints(values) -> attr_value_pb2.AttrValue:
    return attr_value_pb2.AttrValue(list=attr_value_pb2.AttrValue.ListValue(i=[int(v) for v in values]))


def attr_func(name: str) -> attr_value_pb2.AttrValue:
    return attr_value_pb2.AttrValue(func=attr_value_pb2.NameAttrList(name=name))


def attr(value) -> attr_value_pb2.AttrValue:
    """An AttrValue of a Python bool, int, float or str."""
    if isinstance(value, bool | np.bool_):
        return attr_value_pb2.AttrValue(b=bool(value))
    if isinstance(value, int | np.integer):
        return attr_value_pb2.AttrValue(i=int(value))
    if isinstance(value, float | np.floating):
        return attr_value_pb2.AttrValue(f=float(value))
    return attr_value_pb2.AttrValue(s=str(value).encode())


def attr_tensor(array, dtype) -> attr_value_pb2.AttrValue:
    """A Const's value: numpy's array in TF's TensorProto (strings as bytes)."""
    array = np.asarray(array, dtype=object if dtype.name == "string" else dtype.np)
    if dtype.name == "string":
        array = np.vectorize(lambda s: s if isinstance(s, bytes) else str(s).encode(), otypes=[object])(array) \
            if array.size else array
    if dtype.name == "bfloat16":  # tensorboard's make_tensor_proto has no bfloat16: its raw bytes, as TF's
        from tensorboard.compat.proto import tensor_pb2

        proto = tensor_pb2.TensorProto(dtype=type_enum(dtype), tensor_shape=shape_proto(array.shape),
                                       tensor_content=np.ascontiguousarray(array).tobytes())
        return attr_value_pb2.AttrValue(tensor=proto)
    proto = tensor_util.make_tensor_proto(array)
    proto.dtype = type_enum(dtype)
    return attr_value_pb2.AttrValue(tensor=proto)
