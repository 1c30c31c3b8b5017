"""Algebraic simplification: rewrites that remove work.

Bit-for-bit: x*1, 1*x, x+0, 0+x, x-0, x/1 (when the constant does not broadcast x to a bigger shape),
-(-x), identity, cast to the same dtype, broadcast_to the shape x has, a sum/mean/max/min of a scalar over no
axis (a Mean metric's update sums its scalar loss), transpose of transpose, reshape of reshape, transposes
folded into matmul flags, and a cond whose predicate is a constant (the taken branch is spliced in).
Within rounding: a scalar times a matmul scales the smaller matmul operand instead of the product."""

from __future__ import annotations

import numpy as np

from ..graph import Graph
from ..ops.array import broadcast_to_op, reshape_op, transpose_op
from ..ops.control import cond_op
from ..ops.core import identity_op
from ..ops.linalg import matmul_op
from ..ops.math import add_op, cast_op, multiply_op, negative_op, real_div_op, subtract_op
from ..ops.reduce import reduce_max_op, reduce_mean_op, reduce_min_op, reduce_sum_op
from ..shapes import num_elements
from .driver import rewrite_graph
from .rewrite import const_value, make_node, splice, use_counts
from .stacked_reductions import RULES as STACKED_REDUCTION_RULES


def simplify(graph: Graph) -> Graph:
    return rewrite_graph(graph, _rule)


def _rule(graph):
    uses = use_counts(graph)

    def rewrite(node, nodes):
        rule = _RULES.get(node.op)
        if rule is None:
            return None
        if node.op is cond_op:  # the one rule for a node of several outputs
            return rule(graph, node, nodes, uses)
        if len(node.outputs) != 1:
            return None
        replacement = rule(graph, node, nodes, uses)
        return None if replacement is None else [replacement]

    return rewrite


# --- the rules: each (graph, node, new nodes, use counts) -> the tensor replacing node's output, or None -------------
def _constant_cond(graph, node, nodes, uses):
    """A cond whose predicate is a constant becomes the taken branch, spliced in (returns all its outputs)."""
    pred = const_value(node.inputs[0])
    if pred is None:
        return None
    branch = node.attrs["true_graph" if pred else "false_graph"]
    new_nodes, outputs = splice(branch, graph, node.inputs[1:])
    nodes.extend(new_nodes)
    return outputs


def _identity(graph, node, nodes, uses):
    return node.inputs[0]


def _cast(graph, node, nodes, uses):
    return node.inputs[0] if node.inputs[0].dtype is node.attrs["dtype"] else None


def _neutral(value, side):
    """The rule for `x op c` that drops a constant operand c that is all `value` (either side when `side` is
    'both')."""
    def rule(graph, node, nodes, uses):
        return _neutral_operand(node, value, side)

    return rule


def _multiply(graph, node, nodes, uses):
    neutral = _neutral_operand(node, 1, "both")
    return neutral if neutral is not None else _scale_matmul_operand(graph, node, nodes, uses)


def _negative(graph, node, nodes, uses):
    source = node.inputs[0].node
    return source.inputs[0] if source.op is negative_op else None


def _neutral_operand(node, neutral, side):
    """x for `x op c` (or `c op x` when the op is symmetric) when c is all `neutral` and changes no shape."""
    out = node.outputs[0]
    candidates = [(0, 1), (1, 0)] if side == "both" else [(0, 1)]
    for keep, const_index in candidates:
        value = const_value(node.inputs[const_index])
        kept = node.inputs[keep]
        if value is None or kept.dtype is not out.dtype:
            continue
        if not np.all(np.asarray(value) == neutral):
            continue
        if _same_shape(kept._shape, out._shape) and _does_not_broadcast(np.shape(value), kept._shape):
            return kept
    return None


def _scale_matmul_operand(graph, node, nodes, uses):
    """c * (a @ b) -> a @ (c * b) (or (c * a) @ b) for a scalar constant c, scaling the smaller operand:
    the learning-rate step `w - lr * (x.T @ g)` then scales the small gradient, not the big product."""
    for scalar, product in ((0, 1), (1, 0)):
        value = const_value(node.inputs[scalar])
        matmul = node.inputs[product].node
        if value is None or np.ndim(value) != 0 or matmul.op is not matmul_op or uses.get(id(matmul.outputs[0])) != 1:
            continue
        sizes = [num_elements(t._shape) for t in matmul.inputs]
        if None in sizes or num_elements(matmul.outputs[0]._shape) is None:
            continue
        if min(sizes) >= num_elements(matmul.outputs[0]._shape):
            return None  # no operand is smaller than the product
        small = 0 if sizes[0] <= sizes[1] else 1
        operand = matmul.inputs[small]
        scaled = make_node(graph, node.op, [operand, node.inputs[scalar]], {}, [(operand.dtype, operand._shape)],
                           node.name, node.location)
        inputs = list(matmul.inputs)
        inputs[small] = scaled.outputs[0]
        moved = make_node(graph, matmul.op, inputs, dict(matmul.attrs),
                          [(t.dtype, t._shape) for t in matmul.outputs], matmul.name, matmul.location)
        nodes.extend([scaled, moved])
        return moved.outputs[0]
    return None


