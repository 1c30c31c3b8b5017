"""tf.saved_model.load: rebuild the saved objects, variables with their values, and every saved concrete
function as a graph traced again from its FunctionDef (graph_io.Library.replay) and compiled like any
tf.function. Works on SavedModels written by tinytf and, for the ops in tinytf/graph_def/tf_import.py, by
TensorFlow; needs none of the Python code that defined the saved object."""

from __future__ import annotations

import inspect
import os

from google.protobuf.message import DecodeError
from tensorboard.compat.proto import meta_graph_pb2, trackable_object_graph_pb2

from tinytf.runtime import nest
from tinytf.runtime.tensor import EagerTensor

from ..function import Function
from ..train import trackable
from ..train.bundle import BundleReader
from ..variables import Variable
from . import structure
from .asset import Asset
from .attr_codec import array_of_proto, dtype_of_enum, shape_of_proto
from .functions import LoadedFunction, SignatureFunction
from .graph_io import Library
from .proto import SavedModel
from .save import SAVED_MODEL_FILE
from .signatures import SignatureMap
from .tables import restore_table
from .tf_library import native_functions


class _UserObject:
    """A loaded object: its saved attributes (variables, functions, sub-objects), without its class. As in
    TF, `variables` exists only when the saved object had such an attribute (Keras exports save it); a
    loaded tf.Module has its variables under their own attribute names."""

    def __getattr__(self, name):  # only called for attributes that do not exist
        raise AttributeError(f"'_UserObject' object has no attribute '{name}'")

    def _checkpoint_children(self):  # a loaded object can go into a tf.train.Checkpoint, by its saved names
        return [(k, v) for k, v in vars(self).items() if k != "signatures"]

    def __repr__(self):
        return f"<tinytf.saved_model.load._UserObject object at {id(self):#x}>"


def _call_saved(self, *args, **kwargs):
    return self.__dict__["__call__"](*args, **kwargs)


def read_meta_graph(export_dir) -> meta_graph_pb2.MetaGraphDef:
    path = os.path.join(os.fspath(export_dir), SAVED_MODEL_FILE)
    if not os.path.exists(path):
        raise OSError(f"SavedModel file does not exist at: {os.fspath(export_dir)}/"
                      "{saved_model.pbtxt|saved_model.pb}")
    with open(path, "rb") as f:
        data = f.read()
    saved = SavedModel()
    try:
        saved.ParseFromString(data)
        if not saved.meta_graphs:
            raise DecodeError("it holds no MetaGraphDef")
        meta = meta_graph_pb2.MetaGraphDef()
        meta.ParseFromString(saved.meta_graphs[0].SerializeToString())
    except DecodeError as e:
        raise OSError(f"Cannot parse file b'{path}': Error parsing message with type 'tensorflow.SavedModel': "
                      f"{e} (the file is truncated or corrupted)") from None
    return meta


