"""Lookup tables in a SavedModel, as TensorFlow 2.21 writes and reads them.

TF saves a table (StaticHashTable, StaticVocabularyTable, MutableHashTable, DenseHashTable) as a `resource` node
of the object graph with three functions as children: `_create_resource` (a HashTableV2, MutableHashTableV2 or
MutableDenseHashTableV2 node, the last with its empty and deleted keys as Const inputs),
`_initialize` (LookupTableImportV2 of the initializer's keys and values, bound as constants, or
InitializeTableFromTextFileV2 of the vocabulary file, bound as an asset) and `_destroy_resource`. A static table
also has its `_initializer` (with the file's Asset as `_filename`); a mutable table keeps its contents in the
checkpoint ("<path>/.ATTRIBUTES/table-keys", "-values"; a DenseHashTable's every bucket, as its export gives
them) and names two functions that write and read them (`saveable_objects["table"]`: save_fn, restore_fn). The
functions that use a table bind its node and call LookupTableFindV2 and friends on it (graph_def/rules_lookup.py).

No tinytf graph creates a table, so these functions are written here, in TF's ops, by hand (`TableFunction`);
tinytf's loader reads them the same way back (`restore_table`): the creating op gives the kind and dtypes, the
initializing op the keys and values or the file, and the checkpoint a MutableHashTable's entries."""

from __future__ import annotations

import json
import os

import numpy as np
from tensorboard.compat.proto import function_pb2, op_def_pb2

from tinytf.graph_def import protos as p
from tinytf.runtime import dtypes
from tinytf.runtime.graph import RESOURCE
from tinytf.runtime.tensor import EagerTensor

from ..lookup.initializers import KeyValueTensorInitializer, TableInitializerBase, TextFileInitializer
from ..lookup.mutable_tables import DenseHashTable, MutableHashTable
from ..lookup.tables import LookupTable, StaticHashTable, python_keys
from . import structure
from .asset import Asset

ROLES = ("_create_resource", "_initialize", "_destroy_resource")
# The type of the settings a Keras vocabulary table keeps in its SavedObject's serialized_user_proto (JSON), which
# TF's loader ignores (the node has no registered_name) and tinytf's rebuilds the table from.
KERAS_VOCABULARY = "type.tinytf/keras.VocabularyTable"


def describe_table(table, node) -> None:
    """Fill a table's SavedObject beyond its kind: a Keras vocabulary table's settings."""
    if hasattr(table, "_saved_settings"):
        node.serialized_user_proto.type_url = KERAS_VOCABULARY
        node.serialized_user_proto.value = json.dumps(table._saved_settings(), sort_keys=True).encode()


def _keras_vocabulary_table(key_dtype, value_dtype, settings):
    # Keras is imported only when a SavedModel holds one of its tables (loading any SavedModel need not import it)
    from ..keras.layers.preprocessing.vocabulary_table import VocabularyTable

    return VocabularyTable._from_saved_settings(key_dtype, value_dtype, settings)


def is_saved_table(obj) -> bool:
    """A table this module saves (a Keras vocabulary table too; `_saves_as_tf_table` says so)."""
    return isinstance(obj, LookupTable) and obj._saves_as_tf_table


class TableFunction:
    """One function of a saved table (a node of the object graph): `role` is one of ROLES, or "save_fn" /
    "restore_fn" of a MutableHashTable."""

    def __init__(self, table, role: str):
        self.table, self.role = table, role

    def _checkpoint_children(self):
        return []


def extra_children(saver, obj) -> list:
    """What the object graph holds below a table or an initializer besides its trackable attributes: a table's
    `_initializer` and functions, a text file initializer's Asset. Made once per save (saver.table_parts)."""
    parts = saver.table_parts
    if is_saved_table(obj):
        if id(obj) not in parts:
            initializer = getattr(obj, "_initializer", None)
            items = [("_initializer", initializer)] if isinstance(initializer, TableInitializerBase) else []
            items += [(role, TableFunction(obj, role)) for role in ROLES]
            parts[id(obj)] = items
        return parts[id(obj)]
    if isinstance(obj, TextFileInitializer):
        if id(obj) not in parts:
            parts[id(obj)] = [("_filename", Asset(obj._filename))]
        return parts[id(obj)]
    return []


