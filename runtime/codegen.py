"""The code generator: a checked graph becomes the source of one Python function that calls numpy and
the kernels directly. Control flow is emitted inline as Python `if`/`while`. The source is registered in
linecache, so tracebacks and `inspect` show real lines, and every line maps back to its node."""

from __future__ import annotations

import builtins
import itertools
import keyword
import linecache
import string
import weakref

import numpy as np

from . import numpy_errors
from .buffer_plan import emit_planned, plan_graph
from .dtypes import DType
from .graph import Graph
from .ops.core import const_op

_RESERVED = set(keyword.kwlist) | set(dir(builtins)) | {"np", "_buffers", "_np_body", "_np_run", "_np_call",
                                                      "_np_refused", "_np_error"}
_file_counter = itertools.count()

# Each generated module keeps {line number: node} under this global name, so a run-time error raised in
# generated code can name the node and the user's line (see node_at).
LINE_MAP_GLOBAL = "__line_nodes__"

# Entry points compute under tinytf's numpy error state (numpy_errors.py): the IEEE results TF gives silently
# (x / 0, log(0), overflow) do not warn, and the caller's state is untouched. The graph's body (with the
# wrapping of its results) is a function of its own, `_np_body`, which the entry runs inside numpy_errors'
# prepared context (`_np_run`: about 100 instructions, where setting and resetting numpy's state costs about
# 1,600, a third of a one-op call). When that context is in use (another thread's call, or a call from inside
# one), `_np_call` sets and resets the state instead. The plain function of compile_graph stays as the user
# reads it; its callers run it through numpy_errors.call.
_QUIET_NAMES = {"_np_run": numpy_errors.run, "_np_call": numpy_errors.call, "_np_refused": numpy_errors.run_refused}


def _is_literal(value) -> bool:
    if value is None or isinstance(value, (bool, int, float, str, bytes)):
        return not isinstance(value, float) or np.isfinite(value)
    if isinstance(value, (tuple, list)):
        return all(_is_literal(v) for v in value)
    return False


