"""Hashed feature crosses (the dense case of tf.sparse.cross_hashed that Keras' HashedCrossing uses): for each
row, TF's HashCrosser folds the features' hashes into `hash_key` with FingerprintCat64, a string by its
Fingerprint64 and an integer by its own 64-bit value ("no need to hash ints"), then takes the result modulo
`num_buckets`. Checked against TF 2.21's SparseCrossHashed bit for bit (tests/conformance)."""

from __future__ import annotations

import numpy as np

from .. import dtypes, shapes
from ..dispatch import apply
from ..registry import OpDef, register
from .fingerprint import fingerprint64

_MASK = (1 << 64) - 1
DEFAULT_HASH_KEY = 0xDECAFCAFFE  # tf.sparse.cross_hashed's default hash_key


def _feature_hash(value) -> int:
    """One value's 64-bit hash (sparse_more's general cross hashes value by value)."""
    return fingerprint64(value) if isinstance(value, bytes) else int(value) & _MASK


_CAT_MUL = np.uint64(0xC6A4A7935BD1E995)
_SHIFT = np.uint64(47)


def _shift_mix(v):
    return v ^ (v >> _SHIFT)


def _fingerprint_cat64_columns(fp1, fp2):
    """fingerprint.fingerprint_cat64 on uint64 arrays (numpy's uint64 products wrap modulo 2**64, as the
    C++ does), so a batch of rows costs a few array operations rather than a Python loop a row."""
    result = fp1 ^ _CAT_MUL
    result ^= _shift_mix(fp2 * _CAT_MUL) * _CAT_MUL
    result = result * _CAT_MUL
    result = _shift_mix(result) * _CAT_MUL
    return _shift_mix(result)


def _column_hashes(feature) -> np.ndarray:
    """Each value's 64-bit hash: an integer is its own two's-complement bits, a string its Fingerprint64
    (computed once per distinct string)."""
    values = np.asarray(feature).reshape(-1)
    if values.dtype.kind in "iu":
        return values.astype(np.int64, copy=False).view(np.uint64)
    known: dict = {}  # a dict, not np.unique: sorting an object array of bytes costs ~20x more

    def hashed(value) -> int:
        found = known.get(value)
        if found is None:
            found = known[value] = fingerprint64(value if isinstance(value, bytes) else str(value).encode())
        return found

    return np.fromiter((hashed(v) for v in values.tolist()), dtype=np.uint64, count=values.size)


def _cross_kernel(*features, num_buckets, hash_key):
    columns = [_column_hashes(f) for f in features]
    hashed = np.full(columns[0].shape, hash_key & _MASK, dtype=np.uint64)
    for column in columns:
        hashed = _fingerprint_cat64_columns(hashed, column)
    modulo = num_buckets if num_buckets > 0 else (1 << 63) - 1
    return (hashed % np.uint64(modulo)).astype(np.int64)


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
