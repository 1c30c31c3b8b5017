"""TF's top-level names that TF2 programs use daily and that belong to no namespace of their own (tf.repeat,
tf.sequence_mask, tf.group, tf.fingerprint, ...). Each is built on registered ops or on other public functions;
tinytf/__init__.py exports them."""

from __future__ import annotations

from tinytf.runtime.dispatch import apply, convert_to_tensor
from tinytf.runtime.ops import string_hash as _hash_ops


def fingerprint(data, method: str = "farmhash64", name=None):
    """One FarmHash Fingerprint64 per row of `data` (its first axis), as uint8 of shape [rows, 8]: the 8 bytes of
    the fingerprint, little-endian. Numeric rows hash their bytes; string rows hash their strings' fingerprints."""
    return apply(_hash_ops.fingerprint_op, (convert_to_tensor(data),), {"method": method}, name=name)
