"""tf.io.parse_example / parse_single_example with FixedLenFeature, VarLenFeature, FixedLenSequenceFeature and
RaggedFeature, and tf.io.decode_csv: thin layers over one registered op each (runtime/ops/parsing.py,
runtime/ops/csv.py), so they run eagerly, inside tf.function and inside dataset.map alike."""

from __future__ import annotations

import collections

import numpy as np

from tinytf.runtime import dtypes
from tinytf.runtime.dispatch import convert_to_tensor
from tinytf.runtime.ops import csv as _csv
from tinytf.runtime.ops import parsing as _parsing
from tinytf.runtime.ops import parsing_sequence as _parsing_sequence
from tinytf.runtime.tensor import Tensor

from ..ragged import RaggedTensor
from ..sparse import SparseTensor
from . import sparse_feature


class FixedLenFeature(collections.namedtuple("FixedLenFeature", ["shape", "dtype", "default_value"])):
    """A feature of a fixed shape; `default_value` fills in when an example lacks it (else it is required)."""

    def __new__(cls, shape, dtype, default_value=None):
        return super().__new__(cls, shape, dtype, default_value)


class VarLenFeature(collections.namedtuple("VarLenFeature", ["dtype"])):
    """A feature of any length, parsed into a tf.sparse.SparseTensor."""


class FixedLenSequenceFeature(collections.namedtuple(
        "FixedLenSequenceFeature", ["shape", "dtype", "allow_missing", "default_value"])):
    """A sequence of elements of `shape`: [batch, longest, *shape], shorter examples padded with default_value."""

    def __new__(cls, shape, dtype, allow_missing=False, default_value=None):
        return super().__new__(cls, shape, dtype, allow_missing, default_value)


class RaggedFeature(collections.namedtuple(
        "RaggedFeature", ["dtype", "value_key", "partitions", "row_splits_dtype", "validate"])):
    """A feature parsed into a tf.RaggedTensor: the values of feature `value_key` (default: the dict key),
    split into ragged dimensions by `partitions` (outermost first), each naming an int64 feature of the same
    Example (RowSplits, RowLengths, RowStarts, RowLimits, ValueRowIds) or a constant (UniformRowLength). Row
    splits have the dtype `row_splits_dtype` says (int32 unless asked otherwise, as TF)."""

    RowSplits = collections.namedtuple("RowSplits", ["key"])
    RowLengths = collections.namedtuple("RowLengths", ["key"])
    RowStarts = collections.namedtuple("RowStarts", ["key"])
    RowLimits = collections.namedtuple("RowLimits", ["key"])
    ValueRowIds = collections.namedtuple("ValueRowIds", ["key"])
    UniformRowLength = collections.namedtuple("UniformRowLength", ["length"])

    def __new__(cls, dtype, value_key=None, partitions=(), row_splits_dtype=dtypes.int32, validate=False):
        dtype = dtypes.as_dtype(dtype)
        if dtype not in _PARSE_DTYPES:
            raise ValueError(f"dtype must be one of {[d.name for d in _PARSE_DTYPES]}, got {dtype.name}")
        row_splits_dtype = dtypes.as_dtype(row_splits_dtype)
        if row_splits_dtype not in (dtypes.int32, dtypes.int64):
            raise ValueError(f"Invalid row_splits_dtype {row_splits_dtype.name}: use tf.int32 or tf.int64")
        if value_key is not None and (not isinstance(value_key, str) or not value_key):
            raise ValueError(f"Invalid value_key {value_key!r}: a non-empty string")
        partitions = tuple(partitions)
        for partition in partitions:
            if type(partition) not in _PARTITION_KIND:
                raise TypeError(f"partitions must be a list of RaggedFeature partition types, got {partition!r}")
        return super().__new__(cls, dtype, value_key, partitions, row_splits_dtype, validate)


_PARSE_DTYPES = (dtypes.int64, dtypes.float32, dtypes.string)
_PARTITION_KIND = {
    RaggedFeature.RowSplits: "row_splits", RaggedFeature.RowLengths: "row_lengths",
    RaggedFeature.RowStarts: "row_starts", RaggedFeature.RowLimits: "row_limits",
    RaggedFeature.ValueRowIds: "value_rowids", RaggedFeature.UniformRowLength: "uniform_row_length",
}


