"""Static buffer planning (XLA's buffer assignment, in small): which intermediates of a graph are written into
buffers kept across calls instead of fresh arrays.

Fresh arrays of 128 kB and more come from mmap: every call then pays page faults to touch them and munmap to
free them. A planned value is written by its kernel with `out=` into a buffer of an arena that the compiled
function owns; buffers are reused within a call by values whose lifetimes do not overlap, and across calls.

Safety comes first, so the rules are conservative:
- only values of a fully known shape, a plain numpy dtype and at least PLAN_MIN_BYTES, produced by an op
  whose code can write into a given buffer (matmul, conv2d, a fused elementwise block), are planned;
- a value's lifetime runs to its last use, and through every op that might return a view of it or write
  into it in place (a reshape, a fused block it is donated to): the lifetime is that of those results too;
- a value that escapes (a graph output, or reaches a stateful op such as a variable assignment, a
  TensorArray, or a nested graph) is never planned, nor is anything that might alias it.
Only the top-level graph is planned; loop and branch bodies allocate as before.

The arena hands a whole set of buffers to one call at a time (taken at entry, given back at exit, also on
error), so concurrent calls from threads and re-entrant calls each get their own set; a set is created when
none is free. The buffers are freed with the compiled function. The planner runs when the graph carries
`plan_buffers` (set by the `buffer_planning` pass, switched off like every pass)."""

from __future__ import annotations

import numpy as np

from .graph import subgraphs
from .shapes import num_elements

PLAN_MIN_BYTES = 16384  # below this, numpy's small-block allocator is as cheap as a buffer lookup

# ops whose kernels return new arrays that share no memory with their inputs and keep no reference to them
_FRESH = {"matmul", "conv2d", "conv2d_epilogue", "conv2d_backprop_input", "conv2d_backprop_filter",
          "conv2d_backprop_input_filter", "conv2d_input_spectrum", "conv2d_epilogue_spectral", "max_pool2d",
          "conv2d_and_filter_grad", "conv2d_epilogue_pooled", "depthwise_conv2d", "depthwise_conv2d_backprop_input",
          "depthwise_conv2d_backprop_filter", "sum_of_squares",
          "avg_pool2d", "max_pool2d_grad", "avg_pool2d_grad", "max_pool2d_take", "softmax", "log_softmax"}


class Arena:
    """The buffers of one compiled function: `specs` are (slot, shape, dtype) views over flat slots of
    `slot_sizes` elements. `take` returns a set of views for one call; `give` returns it."""

    def __init__(self, slot_specs, view_specs):
        self.slot_specs = slot_specs  # [(elements, numpy dtype)]
        self.view_specs = view_specs  # [(slot index, shape)]
        self.free: list = []  # sets not in use; list.pop/append are atomic, so threads need no lock

    def new_set(self) -> tuple:
        slots = [np.empty(size, dtype) for size, dtype in self.slot_specs]
        return tuple(slots[slot][:int(np.prod(shape, dtype=np.int64))].reshape(shape)
                     for slot, shape in self.view_specs)

    def take(self) -> tuple:
        try:
            return self.free.pop()
        except IndexError:  # first call, or every set is in use by another thread or an outer call
            return self.new_set()

    def give(self, views) -> None:
        self.free.append(views)

    @property
    def nbytes(self) -> int:
        return sum(size * np.dtype(dtype).itemsize for size, dtype in self.slot_specs)


class Plan:
    """The outcome for one graph: `views[id(tensor)]` the index of the arena view a value is written into."""

    def __init__(self):
        self.views: dict = {}
        self.slot_specs: list = []
        self.view_specs: list = []

    def __bool__(self):
        return bool(self.view_specs)

    def arena(self) -> Arena:
        return Arena(self.slot_specs, self.view_specs)


def _numpy_dtype(tensor):
    dtype = tensor.dtype
    if dtype.name in ("resource", "variant", "string") or dtype.name.startswith("bfloat") or dtype.is_string:
        return None
    np_dtype = dtype.np
    return np_dtype if np_dtype.kind in "biufc" else None


def _static_size(tensor):
    shape = tensor._shape
    return None if shape is None or None in shape else num_elements(shape)


def _writable(node, tensor) -> bool:
    """Whether the code generator can write `tensor` (an output of `node`) into a given buffer."""
    op = node.op.name
    if op == "matmul":
        return all(_static_size(t) is not None for t in node.inputs) and node.inputs[0].dtype is tensor.dtype
    if op in ("conv2d", "conv2d_epilogue", "conv2d_backprop_input", "conv2d_epilogue_spectral",
              "conv2d_input_spectrum", "depthwise_conv2d", "depthwise_conv2d_backprop_input"):
        return True
    if op in ("conv2d_backprop_input_filter", "conv2d_and_filter_grad", "conv2d_epilogue_pooled"):
        return tensor is node.outputs[0]  # the large first output (a filter gradient, a pooled output: smaller)
    if op == "fused":  # a block output written in place into a buffer dying there needs none of its own
        from .passes.fusion_codegen import allocated_outputs, buffered_block

        position = next(k for k, o in enumerate(node.outputs) if o is tensor)  # not ==: tensors overload it
        return buffered_block(node) and allocated_outputs(node)[position]
    return False


