"""The GraphDef TensorBoard draws for `tf.summary.trace_export`: the same graph, named for reading rather
than for running. TensorBoard groups nodes by the `/`-separated prefixes of their names into boxes that
expand on a click, so the names carry the structure:

- a variable is one box named after the variable, holding its handle and every read and assignment of it
  (also those inside loop bodies);
- a constant sits inside the box of the op that uses it (`add/y`), never as a node of its own at the top;
- the ops of one line of the user's code that assigns a variable form a box named after that variable
  (`h = tf.tanh(x @ wx + h @ wh)` is the box `h` with matmul, add, tanh inside);
- a cond is a box named after its line and the variables of its test (`cond_L9_n`) holding `true_branch` and
  `false_branch` boxes; a loop is `while_L8_n_steps` (its line and loop variables) holding `loop_condition`
  and `loop_body`; they are drawn inline, not as separate library functions as TF's graphs have them;
- a block the optimizer fused is one box that expands into its steps.

Every node carries `_output_shapes` (TensorBoard labels edges with them) and `source`, the user's line. The
result is for looking at: loops and branches are drawn, not executed (graph.as_graph_def() is the GraphDef
that runs)."""

from __future__ import annotations

import ast
import os
import re

from tensorboard.compat.proto import graph_pb2, node_def_pb2, versions_pb2

from tinytf.runtime.graph import Graph

from . import protos as p
from .export import PRODUCER, unique_name
from .op_names import TO_TF
from .rules_more import TF_NAMES


def _tf_name(kind: str) -> str:
    """The TF op a tinytf op is drawn as (its own name when TF has none: the graph is for reading)."""
    return TO_TF.get(kind) or TF_NAMES.get(kind, kind)


def _clean(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.\-]", "_", text) or "_"


def _line_target(location):
    """The variable a line assigns (`y = ...`, `y += ...`), or None."""
    if location is None:
        return None
    try:
        tree = ast.parse(location.line.strip().rstrip(":") + ("\n" if location.line.strip().endswith(":") else ""))
    except SyntaxError:
        return None
    statement = tree.body[0] if tree.body else None
    if isinstance(statement, ast.Assign) and isinstance(statement.targets[0], ast.Name):
        return statement.targets[0].id
    if isinstance(statement, ast.AugAssign | ast.AnnAssign) and isinstance(statement.target, ast.Name):
        return statement.target.id
    return None


def _test_names(location) -> list:
    """The variables of an `if`/`while` line's test, in order of appearance."""
    if location is None:
        return []
    text = re.sub(r"^\s*(if|elif|while|for)\s+", "", location.line).rstrip().rstrip(":")
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError:
        return []
    calls = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    seen = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and id(node) not in calls and node.id not in seen and node.id != "tf":
            seen.append(node.id)
    return seen


def _source(location) -> str:
    if location is None:
        return ""
    return f"{os.path.basename(location.filename)}:{location.lineno}: {location.line}"


