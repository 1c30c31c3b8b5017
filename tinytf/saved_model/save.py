"""tf.saved_model.save: the object's structure, every traced graph of its tf.functions, and its variables,
in TensorFlow's SavedModel layout:

  DIR/saved_model.pb                   SavedModel > MetaGraphDef: the function library in TF's op names (one
                                       FunctionDef per traced graph and per branch or loop body, see
                                       tf_library; tinytf's exact graphs ride along in a collection, see
                                       graph_io), the SavedObjectGraph (who holds which variables, assets and
                                       functions), the SignatureDefs, the AssetFileDefs
  DIR/variables/variables.index/.data  the variables, as a tf.train.Checkpoint writes them, with an object
                                       graph whose node ids are the SavedObjectGraph's
  DIR/assets/                          the files of the object's tf.saved_model.Assets
  DIR/fingerprint.pb                   the SavedModel's hashes, as TF 2.21 computes them (fingerprint.py)

The whole directory is written under a temporary name next to DIR and renamed into place at the end, so a
failed or interrupted save leaves an existing DIR as it was."""

from __future__ import annotations

import inspect
import os
import shutil
import tempfile
import warnings

import numpy as np
from tensorboard.compat.proto import meta_graph_pb2, trackable_object_graph_pb2

from tinytf.graph_def import protos
from tinytf.runtime import dtypes
from tinytf.runtime.tensor import EagerTensor

from ..function import Function
from ..lookup.tables import LookupTable
from ..train import trackable
from ..train.bundle import write_bundle
from ..variables import Variable
from . import structure
from .asset import Asset
from .attr_codec import dtype_enum, shape_proto, tensor_proto
from .fingerprint import FINGERPRINT_FILE, fingerprint_def
from .graph_io import graph_to_functions
from .object_functions import functions_of
from .options import SaveOptions
from .proto import SavedModel
from .signatures import SignatureMap, canonical_signatures
from .tables import (
    TableFunction,
    creator_inputs,
    creator_node_name,
    describe_table,
    extra_children,
    graph_def_node,
    is_saved_table,
    write_function,
)
from .tables import input_signature as table_input_signature
from .tables import output_signature as table_output_signature
from .tf_library import TFLibrary, native_collection

SAVED_MODEL_FILE = "saved_model.pb"
TF_VERSION = "2.21.0"  # meta_info_def.tensorflow_version: what TF 2.21 writes (tf.version.VERSION)
WRITER = "tinytf"  # meta_info_def.tensorflow_git_version (TF 2.21 writes "v2.21.0-rc1-5-ga481b10260d" there)


