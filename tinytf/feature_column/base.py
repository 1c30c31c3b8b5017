"""The feature column kinds TF's columns belong to, and what each kind promises its consumers.

A column is an immutable description (TF makes them namedtuples: equal by value, hashable, printed with their
fields). A dense column turns features into one float tensor [batch, *variable_shape]; a categorical column turns
them into sparse ids (and, when weighted, sparse weights) in [0, num_buckets).
"""

from __future__ import annotations

import collections

import tinytf as _tf

IdWeightPair = collections.namedtuple("IdWeightPair", ("id_tensor", "weight_tensor"))


class FeatureColumn:
    """Any column: a name (unique key of its output) and the parsing spec of the raw features it reads."""

    __slots__ = ()

    @property
    def name(self) -> str:
        """The raw feature's key, for the columns that read one feature (the others name themselves)."""
        return self.key

    @property
    def parse_example_spec(self) -> dict:
        raise NotImplementedError

    @property
    def parents(self) -> list:
        return []

    def _transform_feature(self, cache, state_manager):
        raise NotImplementedError

    def create_state(self, state_manager) -> None:
        """Columns without variables have no state."""


class DenseColumn(FeatureColumn):
    """A column whose output is one float32 tensor of shape [batch] + variable_shape."""

    __slots__ = ()

    @property
    def variable_shape(self) -> _tf.TensorShape:
        raise NotImplementedError

    def get_dense_tensor(self, cache, state_manager):
        raise NotImplementedError


class CategoricalColumn(FeatureColumn):
    """A column whose output is sparse int64 ids in [0, num_buckets), optionally with sparse float weights."""

    __slots__ = ()

    @property
    def num_buckets(self) -> int:
        raise NotImplementedError

    def get_sparse_tensors(self, cache, state_manager) -> IdWeightPair:
        return IdWeightPair(cache.get(self, state_manager), None)


class SequenceDenseColumn(FeatureColumn):
    """A column read as a sequence ([batch, time, ...]): only sequence consumers take it."""

    __slots__ = ()


def to_sparse_dropping(tensor, ignore_value=None):
    """A dense feature as a SparseTensor without its padding entries (-1 for integers, '' for strings, as TF's
    _to_sparse_input_and_drop_ignore_values), so missing values count as absent rather than as an id."""
    if isinstance(tensor, _tf.SparseTensor):
        return tensor
    if isinstance(tensor, _tf.RaggedTensor):
        return tensor.to_sparse()
    if ignore_value is None:
        ignore_value = "" if tensor.dtype == _tf.string else -1
    keep = _tf.not_equal(tensor, _tf.constant(ignore_value, dtype=tensor.dtype))
    indices = _tf.where(keep)
    return _tf.SparseTensor(indices, _tf.gather_nd(tensor, indices), _tf.shape(tensor, out_type=_tf.int64))


def dtype_text(dtype) -> str:
    """A dtype as TF's messages print it (its repr there): <dtype: 'string'>."""
    return f"<dtype: '{dtype.name}'>"


def with_values(sparse, values):
    return _tf.SparseTensor(sparse.indices, values, sparse.dense_shape)