class CodeGen:
    """Accumulates the lines of one generated function and the namespace its names resolve in."""

    def __init__(self):
        self.namespace = {"np": np}
        self.lines: list = []
        self.line_nodes: dict = {}  # 1-based line number -> node
        self.used = set(_RESERVED)
        self.vars: dict = {}  # id(tensor) -> variable name or bound constant name
        self.bound: dict = {}  # id(object) -> its name in the namespace
        self.constants: dict = {}  # (dtype, bytes) -> name, for scalar constants written by fused blocks
        self.plan = None  # the graph's buffer plan (buffer_plan.Plan), when planning is on
        self.row_targets: dict = {}  # id(tensor) -> the slab row a loop body writes it into
        self.view_names: list = []  # plan view index -> the local name of that arena buffer

    # --- names ---------------------------------------------------------------------------------
    def fresh(self, hint: str) -> str:
        name = hint if hint.isidentifier() else "v"
        if name in self.used:
            for i in itertools.count(1):
                candidate = f"{name}_{i}"
                if candidate not in self.used:
                    name = candidate
                    break
        self.used.add(name)
        return name

    def bind(self, obj, hint: str, share: bool = True) -> str:
        """Put an object (kernel, constant, dtype) in the namespace under a new name; the same object bound
        twice gets one name when `share`."""
        if share and id(obj) in self.bound:
            return self.bound[id(obj)]
        name = self.fresh(hint)
        self.namespace[name] = obj
        if share:
            self.bound[id(obj)] = name
        return name

    def constant(self, value) -> str:
        """A name bound to a numpy scalar constant; equal constants share one name."""
        key = (np.asarray(value).dtype.str, np.asarray(value).tobytes())
        name = self.constants.get(key)
        if name is None:
            name = self.constants[key] = self.bind(value, "const", share=False)
        return name

    def var(self, tensor) -> str:
        return self.vars[id(tensor)]

    def define(self, tensor, hint=None) -> str:
        name = self.fresh(hint or _tensor_hint(tensor))
        self.vars[id(tensor)] = name
        return name

    def alias(self, tensor, name: str) -> None:
        self.vars[id(tensor)] = name

    def planned(self, tensor):
        """The name of the arena buffer (or slab row) `tensor` is to be written into, or None."""
        row = self.row_targets.get(id(tensor))
        if row is not None:
            return row
        if self.plan is None:
            return None
        index = self.plan.views.get(id(tensor))
        return None if index is None else self.view_names[index]

    # --- lines ---------------------------------------------------------------------------------
    def line(self, indent: int, text: str, node=None) -> None:
        self.lines.append("    " * indent + text)
        if node is not None:
            self.line_nodes[len(self.lines)] = node

    def attr(self, key, value) -> str:
        """An attribute as source: a literal when it is one, else a bound name."""
        if _is_literal(value):
            return repr(value)
        if isinstance(value, DType):
            return self.bind(value, value.name)
        return self.bind(value, key)

    # --- graphs --------------------------------------------------------------------------------
    def emit_graph(self, graph: Graph, indent: int, input_names, result_names=None, owned_inputs: int = 0) -> list:
        """Emit the nodes of `graph` with its inputs bound to `input_names`. If `result_names` is given,
        assign the outputs to those names; return the output expressions. The first `owned_inputs` names are
        the graph's own (a while body's loop variables, rebound at the end of each iteration): they are deleted
        at their last use, as the values the graph defines are."""
        for placeholder, name in zip(graph.inputs, input_names):
            self.alias(placeholder, name)
        for value, stack, index in getattr(graph, "slab_rows", ()):  # passes/loop_saved_slabs.py
            self.row_targets[id(value)] = f"{self.var(stack)}.row({self.var(index)})"
        start = len(self.lines)
        dies_after = _deaths(graph, graph.inputs[:owned_inputs])
        for node in graph.nodes:
            self.emit_node(node, indent)
            dead = [self.vars[id(t)] for t in dies_after.get(id(node), ())]
            if dead:  # release arrays at their last use, so peak memory stays at eager's or below
                self.line(indent, f"del {', '.join(dead)}")
        outputs = [self.var(t) for t in graph.outputs]
        if result_names is not None:
            pairs = [(r, o) for r, o in zip(result_names, outputs) if r != o]
            if pairs:
                self.line(indent, f"{', '.join(r for r, _ in pairs)} = {', '.join(o for _, o in pairs)}")
            elif len(self.lines) == start:
                self.line(indent, "pass")
            if owned_inputs:
                self._drop_result_temporaries(graph, result_names, indent)
        return outputs

    def _drop_result_temporaries(self, graph: Graph, result_names, indent: int) -> None:
        """After a while body's results are bound to its loop variables, delete the body's own names for them:
        else each value is held twice, and the next iteration's `del` of its loop variable frees nothing."""
        own = {id(t) for node in graph.nodes if node.op is not const_op for t in node.outputs}
        names = []
        for t in graph.outputs:
            name = self.vars.get(id(t))
            if id(t) in own and (t._shape != () or t.dtype.name == "variant") and name.isidentifier() \
                    and name not in result_names and name not in names:
                names.append(name)
        if names:
            self.line(indent, f"del {', '.join(names)}")

    def emit_node(self, node, indent: int) -> None:
        op = node.op
        if op is const_op:
            self._emit_const(node)
            return
        if op.emit is not None:
            op.emit(self, node, indent)
            return
        if self.plan is not None and emit_planned(self, node, indent):
            return
        render = op.render(node) if callable(op.render) else op.render
        expr = self.call(op, render, node.attrs, [self.var(t) for t in node.inputs])
        outs = [self.define(t) for t in node.outputs]
        self.line(indent, f"{', '.join(outs)} = {expr}" if outs else expr, node)

    def call(self, op, render, attrs: dict, args: list) -> str:
        """The expression applying `op` to the operand expressions `args`: its `render` template filled in,
        or else a call of its kernel."""
        if render is not None:
            used = {field for _, field, _, _ in string.Formatter().parse(render) if field and not field.isdigit()}
            return render.format(*args, **{k: self.attr(k, v) for k, v in attrs.items() if k in used})
        kernel = self.bind(op.kernel, f"{op.name}_kernel")
        return f"{kernel}({', '.join(args + [f'{k}={self.attr(k, v)}' for k, v in attrs.items()])})"

    def _emit_const(self, node) -> None:
        tensor = node.outputs[0]
        value = node.attrs["value"]
        if isinstance(value, np.generic):  # equal scalars share one name, across nested graphs too
            self.vars[id(tensor)] = self.constant(value)
        else:
            self.vars[id(tensor)] = self.bind(value, node.name, share=False)


