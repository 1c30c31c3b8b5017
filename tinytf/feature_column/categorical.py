"""The categorical columns: ids from integers (identity), from hashing, from a vocabulary list or file, and weights."""

from __future__ import annotations

import collections

import tinytf as _tf

from ..compat.v1.variable_scope import enclosing_tf1_graph
from .base import CategoricalColumn, IdWeightPair, dtype_text, to_sparse_dropping, with_values


def _sparse_input(cache, key, state_manager):
    return to_sparse_dropping(cache.get(key, state_manager))


def _check_compatible(column, dtype, key):
    if (column.dtype == _tf.string) != (dtype == _tf.string):
        raise ValueError(f"Column dtype and SparseTensors dtype must be compatible. key: {key}, column dtype: "
                         f"{dtype_text(column.dtype)}, tensor dtype: {dtype_text(dtype)}")


class IdentityCategoricalColumn(CategoricalColumn, collections.namedtuple(
        "IdentityCategoricalColumn", ("key", "number_buckets", "default_value"))):
    """Integer features used as ids; out-of-range ids become `default_value` when one is given."""

    __slots__ = ()

    @property
    def num_buckets(self) -> int:
        return self.number_buckets

    @property
    def parse_example_spec(self) -> dict:
        return {self.key: _tf.io.VarLenFeature(_tf.int64)}

    def _transform_feature(self, cache, state_manager):
        sparse = _sparse_input(cache, self.key, state_manager)
        if not sparse.dtype.is_integer:
            raise ValueError(f"Invalid input, not integer. key: {self.key} dtype: {dtype_text(sparse.dtype)}")
        values = _tf.cast(sparse.values, _tf.int64)
        if self.default_value is not None:
            out_of_range = _tf.logical_or(values < 0, values >= self.number_buckets)
            values = _tf.where(out_of_range, _tf.fill(_tf.shape(values), _tf.constant(self.default_value, _tf.int64)),
                               values)
        return with_values(sparse, values)


def categorical_column_with_identity(key, num_buckets, default_value=None) -> IdentityCategoricalColumn:
    """Integer ids in [0, num_buckets) used as they are (`tf.feature_column.categorical_column_with_identity`)."""
    if num_buckets < 1:
        raise ValueError(f"num_buckets {num_buckets} < 1, column_name {key}")
    if default_value is not None and (default_value < 0 or default_value >= num_buckets):
        raise ValueError(f"default_value {default_value} not in range [0, {num_buckets}), column_name {key}")
    return IdentityCategoricalColumn(key, num_buckets, default_value)


class HashedCategoricalColumn(CategoricalColumn, collections.namedtuple(
        "HashedCategoricalColumn", ("key", "hash_bucket_size", "dtype"))):
    """Strings (or integers, by their decimal text) hashed by Fingerprint64 into `hash_bucket_size` ids."""

    __slots__ = ()

    @property
    def num_buckets(self) -> int:
        return self.hash_bucket_size

    @property
    def parse_example_spec(self) -> dict:
        return {self.key: _tf.io.VarLenFeature(self.dtype)}

    def _transform_feature(self, cache, state_manager):
        sparse = _sparse_input(cache, self.key, state_manager)
        if not (sparse.dtype == _tf.string or sparse.dtype.is_integer):
            raise ValueError(f"input tensors dtype must be string or integer. dtype: {dtype_text(sparse.dtype)}, "
                             f"column_name: {self.key}")
        _check_compatible(self, sparse.dtype, self.key)
        values = sparse.values if sparse.dtype == _tf.string else _tf.strings.as_string(sparse.values)
        return with_values(sparse, _tf.strings.to_hash_bucket_fast(values, self.hash_bucket_size))


def categorical_column_with_hash_bucket(key, hash_bucket_size, dtype=_tf.string) -> HashedCategoricalColumn:
    """Hashed ids (`tf.feature_column.categorical_column_with_hash_bucket`): Fingerprint64(value) % size, as
    tf.strings.to_hash_bucket_fast, so ids equal TF's."""
    if hash_bucket_size is None:
        raise ValueError(f"hash_bucket_size must be set. key: {key}")
    if hash_bucket_size < 1:
        raise ValueError(f"hash_bucket_size must be at least 1. hash_bucket_size: {hash_bucket_size}, key: {key}")
    dtype = _tf.as_dtype(dtype)
    if dtype != _tf.string and not dtype.is_integer:
        raise ValueError(f"dtype must be string or integer. dtype: {dtype_text(dtype)}, column_name: {key}")
    return HashedCategoricalColumn(key, hash_bucket_size, dtype)


def _vocabulary_lookup(sparse, keys, dtype, default_value, num_oov_buckets, column):
    if dtype.is_integer and sparse.dtype.is_integer:
        values = _tf.cast(sparse.values, _tf.int64)
        key_dtype = _tf.int64
    else:
        _check_compatible(column, sparse.dtype, column.key)
        values, key_dtype = sparse.values, _tf.string
    return with_values(sparse, _vocabulary_table(tuple(keys), key_dtype, default_value, num_oov_buckets)
                       .lookup(values))


