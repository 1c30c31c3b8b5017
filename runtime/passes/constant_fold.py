"""Constant folding: a pure node whose inputs are all constants is run now, by calling its registered
kernel, and replaced by constants. Shapes known statically fold too (`tf.shape(x)` of a [2, 3] x).
Results above SIZE_CAP elements, and larger than every constant they read, are left unfolded, so folding never
materializes a constant larger than one the program already holds (tf.fill, tf.tile of small values stay ops)."""

from __future__ import annotations

import numpy as np

from .. import numpy_errors
from ..graph import Graph, subgraphs
from ..ops.array import rank_op, size_op
from ..ops.core import const_op
from ..ops.static_value import shape_op
from .driver import rewrite_graph
from .rewrite import const_value, make_const

SIZE_CAP = 4096
_STATIC_SHAPE_OPS = {shape_op, size_op, rank_op}


def constant_fold(graph: Graph, size_cap: int = SIZE_CAP) -> Graph:
    def rule_for(graph):
        def fold(node, nodes):
            values = _fold(node, size_cap)
            if values is None:
                return None
            consts = [make_const(graph, value, t.dtype, node.name, node.location)
                      for t, value in zip(node.outputs, values)]
            nodes.extend(consts)
            return [c.outputs[0] for c in consts]

        return fold

    return rewrite_graph(graph, rule_for)


def _fold(node, size_cap):
    """The output values of `node` if it can be folded, else None."""
    op = node.op
    if op is const_op or not op.foldable or subgraphs(node) or not node.outputs:
        return None
    if op in _STATIC_SHAPE_OPS and node.inputs:
        return _static_shape_value(node)
    inputs = [const_value(t) for t in node.inputs]
    if any(v is None for v in inputs):
        return None
    try:
        result = numpy_errors.call(op.kernel, inputs, node.attrs)  # kernels run without numpy warnings
    except Exception:  # noqa: BLE001 - a kernel that fails now must fail at run time, where it is reported
        return None
    results = [result] if len(node.outputs) == 1 else list(result)
    # a result no larger than the largest constant it reads adds no memory that is not already there (the chain
    # of matmuls of one constant in TF's graph-optimization guide folds); others above the cap stay unfolded
    cap = max(size_cap, max((np.size(v) for v in inputs), default=0))
    if any(np.size(r) > cap for r in results):
        return None
    return [_as_dtype(r, t.dtype) for r, t in zip(results, node.outputs)]


def _static_shape_value(node):
    shape = node.inputs[0]._shape
    if shape is None or None in shape:
        return None
    out = node.outputs[0]
    if node.op is shape_op:
        value = np.array(shape, dtype=out.dtype.np)
    elif node.op is size_op:
        value = out.dtype.np.type(int(np.prod(shape, dtype=np.int64)))
    else:
        value = out.dtype.np.type(len(shape))
    return [value]


def _as_dtype(value, dtype):
    if dtype.is_string:  # no numpy scalar holds bytes: a string scalar stays a 0-d object array
        return np.asarray(value, dtype=object) if np.ndim(value) else np.array(value, dtype=object)
    value = np.asarray(value, dtype=dtype.np) if np.ndim(value) else dtype.np.type(value)
    return value
