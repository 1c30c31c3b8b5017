"""tf.data.experimental's own transformations (those that are not aliases of Dataset methods):
assert_cardinality, group_by_reducer with its Reducer, Dataset.sparse_batch (dense_to_sparse_batch), and
pad_to_cardinality. Each is a dataset stage over flat numpy elements, as the stages of transforms.py."""

from __future__ import annotations

import numpy as np

from tinytf.runtime import dtypes, nest, shapes
from tinytf.runtime.errors import DataLossError, FailedPreconditionError, InvalidArgumentError

from ..sparse import SparseTensorSpec
from ..tensor_spec import TensorSpec
from .dataset import INFINITE, UNKNOWN, DatasetV2, UnaryDataset, dataset_methods
from .functions import TracedFunction
from .reduce import traced_reducer
from .sources import as_int
from .structure import ElementError, describe, pack, zero_value
from .symbolic import lifted_tensors, with_bound_functions


class AssertCardinalityDataset(UnaryDataset):
    """The input's elements, with the cardinality the user asserts; iterating checks it, as TF does (a
    FailedPreconditionError when the input has fewer or more elements)."""

    _tf_name = "_AssertCardinalityDataset"

    def __init__(self, input_dataset, expected):
        super().__init__(input_dataset)
        self._expected = as_int(expected, "expected_cardinality")

    def _cardinality(self):
        return self._expected

    def _flat_iter(self):
        expected, n = self._expected, 0
        for item in self._input._flat_iter():
            n += 1
            if expected != INFINITE and n > expected:
                raise FailedPreconditionError(f"Input dataset was expected to contain {_elements(expected)} but "
                                              f"contained at least {_elements(n)}.")
            yield item
        if n != expected:
            raise FailedPreconditionError(f"Input dataset was expected to contain {_elements(expected)} but "
                                          f"contained only {_elements(n)}.")


def _elements(n: int) -> str:
    if n == INFINITE:
        return "an infinite number of elements"
    return f"{n} element" + ("" if n == 1 else "s")


def assert_cardinality(expected_cardinality):
    """`tf.data.experimental.assert_cardinality(n)`: the transformation for Dataset.apply."""
    return lambda dataset: AssertCardinalityDataset(dataset, expected_cardinality)


class Reducer:
    """`tf.data.experimental.Reducer(init_func, reduce_func, finalize_func)`: how group_by_reducer folds a
    group: key -> initial state, (state, element) -> state, state -> result."""

    def __init__(self, init_func, reduce_func, finalize_func):
        self._init_func, self._reduce_func, self._finalize_func = init_func, reduce_func, finalize_func

    @property
    def init_func(self):
        return self._init_func

    @property
    def reduce_func(self):
        return self._reduce_func

    @property
    def finalize_func(self):
        return self._finalize_func


_KEY = TensorSpec((), dtypes.int64)


class _TypeName:
    """A dtype as TF 1's legacy output types print it in messages: <dtype: 'int32'>."""

    def __init__(self, dtype):
        self._dtype = dtype

    def __repr__(self):
        return f"<dtype: '{self._dtype.name}'>"

    __str__ = __repr__


class GroupByReducerDataset(UnaryDataset):
    """One element per key, in the order of the keys (TF sorts them): the group's
    state folded over its elements, then finalized. The whole input is read before the first output."""

    _tf_name = "_GroupByReducerDataset"

    def __init__(self, input_dataset, key_func, reducer):
        spec = input_dataset._spec_inside
        self._key = TracedFunction(key_func, [spec], "group_by_reducer")
        out = self._key.output_spec
        if not (isinstance(out, TensorSpec) and out.dtype is dtypes.int64 and out._shape == ()):
            types = nest.map_structure(lambda s: _TypeName(s.dtype), out)
            shapes_ = nest.map_structure(lambda s: shapes.TensorShape(s._shape), out)
            raise ValueError(f"Invalid `key_func`. Expected `key_func` to return a scalar tf.int64 tensor, but "
                             f"instead `key_func` has output types={types} and shapes={shapes_}.")
        self._init = TracedFunction(reducer.init_func, [_KEY], "group_by_reducer")
        initial = pack(self._init.output_spec, self._init((np.int64(0),)))
        _, self._state_spec, self._reduce = traced_reducer(input_dataset, initial, reducer.reduce_func)
        self._finalize = TracedFunction(reducer.finalize_func, [self._state_spec], "group_by_reducer")
        super().__init__(input_dataset, self._finalize.output_spec)
        self._graph_tensors = lifted_tensors(self._key, self._init, self._reduce, self._finalize)

    def _bound_copy(self, values):
        return with_bound_functions(self, values, "_key", "_init", "_reduce", "_finalize")

    def _cardinality(self):
        return INFINITE if self._input._cardinality() == INFINITE else UNKNOWN

    def _flat_iter(self):
        states: dict = {}
        for item in self._input._flat_iter():
            if type(item) is ElementError:
                raise item.error
            key = int(self._key(item)[0])
            if key not in states:
                states[key] = self._init((np.int64(key),))
            states[key] = self._reduce(states[key] + item)
        for key in sorted(states):  # TF sorts the keys before it finalizes the groups
            yield self._finalize(states[key])


