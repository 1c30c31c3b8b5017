"""Assets of a TF1 SavedModel, as TF 2.21's builder_impl and loader_impl: the builder takes scalar string
constants holding file paths (assets_collection), copies each file into `assets/` under its basename (a
different file with a taken basename gets `name_1`, ...), and records AssetFileDefs (the constant's tensor name
and the file name) in the MetaGraphDef's `saved_model_assets` collection. The loader feeds each such tensor the
file's path inside the loaded SavedModel while it runs the main op (a vocabulary table's initializer reads the
new path)."""

from __future__ import annotations

import filecmp
import os
import shutil

from tensorboard.compat.proto import meta_graph_pb2

from .saved_model_constants import ASSETS_DIRECTORY, ASSETS_KEY

ASSET_TYPE_URL = "type.googleapis.com/tensorflow.AssetFileDef"


def _asset_path(tensor) -> bytes:
    """The file path a scalar string constant holds (TF's checks and messages)."""
    from ...runtime.tensor import Tensor

    if not isinstance(tensor, Tensor):
        raise TypeError(f"Asset path tensor {tensor} must be a Tensor.")
    if tensor.op.type != "Const":
        raise TypeError(f"Asset path tensor {tensor} must be of type constant.Has type {tensor.op.type} instead.")
    if tensor.dtype.name != "string":
        raise TypeError(f"Asset path tensor {tensor}` must be of dtype string.Has type {tensor.dtype} instead.")
    values = tensor.op.get_attr("value").string_val
    if len(values) != 1:
        raise TypeError(f"Asset path tensor {tensor} must be a scalar.")
    return values[0]


def _unique_filename(path: bytes, filenames: dict) -> bytes:
    """The basename to store `path` under: its own, unless another, different file already took it."""
    name = os.path.basename(path)
    if name not in filenames or filenames[name] == path or filecmp.cmp(path, filenames[name], shallow=False):
        return name
    i, unique = 1, name
    while unique in filenames:
        unique = b"_".join([name, str(i).encode()])
        i += 1
    return unique


def save_assets(assets_collection, export_dir, asset_protos: list) -> None:
    """Record `assets_collection`'s files as AssetFileDefs (appended to `asset_protos`, which holds those of
    earlier MetaGraphDefs as TF's graph collection does) and copy them into export_dir/assets."""
    if not assets_collection:
        return
    filenames: dict = {}
    for tensor in assets_collection:
        path = _asset_path(tensor)
        if not path:
            raise ValueError(f"Asset filepath tensor {tensor} in is invalid.")
        name = _unique_filename(path, filenames)
        asset = meta_graph_pb2.AssetFileDef(filename=os.fsdecode(name))
        asset.tensor_info.name = tensor.name
        asset_protos.append(asset)
        filenames[name] = path
    folder = os.path.join(os.fspath(export_dir), ASSETS_DIRECTORY)
    os.makedirs(folder, exist_ok=True)
    for name, path in filenames.items():
        target = os.path.join(folder, os.fsdecode(name))
        if os.path.exists(path) and os.fsdecode(path) != target:
            shutil.copyfile(path, target)


def add_to_meta_graph(meta, asset_protos) -> None:
    """The AssetFileDefs as the `saved_model_assets` collection (an any_list), where TF's v1 builder puts them."""
    for asset in asset_protos:
        # packed by hand: Any.Pack would name tinytf's proto package (tensorboard.AssetFileDef), which TF's
        # loader cannot unpack
        meta.collection_def[ASSETS_KEY].any_list.value.add(type_url=ASSET_TYPE_URL,
                                                             value=asset.SerializeToString())


def asset_feeds(export_dir, meta, import_scope=None) -> dict:
    """tensor name -> the asset's path inside `export_dir`: the loader's feeds for the main op."""
    protos = list(meta.asset_file_def)
    if not protos and ASSETS_KEY in meta.collection_def:
        for packed in meta.collection_def[ASSETS_KEY].any_list.value:
            protos.append(meta_graph_pb2.AssetFileDef.FromString(packed.value))
    folder = os.path.join(os.fspath(export_dir), ASSETS_DIRECTORY)
    return {(f"{import_scope}/{a.tensor_info.name}" if import_scope else a.tensor_info.name):
            os.path.join(folder, a.filename) for a in protos}
