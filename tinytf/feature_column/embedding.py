"""indicator_column, embedding_column and shared_embeddings: categorical ids made dense, as multi-hot counts
(or summed weights) or as combined rows of a trainable embedding table."""

from __future__ import annotations

import collections
import math

import tinytf as _tf

from .base import CategoricalColumn, DenseColumn


def _reject_sequence(column, categorical):
    from .sequence import SequenceCategoricalColumn
    if isinstance(categorical, SequenceCategoricalColumn):
        raise ValueError(
            f"In {type(column).__name__.replace('Column', '').lower()}_column: {column.name}. categorical_column "
            f"must not be of type _SequenceCategoricalColumn. Suggested fix A: If you wish to use DenseFeatures, "
            f"use a non-sequence categorical_column_with_*. Suggested fix B: If you wish to create sequence input, "
            f"use SequenceFeatures instead of DenseFeatures. Given (type {type(categorical)}): {categorical}")


class _OverCategorical:
    """A dense column over one categorical column: it parses what that column parses, and has it as its parent."""

    __slots__ = ()

    @property
    def parse_example_spec(self) -> dict:
        return self.categorical_column.parse_example_spec

    @property
    def parents(self) -> list:
        return [self.categorical_column]


class IndicatorColumn(_OverCategorical, DenseColumn,
                      collections.namedtuple("IndicatorColumn", ("categorical_column",))):
    """Multi-hot of a categorical column: per example, how often each id occurs (or the sum of its weights)."""

    __slots__ = ()

    @property
    def name(self) -> str:
        return f"{self.categorical_column.name}_indicator"

    @property
    def variable_shape(self):
        return _tf.TensorShape([1, self.categorical_column.num_buckets])

    def _transform_feature(self, cache, state_manager):
        ids, weights = self.categorical_column.get_sparse_tensors(cache, state_manager)
        depth = self.categorical_column.num_buckets
        if weights is not None:
            # Duplicate ids add their weights, as TF's scatter_nd does.
            rows = ids.indices[:, :1]
            keep = _tf.where(_tf.logical_and(ids.values >= 0, ids.values < depth))[:, 0]
            indices = _tf.concat([_tf.gather(rows, keep), _tf.expand_dims(_tf.gather(ids.values, keep), 1)], 1)
            shape = _tf.stack([ids.dense_shape[0], _tf.constant(depth, _tf.int64)])
            return _tf.scatter_nd(indices, _tf.gather(weights.values, keep), shape)
        dense = _tf.sparse.to_dense(ids, default_value=-1)
        return _tf.reduce_sum(_tf.one_hot(dense, depth=depth, on_value=1.0, off_value=0.0), axis=-2)

    def get_dense_tensor(self, cache, state_manager):
        _reject_sequence(self, self.categorical_column)
        return cache.get(self, state_manager)


def _embedding_lookup(table, ids, weights, combiner, max_norm, safe, name):
    if safe:
        return _tf.nn.safe_embedding_lookup_sparse(table, ids, sparse_weights=weights, combiner=combiner,
                                                   max_norm=max_norm, name=name)
    return _tf.nn.embedding_lookup_sparse(table, ids, sp_weights=weights, combiner=combiner, max_norm=max_norm,
                                          name=name)


class EmbeddingColumn(_OverCategorical, DenseColumn, collections.namedtuple("EmbeddingColumn", (
        "categorical_column", "dimension", "combiner", "initializer", "ckpt_to_load_from", "tensor_name_in_ckpt",
        "max_norm", "trainable", "use_safe_embedding_lookup"))):
    """Each example's ids looked up in a [num_buckets, dimension] variable and combined (mean, sum or sqrtn)."""

    __slots__ = ()

    @property
    def name(self) -> str:
        return f"{self.categorical_column.name}_embedding"

    @property
    def variable_shape(self):
        return _tf.TensorShape([self.dimension])

    def _transform_feature(self, cache, state_manager):
        return self.categorical_column.get_sparse_tensors(cache, state_manager)

    def create_state(self, state_manager) -> None:
        state_manager.create_variable(self, "embedding_weights", [self.categorical_column.num_buckets,
                                                                  self.dimension],
                                      _tf.float32, self.initializer, self.trainable)

    def get_dense_tensor(self, cache, state_manager):
        _reject_sequence(self, self.categorical_column)
        ids, weights = cache.get(self, state_manager)
        table = state_manager.get_variable(self, "embedding_weights")
        if self.ckpt_to_load_from is not None:
            _tf.compat.v1.train.init_from_checkpoint(self.ckpt_to_load_from, {self.tensor_name_in_ckpt: table})
        return _embedding_lookup(table, ids, weights, self.combiner, self.max_norm,
                                 self.use_safe_embedding_lookup, "embedding_lookup_sparse")


