"""GraphDef rules of the lookup-table ops (runtime/ops/lookup.py) as TF writes them: LookupTableFindV2,
LookupTableInsertV2, LookupTableRemoveV2, LookupTableSizeV2, LookupTableExportV2, LookupTableImportV2, on the
table's resource handle (the function's argument a SavedModel binds to the table, saved_model/tables.py).

A StaticVocabularyTable's lookup is one tinytf op whose `num_oov_buckets` sends misses to hash buckets; TF writes
that rule as ops (StringToHashBucketFast of the keys, or of AsString of integer keys, + LookupTableSizeV2,
NotEqual, SelectV2), and so does this exporter. Keras' vocabulary table (StringLookup, IntegerLookup) keeps its
mask and OOV rules in its kernel; it is written as Keras 3's TF backend writes them (`_keras_find`).
rules_more.py merges this table; tf_import_lookup.py is the other direction."""

from __future__ import annotations

import numpy as np

from tinytf.runtime import dtypes

from . import protos as p


def _table_of(tensor):
    """The table a graph captured as `tensor` (a resource placeholder), or None."""
    graph = getattr(getattr(tensor, "node", None), "graph", None)
    for capture in getattr(graph, "captures", {}).values():
        if capture.placeholder is tensor:
            return capture.outer
    return None


def _check_exportable(n):
    table = _table_of(n.inputs[0])
    if table is not None and not getattr(table, "_saves_as_tf_table", True):
        raise NotImplementedError(f"{n.op} on a {type(table).__name__}: its lookup rule (Keras' mask and "
                                  "out-of-vocabulary indices, or a string-keyed DenseHashTable's buckets) has no TF "
                                  "form here")


def _types(n, keys_index=1, values_index=None):
    attrs = {"Tin": p.attr_type(n.inputs[keys_index].dtype)}
    attrs["Tout"] = p.attr_type(n.attrs["value_dtype"] if values_index is None else n.inputs[values_index].dtype)
    return attrs


def _find(n, const):
    _check_exportable(n)
    table = _table_of(n.inputs[0])
    if table is not None and hasattr(table, "_oov_start"):  # Keras' vocabulary table (StringLookup, ...)
        return _keras_find(n, const, table)
    buckets = int(n.attrs.get("num_oov_buckets") or 0)
    if not buckets:
        return "LookupTableFindV2", list(n.refs), _types(n)
    table, keys, default = n.refs
    int64 = dtypes.int64
    found = const.node("Lookup/LookupTableFindV2", "LookupTableFindV2", [table, keys, default], _types(n))
    text = keys
    if not n.inputs[1].dtype.is_string:  # integer keys hash by their decimal text, as TF's AsString writes it
        text = const.node("AsString", "AsString", [keys], {
            "T": p.attr_type(n.inputs[1].dtype), "precision": p.attr(-1), "scientific": p.attr(False),
            "shortest": p.attr(False), "width": p.attr(-1), "fill": p.attr("")})
    bucket = const.node("hash_bucket", "StringToHashBucketFast", [text], {"num_buckets": p.attr(buckets)})
    size = const.node("Size/LookupTableSizeV2", "LookupTableSizeV2", [table], {})
    shifted = const.node("Add", "AddV2", [bucket, size], {"T": p.attr_type(int64)})
    minus_one = const("default", np.asarray(-1, np.int64), int64)
    known = const.node("NotEqual", "NotEqual", [found, minus_one], {"T": p.attr_type(int64),
                                                                    "incompatible_shape_error": p.attr(True)})
    return "SelectV2", [known, found, shifted], {"T": p.attr_type(int64)}


def _scalar(const, hint, value, dtype):
    return const(hint, np.asarray(value, dtype=object if dtype.is_string else dtype.np), dtype)


