"""tinytf node attributes <-> TensorFlow AttrValue protos, losslessly.

A tinytf attribute is a plain value (int, float, bool, str, a DType, a numpy array, a nested tuple of
those) or a Graph (a cond branch, a loop body). Where AttrValue has a field for the value it is used (i, f,
b, s, type, tensor); structures TF has no field for (tuples, None, slices, a random op's seeds) are written
as a NameAttrList (the `func` field) named `tinytf.<kind>` holding the parts, and a Graph as a NameAttrList
naming its FunctionDef in the library. No pickles: every value is data that any protobuf reader can see."""

from __future__ import annotations

import numpy as np
from tensorboard.compat.proto import attr_value_pb2, tensor_pb2, types_pb2

from tinytf.runtime import dtypes
from tinytf.runtime.graph import RESOURCE, Graph
from tinytf.runtime.ops import tensor_proto_codec as _codec
from tinytf.runtime.ops.tensor_array import TensorList
from tinytf.runtime.ops.tensor_proto_codec import shape_of_proto, shape_proto  # noqa: F401 - re-exported

_TINYTF = "tinytf."


class UnsavableAttr(TypeError):
    """An attribute value that has no data form (a Python object the graph holds)."""


def special_dtypes() -> dict:
    """Element types tinytf keeps outside TF's enum (each its own object): name -> DType."""
    from tinytf.runtime.ops import data, tensor_array

    return {"resource": RESOURCE, "variant.data": data.VARIANT, "variant.tensor_array": tensor_array.VARIANT}


def markers() -> dict:
    """Marker objects ops keep in attributes (where tf.print splices its tensors): name -> the object."""
    from tinytf.runtime.ops import io

    return {"print.tensor": io._TENSOR, "print.bare_string": io._BARE_STRING}


def dtype_enum(dtype) -> int:
    """TF's DataType number of a tinytf dtype (resource and variant included)."""
    if dtype is RESOURCE:
        return types_pb2.DT_RESOURCE
    if dtype.name == "variant":
        return types_pb2.DT_VARIANT
    return dtypes._ENUM[dtype.name]


def dtype_of_enum(enum: int):
    if enum == types_pb2.DT_RESOURCE:
        return RESOURCE
    found = dtypes._BY_ENUM.get(enum % 100)  # TF's *_REF types are the plain ones plus 100
    if found is None:
        raise TypeError(f"TensorFlow dtype {types_pb2.DataType.Name(enum)} has no tinytf counterpart")
    return found


def tensor_proto(array) -> tensor_pb2.TensorProto:
    """A numpy array as a TensorProto (bytes in tensor_content, strings in string_val): the engine's codec,
    shared with tf.io.serialize_tensor."""
    array = np.asarray(array)
    dtype = dtypes.of_numpy(array)
    return _codec.encode(array, dtype, dtype_enum(dtype))


def array_of_proto(proto) -> np.ndarray:
    """A TensorProto as a numpy array, from tensor_content or (as TF writes small constants) from the *_val
    fields, where a shorter list repeats its last element."""
    return _codec.decode(proto, dtype_of_enum(proto.dtype))


def _container(kind: str, parts: dict) -> attr_value_pb2.AttrValue:
    value = attr_value_pb2.AttrValue()
    value.func.name = _TINYTF + kind
    for key, part in parts.items():
        value.func.attr[key].CopyFrom(part)
    return value


