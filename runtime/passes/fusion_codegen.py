"""How a fused elementwise block becomes Python: buffers reused through `out=` for arrays of a known
size, or one composite expression per output for scalars and small or partially known shapes."""

from __future__ import annotations

import string

import numpy as np

from .. import chunked
from ..shapes import num_elements
from . import fusion_tuning

BUFFER_MIN_ELEMENTS = 256  # below this, allocation is cheaper than the keyword call that avoids it

# ops whose kernels are not single ufuncs, written as ufunc steps into the output buffer `o`
_DECOMPOSED = {
    "sigmoid": [("negative", ("x0",)), ("exp", ("o",)), ("add", ("o", 1)), ("reciprocal", ("o",))],
    "rsqrt": [("sqrt", ("x0",)), ("reciprocal", ("o",))],
    "squared_difference": [("subtract", ("x0", "x1")), ("square", ("o",))],
    "relu": [("maximum", ("x0", 0))],
    "relu6": [("maximum", ("x0", 0)), ("minimum", ("o", 6))],
}


# decomposed ops whose kernels compute float16 in float32 (as TF does)
_HALF_IN_FLOAT32 = {"sigmoid"}


def _ufunc_plan(step, tuned=False):
    """[(numpy ufunc name, args)] computing the step into a buffer, or None if it cannot; `tuned`: the
    equivalent calls of passes/fusion_tuning.py."""
    plan = _plain_plan(step)
    return fusion_tuning.tuned_plan(step, plan) if tuned and plan is not None else plan


def _plain_plan(step):
    if step.op.name in _DECOMPOSED:
        if step.op.name in _HALF_IN_FLOAT32 and step.dtype.name == "float16":
            return None  # the kernel's float32 round trip (its expression calls the kernel)
        return _DECOMPOSED[step.op.name]
    if step.op.name in _CHECKED and step.render is not None:  # no zero divisor possible: the plain ufunc
        return [(_CHECKED[step.op.name], ("x0", "x1"))]
    kernel = step.op.kernel
    if isinstance(kernel, np.ufunc) and kernel.nin == len(step.args) and kernel.nout == 1 and not step.attrs:
        return [(kernel.__name__, tuple(f"x{i}" for i in range(len(step.args))))]
    return None


# ops whose kernel checks its operands (integer division by zero) but which are plain ufuncs when the node's
# render says no check is needed
_CHECKED = {"floordiv": "floor_divide", "floormod": "remainder"}


def _literal(value) -> str:
    value = np.asarray(value).item()
    if isinstance(value, float) and not np.isfinite(value):
        return f"float({str(value)!r})"
    return repr(value)


def emit_fused(cg, node, indent):
    tuned = getattr(cg, "tune_elementwise", False)  # the elementwise_tuning pass (passes/fusion_tuning.py)
    if chunked_block(node):
        _emit_chunked(cg, node, indent, tuned)
    elif buffered_block(node):
        _emit_buffers(cg, node, indent, tuned)
    else:
        _emit_expressions(cg, node, indent)


def buffered_block(node) -> bool:
    """Whether the block is emitted as ufunc steps writing into buffers (so its outputs can be planned)."""
    return all(_buffer_friendly(s) for s in node.attrs["steps"])


def _buffer_friendly(step) -> bool:
    # bfloat16 (ml_dtypes) computes in float32 beside a Python literal: its blocks use the typed expressions
    size = num_elements(step.shape)
    return (size is not None and size >= BUFFER_MIN_ELEMENTS and _ufunc_plan(step) is not None
            and step.dtype.name != "bfloat16")


def _last_uses(steps, exported):
    """Last step using each step value (key j) and each input (key ("in", i))."""
    last = {}
    for j, step in enumerate(steps):
        for kind, i in step.args:
            if kind == "step":
                last[i] = j
            elif kind == "in":
                last[("in", i)] = j
    for j in exported:
        last[j] = len(steps)  # lives past the block
    return last