_EAGER_TABLES: dict = {}  # vocabulary -> its table, made once outside any graph and reused (see below)


def _vocabulary_table(keys, key_dtype, default_value, num_oov_buckets):
    """The lookup table of a vocabulary, made once and kept alive as long as code reads it: in a TF1 graph, one
    per graph, held by the graph; eagerly and in tf.function, one eager table, held here (a table made inside a
    trace would be freed with the trace while the traced code still reads it)."""
    def make():
        initializer = _tf.lookup.KeyValueTensorInitializer(_tf.constant(list(keys), key_dtype),
                                                           _tf.range(len(keys), dtype=_tf.int64))
        if num_oov_buckets:
            return _tf.lookup.StaticVocabularyTable(initializer, num_oov_buckets, lookup_key_dtype=key_dtype)
        return _tf.lookup.StaticHashTable(initializer, default_value)

    cache_key = (keys, key_dtype.name, default_value, num_oov_buckets)
    graph = enclosing_tf1_graph()
    if graph is not None:
        tables = graph.__dict__.setdefault("_feature_column_tables", {})
        if cache_key not in tables:
            tables[cache_key] = make()
        return tables[cache_key]
    table = _EAGER_TABLES.get(cache_key)
    if table is None:
        with _tf.init_scope():
            table = _EAGER_TABLES[cache_key] = make()
    return table


class VocabularyListCategoricalColumn(CategoricalColumn, collections.namedtuple(
        "VocabularyListCategoricalColumn", ("key", "vocabulary_list", "dtype", "default_value", "num_oov_buckets"))):
    """Ids by position in an in-memory vocabulary; unknown values get `default_value` or a hashed OOV bucket."""

    __slots__ = ()

    @property
    def num_buckets(self) -> int:
        return len(self.vocabulary_list) + self.num_oov_buckets

    @property
    def parse_example_spec(self) -> dict:
        return {self.key: _tf.io.VarLenFeature(self.dtype)}

    def _transform_feature(self, cache, state_manager):
        sparse = _sparse_input(cache, self.key, state_manager)
        return _vocabulary_lookup(sparse, list(self.vocabulary_list), self.dtype, self.default_value,
                                  self.num_oov_buckets, self)


def _vocabulary_dtype(values, dtype, key, what):
    is_string = all(isinstance(v, (str, bytes)) for v in values)
    is_int = all(isinstance(v, int) and not isinstance(v, bool) for v in values)
    if not (is_string or is_int):
        raise ValueError(f"Invalid {what} dtype. {what}: {values}, column_name: {key}")
    inferred = _tf.string if is_string else _tf.int64
    if dtype is None:
        return inferred
    dtype = _tf.as_dtype(dtype)
    if (dtype == _tf.string) != is_string:
        raise ValueError(f"{what} dtype must be compatible with dtype. {what}: {values}, {what} dtype: "
                         f"{dtype_text(inferred)}, dtype: {dtype_text(dtype)}, column_name: {key}")
    return dtype


def _check_oov(key, default_value, num_oov_buckets):
    if num_oov_buckets:
        if default_value != -1:
            raise ValueError(f"Can't specify both num_oov_buckets and default_value in {key}.")
        if num_oov_buckets < 0:
            raise ValueError(f"Invalid num_oov_buckets {num_oov_buckets} in {key}.")


def categorical_column_with_vocabulary_list(key, vocabulary_list, dtype=None, default_value=-1,
                                            num_oov_buckets=0) -> VocabularyListCategoricalColumn:
    """Ids by position in `vocabulary_list` (`tf.feature_column.categorical_column_with_vocabulary_list`)."""
    if vocabulary_list is None or len(vocabulary_list) < 1:
        raise ValueError(f"vocabulary_list {vocabulary_list} must be non-empty, column_name: {key}")
    vocabulary_list = list(vocabulary_list)
    if len(set(vocabulary_list)) != len(vocabulary_list):
        raise ValueError(f"Duplicate keys in vocabulary_list {vocabulary_list}, column_name: {key}")
    dtype = _vocabulary_dtype(vocabulary_list, dtype, key, "vocabulary")
    _check_oov(key, default_value, num_oov_buckets)
    return VocabularyListCategoricalColumn(key, tuple(vocabulary_list), dtype, default_value, num_oov_buckets)


