"""Lookup-table ops (tf.lookup): find, insert, remove, size, export and import of a table. A table is a
`Resource` like a variable: a graph captures it as a `resource` placeholder and at run time the kernels get
the table object itself. The tables live in tinytf/lookup (the face); the runtime only knows this protocol:

    table._find(keys, default) -> values (numpy, keys.shape + value_shape)
    table._vocabulary_size() -> int (the entries a vocabulary's out-of-vocabulary buckets follow)
    table._insert(keys, values), table._remove(keys), table._size() -> int64 scalar
    table._export() -> (keys, values), table._import(keys, values)

Inference cannot read a captured placeholder's table, so the key and value dtypes and the value shape are
attributes of each node. No table op has a gradient (TF's LookupTableFindV2 has none either)."""

from __future__ import annotations

import numpy as np

from .. import dtypes, shapes
from ..registry import OpDef, register
from .fingerprint import fingerprint64


def _check_keys(keys, key_dtype):
    if keys.dtype is not key_dtype:
        raise TypeError(f"the table's keys are {key_dtype.name}, but the keys given are {keys.dtype.name}")


def _infer_find(table, keys, default, *, key_dtype, value_dtype, value_shape, num_oov_buckets=0):
    _check_keys(keys, key_dtype)
    if default.dtype is not value_dtype:
        raise TypeError(f"the table's values are {value_dtype.name}, but the default value is {default.dtype.name}")
    if keys._shape is None:
        return value_dtype, None
    return value_dtype, tuple(keys._shape) + tuple(value_shape)


def _find_kernel(table, keys, default, *, key_dtype, value_dtype, value_shape, num_oov_buckets=0):
    values = table._find(keys, default)
    if num_oov_buckets:
        values = _with_oov_buckets(table, keys, values, default, num_oov_buckets)
    return values


def _with_oov_buckets(table, keys, ids, default, num_buckets):
    """TF's StaticVocabularyTable: a key the vocabulary lacks (its id is the default, -1) goes to bucket
    vocabulary size + Fingerprint64(key) % num_buckets, integers hashed by their decimal text. The rule lives in
    the op, as in TF's graph (StringToHashBucketFast, LookupTableFindV2, SelectV2), so a table restored from a
    SavedModel as a plain hash table computes the same ids."""
    ids = np.array(ids, dtype=np.int64)
    missing = ids == np.asarray(default)
    if not missing.any():
        return ids
    vocabulary = table._vocabulary_size()
    flat_keys, flat_ids, flat_missing = np.asarray(keys).reshape(-1), ids.reshape(-1), missing.reshape(-1)
    for i in np.flatnonzero(flat_missing).tolist():
        key = flat_keys[i]
        data = key if isinstance(key, bytes) else str(int(key)).encode()
        flat_ids[i] = vocabulary + fingerprint64(data) % num_buckets
    return ids


lookup_find_op = register(OpDef(
    "lookup_table_find", _find_kernel, _infer_find, stateful=True, differentiable=False, foldable=False,
    doc="the values of `keys` in a table, `default` for missing keys (TF's LookupTableFindV2)"))


def _infer_insert(table, keys, values, *, key_dtype, value_dtype, value_shape):
    _check_keys(keys, key_dtype)
    if values.dtype is not value_dtype:
        raise TypeError(f"the table's values are {value_dtype.name}, but the values given are {values.dtype.name}")
    if keys._shape is not None and values._shape is not None:
        expected = tuple(keys._shape) + tuple(value_shape)
        if not shapes.compatible(values._shape, expected):
            raise ValueError(f"Expected shape {shapes.fmt(expected)} for value, got {shapes.fmt(values._shape)}")
    return None


def _insert_kernel(table, keys, values, *, key_dtype, value_dtype, value_shape):
    table._insert(keys, values)


lookup_insert_op = register(OpDef(
    "lookup_table_insert", _insert_kernel, _infer_insert, stateful=True, differentiable=False, foldable=False,
    doc="insert or update keys with values (TF's LookupTableInsertV2)"))


def _infer_remove(table, keys, *, key_dtype):
    _check_keys(keys, key_dtype)
    return None


def _remove_kernel(table, keys, *, key_dtype):
    table._remove(keys)


lookup_remove_op = register(OpDef(
    "lookup_table_remove", _remove_kernel, _infer_remove, stateful=True, differentiable=False, foldable=False,
    doc="remove keys from a table; missing keys are ignored (TF's LookupTableRemoveV2)"))


def _size_kernel(table):
    return np.int64(table._size())


lookup_size_op = register(OpDef(
    "lookup_table_size", _size_kernel, lambda table: (dtypes.int64, ()), stateful=True, differentiable=False,
    foldable=False, doc="the number of entries of a table (TF's LookupTableSizeV2)"))


def _infer_export(table, *, key_dtype, value_dtype, value_shape, export_columns=False):
    if export_columns:  # a dense table exports its buckets: keys as a column, scalar values as a column
        return [(key_dtype, (None, 1)), (value_dtype, (None,) + (tuple(value_shape) or (1,)))]
    return [(key_dtype, (None,)), (value_dtype, (None,) + tuple(value_shape))]


def _export_kernel(table, *, key_dtype, value_dtype, value_shape, export_columns=False):
    return table._export()


lookup_export_op = register(OpDef(
    "lookup_table_export", _export_kernel, _infer_export, stateful=True, differentiable=False, foldable=False,
    doc="all keys and values of a table (TF's LookupTableExportV2)"))


def _infer_import(table, keys, values, *, key_dtype, value_dtype, value_shape):
    return _infer_insert(table, keys, values, key_dtype=key_dtype, value_dtype=value_dtype, value_shape=value_shape)


def _import_kernel(table, keys, values, *, key_dtype, value_dtype, value_shape):
    table._import(keys, values)


lookup_import_op = register(OpDef(
    "lookup_table_import", _import_kernel, _infer_import, stateful=True, differentiable=False, foldable=False,
    doc="replace a table's contents with keys and values (TF's LookupTableImportV2)"))
