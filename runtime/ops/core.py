"""The ops the engine itself needs: graph inputs (placeholder), constants, identity, and stack (the op that
turns a nested list of tensors into one). The graph, the dispatcher and the graph copier use them, so this
module imports nothing that imports them back: the registry, the tracing state and the shared inference
rules only."""

from __future__ import annotations

import numpy as np

from ..context import state
from ..naming import CONVERTED
from ..registry import OpDef, register
from .common import normalize_axis, same_dtype, same_shape


def _never_run(*args, **kwargs):
    raise RuntimeError("placeholders are bound by the caller, never run")


placeholder_op = register(OpDef(
    "placeholder", _never_run, lambda *, dtype, shape: (dtype, shape), foldable=False, differentiable=False,
    doc="a graph input: an argument of the function, or a captured outside value"))


def _const_kernel(*, value, dtype):
    return value


const_op = register(OpDef(
    "const", _const_kernel, lambda *, value, dtype: (dtype, value.shape), differentiable=False,
    doc="a constant value embedded in the graph"))


def constant_node(array, dtype, name=CONVERTED):
    """Add a constant to the graph being built (used by convert_to_tensor while tracing). TF's name: `name`
    (tf.constant's, `Const` by default), or, for a value converted for an op's input, the op's (`add/y`)."""
    graph = state.graph
    node = graph.add_node(const_op, (), {"value": array, "dtype": dtype}, [(dtype, array.shape)], name=name)
    return node.outputs[0]


def _identity_kernel(x):
    return x


identity_op = register(OpDef("identity", _identity_kernel, lambda x: (x.dtype, x._shape), render="{0}",
                             elementwise=True))


def _infer_stack(*values, axis):
    dtype = same_dtype(*values)
    shape = same_shape(*values)
    if shape is None:
        return dtype, None
    axis = normalize_axis(axis, len(shape) + 1)
    return dtype, shape[:axis] + (len(values),) + shape[axis:]


def _stack_kernel(*values, axis):
    return np.stack(values, axis)


stack_op = register(OpDef("stack", _stack_kernel, _infer_stack, render=None))