def _keras_find(n, const, table):
    """Keras 3's IndexLookup._lookup_dense in TF's ops, as its TF backend writes it: the table's lookup with the
    layer's default, the mask token's value where the key is the mask token, and with several OOV indices a hash
    (or, for integers, floormod) bucket after the OOV start where the lookup missed."""
    table_ref, keys = n.refs[0], n.refs[1]
    key_dtype, value_dtype = n.inputs[1].dtype, n.attrs["value_dtype"]
    several = not table._invert and table._num_oov > 1
    if not table._invert and table._num_oov == 0:
        raise NotImplementedError("a Keras lookup layer with num_oov_indices=0 (its OOV error is TF's Assert): "
                                  "not written")
    default = -1 if several else table._default
    ids = const.node("None_Lookup/LookupTableFindV2", "LookupTableFindV2",
                     [table_ref, keys, _scalar(const, "default_value", default, value_dtype)], _types(n))
    steps = []
    if table._mask_key is not None:
        steps.append("mask")
    if several:
        steps.append("oov")
    if not steps:
        return "Identity", [ids], {"T": p.attr_type(value_dtype)}
    for i, step in enumerate(steps):
        if step == "mask":
            where = const.node("Equal", "Equal", [keys, _scalar(const, "mask_key", table._mask_key, key_dtype)],
                               {"T": p.attr_type(key_dtype), "incompatible_shape_error": p.attr(True)})
            inputs = [where, _scalar(const, "mask_value", table._mask_value, value_dtype), ids]
        else:
            buckets = _oov_buckets(const, keys, key_dtype, table)
            start = _scalar(const, "oov_start", table._oov_start, dtypes.int64)
            shifted = const.node("add", "AddV2", [buckets, start], {"T": p.attr_type(dtypes.int64)})
            missed = const.node("Equal_1", "Equal", [ids, _scalar(const, "default", -1, value_dtype)],
                                {"T": p.attr_type(value_dtype), "incompatible_shape_error": p.attr(True)})
            inputs = [missed, shifted, ids]
        if i < len(steps) - 1:
            ids = const.node(f"SelectV2_{i}", "SelectV2", inputs, {"T": p.attr_type(value_dtype)})
    return "SelectV2", inputs, {"T": p.attr_type(value_dtype)}


def _oov_buckets(const, keys, key_dtype, table):
    """The OOV bucket of each key: floormod for integers (Keras' default), else Fingerprint64 (or keyed SipHash
    with a salt) of the key's text."""
    if not key_dtype.is_string and not table._hash_integers:
        count = _scalar(const, "num_oov_indices", table._num_oov, key_dtype)
        bucket = const.node("FloorMod", "FloorMod", [keys, count], {"T": p.attr_type(key_dtype)})
        if key_dtype is not dtypes.int64:
            bucket = const.node("Cast", "Cast", [bucket], {"SrcT": p.attr_type(key_dtype),
                                                           "DstT": p.attr_type(dtypes.int64),
                                                           "Truncate": p.attr(False)})
        return bucket
    text = keys
    if not key_dtype.is_string:
        text = const.node("AsString", "AsString", [keys], {
            "T": p.attr_type(key_dtype), "precision": p.attr(-1), "scientific": p.attr(False),
            "shortest": p.attr(False), "width": p.attr(-1), "fill": p.attr("")})
    if table._salt is not None:
        return const.node("hash_bucket", "StringToHashBucketStrong", [text], {
            "num_buckets": p.attr(table._num_oov), "key": p.attr_ints(list(table._salt))})
    return const.node("hash_bucket", "StringToHashBucketFast", [text], {"num_buckets": p.attr(table._num_oov)})


def _insert(n, const):
    _check_exportable(n)
    return "LookupTableInsertV2", list(n.refs), _types(n, 1, 2)


def _import(n, const):
    _check_exportable(n)
    return "LookupTableImportV2", list(n.refs), _types(n, 1, 2)


def _remove(n, const):
    _check_exportable(n)
    return "LookupTableRemoveV2", list(n.refs), {"Tin": p.attr_type(n.inputs[1].dtype)}


def _size(n, const):
    _check_exportable(n)
    return "LookupTableSizeV2", list(n.refs), {}


def _export(n, const):
    _check_exportable(n)  # a DenseHashTable's buckets come out as columns from TF's kernel itself
    return "LookupTableExportV2", list(n.refs), {"Tkeys": p.attr_type(n.attrs["key_dtype"]),
                                                 "Tvalues": p.attr_type(n.attrs["value_dtype"])}


RULES = {"lookup_table_find": _find, "lookup_table_insert": _insert, "lookup_table_import": _import,
         "lookup_table_remove": _remove, "lookup_table_size": _size, "lookup_table_export": _export}
TF_NAMES = {"lookup_table_find": "LookupTableFindV2", "lookup_table_insert": "LookupTableInsertV2",
            "lookup_table_import": "LookupTableImportV2", "lookup_table_remove": "LookupTableRemoveV2",
            "lookup_table_size": "LookupTableSizeV2", "lookup_table_export": "LookupTableExportV2"}
# output argument names of these ops inside a FunctionDef (`node:values:0`)
OUTPUT_ARGS = {"LookupTableFindV2": "values", "LookupTableSizeV2": "size", "StringToHashBucketFast": "output",
               "StringToHashBucketStrong": "output", "AsString": "output"}
SEPARATE_OUTPUTS = {"LookupTableExportV2": ("keys", "values")}