class _Saver:
    def __init__(self, root, signatures):
        self.root = root
        self.objects: list = []  # SavedObjectGraph node id -> object
        self.index: dict = {}  # id(object) -> node id
        self.children: list = []  # node id -> [(local name, node id)]
        self.library: list = []  # FunctionDefs in tinytf's op names (for tinytf's loader: graph_io)
        self.tf_library = TFLibrary()  # the same functions in TF's op names (for TensorFlow's loader)
        self.concrete: dict = {}  # id(ConcreteFunction) -> saved name
        self.constants: list = []  # graph_def Const nodes of captured tensors
        self.signatures = signatures
        self._counter = 0
        self.asset_paths: dict = {}  # id(asset.asset_path) -> the Asset's node id
        self.asset_files: list = []  # (source path, file name under assets/) in asset_file_def order
        self.table_parts: dict = {}  # id(table or initializer) -> its extra children (tables.extra_children)
        self.table_functions: dict = {}  # id(TableFunction) -> (saved name, FunctionDef, bound, specs, output)

    def _add(self, obj) -> int:
        if id(obj) in self.index:
            return self.index[id(obj)]
        self.index[id(obj)] = len(self.objects)
        self.objects.append(obj)
        self.children.append([])
        return len(self.objects) - 1

    def walk(self):
        """Breadth first from the root, as tf.train.Checkpoint numbers objects; tf.functions and the
        signature map are children too."""
        self._add(self.root)
        self.table_parts = {}
        self.paths = [[]]  # node id -> its first breadth-first path of local names (its checkpoint key)
        position = 0
        while position < len(self.objects):
            obj = self.objects[position]
            items = [] if isinstance(obj, (Function, SignatureMap)) else list(trackable.children(obj))
            items += functions_of(obj)
            items += extra_children(self, obj)
            if position == 0 and self.signatures is not None:
                items.append(("signatures", self.signatures))
            if isinstance(obj, SignatureMap):
                items = list(obj.items())
            for name, child in items:
                known = id(child) in self.index
                child_id = self._add(child)
                if not known:
                    self.paths.append(self.paths[position] + [name])
                self.children[position].append((name, child_id))
            position += 1

    def concrete_name(self, concrete, base) -> str:
        key = id(concrete)
        if key not in self.concrete:
            self._counter += 1
            name = f"__inference_{base}_{self._counter}"
            self.concrete[key] = (name, concrete)
            graph = concrete.unoptimized_graph
            n_own = len(graph.inputs) - sum(1 for c in graph.captures.values() if c.kind != "argument")
            self.library.extend(graph_to_functions(graph, name, n_own))
            self.tf_library.add(graph, name, {id(c.placeholder): c.outer for c in graph.captures.values()})
        return self.concrete[key][0]

    def table_function(self, function) -> str:
        """The saved name of a table's function (tables.write_function), written once."""
        key = id(function)
        if key not in self.table_functions:
            self._counter += 1
            base = {"_create_resource": "_creator", "_initialize": "_initializer",
                    "_destroy_resource": "_destroyer"}.get(function.role, function.role)
            name = f"__inference_{base}_{self._counter}"
            self.table_functions[key] = (name, function) + tuple(write_function(self, function, name))
        return self.table_functions[key][0]

    def constant_node(self, object_graph, value) -> int:
        """A captured value as a constant of the SavedObjectGraph and of graph_def; returns its node id."""
        node_name = f"constant_{len(self.constants)}"
        tensor = value if hasattr(value, "numpy") else EagerTensor(
            np.asarray(value), dtypes.string if np.asarray(value).dtype == object else dtypes.as_dtype(
                np.asarray(value).dtype))
        self.constants.append((node_name, tensor))
        node = object_graph.nodes.add()
        node.constant.operation = node_name
        self.objects.append(tensor)
        return len(object_graph.nodes) - 1

    def table_bound_inputs(self, bound, object_graph) -> list:
        ids = []
        for item in bound:
            if id(item) in self.index:  # the table, or the Asset of its vocabulary file
                ids.append(self.index[id(item)])
            else:
                ids.append(self.constant_node(object_graph, item))
        return ids

    def bound_inputs(self, concrete, object_graph) -> list:
        graph = concrete.unoptimized_graph
        by_placeholder = {id(c.placeholder): c for c in graph.captures.values() if c.kind != "argument"}
        ids = []
        for placeholder in graph.inputs:
            capture = by_placeholder.get(id(placeholder))
            if capture is None:
                continue
            outer = capture.outer
            if capture.kind == "resource":
                if isinstance(outer, LookupTable) and not is_saved_table(outer):
                    raise NotImplementedError(f"tf.saved_model.save: {concrete.name} uses a {type(outer).__name__}, "
                                              "which tinytf does not write in a SavedModel yet (tf.lookup's "
                                              "StaticHashTable, StaticVocabularyTable, MutableHashTable and "
                                              "integer-keyed DenseHashTable it does)")
                if id(outer) not in self.index:
                    raise AssertionError(
                        f"Tried to export a function which references an 'untracked' resource. TensorFlow objects "
                        f"(e.g. tf.Variable) captured by functions must be 'tracked' by assigning them to an "
                        f"attribute of a tracked object or assigned to an attribute of the main object directly. "
                        f"Trackable Python objects referring to this tensor (from gc.get_referrers, limited to two "
                        f"hops): the variable {getattr(outer, 'name', outer)!r} used by {concrete.name}")
                ids.append(self.index[id(outer)])
            elif id(outer) in self.asset_paths:  # an Asset's path: the function is bound to the asset
                ids.append(self.asset_paths[id(outer)])
            else:  # a captured eager tensor: a constant node of the SavedObjectGraph and of graph_def
                ids.append(self.constant_node(object_graph, outer))
        return ids


