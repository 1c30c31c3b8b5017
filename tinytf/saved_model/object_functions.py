"""The tf.functions an object carries, as saving finds them: both the SavedModel writer (each becomes a saved
function) and the signature chooser (the one with an input_signature becomes serving_default) need them."""

from __future__ import annotations

from ..function import Function
from ..variables import Variable


def functions_of(obj) -> list:
    """(name, Function) of an object's tf.functions: its attributes and its class's decorated methods."""
    if isinstance(obj, (list, tuple, dict, Variable)):
        return []
    found = {}
    for klass in reversed(type(obj).__mro__):
        for name, value in vars(klass).items():
            if isinstance(value, Function):
                found[name] = None
    for name, value in list(getattr(obj, "__dict__", {}).items()):
        if isinstance(value, Function) and not name.startswith("_"):
            found[name] = value
    out = []
    for name, value in found.items():
        value = getattr(obj, name) if value is None else value
        if isinstance(value, Function):
            out.append((name, value))
    return out