def graph_def_node(table, node_id: int) -> tuple:
    """(TF op, attrs) of the node of graph_def standing for the table (a signature's call binds it)."""
    return _creator_op(table, node_id)


def creator_inputs(table) -> list:
    """(name, value, dtype) of the Const inputs of the table's creating op: a DenseHashTable's reserved keys."""
    if isinstance(table, DenseHashTable):
        return [("empty_key", table._empty_key, table.key_dtype), ("deleted_key", table._deleted_key, table.key_dtype)]
    return []


def creator_node_name(op: str) -> str:
    return {"HashTableV2": "hash_table", "MutableHashTableV2": "MutableHashTable"}.get(op, "MutableDenseHashTable")


def _creator_op(table, node_id: int) -> tuple:
    attrs = {"key_dtype": p.attr_type(table.key_dtype), "value_dtype": p.attr_type(table.value_dtype),
             "container": p.attr(""), "shared_name": p.attr(""), "use_node_name_sharing": p.attr(False)}
    if isinstance(table, DenseHashTable):  # TF's loader shares dense tables by name: each gets its own, as TF's
        return "MutableDenseHashTableV2", {**attrs, "shared_name": p.attr(f"table_{node_id}"),
                                           "value_shape": p.attr_shape(table._value_shape),
                                           "initial_num_buckets": p.attr(int(table._num_buckets)),
                                           "max_load_factor": p.attr(0.8)}
    if isinstance(table, MutableHashTable):
        return "MutableHashTableV2", {**attrs, "value_shape": p.attr_shape(table._value_shape)}
    return "HashTableV2", attrs


class _Writer:
    """A FunctionDef in TF's ops, node by node."""

    def __init__(self, name: str):
        self.fdef = function_pb2.FunctionDef(signature=op_def_pb2.OpDef(name=name))

    def arg(self, name, dtype) -> str:
        self.fdef.signature.input_arg.add(name=name, type=p.type_enum(dtype))
        return name

    def node(self, name, op, inputs=(), attrs=None, control=()):
        node = self.fdef.node_def.add(name=name, op=op)
        node.input.extend(list(inputs) + [f"^{c}" for c in control])
        for key, value in (attrs or {}).items():
            node.attr[key].CopyFrom(value)
        return name

    def const(self, name, value, dtype) -> str:
        self.node(name, "Const", (), {"value": p.attr_tensor(np.asarray(value, dtype=object if dtype.is_string
                                                                       else dtype.np), dtype),
                                      "dtype": p.attr_type(dtype)})
        return f"{name}:output:0"

    def outputs(self, refs_and_dtypes, stateful=()):
        noop = self.node("NoOp", "NoOp", (), {}, stateful) if stateful else None
        for i, (ref, dtype) in enumerate(refs_and_dtypes):
            out = "identity" if i == 0 else f"identity_{i}"
            name = "Identity" if i == 0 else f"Identity_{i}"
            self.node(name, "Identity", [ref], {"T": p.attr_type(dtype)}, [noop] if noop else ())
            self.fdef.signature.output_arg.add(name=out, type=p.type_enum(dtype))
            self.fdef.ret[out] = f"{name}:output:0"
        if stateful:
            self.fdef.signature.is_stateful = True
            for name in stateful:
                self.fdef.signature.control_output.append(name)
                self.fdef.control_ret[name] = name
        return self.fdef


def _types(table) -> dict:
    return {"Tin": p.attr_type(table.key_dtype), "Tout": p.attr_type(table.value_dtype)}