def _broadcast_to_own_shape(graph, node, nodes, uses):
    """broadcast_to(x, shape) where x has that shape, fully known, is x (a metric broadcasts its sample weight,
    the batch size, to the shape of its scalar value every step)."""
    source = node.inputs[0]
    shape = source._shape
    return source if shape is not None and None not in shape and tuple(shape) == tuple(node.attrs["shape"]) \
        else None


def _scalar_reduction(graph, node, nodes, uses):
    """reduce_*(x) of a scalar x over every (no) axis is x: the same value and dtype."""
    source = node.inputs[0]
    if source._shape != () or node.attrs.get("axis") not in (None, ()) or source.dtype is not node.outputs[0].dtype:
        return None
    return source


def _first_of(*rules):
    """The rule trying `rules` in turn: the first replacement wins."""
    def rule(graph, node, nodes, uses):
        for each in rules:
            replacement = each(graph, node, nodes, uses)
            if replacement is not None:
                return replacement
        return None

    return rule


def _same_shape(a, b):
    return a is not None and b is not None and len(a) == len(b) and all(x == y for x, y in zip(a, b))


def _does_not_broadcast(const_shape, shape):
    return len(const_shape) <= len(shape) and all(d == 1 for d in const_shape)


def _reshape(graph, node, nodes, uses):
    source = node.inputs[0]
    target = node.attrs["shape"]
    if source._shape is not None and None not in source._shape and tuple(source._shape) == tuple(target):
        return source
    if source.node.op is reshape_op:
        inner = source.node.inputs[0]
        new = make_node(graph, node.op, [inner], dict(node.attrs), [(t.dtype, t._shape) for t in node.outputs],
                        node.name, node.location)
        nodes.append(new)
        return new.outputs[0]
    return None


def _perm(node):
    """A transpose node's permutation, with the default (reverse the axes) made explicit; None if unknown."""
    perm = node.attrs.get("perm")
    if perm is not None:
        return tuple(perm)
    shape = node.inputs[0]._shape
    return None if shape is None else tuple(reversed(range(len(shape))))


def _transpose(graph, node, nodes, uses):
    perm = _perm(node)
    source = node.inputs[0]
    if perm is None:
        return None
    if perm == tuple(range(len(perm))):
        return source
    if source.node.op is transpose_op and _perm(source.node) is not None:
        inner_perm = _perm(source.node)
        combined = tuple(inner_perm[p] for p in perm)
        inner = source.node.inputs[0]
        if combined == tuple(range(len(combined))):
            return inner
        attrs = dict(node.attrs, perm=combined)
        new = make_node(graph, node.op, [inner], attrs, [(t.dtype, t._shape) for t in node.outputs],
                        node.name, node.location)
        nodes.append(new)
        return new.outputs[0]
    return None


def _matmul_flags(graph, node, nodes, uses):
    """matmul(transpose(a), b) -> matmul(a, b, transpose_a) for rank-2 swaps of the last two axes."""
    attrs = dict(node.attrs)
    inputs = list(node.inputs)
    changed = False
    for i, flag in ((0, "transpose_a"), (1, "transpose_b")):
        source = inputs[i]
        if flag not in attrs or source.node.op is not transpose_op:
            continue
        perm = _perm(source.node)
        rank = len(perm) if perm is not None else None
        if rank is None or rank < 2 or tuple(perm) != tuple(range(rank - 2)) + (rank - 1, rank - 2):
            continue
        inputs[i] = source.node.inputs[0]
        attrs[flag] = not attrs[flag]
        changed = True
    if not changed:
        return None
    new = make_node(graph, node.op, inputs, attrs, [(t.dtype, t._shape) for t in node.outputs], node.name,
                    node.location)
    nodes.append(new)
    return new.outputs[0]


_RULES = {
    cond_op: _constant_cond,
    identity_op: _identity,
    cast_op: _cast,
    add_op: _neutral(0, "both"),
    subtract_op: _neutral(0, "right"),
    multiply_op: _multiply,
    real_div_op: _neutral(1, "right"),
    negative_op: _negative,
    reshape_op: _reshape,
    transpose_op: _transpose,
    matmul_op: _matmul_flags,
    **STACKED_REDUCTION_RULES,  # the sum of a TensorArray's stack, and its gradient, without the stacked array
    broadcast_to_op: _broadcast_to_own_shape,
    reduce_sum_op: _first_of(_scalar_reduction, STACKED_REDUCTION_RULES[reduce_sum_op]),
    reduce_mean_op: _scalar_reduction,
    reduce_max_op: _scalar_reduction,
    reduce_min_op: _scalar_reduction,
}
