"""tf.compat.v1.feature_column: the consumers TF 2.21 still ships for feature columns without Keras 2
(input_layer, linear_model) and TF1's shared_embedding_columns.

Both consumers make their variables with tf.compat.v1.get_variable under variable scopes named as TF names them
(`input_layer/<column>/embedding_weights`, `linear_model/<column>/weights`, `linear_model/bias_weights`): in a TF1
graph they are collected and initialized by global_variables_initializer; eagerly, as in TF, each call makes fresh
ones. Columns are processed in order of name, so the output's layout equals TF's.
"""

from __future__ import annotations

import collections
import math

import tinytf as _tf

from ..compat.v1.variable_scope import enclosing_tf1_graph, get_variable, variable_scope
from . import (  # noqa: F401
    bucketized_column,
    categorical_column_with_hash_bucket,
    categorical_column_with_identity,
    categorical_column_with_vocabulary_list,
    crossed_column,
    embedding_column,
    indicator_column,
    numeric_column,
    sequence_categorical_column_with_hash_bucket,
    sequence_categorical_column_with_identity,
    sequence_categorical_column_with_vocabulary_file,
    sequence_categorical_column_with_vocabulary_list,
    sequence_numeric_column,
    weighted_categorical_column,
)
from . import categorical_column_with_vocabulary_file as _vocabulary_file_v2
from .base import CategoricalColumn, DenseColumn, FeatureColumn
from .embedding import SharedEmbeddingColumn, _check_embedding_args, _embedding_lookup, shared_columns_checked
from .parse_spec import make_parse_example_spec  # noqa: F401  (tf.compat.v1.feature_column's own copy)
from .transformation_cache import FeatureTransformationCache


def categorical_column_with_vocabulary_file(key, vocabulary_file, vocabulary_size=None, num_oov_buckets=0,
                                            default_value=None, dtype=_tf.string):
    """TF1's categorical_column_with_vocabulary_file: the same column as TF2's, with TF1's argument order."""
    return _vocabulary_file_v2(key, vocabulary_file, vocabulary_size, dtype, default_value, num_oov_buckets)


class _ScopedVariables:
    """Variables of the columns, made by get_variable in the variable scope open when the column creates them."""

    def __init__(self, trainable, cols_to_vars, weight_collections=None):
        self._trainable, self._cols_to_vars, self._made = trainable, cols_to_vars, {}
        self._collections = list(weight_collections or [])

    def create_variable(self, column, name, shape, dtype, initializer, trainable=True):
        variable = get_variable(name, shape=shape, dtype=dtype, initializer=initializer,
                                trainable=self._trainable and trainable)
        self._made[(column, name)] = variable
        if self._collections and enclosing_tf1_graph() is not None:
            _tf.compat.v1.add_to_collections(self._collections, variable)
        # TF lists a column's variables from the graph's GLOBAL_VARIABLES collection: eagerly it stays empty.
        if self._cols_to_vars is not None and (enclosing_tf1_graph() is not None or column == "bias"):
            self._cols_to_vars.setdefault(column, []).append(variable)
        return variable

    def register(self, column) -> None:
        if self._cols_to_vars is not None:
            self._cols_to_vars.setdefault(column, [])

    def get_variable(self, column, name):
        return self._made[(column, name)]


def _sorted_columns(feature_columns, accept, message):
    if isinstance(feature_columns, FeatureColumn):
        feature_columns = [feature_columns]
    feature_columns = list(feature_columns)
    if not feature_columns:
        raise ValueError("feature_columns must not be empty.")
    for column in feature_columns:
        if isinstance(column, SharedEmbeddingColumn):
            raise ValueError("SharedEmbeddingColumns are not supported in `linear_model` or `input_layer`. Please "
                             "use `DenseFeatures` or `LinearModel` instead.")
        if not isinstance(column, FeatureColumn) or _is_sequence(column):
            raise ValueError(f"Items of feature_columns must be a _FeatureColumn. Given (type {type(column)}): "
                             f"{column}.")
        if not isinstance(column, accept):
            raise ValueError(message.format(column))
    names = [c.name for c in feature_columns]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise ValueError(f"Duplicate feature column name found for columns: {duplicates}")
    return sorted(feature_columns, key=lambda c: c.name)