class _Display:
    def __init__(self):
        self.nodes: list = []
        self.by_name: dict = {}
        self.names: set = set()
        self.refs: dict = {}  # id(tinytf tensor) -> display ref
        self.variables: dict = {}  # id(variable or outer resource) -> box name
        self.resource_of: dict = {}  # id(resource placeholder) -> box name
        self.control_names: dict = {}  # id(tinytf node) -> display name, for control edges
        self.boxes: dict = {}  # id(cond or while node) -> its box
        self.line_boxes: dict = {}  # (file, line) -> the box of the cond or loop made on that line

    def unique(self, base: str) -> str:
        return unique_name(self.names, base)

    def add(self, base, op, inputs, outputs=(), location=None, attrs=None) -> str:
        name = self.unique(base)
        node = node_def_pb2.NodeDef(name=name, op=op, input=list(inputs))
        shapes = [t._shape for t in outputs]
        if shapes:
            node.attr["_output_shapes"].CopyFrom(p.attr_shapes(shapes))
        if outputs and outputs[0].dtype.name != "resource":
            try:
                node.attr["T"].CopyFrom(p.attr_type(outputs[0].dtype))
            except TypeError:
                pass
        if location is not None:
            node.attr["source"].CopyFrom(p.attr(_source(location)))
        for key, value in (attrs or {}).items():
            node.attr[key].CopyFrom(value)
        self.nodes.append(node)
        self.by_name[name] = node
        return name

    @staticmethod
    def ref(name, index, count):
        return name if count == 1 or index == 0 else f"{name}:{index}"

    # --- graphs ------------------------------------------------------------------------------------
    def top(self, graph: Graph):
        resources = {id(c.placeholder): c.outer for c in graph.captures.values() if c.kind == "resource"}
        for tensor in graph.inputs:
            variable = resources.get(id(tensor))
            if variable is not None:
                box = self.unique(_clean(getattr(variable, "name", tensor.node.name).split(":")[0]))
                self.add(f"{box}/handle", "VarHandleOp", [], [tensor],
                         attrs={"dtype": p.attr_type(variable.dtype)})
                self.resource_of[id(tensor)] = box
                self.refs[id(tensor)] = f"{box}/handle"
            else:
                self.refs[id(tensor)] = self.add(_clean(tensor.node.name), "Placeholder", [], [tensor])
        self.body(graph, "")
        if graph.outputs:
            self.add("return", "_Retval", [self.refs[id(t)] for t in graph.outputs])

    def body(self, graph: Graph, scope: str):
        nodes = [n for n in graph.nodes if n.op.name != "const"]
        by_line: dict = {}
        for node in nodes:
            if node.location is not None and node.op.name not in ("read_variable", "assign_variable"):
                by_line.setdefault((node.location.filename, node.location.lineno), []).append(node)
        for node in nodes:  # control-flow boxes first: the other ops of their line go inside them
            if node.op.name in ("cond", "while_loop"):
                box = self.unique(scope + self.short(node))
                self.boxes[id(node)] = box
                if node.location is not None:
                    self.line_boxes.setdefault((node.location.filename, node.location.lineno), box)
        pending_consts = {id(n): n for n in graph.nodes if n.op.name == "const"}
        for node in nodes:
            for t in node.inputs:  # a constant goes in the box of its first user, emitted just before it
                const = pending_consts.pop(id(t.node), None)
                if const is not None:
                    self.const(const, f"{scope}{self.base_of(node, scope, by_line)}")
            self.node(node, scope, by_line)
        for const in pending_consts.values():  # returned directly, or unused
            self.const(const, scope.rstrip("/") or "constants")

    def base_of(self, node, scope, by_line) -> str:
        """Where a node goes inside `scope`: its line's box when its line assigns a variable and made more
        than one op."""
        name = self.short(node)
        if node.location is not None and node.op.name not in ("cond", "while_loop"):
            box = self.line_boxes.get((node.location.filename, node.location.lineno))
            if box is not None and box.startswith(scope) and "/" not in box[len(scope):]:
                return f"{box[len(scope):]}/{name}"
        if node.location is not None:
            same = by_line.get((node.location.filename, node.location.lineno), [])
            target = _line_target(node.location)
            if target and len(same) > 1 and node.op.name not in ("cond", "while_loop"):
                return f"{_clean(target)}/{name}"
        return name

    def short(self, node) -> str:
        if node.op.name == "cond":
            names = _test_names(node.location)
            line = f"_L{node.location.lineno}" if node.location else ""
            return _clean(f"cond{line}" + "".join(f"_{n}" for n in names[:3]))
        if node.op.name == "while_loop":
            names = [n for n in (node.attrs.get("names") or ()) if n] or _test_names(node.location)
            line = f"_L{node.location.lineno}" if node.location else ""
            return _clean(f"while{line}" + "".join(f"_{n}" for n in names[:3]))
        return _clean(node.name)

    def const(self, node, owner: str):
        value = node.attrs["value"]
        text = repr(getattr(value, "tolist", lambda: value)())
        name = self.add(f"{owner}/{_clean(node.name)}", "Const", [], node.outputs,
                        attrs={"value_text": p.attr(text if len(text) <= 60 else text[:57] + "...")})
        self.refs[id(node.outputs[0])] = name

    def node(self, node, scope, by_line):
        kind = node.op.name
        control = [f"^{self.control_names[id(c)]}" for c in node.control_inputs if id(c) in self.control_names]
        if kind in ("read_variable", "assign_variable") and id(node.inputs[0]) in self.resource_of:
            box = self.resource_of[id(node.inputs[0])]
            suffix = "read" if kind == "read_variable" else "assign"
            name = self.add(f"{box}/{suffix}", TO_TF[kind], [self.refs[id(t)] for t in node.inputs] + control,
                            node.outputs, node.location)
        elif kind == "cond":
            name = self.cond(node, self.boxes[id(node)])
        elif kind == "while_loop":
            name = self.loop(node, self.boxes[id(node)])
        elif kind == "fused":
            name = self.fused(node, scope + self.base_of(node, scope, by_line))
        else:
            name = self.add(scope + self.base_of(node, scope, by_line), _tf_name(kind),
                            [self.refs[id(t)] for t in node.inputs] + control, node.outputs, node.location)
        self.control_names[id(node)] = name
        for i, tensor in enumerate(node.outputs):
            if id(tensor) not in self.refs:
                self.refs[id(tensor)] = self.ref(name, i, len(node.outputs))

    def bind(self, graph: Graph, outer_refs, outer_tensors=None):
        """A nested graph's placeholders stand for the values that enter it (variables stay their boxes)."""
        for i, (placeholder, ref) in enumerate(zip(graph.inputs, outer_refs)):
            self.refs[id(placeholder)] = ref
            if outer_tensors is not None and id(outer_tensors[i]) in self.resource_of:
                self.resource_of[id(placeholder)] = self.resource_of[id(outer_tensors[i])]

    def cond(self, node, box) -> str:
        outer = node.inputs[1:]
        refs = [self.refs[id(t)] for t in outer]
        results = []
        for key, label in (("true_graph", "true_branch"), ("false_graph", "false_branch")):
            graph = node.attrs[key]
            self.bind(graph, refs, outer)
            self.body(graph, f"{box}/{label}/")
            results += [self.refs[id(t)] for t in graph.outputs]
        name = self.add(f"{box}/merge", "Merge", [self.refs[id(node.inputs[0])]] + results, node.outputs,
                        node.location)
        for i, tensor in enumerate(node.outputs):
            self.refs[id(tensor)] = self.ref(name, i, len(node.outputs))
        return name

    def loop(self, node, box) -> str:
        n_vars, has_max = node.attrs["n_vars"], node.attrs["has_max"]
        values = list(node.inputs[:n_vars]) + list(node.inputs[n_vars + has_max:])
        entered = [t for t in values if id(t) not in self.resource_of]
        enter = self.add(f"{box}/enter", "Enter", [self.refs[id(t)] for t in entered], entered, node.location)
        refs, k = [], 0
        for t in values:
            if id(t) in self.resource_of:
                refs.append(self.refs[id(t)])
            else:
                refs.append(self.ref(enter, k, len(entered)))
                k += 1
        cond_graph, body_graph = node.attrs["cond_graph"], node.attrs["body_graph"]
        self.bind(cond_graph, refs, values)
        self.body(cond_graph, f"{box}/loop_condition/")
        self.bind(body_graph, refs, values)
        self.body(body_graph, f"{box}/loop_body/")
        inputs = [self.refs[id(cond_graph.outputs[0])]] + [self.refs[id(t)] for t in body_graph.outputs]
        if has_max:
            inputs.append(self.refs[id(node.inputs[n_vars])])
        name = self.add(f"{box}/exit", "Exit", inputs, node.outputs, node.location)
        for i, tensor in enumerate(node.outputs):
            self.refs[id(tensor)] = self.ref(name, i, len(node.outputs))
        return name

    def fused(self, node, box) -> str:
        box = self.unique(box)
        steps, step_names = node.attrs["steps"], []
        for step in steps:
            inputs = []
            for kind, i in step.args:
                if kind == "in":
                    inputs.append(self.refs[id(node.inputs[i])])
                elif kind == "step":
                    inputs.append(step_names[i])
                else:
                    inputs.append(self.add(f"{box}/{_clean(step.name)}/y", "Const", [],
                                           attrs={"value_text": p.attr(repr(i))}))
            step_names.append(self.add(f"{box}/{_clean(step.name)}", _tf_name(step.op.name),
                                       inputs, [_Spec(step.dtype, step.shape)], node.location))
        for tensor, j in zip(node.outputs, node.attrs["outputs"]):
            self.refs[id(tensor)] = step_names[j]
        return step_names[-1]


class _Spec:
    def __init__(self, dtype, shape):
        self.dtype, self._shape = dtype, shape


def display_graph_def(graph: Graph, names: dict = None) -> graph_pb2.GraphDef:
    """The GraphDef TensorBoard should draw for `graph` (see the module's docstring). `names`, when given,
    receives id(node) -> the name of the display node standing for each top-level node (for step stats)."""
    display = _Display()
    display.top(graph)
    if names is not None:
        names.update(display.control_names)
    return graph_pb2.GraphDef(node=display.nodes, versions=versions_pb2.VersionDef(producer=PRODUCER))


def top_level_nodes(graph_def) -> list:
    """The boxes and nodes TensorBoard shows before anything is expanded: the first component of each node
    name, and one entry per library function (TensorBoard draws those apart, in its function library)."""
    seen = []
    for node in graph_def.node:
        head = node.name.split("/")[0]
        if head not in seen:
            seen.append(head)
    return seen + [f"function:{f.signature.name}" for f in graph_def.library.function]
