"""keras.ops on KerasTensors: Keras 3 lets a Functional model put a bare op between layers
(`x = keras.ops.relu(inputs)`). An op called with a KerasTensor anywhere in its arguments becomes one call of an
OpLayer (a layer without weights running that op), so the Functional graph records it like any layer call and
shape inference comes from tracing the op."""

from __future__ import annotations

import functools

from ..layers.layer import Layer
from ..models.functional import is_symbolic, symbolic_call


class OpLayer(Layer):
    """One keras.ops function as a node of a Functional model."""

    def __init__(self, fn, **kwargs):
        super().__init__(name=kwargs.pop("name", None) or fn.__name__, **kwargs)
        self.fn = fn
        self.built = True

    def __call__(self, *args, **kwargs):
        if is_symbolic((args, kwargs)):
            return symbolic_call(self, args, kwargs)
        return self.fn(*args, **kwargs)

    def call(self, *args, **kwargs):
        return self.fn(*args, **kwargs)


def symbolic_aware(fn):
    """fn, which also accepts KerasTensors (then it records an OpLayer call and returns KerasTensors)."""
    @functools.wraps(fn)
    def op(*args, **kwargs):
        if is_symbolic((args, kwargs)):
            return OpLayer(fn)(*args, **kwargs)
        return fn(*args, **kwargs)
    op.__wrapped__ = fn
    return op


def export_all(namespace: dict, names) -> None:
    """Wrap every public function `names` of a module's namespace with symbolic_aware, in place."""
    for name in names:
        namespace[name] = symbolic_aware(namespace[name])