def encode(value, graph_name) -> attr_value_pb2.AttrValue:
    """One attribute value as an AttrValue; `graph_name(graph)` names the FunctionDef holding a subgraph."""
    if isinstance(value, Graph):
        out = attr_value_pb2.AttrValue()
        out.func.name = graph_name(value)
        return out
    if isinstance(value, dtypes.DType):
        if value in dtypes.ALL:
            return attr_value_pb2.AttrValue(type=dtype_enum(value))
        name = next((k for k, d in special_dtypes().items() if d is value), None)
        if name is None:
            raise UnsavableAttr(f"the dtype {value.name} has no saved form")
        return _container("dtype", {"name": attr_value_pb2.AttrValue(s=name.encode())})
    if isinstance(value, (bool, np.bool_)) and not isinstance(value, np.ndarray):
        return attr_value_pb2.AttrValue(b=bool(value)) if isinstance(value, bool) else _scalar(value)
    if isinstance(value, int):
        return attr_value_pb2.AttrValue(i=value)
    if isinstance(value, float):
        return attr_value_pb2.AttrValue(f=value) if float(np.float32(value)) == value or not np.isfinite(value) \
            else _container("float64", {"v": attr_value_pb2.AttrValue(tensor=tensor_proto(np.float64(value)))})
    if isinstance(value, str):
        return attr_value_pb2.AttrValue(s=value.encode())
    if isinstance(value, bytes):
        return _container("bytes", {"v": attr_value_pb2.AttrValue(s=value)})
    if isinstance(value, complex):
        return _container("complex", {"v": attr_value_pb2.AttrValue(tensor=tensor_proto(np.complex128(value)))})
    if value is None:
        return _container("none", {})
    if value is Ellipsis:
        return _container("ellipsis", {})
    if isinstance(value, np.ndarray):
        return attr_value_pb2.AttrValue(tensor=tensor_proto(value))
    if isinstance(value, np.generic):
        return _scalar(value)
    if type(value) is TensorList:  # a constant TensorArray value (the empty gradient of one): None where unset
        return _container("tensor_list", {str(i): encode(v, graph_name) for i, v in enumerate(value)})
    if isinstance(value, (tuple, list)):
        kind = "tuple" if isinstance(value, tuple) else "list"
        return _container(kind, {str(i): encode(v, graph_name) for i, v in enumerate(value)})
    if isinstance(value, dict):
        parts = {}
        for i, (k, v) in enumerate(value.items()):
            parts[f"k{i}"], parts[f"v{i}"] = encode(k, graph_name), encode(v, graph_name)
        return _container("dict", parts)
    if isinstance(value, slice):
        return _container("slice", {"start": encode(value.start, graph_name), "stop": encode(value.stop, graph_name),
                                    "step": encode(value.step, graph_name)})
    from tinytf.runtime.ops.random import RandomStream

    marker = next((name for name, obj in markers().items() if obj is value), None)
    if marker is not None:
        return _container("marker", {"name": attr_value_pb2.AttrValue(s=marker.encode())})
    if isinstance(value, RandomStream):
        return _container("random_stream", {"seed": encode(value.seed, graph_name),
                                            "shared": attr_value_pb2.AttrValue(b=value.shared)})
    raise UnsavableAttr(f"a value of type {type(value).__name__} ({value!r:.60}) has no saved form")


def _scalar(value) -> attr_value_pb2.AttrValue:
    return _container("scalar", {"v": attr_value_pb2.AttrValue(tensor=tensor_proto(np.asarray(value)))})


def decode(value: attr_value_pb2.AttrValue, graph_of):
    """The inverse of encode; `graph_of(name, attrs)` rebuilds a subgraph from its FunctionDef's name."""
    field = value.WhichOneof("value")
    if field == "i":
        return int(value.i)
    if field == "f":
        return float(value.f)
    if field == "b":
        return bool(value.b)
    if field == "s":
        return value.s.decode()
    if field == "type":
        return dtype_of_enum(value.type)
    if field == "tensor":
        return array_of_proto(value.tensor)
    if field == "shape":
        return shape_of_proto(value.shape)
    if field != "func":
        raise ValueError(f"unexpected attribute field {field!r}")
    name, parts = value.func.name, value.func.attr
    if not name.startswith(_TINYTF):
        return graph_of(name)
    kind = name[len(_TINYTF):]
    if kind in ("tuple", "list"):
        items = [decode(parts[str(i)], graph_of) for i in range(len(parts))]
        return tuple(items) if kind == "tuple" else items
    if kind == "tensor_list":
        return TensorList(decode(parts[str(i)], graph_of) for i in range(len(parts)))
    if kind == "dict":
        return {decode(parts[f"k{i}"], graph_of): decode(parts[f"v{i}"], graph_of) for i in range(len(parts) // 2)}
    if kind == "none":
        return None
    if kind == "ellipsis":
        return Ellipsis
    if kind == "bytes":
        return parts["v"].s
    if kind in ("scalar", "float64", "complex"):
        array = array_of_proto(parts["v"].tensor)
        if kind == "scalar":
            return array[()]
        return float(array) if kind == "float64" else complex(array)
    if kind == "slice":
        return slice(*(decode(parts[k], graph_of) for k in ("start", "stop", "step")))
    if kind == "dtype":
        return special_dtypes()[parts["name"].s.decode()]
    if kind == "marker":
        return markers()[parts["name"].s.decode()]
    if kind == "random_stream":
        from tinytf.runtime.ops.random import RandomStream

        return RandomStream(decode(parts["seed"], graph_of), parts["shared"].b)
    raise ValueError(f"unknown saved attribute kind {name!r}")
