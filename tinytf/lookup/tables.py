"""Lookup tables as stateful resources (tf.lookup.StaticHashTable, StaticVocabularyTable): a table is a
`Resource` like a variable, so a tf.function or a dataset.map captures it and its lookups are graph ops
(runtime/ops/lookup.py) whose kernels call the table's `_find`. Entries live in a Python dict from key (bytes,
int or float) to value; a lookup is one dict probe per key."""

from __future__ import annotations

import numpy as np

from tinytf.runtime import dtypes
from tinytf.runtime.dispatch import apply
from tinytf.runtime.errors import FailedPreconditionError
from tinytf.runtime.graph import RESOURCE
from tinytf.runtime.ops import lookup as lookup_ops
from tinytf.runtime.ops.fingerprint import fingerprint64
from tinytf.runtime.resource import Resource

from ..constant import convert_to_tensor
from .initializers import known_value


def keys_tensor(keys, key_dtype, table_kind: str):
    """`keys` as a tensor of the table's key dtype: lists convert to it; a tensor of another dtype is TF's
    TypeError."""
    from ..ragged import RaggedTensor
    from ..sparse import SparseTensor

    if isinstance(keys, (SparseTensor, RaggedTensor)):
        return keys
    if not hasattr(keys, "dtype") or isinstance(keys, np.ndarray):
        keys = convert_to_tensor(keys, dtype=key_dtype if not isinstance(keys, np.ndarray) else None)
    else:
        keys = convert_to_tensor(keys)
    if keys.dtype is not key_dtype:
        raise TypeError(f"Dtype of argument `keys` must be {key_dtype!r}, received: {keys.dtype!r}")
    return keys


def map_values(keys, fn):
    """fn applied to a dense tensor, or to the values of a SparseTensor or RaggedTensor (keeping its layout)."""
    from ..ragged import RaggedTensor
    from ..sparse import SparseTensor

    if isinstance(keys, SparseTensor):
        return SparseTensor(keys.indices, fn(keys.values), keys.dense_shape)
    if isinstance(keys, RaggedTensor):
        return keys.with_flat_values(fn(keys.flat_values))
    return fn(keys)


def python_keys(keys: np.ndarray) -> list:
    """The flat keys of a kernel input as hashable Python values (bytes, int, float)."""
    return np.asarray(keys).reshape(-1).tolist()


def numpy_values(items: list, dtype, shape, value_shape=()) -> np.ndarray:
    """Looked-up values as a numpy array of `dtype`, shaped keys' shape + value_shape."""
    if dtype.is_string:
        out = np.empty(len(items), dtype=object)
        out[:] = items if not value_shape else [None] * len(items)
        if value_shape:
            out = np.empty((len(items),) + tuple(value_shape), dtype=object)
            for i, item in enumerate(items):
                out[i] = item
    elif value_shape:
        out = np.stack(items).astype(dtype.np) if items else np.zeros((0,) + tuple(value_shape), dtype.np)
    else:
        out = np.asarray(items, dtype=dtype.np)
    return out.reshape(tuple(shape) + tuple(value_shape))


class LookupTable(Resource):
    """What every table shares: dtypes, the captured resource protocol, and lookup through the graph op."""

    _graph_name = "table"
    # a SavedModel writes the table as TF does (saved_model/tables.py) and the exporter its ops
    # (graph_def/rules_lookup.py); a table whose rule has no TF form there says False
    _saves_as_tf_table = True
    dtype = RESOURCE  # how an op's error message shows the table among its inputs
    _shape = ()

    def __init__(self, key_dtype, value_dtype, value_shape=(), name=None):
        self._key_dtype = dtypes.as_dtype(key_dtype)
        self._value_dtype = dtypes.as_dtype(value_dtype)
        self._value_shape = tuple(value_shape)
        self._table_name = name
        self._entries: dict = {}

    @property
    def key_dtype(self):
        return self._key_dtype

    @property
    def value_dtype(self):
        return self._value_dtype

    @property
    def name(self):
        return None  # tables made eagerly are anonymous resources in TF 2: their name is None

    def _checkpoint_children(self):
        """A table is a node of the object graph (a SavedModel binds it to the functions that use it); what it
        holds below it (its initializer, its functions) the SavedModel writer adds (saved_model/tables.py)."""
        return []

    def _attrs(self) -> dict:
        return {"key_dtype": self._key_dtype, "value_dtype": self._value_dtype, "value_shape": self._value_shape}

    # --- the resource protocol (runtime/ops/lookup.py) -------------------------------------------------------
    def _find(self, keys, default):
        keys = np.asarray(keys)
        default = np.asarray(default)
        get = self._entries.get
        if default.shape == self._value_shape:
            fill = default[()] if not self._value_shape else default
            items = [get(k, fill) for k in python_keys(keys)]
            return numpy_values(items, self._value_dtype, keys.shape, self._value_shape)
        # a default per key (TF accepts a default of the keys' shape)
        defaults = np.broadcast_to(default, keys.shape + self._value_shape).reshape((-1,) + self._value_shape)
        if not self._value_shape:
            defaults = defaults.tolist()
        items = [get(k, defaults[i]) for i, k in enumerate(python_keys(keys))]
        return numpy_values(items, self._value_dtype, keys.shape, self._value_shape)

    def _size(self) -> int:
        return len(self._entries)

    def _vocabulary_size(self) -> int:
        return len(self._entries)

    def _export(self):
        keys = list(self._entries)
        key_array = numpy_values(keys, self._key_dtype, (len(keys),))
        values = numpy_values(list(self._entries.values()), self._value_dtype, (len(keys),), self._value_shape)
        return key_array, values

    def _import_checked(self, keys, values) -> None:
        """Static tables are filled once: a key given twice with different values is TF's error."""
        entries = {}
        rows = np.asarray(values).reshape((-1,) + self._value_shape)
        for key, value in zip(python_keys(keys), rows if self._value_shape else rows.tolist()):
            if key in entries and not np.array_equal(entries[key], value):
                shown = key.decode(errors="replace") if isinstance(key, bytes) else key
                raise FailedPreconditionError(f"HashTable has different value for same key. Key {shown} has "
                                              f"{_scalar_text(entries[key])} and trying to add value "
                                              f"{_scalar_text(value)}")
            entries[key] = value
        self._entries = entries

    # --- the public API --------------------------------------------------------------------------------------
    def size(self, name=None):
        """The number of entries (an int64 scalar)."""
        return apply(lookup_ops.lookup_size_op, [self], name=name)

    def export(self, name=None):
        """All keys and values, as two tensors (in no particular order, as TF's)."""
        return apply(lookup_ops.lookup_export_op, [self], self._attrs(), name=name)

    def __getitem__(self, keys):
        return self.lookup(keys)


