"""crossed_column: the hashed cross product of features (TF's SparseCrossHashed: FingerprintCat64 of the parts'
Fingerprint64s, seeded with hash_key, modulo hash_bucket_size), so bucket ids equal TF's."""

from __future__ import annotations

import collections

import tinytf as _tf

from .base import CategoricalColumn
from .categorical import HashedCategoricalColumn


class CrossedColumn(CategoricalColumn, collections.namedtuple(
        "CrossedColumn", ("keys", "hash_bucket_size", "hash_key"))):
    """Crosses raw features (by key) and categorical columns' ids; a crossed key crosses its own leaves."""

    __slots__ = ()

    @property
    def name(self) -> str:
        return "_X_".join(sorted(key if isinstance(key, str) else key.name for key in self.keys))

    @property
    def num_buckets(self) -> int:
        return self.hash_bucket_size

    @property
    def parents(self) -> list:
        return list(self.keys)

    @property
    def parse_example_spec(self) -> dict:
        config = {}
        for key in self.keys:
            if isinstance(key, str):
                config[key] = _tf.io.VarLenFeature(_tf.string)
            else:
                config.update(key.parse_example_spec)
        return config

    def _transform_feature(self, cache, state_manager):
        inputs = []
        for key in _leaf_keys(self):
            if isinstance(key, str):
                inputs.append(cache.get(key, state_manager))
                continue
            ids, weights = key.get_sparse_tensors(cache, state_manager)
            if weights is not None:
                raise ValueError(f"crossed_column does not support weight_tensor, but the given column populates "
                                 f"weight_tensor. Given column: {key.name}")
            inputs.append(ids)
        return _tf.sparse.cross_hashed(inputs, num_buckets=self.hash_bucket_size, hash_key=self.hash_key)


def _leaf_keys(column) -> list:
    leaves = []
    for key in column.keys:
        leaves.extend(_leaf_keys(key) if isinstance(key, CrossedColumn) else [key])
    return leaves


def crossed_column(keys, hash_bucket_size, hash_key=None) -> CrossedColumn:
    """`tf.feature_column.crossed_column`: one id per combination of the keys' values, hashed into
    `hash_bucket_size` buckets."""
    if not hash_bucket_size or hash_bucket_size < 1:
        raise ValueError(f"hash_bucket_size must be > 1. hash_bucket_size: {hash_bucket_size}")
    if not keys or len(keys) < 2:
        raise ValueError(f"keys must be a list with length > 1. Given: {keys}")
    for key in keys:
        if not isinstance(key, (str, CategoricalColumn)):
            raise ValueError(f"Unsupported key type. All keys must be either string, or categorical column except "
                             f"HashedCategoricalColumn. Given: {key}")
        if isinstance(key, HashedCategoricalColumn):
            raise ValueError(f"categorical_column_with_hash_bucket is not supported for crossing. Hashing before "
                             f"crossing will increase probability of collision. Instead, use the feature name as a "
                             f"string. Given: {key}")
    return CrossedColumn(tuple(keys), hash_bucket_size, hash_key)
