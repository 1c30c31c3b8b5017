"""Pair conv2d(a, w) with conv2d_backprop_filter(a, b) of the same `a` and window into one
conv2d_and_filter_grad(a, w, b), whose kernel builds each task's window matrix of `a` once for both GEMMs
(runtime/ops/conv_transpose_backprop.py says why). A tape makes such a pair from tf.nn.conv2d_transpose
(conv2d_backprop_input): the gradients for its input and its filters, both of the output gradient.

Only direct convolutions are paired (fft_conv_kernels.choose, on the shapes known at trace time; the
kernel asks again at run time): in the frequency domain the two kernels share no window matrix. The new node
goes where the first of the two was, when every input of both is computed before it; a forward conv2d(x, w)
and its own filter gradient conv2d_backprop_filter(x, g) share x too, but g is computed from the conv's
output, after it, so they are never paired (nor would they gain: the forward's window matrix is long gone)."""

from __future__ import annotations

from ..graph import Graph, subgraphs
from ..ops import conv, fft_conv_kernels
from ..ops.conv import conv2d_op
from ..ops.conv_transpose_backprop import conv2d_and_filter_grad_op
from ..ops.nn_grad import conv2d_backprop_filter_op
from .rewrite import make_node, replace_all_uses

_WINDOW = ("strides", "padding", "dilations")


def pair_transpose_backprops(graph: Graph) -> Graph:
    for node in graph.nodes:
        for sub in subgraphs(node):
            pair_transpose_backprops(sub)
    convs: dict = {}  # id(a) -> the conv2d nodes of a
    for node in graph.nodes:
        if node.op is conv2d_op:
            convs.setdefault(id(node.inputs[0]), []).append(node)
    if not convs:
        return graph
    position = {id(node): i for i, node in enumerate(graph.nodes)}
    controlled = {id(d) for node in graph.nodes for d in node.control_inputs or ()}
    placed: dict = {}  # id(node that goes) -> the new node taking its place (or None: dropped)
    mapping: dict = {}
    for node in graph.nodes:
        if node.op is not conv2d_backprop_filter_op:
            continue
        a, b = node.inputs
        for forward in convs.get(id(a), ()):
            if id(forward) in placed or not _pairs(forward, node, controlled):
                continue
            first = min(forward, node, key=lambda n: position[id(n)])
            inputs = [a, forward.inputs[1], b]
            if any(t.node is not None and position.get(id(t.node), -1) >= position[id(first)] for t in inputs):
                continue
            fused = make_node(graph, conv2d_and_filter_grad_op, inputs,
                              {key: forward.attrs[key] for key in _WINDOW},
                              [(forward.outputs[0].dtype, forward.outputs[0]._shape),
                               (node.outputs[0].dtype, node.outputs[0]._shape)],
                              "conv2d_and_filter_grad", forward.location)
            placed[id(forward)], placed[id(node)] = None, None
            placed[id(first)] = fused
            mapping[id(forward.outputs[0])], mapping[id(node.outputs[0])] = fused.outputs
            break
    if not mapping:
        return graph
    nodes = []
    for node in graph.nodes:
        if id(node) not in placed:
            nodes.append(node)
        elif placed[id(node)] is not None:
            nodes.append(placed[id(node)])
    graph.nodes = nodes
    replace_all_uses(graph, mapping)
    return graph


def _pairs(forward, filter_grad, controlled) -> bool:
    """Whether conv2d `forward` and `filter_grad` read the same window matrix (same input, window and filter
    shape), are fully known, ordered by nothing else, and go direct."""
    a, b = filter_grad.inputs
    w = forward.inputs[1]
    if len(forward.inputs) != 2 or any(forward.attrs[key] != filter_grad.attrs[key] for key in _WINDOW):
        return False
    if id(forward) in controlled or id(filter_grad) in controlled or forward.control_inputs or \
            filter_grad.control_inputs:
        return False
    shapes = [a._shape, b._shape, w._shape]
    if any(s is None or None in s for s in shapes) or not (a.dtype is b.dtype is w.dtype):
        return False
    if tuple(filter_grad.attrs["filter_shape"]) != tuple(w._shape):
        return False
    geo = conv.conv_geometry(a._shape[1:3], w._shape[:2], forward.attrs["strides"], forward.attrs["dilations"],
                             forward.attrs["padding"])
    if tuple(forward.outputs[0]._shape) != tuple(b._shape):
        return False
    return not fft_conv_kernels.choose(a.dtype.name, tuple(a._shape), tuple(w._shape), geo)