def write_function(saver, function: TableFunction, name: str):
    """(FunctionDef, bound objects, input specs, output spec) of one table function. Bound objects are the table,
    the Asset of its file, or numpy values (saved as constants)."""
    table, role = function.table, function.role
    w = _Writer(name)
    one = dtypes.int32
    if role == "_create_resource":
        op, attrs = _creator_op(table, saver.index[id(table)])
        inputs = [w.const(name, value, dtype) for name, value, dtype in creator_inputs(table)]
        node = w.node(creator_node_name(op), op, inputs, attrs)
        return w.outputs([(f"{node}:table_handle:0", RESOURCE)], [node]), [], [], ("resource", RESOURCE)
    if role == "_destroy_resource":
        return w.outputs([(w.const("Const", 1, one), one)]), [], [], ("unknown", one)
    if role == "_initialize":
        initializer = getattr(table, "_initializer", None)
        handle = w.arg("table_handle", RESOURCE)
        if isinstance(initializer, TextFileInitializer):
            path = w.arg("asset_filepath", dtypes.string)
            node = w.node("text_file_init/InitializeTableFromTextFileV2", "InitializeTableFromTextFileV2",
                          [handle, path], {"key_index": p.attr(int(initializer._key_index)),
                                           "value_index": p.attr(int(initializer._value_index)),
                                           "vocab_size": p.attr(-1 if initializer._vocab_size is None
                                                                else int(initializer._vocab_size)),
                                           "delimiter": p.attr(initializer._delimiter or " "),
                                           "offset": p.attr(int(initializer._offset))})
            asset = dict(extra_children(saver, initializer))["_filename"]
            return w.outputs([(w.const("Const", 1, one), one)], [node]), [table, asset], [], ("unknown", one)
        if initializer is None and isinstance(table, MutableHashTable):  # its entries come from the checkpoint
            del w.fdef.signature.input_arg[:]
            return w.outputs([(w.const("Const", 1, one), one)]), [], [], ("unknown", one)
        keys_arg = w.arg("keys", table.key_dtype)
        values_arg = w.arg("values", table.value_dtype)
        node = w.node("key_value_init/LookupTableImportV2", "LookupTableImportV2", [handle, keys_arg, values_arg],
                      _types(table))
        # a Keras vocabulary table has no initializer: its current entries are imported
        keys, values = initializer._key_values() if initializer is not None else table._export()
        return (w.outputs([(w.const("Const", 1, one), one)], [node]), [table, keys, values], [],
                ("unknown", one))
    if role == "save_fn":
        key = w.arg("checkpoint_key", dtypes.string)
        handle = w.arg("table_handle", RESOURCE)
        export = w.node("table_export/LookupTableExportV2", "LookupTableExportV2", [handle],
                        {"Tkeys": p.attr_type(table.key_dtype), "Tvalues": p.attr_type(table.value_dtype)})
        string = dtypes.string
        names = []
        for i, suffix in enumerate(("-keys", "-values")):
            suffix_ref = w.const(f"add_{i}/y", suffix.encode(), string)
            names.append(w.node(f"add_{i}", "Add", [key, suffix_ref], {"T": p.attr_type(string)}))
        empty = w.const("slice_spec", b"", string)
        refs = [(f"{names[0]}:z:0", string), (empty, string), (f"{export}:keys:0", table.key_dtype),
                (f"{names[1]}:z:0", string), (empty, string), (f"{export}:values:0", table.value_dtype)]
        return w.outputs(refs, [export]), [table], [("checkpoint_key", string, ())], "save"
    if role == "restore_fn":
        keys_arg = w.arg("restored_tensors_0", table.key_dtype)
        values_arg = w.arg("restored_tensors_1", table.value_dtype)
        handle = w.arg("table_handle", RESOURCE)
        node = w.node("table_restore/LookupTableImportV2", "LookupTableImportV2", [handle, keys_arg, values_arg],
                      _types(table))
        specs = [("restored_tensors_0", table.key_dtype, None), ("restored_tensors_1", table.value_dtype, None)]
        return w.outputs([(w.const("Const", 1, one), one)], [node]), [table], specs, ("unknown", one)
    raise ValueError(f"unknown table function {role!r}")


