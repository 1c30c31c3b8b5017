"""The sequence_* columns: features read as [batch, time, ...] sequences. TF 2.21 consumes them only through
Keras 2's SequenceFeatures (gone from its tf.keras): here, as there, they build, name themselves and give their
parsing spec, and input_layer / linear_model refuse them with TF's message."""

from __future__ import annotations

import collections

import tinytf as _tf

from .base import CategoricalColumn, SequenceDenseColumn, dtype_text
from .categorical import (
    categorical_column_with_hash_bucket,
    categorical_column_with_identity,
    categorical_column_with_vocabulary_file,
    categorical_column_with_vocabulary_list,
)
from .numeric import _shape_tuple


class SequenceCategoricalColumn(CategoricalColumn, collections.namedtuple(
        "SequenceCategoricalColumn", ("categorical_column",))):
    """A categorical column whose ids form one sequence per example."""

    __slots__ = ()

    @property
    def name(self) -> str:
        return self.categorical_column.name

    @property
    def num_buckets(self) -> int:
        return self.categorical_column.num_buckets

    @property
    def parse_example_spec(self) -> dict:
        return self.categorical_column.parse_example_spec

    @property
    def parents(self) -> list:
        return [self.categorical_column]

    def _transform_feature(self, cache, state_manager):
        return self.categorical_column._transform_feature(cache, state_manager)

    def get_sparse_tensors(self, cache, state_manager):
        return self.categorical_column.get_sparse_tensors(cache, state_manager)


def sequence_categorical_column_with_identity(key, num_buckets, default_value=None):
    """`tf.feature_column.sequence_categorical_column_with_identity`."""
    return SequenceCategoricalColumn(categorical_column_with_identity(key, num_buckets, default_value))


def sequence_categorical_column_with_hash_bucket(key, hash_bucket_size, dtype=_tf.string):
    """`tf.feature_column.sequence_categorical_column_with_hash_bucket`."""
    return SequenceCategoricalColumn(categorical_column_with_hash_bucket(key, hash_bucket_size, dtype))


def sequence_categorical_column_with_vocabulary_list(key, vocabulary_list, dtype=None, default_value=-1,
                                                     num_oov_buckets=0):
    """`tf.feature_column.sequence_categorical_column_with_vocabulary_list`."""
    return SequenceCategoricalColumn(categorical_column_with_vocabulary_list(
        key, vocabulary_list, dtype, default_value, num_oov_buckets))


def sequence_categorical_column_with_vocabulary_file(key, vocabulary_file, vocabulary_size=None, num_oov_buckets=0,
                                                     default_value=None, dtype=_tf.string):
    """`tf.feature_column.sequence_categorical_column_with_vocabulary_file` (TF's argument order)."""
    return SequenceCategoricalColumn(categorical_column_with_vocabulary_file(
        key, vocabulary_file, vocabulary_size, dtype, default_value, num_oov_buckets))


class SequenceNumericColumn(SequenceDenseColumn, collections.namedtuple(
        "SequenceNumericColumn", ("key", "shape", "default_value", "dtype", "normalizer_fn"))):
    """Real-valued sequences: each step a value of `shape`, missing steps padded with `default_value`."""

    __slots__ = ()

    @property
    def parse_example_spec(self) -> dict:
        return {self.key: _tf.io.VarLenFeature(self.dtype)}


def sequence_numeric_column(key, shape=(1,), default_value=0.0, dtype=_tf.float32, normalizer_fn=None):
    """`tf.feature_column.sequence_numeric_column`."""
    shape = _shape_tuple(shape, key)
    dtype = _tf.as_dtype(dtype)
    if not (dtype.is_integer or dtype.is_floating):
        raise ValueError(f"dtype must be convertible to float. dtype: {dtype_text(dtype)}, key: {key}")
    if normalizer_fn is not None and not callable(normalizer_fn):
        raise TypeError(f"normalizer_fn must be a callable. Given: {normalizer_fn}")
    return SequenceNumericColumn(key, shape, default_value, dtype, normalizer_fn)
