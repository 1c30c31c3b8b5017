"""TF1's SavedModel from a Session (helper tf1rest): tf.compat.v1.saved_model.Builder (SavedModelBuilder),
simple_save and load (into a Session); saved_model_namespace.py assembles tf.compat.v1.saved_model. The files
are TF's: a saved_model.pb whose MetaGraphDefs carry tags, the graph, the variables collection and the
signatures, and the variables as a name-based checkpoint at variables/variables (written and read by the TF1 Saver)."""

from __future__ import annotations

import os

from tensorboard.compat.proto import meta_graph_pb2

from ...saved_model.proto import SavedModel
from .graph import get_default_graph
from .saved_model_assets import add_to_meta_graph, asset_feeds, save_assets
from .saved_model_constants import LEGACY_INIT_OP_KEY, MAIN_OP_KEY
from .saved_model_signature_constants import DEFAULT_SERVING_SIGNATURE_DEF_KEY
from .saved_model_signature_def_utils import predict_signature_def
from .saved_model_tag_constants import SERVING
from .saver import Saver, export_meta_graph, import_meta_graph


def _variables_prefix(export_dir) -> str:
    return os.path.join(os.fspath(export_dir), "variables", "variables")


def _validate_tensor_info(info) -> None:
    if info.WhichOneof("encoding") is None:
        raise AssertionError(f"Invalid `tensor_info`: {info}. All TensorInfo protos used in the SignatureDefs must "
                             "have one of the 'encoding' fields (e.g., name or coo_sparse) set.")
    if info.dtype == 0:  # DT_INVALID
        raise AssertionError(f"Invalid `tensor_info`: {info}. All TensorInfo protos used in the SignatureDefs must "
                             "have the dtype field set.")


def _validate_signature_def_map(signature_def_map) -> None:
    """TF's checks: every TensorInfo named and typed, and no signature under a key TF reserves."""
    for signature in signature_def_map.values():
        for info in list(signature.inputs.values()) + list(signature.outputs.values()):
            _validate_tensor_info(info)
    if "__saved_model_init_op" in signature_def_map:
        raise KeyError('SignatureDef map key "__saved_model_init_op" is reserved for initialization. Please use a '
                       "different key.")
    if "__saved_model_train_op" in signature_def_map:
        raise KeyError('SignatureDef map key "__saved_model_train_op" is reserved for the train op. Please use a '
                       "different key.")


def _add_main_op(graph, main_op) -> None:
    """As TF: the main op joins the graph's `saved_model_main_op` collection (so the MetaGraphDefs added after it
    carry it too), and a graph holds one."""
    if main_op is None:
        return
    from .ops import Operation

    if not isinstance(main_op, Operation):
        raise TypeError(f"Expected {main_op} to be an Operation but got type {type(main_op)} instead.")
    for key in (MAIN_OP_KEY, LEGACY_INIT_OP_KEY):
        if graph.collections.get(key):
            raise ValueError(f"Graph already contains one or more main ops under the collection {key}.")
    graph.collections.setdefault(MAIN_OP_KEY, []).append(main_op)


