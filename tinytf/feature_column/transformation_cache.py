"""The features dict a column reads, with each raw feature and each column's transform computed once.

TF's FeatureTransformationCache: a string key gives the raw feature (a Tensor or SparseTensor; rank 1 gets a trailing
axis, as TF turns a batch of scalars into a [batch, 1] column); a column gives that column's transform, so a
bucketized column read by two crossed columns is bucketized once.
"""

from __future__ import annotations

import tinytf as _tf


def to_tensor_or_sparse(value):
    if isinstance(value, (_tf.SparseTensor, _tf.RaggedTensor)):
        return value
    return _tf.convert_to_tensor(value)


class FeatureTransformationCache:
    """Raw features by key and transformed features by column, each computed on first use."""

    def __init__(self, features):
        if not isinstance(features, dict):
            raise ValueError(f"features should be a dictionary of `Tensor`s. Given type: {type(features)}")
        self._features = dict(features)
        self._cache = {}

    def get(self, key, state_manager=None):
        if key in self._cache:
            return self._cache[key]
        if isinstance(key, str):
            value = self._raw_feature(key)
        else:
            from .base import FeatureColumn
            if not isinstance(key, FeatureColumn):
                raise TypeError(f"Feature {key} is not in features dictionary.")
            value = key._transform_feature(self, state_manager)
            if value is None:
                raise ValueError(f"Column {key.name} is not supported.")
        self._cache[key] = value
        return value

    def _raw_feature(self, key: str):
        if key not in self._features:
            raise ValueError(f"Feature {key} is not in features dictionary.")
        feature = to_tensor_or_sparse(self._features[key])
        rank = len(feature.shape) if feature.shape.rank is not None else None
        if rank == 0:
            raise ValueError(f"Feature (key: {key}) cannot have rank 0. Given: {self._features[key]}")
        if rank == 1:
            # A batch of scalars is a batch of one-element rows, as TF reads it.
            feature = (_tf.sparse.expand_dims(feature, -1) if isinstance(feature, _tf.SparseTensor)
                       else _tf.expand_dims(feature, -1))
        return feature
