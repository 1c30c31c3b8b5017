"""tf.io's byte-level functions: tensors and SparseTensors to and from TensorProto bytes, web-safe base64,
raw bytes read as numbers, decompression, JSON Examples, and file-name matching. Each wraps one op of
runtime/ops/io_serialize.py."""

from __future__ import annotations

from tinytf.runtime import dtypes
from tinytf.runtime.dispatch import apply, convert_to_tensor
from tinytf.runtime.errors import InvalidArgumentError
from tinytf.runtime.ops import io_serialize as _ops
from tinytf.sparse.sparse_tensor import SparseTensor
from tinytf.variables import Variable


def _strings(value, what):
    tensor = convert_to_tensor(value, dtype_hint=dtypes.string)
    if not tensor.dtype.is_string:
        raise TypeError(f"{what}: expected a string tensor, got {tensor.dtype.name}")
    return tensor


def serialize_tensor(tensor, name=None):
    """The tensor as the bytes of a TensorProto (a string scalar), readable by tf.io.parse_tensor here and in
    TensorFlow."""
    x = convert_to_tensor(tensor)
    return apply(_ops.serialize_tensor_op, (x,), {"dtype": x.dtype}, name=name)


def parse_tensor(serialized, out_type, name=None):
    """The tensor whose TensorProto bytes `serialized` (a string scalar) holds; its dtype must be `out_type`."""
    return apply(_ops.parse_tensor_op, (_strings(serialized, "parse_tensor"),),
                 {"out_type": dtypes.as_dtype(out_type)}, name=name)


def encode_base64(input, pad: bool = False, name=None):  # noqa: A002 - TF's argument name
    """Each string in web-safe base64 (- and _ for + and /), without '=' padding unless `pad`."""
    return apply(_ops.encode_base64_op, (_strings(input, "encode_base64"),), {"pad": bool(pad)}, name=name)


def decode_base64(input, name=None):  # noqa: A002
    """Each web-safe base64 string decoded ('=' padding optional)."""
    return apply(_ops.decode_base64_op, (_strings(input, "decode_base64"),), name=name)


def decode_raw(input_bytes, out_type, little_endian: bool = True, fixed_length=None, name=None):
    """Each string's bytes read as numbers of `out_type`: shape input.shape + [n]. All strings must have the
    same length unless `fixed_length` is given (each is then cut or zero-padded to it)."""
    out_type = dtypes.as_dtype(out_type)
    if out_type.name not in _ops.RAW_TYPES:
        raise InvalidArgumentError(f"Value for attr 'out_type' of {out_type.name} is not in the list of allowed "
                                   f"values: {', '.join(_ops.RAW_TYPES)}")
    x = _strings(input_bytes, "decode_raw")
    if fixed_length is None:
        return apply(_ops.decode_raw_op, (x,), {"out_type": out_type, "little_endian": bool(little_endian)},
                     name=name)
    return apply(_ops.decode_padded_raw_op, (x,), {"out_type": out_type, "fixed_length": int(fixed_length),
                                                   "little_endian": bool(little_endian)}, name=name)


def decode_compressed(bytes, compression_type: str = "", name=None):  # noqa: A002 - TF's argument name
    """Each string decompressed: compression_type "ZLIB", "GZIP", or "" (unchanged)."""
    kind = (compression_type or "").upper()
    if kind == "NONE":
        kind = ""
    if kind not in ("", "ZLIB", "GZIP"):
        raise InvalidArgumentError("Only ZLIB, GZIP or NONE are supported compressions (tinytf has no ZSTD)")
    return apply(_ops.decode_compressed_op, (_strings(bytes, "decode_compressed"),), {"kind": kind}, name=name)


def decode_json_example(json_examples, name=None):
    """tf.train.Example protos written as JSON (protobuf's JSON mapping) to their binary form."""
    return apply(_ops.decode_json_example_op, (_strings(json_examples, "decode_json_example"),), name=name)


def matching_files(pattern, name=None):
    """The sorted file names matching a glob pattern (or a vector of patterns); hidden files included."""
    return apply(_ops.matching_files_op, (_strings(pattern, "matching_files"),), name=name)


def match_filenames_once(pattern, name=None):
    """A non-trainable variable holding matching_files(pattern), computed once, when it is created."""
    return Variable(matching_files(pattern), trainable=False)


def _sparse(sp_input, what) -> SparseTensor:
    if not isinstance(sp_input, SparseTensor):
        raise TypeError(f"{what}: expected a SparseTensor, got {type(sp_input).__name__}")
    return sp_input


def _string_out(out_type, what):
    out_type = dtypes.as_dtype(out_type)
    if out_type is not dtypes.string:
        raise TypeError(f"{what}: tinytf writes out_type=tf.string only (TF's tf.variant form wraps TF's own "
                        f"in-memory tensors), got {out_type.name}")


def serialize_sparse(sp_input, out_type=dtypes.string, name=None):
    """A SparseTensor as a string vector of 3: the TensorProto bytes of its indices, values and dense_shape."""
    _string_out(out_type, "serialize_sparse")
    sp = _sparse(sp_input, "serialize_sparse")
    return apply(_ops.serialize_sparse_op, (sp.indices, sp.values, sp.dense_shape), {"dtype": sp.values.dtype},
                 name=name)


def serialize_many_sparse(sp_input, out_type=dtypes.string, name=None):
    """Each row (first dimension) of a SparseTensor serialized as serialize_sparse does: an [N, 3] string
    matrix."""
    _string_out(out_type, "serialize_many_sparse")
    sp = _sparse(sp_input, "serialize_many_sparse")
    return apply(_ops.serialize_many_sparse_op, (sp.indices, sp.values, sp.dense_shape), {"dtype": sp.values.dtype},
                 name=name)


def deserialize_many_sparse(serialized_sparse, dtype, rank=None, name=None):
    """An [N, 3] matrix of serialized SparseTensors as one SparseTensor of one more dimension (N first), its
    dense shape the largest of theirs. The indices keep their order (reorder them with tf.sparse.reorder)."""
    indices, values, shape = apply(_ops.deserialize_many_sparse_op,
                                   (_strings(serialized_sparse, "deserialize_many_sparse"),),
                                   {"dtype": dtypes.as_dtype(dtype)}, name=name)
    if rank is not None:  # the caller's promise of the result's rank, as static shapes
        indices.set_shape([None, rank])
        shape.set_shape([rank])
    return SparseTensor(indices, values, shape)


__all__ = ["decode_base64", "decode_compressed", "decode_json_example", "decode_raw", "deserialize_many_sparse",
           "encode_base64", "match_filenames_once", "matching_files", "parse_tensor", "serialize_many_sparse",
           "serialize_sparse", "serialize_tensor"]
