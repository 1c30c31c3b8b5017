"""keras.name_scope and keras.device, as Keras 3's TensorFlow backend gives them: a name scope prefixes the paths
of the variables made inside it (`outer/inner/w`, `outer/dense/kernel`) and enters tf.name_scope; a device scope
is tf.device."""

from __future__ import annotations

import tinytf as tf

from .layers.layer import _path_stack


class name_scope:  # noqa: N801 - Keras' name
    """A name scope for variable paths and op names. `caller` (a layer) with deduplicate=True skips a scope
    that would repeat the enclosing one of the same caller and name."""

    def __init__(self, name, caller=None, deduplicate=True, override_parent=None):
        if not isinstance(name, str) or "/" in name:
            raise ValueError(f"Argument `name` must be a string and cannot contain character `/`. "
                             f"Received: name={name}")
        self.name, self.caller, self.deduplicate, self.override_parent = name, caller, deduplicate, override_parent
        self._pushed = False
        self._tf_scope = tf.name_scope(name)

    def __enter__(self):
        if self.deduplicate and self.caller is not None and _path_stack:
            parent = _path_stack[-1]
            if getattr(parent, "caller", None) is self.caller and getattr(parent, "name", None) == self.name:
                return self
        _path_stack.append(self)
        self._pushed = True
        self._tf_scope.__enter__()
        return self

    def __exit__(self, *exc):
        if self._pushed:
            self._tf_scope.__exit__(*exc)
            _path_stack.pop()
            self._pushed = False
        return False


def device(device_name):
    """A context manager placing the ops made inside it on `device_name` (tf.device; "cpu:0" as "/cpu:0")."""
    if isinstance(device_name, str) and device_name and not device_name.startswith("/"):
        device_name = "/" + device_name
    return tf.device(device_name)


def version() -> str:
    """The Keras version whose behaviour tinytf's keras follows (the Keras 3 TF 2.21 ships)."""
    return "3.15.1"
