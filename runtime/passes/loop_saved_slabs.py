"""Loop saved slabs: the values a forward while loop saves for its backward loop go into rows of buffers kept
across calls (ops/gradient_slab.py) instead of fresh arrays kept in a list.

The fresh arrays are what made the LSTM step pay 900-1500 minor page faults a call: 5.6 MB of saved values
grow glibc's heap during the forward loop and leave it during the backward loop, and whenever glibc trims the
freed top of its heap, the next call faults every page in again. With the saved values in rows, each step's
temporaries are freed within the step and reused by the next one: the heap does not grow.

Which stacks: those of a loop of the function's own graph (not of a nested body: a stack made there is made once
per outer iteration), made empty for that loop alone, pushed once per iteration at the top of the body, with
elements of one fully known shape and a plain numeric dtype, at least SLAB_MIN_BYTES each. A value computed in
the body is written into its row by its producer when the code generator can write that producer's output into
a given buffer (a fused elementwise block; the body lists them in `slab_rows`, which the code generator reads),
else copied there by the push. A loop
variable pushed as it came in (an LSTM's previous `h` and `c`) is copied, unless the value it came from was
written into a row itself (then the list keeps a reference to that row, as before); a loop-invariant value is
left to the list (one reference per step). Reads are unchanged (a slab stack indexes like a list)."""

from __future__ import annotations

import numpy as np

from ..graph import Graph
from ..ops.control import while_op
from ..ops.fused import fused_op
from ..ops.gradient_slab import SlabPool, new_slab_uid, slab_push_op, slab_stack_op
from ..ops.gradient_stack import stack_new_op, stack_push_op
from ..ops.linalg import matmul_op
from ..ops.tensor_array import VARIANT
from .fusion_codegen import allocated_outputs, buffered_block, chunked_block
from .rewrite import make_node, use_counts

# Smaller values leave the heap's top to the allocator: rnn_unroll's 4 KiB states in rows (a row view made per
# push and per read) ran its 2.3 ms call in 3.5 ms; the LSTM's 16 KiB ones pay for their rows.
SLAB_MIN_BYTES = 8192


def plan_saved_slabs(graph: Graph) -> Graph:
    uses = use_counts(graph)
    for node in graph.nodes:
        if node.op is while_op:
            _slab_loop(graph, node, uses)
    return graph


def _element(tensor):
    """(shape, numpy dtype) of a value worth a slab row, else None."""
    shape = tensor._shape
    if shape is None or None in shape or tensor.dtype.name in ("resource", "variant", "string", "bfloat16"):
        return None
    dtype = np.dtype(tensor.dtype.np)
    if dtype.kind not in "biufc" or int(np.prod(shape, dtype=np.int64)) * dtype.itemsize < SLAB_MIN_BYTES:
        return None
    return tuple(shape), dtype


def _allocates(tensor) -> bool:
    """Whether `tensor`'s producer makes a fresh array (a view, such as an RNN's `xs[t]`, is kept by reference)."""
    op = tensor.node.op
    return op is fused_op or op is matmul_op or (op.elementwise and isinstance(op.kernel, np.ufunc))


def writes_into_buffer(tensor) -> bool:
    """Whether the code generator writes `tensor` into a buffer it is given (its row), not one of its own."""
    node = tensor.node
    if node.op is not fused_op or not (buffered_block(node) or chunked_block(node)):
        return False
    position = next(k for k, o in enumerate(node.outputs) if o is tensor)  # not ==: tensors overload it
    return allocated_outputs(node)[position]


def _slab_loop(graph, loop, uses) -> None:
    body, n_vars = loop.attrs["body_graph"], loop.attrs["n_vars"]
    placeholders = {id(p): i for i, p in enumerate(body.inputs[:n_vars])}
    made_in_body = {id(t) for n in body.nodes for t in n.outputs}
    body_uses = use_counts(body)
    candidates = []  # (push node, position in body.nodes, the loop variable, element spec)
    for position, node in enumerate(body.nodes):
        if node.op is not stack_push_op:
            continue
        stack, index, value = node.inputs
        var = placeholders.get(id(stack))
        if var is None or body.outputs[var] is not node.outputs[0] or body_uses.get(id(stack), 0) != 1 \
                or id(index) not in placeholders:
            continue
        init = loop.inputs[var]
        if init.node.op is not stack_new_op or uses.get(id(init), 0) != 1:
            continue
        spec = _element(value)
        if spec is not None:
            candidates.append((node, position, var, spec))
    written = set()  # values their producer writes into a row
    chosen = []
    for node, position, var, spec in candidates:
        value = node.inputs[2]
        if id(value) in made_in_body and _allocates(value):
            if id(value) not in written and writes_into_buffer(value):
                written.add(id(value))
            chosen.append((node, position, var, spec))
    for node, position, var, spec in candidates:
        value = node.inputs[2]
        i = placeholders.get(id(value))
        # a loop variable that changes each step, from a value not already in a row: copied into one
        if i is not None and body.outputs[i] is not value and id(body.outputs[i]) not in written:
            chosen.append((node, position, var, spec))
    rows = []
    for node, position, var, (shape, dtype) in chosen:
        old = loop.inputs[var].node
        slab = make_node(graph, slab_stack_op, [], {"uid": new_slab_uid(), "pool": SlabPool(shape, dtype)},
                         [(VARIANT, ())], old.name, old.location, replaces=old)
        slab.outputs = old.outputs  # the same tensor: the loop's input now comes from the slab stack
        for t in slab.outputs:
            t.node = slab
        graph.nodes[next(k for k, n in enumerate(graph.nodes) if n is old)] = slab
        push = make_node(body, slab_push_op, list(node.inputs), {}, [(VARIANT, ())], node.name, node.location,
                         replaces=node)
        push.outputs = node.outputs
        for t in push.outputs:
            t.node = push
        body.nodes[position] = push
        if id(node.inputs[2]) in written:
            rows.append((node.inputs[2], node.inputs[0], node.inputs[1]))
            written.discard(id(node.inputs[2]))  # one row per value
    if rows:
        body.slab_rows = rows  # (value, stack, index): the code generator writes value into stack.row(index)