def input_signature(specs):
    """The canonicalized input signature ((TensorSpec, ...), {}) of a table function."""
    from ..tensor_spec import TensorSpec

    return structure.encode((tuple(TensorSpec(shape, dtype, name=name) for name, dtype, shape in specs), {}))


def output_signature(output, table):
    """What TF writes as a table function's output structure: a TensorSpec, or save_fn's two saveables."""
    from ..tensor_spec import TensorSpec

    if output == "save":
        def saveable(i, dtype):
            return {"name": TensorSpec((), dtypes.string, name=f"tensor_{i}_name"),
                    "slice_spec": TensorSpec((), dtypes.string, name=f"tensor_{i}_slice_spec"),
                    "tensor": TensorSpec(None, dtype, name=f"tensor_{i}_tensor")}

        return structure.encode([saveable(0, table.key_dtype), saveable(1, table.value_dtype)])
    name, dtype = output
    return structure.encode(TensorSpec((), dtype, name=name))


# --- reading a saved table back ------------------------------------------------------------------------------------
def _function_def(library, name):
    for fdef in library:
        if fdef.signature.name == name:
            return fdef
    raise ValueError(f"the SavedModel's function library has no function {name!r} (a table's function)")


def _attr_dtype(node, key):
    from .attr_codec import dtype_of_enum

    return dtype_of_enum(node.attr[key].type)


def restore_table(graph, node_id, library, objects, bound_of):
    """The table of the object graph's resource node `node_id`, made from its `_create_resource` function and
    filled by its `_initialize` function (keys and values, or a vocabulary file); None when the creating function
    makes no table tinytf knows (the node is then loaded as a plain object)."""
    from .attr_codec import shape_of_proto

    node = graph.nodes[node_id]
    children = {c.local_name: c.node_id for c in node.children}
    if "_create_resource" not in children:
        return None
    creator = _function_def(library, _concrete_name(graph, children["_create_resource"]))
    made = next((n for n in creator.node_def if n.op in ("HashTableV2", "MutableHashTableV2",
                                                         "MutableDenseHashTableV2")), None)
    if made is None:
        return None
    key_dtype, value_dtype = _attr_dtype(made, "key_dtype"), _attr_dtype(made, "value_dtype")
    if node.serialized_user_proto.type_url == KERAS_VOCABULARY:
        table = _keras_vocabulary_table(key_dtype, value_dtype, json.loads(node.serialized_user_proto.value))
        name = _concrete_name(graph, children["_initialize"])
        _initialize(table, _function_def(library, name), bound_of(name), objects)
        return table
    if made.op in ("MutableHashTableV2", "MutableDenseHashTableV2"):
        shape = shape_of_proto(made.attr["value_shape"].shape) if "value_shape" in made.attr else ()
        default = np.zeros(shape or (), dtype=object if value_dtype.is_string else value_dtype.np)
        if made.op == "MutableHashTableV2":
            return _RestoredMutableHashTable(key_dtype, value_dtype, default)
        empty, deleted = (_const_input(creator, ref) for ref in made.input[:2])
        buckets = made.attr["initial_num_buckets"].i if "initial_num_buckets" in made.attr else 131072
        return _RestoredDenseHashTable(key_dtype, value_dtype, default, empty, deleted, int(buckets))
    table = _RestoredHashTable(key_dtype, value_dtype)
    if "_initialize" in children:
        name = _concrete_name(graph, children["_initialize"])
        _initialize(table, _function_def(library, name), bound_of(name), objects)
    return table


