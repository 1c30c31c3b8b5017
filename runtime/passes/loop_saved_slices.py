"""Loop saved slices: a forward loop that saves `xs[t]` (a slice of a loop-invariant tensor at a loop variable)
for its backward loop, and saves `t` as well, stops saving the slice: the backward loop slices `xs` again at
the `t` it reads back.

An RNN's input at step t is such a slice; its gradient stack kept one view of `xs` per step (about 100 bytes
each, 4.6 KiB for rnn_unroll's 50 steps, alive at the call's peak where the backward loop starts), and the
forward loop made each view only to save it once the input projection (recurrent_projection) took over the
product. The slice of the same tensor at the same index is the same values: the results keep their bits.

Only the exact pattern is rewritten, within one graph: in the forward loop's body, `stack_S.push(i, v)` with
`v = strided_slice(X, t)`, X a captured value (not a resource) and t a loop variable, and `stack_T.push(i, t)`
with the same index i; both stacks are results of the forward loop used by nothing but one backward loop's
captures; in that loop's body the only use of stack_S is one read (or take) at an index j, after a read of
stack_T at the same j. The backward loop then captures X and slices it at the value read from stack_T."""

from __future__ import annotations

from ..graph import Graph, subgraphs
from ..ops.control import while_op
from ..ops.gradient_stack import stack_push_op, stack_read_op, stack_take_op
from ..ops.strided_slice import strided_slice_op
from .rewrite import make_node, replace_all_uses, set_nodes, use_counts


def recompute_saved_slices(graph: Graph) -> Graph:
    for node in graph.nodes:
        for sub in subgraphs(node):
            recompute_saved_slices(sub)
    uses = use_counts(graph)
    for node in list(graph.nodes):
        if node.op is while_op:
            for push, slice_node, var_s, var_t in _saved_slices(node):
                backward = _sole_reader(graph, node.outputs[var_s], uses)
                if backward is not None and _rewrite(node, backward, push, slice_node, var_s, var_t):
                    uses = use_counts(graph)
    return graph


def _first_capture(loop) -> int:
    return loop.attrs["n_vars"] + loop.attrs["has_max"]


def _saved_slices(loop):
    """(push of the slice, the slice node, the slice stack's variable, the index stack's variable) of a loop's
    body that saves both a slice of a captured value at a loop variable and that variable, at one index."""
    body, n_vars = loop.attrs["body_graph"], loop.attrs["n_vars"]
    variables = {id(p): k for k, p in enumerate(body.inputs[:n_vars])}
    captures = {id(p) for p in body.inputs[n_vars:]}
    pushes = [n for n in body.nodes if n.op is stack_push_op]
    saved = {}  # (id of the pushed value, id of the push index) -> the stack's loop variable
    for push in pushes:
        stack, index, value = push.inputs
        if id(stack) in variables and body.outputs[variables[id(stack)]] is push.outputs[0]:
            saved[id(value), id(index)] = variables[id(stack)]
    body_uses = use_counts(body)
    found = []
    for push in pushes:
        stack, index, value = push.inputs
        node = value.node
        if node.op is not strided_slice_op or len(node.inputs) != 2 or id(stack) not in variables:
            continue
        source, t = node.inputs
        var_t = saved.get((id(t), id(index)))
        if (id(source) not in captures or source.dtype.name in ("resource", "variant") or id(t) not in variables
                or var_t is None or body.outputs[variables[id(stack)]] is not push.outputs[0]
                or body_uses.get(id(stack), 0) != 1 or body_uses.get(id(push.outputs[0]), 0) != 1):
            continue
        found.append((push, node, variables[id(stack)], var_t))
    return found


def _sole_reader(graph, value, uses):
    """The while node that is the only user of `value` (as one of its captures), else None."""
    if uses.get(id(value), 0) != 1:
        return None
    for node in graph.nodes:
        if node.op is while_op and any(t is value for t in node.inputs[_first_capture(node):]):
            return node
    return None


def _capture_placeholder(loop, outer):
    """The body placeholder of the loop's capture `outer` (it appears once), and whether the condition uses it."""
    body, cond, n_vars = loop.attrs["body_graph"], loop.attrs["cond_graph"], loop.attrs["n_vars"]
    first = _first_capture(loop)
    positions = [k for k, t in enumerate(loop.inputs[first:]) if t is outer]
    if len(positions) != 1:
        return None, True
    k = positions[0]
    return body.inputs[n_vars + k], use_counts(cond).get(id(cond.inputs[n_vars + k]), 0) > 0


def _rewrite(forward, backward, push, slice_node, var_s, var_t) -> bool:
    body = backward.attrs["body_graph"]
    stack_s, in_cond_s = _capture_placeholder(backward, forward.outputs[var_s])
    stack_t, in_cond_t = _capture_placeholder(backward, forward.outputs[var_t])
    if stack_s is None or stack_t is None or in_cond_s:
        return False
    body_uses = use_counts(body)
    reads = {id(n): k for k, n in enumerate(body.nodes)}
    read_s = next((n for n in body.nodes if n.inputs and n.inputs[0] is stack_s), None)
    if read_s is None or read_s.op not in (stack_read_op, stack_take_op) or body_uses.get(id(stack_s), 0) != 1:
        return False
    read_t = next((n for n in body.nodes if n.op in (stack_read_op, stack_take_op) and n.inputs[0] is stack_t
                   and n.inputs[1] is read_s.inputs[1]), None)
    if read_t is None or reads[id(read_t)] > reads[id(read_s)]:
        return False
    # the backward loop captures the sliced value and slices it at the index it reads back
    f_body, n_f = forward.attrs["body_graph"], forward.attrs["n_vars"]
    position = next(k for k, p in enumerate(f_body.inputs) if p is slice_node.inputs[0])  # not ==: tensors overload it
    source = forward.inputs[_first_capture(forward) + position - n_f]
    placeholder = body.placeholder(source.dtype, source._shape, "sliced")
    backward.attrs["cond_graph"].placeholder(source.dtype, source._shape, "sliced")
    backward.inputs = backward.inputs + [source]
    out = read_s.outputs[0]
    again = make_node(body, strided_slice_op, [placeholder, read_t.outputs[0]], dict(slice_node.attrs),
                      [(out.dtype, out._shape)], slice_node.name, slice_node.location)
    body.nodes[reads[id(read_s)]] = again
    replace_all_uses(body, {id(out): again.outputs[0]})
    # the forward loop saves the slice no more (its stack stays empty; the slice goes if nothing else uses it)
    f_body.outputs[var_s] = f_body.inputs[var_s]
    set_nodes(f_body, [n for n in f_body.nodes if n is not push])
    if not use_counts(f_body).get(id(slice_node.outputs[0]), 0):
        set_nodes(f_body, [n for n in f_body.nodes if n is not slice_node])
    return True
