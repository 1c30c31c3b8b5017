"""keras.layers.StringLookup: strings to integer indices (or back, with invert=True) from a vocabulary."""

from __future__ import annotations

from .index_lookup import IndexLookup


class StringLookup(IndexLookup):
    """Maps string tokens to indices: mask token (if any) at 0, then `num_oov_indices` OOV indices, then the
    vocabulary; OOV tokens hash into the OOV indices (Fingerprint64) when there are several."""

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token="[UNK]", vocabulary=None,
                 idf_weights=None, invert=False, output_mode="int", pad_to_max_tokens=False, sparse=False,
                 encoding="utf-8", name=None, salt=None, **kwargs):
        self.encoding = encoding
        super().__init__(max_tokens=max_tokens, num_oov_indices=num_oov_indices, mask_token=mask_token,
                         oov_token=oov_token, vocabulary=vocabulary, idf_weights=idf_weights, invert=invert,
                         output_mode=output_mode, pad_to_max_tokens=pad_to_max_tokens, sparse=sparse, name=name,
                         salt=salt, vocabulary_dtype="string", **kwargs)

    def get_config(self) -> dict:
        config = super().get_config()
        del config["vocabulary_dtype"]
        return {**config, "encoding": self.encoding}