def _check_embedding_args(dimension, combiner, initializer, ckpt_to_load_from, tensor_name_in_ckpt, name):
    if dimension is None or dimension < 1:
        raise ValueError(f"Invalid dimension {dimension}.")
    if (ckpt_to_load_from is None) != (tensor_name_in_ckpt is None):
        raise ValueError("Must specify both `ckpt_to_load_from` and `tensor_name_in_ckpt` or none of them.")
    if initializer is not None and not callable(initializer):
        raise ValueError(f"initializer must be callable if specified. Embedding of column_name: {name}")
    if combiner not in ("mean", "sqrtn", "sum"):
        raise ValueError(f"combiner must be one of 'mean', 'sqrtn' or 'sum'. Given: {combiner}")
    if initializer is None:
        return _tf.compat.v1.truncated_normal_initializer(mean=0.0, stddev=1 / math.sqrt(dimension))
    return initializer


def embedding_column(categorical_column, dimension, combiner="mean", initializer=None, ckpt_to_load_from=None,
                     tensor_name_in_ckpt=None, max_norm=None, trainable=True,
                     use_safe_embedding_lookup=True) -> EmbeddingColumn:
    """`tf.feature_column.embedding_column`: a dense, trainable representation of a categorical column."""
    if not isinstance(categorical_column, CategoricalColumn):
        raise ValueError(f"categorical_column must be a CategoricalColumn. Given: {categorical_column}")
    initializer = _check_embedding_args(dimension, combiner, initializer, ckpt_to_load_from, tensor_name_in_ckpt,
                                        categorical_column.name)
    return EmbeddingColumn(categorical_column, dimension, combiner, initializer, ckpt_to_load_from,
                           tensor_name_in_ckpt, max_norm, trainable, use_safe_embedding_lookup)


class SharedEmbeddingColumnCreator:
    """The one embedding table that several SharedEmbeddingColumns read (TF builds it only in graphs)."""

    def __init__(self, dimension, initializer, ckpt_to_load_from, tensor_name_in_ckpt, num_buckets, trainable,
                 name):
        self.dimension, self.initializer, self.trainable = dimension, initializer, trainable
        self.ckpt_to_load_from, self.tensor_name_in_ckpt = ckpt_to_load_from, tensor_name_in_ckpt
        self.num_buckets, self._name = num_buckets, name

    @property
    def name(self) -> str:
        return self._name


class SharedEmbeddingColumn(_OverCategorical, DenseColumn, collections.namedtuple("SharedEmbeddingColumn", (
        "categorical_column", "shared_embedding_column_creator", "combiner", "max_norm",
        "use_safe_embedding_lookup"))):
    """An embedding column whose table is shared with the other columns of its creator."""

    __slots__ = ()

    @property
    def name(self) -> str:
        return f"{self.categorical_column.name}_shared_embedding"

    @property
    def variable_shape(self):
        return _tf.TensorShape([self.shared_embedding_column_creator.dimension])

    def _transform_feature(self, cache, state_manager):
        return self.categorical_column.get_sparse_tensors(cache, state_manager)


def shared_columns_checked(categorical_columns: list, collection_name, kind: str) -> tuple:
    """(first column, table name) of shared embedding columns, after TF's checks: all categorical (TF names the
    class `kind` in its message), all with the first one's number of buckets."""
    first = categorical_columns[0]
    for column in categorical_columns:
        if not isinstance(column, CategoricalColumn):
            raise ValueError(f"All categorical_columns must be subclasses of {kind}. Given: {column}, "
                             f"of type: {type(column)}")
        if column.num_buckets != first.num_buckets:
            raise ValueError(f"To use shared_embedding_column, all categorical_columns must have the same number of "
                             f"buckets. Given column: {first} with buckets: {first.num_buckets} does not match "
                             f"column: {column} with buckets: {column.num_buckets}")
    name = collection_name or "_".join(sorted(c.name for c in categorical_columns)) + "_shared_embedding"
    return first, name


def shared_embeddings(categorical_columns, dimension, combiner="mean", initializer=None,
                      shared_embedding_collection_name=None, ckpt_to_load_from=None, tensor_name_in_ckpt=None,
                      max_norm=None, trainable=True, use_safe_embedding_lookup=True) -> list:
    """`tf.feature_column.shared_embeddings`: embedding columns over one shared table. TF 2.21 builds them only while
    a TF1 graph is being built (eagerly it raises RuntimeError, as here); its input_layer and linear_model refuse
    them (they were for Keras 2's DenseFeatures, which TF 2.21 no longer has)."""
    if _tf.executing_eagerly():
        raise RuntimeError("shared_embedding_columns are not supported when eager execution is enabled.")
    categorical_columns = list(categorical_columns)
    if not categorical_columns:
        raise ValueError("categorical_columns must not be empty.")
    first, name = shared_columns_checked(categorical_columns, shared_embedding_collection_name, "CategoricalColumn")
    initializer = _check_embedding_args(dimension, combiner, initializer, ckpt_to_load_from, tensor_name_in_ckpt,
                                        first.name)
    creator = SharedEmbeddingColumnCreator(dimension, initializer, ckpt_to_load_from, tensor_name_in_ckpt,
                                           first.num_buckets, trainable, name)
    return [SharedEmbeddingColumn(column, creator, combiner, max_norm, use_safe_embedding_lookup)
            for column in categorical_columns]