def load(export_dir, tags=None, options=None):
    """`tf.saved_model.load(export_dir)`: the saved root object, rebuilt."""
    meta = read_meta_graph(export_dir)
    graph = meta.object_graph_def
    if not graph.nodes:
        raise ValueError(f"the SavedModel at {export_dir} has no object graph (a TF1 SavedModel?); "
                         "tinytf loads TF2 SavedModels")
    native = native_functions(meta)  # tinytf's exact graphs, when tinytf wrote the file
    library = Library(meta.graph_def.library.function if native is None else native)
    reader = BundleReader(os.path.join(os.fspath(export_dir), "variables", "variables"))
    keys = _checkpoint_keys(reader)
    constants = {n.name: n for n in meta.graph_def.node if n.op == "Const"}
    objects = [None] * len(graph.nodes)
    for node_id, node in enumerate(graph.nodes):  # first the state: objects, containers, variables
        kind = node.WhichOneof("kind")
        if kind == "variable":
            objects[node_id] = _variable(node.variable, reader, keys.get(node_id), node_id)
        elif kind == "asset":  # its file in this SavedModel's assets/ (absent files fail when read, as in TF)
            filename = meta.asset_file_def[node.asset.asset_file_def_index].filename
            objects[node_id] = Asset(os.path.join(os.fspath(export_dir), "assets", filename))
        elif kind == "constant":
            value = constants[node.constant.operation].attr["value"].tensor
            objects[node_id] = EagerTensor(array_of_proto(value), dtype_of_enum(value.dtype))
        elif kind == "user_object":
            identifier = node.user_object.identifier
            objects[node_id] = {"trackable_list_wrapper": [], "trackable_tuple_wrapper": [],
                                "trackable_dict_wrapper": {}, "signature_map": {}}.get(identifier, None)
            if objects[node_id] is None:
                objects[node_id] = _UserObject()
    table_functions = _restore_tables(meta, graph, objects, reader)
    concretes = {}

    def concrete(name, param_names=()):  # rebuilt on first use, shared by every function that lists it
        if name not in concretes:
            saved = graph.concrete_functions[name]
            bound = [objects[i].asset_path if isinstance(objects[i], Asset) else objects[i]  # its path
                     for i in saved.bound_inputs]
            concretes[name] = _rebuild_concrete(library, name, saved, bound, list(param_names))
        return concretes[name]

    for node_id, node in enumerate(graph.nodes):
        kind = node.WhichOneof("kind")
        if node_id in table_functions:  # a table's own function: the table is restored already
            continue
        if kind == "function":
            spec = node.function.function_spec
            signature = _python_signature(spec)
            objects[node_id] = LoadedFunction([concrete(n, signature.parameters) for n in
                                               node.function.concrete_functions], signature, _name_of(graph, node_id),
                                              has_input_signature=spec.HasField("input_signature")
                                              and structure.decode(spec.input_signature) is not None)
        elif kind == "bare_concrete_function":
            bare = node.bare_concrete_function
            objects[node_id] = SignatureFunction(concrete(bare.concrete_function_name), list(bare.argument_keywords),
                                                 bare.allowed_positional_arguments)
        elif objects[node_id] is None and kind != "resource":
            raise ValueError(f"tinytf does not load SavedModel objects of kind {kind!r} (node {node_id})")
    for node_id, node in enumerate(graph.nodes):  # then the edges
        parent = objects[node_id]
        for child in node.children:
            value = objects[child.node_id]
            if isinstance(parent, list):
                parent.append(value)
            elif isinstance(parent, dict):
                parent[child.local_name] = value
            elif isinstance(parent, _UserObject):
                object.__setattr__(parent, child.local_name, value)
    for node_id, node in enumerate(graph.nodes):
        if node.WhichOneof("kind") == "user_object" and node.user_object.identifier == "signature_map":
            objects[node_id] = SignatureMap(objects[node_id])
            for parent_id, parent in enumerate(graph.nodes):
                for child in parent.children:
                    if child.node_id == node_id and isinstance(objects[parent_id], _UserObject):
                        object.__setattr__(objects[parent_id], child.local_name, objects[node_id])
    for obj in objects:
        if isinstance(obj, _UserObject) and "__call__" in obj.__dict__:  # a saved __call__ makes it callable
            obj.__class__ = type("_UserObject", (_UserObject,), {"__call__": _call_saved})
    root = objects[0]
    if isinstance(root, _UserObject) and "signatures" not in root.__dict__:
        object.__setattr__(root, "signatures", SignatureMap())
    if isinstance(root, _UserObject):  # as TF's loader: the versions of the TF that wrote the file
        object.__setattr__(root, "tensorflow_version", meta.meta_info_def.tensorflow_version)
        object.__setattr__(root, "tensorflow_git_version", meta.meta_info_def.tensorflow_git_version)
        if options is not None and getattr(options, "experimental_load_function_aliases", False):
            object.__setattr__(root, "function_aliases", _function_aliases(meta, graph, objects))
    return root


def _restore_tables(meta, graph, objects, reader) -> set:
    """Rebuild the lookup tables of the object graph's resource nodes (saved_model/tables.py), with a mutable
    table's entries from the checkpoint; returns the node ids of the tables' own functions (and of the functions
    those list as their traces), which are not loaded as functions."""
    library = list(meta.graph_def.library.function)
    bound = {name: [objects[i].asset_path if isinstance(objects[i], Asset) else objects[i]
                    for i in saved.bound_inputs] for name, saved in graph.concrete_functions.items()}
    skipped_names, table_state = set(), _table_checkpoint_keys(reader)
    for node_id, node in enumerate(graph.nodes):
        if node.WhichOneof("kind") != "resource":
            continue
        table = restore_table(graph, node_id, library, objects, bound.get)
        if table is None:
            raise ValueError(f"tinytf does not load the SavedModel resource of node {node_id} (only tf.lookup "
                             "hash tables: HashTableV2, MutableHashTableV2, MutableDenseHashTableV2)")
        objects[node_id] = table
        key = table_state.get(node_id)
        if key is not None and hasattr(table, "_restore_checkpoint_state"):
            table._restore_checkpoint_state({"table": {suffix: reader.get_tensor(key + suffix)
                                                       for suffix in ("-keys", "-values")}})
        for child in node.children:
            skipped_names.update(_function_names(graph.nodes[child.node_id]))
        for saveable in node.saveable_objects.values():
            for i in (saveable.save_function, saveable.restore_function):
                skipped_names.update(_function_names(graph.nodes[i]))
    return {i for i, n in enumerate(graph.nodes)
            if n.WhichOneof("kind") in ("function", "bare_concrete_function") and _function_names(n)
            and set(_function_names(n)) <= skipped_names}


def _function_names(node) -> list:
    kind = node.WhichOneof("kind")
    if kind == "function":
        return list(node.function.concrete_functions)
    if kind == "bare_concrete_function":
        return [node.bare_concrete_function.concrete_function_name]
    return []


def _table_checkpoint_keys(reader) -> dict:
    """node id -> checkpoint key of a table's "table" attribute (its "-keys" and "-values" tensors)."""
    if not reader.has_tensor(trackable.OBJECT_GRAPH_KEY):
        return {}
    graph = trackable_object_graph_pb2.TrackableObjectGraph()
    graph.ParseFromString(reader.get_tensor(trackable.OBJECT_GRAPH_KEY))
    return {i: a.checkpoint_key for i, node in enumerate(graph.nodes) for a in node.attributes
            if a.name == "table"}


