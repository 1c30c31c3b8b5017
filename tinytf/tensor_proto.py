"""tf.make_tensor_proto / tf.make_ndarray: numpy values <-> TF's TensorProto message (the tensorboard package's
compiled protobufs, which tinytf already uses for summaries and SavedModels). make_tensor_proto follows TF's
tensor_util: full-size numeric arrays of more than one element go to `tensor_content`, everything else (scalars,
values splatted over a larger `shape`, bools, strings) to the typed `*_val` fields."""

from __future__ import annotations

import numpy as np
from tensorboard.compat.proto import tensor_pb2, types_pb2

from tinytf.runtime import dtypes
from tinytf.runtime.ops import tensor_proto_codec as codec

# TF's _TENSOR_CONTENT_TYPES (without the float8 and quantized types tinytf lacks)
_CONTENT_TYPES = frozenset(("float16", "float32", "float64", "int32", "uint8", "int16", "int8", "int64",
                            "uint32", "uint64"))


def _dense_dims(values):
    """The shape a nested Python list spells, as TF's _GetDenseDimensions (first element of each level)."""
    dims = []
    while isinstance(values, (list, tuple)):
        dims.append(len(values))
        if not values:
            break
        values = values[0]
    return dims


def _check_compatible(values, dtype):
    """TF's _AssertCompatible for integer and bool dtypes: no float (or other) element is cast silently."""
    if dtype is None or not (dtype.is_integer or dtype.is_bool):
        return
    stack = [values]
    while stack:
        item = stack.pop()
        if isinstance(item, (list, tuple)):
            stack.extend(item)
        elif not isinstance(item, (int, np.integer, bool, np.bool_)) or (dtype.is_integer and isinstance(item, bool)):
            raise TypeError(f"Expected {dtype.name}, but got {item!r} of type '{type(item).__name__}'.")


def make_tensor_proto(values, dtype=None, shape=None, verify_shape=False, allow_broadcast=False):
    """Create a TensorProto from `values` (a Python value, numpy array or eager tensor): TF's dtype defaults
    (Python floats float32, Python ints int32 when they fit), a `shape` that may splat fewer values, TypeError
    when `verify_shape` and the shapes differ, ValueError for more values than `shape` holds."""
    if allow_broadcast and verify_shape:
        raise ValueError("allow_broadcast and verify_shape are not both allowed.")
    if isinstance(values, tensor_pb2.TensorProto):
        return values
    dtype = dtypes.as_dtype(dtype) if dtype else None
    if hasattr(values, "numpy") and hasattr(values, "dtype"):  # an eager tensor: its array, as TF's __array__
        values = values.numpy()
    if isinstance(values, (np.ndarray, np.generic)):
        nparray = values.astype(dtype.np) if dtype is not None and not dtype.is_string else np.asarray(values)
    else:
        if values is None:
            raise ValueError("None values not supported.")
        np_type = None if dtype is None or dtype.is_string else dtype.np
        if shape is not None and int(np.prod(shape, dtype=np.int64)) == 0:
            nparray = np.empty(shape, dtype=np_type)
        else:
            _check_compatible(values, dtype)
            nparray = np.array(values, np_type)
            if list(nparray.shape) != _dense_dims(values):
                raise ValueError(f"Expected values {values} to be a dense tensor with shape {_dense_dims(values)}, "
                                 f"but got shape {list(nparray.shape)}.")
        if nparray.dtype == np.float64 and dtype is None:
            nparray = nparray.astype(np.float32)
        elif nparray.dtype == np.int64 and dtype is None:
            narrow = nparray.astype(np.int32)
            if np.array_equal(narrow, nparray):
                nparray = narrow
    if nparray.dtype.kind in "USO":
        value_dtype = dtypes.string
    else:
        try:
            value_dtype = dtypes.as_dtype(nparray.dtype)
        except TypeError:
            raise TypeError(f"Unrecognized data type: {nparray.dtype}.") from None
    if dtype is not None and dtype is not value_dtype:
        raise TypeError(f"`dtype` {dtype!r} is not compatible with {values} of dtype {nparray.dtype}.")
    if shape is None:
        shape, same_size, size = nparray.shape, True, nparray.size
    else:
        shape = [int(d) for d in shape]
        size = int(np.prod(shape, dtype=np.int64))
        same_size = size == nparray.size
        if allow_broadcast:
            if nparray.shape not in ((1,), ()) and nparray.size != size:
                raise TypeError(f"Expected Tensor's shape: {tuple(shape)}, but got {nparray.shape}.")
        else:
            if verify_shape and nparray.shape != tuple(shape):
                raise TypeError(f"Expected Tensor's shape: {tuple(shape)}, but got {nparray.shape}.")
            if nparray.size > size:
                raise ValueError(f"Too many elements provided. Takes at most {size:d}, but got {nparray.size:d}.")
    proto = tensor_pb2.TensorProto(dtype=value_dtype.as_datatype_enum, tensor_shape=codec.shape_proto(shape))
    if same_size and value_dtype.name in _CONTENT_TYPES and size > 1:
        proto.tensor_content = np.ascontiguousarray(nparray, dtype=nparray.dtype.newbyteorder("<")).tobytes()
        return proto
    flat = nparray.ravel()
    if value_dtype.is_string:
        proto.string_val.extend(x if isinstance(x, bytes) else str(x).encode() for x in flat)
    elif value_dtype.name in ("float16", "bfloat16"):
        proto.half_val.extend(int(b) for b in flat.view(np.uint16))
    elif value_dtype.is_complex:
        field = proto.scomplex_val if value_dtype.name == "complex64" else proto.dcomplex_val
        field.extend(float(part) for z in flat for part in (z.real, z.imag))
    else:
        getattr(proto, codec._VAL_FIELDS[value_dtype.as_datatype_enum]).extend(flat.tolist())
    return proto


def make_ndarray(tensor):
    """The numpy array a TensorProto holds (its dtype and shape; a splat of its last typed value where it
    lists fewer values than the shape needs)."""
    if not isinstance(tensor, tensor_pb2.TensorProto):
        raise TypeError(f"make_ndarray expects a TensorProto, got {type(tensor).__name__}")
    if tensor.dtype in (types_pb2.DT_RESOURCE, types_pb2.DT_VARIANT):
        raise TypeError(f"Unsupported tensor type: {tensor.dtype}. See "
                        "https://www.tensorflow.org/api_docs/python/tf/dtypes for supported TF dtypes.")
    return codec.decode(tensor, codec.data_dtype(tensor.dtype))
