"""The table behind StringLookup, IntegerLookup and TextVectorization: a tf.lookup table (a captured resource,
so the layers work eagerly, in tf.function and in dataset.map) whose one kernel does all of Keras' per-token
work: the vocabulary lookup, the mask token, and the out-of-vocabulary rule (one OOV index; several, by
`floormod` of integers or by Fingerprint64 of the token's text, as tf.strings.to_hash_bucket_fast, or with a salt
by keyed SipHash, as to_hash_bucket_strong; none, an error naming the OOV values)."""

from __future__ import annotations

from itertools import repeat

import numpy as np

from tinytf.lookup.tables import LookupTable, numpy_values, oov_hash, python_keys
from tinytf.runtime.errors import InvalidArgumentError
from tinytf.runtime.ops.fingerprint import siphash24


class VocabularyTable(LookupTable):
    """token -> index (or index -> token when inverted), with Keras' mask and OOV handling in `_find`."""

    _saves_as_tf_table = False  # its mask and OOV rules are Python: not written in TF's ops

    def __init__(self, key_dtype, value_dtype, *, invert: bool, num_oov_indices: int, oov_start: int,
                 default_value, mask_key=None, mask_value=None, oov_method: str = "floormod", salt=None):
        super().__init__(key_dtype, value_dtype)
        self._invert = invert
        self._num_oov = num_oov_indices
        self._oov_start = oov_start
        self._default = default_value
        self._mask_key, self._mask_value = mask_key, mask_value
        self._hash_integers = oov_method == "farmhash"
        self._salt = salt  # [k0, k1]: keyed SipHash-2-4 (to_hash_bucket_strong) instead of Fingerprint64

    def set_tokens(self, keys: list, values: list) -> None:
        self._entries = dict(zip(keys, values))

    def _find(self, keys, default):
        keys = np.asarray(keys)
        flat = python_keys(keys)
        out = list(map(self._entries.get, flat, repeat(None)))  # one C-level pass; misses are None
        if None in out and (self._invert or self._num_oov == 1):  # one OOV value: a single comprehension
            mask_key, mask_value, default = self._mask_key, self._mask_value, self._default
            out = [v if v is not None else (mask_value if key == mask_key else default) for v, key in zip(out, flat)]
        elif None in out:  # the mask token is never in the vocabulary: misses are masked, OOV, or an error
            mask_key, missing = self._mask_key, []
            for i, found in enumerate(out):
                if found is None:
                    key = flat[i]
                    out[i] = self._mask_value if mask_key is not None and key == mask_key \
                        else self._out_of_vocabulary(key, missing)
            if missing:
                shown = ", ".join(_shown(k) for k in missing)
                raise InvalidArgumentError(f"When `num_oov_indices=0` all inputs should be in vocabulary, found "
                                           f"OOV values [{shown}], consider setting `num_oov_indices=1`.")
        return numpy_values(out, self._value_dtype, keys.shape)

    def _out_of_vocabulary(self, key, missing: list):
        if self._invert or self._num_oov == 1:
            return self._default
        if self._num_oov == 0:
            missing.append(key)
            return -1
        if isinstance(key, bytes) or self._hash_integers:
            if self._salt is not None:
                data = key if isinstance(key, bytes) else str(int(key)).encode()
                return self._oov_start + siphash24(self._salt[0], self._salt[1], data) % self._num_oov
            return self._oov_start + oov_hash(key, self._num_oov)
        return self._oov_start + int(key) % self._num_oov  # floormod: Python's % of ints is floored


def _shown(key) -> str:
    return f'"{key.decode(errors="replace")}"' if isinstance(key, bytes) else str(key)
