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
from .filter_grad_pairs import WINDOW as _WINDOW
from .filter_grad_pairs import fuse_filter_grad_pairs


def pair_transpose_backprops(graph: Graph) -> Graph:
    for node in graph.nodes:
        for sub in subgraphs(node):
            pair_transpose_backprops(sub)
    # conv2d(a, w) is paired with the filter gradient of the same a (input 0)
    fuse_filter_grad_pairs(graph, conv2d_op, 0, _pairs, conv2d_and_filter_grad_op,
                           lambda forward, filter_grad: [filter_grad.inputs[0], forward.inputs[1],
                                                         filter_grad.inputs[1]])
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