def ragged_config(key, feature):
    """(value key, dtype, ((partition kind, feature key or length), ...), validate): the op's attribute."""
    partitions = tuple((_PARTITION_KIND[type(p)], int(p.length) if isinstance(p, RaggedFeature.UniformRowLength)
                        else str(p.key)) for p in feature.partitions)
    return (feature.value_key or key, feature.dtype, partitions, bool(feature.validate))


def ragged_result(values, splits):
    """A ragged feature's outputs as TF returns them: a RaggedTensor, or a plain tensor without splits."""
    return RaggedTensor.from_nested_row_splits(values, splits, validate=False) if splits else values


def _shape_of(shape, key) -> tuple:
    if shape is None:
        raise ValueError(f"Missing shape for feature {key}.")
    dims = tuple(getattr(shape, "as_list", lambda: shape)()) if not isinstance(shape, int) else (shape,)
    if any(d is None or int(d) < 0 for d in dims):
        raise ValueError(f"All dimensions of shape for feature {key} need to be known but received {list(dims)}.")
    return tuple(int(d) for d in dims)


def _dtype_of(feature, key):
    dtype = dtypes.as_dtype(feature.dtype)
    if dtype not in _PARSE_DTYPES:
        raise ValueError(f"Unsupported dtype {dtype.name} for feature {key}: use tf.int64, tf.float32 or tf.string")
    return dtype


def _default(value, dtype, shape, key):
    """A dense default as a tensor of `shape` (an empty tensor when the feature is required)."""
    if value is None:
        return convert_to_tensor(np.zeros(0, dtype=object if dtype.is_string else dtype.np), dtype)
    tensor = convert_to_tensor(value, dtype)
    if isinstance(tensor._shape, tuple) and None not in tensor._shape:
        if int(np.prod(tensor._shape, dtype=np.int64)) != int(np.prod(shape, dtype=np.int64)):
            raise ValueError(f"Cannot reshape a tensor with {int(np.prod(tensor._shape))} elements to shape "
                             f"{list(shape)} (the default_value of feature {key})")
    return tensor


def _config(features: dict, what="feature"):
    """(sparse, dense, ragged configurations, dense defaults, ragged keys) of a features dict, in sorted key
    order as TF."""
    if not isinstance(features, dict) or not features:
        raise ValueError("Must provide at least one feature key.")
    sparse, dense, ragged, defaults, ragged_keys = [], [], [], [], []
    for key in sorted(features):
        feature = features[key]
        if isinstance(feature, VarLenFeature):
            sparse.append((key, _dtype_of(feature, key)))
        elif isinstance(feature, FixedLenFeature):
            dtype, shape = _dtype_of(feature, key), _shape_of(feature.shape, key)
            dense.append((key, dtype, shape, False))
            defaults.append(_default(feature.default_value, dtype, shape, key))
        elif isinstance(feature, FixedLenSequenceFeature):
            if not feature.allow_missing:
                raise ValueError(f"Unsupported: FixedLenSequenceFeature requires allow_missing to be True. "
                                 f"(feature {key})")
            dtype, shape = _dtype_of(feature, key), _shape_of(feature.shape, key)
            dense.append((key, dtype, shape, True))
            pad = feature.default_value
            defaults.append(_default(None, dtype, (), key) if pad is None else convert_to_tensor(pad, dtype))
        elif isinstance(feature, RaggedFeature):
            ragged.append(ragged_config(key, feature))
            ragged_keys.append(key)
        else:
            raise ValueError(f"Unsupported feature type {type(feature).__name__} for key {key}: use "
                             "FixedLenFeature, VarLenFeature, FixedLenSequenceFeature or RaggedFeature")
    _disjoint(sparse, dense, ragged)
    return sparse, dense, ragged, defaults, ragged_keys


def _disjoint(sparse, dense, ragged):
    """TF's check that no feature key is read both as a ragged feature's values or partitions and otherwise."""
    ragged_keys = {key for key, _d, partitions, _v in ragged} | {
        ref for _k, _d, partitions, _v in ragged for kind, ref in partitions if kind != "uniform_row_length"}
    for what, keys in (("sparse", {k for k, *_ in sparse}), ("Dense", {k for k, *_ in dense})):
        common = ragged_keys & keys
        if common:
            if what == "sparse":
                raise ValueError(f"Ragged and sparse keys must not intersect; ragged_keys: {sorted(ragged_keys)}, "
                                 f"sparse_keys: {sorted(keys)}, intersection: {common}")
            raise ValueError(f"Dense and ragged keys must not intersect; dense_keys: {sorted(keys)}, ragged_keys: "
                             f"{sorted(ragged_keys)}, intersection: {common}")


