"""Swapped products in loops: `matmul(a, w, transpose_b=True)` in a while loop, where `a` has fewer rows than
`w`, is computed as `transpose(matmul(w, a, transpose_b=True))`: the same product, `(w @ a^T)^T`, returned as a
transposed view.

An RNN's backward loop propagates its gradient through the recurrent weights, `dz_t @ wh^T` each step (32x512
@ (128x512)^T in the LSTM workload). OpenBLAS (0.3.31, float32, one thread) runs that form 1.4x slower than the
swapped one: 76 against 56 microseconds; 8x1024 @ (1024x1024)^T 961 against 494, 64x256 @ (512x256)^T 234
against 165; equal for square operands, and slower swapped when `a` has more rows (256x512 @ (128x512)^T: 316
against 362), which is why only thinner left operands are swapped. Copying `wh^T` once instead would cost a
copy of the weights alive through the backward loop, at the top of the call's memory.

Only loop bodies are rewritten (nothing in them is planned into buffers, whose layout is row-major), rank-2
operands of known shapes, float32 and float64; the terms are summed in another order (equal up to rounding)."""

from __future__ import annotations

import numpy as np

from ..graph import Graph, subgraphs
from ..ops.array import transpose_op
from ..ops.control import while_op
from ..ops.linalg import matmul_op
from .rewrite import make_node, replace_all_uses, set_nodes


def swap_thin_products(graph: Graph, in_loop: bool = False) -> Graph:
    nodes, mapping = [], {}
    for node in graph.nodes:
        for sub in subgraphs(node):
            swap_thin_products(sub, in_loop or node.op is while_op)
        if in_loop and _thin_times_transposed(node):
            a, w = node.inputs
            swapped = make_node(graph, matmul_op, [w, a], {"transpose_a": False, "transpose_b": True},
                                [(node.outputs[0].dtype, (w._shape[0], a._shape[0]))], node.name, node.location)
            back = make_node(graph, transpose_op, [swapped.outputs[0]], {"perm": None},
                             [(t.dtype, t._shape) for t in node.outputs], f"{node.name}_transposed", node.location)
            nodes.extend((swapped, back))
            mapping[id(node.outputs[0])] = back.outputs[0]
            continue
        nodes.append(node)
    set_nodes(graph, nodes)
    replace_all_uses(graph, mapping)
    return graph


def _thin_times_transposed(node) -> bool:
    if node.op is not matmul_op or node.attrs["transpose_a"] or not node.attrs["transpose_b"]:
        return False
    a, w = node.inputs
    shapes = (a._shape, w._shape)
    if any(s is None or len(s) != 2 or None in s for s in shapes):
        return False
    return node.outputs[0].dtype.np in (np.float32, np.float64) and a._shape[0] < w._shape[0]