def save(obj, export_dir, signatures=None, options=None) -> None:
    """`tf.saved_model.save(obj, export_dir, signatures=None)`."""
    export_dir = os.fspath(export_dir)
    if isinstance(obj, Function) or not (trackable.is_trackable(obj) or functions_of(obj)):
        raise ValueError(f"Expected an object of type `Trackable`, such as `tf.Module` or a subclass of the "
                         f"`Trackable` class, for export. Got {obj} with type {type(obj)}.")
    signatures = canonical_signatures(obj, signatures)
    saver = _Saver(obj, SignatureMap(signatures) if signatures else None)
    saver.walk()
    meta_graph = _meta_graph(saver)
    _apply_options(meta_graph, saver, options)
    payload = SavedModel(saved_model_schema_version=1)
    payload.meta_graphs.add().ParseFromString(meta_graph.SerializeToString())
    variables = {}
    checkpoint_graph = trackable_object_graph_pb2.TrackableObjectGraph()
    n_walked = len(saver.children)
    for node_id in range(n_walked):
        obj_ = saver.objects[node_id]
        node = checkpoint_graph.nodes.add()
        for name, child in saver.children[node_id]:
            node.children.add(node_id=child, local_name=name)
        if isinstance(obj_, Variable):
            key = _path_key(saver, node_id)
            node.attributes.add(name=trackable.VALUE_ATTRIBUTE, full_name=_saved_name(obj_),
                                checkpoint_key=key)
            variables[key] = obj_._array  # written as is: no copy of a value the save only reads
        elif is_saved_table(obj_) and hasattr(obj_, "_checkpoint_state"):  # a MutableHashTable's entries
            for attribute, value in obj_._checkpoint_state().items():
                key = trackable.variable_key(saver.paths[node_id], attribute)
                node.attributes.add(name=attribute, full_name=attribute, checkpoint_key=key)
                variables.update({key + suffix: part for suffix, part in value.items()})
    variables[trackable.OBJECT_GRAPH_KEY] = np.array(checkpoint_graph.SerializeToString(), dtype=object)
    _write_atomically(export_dir, payload, meta_graph, variables, saver.asset_files)


def _apply_options(meta, saver, options) -> None:
    """What SaveOptions asks of the MetaGraphDef: extra tags, and each aliased tf.function's traces named by
    their alias (TF's meta_info_def.function_aliases)."""
    if options is None:
        return
    if not isinstance(options, SaveOptions):
        raise TypeError(f"tf.saved_model.save: options must be a tf.saved_model.SaveOptions, got {options!r}")
    for tag in options.extra_tags or ():
        meta.meta_info_def.tags.append(tag)
    for alias, function in options.function_aliases.items():
        traces = [saver.concrete[id(c)][0] for c in getattr(function, "_concrete", ()) if id(c) in saver.concrete]
        if not traces:
            raise ValueError(f"function_aliases: {alias!r} names {function!r}, which has no trace in this SavedModel "
                             "(trace it before saving, with get_concrete_function)")
        for name in traces:
            meta.meta_info_def.function_aliases[name] = alias


def _path_key(saver, node_id) -> str:
    return trackable.variable_key(saver.paths[node_id])


