"""Fuse a convolution's epilogue into it: relu(conv2d(x, w) + b), then a max pool whose windows tile the
result, become one conv2d_epilogue op that applies them chunk by chunk (runtime/ops/conv_fused.py says why).

Each step is fused only when nothing else reads the value it consumes: the conv's raw output and the biased
sum are read by the next step alone (true of a Conv2D layer's forward), and the pool is taken in only when
the relu's output is read by the pool alone (an inference or forward-only graph; a training step's pool
gradient reads the relu output, so there only the bias and relu are fused). Shapes must be known where the
pool is fused (its windows must tile the output, checked at trace time). The conv and add nodes left without
readers are removed by pruning, which runs after this pass.

In a training step, a pool that tiles the output of a conv2d_epilogue read elsewhere too (by the pool's
gradient) then joins it as conv2d_epilogue_pooled, which keeps the full output and pools each chunk's rows
while they are in cache instead of reading the whole output back afterwards (the CNN step's first conv,
64x28x28x32: conv + pool 4.3 -> 3.9 ms CPU, 2 threads, load 10; bit for bit the separate ops). Only where the
conv runs direct: a frequency-domain conv is left to conv_backprop_pair, which shares its input's spectrum."""

from __future__ import annotations

from ..graph import Graph, subgraphs
from ..ops import conv as conv_ops
from ..ops import fft_conv_kernels, pool_kernels
from ..ops.conv import conv2d_op, max_pool2d_op
from ..ops.conv_fused import conv2d_epilogue_op, conv2d_epilogue_pooled_op
from ..ops.math import add_op
from ..ops.nn import bias_add_op, relu_op
from .driver import rewrite_graph
from .rewrite import make_node, replace_all_uses

_CONV_ATTRS = ("strides", "padding", "dilations")


def fuse_conv_epilogues(graph: Graph) -> Graph:
    graph = rewrite_graph(graph, _rule)
    _pool_kept_outputs(graph)
    return graph


def _pool_kept_outputs(graph: Graph) -> None:
    """Make each tiled max pool of a direct conv2d_epilogue's output that is read elsewhere too one
    conv2d_epilogue_pooled node, in the conv's place (the module's docstring)."""
    for node in graph.nodes:
        for sub in subgraphs(node):
            _pool_kept_outputs(sub)
    controlled = {id(d) for node in graph.nodes for d in node.control_inputs or ()}
    fused: dict = {}  # id(conv2d_epilogue node) -> (its pool node, the new node)
    for node in graph.nodes:
        if node.op is max_pool2d_op and id(node) not in controlled and not node.control_inputs:
            source = node.inputs[0].node
            if source is not None and source.op is conv2d_epilogue_op and id(source) not in fused and \
                    id(source) not in controlled and not source.control_inputs and _poolable(source, node):
                attrs = {**source.attrs, "pool": tuple(node.attrs["ksize"])}
                full = source.outputs[0]
                new = make_node(graph, conv2d_epilogue_pooled_op, list(source.inputs), attrs,
                                [(full.dtype, full._shape), (node.outputs[0].dtype, node.outputs[0]._shape)],
                                "conv2d_epilogue_pooled", source.location, replaces=source)
                fused[id(source)] = (node, new)
    if not fused:
        return
    pools = {id(pool) for pool, _ in fused.values()}
    mapping: dict = {}
    nodes = []
    for node in graph.nodes:
        if id(node) in pools:
            continue
        if id(node) in fused:
            pool, new = fused[id(node)]
            mapping[id(node.outputs[0])], mapping[id(pool.outputs[0])] = new.outputs
            node = new
        nodes.append(node)
    graph.nodes = nodes
    replace_all_uses(graph, mapping)