def assemble(outputs, sparse, dense, ragged, ragged_keys, single) -> dict:
    """{key: SparseTensor, Tensor or RaggedTensor} from an op's outputs in the configuration's order."""
    result, at = {}, 0
    for key, _dtype in sparse:
        result[key] = SparseTensor(*outputs[at:at + 3])
        at += 3
    for key, *_rest in dense:
        result[key] = outputs[at]
        at += 1
    for key, (_value_key, dtype, partitions, _validate) in zip(ragged_keys, ragged):
        count = len(_parsing.ragged_output_types(dtype, partitions, single))
        result[key] = ragged_result(outputs[at], list(outputs[at + 1:at + count]))
        at += count
    return result


def _serialized(value, op_name: str) -> Tensor:
    """The serialized records as a string tensor. A tensor of another dtype is TF's ValueError eagerly (a
    conversion; InvalidArgumentError is one) and, while tracing (a dataset map), the op's input TypeError."""
    from tinytf.runtime.context import state

    if isinstance(value, Tensor) and value.dtype is not dtypes.string and state.graph is not None:
        raise TypeError(f"Input 'serialized' of '{op_name}' Op has type {value.dtype.name} that does not match "
                        f"expected type of string.")
    return convert_to_tensor(value, dtypes.string)


def _parse(serialized, features, single):
    requested = features
    features, composite = sparse_feature.expand(features)  # tf.io.SparseFeature: parsed as its keys' VarLens
    sparse, dense, ragged, defaults, ragged_keys = _config(features)
    serialized = _serialized(serialized, "ParseExampleV2")
    outputs = _parsing.parse_example(serialized, defaults, sparse, dense, single, ragged)
    result = assemble(outputs, sparse, dense, ragged, ragged_keys, single)
    # TF's order: the sparse features, then the dense, then the ragged, each sorted by key
    result = {key: _with_splits_dtype(value, features[key]) for key, value in result.items()}
    return sparse_feature.combine(result, composite, requested)


def _with_splits_dtype(value, feature):
    """A RaggedFeature's result with the row splits dtype it asks for (the op computes int64 splits)."""
    if isinstance(value, RaggedTensor):
        return value.with_row_splits_dtype(feature.row_splits_dtype)
    return value


def parse_example(serialized, features, example_names=None, name=None) -> dict:
    """A batch (string vector) of serialized Examples -> {key: tensor [batch, ...] or SparseTensor}."""
    return _parse(serialized, features, single=_serialized(serialized, "ParseExampleV2")._shape == ())


def parse_single_example(serialized, features, example_names=None, name=None) -> dict:
    """One serialized Example (a string scalar) -> {key: tensor or SparseTensor}."""
    return _parse(serialized, features, single=True)


def _sequence_config(features: dict):
    """(sparse, dense, ragged configurations, ragged keys) of sequence_features, in sorted key order."""
    sparse, dense, ragged, ragged_keys = [], [], [], []
    for key in sorted(features):
        feature = features[key]
        if isinstance(feature, VarLenFeature):
            sparse.append((key, _dtype_of(feature, key)))
        elif isinstance(feature, FixedLenSequenceFeature):
            if feature.default_value is not None:
                raise ValueError(f"Value feature_list.dense_defaults[{key}] must be None")
            dense.append((key, _dtype_of(feature, key), _shape_of(feature.shape, key), bool(feature.allow_missing)))
        elif isinstance(feature, RaggedFeature):
            ragged.append(ragged_config(key, feature))
            ragged_keys.append(key)
        else:
            raise ValueError(f"Unsupported {type(feature).__name__} {feature} for key '{key}': sequence_features "
                             "take FixedLenSequenceFeature, VarLenFeature or RaggedFeature")
    return sparse, dense, ragged, ragged_keys


