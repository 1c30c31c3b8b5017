"""A first conv layer's relu + pool gradient, filter gradient and bias gradient: one op per chunk of images.

m = max_pool2d_relu_grad(r, y, g) (the relu_pool_gradient pass's fusion) read by nothing but
conv2d_backprop_filter(x, m) and, optionally, reduce_sum(m, axis=(0, 1, 2)) (the bias gradient) is what a
CNN's first conv differentiates into: its input is the data, so there is no input gradient. The three become
one max_pool2d_relu_grad_filter(x, r, y, g) node that never makes m (runtime/ops/pool_filter_grad.py says why
and what it costs in bits: the filter gradient is bit for bit the separate ops', the bias gradient a
differently ordered sum).

Only when m is read by exactly these (not an output of the graph), the nodes wait for no control input and
none is waited for, shapes are fully known, and x is computed before the first of the two readers (where the
new node goes)."""

from __future__ import annotations

from ..graph import Graph, subgraphs
from ..ops.nn_grad import conv2d_backprop_filter_op, max_pool2d_relu_grad_op
from ..ops.pool_filter_grad import max_pool2d_relu_grad_filter_op
from ..ops.reduce import reduce_sum_op
from .rewrite import make_node, readers_of, replace_all_uses


def fuse_pool_filter_gradients(graph: Graph) -> Graph:
    for node in graph.nodes:
        for sub in subgraphs(node):
            fuse_pool_filter_gradients(sub)
    readers = readers_of(graph)  # id(tensor) -> the nodes reading it
    outputs = {id(t) for t in graph.outputs}
    controlled = {id(d) for node in graph.nodes for d in node.control_inputs or ()}
    position = {id(node): i for i, node in enumerate(graph.nodes)}
    placed: dict = {}  # id(node that goes) -> the new node in its place, or None (dropped)
    mapping: dict = {}
    for node in graph.nodes:
        if node.op is not max_pool2d_relu_grad_op or id(node.outputs[0]) in outputs:
            continue
        found = _readers(node, readers.get(id(node.outputs[0]), []), controlled)
        if found is None:
            continue
        filter_grad, bias_sum = found
        x = filter_grad.inputs[0]
        goners = [n for n in (filter_grad, bias_sum) if n is not None]
        first = min(goners, key=lambda n: position[id(n)])
        if x.node is not None and position.get(id(x.node), -1) >= position[id(first)]:
            continue
        m = node.outputs[0]
        attrs = {"filter_shape": tuple(filter_grad.attrs["filter_shape"]),
                 **{key: filter_grad.attrs[key] for key in ("strides", "padding", "dilations")},
                 "ksize": tuple(node.attrs["ksize"]), "pool_strides": tuple(node.attrs["strides"]),
                 "pool_padding": node.attrs["padding"], "with_bias": bias_sum is not None}
        specs = [(m.dtype, filter_grad.outputs[0]._shape)] + \
            ([(m.dtype, bias_sum.outputs[0]._shape)] if bias_sum is not None else [])
        fused = make_node(graph, max_pool2d_relu_grad_filter_op, [x] + list(node.inputs), attrs, specs,
                          "max_pool2d_relu_grad_filter", filter_grad.location)
        placed[id(node)] = None
        for n in goners:
            placed[id(n)] = fused if n is first else None
        mapping[id(filter_grad.outputs[0])] = fused.outputs[0]
        if bias_sum is not None:
            mapping[id(bias_sum.outputs[0])] = fused.outputs[1]
    if not mapping:
        return graph
    graph.nodes = [placed.get(id(n), n) for n in graph.nodes if placed.get(id(n), n) is not None]
    replace_all_uses(graph, mapping)
    return graph


def _readers(pool_grad, readers, controlled):
    """(the conv2d_backprop_filter node, the bias reduce_sum node or None) when they are all that reads the
    pool gradient m (the module's docstring), else None."""
    m = pool_grad.outputs[0]
    if m._shape is None or None in m._shape or len(m._shape) != 4 or m.dtype.name not in ("float32", "float64"):
        return None
    filter_grads = [n for n in readers if n.op is conv2d_backprop_filter_op]
    sums = [n for n in readers if n.op is reduce_sum_op]
    if len(filter_grads) != 1 or len(sums) > 1 or len(filter_grads) + len(sums) != len(readers):
        return None
    filter_grad = filter_grads[0]
    bias_sum = sums[0] if sums else None
    x = filter_grad.inputs[0]
    if filter_grad.inputs[1] is not m or x is m or x._shape is None or None in x._shape or x.dtype is not m.dtype:
        return None
    if bias_sum is not None and (bias_sum.attrs["keepdims"] or _axes(bias_sum.attrs["axis"]) != (0, 1, 2)):
        return None
    for n in [pool_grad, filter_grad] + ([bias_sum] if bias_sum is not None else []):
        if id(n) in controlled or n.control_inputs:
            return None
    return filter_grad, bias_sum


def _axes(axis):
    if axis is None:
        return None
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    return tuple(sorted(a % 4 for a in axes))
