"""Hashing ops: tf.strings.to_hash_bucket_fast / _strong / to_hash_bucket and tf.fingerprint.

The hash functions themselves (FarmHash Fingerprint64, SipHash-2-4, TF's legacy MurmurHash64A) are in
fingerprint.py; these kernels apply them per string (or per row of a tensor's bytes) and reduce modulo the number
of buckets, as TF's StringToHashBucket* and Fingerprint kernels do. None has a gradient."""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..registry import OpDef, register
from .fingerprint import fingerprint64, murmur64, siphash24


def _require_string(x, op_name):
    if not x.dtype.is_string:
        raise TypeError(f"{op_name}: the input was expected to be a string tensor but is a {x.dtype.name} tensor")


def _bucket_kernel(hash_fn):
    def kernel(x, *, num_buckets, **key):
        array = np.asarray(x, dtype=object)
        out = np.empty(array.shape, dtype=np.int64)
        flat_out = out.reshape(-1)
        for i, item in enumerate(array.reshape(-1)):
            flat_out[i] = hash_fn(item, **key) % num_buckets
        return out

    return kernel


def _bucket_infer(op_name):
    def infer(x, *, num_buckets, **_key):
        _require_string(x, op_name)
        if num_buckets < 1:
            raise ValueError(f"{op_name}: num_buckets must be at least 1, got {num_buckets}")
        return dtypes.int64, x._shape

    return infer


def _strong_hash(item, *, key):
    return siphash24(key[0], key[1], item)


to_hash_bucket_fast_op = register(OpDef(
    "string_to_hash_bucket_fast", _bucket_kernel(fingerprint64), _bucket_infer("to_hash_bucket_fast"),
    differentiable=False, doc="FarmHash Fingerprint64 of each string, modulo num_buckets"))
to_hash_bucket_strong_op = register(OpDef(
    "string_to_hash_bucket_strong", _bucket_kernel(_strong_hash), _bucket_infer("to_hash_bucket_strong"),
    differentiable=False, doc="SipHash-2-4 of each string under a 128-bit key, modulo num_buckets"))
to_hash_bucket_op = register(OpDef(
    "string_to_hash_bucket", _bucket_kernel(murmur64), _bucket_infer("to_hash_bucket"),
    differentiable=False, doc="TF's legacy 64-bit hash of each string, modulo num_buckets"))


def _row_bytes(x) -> list:
    """The bytes of each row (along axis 0) that TF's Fingerprint hashes: a numeric row's little-endian bytes;
    a string row's strings themselves when each row holds one string, else the concatenated Fingerprint64s of
    its strings."""
    if x.dtype.hasobject:
        rows = np.asarray(x, dtype=object).reshape(x.shape[0], -1)
        if rows.shape[1] == 1:
            return [bytes(row[0]) for row in rows]
        return [b"".join(fingerprint64(s).to_bytes(8, "little") for s in row) for row in rows]
    rows = np.ascontiguousarray(x, dtype=x.dtype.newbyteorder("<")).reshape(x.shape[0], -1)
    return [row.tobytes() for row in rows]


def _fingerprint_kernel(x, *, method):
    rows = _row_bytes(x)
    out = np.empty((len(rows), 8), dtype=np.uint8)
    for i, data in enumerate(rows):
        out[i] = np.frombuffer(fingerprint64(data).to_bytes(8, "little"), dtype=np.uint8)
    return out


def _fingerprint_infer(x, *, method):
    if method != "farmhash64":
        raise ValueError(f"tf.fingerprint: unsupported method {method!r}; TF supports only 'farmhash64'")
    if x._shape is not None and len(x._shape) == 0:
        raise ValueError("tf.fingerprint: the input must have rank 1 or more (one fingerprint per row), got a scalar")
    return dtypes.uint8, (None if x._shape is None else x._shape[0], 8)


fingerprint_op = register(OpDef("fingerprint", _fingerprint_kernel, _fingerprint_infer, differentiable=False,
                                doc="a FarmHash Fingerprint64 (8 little-endian bytes) of each row"))