def _scalar_text(value) -> str:
    if isinstance(value, bytes):
        return value.decode(errors="replace")
    return str(value)


class StaticHashTable(LookupTable):
    """An immutable key -> value table filled by an initializer; missing keys give `default_value`."""

    def __init__(self, initializer, default_value, name=None, experimental_is_anonymous=False):
        super().__init__(initializer.key_dtype, initializer.value_dtype, name=name)
        self._default = convert_to_tensor(default_value, dtype=initializer.value_dtype)
        self._default_value = known_value(self._default, "default value")
        self._initializer = initializer
        initializer.initialize(self)

    @property
    def default_value(self):
        return self._default

    def lookup(self, keys, name=None):
        """The values of `keys` (a tensor, SparseTensor or RaggedTensor of the key dtype)."""
        keys = keys_tensor(keys, self._key_dtype, "StaticHashTable")
        default = convert_to_tensor(self._default_value)
        return map_values(keys, lambda k: apply(lookup_ops.lookup_find_op, [self, k, default], self._attrs(),
                                                name=name))


def oov_hash(key, num_buckets: int) -> int:
    """TF's bucket of an out-of-vocabulary key: Fingerprint64 of its bytes (integers by their decimal text, as
    tf.strings.as_string writes them) modulo the number of buckets."""
    data = key if isinstance(key, bytes) else str(int(key)).encode()
    return fingerprint64(data) % num_buckets


class StaticVocabularyTable(LookupTable):
    """Keys -> int64 ids from a vocabulary; a key outside it goes to one of `num_oov_buckets` extra ids by its
    Fingerprint64 hash (ids vocabulary size .. vocabulary size + num_oov_buckets - 1)."""

    def __init__(self, initializer, num_oov_buckets, lookup_key_dtype=None, name=None,
                 experimental_is_anonymous=False):
        if num_oov_buckets <= 0:
            raise ValueError("`num_oov_buckets` must be > 0; use StaticHashTable.")
        if initializer is not None and initializer.value_dtype is not dtypes.int64:
            raise TypeError(f"Invalid `value_dtype`, expected {dtypes.int64!r} but got "
                            f"{initializer.value_dtype!r}.")
        key_dtype = initializer.key_dtype if initializer is not None else dtypes.string
        if lookup_key_dtype is not None:
            key_dtype = dtypes.as_dtype(lookup_key_dtype)
        super().__init__(key_dtype, dtypes.int64, name=name)
        self._num_oov_buckets = int(num_oov_buckets)
        self._given_name = name
        self._initializer = initializer
        if initializer is not None:
            initializer.initialize(self)

    @property
    def name(self):
        return self._given_name

    def _size(self) -> int:
        return len(self._entries) + self._num_oov_buckets

    def lookup(self, keys, name=None):
        """The ids of `keys`: a vocabulary key's own id, any other key its hash bucket after the vocabulary."""
        keys = keys_tensor(keys, self._key_dtype, "StaticVocabularyTable")
        default = convert_to_tensor(np.int64(-1))  # a vocabulary miss, which the op sends to a bucket
        attrs = {**self._attrs(), "num_oov_buckets": self._num_oov_buckets}
        return map_values(keys, lambda k: apply(lookup_ops.lookup_find_op, [self, k, default], attrs, name=name))