def _poolable(source, pool) -> bool:
    """Whether `pool`'s windows tile the known output of the conv2d_epilogue `source` (no pool of its own),
    which runs direct."""
    shape = source.outputs[0]._shape
    ksize, strides, padding = pool.attrs["ksize"], pool.attrs["strides"], pool.attrs["padding"]
    if source.attrs["pool"] is not None or shape is None or None in shape or tuple(ksize) != tuple(strides):
        return False
    if not pool_kernels.tiles(shape[1], shape[2], ksize, strides, padding):
        return False
    x, w = source.inputs[:2]
    if x._shape is None or None in x._shape or w._shape is None or None in w._shape:
        return False
    geo = conv_ops.conv_geometry(x._shape[1:3], w._shape[:2], source.attrs["strides"], source.attrs["dilations"],
                                 source.attrs["padding"])
    return not fft_conv_kernels.choose(x.dtype.name, tuple(x._shape), tuple(w._shape), geo)


def _readers(graph: Graph) -> dict:
    """id(tensor) -> how many times it is read: node inputs and graph outputs, subgraphs included (a branch
    or loop body that reads a value keeps it from being fused away)."""
    counts: dict = {}

    def visit(g):
        for node in g.nodes:
            for t in node.inputs:
                counts[id(t)] = counts.get(id(t), 0) + 1
            for sub in subgraphs(node):
                visit(sub)
        for t in g.outputs:
            counts[id(t)] = counts.get(id(t), 0) + 1

    visit(graph)
    return counts


def _rule(graph):
    readers = _readers(graph)

    def only_reader(tensor) -> bool:
        return readers.get(id(tensor), 0) == 1

    def fused(node, inputs, attrs, nodes):
        new = make_node(graph, conv2d_epilogue_op, inputs, attrs, [(t.dtype, t._shape) for t in node.outputs],
                        "conv2d_epilogue", node.location, replaces=node)
        readers[id(new.outputs[0])] = readers.get(id(node.outputs[0]), 0)
        nodes.append(new)
        return new.outputs

    def rewrite(node, nodes):
        if node.op is relu_op:
            return _fuse_relu(node, nodes, only_reader, fused)
        if node.op is max_pool2d_op:
            return _fuse_pool(node, nodes, only_reader, fused)
        return None

    return rewrite


def _conv_and_bias(t, only_reader):
    """(conv2d node, bias tensor or None) when `t` is conv2d(x, w) or conv2d(x, w) + b with b the (C,) bias
    of the conv's output channels, each value read only by the next step; else None."""
    if t.dtype.name not in ("float32", "float64") or not only_reader(t):
        return None
    if t.node.op is conv2d_op:
        return t.node, None
    if t.node.op is bias_add_op and t.node.attrs.get("channels_first"):
        return None
    if t.node.op in (add_op, bias_add_op):
        for conv_out, bias in (t.node.inputs, t.node.inputs[::-1]):
            if conv_out.node.op is conv2d_op and only_reader(conv_out) and bias.dtype is t.dtype:
                channels = conv_out._shape[3] if conv_out._shape is not None else None
                if (channels is not None and bias._shape == (channels,) and t._shape is not None
                        and tuple(t._shape) == tuple(conv_out._shape)):
                    return conv_out.node, bias
    return None


def _fuse_relu(node, nodes, only_reader, fused):
    found = _conv_and_bias(node.inputs[0], only_reader)
    if found is None:
        return None
    conv, bias = found
    inputs = list(conv.inputs) + ([] if bias is None else [bias])
    attrs = {k: conv.attrs[k] for k in _CONV_ATTRS}
    return fused(node, inputs, {**attrs, "relu": True, "pool": None}, nodes)


def _fuse_pool(node, nodes, only_reader, fused):
    t = node.inputs[0]
    source = t.node
    if source.op is not conv2d_epilogue_op or source.attrs["pool"] is not None or not only_reader(t):
        return None
    shape = t._shape
    ksize, strides, padding = node.attrs["ksize"], node.attrs["strides"], node.attrs["padding"]
    if shape is None or None in shape[1:3] or tuple(ksize) != tuple(strides):
        return None
    if not pool_kernels.tiles(shape[1], shape[2], ksize, strides, padding):
        return None
    return fused(node, list(source.inputs), {**source.attrs, "pool": tuple(ksize)}, nodes)