def _deaths(graph: Graph, owned_inputs=()) -> dict:
    """id(node) -> the array values defined in `graph` (or among its `owned_inputs`) whose last use is that
    node. Scalars (rank 0) are left alone: they are small, and a `del` would cost more than it saves. Variant
    handles are rank 0 too but hold containers (a TensorArray, a gradient stack: every step's arrays of a
    recurrent loop), so they go. An owned input goes too: a while body's loop variable (an RNN's incoming
    gradient) would otherwise stay alive until the iteration's end, beside its successor and the flushes of
    the loop's accumulators (4 KiB of rnn_unroll's peak)."""
    last_use = {}
    for node in graph.nodes:
        for t in node.inputs:
            last_use[id(t)] = node
    keep = {id(t) for t in graph.outputs}
    dies: dict = {}
    for t in [*owned_inputs, *(t for node in graph.nodes if node.op is not const_op for t in node.outputs)]:
        user = last_use.get(id(t))
        if user is None or id(t) in keep or (t._shape == () and t.dtype.name != "variant") \
                or t.dtype.name == "resource":
            continue
        dies.setdefault(id(user), []).append(t)
    return dies


def _tensor_hint(tensor) -> str:
    node = tensor.node
    name = node.name
    return name if len(node.outputs) == 1 else f"{name}_{tensor.index}"


class CompiledGraph:
    """The generated code of one graph: the plain function (`fn`, `source`) and its parts, so that callers
    can build specialized entry points with the same body inlined (see `build_entry`)."""

    def __init__(self, fn, source, params, body, outputs, namespace, body_nodes):
        self.fn = fn
        self.source = source
        self.params = params  # parameter names, one per graph input
        self.body = body  # the function's lines at indent 1, without the return
        self.outputs = outputs  # expressions of the graph outputs
        self.namespace = namespace
        self.body_nodes = body_nodes  # index in body -> node, for error messages


def compile_graph(graph: Graph, name: str = None, arg_names=None) -> CompiledGraph:
    """Compile `graph` into a Python function taking its inputs positionally and returning a tuple of its
    outputs."""
    cg = CodeGen()
    cg.tune_elementwise = getattr(graph, "tune_elementwise", False)  # passes/fusion_tuning.py
    fn_name = cg.fresh(name or graph.name)
    params = [cg.define(t, hint) for t, hint in zip(graph.inputs, arg_names or [None] * len(graph.inputs))]
    cg.line(0, f"def {fn_name}({', '.join(params)}):")
    plan = plan_graph(graph) if getattr(graph, "plan_buffers", False) else None
    if plan:  # intermediates in arena buffers: a set taken per call, given back however the call ends
        cg.plan = plan
        cg.view_names = [cg.fresh(f"_buf{i}") for i in range(len(plan.view_specs))]
        arena = plan.arena()
        take, give = cg.bind(arena.take, "_arena_take"), cg.bind(arena.give, "_arena_give")
        cg.line(1, f"{''.join(n + ', ' for n in cg.view_names)}= _buffers = {take}()")
        cg.line(1, "try:")
        outputs = cg.emit_graph(graph, 2, params)
        cg.line(1, "finally:")
        cg.line(2, f"{give}(_buffers)")
    else:
        outputs = cg.emit_graph(graph, 1, params)
    body = cg.lines[1:]
    body_nodes = {line - 2: node for line, node in cg.line_nodes.items()}
    if len(outputs) == 1:
        cg.line(1, f"return ({outputs[0]},)")
    else:
        cg.line(1, f"return ({', '.join(outputs)})")
    preamble = _preamble(cg)
    offset = len(preamble)
    source = "\n".join(preamble + cg.lines) + "\n"
    namespace = dict(cg.namespace)
    _exec(source, f"{fn_name} #{next(_file_counter)}", cg.namespace,
          {line + offset: node for line, node in cg.line_nodes.items()}, fn_name)
    return CompiledGraph(cg.namespace[fn_name], source, params, body, outputs, namespace, body_nodes)


def _exec(source: str, label: str, namespace: dict, line_nodes: dict, defined: str) -> None:
    """Compile and run generated source, registered in linecache so tracebacks show its lines for as long
    as the function it defines (`defined`) lives; freeing that function removes the lines."""
    filename = f"<tinytf-graph {label}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace[LINE_MAP_GLOBAL] = line_nodes
    exec(compile(source, filename, "exec"), namespace)
    weakref.finalize(namespace[defined], linecache.cache.pop, filename, None)