def _is_sequence(column) -> bool:
    from .base import SequenceDenseColumn
    from .sequence import SequenceCategoricalColumn
    return isinstance(column, (SequenceDenseColumn, SequenceCategoricalColumn))


def _check_batch_sizes(columns, tensors):
    static = [(c.name, t.shape[0]) for c, t in zip(columns, tensors) if t.shape.rank and t.shape[0] is not None]
    for name, size in static[1:]:
        if size != static[0][1]:
            raise ValueError(f"Batch size (first dimension) of each feature must be same. Batch size of columns "
                             f"({static[0][0]}, {name}): ({static[0][1]}, {size})")


def _flat(tensor, column):
    """[batch, *variable_shape] -> [batch, num_elements], as TF reshapes each column's output."""
    num_elements = math.prod(column.variable_shape.as_list())
    return _tf.reshape(tensor, [-1, num_elements])


def input_layer(features, feature_columns, weight_collections=None, trainable=True, cols_to_vars=None,
                cols_to_output_tensors=None):
    """`tf.compat.v1.feature_column.input_layer`: the dense columns' outputs, each flattened to [batch, n],
    concatenated in order of column name into one float32 [batch, sum n] tensor."""
    columns = _sorted_columns(feature_columns, DenseColumn,
                              "Items of feature_columns must be a _DenseColumn. You can wrap a categorical column "
                              "with an embedding_column or indicator_column. Given: {}")
    cache = FeatureTransformationCache(features)
    state = _ScopedVariables(trainable, cols_to_vars, weight_collections)
    outputs = []
    with variable_scope(None, default_name="input_layer"):
        for column in columns:
            with variable_scope(None, default_name=getattr(column, "var_scope_name", column.name)):
                state.register(column)
                column.create_state(state)
                tensor = _flat(column.get_dense_tensor(cache, state), column)
            outputs.append(tensor)
            if cols_to_output_tensors is not None:
                cols_to_output_tensors[column] = tensor
        _check_batch_sizes(columns, outputs)
        return _tf.concat(outputs, axis=1)


def linear_model(features, feature_columns, units=1, sparse_combiner="sum", weight_collections=None,
                 trainable=True, cols_to_vars=None):
    """`tf.compat.v1.feature_column.linear_model`: a weighted sum of the columns, [batch, units]. Dense columns are
    multiplied by a [n, units] `weights` variable; categorical ones look their ids up in a [num_buckets, units]
    `weights` variable and combine them with `sparse_combiner`; `bias_weights` [units] is added. All start at
    zero, as in TF."""
    if sparse_combiner not in ("mean", "sqrtn", "sum"):
        raise ValueError(f"sparse_combiner must be one of 'mean', 'sqrtn' or 'sum'. Given: {sparse_combiner}")
    columns = _sorted_columns(feature_columns, (DenseColumn, CategoricalColumn),
                              "Items of feature_columns must be either a _DenseColumn or _CategoricalColumn. "
                              "Given: {}")
    cache = FeatureTransformationCache(features)
    state = _ScopedVariables(trainable, cols_to_vars, weight_collections)
    sums = []
    with variable_scope(None, default_name="linear_model"):
        for column in columns:
            with variable_scope(None, default_name=column.name):
                state.register(column)
                sums.append(_weighted_sum(column, cache, state, units, sparse_combiner))
        _check_batch_sizes(columns, sums)
        bias = state.create_variable("bias", "bias_weights", [units], _tf.float32, _tf.zeros_initializer())
        if cols_to_vars is not None:
            cols_to_vars["bias"] = cols_to_vars.pop("bias")
        return _tf.nn.bias_add(_tf.add_n(sums), bias)


