"""TF1's own versions of tf.io functions whose arguments TF2 changed: decode_raw (input_bytes or the deprecated
`bytes`), serialize_sparse and serialize_many_sparse (`name` before `out_type`). tf.compat.v1 and
tf.compat.v1.io both hold them, as in TF 2.21."""

from __future__ import annotations

from tinytf.io import serialize as _io
from tinytf.runtime import dtypes


def decode_raw(input_bytes=None, out_type=None, little_endian: bool = True, name=None, bytes=None):  # noqa: A002
    """tf.compat.v1.decode_raw: tf.io.decode_raw with `bytes`, TF1's name of `input_bytes`, still accepted."""
    if input_bytes is not None and bytes is not None:
        raise ValueError("Cannot specify both 'input_bytes' and 'bytes'")
    if input_bytes is None:
        input_bytes = bytes
    if input_bytes is None:
        raise ValueError("decode_raw: input_bytes is required")
    return _io.decode_raw(input_bytes, out_type, little_endian=little_endian, name=name)


def serialize_sparse(sp_input, name=None, out_type=dtypes.string):
    """tf.compat.v1.serialize_sparse: as tf.io.serialize_sparse, with `name` second."""
    return _io.serialize_sparse(sp_input, out_type=out_type, name=name)


def serialize_many_sparse(sp_input, name=None, out_type=dtypes.string):
    """tf.compat.v1.serialize_many_sparse: as tf.io.serialize_many_sparse, with `name` second."""
    return _io.serialize_many_sparse(sp_input, out_type=out_type, name=name)


V1_IO_NAMES = ("decode_raw", "serialize_sparse", "serialize_many_sparse")