def _meta_graph(saver) -> meta_graph_pb2.MetaGraphDef:
    meta = meta_graph_pb2.MetaGraphDef()
    meta.meta_info_def.tags.append("serve")
    # The TF version whose loaders read the file (TF1's loader parses it as a version number: "tinytf" failed);
    # the writer is named in the git version, which TF's loaders only copy onto the loaded object.
    meta.meta_info_def.tensorflow_version = TF_VERSION
    meta.meta_info_def.tensorflow_git_version = WRITER
    meta.meta_info_def.stripped_default_attrs = True
    graph = meta.object_graph_def
    n_walked = len(saver.objects)
    saver.asset_paths = {id(obj.asset_path): i for i, obj in enumerate(saver.objects) if isinstance(obj, Asset)}
    for _ in range(n_walked):
        graph.nodes.add()
    for node_id in range(n_walked):
        obj = saver.objects[node_id]
        node = graph.nodes[node_id]
        for name, child in saver.children[node_id]:
            node.children.add(node_id=child, local_name=name)
        _describe(saver, obj, node, graph, meta)
    for name, concrete in list(saver.concrete.values()):
        saved = graph.concrete_functions[name]
        saved.bound_inputs.extend(saver.bound_inputs(concrete, graph))
        args, kwargs = concrete.structured_input_signature
        saved.canonicalized_input_signature.CopyFrom(structure.encode((tuple(args), dict(kwargs))))
        saved.output_signature.CopyFrom(structure.encode(concrete.structured_outputs))
    for name, function, _, bound, specs, output in list(saver.table_functions.values()):
        saved = graph.concrete_functions[name]
        saved.bound_inputs.extend(saver.table_bound_inputs(bound, graph))
        saved.canonicalized_input_signature.CopyFrom(table_input_signature(specs))
        saved.output_signature.CopyFrom(table_output_signature(output, function.table))
    meta.graph_def.library.function.extend(saver.tf_library.functions())
    meta.graph_def.library.function.extend(entry[2] for entry in saver.table_functions.values())
    native_collection(meta, saver.library)
    if saver.tf_library.failures:
        name, reason = saver.tf_library.failures[0]
        warnings.warn(f"TensorFlow will not be able to load this SavedModel (tinytf will): the function {name} "
                      f"has no form in TensorFlow's ops ({reason})", stacklevel=3)
    for name, value in saver.constants:
        node = meta.graph_def.node.add(name=name, op="Const")
        node.attr["dtype"].type = dtype_enum(value.dtype)
        node.attr["value"].tensor.CopyFrom(tensor_proto(value.numpy()))
    graph_nodes = {}  # object graph node id -> the graph_def node standing for it (a call's bound input)
    for node_id, obj in enumerate(saver.objects[:n_walked]):
        if isinstance(obj, Variable):
            name = obj.name.removesuffix(":0") + f"_{node_id}"
            node = meta.graph_def.node.add(name=name, op="VarHandleOp")
            node.attr["dtype"].type = dtype_enum(obj.dtype)
            node.attr["shape"].shape.CopyFrom(shape_proto(obj._shape))
            node.attr["shared_name"].s = name.encode()
            graph_nodes[node_id] = name
        elif isinstance(obj, Asset):
            index = graph.nodes[node_id].asset.asset_file_def_index
            graph_nodes[node_id] = meta.asset_file_def[index].tensor_info.name.removesuffix(":0")
        elif is_saved_table(obj):  # as TF's graph_def: the creating op of each table
            op, attrs = graph_def_node(obj, node_id)
            name = f"{creator_node_name(op)}_{node_id}"
            for input_name, value, dtype in creator_inputs(obj):  # a dense table's reserved keys
                const = meta.graph_def.node.add(name=f"{name}/{input_name}", op="Const")
                const.attr["value"].CopyFrom(protos.attr_tensor(np.asarray(value, dtype=dtype.np), dtype))
                const.attr["dtype"].CopyFrom(protos.attr_type(dtype))
            node = meta.graph_def.node.add(name=name, op=op)
            node.input.extend(f"{name}/{input_name}" for input_name, _, _ in creator_inputs(obj))
            for key, value in attrs.items():
                node.attr[key].CopyFrom(value)
            graph_nodes[node_id] = name
    for node_id, node in enumerate(graph.nodes):
        if node.WhichOneof("kind") == "constant":
            graph_nodes[node_id] = node.constant.operation
    signature_map = saver.signatures
    if signature_map is not None:
        for key, wrapper in signature_map.items():
            name = saver.concrete[id(wrapper.concrete)][0]
            bound = [graph_nodes[i] for i in graph.concrete_functions[name].bound_inputs]
            _signature_def(meta, key, wrapper, name, bound)
    return meta


def _asset_file_def(saver, meta, asset) -> int:
    """The AssetFileDef of an Asset: its file name under assets/ (made unique) and the graph_def placeholder
    TF1 loaders feed its path to. Returns its index."""
    source = asset.asset_path.numpy().decode()
    if not os.path.isfile(source):
        raise FileNotFoundError(f"Asset file does not exist: {source} (tf.saved_model.Asset of the saved object)")
    taken = {name for _, name in saver.asset_files}
    base, ext = os.path.splitext(os.path.basename(source))
    name, i = base + ext, 1
    while name in taken:
        name, i = f"{base}_{i}{ext}", i + 1
    index = len(saver.asset_files)
    saver.asset_files.append((source, name))
    placeholder = "asset_path_initializer" + (f"_{index}" if index else "")
    node = meta.graph_def.node.add(name=placeholder, op="Placeholder")
    node.attr["dtype"].type = dtype_enum(dtypes.string)
    node.attr["shape"].shape.CopyFrom(shape_proto(()))
    entry = meta.asset_file_def.add(filename=name)
    entry.tensor_info.name = f"{placeholder}:0"
    return index


