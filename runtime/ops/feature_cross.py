"""Hashed feature crosses (the dense case of tf.sparse.cross_hashed that Keras' HashedCrossing uses): for each
row, TF's HashCrosser folds the features' hashes into `hash_key` with FingerprintCat64, a string by its
Fingerprint64 and an integer by its own 64-bit value ("no need to hash ints"), then takes the result modulo
`num_buckets`. Checked against TF 2.21's SparseCrossHashed bit for bit (tests/conformance)."""

from __future__ import annotations

import numpy as np

from .. import dtypes, shapes
from ..dispatch import apply
from ..registry import OpDef, register
from .fingerprint import fingerprint64, fingerprint_cat64

_MASK = (1 << 64) - 1
DEFAULT_HASH_KEY = 0xDECAFCAFFE  # tf.sparse.cross_hashed's default hash_key


def _feature_hash(value) -> int:
    return fingerprint64(value) if isinstance(value, bytes) else int(value) & _MASK


def _cross_kernel(*features, num_buckets, hash_key):
    columns = [np.asarray(f).reshape(-1).tolist() for f in features]
    out = np.empty(len(columns[0]), dtype=np.int64)
    modulo = num_buckets if num_buckets > 0 else (1 << 63) - 1
    for row, values in enumerate(zip(*columns)):
        hashed = hash_key
        for value in values:
            hashed = fingerprint_cat64(hashed, _feature_hash(value))
        out[row] = hashed % modulo
    return out


def _infer_cross(*features, num_buckets, hash_key):
    if len(features) < 2:
        raise ValueError(f"a hashed cross needs at least two features, got {len(features)}")
    length = None
    for f in features:
        if not (f.dtype.is_string or f.dtype is dtypes.int64):
            raise TypeError(f"hashed cross features must be string or int64, got {f.dtype.name}")
        if f._shape is not None and len(f._shape) != 1:
            raise ValueError(f"hashed cross features must be vectors (one value a row), got shape "
                             f"{shapes.fmt(f._shape)}")
        if f._shape is not None and f._shape[0] is not None:
            if length is not None and length != f._shape[0]:
                raise ValueError(f"hashed cross features must have the same length, got {length} and {f._shape[0]}")
            length = f._shape[0]
    return dtypes.int64, (length,)


cross_hashed_op = register(OpDef(
    "cross_hashed", _cross_kernel, _infer_cross, differentiable=False,
    doc="one hashed cross a row of single-valued features (TF's SparseCrossHashed on dense columns)"))


def cross_hashed_rows(features, num_buckets: int, hash_key: int = DEFAULT_HASH_KEY):
    """The bucket of each row's cross of `features` (1-D string or int64 tensors of one length)."""
    return apply(cross_hashed_op, tuple(features), {"num_buckets": int(num_buckets), "hash_key": int(hash_key)})
