"""Elementwise fusion: a run of consecutive elementwise nodes becomes one `fused` node.

The code generator emits a fused block as straight-line numpy that reuses buffers: the first step that
needs memory allocates, later steps write into the buffer of an operand that dies there (`out=`), so a
chain of 20 ops on big arrays touches one or two buffers instead of 20 temporaries. Scalar blocks are
emitted as one Python expression per output (numpy scalars are fastest with operators). The fused op itself
(its reference kernel and inference) is ops/fused.py; its code, passes/fusion_codegen.py."""

from __future__ import annotations

import numpy as np

from ..graph import Graph, is_stateful, subgraphs
from ..ops.conv import conv2d_op
from ..ops.core import const_op, identity_op
from ..ops.fused import Step, fused_op
from ..ops.linalg import matmul_op
from ..ops.nn import bias_add_op
from .rewrite import const_value, make_node, replace_all_uses, set_nodes

INLINE_CONST_MAX = 1  # constants of at most this many elements are written into the code as literals




def _fusible(node) -> bool:
    op = node.op
    return (op.elementwise and op is not fused_op and len(node.outputs) == 1 and not is_stateful(node)
            and not subgraphs(node) and op is not identity_op
            # fused blocks compute numbers in place with ufuncs; strings (object arrays) stay separate nodes
            and all(t.dtype.is_number or t.dtype.is_bool for t in node.inputs + node.outputs))


def fuse_elementwise(graph: Graph) -> Graph:
    for node in graph.nodes:
        for sub in subgraphs(node):
            fuse_elementwise(sub)
    users = _users(graph)
    done = _done_before(graph)
    nodes, run = [], []
    mapping = {}

    def flush(run):
        if len(run) >= 2 or (run and _donatable_inputs(run, users, done)):
            fused, outs = _make_block(graph, run, users, done)
            nodes.append(fused)
            mapping.update(outs)
        else:
            nodes.extend(run)

    for node in graph.nodes + [None]:
        if node is not None and node.op is const_op:
            nodes.append(node)  # no inputs: it can move ahead of the block, and does not break the run
            continue
        if node is not None and _fusible(node):
            if run and _scalar(run[-1]) != _scalar(node):
                # a scalar step in a block of arrays makes the code generator write the whole block as
                # expressions, one new array per step (a loss's `total * 0.5` beside its gradient's `0.5 * y`):
                # the scalars and the arrays go in blocks of their own
                flush(run)
                run = []
            run.append(node)
            continue
        flush(run)
        run = []
        if node is not None:
            node.inputs = [mapping.get(id(t), t) for t in node.inputs]
            nodes.append(node)
    set_nodes(graph, nodes)
    replace_all_uses(graph, mapping)
    used = {id(t) for n in graph.nodes for t in n.inputs} | {id(t) for t in graph.outputs}
    set_nodes(graph, [n for n in graph.nodes if n.op is not const_op or id(n.outputs[0]) in used])
    return graph


def _scalar(node) -> bool:
    return node.outputs[0]._shape == ()


# ops whose output is always a new array that nothing else refers to (so it may be overwritten once dead)
_FRESH_OPS = {matmul_op, conv2d_op, fused_op, bias_add_op}


def _fresh(tensor) -> bool:
    op = tensor.node.op
    return op in _FRESH_OPS or (op.elementwise and isinstance(op.kernel, np.ufunc))


def _donatable_inputs(run, users, done) -> set:
    """ids of tensors entering the block that it may overwrite: fresh arrays whose every use is in it or in an
    earlier node that keeps no view of them (`done`: a layer norm's centered values, squared for the variance
    by one block, then scaled in place by the next)."""
    in_block = {id(n) for n in run}
    made_inside = {id(t) for n in run for t in n.outputs}
    first = done[1][id(run[0])]
    donated = set()
    for node in run:
        for t in node.inputs:
            if id(t) in made_inside or not _fresh(t):
                continue
            if all(u in in_block or (u in done[0] and done[1][u] < first) for u in users.get(id(t), {None})):
                donated.add(id(t))
    return donated


def _done_before(graph):
    """(ids of the nodes whose results never share memory with their inputs, id(node) -> position): a use by
    such a node before a block leaves nothing that sees the block overwrite the value."""
    no_views = {id(n) for n in graph.nodes if _fusible(n) and isinstance(n.op.kernel, np.ufunc)}
    return no_views, {id(n): i for i, n in enumerate(graph.nodes)}


def _users(graph):
    """id(tensor) -> ids of the nodes that use it (graph outputs count as a use by None)."""
    users = {}
    for node in graph.nodes:
        for t in node.inputs:
            users.setdefault(id(t), set()).add(id(node))
    for t in graph.outputs:
        users.setdefault(id(t), set()).add(None)
    return users


def _make_block(graph, run, users, done=None):
    in_block = {id(n) for n in run}
    step_of = {}
    inputs, input_index = [], {}
    steps = []
    for node in run:
        args = []
        # a literal needs a numpy operand beside it, or Python would compute with plain floats
        all_const = all(const_value(t) is not None for t in node.inputs)
        for t in node.inputs:
            if id(t) in step_of:
                args.append(("step", step_of[id(t)]))
                continue
            value = const_value(t)
            if value is not None and not all_const and np.size(value) <= INLINE_CONST_MAX and np.ndim(value) == 0:
                args.append(("lit", value))
                continue
            if id(t) not in input_index:
                input_index[id(t)] = len(inputs)
                inputs.append(t)
            args.append(("in", input_index[id(t)]))
        out = node.outputs[0]
        step_of[id(out)] = len(steps)
        render = node.op.render(node) if callable(node.op.render) else node.op.render
        steps.append(Step(node.op, tuple(args), dict(node.attrs), out.dtype, out._shape, node.name, render))
    # a step's value leaves the block when something outside the block (or the graph's outputs) uses it
    exported = [step_of[id(n.outputs[0])] for n in run
                if any(u not in in_block for u in users.get(id(n.outputs[0]), ()))]
    if not exported:
        exported = [len(steps) - 1]
    specs = [(steps[j].dtype, steps[j].shape) for j in exported]
    donatable = _donatable_inputs(run, users, done or _done_before(graph))
    donated = tuple(i for i, t in enumerate(inputs) if id(t) in donatable)
    last = run[-1]
    attrs = {"steps": tuple(steps), "outputs": tuple(exported), "donated": donated}
    fused = make_node(graph, fused_op, inputs, attrs, specs, last.name, last.location, replaces=last)
    mapping = {id(run_node.outputs[0]): fused.outputs[k]
               for k, j in enumerate(exported) for run_node in run if step_of[id(run_node.outputs[0])] == j}
    return fused, mapping