def _saved_name(variable) -> str:
    """The name a variable is saved under: a Keras variable's path (Keras 3 on TF names the tf.Variable behind
    it by its path, "sequential/dense/kernel", so a reloaded model's variables carry those names), else its
    own name."""
    path = getattr(variable, "path", None)
    return path if isinstance(path, str) and path else variable.name.removesuffix(":0")


def _describe(saver, obj, node, graph, meta=None):
    """Fill one SavedObject: its kind and what the kind records."""
    if isinstance(obj, Variable):
        node.variable.dtype = dtype_enum(obj.dtype)
        node.variable.shape.CopyFrom(shape_proto(obj._shape))
        node.variable.trainable = bool(obj.trainable)
        node.variable.name = _saved_name(obj)
    elif isinstance(obj, Function):
        concretes = list(obj._concrete)
        if not concretes and obj.input_signature is not None:
            concretes = [obj.get_concrete_function()]
        for concrete in concretes:
            node.function.concrete_functions.append(saver.concrete_name(concrete, obj._name))
        _function_spec(node.function.function_spec, obj)
    elif isinstance(obj, Asset):
        node.asset.asset_file_def_index = _asset_file_def(saver, meta, obj)
    elif is_saved_table(obj):
        node.resource.SetInParent()
        describe_table(obj, node)
        if hasattr(obj, "_checkpoint_state"):  # a MutableHashTable: the functions that save and restore it
            saveable = node.saveable_objects["table"]
            for field, role in (("save_function", "save_fn"), ("restore_function", "restore_fn")):
                bare = graph.nodes.add()
                bare.bare_concrete_function.concrete_function_name = saver.table_function(TableFunction(obj, role))
                saver.objects.append(None)
                setattr(saveable, field, len(graph.nodes) - 1)
    elif isinstance(obj, TableFunction):
        node.function.concrete_functions.append(saver.table_function(obj))
        _empty_function_spec(node.function.function_spec)
    elif isinstance(obj, SignatureMap):
        node.user_object.identifier = "signature_map"
        node.user_object.version.producer = node.user_object.version.min_consumer = 1
    elif hasattr(obj, "_signature_of"):  # a signature's wrapper: a bare concrete function taking keywords
        name = saver.concrete_name(obj.concrete, "signature_wrapper_" + obj.key)
        bare = node.bare_concrete_function
        bare.concrete_function_name = name
        bare.argument_keywords.extend(obj.input_names)
        bare.allowed_positional_arguments = len(obj.input_names)  # as TF 2.21 writes its signature wrappers
    else:
        node.user_object.identifier = {list: "trackable_list_wrapper", tuple: "trackable_tuple_wrapper",
                                       dict: "trackable_dict_wrapper"}.get(type(obj), "_generic_user_object")
        node.user_object.version.producer = node.user_object.version.min_consumer = 1


def _function_spec(spec, function):
    """The FunctionSpec of a tf.function: its FullArgSpec and its input_signature."""
    signature = function._signature
    params = list(signature.parameters.values())
    args = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    defaults = tuple(p.default for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
                     and p.default is not inspect.Parameter.empty)
    kwonly = [p.name for p in params if p.kind is p.KEYWORD_ONLY]
    # A method's FullArgSpec is written without `self` and is_method left unset, as TF 2.21 writes it (TF's
    # loader drops the first argument of a spec marked as a method).
    if args[:1] == ["self"]:
        args = args[1:]
    full = spec.fullargspec.named_tuple_value
    full.name = "FullArgSpec"
    for key, value in (("args", args), ("varargs", None), ("varkw", None),
                       ("defaults", defaults if defaults else None), ("kwonlyargs", kwonly),
                       ("kwonlydefaults", None), ("annotations", {})):
        try:
            full.values.add(key=key).value.CopyFrom(structure.encode(value))
        except ValueError:  # a default TF's structures cannot hold: recorded as absent
            full.values[-1].value.CopyFrom(structure.encode(None))
    # written even when absent (a none_value), as TF writes it: TF's loader decodes the field either way
    signature = None if function.input_signature is None else tuple(function.input_signature)
    spec.input_signature.CopyFrom(structure.encode(signature))


