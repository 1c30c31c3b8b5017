"""Pair a conv2d's two gradients into one op: conv2d_backprop_input(g, w) and conv2d_backprop_filter(x, g) of
the same output gradient g and the same window become one conv2d_backprop_input_filter(x, g, w), whose kernel
transforms g into the frequency domain once for both (runtime/ops/conv_backprop_pair.py says why).

Only pairs that will run in the frequency domain are paired (fft_conv_kernels.choose, on the shapes known at
trace time; the kernel asks again at run time, so TINYTF_CONV_ALGO set later is still obeyed): the direct
kernels share nothing, and the separate input gradient keeps its planned output buffer. The new node goes
where the first of the two was, when every input of both is computed before it (true of the gradients a
tape makes: x and w are forward values, g comes before both); otherwise the pair is left as it is.

The forward conv of the same x and w (conv2d, or conv2d_epilogue after that pass) then shares x's spectrum
with the pair: a conv2d_input_spectrum(x) node goes just before it, and it becomes conv2d_epilogue_spectral,
which, like the pair, takes the spectrum as an input (the CNN step's second conv: 1.3 ms of CPU less)."""

from __future__ import annotations

from ..graph import Graph, subgraphs
from ..ops import conv, fft_conv_kernels
from ..ops.conv import conv2d_op
from ..ops.conv_backprop_pair import (
    conv2d_backprop_input_filter_op,
    conv2d_epilogue_spectral_op,
    conv2d_input_spectrum_op,
)
from ..ops.conv_fused import conv2d_epilogue_op
from ..ops.nn_grad import conv2d_backprop_input_op
from .filter_grad_pairs import WINDOW as _WINDOW
from .filter_grad_pairs import fuse_filter_grad_pairs
from .rewrite import make_node, replace_all_uses


def pair_conv_backprops(graph: Graph) -> Graph:
    for node in graph.nodes:
        for sub in subgraphs(node):
            pair_conv_backprops(sub)
    # the input gradient conv2d_backprop_input(g, w) is paired with the filter gradient of the same g (input 1)
    pairs = fuse_filter_grad_pairs(graph, conv2d_backprop_input_op, 1, _pairs, conv2d_backprop_input_filter_op,
                                   lambda grad, filter_grad: [filter_grad.inputs[0], filter_grad.inputs[1],
                                                              grad.inputs[1]])
    if pairs:
        controlled = {id(d) for node in graph.nodes for d in node.control_inputs or ()}
        _share_input_spectra(graph, pairs, controlled)
    return graph


def _share_input_spectra(graph, pairs, controlled):
    """Give each pair the spectrum of x its forward conv computes (the module's docstring)."""
    forwards: dict = {}  # (id(x), id(w)) -> the forward conv nodes of x and w, conv2d_epilogue first: the
    # conv2d that the conv_epilogue pass fused into one is still in the graph, read by nothing alive, until pruning
    for node in graph.nodes:
        if node.op in (conv2d_op, conv2d_epilogue_op) and id(node) not in controlled and not node.control_inputs:
            forwards.setdefault((id(node.inputs[0]), id(node.inputs[1])), []).append(node)
    for candidates in forwards.values():
        candidates.sort(key=lambda n: n.op is not conv2d_epilogue_op)
    replaced: dict = {}  # id(forward node) -> (spectrum node, spectral node)
    mapping: dict = {}
    for pair in pairs:
        x, _, w = pair.inputs
        for forward in forwards.get((id(x), id(w)), ()):
            if any(forward.attrs[key] != pair.attrs[key] for key in _WINDOW):
                continue
            if id(forward) not in replaced:
                window = {key: pair.attrs[key] for key in _WINDOW}
                geo = conv.conv_geometry(x._shape[1:3], w._shape[:2], window["strides"], window["dilations"],
                                         window["padding"])
                shape = fft_conv_kernels.spectrum_shape(tuple(x._shape), tuple(w._shape), geo)
                spectrum = make_node(graph, conv2d_input_spectrum_op, [x],
                                     {"filter_shape": tuple(w._shape), **window}, [(x.dtype, shape)],
                                     "conv2d_input_spectrum", forward.location)
                attrs = dict(forward.attrs) if forward.op is conv2d_epilogue_op else \
                    {**window, "relu": False, "pool": None}
                spectral = make_node(graph, conv2d_epilogue_spectral_op,
                                     [x, w, spectrum.outputs[0]] + list(forward.inputs[2:]), attrs,
                                     [(t.dtype, t._shape) for t in forward.outputs], "conv2d_epilogue_spectral",
                                     forward.location, replaces=forward)
                replaced[id(forward)] = (spectrum, spectral)
                mapping[id(forward.outputs[0])] = spectral.outputs[0]
            pair.inputs = list(pair.inputs) + [replaced[id(forward)][0].outputs[0]]
            break
    if not replaced:
        return
    nodes = []
    for node in graph.nodes:
        nodes.extend(replaced.get(id(node), (node,)))
    graph.nodes = nodes
    replace_all_uses(graph, mapping)


def _pairs(grad, filter_grad, controlled) -> bool:
    """Whether the input gradient `grad` and the filter gradient `filter_grad` (of the same g) are one conv's
    two gradients, fully known, and go by the frequency domain."""
    x, g = filter_grad.inputs
    w = grad.inputs[1]
    if len(grad.inputs) != 2 or any(grad.attrs[key] != filter_grad.attrs[key] for key in _WINDOW):
        return False
    if id(grad) in controlled or id(filter_grad) in controlled or grad.control_inputs or filter_grad.control_inputs:
        return False
    shapes = [x._shape, g._shape, w._shape]
    if any(s is None or None in s for s in shapes) or not (x.dtype is g.dtype is w.dtype):
        return False
    if tuple(grad.attrs["shape"] or ()) != tuple(x._shape[1:]) or tuple(filter_grad.attrs["filter_shape"]) != \
            tuple(w._shape):
        return False
    geo = conv.conv_geometry(x._shape[1:3], w._shape[:2], grad.attrs["strides"], grad.attrs["dilations"],
                             grad.attrs["padding"])
    if tuple(geo.out_hw) != tuple(g._shape[1:3]) or w._shape[2] != x._shape[3] or w._shape[3] != g._shape[3]:
        return False
    return fft_conv_kernels.choose(x.dtype.name, tuple(x._shape), tuple(w._shape), geo)