def _reusable(node, j, last):
    """The step values ("step", i) and donated inputs ("in", i) whose buffer step j can write into: they die
    at step j and have its dtype and shape."""
    steps, step = node.attrs["steps"], node.attrs["steps"][j]
    donated = set(node.attrs.get("donated", ()))
    found = [(kind, i) for kind, i in step.args if kind == "step" and last.get(i) == j
             and steps[i].dtype is step.dtype and steps[i].shape == step.shape]
    return found + [(kind, i) for kind, i in step.args if kind == "in" and i in donated
                    and last.get(("in", i)) == j and node.inputs[i].dtype is step.dtype
                    and node.inputs[i]._shape == step.shape]


def allocated_outputs(node) -> list:
    """For each output of a buffer-form block, whether its step allocates (rather than writing into a buffer
    that dies there): only those are worth a planned buffer."""
    if chunked_block(node):  # chunks write every output into an array of its own
        return [True] * len(node.attrs["outputs"])
    last = _last_uses(node.attrs["steps"], node.attrs["outputs"])
    return [not _reusable(node, j, last) for j in node.attrs["outputs"]]


def _emit_buffers(cg, node, indent, tuned=False):
    steps, exported = node.attrs["steps"], node.attrs["outputs"]
    inputs = [cg.var(t) for t in node.inputs]
    out_names = {j: cg.define(t) for j, t in zip(exported, node.outputs)}
    planned = {j: cg.planned(t) for j, t in zip(exported, node.outputs)}  # arena buffers (runtime/buffer_plan.py)
    last = _last_uses(steps, exported)
    names = {}
    temporaries = []  # buffers allocated for values that do not leave the block
    fills: dict = {}  # (value, dtype, shape) -> the name of a filled array (passes/fusion_tuning.py)

    def filled_name(value, step):
        key = (_literal(value), step.dtype.name, step.shape)
        if key not in fills:
            array = fusion_tuning.filled(value, np.dtype(step.dtype.np), num_elements(step.shape))
            fills[key] = cg.bind(array.reshape(step.shape), "filled", share=False)
        return fills[key]

    for j, step in enumerate(steps):
        operands = [inputs[i] if kind == "in" else names[i] if kind == "step" else _Lit(i) for kind, i in step.args]
        reusable = [names[i] if kind == "step" else inputs[i] for kind, i in _reusable(node, j, last)]
        # a value that stays inside the block keeps the name of the buffer it was written into
        target = out_names.get(j) or (reusable[0] if reusable else cg.fresh(step.name))
        plan = _ufunc_plan(step, tuned)
        calls = [(name, _ufunc_args(args, operands, target, _literals(name, step, tuned, filled_name)))
                 for name, args in plan]
        (first_name, args), rest = calls[0], calls[1:]
        if reusable:
            buffer = reusable[0]
            cg.line(indent, _call(first_name, args, buffer), node)
            if target != buffer:
                cg.line(indent, f"{target} = {buffer}", node)
        elif planned.get(j):
            cg.line(indent, f"{target} = {_call(first_name, args, planned[j])}", node)
        else:
            cg.line(indent, f"{target} = np.{first_name}({args})", node)
            if j not in out_names:
                temporaries.append(target)
        for name, args in rest:
            cg.line(indent, _call(name, args, target), node)
        names[j] = target
    if temporaries:
        cg.line(indent, f"del {', '.join(temporaries)}", node)


def _call(ufunc_name, args, target) -> str:
    """A ufunc call writing into `target`. (Passing it positionally saves 0.13 us of a 3 us call on 10k float32,
    but tests and readers look for `out=`, and numpy deprecates it for maximum and minimum.)"""
    return f"np.{ufunc_name}({args}, out={target})"


