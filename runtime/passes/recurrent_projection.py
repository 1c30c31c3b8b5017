"""Recurrent projection: `matmul(xs[t], w)` in a while loop, with `xs` (steps, batch, features) and `w` both
unchanged by the loop, reads its rows from a block of steps projected by one GEMM (ops/loop_projection.py)
instead of running one small GEMM per step.

This is what cuDNN and Keras's RNN layers do with an RNN's input weights: the input projection of every step
does not depend on the recurrent state, so it batches over time. The weights must be a value from outside the
loop; the loop_variable_reads pass makes a weight variable read in the loop one. Only the exact pattern is
rewritten: `xs[t]` with one scalar index and nothing else, xs of fully known rank-3 shape, a rank-2 `w`,
float32 or float64, no transposed left operand. The block also computes steps the loop may never reach (a loop
that stops early pays for at most one block of them); the products are those of the per-step GEMMs up to
floating-point rounding. A row-vector bias the loop does not change, added to the projection's sum with the
recurrent product (`xs[t] @ wx + h @ wh + b`), is added to each block instead (_fold_biases)."""

from __future__ import annotations

import numpy as np

from ..graph import Graph, subgraphs
from ..ops.control import while_op
from ..ops.linalg import matmul_op
from ..ops.loop_projection import loop_projection_op, new_projection_uid, project_step_op
from ..ops.math import add_op
from ..ops.strided_slice import strided_slice_op
from ..ops.tensor_array import VARIANT
from .rewrite import make_node, replace_all_uses, set_nodes, use_counts


def project_inputs(graph: Graph) -> Graph:
    nodes = []
    for node in graph.nodes:
        for sub in subgraphs(node):
            project_inputs(sub)
        if node.op is while_op:
            nodes.extend(_rewrite_loop(graph, node))
        nodes.append(node)
    set_nodes(graph, nodes)
    return graph


def _known(shape, rank) -> bool:
    return shape is not None and len(shape) == rank and None not in shape


def _step_slice(tensor, captured):
    """The captured `xs` and the index, if `tensor` is `xs[t]` of a captured rank-3 `xs`, else None."""
    node = tensor.node
    if node.op is not strided_slice_op or node.attrs["spec"] != ("#1",) or len(node.inputs) != 2:
        return None
    source, index = node.inputs
    if id(source) not in captured or not _known(source._shape, 3) or index._shape != ():
        return None
    return source, index


def _rewrite_loop(graph, loop) -> list:
    body, cond = loop.attrs["body_graph"], loop.attrs["cond_graph"]
    n_vars = loop.attrs["n_vars"]
    captured = {id(p) for p in body.inputs[n_vars:]}
    made, mapping, nodes = [], {}, []
    for node in body.nodes:
        nodes.append(node)
        if node.op is not matmul_op or node.attrs["transpose_a"] or node.outputs[0].dtype.np not in (np.float32,
                                                                                                     np.float64):
            continue
        step, weights = node.inputs
        sliced = _step_slice(step, captured)
        if sliced is None or id(weights) not in captured or not _known(weights._shape, 2):
            continue
        source, index = sliced
        if source.dtype is not weights.dtype:
            continue
        projection = make_node(graph, loop_projection_op, [], {"uid": new_projection_uid()}, [(VARIANT, ())],
                               f"{node.name}_projection", node.location)
        made.append(projection)
        handle = body.placeholder(VARIANT, (), projection.name)
        cond.placeholder(VARIANT, (), projection.name)  # cond and body take the same inputs
        loop.inputs.append(projection.outputs[0])
        project = make_node(body, project_step_op, [handle, source, weights, index],
                            {"transpose_b": node.attrs["transpose_b"]}, [(t.dtype, t._shape) for t in node.outputs],
                            node.name, node.location, replaces=node)
        nodes[-1] = project
        mapping[id(node.outputs[0])] = project.outputs[0]
    if made:
        set_nodes(body, nodes)
        replace_all_uses(body, mapping)
        unchanged = {id(p) for p, out in zip(body.inputs[:n_vars], body.outputs[:n_vars]) if out is p}
        _fold_biases(body, captured | unchanged)
    return made


def _fold_biases(body, invariant) -> None:
    """`(project_step + q) + b`, with `b` a vector the loop does not change, becomes `project_step(..., b) + q`: the
    bias is added once per block of steps (a row vector broadcast over one step's 32x512 took 16 us where a
    same-shaped add took 6, 50 times per LSTM call). The sum's terms are added in another order."""
    uses = use_counts(body)
    producers = {id(t): n for n in body.nodes for t in n.outputs}
    mapping = {}
    for node in body.nodes:
        if node.op is not add_op:
            continue
        for inner, bias in (node.inputs, node.inputs[::-1]):
            add = producers.get(id(inner))
            if add is None or add.op is not add_op or uses.get(id(inner), 0) != 1 or id(bias) not in invariant:
                continue
            step = next((t for t in add.inputs if t.node.op is project_step_op and len(t.node.inputs) == 4
                         and uses.get(id(t), 0) == 1), None)
            if step is None or not _row_vector(bias, step) or node.outputs[0]._shape != add.outputs[0]._shape:
                continue
            step.node.inputs = [*step.node.inputs, bias]
            mapping[id(node.outputs[0])] = inner
            uses[id(inner)] = 2  # not folded twice
            break
    replace_all_uses(body, mapping)


def _row_vector(bias, step) -> bool:
    """Whether `bias` broadcasts over the rows of `step` only: shape (units,) or (1, units), the same dtype."""
    shape, units = bias._shape, step._shape[-1] if step._shape else None
    return (bias.dtype is step.dtype and shape is not None and units is not None
            and tuple(shape) in ((units,), (1, units)))