def build_entry(compiled: CompiledGraph, name: str, params, prologue, epilogue, extra: dict, label: str):
    """A function `name(params)` that runs `prologue` lines (which must bind the graph's parameters, unless
    they are names of `extra`), then the graph body, then `epilogue` lines, which end with a `return` and use
    only the names in compiled.outputs and in the namespace. Exceptions raised by the body are passed to
    `_error(exception)` from `extra`, if given.

    The body and the epilogue run as `_np_body(graph parameters)` under tinytf's numpy error state (see
    _QUIET_NAMES); the prologue stays outside it, because its fallback may trace, which runs the user's
    Python. Wrapping the results inside `_np_body` spares packing the outputs into a tuple and unpacking it
    (callgrind, tiny_call: 5,451 -> 5,135 instructions a call)."""
    namespace = dict(compiled.namespace)
    namespace.update(_QUIET_NAMES)
    namespace.update(extra)
    if not compiled.body:  # no graph to run here (Session.run's entry that calls its plan): the lines alone
        source = "\n".join([f"def {name}({', '.join(params)}):", *("    " + line for line in (*prologue, *epilogue))])
        _exec(source + "\n", f"{label} #{next(_file_counter)}", namespace, {}, name)
        return namespace[name]
    handle = "_error" in extra
    body = [line[4:] for line in compiled.body]
    if handle:
        body = ["try:", *("    " + line for line in body), "except Exception as _exc:",
                "    raise _error(_exc) from _exc"]
    inner = [f"def _np_body({', '.join(compiled.params)}):", *("    " + line for line in (*body, *epilogue))]
    start = 2 + handle  # the body's first line: after _np_body's def and the `try:` of `handle`
    args = ", ".join(compiled.params)
    lines = [*inner, f"def {name}({', '.join(params)}):"]
    lines += ["    " + line for line in prologue]
    lines += ["    try:", f"        return _np_run(_np_body, {args})", "    except RuntimeError as _np_error:",
              "        if not _np_refused(_np_error):", "            raise",
              f"        return _np_call(_np_body, ({args}{',' if len(compiled.params) == 1 else ''}), {{}})"]
    source = "\n".join(lines) + "\n"
    _exec(source, f"{label} #{next(_file_counter)}", namespace,
          {start + index: node for index, node in compiled.body_nodes.items()}, name)
    return namespace[name]


def _preamble(cg: CodeGen) -> list:
    """Module-level lines that show what the function's free names are: scalar constants as real
    assignments, everything else as a comment."""
    lines = []
    for name, obj in cg.namespace.items():
        if name == "np":
            continue
        if isinstance(obj, np.generic) and obj.dtype.kind in "fiubc" and np.isfinite(obj):
            lines.append(f"{name} = np.{obj.dtype.name}({obj.item()!r})")
        elif isinstance(obj, np.ndarray) and obj.dtype.hasobject and not obj.ndim:
            lines.append(f"# {name}: string constant {obj.item()!r:.60}")
        elif isinstance(obj, np.ndarray):
            lines.append(f"# {name}: constant {obj.dtype}{list(obj.shape)}")
        elif isinstance(obj, DType):
            lines.append(f"# {name}: dtype {obj.name}")
        else:
            lines.append(f"# {name}: {getattr(obj, '__qualname__', type(obj).__name__)}")
    if lines:
        lines.append("")
    return lines


def node_at(frame, lineno: int):
    """The graph node of generated line `lineno` of `frame`'s code, or None (take the line from the
    traceback entry: while an exception is handled, the frame's own line is the handler's)."""
    mapping = frame.f_globals.get(LINE_MAP_GLOBAL)
    return None if mapping is None else mapping.get(lineno)


# --- compiled subgraphs: the kernels of cond and while_loop run their branch and body graphs as code -------------
_compiled_fns = weakref.WeakKeyDictionary()  # graph -> compile_graph(graph).fn (dies with the graph)


def compiled_fn(graph: Graph):
    """The compiled function of a subgraph, compiled on first use."""
    fn = _compiled_fns.get(graph)
    if fn is None:
        fn = _compiled_fns[graph] = compile_graph(graph).fn
    return fn


def forget_compiled(*graphs) -> None:
    """Drop the compiled functions of graphs that were just edited (a gradient added outputs to them)."""
    for graph in graphs:
        _compiled_fns.pop(graph, None)
