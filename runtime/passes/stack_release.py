"""Stack release: a backward loop that is the only reader of a forward loop's gradient stack takes each element
out of the stack as it reads it (`gradient_stack_take`), so the values the forward pass saved are freed one
iteration at a time instead of all together after the backward loop.

Without it, everything the forward loop of an RNN saved (seven 32x128 arrays per step in the LSTM workload,
5.6 MB) stays alive until the backward loop ends, and whatever the backward loop holds on top of it (the
pending operands of the loop_accumulation pass, the gradients being summed) raises the call's peak above it.
TensorFlow's own while-loop gradients pop their TensorList stacks for the same reason.

A stack is released only when nothing else can read it again: it is a forward loop's result, made empty just
for that loop; the stack value has exactly one use in its graph (one while loop's captured input), and inside
that loop's body exactly one use, a `gradient_stack_read` at the top level of the body (not in a nested loop,
which could read the element more than once), indexed by a loop variable. The gradient of a while loop reads
each element once, at its own iteration's index; a persistent tape asked twice for gradients reads the stack
from two loops and keeps it whole."""

from __future__ import annotations

from ..graph import Graph, subgraphs
from ..ops.control import while_op
from ..ops.gradient_stack import stack_new_op, stack_read_op, stack_take_op
from .rewrite import make_node, use_counts


def release_stacks(graph: Graph) -> Graph:
    uses = use_counts(graph)
    for node in graph.nodes:
        for sub in subgraphs(node):
            release_stacks(sub)
        if node.op is while_op:
            _take_in_loop(node, uses)
    return graph


def _take_in_loop(loop, outer_uses: dict) -> None:
    body, n_vars = loop.attrs["body_graph"], loop.attrs["n_vars"]
    first_capture = n_vars + loop.attrs["has_max"]
    captured = dict(zip(map(id, body.inputs[n_vars:]), loop.inputs[first_capture:]))
    cond_captured = {id(t) for t in loop.inputs[first_capture:] if _used_by_cond(loop, t)}
    # loop variables the body changes (a variable passed through unchanged would read one index every time)
    counters = {id(p) for p, out in zip(body.inputs[:n_vars], body.outputs[:n_vars]) if out is not p}
    body_uses = use_counts(body)
    for position, node in enumerate(body.nodes):
        if node.op is not stack_read_op:
            continue
        stack, index = node.inputs
        outer = captured.get(id(stack))
        if (outer is None or outer_uses.get(id(outer), 0) != 1 or body_uses.get(id(stack), 0) != 1
                or id(outer) in cond_captured or id(index) not in counters or not _fresh_stack(outer, outer_uses)):
            continue
        take = make_node(body, stack_take_op, list(node.inputs), dict(node.attrs),
                         [(t.dtype, t._shape) for t in node.outputs], node.name, node.location, replaces=node)
        take.outputs = node.outputs  # the same tensors: every use of the read now reads the take
        for t in take.outputs:
            t.node = take
        body.nodes[position] = take


def _fresh_stack(value, uses: dict) -> bool:
    """Whether `value` is the stack a forward loop filled, made empty for that loop and used by nothing else: a
    stack read out of another stack (a nested loop's, one per outer iteration) may be reached again through
    that other stack, by a second-order gradient for one, and is left whole."""
    loop = value.node
    if loop.op is not while_op or value.index >= loop.attrs["n_vars"]:
        return False
    init = loop.inputs[value.index]
    return init.node.op is stack_new_op and uses.get(id(init), 0) == 1


def _used_by_cond(loop, outer) -> bool:
    """Whether the loop's condition graph uses the captured value `outer` (it then runs once more per run)."""
    cond, n_vars = loop.attrs["cond_graph"], loop.attrs["n_vars"]
    first_capture = n_vars + loop.attrs["has_max"]
    cond_uses = use_counts(cond)
    for placeholder, t in zip(cond.inputs[n_vars:], loop.inputs[first_capture:]):
        if t is outer and cond_uses.get(id(placeholder), 0):
            return True
    return False
