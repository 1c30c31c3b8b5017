"""Values known at trace time: `constant_value` (what inference and the wrappers can know of a tensor's value
without running the graph), and the op whose value is most often known so, tf.shape."""

from __future__ import annotations

import numpy as np

from .. import numpy_errors, shapes
from ..registry import OpDef, register
from ..tensor import EagerTensor
from .core import const_op
from .strided_slice import numpy_key, strided_slice_op


def _shape_kernel(x, *, out_type):
    return np.array(np.shape(x), dtype=out_type.np)


def _infer_shape(x, *, out_type):
    return out_type, (None if x._shape is None else len(x._shape),)


shape_op = register(OpDef("shape", _shape_kernel, _infer_shape, differentiable=False,
                          render="np.array(np.shape({0}), dtype={out_type}.np)"))


_FOLD_LIMIT = 64  # constant_value evaluates small values only, so inference never does real work


def constant_value(t):
    """The numpy value of a tensor when it is known without running the graph, else None: an eager tensor,
    a graph constant, tf.shape of a fully known shape, or a small op of such values (e.g. tf.shape(x)[0]).
    Inference uses it for static shapes (tf.range(10) has shape (10,)), wrappers for static attributes."""
    if type(t) is EagerTensor:
        return t._value
    node = getattr(t, "node", None)
    if node is None:
        return None
    op = node.op
    if op is const_op:
        return node.attrs["value"]
    if op is shape_op:
        source = node.inputs[0]._shape
        if source is not None and None not in source:
            return np.array(source, node.attrs["out_type"].np)
        return None
    if op is strided_slice_op and len(node.inputs) == 1:
        picked = _slice_of_partial_shape(node)
        if picked is not None:
            return picked
    if not op.foldable or op.emit is not None or len(node.outputs) != 1 or not _small(t._shape):
        return None
    if not all(_small(x._shape) for x in node.inputs):
        return None
    values = [constant_value(x) for x in node.inputs]
    if any(v is None for v in values):
        return None
    try:
        return numpy_errors.call(op.kernel, values, node.attrs)  # kernels run without numpy warnings
    except Exception:  # noqa: BLE001 - the op reports its own error when it runs
        return None


def _slice_of_partial_shape(node):
    """tf.shape(x)[1] (or [1:]) when the dims it picks are known, though others of x are not (as TF folds)."""
    source = getattr(node.inputs[0], "node", None)
    if source is None or source.op is not shape_op or source.inputs[0]._shape is None:
        return None
    picked = np.array(source.inputs[0]._shape, dtype=object)[numpy_key(node.attrs["spec"], ())]
    if picked is None or (np.ndim(picked) and None in picked.tolist()):
        return None
    return np.asarray(picked, dtype=source.attrs["out_type"].np)[()]


def _small(shape) -> bool:
    size = shapes.num_elements(shape)
    return size is not None and size <= _FOLD_LIMIT