def _const_input(fdef, ref: str):
    """The value of the Const node of `fdef` that `ref` ("name:output:0") reads (a dense table's reserved keys)."""
    from .attr_codec import array_of_proto

    name = ref.split(":")[0]
    node = next((n for n in fdef.node_def if n.name == name), None)
    if node is None or node.op != "Const":
        raise ValueError(f"{fdef.signature.name}: the dense table's reserved key {name!r} is no constant")
    return array_of_proto(node.attr["value"].tensor)


def _concrete_name(graph, function_node_id) -> str:
    node = graph.nodes[function_node_id]
    kind = node.WhichOneof("kind")
    if kind == "function":
        return node.function.concrete_functions[0]
    return node.bare_concrete_function.concrete_function_name


def _initialize(table, fdef, bound: list, objects):
    """Run a table's `_initialize` FunctionDef: its one initializing node, on the values bound to its arguments."""
    args = {arg.name: value for arg, value in zip(fdef.signature.input_arg, bound)}

    def value(ref):
        return args[ref.split(":")[0]] if ref in args or ref.split(":")[0] in args else None

    for node in fdef.node_def:
        if node.op == "LookupTableImportV2":
            keys, values = (_numpy(value(r)) for r in node.input[1:3])
            if not hasattr(table, "_import_checked"):  # a Keras vocabulary table: its entries as they were
                table._entries = dict(zip(python_keys(keys), python_keys(values)))
                continue
            table._initializer = KeyValueTensorInitializer(keys, values)
            table._initializer.initialize(table)
        elif node.op == "InitializeTableFromTextFileV2":
            path = _numpy(value(node.input[1]))
            path = path.item() if isinstance(path, np.ndarray) else path
            vocab_size = node.attr["vocab_size"].i if "vocab_size" in node.attr else -1  # defaults are stripped
            delimiter = node.attr["delimiter"].s.decode() if "delimiter" in node.attr else "\t"
            initializer = TextFileInitializer(
                os.fsdecode(path), table.key_dtype, int(node.attr["key_index"].i), table.value_dtype,
                int(node.attr["value_index"].i), vocab_size=None if vocab_size < 0 else vocab_size,
                delimiter=delimiter, value_index_offset=int(node.attr["offset"].i))
            initializer.initialize(table)
            table._initializer = initializer


def _numpy(value):
    if isinstance(value, Asset):
        return value.asset_path.numpy()
    if isinstance(value, EagerTensor):
        return value.numpy()
    return np.asarray(value)


class _RestoredHashTable(LookupTable):
    """A static table rebuilt from a SavedModel: its dtypes from the creating op, its entries from the
    initializing op. As TF's restored table it has no `lookup` of its own (its default value lives in the saved
    functions, which bring it as LookupTableFindV2's third input); size and export work, and it saves again."""

    def __init__(self, key_dtype, value_dtype):
        super().__init__(key_dtype, value_dtype)
        self._initializer = None

    def _import_checked(self, keys, values) -> None:
        StaticHashTable._import_checked(self, keys, values)


class _RestoredMutableHashTable(MutableHashTable):
    """A MutableHashTable rebuilt from a SavedModel, its entries from the checkpoint. Its default value is not
    saved (TF's saved functions bring it as an input), so a lookup from new code gives its own."""

    def lookup(self, keys, dynamic_default_values=None, name=None):
        if dynamic_default_values is None:
            raise ValueError("a MutableHashTable loaded from a SavedModel does not know its default value (the "
                             "saved functions carry it): pass dynamic_default_values")
        return super().lookup(keys, dynamic_default_values, name=name)


class _RestoredDenseHashTable(DenseHashTable):
    """A DenseHashTable rebuilt from a SavedModel (its reserved keys and bucket count from the creating op, its
    entries from the checkpoint's buckets). Its default value is not saved, as a MutableHashTable's."""

    lookup = _RestoredMutableHashTable.lookup


__all__ = ["TableFunction", "extra_children", "graph_def_node", "is_saved_table", "restore_table", "write_function"]
