"""keras.ops on KerasTensors: Keras 3 lets a Functional model put a bare op between layers
(`x = keras.ops.relu(inputs)`, `inputs * 2`). An op called with a KerasTensor anywhere in its arguments becomes
one call of an Operation of Keras' class for it (operation.py), so the Functional graph records it like a layer
call, and shape inference comes from tracing the op."""

from __future__ import annotations

import functools

from ..models.functional import is_symbolic
from .operation import call_symbolically


def symbolic_aware(fn, name=None):
    """fn, which also accepts KerasTensors (then it records an Operation call and returns KerasTensors)."""
    name = name or fn.__name__

    @functools.wraps(fn)
    def op(*args, **kwargs):
        if is_symbolic((args, kwargs)):
            return call_symbolically(fn, name, args, kwargs)
        return fn(*args, **kwargs)
    op.__wrapped__ = fn
    return op


def install_operators(keras_tensor_class, ops) -> None:
    """Python's arithmetic operators on KerasTensors, as Keras 3 gives them (`inputs * 2 + 1` in a Functional
    model records ops.multiply and ops.add). == and != are left alone: KerasTensors are compared by identity
    when models look them up in lists."""
    def binary(fn, reflected=False):
        return (lambda self, other: fn(other, self)) if reflected else (lambda self, other: fn(self, other))

    for name, fn in [("add", ops.add), ("sub", ops.subtract), ("mul", ops.multiply), ("truediv", ops.true_divide),
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
    keras_tensor_class.reshape = lambda self, newshape: ops.reshape(self, newshape)
    keras_tensor_class.squeeze = lambda self, axis=None: ops.squeeze(self, axis)


def export_all(namespace: dict, names) -> None:
    """Wrap every public function `names` of a module's namespace with symbolic_aware, in place."""
    for name in names:
        namespace[name] = symbolic_aware(namespace[name], name)
