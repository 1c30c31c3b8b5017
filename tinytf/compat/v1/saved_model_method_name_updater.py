"""tf.compat.v1.saved_model.signature_def_utils.MethodNameUpdater: rewrite the method_name of signatures in a
saved SavedModel (e.g. a Predict signature re-declared as Regress) and write it back, as TF 2.21's."""

from __future__ import annotations

import os

from .saved_model_constants import SAVED_MODEL_FILENAME_PB, SAVED_MODEL_FILENAME_PBTXT


class MethodNameUpdater:
    def __init__(self, export_dir):
        from .saved_model_v1 import read_saved_model

        self._export_dir = os.fspath(export_dir)
        self._saved_model = read_saved_model(self._export_dir)

    def replace_method_name(self, signature_key, method_name, tags=None):
        """Set `method_name` of signature `signature_key` in the MetaGraphDef whose tags are `tags` (a tag or a
        list; None: every MetaGraphDef)."""
        if not signature_key:
            raise ValueError("`signature_key` must be defined.")
        if not method_name:
            raise ValueError("`method_name` must be defined.")
        if tags is not None and not isinstance(tags, list):
            tags = [tags]
        found = False
        for meta in self._saved_model.meta_graphs:
            if tags is None or set(tags) == set(meta.meta_info_def.tags):
                if signature_key not in meta.signature_def:
                    raise ValueError(
                        f"MetaGraphDef associated with tags {tags} does not have a signature_def with key: "
                        f"'{signature_key}'. This means either you specified the wrong signature key or forgot to "
                        "put the signature_def with the corresponding key in your SavedModel.")
                meta.signature_def[signature_key].method_name = method_name
                found = True
        if not found:
            raise ValueError(
                f"MetaGraphDef associated with tags {tags} could not be found in SavedModel. This means either you "
                "specified invalid tags or your SavedModel does not have a MetaGraphDef with the specified tags.")

    def save(self, new_export_dir=None):
        """Write the updated saved_model.pb (or .pbtxt, when the input was text) into `new_export_dir` (default:
        over the input)."""
        as_text = os.path.exists(os.path.join(self._export_dir, SAVED_MODEL_FILENAME_PBTXT))
        folder = os.fspath(new_export_dir) if new_export_dir else self._export_dir
        if as_text:
            with open(os.path.join(folder, SAVED_MODEL_FILENAME_PBTXT), "w") as f:
                f.write(str(self._saved_model))
        else:
            with open(os.path.join(folder, SAVED_MODEL_FILENAME_PB), "wb") as f:
                f.write(self._saved_model.SerializeToString(deterministic=True))


__all__ = ["MethodNameUpdater"]