def _weighted_sum(column, cache, state, units, sparse_combiner):
    if isinstance(column, CategoricalColumn):
        weights = state.create_variable(column, "weights", [column.num_buckets, units], _tf.float32,
                                        _tf.zeros_initializer())
        ids, id_weights = column.get_sparse_tensors(cache, state)
        # A [batch, n] id tensor of any rank folds its extra axes into one, as TF's linear_model does.
        return _tf.nn.safe_embedding_lookup_sparse(weights, ids, sparse_weights=id_weights, combiner=sparse_combiner,
                                                   name="weighted_sum")
    column.create_state(state)
    dense = _flat(column.get_dense_tensor(cache, state), column)
    weights = state.create_variable(column, "weights", [dense.shape[1], units], _tf.float32,
                                    _tf.zeros_initializer())
    return _tf.matmul(dense, weights)


class _SharedEmbeddingColumn(DenseColumn, collections.namedtuple("_SharedEmbeddingColumn", (
        "categorical_column", "dimension", "combiner", "initializer", "shared_embedding_collection_name",
        "ckpt_to_load_from", "tensor_name_in_ckpt", "max_norm", "trainable", "use_safe_embedding_lookup"))):
    """TF1's shared embedding column: the first one built in a graph makes the table (in a graph collection named
    after the shared columns), the others find it there."""

    __slots__ = ()

    @property
    def name(self) -> str:
        return f"{self.categorical_column.name}_shared_embedding"

    @property
    def parse_example_spec(self) -> dict:
        return self.categorical_column.parse_example_spec

    @property
    def variable_shape(self):
        return _tf.TensorShape([self.dimension])

    @property
    def var_scope_name(self) -> str:
        """input_layer opens the shared collection's scope for this column, so the table is named after it."""
        return self.shared_embedding_collection_name

    def _transform_feature(self, cache, state_manager):
        return self.categorical_column.get_sparse_tensors(cache, state_manager)

    def get_dense_tensor(self, cache, state_manager):
        ids, weights = cache.get(self, state_manager)
        collection = _tf.compat.v1.get_collection(self.shared_embedding_collection_name)
        if collection:
            table = collection[0]
        else:
            table = get_variable("embedding_weights", shape=[self.categorical_column.num_buckets,
                                                                 self.dimension],
                                 dtype=_tf.float32, initializer=self.initializer, trainable=self.trainable)
            _tf.compat.v1.add_to_collection(self.shared_embedding_collection_name, table)
        if self.ckpt_to_load_from is not None:
            _tf.compat.v1.train.init_from_checkpoint(self.ckpt_to_load_from, {self.tensor_name_in_ckpt: table})
        return _embedding_lookup(table, ids, weights, self.combiner, self.max_norm, self.use_safe_embedding_lookup,
                                 "embedding_lookup_sparse")


def shared_embedding_columns(categorical_columns, dimension, combiner="mean", initializer=None,
                             shared_embedding_collection_name=None, ckpt_to_load_from=None,
                             tensor_name_in_ckpt=None, max_norm=None, trainable=True,
                             use_safe_embedding_lookup=True) -> list:
    """`tf.compat.v1.feature_column.shared_embedding_columns`: embedding columns over one table, for input_layer in
    a TF1 graph (eagerly TF raises RuntimeError, as here)."""
    if _tf.executing_eagerly():
        raise RuntimeError("shared_embedding_columns are not supported when eager execution is enabled.")
    categorical_columns = list(categorical_columns)
    first, name = shared_columns_checked(categorical_columns, shared_embedding_collection_name, "_CategoricalColumn")
    initializer = _check_embedding_args(dimension, combiner, initializer, ckpt_to_load_from, tensor_name_in_ckpt,
                                        first.name)
    return [_SharedEmbeddingColumn(column, dimension, combiner, initializer, name, ckpt_to_load_from,
                                   tensor_name_in_ckpt, max_norm, trainable, use_safe_embedding_lookup)
            for column in categorical_columns]
