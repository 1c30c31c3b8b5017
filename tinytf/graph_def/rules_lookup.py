"""GraphDef rules of the lookup-table ops (runtime/ops/lookup.py) as TF writes them: LookupTableFindV2,
LookupTableInsertV2, LookupTableRemoveV2, LookupTableSizeV2, LookupTableExportV2, LookupTableImportV2, on the
table's resource handle (the function's argument a SavedModel binds to the table, saved_model/tables.py).

A StaticVocabularyTable's lookup is one tinytf op whose `num_oov_buckets` sends misses to hash buckets; TF writes
that rule as ops (StringToHashBucketFast of the keys, or of AsString of integer keys, + LookupTableSizeV2,
NotEqual, SelectV2), and so does this exporter. Keras' vocabulary tables keep their mask and OOV rules in Python:
not written. rules_more.py merges this table; tf_import_lookup.py is the other direction."""

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
                                  "out-of-vocabulary indices, or a DenseHashTable's buckets) has no TF form here")


def _types(n, keys_index=1, values_index=None):
    attrs = {"Tin": p.attr_type(n.inputs[keys_index].dtype)}
    attrs["Tout"] = p.attr_type(n.attrs["value_dtype"] if values_index is None else n.inputs[values_index].dtype)
    return attrs


def _find(n, const):
    _check_exportable(n)
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
    _check_exportable(n)
    if n.attrs.get("export_columns"):
        raise NotImplementedError("lookup_table_export of a DenseHashTable (its buckets) has no TF form here")
    return "LookupTableExportV2", list(n.refs), {"Tkeys": p.attr_type(n.attrs["key_dtype"]),
                                                 "Tvalues": p.attr_type(n.attrs["value_dtype"])}


RULES = {"lookup_table_find": _find, "lookup_table_insert": _insert, "lookup_table_import": _import,
         "lookup_table_remove": _remove, "lookup_table_size": _size, "lookup_table_export": _export}
TF_NAMES = {"lookup_table_find": "LookupTableFindV2", "lookup_table_insert": "LookupTableInsertV2",
            "lookup_table_import": "LookupTableImportV2", "lookup_table_remove": "LookupTableRemoveV2",
            "lookup_table_size": "LookupTableSizeV2", "lookup_table_export": "LookupTableExportV2"}
# output argument names of these ops inside a FunctionDef (`node:values:0`)
OUTPUT_ARGS = {"LookupTableFindV2": "values", "LookupTableSizeV2": "size", "StringToHashBucketFast": "output",
               "AsString": "output"}
SEPARATE_OUTPUTS = {"LookupTableExportV2": ("keys", "values")}