def group_by_reducer(key_func, reducer):
    """`tf.data.experimental.group_by_reducer(key_func, reducer)`: the transformation for Dataset.apply."""
    return lambda dataset: GroupByReducerDataset(dataset, key_func, reducer)


class SparseBatchDataset(UnaryDataset):
    """Batches of dense elements of varying shape as one SparseTensor each: every entry of each element is a
    value, at [position in the batch, *its index], in a dense shape of [batch, *row_shape]."""

    _tf_name = "_DenseToSparseBatchDataset"

    def __init__(self, input_dataset, batch_size, row_shape):
        self._size = as_int(batch_size, "batch_size")
        if self._size <= 0:
            raise InvalidArgumentError(f"Batch size must be greater than zero, got {self._size}")
        row = shapes.TensorShape(row_shape)
        if row.rank is None or any(d is None for d in row.as_list()):
            raise ValueError(f"sparse_batch: `row_shape` must be fully defined, got {row}")
        for d in row.as_list():
            if d < 0:
                raise ValueError(f"Dimension {d} must be >= 0")
        self._row = np.asarray(row.as_list(), np.int64)
        spec = input_dataset._spec_inside
        if not isinstance(spec, TensorSpec):
            raise TypeError(f"sparse_batch: the elements must be single tensors, got {describe(spec)}")
        super().__init__(input_dataset, SparseTensorSpec([None, *row.as_list()], spec.dtype))

    def _cardinality(self):
        n = self._input._cardinality()
        return n if n < 0 else -(-n // self._size)

    def _flat_iter(self):
        batch = []
        for item in self._input._flat_iter():
            if type(item) is ElementError:
                raise item.error
            batch.append(self._checked(item[0]))
            if len(batch) == self._size:
                yield self._sparse(batch)
                batch = []
        if batch:
            yield self._sparse(batch)

    def _checked(self, value):
        value = np.asarray(value)
        row = self._row
        if value.ndim != len(row):
            raise InvalidArgumentError(f"Input element had shape ({_shape(value.shape)}) that is incompatible "
                                       f"with the row shape ({_shape(row)}).")
        if any(d > r for d, r in zip(value.shape, row)):
            raise DataLossError(f"Input element had shape ({_shape(value.shape)}) that is larger than the row "
                                f"shape ({_shape(row)}).")
        return value

    def _sparse(self, batch) -> tuple:
        rank = len(self._row)
        indices = [np.concatenate([np.full((v.size, 1), i, np.int64),
                                   np.indices(v.shape).reshape(rank, v.size).T.astype(np.int64)], axis=1)
                   for i, v in enumerate(batch)]
        values = np.concatenate([v.reshape(-1) for v in batch])
        dense_shape = np.concatenate([[len(batch)], self._row]).astype(np.int64)
        return ((np.concatenate(indices).reshape(-1, rank + 1), values, dense_shape),)


def _shape(dims) -> str:
    return "[" + ",".join(str(int(d)) for d in dims) + "]"


def dense_to_sparse_batch(batch_size, row_shape):
    """`tf.data.experimental.dense_to_sparse_batch(batch_size, row_shape)`: Dataset.sparse_batch for apply."""
    return lambda dataset: dataset.sparse_batch(batch_size, row_shape)


def pad_to_cardinality(cardinality, mask_key="valid"):
    """`tf.data.experimental.pad_to_cardinality(cardinality, mask_key="valid")`: a dataset of dicts padded with
    zero elements up to `cardinality`; `mask_key` says which elements are real."""
    def apply(dataset):
        spec = dataset._spec_inside
        if not isinstance(spec, dict):
            raise ValueError("`pad_to_cardinality` requires its input dataset to be a dictionary.")
        n = dataset._cardinality()
        if n < 0:
            raise ValueError(f"The dataset passed into `pad_to_cardinality` must have a known cardinalty, but has "
                             f"cardinality {n}")
        target = as_int(cardinality, "cardinality")
        if n > target:
            raise ValueError(f"The dataset passed into `pad_to_cardinality` must have a cardinalty less than the "
                             f"target cardinality ({target}), but has cardinality {n}")
        real = dataset.map(lambda element: {**element, mask_key: True})
        if n == target:
            return real
        zeros = {k: pack(s, (_zero(s),)) for k, s in spec.items()}
        padding = DatasetV2.from_tensors({**zeros, mask_key: False}).repeat(target - n)
        return real.concatenate(padding)
    return apply


def _zero(spec):
    if spec._shape is None or any(d is None for d in spec._shape):
        raise ValueError(f"`pad_to_cardinality` needs fully defined element shapes to make padding, got {spec}")
    if spec.dtype.is_string:
        return np.full(tuple(spec._shape), b"", dtype=object)
    return zero_value(spec)[()] if spec._shape == () else zero_value(spec)  # a scalar as a numpy scalar


@dataset_methods
class _ExperimentalMethods:
    def sparse_batch(self, batch_size, row_shape, name=None):
        """Batches elements of varying shape (each at most `row_shape`) into SparseTensors."""
        return SparseBatchDataset(self, batch_size, row_shape)
