"""Shape-like arguments that may be tensors, as in TF: `tf.zeros([tf.shape(x)[0], 3])`, `tf.fill([n, 2], 7.)`.

A wrapper asks `shape_arg` for its argument: a tuple of Python ints when every element is known at trace
time (the op keeps its static attribute and its best generated code), else a 1-D integer tensor that
becomes an input of the op's dynamic twin. `static_shape_value` is what shape inference can still know of
such a tensor (TF's constant_value_as_shape): constants, tf.shape of a partly known shape, stacks of
scalars, slices of those, concatenations and casts."""

from __future__ import annotations

import numpy as np

from ..dispatch import convert_to_tensor
from ..graph import SymbolicTensor
from ..shapes import TensorShape
from ..tensor import EagerTensor, Tensor
from .core import stack_op
from .math import cast_op
from .static_value import constant_value, shape_op
from .strided_slice import numpy_key, strided_slice_op


def _contains_symbolic(value) -> bool:
    if isinstance(value, SymbolicTensor):
        return constant_value(value) is None
    if isinstance(value, (list, tuple)):
        return any(_contains_symbolic(v) for v in value)
    to_tensor = getattr(value, "_to_tensor", None)  # a variable read inside a graph is symbolic
    return to_tensor is not None and _contains_symbolic(to_tensor())


def _substitute_known(value):
    if isinstance(value, (list, tuple)):
        return [_substitute_known(v) for v in value]
    if isinstance(value, SymbolicTensor):
        return constant_value(value)
    if isinstance(value, EagerTensor):
        return value._value
    if hasattr(value, "_to_tensor"):
        return value._to_tensor()._value
    return value


def _as_int_tensor(value, what: str) -> Tensor:
    tensor = convert_to_tensor(value)
    if not tensor.dtype.is_integer:
        raise TypeError(f"{what} must be an int32 or int64 tensor, got {tensor.dtype.name}")
    return tensor


def shape_arg(value, what: str):
    """A shape (or multiples, begin, size...) as a tuple of ints when known now, else a 1-D int tensor."""
    if type(value) in (list, tuple) and all(type(d) is int for d in value):  # the common case, kept cheap
        return tuple(value)
    if isinstance(value, TensorShape):
        return value._dims if value._dims is not None else value
    if not _contains_symbolic(value):
        known = np.asarray(_substitute_known(value))
        if known.size and known.dtype.kind not in "iu":
            raise TypeError(f"{what} must be integers, got {value!r}")
        if known.ndim == 0:
            return (int(known),)
        return tuple(int(v) for v in known.reshape(-1)) if known.ndim == 1 or known.size == 0 else \
            tuple(tuple(int(v) for v in row) for row in known)
    tensor = _as_int_tensor(value, what)
    if tensor._shape is not None and len(tensor._shape) > 2:
        raise ValueError(f"{what} must be a vector, got a tensor of shape {tensor._shape}")
    return tensor


def scalar_arg(value, what: str):
    """A count (eye's num_rows, linspace's num, one_hot's depth) as an int when known now, else a scalar tensor."""
    if not _contains_symbolic(value):
        known = np.asarray(_substitute_known(value))
        if known.ndim != 0 or known.dtype.kind not in "iu":
            raise TypeError(f"{what} must be an integer scalar, got {value!r}")
        return int(known)
    tensor = _as_int_tensor(value, what)
    if tensor._shape not in ((), None):
        raise ValueError(f"{what} must be a scalar, got a tensor of shape {tensor._shape}")
    return tensor


def static_scalar_value(t):
    """The value of a scalar int tensor if inference can know it, else None (e.g. tf.shape(x)[1] of x (None, 4)
    is 4, tf.shape(x)[0] is None)."""
    value = constant_value(t)
    if value is not None:
        return int(value)
    node = getattr(t, "node", None)
    if node is not None and node.op is strided_slice_op and len(node.inputs) == 1:
        source = static_shape_value(node.inputs[0])
        if source is not None:
            picked = np.array(source, dtype=object)[numpy_key(node.attrs["spec"], ())]
            if np.ndim(picked) == 0:
                return None if picked is None else int(picked)
    return None


def static_shape_value(t):
    """What inference knows of a 1-D int tensor's value: a tuple of ints and Nones (-1 is kept, for reshape),
    or None when even its length is unknown."""
    value = constant_value(t)
    if value is not None:
        return tuple(int(d) for d in np.reshape(value, -1))
    node = getattr(t, "node", None)
    if node is not None:
        op = node.op
        if op is shape_op and node.inputs[0]._shape is not None:
            return node.inputs[0]._shape
        if op is stack_op and node.attrs.get("axis", 0) == 0 and all(x._shape == () for x in node.inputs):
            return tuple(static_scalar_value(x) for x in node.inputs)
        if op is cast_op:
            return static_shape_value(node.inputs[0])
        # concat by name: it lives in ops/array, which imports this module
        if op.name == "concat" and all(x._shape is not None and len(x._shape) == 1 for x in node.inputs):
            parts = [static_shape_value(x) for x in node.inputs]
            if all(p is not None for p in parts):
                return tuple(d for p in parts for d in p)
        if op is strided_slice_op and len(node.inputs) == 1:
            source = static_shape_value(node.inputs[0])
            if source is not None:
                picked = np.array(source, dtype=object)[numpy_key(node.attrs["spec"], ())]
                if np.ndim(picked) == 1:
                    return tuple(None if d is None else int(d) for d in picked)
    if t._shape is None or not t._shape or t._shape[0] is None:
        return None
    return (None,) * t._shape[0]


def check_shape_input(shape, what: str = "shape") -> tuple | None:
    """Check a 1-D int32/int64 shape input; return what inference knows of it (see static_shape_value)."""
    if not shape.dtype.is_integer:
        raise TypeError(f"{what} must be an int32 or int64 tensor, got {shape.dtype.name}")
    if shape._shape is not None and len(shape._shape) != 1:
        raise ValueError(f"{what} must be a 1-D tensor, got a tensor of shape {shape._shape}")
    return static_shape_value(shape)
