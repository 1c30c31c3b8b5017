"""tf.train.load_checkpoint / list_variables / load_variable: read any TF2 checkpoint by key."""

from __future__ import annotations

import os

from tinytf.runtime import dtypes
from tinytf.runtime.errors import NotFoundError

from .bundle import BundleReader
from .state_file import latest_checkpoint


def _prefix(ckpt_dir_or_file) -> str:
    path = os.fspath(ckpt_dir_or_file)
    if os.path.isdir(path):
        latest = latest_checkpoint(path)
        if latest is None:
            raise NotFoundError(f"Unsuccessful TensorSliceReader constructor: Failed to find any matching files "
                                f"for {path}")
        return latest
    return path


class CheckpointReader:
    """What `tf.train.load_checkpoint` returns: tensors by key, with their shapes and dtypes."""

    def __init__(self, prefix):
        self._bundle = BundleReader(prefix)

    def get_tensor(self, key):
        return self._bundle.get_tensor(key)

    def has_tensor(self, key) -> bool:
        return self._bundle.has_tensor(key)

    def get_variable_to_shape_map(self) -> dict:
        # in TF's order (its reader's map gives the keys in reverse order)
        return {key: self._bundle.shape(key) for key in sorted(self._bundle.keys(), reverse=True)}

    def get_variable_to_dtype_map(self) -> dict:
        # string tensors (the object graph, a Saver's text) are tf.string, as TF's reader lists them
        return {key: dtypes.string if self._bundle.numpy_dtype(key) is object
                else dtypes.as_dtype(self._bundle.numpy_dtype(key))
                for key in sorted(self._bundle.keys(), reverse=True)}


def load_checkpoint(ckpt_dir_or_file) -> CheckpointReader:
    return CheckpointReader(_prefix(ckpt_dir_or_file))


def list_variables(ckpt_dir_or_file) -> list:
    """[(key, shape)] of every tensor in the checkpoint, sorted by key."""
    reader = load_checkpoint(ckpt_dir_or_file)
    return sorted(reader.get_variable_to_shape_map().items())


def load_variable(ckpt_dir_or_file, name):
    return load_checkpoint(ckpt_dir_or_file).get_tensor(name)
