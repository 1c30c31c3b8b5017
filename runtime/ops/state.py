"""State ops: variable reads and assignments."""

from __future__ import annotations

import numpy as np

from .. import dtypes, shapes
from ..errors import InvalidArgumentError
from ..registry import OpDef, register

# A variable's value while a TF1 session that never initialized it runs a graph (the session swaps each
# variable's value in for its run; this marks "none yet"): reading it raises, var_is_initialized says False.
UNSET = object()


def _read_kernel(handle, *, dtype, shape):
    return handle._array


read_variable_op = register(OpDef(
    "read_variable", _read_kernel, lambda handle, *, dtype, shape: (dtype, shape), stateful=True,
    render="{0}._array", doc="the current value of a variable"))


def _infer_assign(handle, value, *, dtype, shape):
    if value.dtype is not dtype:
        raise TypeError(f"cannot assign a {value.dtype.name} value to a variable of dtype {dtype.name}; "
                        f"use tf.cast(value, tf.{dtype.name})")
    if not shapes.compatible(value._shape, shape):
        raise ValueError(f"cannot assign a value of shape {shapes.fmt(value._shape)} to a variable of shape "
                         f"{shapes.fmt(shape)}")
    return None


def _assign_kernel(handle, value, *, dtype, shape):
    if not shapes.is_subshape(value.shape, handle._shape):
        raise InvalidArgumentError(f"assign: a value of shape {shapes.fmt(value.shape)} does not fit the "
                                   f"variable {handle.name!r} of shape {shapes.fmt(handle._shape)}")
    handle._array = value


def _render_assign(node):
    """A plain store when the value's shape is known statically to be the variable's; else the checked kernel."""
    value = node.inputs[1]
    shape = node.attrs["shape"]
    if value._shape is not None and None not in value._shape and shape is not None and value._shape == shape:
        return "{0}._array = {1}"
    return None


assign_variable_op = register(OpDef(
    "assign_variable", _assign_kernel, _infer_assign, stateful=True, differentiable=False, render=_render_assign,
    doc="replace a variable's value (never in place: earlier reads keep their values)"))


def _is_initialized_kernel(handle):
    return np.bool_(handle._array is not UNSET)


var_is_initialized_op = register(OpDef(
    "var_is_initialized", _is_initialized_kernel, lambda handle: (dtypes.bool_, ()), stateful=True,
    differentiable=False, doc="whether a variable holds a value (TF1: in the session running the graph)"))
