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


def install_operators(keras_tensor_class, ops) -> None:
    """Python's arithmetic operators on KerasTensors, as Keras 3 gives them (`inputs * 2 + 1` in a Functional
    model records ops.multiply and ops.add). == and != are left alone: KerasTensors are compared by identity
    when models look them up in lists."""
    def binary(fn, reflected=False):
        return (lambda self, other: fn(other, self)) if reflected else (lambda self, other: fn(self, other))

    for name, fn in [("add", ops.add), ("sub", ops.subtract), ("mul", ops.multiply), ("truediv", ops.divide),
                     ("floordiv", ops.floor_divide), ("mod", ops.mod), ("pow", ops.power), ("matmul", ops.matmul),
                     ("and", ops.logical_and), ("or", ops.logical_or), ("xor", ops.logical_xor)]:
        setattr(keras_tensor_class, f"__{name}__", binary(fn))
        setattr(keras_tensor_class, f"__r{name}__", binary(fn, reflected=True))
    for name, fn in [("lt", ops.less), ("le", ops.less_equal), ("gt", ops.greater), ("ge", ops.greater_equal)]:
        setattr(keras_tensor_class, f"__{name}__", binary(fn))
    keras_tensor_class.__neg__ = lambda self: ops.negative(self)
    keras_tensor_class.__abs__ = lambda self: ops.absolute(self)
    keras_tensor_class.__invert__ = lambda self: ops.logical_not(self)
    keras_tensor_class.__getitem__ = lambda self, key: ops.get_item(self, key)


def export_all(namespace: dict, names) -> None:
    """Wrap every public function `names` of a module's namespace with symbolic_aware, in place."""
    for name in names:
        namespace[name] = symbolic_aware(namespace[name])