def _parse_sequence(serialized, context_features, sequence_features, single):
    if not context_features and not sequence_features:
        raise ValueError("Both `context_features` and `sequence_features` argument are None, but at least one "
                         "should have values.")
    c_sparse, c_dense, c_ragged, defaults, c_ragged_keys = _config(context_features) if context_features \
        else ([], [], [], [], [])
    s_sparse, s_dense, s_ragged, s_ragged_keys = _sequence_config(sequence_features or {})
    _disjoint(s_sparse, s_dense, s_ragged)
    serialized = _serialized(serialized, "ParseSequenceExampleV2")
    outputs = _parsing_sequence.parse_sequence_example(
        serialized, defaults, (c_sparse, c_dense, c_ragged), (s_sparse, s_dense, s_ragged), single)
    count = _parsing.output_count(c_sparse, c_dense, c_ragged, single)
    context = assemble(outputs[:count], c_sparse, c_dense, c_ragged, c_ragged_keys, single)
    lists, at = {}, count
    for key, _dtype in s_sparse:
        lists[key] = SparseTensor(*outputs[at:at + 3])
        at += 3
    for key, *_rest in s_dense:
        lists[key] = outputs[at]
        at += 1
    for key, (_value_key, dtype, partitions, _validate) in zip(s_ragged_keys, s_ragged):
        count = len(_parsing.ragged_output_types(dtype, partitions, True)) + (1 if single else 2)
        lists[key] = ragged_result(outputs[at], list(outputs[at + 1:at + count]))
        at += count
    lengths = {key: outputs[at + i] for i, (key, *_rest) in enumerate(s_dense)}
    # TF's order, as parse_example's: sparse, dense, then ragged features, each sorted by key
    order = lambda result, features: {key: _with_splits_dtype(value, features[key])  # noqa: E731
                                      for key, value in result.items()}
    return order(context, context_features), order(lists, sequence_features), lengths


def parse_sequence_example(serialized, context_features=None, sequence_features=None, example_names=None,
                           name=None):
    """A batch (string vector) of serialized SequenceExamples -> (context dict, feature-list dict, lengths
    dict: the number of steps of each FixedLenSequenceFeature per record)."""
    return _parse_sequence(serialized, context_features, sequence_features, single=False)


def parse_single_sequence_example(serialized, context_features=None, sequence_features=None, example_name=None,
                                  name=None):
    """One serialized SequenceExample (a string scalar) -> (context dict, feature-list dict)."""
    context, lists, _lengths = _parse_sequence(serialized, context_features, sequence_features, single=True)
    return context, lists


def decode_csv(records, record_defaults, field_delim=",", use_quote_delim=True, name=None, na_value="",
               select_cols=None) -> list:
    """`tf.io.decode_csv`: one tensor per column, shaped as `records`. Each default is a value (scalar or
    one-element list) of the column's type, or an empty tensor / a dtype for a required column."""
    records = convert_to_tensor(records, dtypes.string)
    defaults = [_csv_default(d, i) for i, d in enumerate(record_defaults)]
    if not defaults:
        raise ValueError("decode_csv needs at least one record default")
    delim = field_delim.encode() if isinstance(field_delim, str) else bytes(field_delim)
    if len(delim) != 1:
        raise ValueError(f"field_delim should be only one character, got {field_delim!r}")
    if select_cols is not None:
        select_cols = [int(c) for c in select_cols]
        if any(b <= a for a, b in zip(select_cols, select_cols[1:])) or (select_cols and select_cols[0] < 0):
            raise ValueError("select_cols is not strictly increasing.")
        if len(select_cols) != len(defaults):
            raise ValueError("Length of select_cols and record_defaults do not match.")
    na = na_value.encode() if isinstance(na_value, str) else bytes(na_value)
    return _csv.decode_csv(records, defaults, delim, use_quote_delim, na, select_cols)


def _csv_default(default, index):
    if isinstance(default, dtypes.DType):
        return convert_to_tensor(np.zeros(0, dtype=object if default.is_string else default.np), default)
    if isinstance(default, (list, tuple)) and len(default) == 1 and isinstance(default[0], Tensor):
        default = default[0]  # [tensor]: TF packs it, keeping the tensor's dtype
    if isinstance(default, Tensor):
        return default
    tensor = convert_to_tensor(default)
    if tensor.dtype not in _csv.CSV_DTYPES:
        raise TypeError(f"decode_csv: record_defaults[{index}] has type {tensor.dtype.name}")
    return tensor
