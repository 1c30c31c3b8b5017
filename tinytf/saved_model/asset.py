"""`tf.saved_model.Asset`: a file a SavedModel carries along (a vocabulary, say). The saved function reads it
by path; `tf.saved_model.save` copies the file into the SavedModel's `assets/` folder, and `load` points the
restored Asset, and the functions that captured it, at that copy, as TensorFlow does."""

from __future__ import annotations

import os

from tinytf.runtime import dtypes
from tinytf.runtime.tensor import EagerTensor, Tensor


class Asset:
    """A file path the functions of a SavedModel capture; `asset_path` is a string tensor."""

    def __init__(self, path):
        if isinstance(path, Asset):
            path = path.asset_path
        if isinstance(path, Tensor):
            path = path.numpy()
        if isinstance(path, bytes):
            path = path.decode()
        self.asset_path = EagerTensor(os.fspath(path).encode(), dtypes.string)

    def _checkpoint_children(self):  # tracked (a node of the object graph), with no variables of its own
        return []

    def _to_tensor(self):  # tf.io.read_file(asset) and the like read its path
        return self.asset_path

    def __repr__(self):
        return f"<tf.saved_model.Asset {self.asset_path.numpy().decode()!r}>"


__all__ = ["Asset"]