class _Lit:
    """A literal operand of a step, rendered when its ufunc is known (passes/fusion_tuning.py)."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


def _literals(ufunc_name, step, tuned, filled_name, size=None):
    """How a literal operand of `ufunc_name` in `step` (over `size` elements: the step's, or a chunk's) is
    written: as a literal, or (tuned maximum/minimum) as the name of an array filled with it."""
    size = num_elements(step.shape) if size is None else size
    if tuned and fusion_tuning.fills_literal(ufunc_name, step.dtype, size):
        return lambda value: filled_name(value, step)
    return _literal


def chunked_block(node) -> bool:
    """Whether the block runs chunk by chunk (runtime/chunked.py): two steps or more (a single ufunc has no
    intermediate to keep in cache: chunking the conv workload's lone relu made it 6% slower), buffer form,
    every step of one shape, every input of that shape or a scalar (no broadcasting inside a chunk), and an
    output too big for L2."""
    steps = node.attrs["steps"]
    if len(steps) < 2:
        return False
    shape = steps[0].shape
    size = num_elements(shape)
    if size is None or not buffered_block(node) or not all(s.shape == shape for s in steps):
        return False
    if not all(t._shape == shape or t._shape == () for t in node.inputs):
        return False
    if not all(s.dtype.is_number and not s.dtype.is_complex for s in steps):
        return False
    return size * max(np.dtype(s.dtype.np).itemsize for s in steps) >= chunked.CHUNK_MIN_BYTES


def _emit_chunked(cg, node, indent, tuned=False):
    """Outputs allocated (or planned) whole, then `run_chunked` calls a function holding the block's ufunc
    steps over one chunk: compiled once here, bound in the generated module's namespace."""
    steps, exported = node.attrs["steps"], node.attrs["outputs"]
    chunk = chunked.CHUNK_ELEMENTS  # fixed here: filled arrays (tuned) are made for this chunk size
    chunk_fn = _compile_chunk_fn(node, tuned, chunk)
    fn_name = cg.bind(chunk_fn, f"{node.name}_chunk", share=False)
    runner = cg.bind(chunked.run_chunked, "run_chunked")
    inputs = [cg.var(t) for t in node.inputs]
    outs = []
    for j, t in zip(exported, node.outputs):
        name = cg.define(t)
        planned = cg.planned(t)
        if planned:
            cg.line(indent, f"{name} = {planned}", node)
        else:
            dtype = cg.bind(np.dtype(steps[j].dtype.np), "dtype_" + np.dtype(steps[j].dtype.np).name)
            cg.line(indent, f"{name} = np.empty({tuple(steps[j].shape)!r}, {dtype})", node)
        outs.append(name)
    in_tuple = "".join(f"{x}, " for x in inputs)
    out_tuple = "".join(f"{o}, " for o in outs)
    cg.line(indent, f"{runner}({fn_name}, ({in_tuple}), ({out_tuple}), {chunk})", node)


def _compile_chunk_fn(node, tuned=False, chunk=None):
    """The function computing the block over one chunk of its inputs into one chunk of its outputs. Tuned,
    intermediates are computed in an output's chunk not written yet (when that fits, else as untuned)."""
    if tuned:
        fn = _chunk_fn(node, True, chunk or chunked.CHUNK_ELEMENTS, scratch_in_outputs=True)
        if fn is not None:
            return fn
    return _chunk_fn(node, tuned, chunk or chunked.CHUNK_ELEMENTS, scratch_in_outputs=False)


def _chunk_fn(node, tuned, chunk, scratch_in_outputs):
    """The chunk function's source compiled, or None when an intermediate put in an output's chunk would
    still be needed when that output is written."""
    steps, exported = node.attrs["steps"], node.attrs["outputs"]
    last = _last_uses(steps, exported)
    ins = [f"x{i}" for i in range(len(node.inputs))]
    outs = {j: f"o{k}" for k, j in enumerate(exported)}
    namespace = {"np": np}
    fills: dict = {}

    def filled_name(value, step):  # a filled chunk, cut to this chunk's length `n` (the last one is short)
        key = (_literal(value), step.dtype.name)
        if key not in fills:
            fills[key] = f"c{len(fills)}"
            namespace[fills[key]] = fusion_tuning.filled(value, np.dtype(step.dtype.np), chunk)
        return f"{fills[key]}[:n]"

    def free(buffer, j):  # an output chunk not written yet, holding no intermediate used from step j on
        return buffer not in holder or last[holder[buffer]] < j

    names, lines = {}, []
    holder = {}  # output chunk -> the step whose intermediate it holds
    for j, step in enumerate(steps):
        operands = [ins[i] if kind == "in" else names[i] if kind == "step" else _Lit(i) for kind, i in step.args]
        # a value that dies here lends its chunk buffer (never an output's: outputs live past the block)
        reusable = [names[i] for kind, i in step.args if kind == "step" and last.get(i) == j and i not in outs
                    and steps[i].dtype is step.dtype]
        if j in outs:
            if outs[j] in holder and last[holder.pop(outs[j])] > j:
                return None  # written while an intermediate in it is still to be read
            target = outs[j]
        elif reusable:
            target = reusable[0]
        else:
            # the last output written first: it stays free longest
            scratch = [o for k, o in sorted(outs.items(), reverse=True)
                       if k > j and steps[k].dtype is step.dtype and free(o, j)]
            target = scratch[0] if scratch_in_outputs and scratch else f"t{j}"
        if j not in outs and target in outs.values():
            holder[target] = j
        plan = _ufunc_plan(step, tuned)
        calls = [(name, _ufunc_args(args, operands, target, _literals(name, step, tuned, filled_name, chunk)))
                 for name, args in plan]
        (first_name, args), rest = calls[0], calls[1:]
        if target == f"t{j}":
            lines.append(f"{target} = np.{first_name}({args})")
        else:
            lines.append(_call(first_name, args, target))
        lines.extend(_call(name, sub, target) for name, sub in rest)
        names[j] = target
    if fills:
        lines.insert(0, "n = o0.shape[0]")
    params = ", ".join(ins + list(outs.values()))
    source = f"def chunk({params}):\n" + "".join(f"    {line}\n" for line in lines)
    exec(compile(source, f"<tinytf chunk {node.name}>", "exec"), namespace)
    fn = namespace["chunk"]
    fn.source = source  # shown by tests and when debugging
    return fn


def _ufunc_args(plan_args, operands, target, literal=None) -> str:
    """A ufunc step's arguments as source: "xI" is operand I, "o" the output buffer, others literals
    (written by `literal`, by default as Python literals)."""
    literal = literal or _literal
    written = []
    for a in plan_args:
        if a == "o":
            written.append(target)
        elif isinstance(a, str):
            operand = operands[int(a[1:])]
            written.append(literal(operand.value) if isinstance(operand, _Lit) else operand)
        else:
            written.append(literal(a))
    return ", ".join(written)


def _emit_expressions(cg, node, indent):
    steps, exported = node.attrs["steps"], set(node.attrs["outputs"])
    inputs = [cg.var(t) for t in node.inputs]
    uses = {}
    for step in steps:
        for kind, i in step.args:
            if kind == "step":
                uses[i] = uses.get(i, 0) + 1
    out_names = {j: cg.define(t) for j, t in zip(node.attrs["outputs"], node.outputs)}
    exprs = {}
    for j, step in enumerate(steps):
        # constants as numpy scalars bound to names: numpy scalar with numpy scalar is the fastest pairing
        operands = [inputs[i] if kind == "in" else exprs[i] if kind == "step" else cg.constant(i)
                    for kind, i in step.args]
        for position in _used_twice(step):  # an inlined expression used twice in a template is named first
            kind, i = step.args[position]
            if kind == "step" and exprs[i].startswith("("):
                exprs[i] = cg.fresh(steps[i].name)
                cg.line(indent, f"{exprs[i]} = {operands[position][1:-1]}", node)
                operands[position] = exprs[i]
        expr = cg.call(step.op, step.render, step.attrs, operands)
        if j in exported or uses.get(j, 0) > 1:
            name = out_names.get(j) or cg.fresh(step.name)
            cg.line(indent, f"{name} = {expr}", node)
            exprs[j] = name
        else:
            exprs[j] = f"({expr})"


def _used_twice(step) -> list:
    render = step.render
    if not isinstance(render, str):
        return []
    fields = [f for _, f, _, _ in string.Formatter().parse(render) if f is not None and f.isdigit()]
    return sorted({int(f) for f in fields if fields.count(f) > 1})
