"""Loop accumulation: a while-loop variable that only ever grows by one matrix product or one reduce_sum
per iteration (`acc = acc + matmul(a, b)`, `acc = acc + reduce_sum(x, axis)`) is summed in batches instead.

The backward loop of an RNN is the case it is for: its weight gradients are `acc += h_t^T @ dz_t` with a
few dozen rows per step, where BLAS runs far below its speed. The loop now hands the operands to an
accumulator (ops/loop_accumulate.py), which runs the pending products as one large GEMM every FLUSH_ROWS
contracted rows, and the loop's result becomes `init + accumulated total`, computed after the loop.

Only the exact pattern is rewritten: the variable's placeholder is used by nothing but that add (not by the
condition, nor by any other node), the product or reduction is used by nothing else, shapes are fully known,
no broadcasting, real floating dtypes, matmul operands of rank 2. The sum's terms are added in another order
than the loop added them: the result equals the loop's up to floating-point rounding."""

from __future__ import annotations

import numpy as np

from ..graph import Graph, SymbolicTensor, subgraphs
from ..ops.array import fill_op
from ..ops.control import while_op
from ..ops.linalg import matmul_op
from ..ops.loop_accumulate import (
    JoinPool,
    accumulate_matmul_op,
    accumulate_sum_op,
    accumulated_matmul_op,
    accumulated_sum_op,
    loop_accumulator_op,
    new_accumulator_uid,
)
from ..ops.math import add_op
from ..ops.reduce import reduce_sum_op
from ..ops.tensor_array import VARIANT
from .prune import prune
from .rewrite import make_node, replace_all_uses, set_nodes, use_counts


def accumulate_in_batches(graph: Graph) -> Graph:
    nodes, mapping = [], {}
    for node in graph.nodes:
        for sub in subgraphs(node):
            accumulate_in_batches(sub)
        if node.op is not while_op:
            nodes.append(node)
            continue
        before, after, outs = _rewrite_loop(graph, node)
        nodes.extend(before)
        nodes.append(node)
        nodes.extend(after)
        mapping.update(outs)
    set_nodes(graph, nodes)
    replace_all_uses(graph, mapping)
    return graph


def _known(shape) -> bool:
    return shape is not None and None not in shape


def _term(loop_var, update, uses):
    """The matmul or reduce_sum node that `update` adds to `loop_var` each iteration, if the rewrite applies."""
    node = update.node
    if node.op is not add_op or len(node.inputs) != 2:
        return None
    x, y = node.inputs
    term = y if x is loop_var else x if y is loop_var else None
    if term is None or term is loop_var or uses.get(id(term), 0) != 1 or uses.get(id(loop_var), 0) != 1:
        return None
    if uses.get(id(update), 0) != 1:  # the add's result is only the variable's next value
        return None
    if not (loop_var.dtype.is_floating and _known(loop_var._shape) and term._shape == loop_var._shape
            and update._shape == loop_var._shape and term.dtype is loop_var.dtype):
        return None
    op = term.node.op
    if op is matmul_op and all(_known(t._shape) and len(t._shape) == 2 for t in term.node.inputs):
        return term.node
    if op is reduce_sum_op and _known(term.node.inputs[0]._shape) and _axes(term.node.attrs["axis"]) != "?":
        return term.node
    return None


def _axes(axis):
    """reduce_sum's axis attribute as None or a tuple of ints ("?" for anything else)."""
    if axis is None:
        return None
    if isinstance(axis, (int, np.integer)):
        return (int(axis),)
    if isinstance(axis, (tuple, list)) and all(isinstance(a, (int, np.integer)) for a in axis):
        return tuple(int(a) for a in axis)
    return "?"


def _rewrite_loop(graph, loop):
    body, cond = loop.attrs["body_graph"], loop.attrs["cond_graph"]
    n_user = loop.attrs["n_vars"]
    uses = use_counts(body)
    cond_uses = use_counts(cond)
    before, after, outs = [], [], {}
    for k in range(n_user):
        loop_var = body.inputs[k]
        if cond_uses.get(id(cond.inputs[k]), 0):
            continue
        term = _term(loop_var, body.outputs[k], uses)
        if term is None:
            continue
        is_matmul = term.op is matmul_op
        attrs = ({"transpose_a": term.attrs["transpose_a"], "transpose_b": term.attrs["transpose_b"]} if is_matmul
                 else {"axis": _axes(term.attrs["axis"]), "keepdims": term.attrs["keepdims"]})
        new = make_node(graph, loop_accumulator_op, [], {"uid": new_accumulator_uid(), "pool": JoinPool()},
                        [(VARIANT, ())],
                        "loop_accumulator", term.location)
        before.append(new)
        holder = _add_loop_var(loop, new.outputs[0], f"{term.name}_accumulator")
        step = make_node(body, accumulate_matmul_op if is_matmul else accumulate_sum_op,
                         [holder] + list(term.inputs), attrs, [(VARIANT, ())], f"accumulate_{term.name}",
                         term.location)
        body.nodes.append(step)
        body.outputs[loop.attrs["n_vars"] - 1] = step.outputs[0]
        body.outputs[k] = loop_var  # the variable keeps its initial value; the total replaces its result
        init, total_attrs = _initial_value(loop.inputs[k], attrs)
        total = make_node(graph, accumulated_matmul_op if is_matmul else accumulated_sum_op,
                          [loop.outputs[-1], init], total_attrs, [(init.dtype, loop.inputs[k]._shape)],
                          f"{term.name}_total", term.location)
        after.append(total)
        outs[id(loop.outputs[k])] = total.outputs[0]
    if before:
        prune(body)  # the loop's own adds and products are dead now
    return before, after, outs


def _initial_value(init, attrs):
    """The total's initial-value operand and attributes: for a fill of one scalar (the zeros a gradient starts
    from), the scalar and the shape, so the full array need not exist while the loop runs (pruning drops the
    fill when nothing else uses it)."""
    source = init.node
    if source.op is fill_op and source.inputs[0]._shape == () and source.inputs[0].dtype is init.dtype:
        return source.inputs[0], {**attrs, "shape": tuple(init._shape)}
    return init, attrs


def _add_loop_var(loop, init, hint):
    """Append a loop variable initialised to `init`; returns the body's placeholder for it. The caller sets
    the body's output for it (a passthrough until then)."""
    body, cond = loop.attrs["body_graph"], loop.attrs["cond_graph"]
    n = loop.attrs["n_vars"]
    holder = _insert_placeholder(body, n, hint)
    _insert_placeholder(cond, n, hint)
    body.outputs.insert(n, holder)
    loop.inputs = loop.inputs[:n] + [init] + loop.inputs[n:]
    loop.outputs.append(SymbolicTensor(loop, n, VARIANT, ()))
    attrs = {**loop.attrs, "n_vars": n + 1}
    if attrs.get("names") is not None:
        attrs["names"] = list(attrs["names"]) + [hint]
    loop.attrs = attrs
    return holder


def _insert_placeholder(graph, position, hint):
    placeholder = graph.placeholder(VARIANT, (), hint)
    graph.inputs.pop()
    graph.inputs.insert(position, placeholder)
    return placeholder
