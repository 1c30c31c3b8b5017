"""Fold relu's gradient into max pooling's: `max_pool2d_grad(x, y, g) * cast(x > 0)` becomes one
`max_pool2d_relu_grad(x, y, g)`.

A Conv2D/Dense layer with activation="relu" followed by MaxPooling2D differentiates into exactly this: the
pool's gradient spreads g over x's full size (4x the pooled size for 2x2 windows), then relu's gradient
compares all of x with 0, casts the mask and multiplies it in: two more passes over the large array and one
more large allocation. At each window's first maximum the mask is `y > 0` (x there is the window's maximum
y), and everywhere else the pool's gradient is g * 0 whatever the mask; so the fused kernel applies the
mask to the small (N, OH, OW, C) winner masks instead. The result is bit for bit the two ops' for finite g
(the kernel keeps their order when g has an inf or NaN). The rewrite holds for any x, not only a relu's
output, so the pass needs to see nothing but these three nodes."""

from __future__ import annotations

import numpy as np

from ..graph import Graph
from ..ops.math import cast_op, greater_op, multiply_op
from ..ops.nn_grad import max_pool2d_grad_op, max_pool2d_relu_grad_op
from .driver import rewrite_graph
from .rewrite import const_value, make_node


def fold_relu_into_max_pool_grad(graph: Graph) -> Graph:
    return rewrite_graph(graph, _rule)


def _rule(graph):
    def rewrite(node, nodes):
        if node.op is not multiply_op:
            return None
        for pool_grad, mask in (node.inputs, node.inputs[::-1]):
            if pool_grad.node.op is max_pool2d_grad_op and _positive_mask_of(mask, pool_grad.node.inputs[0],
                                                                              pool_grad.dtype):
                if tuple(pool_grad._shape or ()) != tuple(node.outputs[0]._shape or ()):
                    return None  # the mask broadcasts the gradient to another shape: not this pattern
                grad = pool_grad.node
                fused = make_node(graph, max_pool2d_relu_grad_op, list(grad.inputs), dict(grad.attrs),
                                  [(t.dtype, t._shape) for t in node.outputs], "max_pool2d_relu_grad",
                                  node.location, replaces=node)
                nodes.append(fused)
                return fused.outputs
        return None

    return rewrite


def _positive_mask_of(mask, x, dtype) -> bool:
    """Whether `mask` is cast(x > 0, dtype) for exactly the tensor x (0 a scalar constant)."""
    cast = mask.node
    if cast.op is not cast_op or mask.dtype is not dtype:
        return False
    compare = cast.inputs[0].node
    if compare.op is not greater_op or compare.inputs[0] is not x:
        return False
    zero = const_value(compare.inputs[1])
    return zero is not None and np.ndim(zero) == 0 and zero == 0