class VocabularyFileCategoricalColumn(CategoricalColumn, collections.namedtuple(
        "VocabularyFileCategoricalColumn",
        ("key", "vocabulary_file", "vocabulary_size", "num_oov_buckets", "dtype", "default_value", "file_format"))):
    """Ids by line number in a vocabulary file (its first `vocabulary_size` lines)."""

    __slots__ = ()

    @property
    def num_buckets(self) -> int:
        return self.vocabulary_size + self.num_oov_buckets

    @property
    def parse_example_spec(self) -> dict:
        return {self.key: _tf.io.VarLenFeature(self.dtype)}

    def _transform_feature(self, cache, state_manager):
        sparse = _sparse_input(cache, self.key, state_manager)
        keys = _read_vocabulary(self.vocabulary_file)[:self.vocabulary_size]
        if self.dtype.is_integer:
            keys = [int(k) for k in keys]
        default = -1 if self.default_value is None else self.default_value
        return _vocabulary_lookup(sparse, keys, self.dtype, default, self.num_oov_buckets, self)


def _read_vocabulary(path) -> list:
    with _tf.io.gfile.GFile(path, "r") as f:
        return f.read().splitlines()


def categorical_column_with_vocabulary_file(key, vocabulary_file, vocabulary_size=None, dtype=_tf.string,
                                            default_value=None, num_oov_buckets=0, file_format=None):
    """Ids by line in `vocabulary_file` (`tf.feature_column.categorical_column_with_vocabulary_file`); the size is
    the file's line count when not given."""
    if not vocabulary_file:
        raise ValueError(f"Missing vocabulary_file in {key}.")
    if file_format is not None and file_format != "tfrecord_gzip":
        raise ValueError(f"file_format must be tfrecord_gzip or None. Given: {file_format}")
    if file_format == "tfrecord_gzip":
        raise NotImplementedError("categorical_column_with_vocabulary_file: tfrecord_gzip vocabularies are not "
                                  "read by tinytf; give a text file, one token a line")
    if vocabulary_size is None:
        if not _tf.io.gfile.exists(vocabulary_file):
            raise ValueError(f"vocabulary_file in {key} does not exist.")
        vocabulary_size = len(_read_vocabulary(vocabulary_file))
    if vocabulary_size < 1:
        raise ValueError(f"Invalid vocabulary_size in {key}.")
    if num_oov_buckets:
        if default_value is not None:
            raise ValueError(f"Can't specify both num_oov_buckets and default_value in {key}.")
        if num_oov_buckets < 0:
            raise ValueError(f"Invalid num_oov_buckets {num_oov_buckets} in {key}.")
    dtype = _tf.as_dtype(dtype)
    if dtype != _tf.string and not dtype.is_integer:
        raise ValueError(f"Invalid dtype {dtype_text(dtype)}")
    return VocabularyFileCategoricalColumn(key, vocabulary_file, vocabulary_size, num_oov_buckets, dtype,
                                           default_value, file_format)


class WeightedCategoricalColumn(CategoricalColumn, collections.namedtuple(
        "WeightedCategoricalColumn", ("categorical_column", "weight_feature_key", "dtype"))):
    """A categorical column whose ids carry the weights of another feature (same indices)."""

    __slots__ = ()

    @property
    def name(self) -> str:
        return f"{self.categorical_column.name}_weighted_by_{self.weight_feature_key}"

    @property
    def num_buckets(self) -> int:
        return self.categorical_column.num_buckets

    @property
    def parents(self) -> list:
        return [self.categorical_column, self.weight_feature_key]

    @property
    def parse_example_spec(self) -> dict:
        config = dict(self.categorical_column.parse_example_spec)
        if self.weight_feature_key in config:
            raise ValueError(f"Parse config {config[self.weight_feature_key]} already exists for "
                             f"{self.weight_feature_key}.")
        config[self.weight_feature_key] = _tf.io.VarLenFeature(self.dtype)
        return config

    def _transform_feature(self, cache, state_manager):
        weights = cache.get(self.weight_feature_key, state_manager)
        if weights.dtype != self.dtype:
            raise ValueError(f"Bad dtype, expected {dtype_text(self.dtype)}, but got {dtype_text(weights.dtype)}.")
        if not isinstance(weights, _tf.SparseTensor):
            # Zero weights are absent entries, as TF sparsifies a dense weight tensor.
            weights = to_sparse_dropping(weights, 0.0)
        if not weights.dtype.is_floating:
            weights = with_values(weights, _tf.cast(weights.values, _tf.float32))
        return (cache.get(self.categorical_column, state_manager), weights)

    def get_sparse_tensors(self, cache, state_manager):
        ids, weights = cache.get(self, state_manager)
        return IdWeightPair(ids, weights)


def weighted_categorical_column(categorical_column, weight_feature_key, dtype=_tf.float32):
    """`tf.feature_column.weighted_categorical_column`: each id of `categorical_column` weighted by the value at the
    same index of feature `weight_feature_key`."""
    dtype = _tf.as_dtype(dtype)
    if dtype is None or not (dtype.is_integer or dtype.is_floating):
        raise ValueError(f"dtype {dtype_text(dtype)} is not convertible to float.")
    return WeightedCategoricalColumn(categorical_column, weight_feature_key, dtype)
