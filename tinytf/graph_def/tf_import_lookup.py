"""TensorFlow's lookup-table ops in tinytf (the importer's side of rules_lookup.py): LookupTableFindV2 and
friends on a table a SavedModel bound to the function (saved_model/tables.py restores it). The table is the
node's first input: a tinytf table object, whose key and value dtypes and value shape the tinytf op takes as
attributes. StringToHashBucketFast and AsString, which TF's StaticVocabularyTable writes, are the tf.strings
functions. tf_import.py merges this table."""

from __future__ import annotations

import tinytf as tf
from tinytf.runtime.dispatch import apply
from tinytf.runtime.ops import lookup as lookup_ops


def _table(n):
    table = n.inputs[0]
    if not hasattr(table, "_attrs"):
        raise ValueError(f"{n.nodedef.op} (node {n.nodedef.name}) reads {table!r}, not a lookup table")
    return table


def _find(n):
    table = _table(n)
    return [apply(lookup_ops.lookup_find_op, [table, n.inputs[1], n.inputs[2]], table._attrs())]


def _insert(n):
    table = _table(n)
    apply(lookup_ops.lookup_insert_op, [table, n.inputs[1], n.inputs[2]], table._attrs())
    return []


def _import(n):
    table = _table(n)
    apply(lookup_ops.lookup_import_op, [table, n.inputs[1], n.inputs[2]], table._attrs())
    return []


def _remove(n):
    table = _table(n)
    apply(lookup_ops.lookup_remove_op, [table, n.inputs[1]], {"key_dtype": table.key_dtype})
    return []


def _export(n):
    table = _table(n)
    return list(apply(lookup_ops.lookup_export_op, [table], table._attrs()))


CONVERTERS = {
    "LookupTableFindV2": _find,
    "LookupTableInsertV2": _insert,
    "LookupTableImportV2": _import,
    "LookupTableRemoveV2": _remove,
    "LookupTableSizeV2": lambda n: [apply(lookup_ops.lookup_size_op, [_table(n)])],
    "LookupTableExportV2": _export,
    "StringToHashBucketFast": lambda n: [tf.strings.to_hash_bucket_fast(n.inputs[0], n.attr("num_buckets"))],
    "AsString": lambda n: [tf.strings.as_string(n.inputs[0], precision=n.attr("precision", -1),
                                                scientific=bool(n.attr("scientific", False)),
                                                shortest=bool(n.attr("shortest", False)), width=n.attr("width", -1),
                                                fill=n.attr("fill", "") or "")],
}
# output arguments of these ops inside a FunctionDef (`node:keys:0`, `node:values:0`)
OUTPUT_ARGS = {"LookupTableExportV2": ("keys", "values")}