def _nested_uses(graph) -> set:
    """ids of the tensors read anywhere inside the nested graphs of `graph`'s nodes (they escape to code
    this planner does not follow)."""
    used = set()

    def walk(g):
        for node in g.nodes:
            for sub in subgraphs(node):
                for inner in sub.nodes:
                    used.update(id(t) for t in inner.inputs)
                walk(sub)

    walk(graph)
    return used


def _lifetimes(graph):
    """id(tensor) -> (index of its last use, counting uses through possible aliases, or None if it escapes)."""
    index = {id(node): i for i, node in enumerate(graph.nodes)}
    consumers: dict = {}
    for node in graph.nodes:
        for position, t in enumerate(node.inputs):
            consumers.setdefault(id(t), []).append((node, position))
    escaping = {id(t) for t in graph.outputs} | _nested_uses(graph)
    end: dict = {}
    for node in reversed(graph.nodes):
        for t in node.outputs:
            if id(t) in escaping:
                end[id(t)] = None
                continue
            last = index[id(node)]
            for user, position in consumers.get(id(t), ()):
                if user.op.stateful or subgraphs(user) or user.op.name.startswith("tensor_array"):
                    last = None  # kept by the state or code outside this graph
                    break
                last = max(last, index[id(user)])
                if _may_alias(user, position):
                    ends = [end.get(id(o), index[id(user)]) for o in user.outputs]
                    if None in ends:
                        last = None
                        break
                    last = max([last] + ends)
            end[id(t)] = last
    return end


def _may_alias(node, position) -> bool:
    """Whether an output of `node` may share memory with its input number `position`."""
    op = node.op
    if op.name in _FRESH:
        return False
    if op.name == "fused":  # in buffer form only donated inputs are written into; expressions may pass one on
        from .passes.fusion_codegen import buffered_block

        return position in node.attrs.get("donated", ()) or not buffered_block(node)
    return not isinstance(op.kernel, np.ufunc)


def plan_graph(graph) -> Plan:
    """Assign the plannable intermediates of `graph` to arena views, reusing a slot once every value in it
    has had its last use (greedy, in node order)."""
    plan = Plan()
    end = _lifetimes(graph)
    free: dict = {}  # (elements, dtype) -> [slot]
    releases: dict = {}  # node index -> [(key, slot)] to free after that node
    views: dict = {}  # (slot, shape) -> view index

    def slot_for(key):
        slots = free.get(key)
        if slots:
            return slots.pop()
        plan.slot_specs.append(key)
        return len(plan.slot_specs) - 1

    def view_for(slot, shape):
        if (slot, shape) not in views:
            views[(slot, shape)] = len(plan.view_specs)
            plan.view_specs.append((slot, shape))
        return views[(slot, shape)]

    for i, node in enumerate(graph.nodes):
        for t in node.outputs:
            size, dtype, last = _static_size(t), _numpy_dtype(t), end.get(id(t))
            if size is None or dtype is None or last is None or size * dtype.itemsize < PLAN_MIN_BYTES:
                continue
            if not _writable(node, t):
                continue
            key = (size, dtype)
            slot = slot_for(key)
            plan.views[id(t)] = view_for(slot, tuple(t._shape))
            releases.setdefault(last, []).append((key, slot))
        for key, slot in releases.pop(i, ()):
            free.setdefault(key, []).append(slot)
    return plan


def emit_planned(cg, node, indent) -> bool:
    """Emit `node` writing into its planned buffers, if it has any and its op is one this module renders
    (fused blocks read cg.planned themselves). False: the caller emits it as usual."""
    plan = cg.plan
    op = node.op.name
    out = plan.views.get(id(node.outputs[0])) if node.outputs else None
    if op == "matmul" and out is not None:
        from . import blas_threads
        from .ops.linalg import _operand, single_threaded_gemm

        a, b = node.inputs
        left = _operand(cg.var(a), a._shape, node.attrs["transpose_a"])
        right = _operand(cg.var(b), b._shape, node.attrs["transpose_b"])
        # a GEMM OpenBLAS may thread runs at a thread count set by its shapes (runtime/blas_threads.py)
        gemm = "np.matmul" if single_threaded_gemm(node) else cg.bind(blas_threads.matmul, "blas_matmul")
        cg.line(indent, f"{cg.define(node.outputs[0])} = {gemm}({left}, {right}, out={cg.view_names[out]})", node)
        return True
    if op in ("conv2d", "conv2d_epilogue", "conv2d_backprop_input", "conv2d_backprop_input_filter",
              "conv2d_epilogue_spectral", "conv2d_input_spectrum", "conv2d_and_filter_grad",
              "conv2d_epilogue_pooled", "depthwise_conv2d", "depthwise_conv2d_backprop_input") and \
            out is not None:
        kernel = cg.bind(node.op.kernel, f"{op}_kernel")
        args = [cg.var(t) for t in node.inputs] + [f"{k}={cg.attr(k, v)}" for k, v in node.attrs.items()]
        args.append(f"out={cg.view_names[out]}")
        targets = ", ".join(cg.define(t) for t in node.outputs)
        cg.line(indent, f"{targets} = {kernel}({', '.join(args)})", node)
        return True
    return False
