"""tf.compat.v1.saved_model.loader: load (into a Session) and maybe_saved_model_directory."""

from __future__ import annotations

import os

from .saved_model_constants import SAVED_MODEL_FILENAME_PB, SAVED_MODEL_FILENAME_PBTXT
from .saved_model_v1 import load


def maybe_saved_model_directory(export_dir) -> bool:
    """Whether `export_dir` holds a SavedModel file (saved_model.pb, .pbtxt or .cpb); True does not promise that it
    loads (as TF's: no data is read)."""
    export_dir = os.fsdecode(export_dir)
    names = (SAVED_MODEL_FILENAME_PBTXT, SAVED_MODEL_FILENAME_PB, "saved_model.cpb")
    return any(os.path.exists(os.path.join(export_dir, name)) for name in names)


__all__ = ["load", "maybe_saved_model_directory"]