class Builder:
    """`tf.compat.v1.saved_model.Builder(export_dir)`: add_meta_graph_and_variables(sess, tags, ...) once (the
    session's variable values and the graph), add_meta_graph(tags, ...) for more tag sets, save()."""

    def __init__(self, export_dir):
        export_dir = os.fspath(export_dir)
        if os.path.exists(export_dir):
            if os.listdir(export_dir):
                raise AssertionError(f"Export directory already exists, and isn't empty. Please choose a different "
                                     f"export directory, or delete all the contents of the specified directory: "
                                     f"{export_dir}")
        else:
            os.makedirs(export_dir)
        self._export_dir = export_dir
        self._saved_model = SavedModel(saved_model_schema_version=1)
        self._has_saved_variables = False
        self._variables: list = []
        self._asset_protos: list = []  # TF keeps them in the graph's collection: later MetaGraphDefs list them too

    def _meta_graph(self, graph, tags, signature_def_map, main_op, assets_collection):
        _validate_signature_def_map(signature_def_map or {})
        save_assets(assets_collection, self._export_dir, self._asset_protos)
        _add_main_op(graph, main_op)
        meta = export_meta_graph(graph=graph, variables=self._variables)
        add_to_meta_graph(meta, self._asset_protos)
        meta.meta_info_def.tags.extend(tags)
        for key, signature in (signature_def_map or {}).items():
            meta.signature_def[key].CopyFrom(signature)
        for op in graph.collections.get(MAIN_OP_KEY, []):
            meta.collection_def[MAIN_OP_KEY].node_list.value.append(op.name)
        # SavedModel's MetaGraphDef class comes from its own descriptor pool: copy through the wire format
        self._saved_model.meta_graphs.add().ParseFromString(meta.SerializeToString())

    def add_meta_graph_and_variables(self, sess, tags, signature_def_map=None, assets_collection=None,
                                     legacy_init_op=None, clear_devices=False, main_op=None,
                                     strip_default_attrs=False, saver=None):
        if self._has_saved_variables:
            raise AssertionError("Graph state including variables and assets has already been saved. Please "
                                 "invoke `add_meta_graph()` instead.")
        graph = sess.graph
        with graph.as_default():
            self._variables = list(graph.collections.get("variables", []))
            saver = saver or Saver(self._variables, allow_empty=True)
            os.makedirs(os.path.dirname(_variables_prefix(self._export_dir)), exist_ok=True)
            saver.save(sess, _variables_prefix(self._export_dir), write_meta_graph=False, write_state=False)
            self._meta_graph(graph, tags, signature_def_map, main_op or legacy_init_op, assets_collection)
        self._has_saved_variables = True

    def add_meta_graph(self, tags, signature_def_map=None, assets_collection=None, legacy_init_op=None,
                       clear_devices=False, main_op=None, strip_default_attrs=False, saver=None):
        if not self._has_saved_variables:
            raise AssertionError("Graph state including variables and assets has not been saved yet. Please "
                                 "invoke `add_meta_graph_and_variables()` first.")
        self._meta_graph(get_default_graph(), tags, signature_def_map, main_op or legacy_init_op, assets_collection)

    def save(self, as_text=False):
        """Write saved_model.pb (saved_model.pbtxt with as_text); returns its path, as bytes as TF's."""
        if as_text:
            from google.protobuf import text_format

            path = os.path.join(self._export_dir, "saved_model.pbtxt")
            with open(path, "w") as f:
                f.write(text_format.MessageToString(self._saved_model))
        else:
            path = os.path.join(self._export_dir, "saved_model.pb")
            with open(path, "wb") as f:
                f.write(self._saved_model.SerializeToString())
        return os.fsencode(path)


SavedModelBuilder = Builder


def simple_save(session, export_dir, inputs, outputs, legacy_init_op=None):
    """The session's graph and variables as a SavedModel with one "serving_default" Predict signature."""
    builder = Builder(export_dir)
    builder.add_meta_graph_and_variables(
        session, tags=[SERVING],
        signature_def_map={DEFAULT_SERVING_SIGNATURE_DEF_KEY: predict_signature_def(inputs, outputs)},
        main_op=legacy_init_op, clear_devices=True)
    builder.save()


def read_saved_model(export_dir):
    export_dir = os.fspath(export_dir)
    saved = SavedModel()
    binary, text = os.path.join(export_dir, "saved_model.pb"), os.path.join(export_dir, "saved_model.pbtxt")
    if os.path.exists(binary):
        with open(binary, "rb") as f:
            saved.ParseFromString(f.read())
    elif os.path.exists(text):
        from google.protobuf import text_format

        with open(text) as f:
            text_format.Merge(f.read(), saved)
    else:
        raise OSError(f"SavedModel file does not exist at: {export_dir}{os.sep}{{saved_model.pbtxt|saved_model.pb}}")
    return saved


def load(sess, tags, export_dir, import_scope=None, **saver_kwargs):
    """Import the MetaGraphDef whose tags are `tags` into `sess`'s graph, restore its variables in `sess`, run
    its main op; returns the MetaGraphDef (its signature_def names the tensors to feed and fetch)."""
    saved = read_saved_model(export_dir)
    wanted = set(tags)
    for stored in saved.meta_graphs:
        if set(stored.meta_info_def.tags) == wanted:
            meta = meta_graph_pb2.MetaGraphDef.FromString(stored.SerializeToString())
            break
    else:
        available = [list(m.meta_info_def.tags) for m in saved.meta_graphs]
        raise RuntimeError(f"MetaGraphDef associated with tags {tags!r} could not be found in SavedModel, with "
                           f"available tags '{available}'. To inspect available tag-sets in the SavedModel, please "
                           "use the SavedModel CLI: `saved_model_cli`.")
    with sess.graph.as_default():
        saver = import_meta_graph(meta, import_scope=import_scope)
        if saver is not None:
            saver.restore(sess, _variables_prefix(export_dir))
        main_ops = meta.collection_def[MAIN_OP_KEY].node_list.value if MAIN_OP_KEY in meta.collection_def else []
        for name in main_ops:  # with the assets' tensors fed their paths inside export_dir, as TF's loader
            scoped = f"{import_scope}/{name}" if import_scope else name
            sess.run(sess.graph.get_operation_by_name(scoped), asset_feeds(export_dir, meta, import_scope))
    return meta


__all__ = ["Builder", "simple_save", "load"]
