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

    # a SavedModel writes it as a HashTableV2 of its entries, and its lookup as Keras 3's TF backend writes it
    # (graph_def/rules_lookup.py); `_saved_settings` lets tinytf's loader rebuild the table itself
    _saves_as_tf_table = True

    def _saved_settings(self) -> dict:
        """What a SavedModel keeps of this table besides its entries, so tinytf's loader rebuilds it."""
        def plain(value):
            return value.decode("latin-1") if isinstance(value, bytes) else value

        return {"invert": self._invert, "num_oov_indices": self._num_oov, "oov_start": self._oov_start,
                "default_value": plain(self._default), "mask_key": plain(self._mask_key),
                "mask_value": plain(self._mask_value), "hash_integers": self._hash_integers, "salt": self._salt}

    @classmethod
    def _from_saved_settings(cls, key_dtype, value_dtype, settings: dict):
        def raw(value, dtype):
            return value.encode("latin-1") if isinstance(value, str) and dtype.is_string else value

        return cls(key_dtype, value_dtype, invert=settings["invert"], num_oov_indices=settings["num_oov_indices"],
                   oov_start=settings["oov_start"], default_value=raw(settings["default_value"], value_dtype),
                   mask_key=raw(settings["mask_key"], key_dtype), mask_value=raw(settings["mask_value"], value_dtype),
                   oov_method="farmhash" if settings["hash_integers"] else "floormod", salt=settings["salt"])

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
