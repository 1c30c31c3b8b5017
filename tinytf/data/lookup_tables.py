"""Lookup tables filled from a dataset of (key, value) scalars: tf.data.experimental.DatasetInitializer,
table_from_dataset and index_table_from_dataset. The dataset is read when the table is made, as TF's
InitializeTableFromDataset op does eagerly."""

from __future__ import annotations

import numpy as np

from tinytf.runtime import dtypes

from ..lookup.initializers import TableInitializerBase
from ..lookup.tables import StaticHashTable, StaticVocabularyTable
from ..tensor_spec import TensorSpec
from .experimental_transforms import assert_cardinality
from .structure import ElementError

_BASE = ("Datasets used to initialize lookup tables must produce elements in the form (key, value), where the "
         "keys and values are scalar tensors. ")


def _check_element_spec(spec) -> None:
    if not isinstance(spec, (tuple, list, dict)):  # TF takes len() of the spec: a single tensor's has none
        raise TypeError(f"object of type '{type(spec).__name__}' has no len(): " + _BASE)
    if not isinstance(spec, tuple) or len(spec) != 2:
        n = len(spec)
        raise ValueError(_BASE + f"However, the given dataset produces {n} components instead of two (key, value) "
                         f"components. Full dataset element spec: {spec}.")
    for what, s in zip(("keys", "values"), spec):
        if not isinstance(s, TensorSpec):
            raise ValueError(_BASE + f"However, the given dataset produces non-Tensor {what} of type {type(s)}.")
        if s._shape != ():
            raise ValueError(_BASE + f"However, the given dataset produces {what} of shape {s.shape}.")


class DatasetInitializer(TableInitializerBase):
    """`tf.data.experimental.DatasetInitializer(dataset)`: a table's keys and values from a dataset of
    (key, value) scalar pairs."""

    def __init__(self, dataset):
        self.dataset = dataset
        spec = dataset.element_spec
        _check_element_spec(spec)
        super().__init__(spec[0].dtype, spec[1].dtype)

    def _key_values(self):
        keys, values = [], []
        for item in self.dataset._flat_iter():
            if type(item) is ElementError:
                raise item.error
            keys.append(item[0])
            values.append(item[1])
        return _array(keys, self.key_dtype), _array(values, self.value_dtype)


def _array(items, dtype) -> np.ndarray:
    if dtype.is_string:
        out = np.empty(len(items), dtype=object)
        out[:] = [x[()] if isinstance(x, np.ndarray) else x for x in items]  # a scalar string may be a 0-d array
        return out
    return np.asarray(items, dtype=dtype.np).reshape(-1)


def table_from_dataset(dataset=None, num_oov_buckets=0, vocab_size=None, default_value=None, hasher_spec=None,
                       key_dtype=dtypes.string, name=None):
    """`tf.data.experimental.table_from_dataset(...)`: a StaticHashTable of the dataset's (key, value) pairs;
    with `num_oov_buckets`, missing keys go to hash buckets after the vocabulary."""
    spec = dataset.element_spec
    _check_element_spec(spec)
    key_dtype = dtypes.as_dtype(key_dtype)
    if default_value is None:
        default_value = -1
        if not (spec[1].dtype.is_integer or spec[1].dtype.is_floating):
            raise ValueError(f"`default_value` must be specified when creating a table from a dataset that produces "
                             f"values of type {spec[1].dtype}.")
    if num_oov_buckets < 0:
        raise ValueError(f"`num_oov_buckets` must be greater than or equal to 0, got {num_oov_buckets}.")
    if vocab_size is not None and not hasattr(vocab_size, "dtype") and vocab_size < 1:
        raise ValueError(f"`vocab_size` must be greater than 0, got {vocab_size}.")
    if not key_dtype.is_integer and key_dtype is not dtypes.string:
        raise TypeError(f"`key_dtype` must be either an integer or string type, but got {key_dtype!r}")
    if hasher_spec is not None and getattr(hasher_spec, "hasher", "fasthash") != "fasthash":
        raise ValueError(f"table_from_dataset: only the default hasher ('fasthash', Fingerprint64) is available, "
                         f"got {hasher_spec!r}")
    if vocab_size is not None:
        dataset = dataset.take(vocab_size).apply(assert_cardinality(vocab_size))
    initializer = DatasetInitializer(dataset)
    if num_oov_buckets:
        # TF wraps the table in IdTableWithHashBuckets: a missing key -> size + Fingerprint64(key) % buckets,
        # what StaticVocabularyTable computes for int64 ids.
        return StaticVocabularyTable(initializer, num_oov_buckets, lookup_key_dtype=key_dtype, name=name)
    return StaticHashTable(initializer, default_value, name=name)


def index_table_from_dataset(dataset=None, num_oov_buckets=0, vocab_size=None, default_value=-1, hasher_spec=None,
                             key_dtype=dtypes.string, name=None):
    """`tf.data.experimental.index_table_from_dataset(...)`: each key of the dataset -> its position (int64)."""
    return table_from_dataset(dataset.enumerate().map(lambda v, k: (k, v)), num_oov_buckets, vocab_size,
                              default_value, hasher_spec, key_dtype, name)