def _empty_function_spec(spec):
    """The FunctionSpec of a function without arguments (a table's), as TF writes it."""
    full = spec.fullargspec.named_tuple_value
    full.name = "FullArgSpec"
    for key, value in (("args", []), ("varargs", None), ("varkw", None), ("defaults", None), ("kwonlyargs", []),
                       ("kwonlydefaults", None), ("annotations", {})):
        full.values.add(key=key).value.CopyFrom(structure.encode(value))
    spec.input_signature.CopyFrom(structure.encode(()))


def _signature_def(meta, key, wrapper, function_name, bound):
    """The SignatureDef of one signature: its inputs as placeholders of graph_def, its outputs as the
    outputs of a call node, as TF writes them (`serving_default_x:0`, `StatefulPartitionedCall:0`). The call
    node calls the signature's function on the placeholders and the `bound` nodes (variables, assets,
    constants), so a TF1 session can run the signature from graph_def alone."""
    signature = meta.signature_def[key]
    signature.method_name = "tensorflow/serving/predict"
    call = f"StatefulPartitionedCall_{len(meta.signature_def) - 1}" if len(meta.signature_def) > 1 \
        else "StatefulPartitionedCall"
    call_node = meta.graph_def.node.add(name=call, op="StatefulPartitionedCall")
    call_node.attr["f"].func.name = function_name
    call_node.attr["config_proto"].s = b""
    call_node.attr["executor_type"].s = b""
    graph = wrapper.concrete.unoptimized_graph
    call_node.attr["Tin"].list.type.extend(dtype_enum(t.dtype) for t in graph.inputs)
    call_node.attr["Tout"].list.type.extend(dtype_enum(t.dtype) for t in graph.outputs)
    for name, spec in zip(wrapper.input_names, wrapper.input_specs):
        placeholder = f"{key}_{name}"
        node = meta.graph_def.node.add(name=placeholder, op="Placeholder")
        node.attr["dtype"].type = dtype_enum(spec.dtype)
        node.attr["shape"].shape.CopyFrom(shape_proto(spec._shape))
        call_node.input.append(placeholder)
        info = signature.inputs[name]
        info.name, info.dtype = f"{placeholder}:0", dtype_enum(spec.dtype)
        info.tensor_shape.CopyFrom(shape_proto(spec._shape))
    call_node.input.extend(bound)
    for i, name in enumerate(sorted(wrapper.output_specs)):  # the call's outputs: the flattened dict, by key
        spec = wrapper.output_specs[name]
        info = signature.outputs[name]
        info.name, info.dtype = f"{call}:{i}", dtype_enum(spec.dtype)
        info.tensor_shape.CopyFrom(shape_proto(spec._shape))


def _write_atomically(export_dir, payload, meta_graph, variables, asset_files=()):
    """Write the SavedModel under a temporary directory next to export_dir, then swap it in."""
    parent = os.path.dirname(os.path.abspath(export_dir))
    os.makedirs(parent, exist_ok=True)
    staging = tempfile.mkdtemp(prefix=os.path.basename(os.path.abspath(export_dir)) + ".saving-", dir=parent)
    try:
        os.makedirs(os.path.join(staging, "variables"))
        os.makedirs(os.path.join(staging, "assets"))
        write_bundle(os.path.join(staging, "variables", "variables"), variables)
        for source, name in asset_files:
            shutil.copyfile(source, os.path.join(staging, "assets", name))
        with open(os.path.join(staging, "variables", "variables.index"), "rb") as f:
            index_bytes = f.read()
        fingerprint = fingerprint_def(payload, meta_graph, index_bytes)
        for name, data in ((SAVED_MODEL_FILE, payload.SerializeToString(deterministic=True)),
                           (FINGERPRINT_FILE, fingerprint.SerializeToString())):
            with open(os.path.join(staging, name), "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
        if os.path.isdir(export_dir):  # the old one moves aside only once the new one is complete
            old = staging + ".old"
            os.replace(export_dir, old)
            os.replace(staging, export_dir)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.replace(staging, export_dir)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


__all__ = ["save"]
