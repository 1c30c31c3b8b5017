"""tf.io.SparseFeature: a SparseTensor parsed from an Example's index feature(s) and value feature, as TF builds it
(parsing_config.py): the index and value keys are parsed as VarLenFeatures, then joined into one SparseTensor of
dense shape `size` (with the batch dimension first for a batch), its entries sorted unless `already_sorted`.
The index and value keys are in the result only if they are keys of the features dict themselves."""

from __future__ import annotations

import collections

from tinytf.runtime import dtypes


class SparseFeature(collections.namedtuple("SparseFeature",
                                           ["index_key", "value_key", "dtype", "size", "already_sorted"])):
    """`tf.io.SparseFeature(index_key, value_key, dtype, size, already_sorted=False)`: `index_key` names one int64
    feature per dimension of the result (a string or a list), `value_key` the values' feature, `size` its dense
    shape (an int or a list, one per index key)."""

    def __new__(cls, index_key, value_key, dtype, size, already_sorted=False):
        return super().__new__(cls, index_key, value_key, dtypes.as_dtype(dtype), size, already_sorted)

    @property
    def index_keys(self) -> list:
        return [self.index_key] if isinstance(self.index_key, str) else list(self.index_key)

    @property
    def sizes(self) -> list:
        return [int(self.size)] if isinstance(self.size, int) else [int(s) for s in self.size]


def expand(features: dict):
    """(the features with each SparseFeature replaced by VarLenFeatures of its keys, {key: SparseFeature})."""
    from .parsing import VarLenFeature

    composite = {k: f for k, f in features.items() if isinstance(f, SparseFeature)}
    if not composite:
        return features, composite
    plain = {k: f for k, f in features.items() if not isinstance(f, SparseFeature)}
    for key, feature in composite.items():
        if len(feature.index_keys) != len(feature.sizes):
            raise ValueError(f"SparseFeature {key}: index_key and size must have the same length, got "
                             f"{feature.index_keys} and {feature.size}")
        for index_key in feature.index_keys:
            plain.setdefault(index_key, VarLenFeature(dtypes.int64))
        plain.setdefault(feature.value_key, VarLenFeature(feature.dtype))
    return plain, composite


def combine(result: dict, composite: dict, requested) -> dict:
    """The parse result with each SparseFeature's SparseTensor built, and the keys only it needed dropped."""
    if not composite:
        return result
    import tinytf as tf

    for key, feature in composite.items():
        ids = [result[k] for k in feature.index_keys]
        values = result[feature.value_key]
        counts = {int(t.values.shape[0]) for t in ids + [values] if t.values.shape[0] is not None}
        if len(counts) > 1:
            a, b = sorted(counts, reverse=True)[:2]
            raise ValueError(f"Dimensions {a} and {b} are not compatible (SparseFeature {key}: its index and value "
                             "features hold different numbers of values)")
        leading = ids[0].indices[:, :-1]
        indices = tf.concat([leading] + [tf.reshape(t.values, [-1, 1]) for t in ids], axis=1)
        dense_shape = tf.concat([ids[0].dense_shape[:-1], tf.constant(feature.sizes, tf.int64)], axis=0)
        sparse = tf.SparseTensor(indices, values.values, dense_shape)
        result[key] = sparse if feature.already_sorted else tf.sparse.reorder(sparse)
    return {k: v for k, v in result.items() if k in requested}