def _function_aliases(meta, graph, objects) -> dict:
    """alias -> the loaded tf.function whose traces SaveOptions(function_aliases=...) named with it."""
    by_concrete = {name: objects[i] for i, node in enumerate(graph.nodes) if node.WhichOneof("kind") == "function"
                   for name in node.function.concrete_functions}
    aliases = {}
    for concrete_name, alias in meta.meta_info_def.function_aliases.items():
        if concrete_name in by_concrete:
            aliases.setdefault(alias, by_concrete[concrete_name])
    return aliases


def _checkpoint_keys(reader) -> dict:
    """node id -> checkpoint key of its VARIABLE_VALUE, from the checkpoint's object graph (its node ids are
    the SavedObjectGraph's)."""
    if not reader.has_tensor(trackable.OBJECT_GRAPH_KEY):
        return {}
    graph = trackable_object_graph_pb2.TrackableObjectGraph()
    graph.ParseFromString(reader.get_tensor(trackable.OBJECT_GRAPH_KEY))
    return {i: a.checkpoint_key for i, node in enumerate(graph.nodes) for a in node.attributes
            if a.name == trackable.VALUE_ATTRIBUTE}


def _variable(saved, reader, key, node_id) -> Variable:
    if key is None:
        raise ValueError(f"the SavedModel's checkpoint has no value for the variable {saved.name!r} "
                         f"(object graph node {node_id})")
    value = reader.get_tensor(key)
    dtype = dtype_of_enum(saved.dtype)
    variable = Variable(value, dtype=dtype, trainable=saved.trainable, name=saved.name or None,
                        shape=shape_of_proto(saved.shape))
    return variable


def _name_of(graph, node_id) -> str:
    for parent in graph.nodes:
        for child in parent.children:
            if child.node_id == node_id:
                return child.local_name
    return "function"


def _python_signature(spec) -> inspect.Signature:
    """The parameters of a saved tf.function (self left out), from its FullArgSpec."""
    full = structure.decode(spec.fullargspec) if spec.HasField("fullargspec") else {}
    args = list(full.get("args") or [])
    if spec.is_method and args and args[0] == "self":
        args = args[1:]
    defaults = list(full.get("defaults") or [])
    params = []
    for i, name in enumerate(args):
        default_index = i - (len(args) - len(defaults))
        default = defaults[default_index] if default_index >= 0 else inspect.Parameter.empty
        params.append(inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=default))
    params += [inspect.Parameter(n, inspect.Parameter.KEYWORD_ONLY) for n in full.get("kwonlyargs") or []]
    return inspect.Signature(params)


def _rebuild_concrete(library, name, saved, bound, param_names):
    """A ConcreteFunction traced from the FunctionDef `name`: the saved argument structure in, the saved
    output structure out, the bound variables and constants as its captures."""
    args, kwargs = structure.decode(saved.canonicalized_input_signature)
    output_structure = structure.decode(saved.output_signature)
    arg_names = _arg_names(args)
    if len(param_names) >= len(args) and all(n.isidentifier() for n in param_names):
        arg_names = param_names[:len(args)]  # the saved function's own parameter names
    n_args = len(args)

    def body(*call_args, **call_kwargs):
        flat = [x for x in nest.flatten((call_args, call_kwargs), expand_composites=True) if _is_tensor(x)]
        outputs = library.replay(name, flat + list(bound))
        if output_structure is None:
            return None
        outputs = iter(outputs)
        return nest.pack_sequence_as(output_structure, [_output_leaf(x, outputs)
                                                        for x in nest.flatten(output_structure)])

    params = [inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD) for n in arg_names[:n_args]]
    params += [inspect.Parameter(k, inspect.Parameter.KEYWORD_ONLY) for k in sorted(kwargs)]
    body.__signature__ = inspect.Signature(params)
    function = Function(body, name=name, autograph=False)
    return function.get_concrete_function(*args, **kwargs)


def _output_leaf(spec, outputs):
    """An output of the saved structure from the function's flat outputs: a tensor per TensorSpec, an
    ExtensionType value from its component tensors, Python values as saved."""
    if _is_spec(spec):
        return next(outputs)
    if hasattr(type(spec), "_component_specs"):
        return spec._from_components([next(outputs) for _ in spec._component_specs])
    return spec


def _arg_names(args) -> list:
    """Parameter names for a saved trace: its TensorSpecs' names where they are identifiers."""
    names = []
    for i, a in enumerate(args):
        name = getattr(a, "name", None) if _is_spec(a) else None
        names.append(name if name and name.isidentifier() and name not in names else f"args_{i}")
    return names


def _is_spec(x) -> bool:
    from ..tensor_spec import TensorSpec

    return isinstance(x, TensorSpec)


def _is_tensor(x) -> bool:
    from tinytf.runtime.resource import Resource
    from tinytf.runtime.tensor import Tensor

    return isinstance(x, (Tensor, Resource))


__all__ = ["load"]
