"""tinytf graph -> TF's GraphDef, as TF 2.21 builds one for a tf.function or a TF1 graph: TF's op names, the
Python API's default node names (`Const`, `add`, `MatMul`, `cond`, `while`, `while/...` inside a loop), a
cond as If/StatelessIf and a loop as While/StatelessWhile whose branches and bodies are FunctionDefs in the
graph's library (with TF's loop counter and maximum-iterations loop variables), fused blocks back as their
steps, and each output behind an `Identity` node. Real TF imports and runs the result
(tests/test_graph_def_export.py checks its outputs against tinytf's)."""

from __future__ import annotations

import re

from tensorboard.compat.proto import function_pb2, graph_pb2, node_def_pb2, op_def_pb2, versions_pb2

from tinytf.runtime import dtypes
from tinytf.runtime.graph import Graph, is_stateful
from tinytf.runtime.ops.gradient_list import clear_op as gradient_list_clear_op
from tinytf.runtime.ops.gradient_list import gather_op as gradient_list_gather_op
from tinytf.runtime.ops.gradient_list import read_op as gradient_list_read_op
from tinytf.runtime.ops.gradient_stack import stack_new_op

from . import protos as p
from .rules import NodeView, rule_for
from .rules_lookup import OUTPUT_ARGS as _LOOKUP_OUTPUT_ARGS
from .rules_lookup import SEPARATE_OUTPUTS as _LOOKUP_SEPARATE_OUTPUTS
from .rules_tensor_list import empty_gradient_list_rule, list_clear_rule, stack_elements, stack_rule
from .rules_toplevel import OUTPUT_ARGS as _TOPLEVEL_OUTPUT_ARGS
from .rules_toplevel import SEPARATE_OUTPUTS as _TOPLEVEL_SEPARATE_OUTPUTS


def unique_name(taken: set, base: str) -> str:
    """`base`, or `base_1`, `base_2`, ... whichever is not in `taken` yet (TF's node-name rule); it is taken."""
    name, i = base, 1
    while name in taken:
        name = f"{base}_{i}"
        i += 1
    taken.add(name)
    return name

# The producer version TF 2.21 stamps on its graphs (GraphDef.versions.producer).
PRODUCER = 2129

# Names of the output arguments of TF's OpDefs: inside a FunctionDef a tensor is `node:output_arg:index`.
_Z = {"AddV2", "Sub", "Mul", "RealDiv", "FloorDiv", "FloorMod", "TruncateDiv", "TruncateMod", "Pow", "Maximum",
      "Minimum", "SquaredDifference", "DivNoNan", "Xlogy", "Xdivy", "Atan2", "Equal", "NotEqual", "Less",
      "LessEqual", "Greater", "GreaterEqual", "LogicalAnd", "LogicalOr"}
_Y = {"Neg", "Abs", "Sign", "Square", "Sqrt", "Rsqrt", "Exp", "Expm1", "Log", "Log1p", "Reciprocal", "Floor",
      "Ceil", "Round", "Rint", "Sin", "Cos", "Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh", "Tanh", "Erf",
      "IsNan", "IsInf", "IsFinite", "LogicalNot", "Sigmoid", "Cast", "Transpose"}
_Y |= {"Asinh", "Acosh", "Atanh", "Erfc", "Invert", "ZerosLike", "Cosh", "Sinh"}
_Z |= {"Add", "BitwiseAnd", "BitwiseOr", "BitwiseXor", "MulNoNan", "LeftShift", "RightShift", "Polygamma", "Zeta"}
_Y |= {"Lgamma", "Digamma", "Ndtri", "Erfinv"}
_ACTIVATIONS = {"Relu", "Relu6", "Softplus", "Softsign", "Elu", "Selu", "LeakyRelu"}
_OTHER = {"MatMul": "product", "Softmax": "softmax", "LogSoftmax": "logsoftmax", "ReadVariableOp": "value",
          "ReadFile": "contents", "BatchMatMulV2": "output", "Conv2D": "output", "Complex": "out",
          "Cumsum": "out", "Cumprod": "out", "InTopKV2": "precision", "MatrixDiagPartV3": "diagonal",
          "Where": "index", "TensorListReserve": "handle", "TensorListSetItem": "output_handle",
          "TensorListGetItem": "item", "TensorListStack": "tensor", "TensorListGather": "values",
          "TensorListFromTensor": "output_handle", "TensorListScatterIntoExistingList": "output_handle",
          "TensorListLength": "length", "PrintV2": "output", "StringFormat": "output",
          "AddN": "sum", "VarHandleOp": "resource", "Fingerprint": "fingerprint",
          "DynamicPartition": "outputs", "DynamicStitch": "merged", "BroadcastArgs": "r0", "Timestamp": "ts",
          "CumulativeLogsumexp": "out", "InvertPermutation": "y", "EmptyTensorList": "handle",
          "TensorListPushBack": "output_handle", "TensorListElementShape": "element_shape",
          "TensorListResize": "output_handle", "TensorListSplit": "output_handle", "OptionalFromValue": "optional",
          "OptionalNone": "optional", "OptionalGetValue": "components", "OptionalHasValue": "has_value"}

# Ops whose outputs are separate output arguments (each `name:0`), in order.
_SEPARATE = {"TopKV2": ("values", "indices"), "Unique": ("y", "idx"),
             "LogMatrixDeterminant": ("sign", "log_abs_determinant"),
             "SoftmaxCrossEntropyWithLogits": ("loss", "backprop"),
             "SparseSoftmaxCrossEntropyWithLogits": ("loss", "backprop"),
             "UniqueWithCounts": ("y", "idx", "count"), "StatelessRandomGetKeyCounter": ("key", "counter"),
             "BroadcastGradientArgs": ("r0", "r1"), "TensorListConcatV2": ("tensor", "lengths"),
             "TensorListPopBack": ("output_handle", "tensor")}
# tf.audio's WAV codec (rules_signal.py)
_SEPARATE["DecodeWav"] = ("audio", "sample_rate")
_OTHER["EncodeWav"] = "contents"
_SEPARATE["CTCGreedyDecoder"] = ("decoded_indices", "decoded_values", "decoded_shape", "log_probability")
# the top level's leftovers and fake quantization (rules_toplevel.py)
_OTHER.update(_TOPLEVEL_OUTPUT_ARGS)
# tf.lookup's table ops (rules_lookup.py)
_OTHER.update(_LOOKUP_OUTPUT_ARGS)
_SEPARATE.update(_LOOKUP_SEPARATE_OUTPUTS)
_SEPARATE.update(_TOPLEVEL_SEPARATE_OUTPUTS)


def output_ref(name: str, tf_op: str, index: int) -> str:
    """How a FunctionDef refers to output `index` of node `name` (`node:output_arg:i`)."""
    separate = _SEPARATE.get(tf_op)
    if separate is not None:
        return f"{name}:{separate[index]}:0"
    return f"{name}:{output_arg(tf_op)}:{index}"


def output_arg(tf_op: str) -> str:
    if tf_op in _Z:
        return "z"
    if tf_op in _Y:
        return "y"
    if tf_op in _ACTIVATIONS:
        return "activations"
    return _OTHER.get(tf_op, "output")


def _arg_name(text: str) -> str:
    """A FunctionDef argument name ([a-z][a-z0-9_]*, as TF's function library requires)."""
    text = re.sub(r"[^a-z0-9_]", "_", text.lower())
    return text if text[:1].isalpha() else f"arg_{text}"


class _Consts:
    """The `const` callback of rules: adds Const (and other helper) nodes named under the node's name."""

    def __init__(self, body, owner: str, helpers=None):
        self.body, self.owner, self.helpers = body, owner, helpers or {}

    def __call__(self, hint, array, dtype):
        return self.node(hint, "Const", [], {"value": p.attr_tensor(array, dtype), "dtype": p.attr_type(dtype)})

    def node(self, hint, tf_op, refs, attrs):
        # TF makes some helpers outside the op's scope, named when the op was built (a reduction's `Const`)
        name = self.body.add(self.helpers.get(hint) or f"{self.owner}/{hint}", tf_op, refs, attrs)
        return self.body.ref(name, tf_op, 0)


class Body:
    """The nodes of the top-level graph or of one FunctionDef, and how its tensors are referred to."""

    def __init__(self, exporter, in_function: bool, scope: str = ""):
        self.exporter = exporter
        self.in_function = in_function
        self.scope = scope
        self.nodes: list = []
        self.refs: dict = {}  # id(tinytf tensor) -> its ref in this body
        self.node_names: dict = {}  # id(tinytf node) -> the NodeDef name (for control inputs)

    def add(self, base, tf_op, refs, attrs, control=()) -> str:
        name = self.exporter.unique(base)
        node = node_def_pb2.NodeDef(name=name, op=tf_op, input=list(refs) + [f"^{c}" for c in control])
        for key, value in attrs.items():
            node.attr[key].CopyFrom(value)
        self.nodes.append(node)
        return name

    def ref(self, name: str, tf_op: str, index: int) -> str:
        if self.in_function:
            if tf_op in ("If", "StatelessIf", "While", "StatelessWhile"):
                return f"{name}:output:{index}"
            return output_ref(name, tf_op, index)
        return name if index == 0 else f"{name}:{index}"


class Exporter:
    """Walks one tinytf graph (and the graphs nested in it) into a GraphDef."""

    def __init__(self, variables_as_handles: bool = False, add_shapes: bool = False):
        self.add_shapes = add_shapes
        self.library = function_pb2.FunctionDefLibrary()
        self.names: set = set()
        self.counter = 0
        self.variables_as_handles = variables_as_handles  # TF1 graphs own their variables (VarHandleOp)

    def unique(self, base: str) -> str:
        return unique_name(self.names, base)

    def function_name(self, base: str) -> str:
        self.counter += 1
        return f"{re.sub(r'[^A-Za-z0-9_]', '_', base)}_{self.counter}"

    # --- the top-level graph ---------------------------------------------------------------------
    def graph_def(self, graph: Graph) -> graph_pb2.GraphDef:
        body = Body(self, in_function=False)
        resources = {id(c.placeholder): c.outer for c in graph.captures.values() if c.kind == "resource"}
        for tensor in graph.inputs:
            variable = resources.get(id(tensor))
            if variable is not None and hasattr(variable, "graph_def_node"):  # a queue: its own creating op
                op_type, attrs = variable.graph_def_node()
                name = body.add(tensor.node.name, op_type, [],
                                {key: _queue_attr(value) for key, value in attrs.items()})
            elif variable is not None and self.variables_as_handles:
                name = body.add(_variable_name(variable, tensor), "VarHandleOp", [], {
                    "dtype": p.attr_type(variable.dtype), "shape": p.attr_shape(tuple(variable.shape.as_list())),
                    "shared_name": p.attr(_variable_name(variable, tensor)), "container": p.attr("")})
            else:
                # a TF1 placeholder keeps its scoped TF name (`sp/values`), which feeds and signatures use
                name = body.add(getattr(tensor.node, "tf_name", None) or tensor.node.name, "Placeholder", [], {
                    "dtype": p.attr_type(tensor.dtype), "shape": p.attr_shape(tensor._shape)})
            body.refs[id(tensor)] = name
            self.note_shapes(body, [tensor._shape])
        self.emit_nodes(body, graph)
        # As in TF's function graphs, each output passes an Identity, and when the function has side effects the
        # Identities wait for a NoOp that waits for every stateful op (a Session fetching them runs those).
        identities = [body.add("Identity", "Identity", [body.refs[id(tensor)]], {"T": p.attr_type(tensor.dtype)})
                      for tensor in graph.outputs]
        stateful = sorted(body.node_names[id(n)] for n in graph.nodes if is_stateful(n) and id(n) in body.node_names)
        if identities and stateful and not self.variables_as_handles:
            noop = body.add("NoOp", "NoOp", [], {}, stateful)
            for node in body.nodes:
                if node.name in identities:
                    node.input.append(f"^{noop}")
        out = graph_pb2.GraphDef(node=body.nodes, versions=versions_pb2.VersionDef(producer=PRODUCER))
        out.library.CopyFrom(self.library)
        return out

    # --- nodes -----------------------------------------------------------------------------------
    def emit_nodes(self, body: Body, graph: Graph):
        for node in graph.nodes:
            self.emit(body, node)

    @staticmethod
    def _base(node) -> str:
        """TF's name of the node, given when it was built (runtime/naming.py); a node a pass made keeps
        tinytf's name, except that a loop is TF's `while` (while_loop_2 -> while_2)."""
        if node.tf_name is not None:
            return node.tf_name
        if node.op.name == "while_loop" and node.name.startswith("while_loop"):
            return "while" + node.name[len("while_loop"):]
        return node.name

    def emit(self, body: Body, node):
        control = [body.node_names[id(c)] for c in node.control_inputs if id(c) in body.node_names]
        base = body.scope + self._base(node)
        kind = node.op.name
        if kind == "cond":
            name, tf_op = self.emit_cond(body, node, base, control)
        elif kind == "while_loop":
            name, tf_op = self.emit_while(body, node, base, control)
            for i, tensor in enumerate(node.outputs):  # TF's loop counter and limit come first
                body.refs[id(tensor)] = body.ref(name, tf_op, i + 2)
            body.node_names[id(node)] = name
            self.note_shapes(body, [(), ()] + [t._shape for t in node.outputs])
            return
        elif kind == "fused":
            self.emit_fused(body, node, control)
            return
        elif kind == "const" and node.attrs["dtype"].name == "variant":  # an empty TensorArray gradient
            name, tf_op = self.unique(base), "EmptyTensorList"
            refs, attrs = empty_gradient_list_rule(node, _Consts(body, name))
            body.nodes.append(_node_def(name, tf_op, refs, attrs, control))
        elif kind == "const":
            dtype = node.attrs["dtype"]
            name, tf_op = body.add(base, "Const", [], {"value": p.attr_tensor(node.attrs["value"], dtype),
                                                      "dtype": p.attr_type(dtype)}, control), "Const"
        else:
            view = NodeView(kind, node.inputs, [body.refs[id(t)] for t in node.inputs], node.outputs, node.attrs)
            name = self.unique(base)
            helpers = {hint: body.scope + tf_name for hint, tf_name in (node.tf_helpers or {}).items()}
            if node.op is stack_new_op:  # rules that need more than their node: the pushes' element
                element = stack_elements(node.graph).get(id(node))  # the loop it feeds is in the same graph
                tf_op, refs, attrs = stack_rule(element, _Consts(body, name, helpers))
            elif node.op is gradient_list_clear_op:  # ... and the read of the same element, for its zeros
                read = _read_of_same_element(body, node)
                tf_op, refs, attrs = list_clear_rule(view, _Consts(body, name, helpers), read)
            else:
                tf_op, refs, attrs = rule_for(view, _Consts(body, name, helpers))
            body.nodes.append(_node_def(name, tf_op, refs, attrs, control))
        body.node_names[id(node)] = name
        self.note_shapes(body, [t._shape for t in node.outputs])
        for i, tensor in enumerate(node.outputs):
            body.refs[id(tensor)] = body.ref(name, tf_op, i)
        if kind == "cond" and not getattr(node.graph, "identity_outputs", False):
            # as TF's cond_v2, each result passes an Identity (`cond/Identity`, `cond/Identity_1`); a TF1
            # graph has them as nodes of its own
            for tensor in node.outputs:
                identity = body.add(f"{name}/Identity", "Identity", [body.refs[id(tensor)]],
                                    {"T": p.attr_type(tensor.dtype)})
                self.note_shapes(body, [tensor._shape])
                body.refs[id(tensor)] = body.ref(identity, "Identity", 0)

    def note_shapes(self, body: Body, shapes):
        """as_graph_def(add_shapes=True): the `_output_shapes` attr of the node just written."""
        if self.add_shapes and shapes:
            body.nodes[-1].attr["_output_shapes"].CopyFrom(p.attr_shapes(shapes))

    def emit_fused(self, body: Body, node, control):
        """A fused block exported as its steps (TF has no fused elementwise op), named under the block's name
        (`relu/add`, `relu/relu`), so that TensorBoard draws the block as one node that expands into them."""
        steps = node.attrs["steps"]
        step_refs, step_outs = [], []
        for step in steps:
            refs, values = [], []
            for kind, i in step.args:
                if kind == "in":
                    refs.append(body.refs[id(node.inputs[i])]), values.append(node.inputs[i])
                elif kind == "step":
                    refs.append(step_refs[i]), values.append(step_outs[i])
                else:
                    lit = _Literal(i)
                    owner = f"{body.scope}{node.name}/{step.name}"
                    refs.append(_Consts(body, owner)("y", lit.value, lit.dtype)), values.append(lit)
            out = _Literal.spec(step.dtype, step.shape)
            name = self.unique(f"{body.scope}{node.name}/{step.name}")
            tf_op, refs, attrs = rule_for(NodeView(step.op.name, values, refs, [out], step.attrs), _Consts(body, name))
            body.nodes.append(_node_def(name, tf_op, refs, attrs, control))
            self.note_shapes(body, [step.shape])
            control = []
            step_refs.append(body.ref(name, tf_op, 0)), step_outs.append(out)
            body.node_names[id(node)] = name
        for tensor, j in zip(node.outputs, node.attrs["outputs"]):
            body.refs[id(tensor)] = step_refs[j]

    # --- control flow ----------------------------------------------------------------------------
    def emit_cond(self, body: Body, node, base, control):
        name = self.unique(base)
        inner = name + "/"
        true_fn = self.write_function(node.attrs["true_graph"], self.function_name(f"{name}_true"), inner)
        false_fn = self.write_function(node.attrs["false_graph"], self.function_name(f"{name}_false"), inner)
        tf_op = "If" if is_stateful(node) else "StatelessIf"
        attrs = {"Tcond": p.attr_type(dtypes.bool_), "Tin": p.attr_types([t.dtype for t in node.inputs[1:]]),
                 "Tout": p.attr_types([t.dtype for t in node.outputs]), "then_branch": p.attr_func(true_fn),
                 "else_branch": p.attr_func(false_fn), "output_shapes": p.attr_shapes([t._shape for t in node.outputs])}
        body.nodes.append(_node_def(name, tf_op, [body.refs[id(t)] for t in node.inputs], attrs, control))
        return name, tf_op

    def emit_while(self, body: Body, node, base, control):
        """TF's while_v2 layout: (loop_counter, maximum_iterations, loop vars..., captured values...), the
        condition also checks the counter against the limit (-1: none), the body counts and passes the limit
        and the captured values through."""
        name = self.unique(base)
        n_vars, has_max = node.attrs["n_vars"], node.attrs["has_max"]
        loop_vars, extra = node.inputs[:n_vars], node.inputs[n_vars + has_max:]
        consts = _Consts(body, name)
        # TF's order: the limit (a constant -1 when there is none), then the counter
        limit = body.refs[id(node.inputs[n_vars])] if has_max else consts("maximum_iterations", -1, dtypes.int32)
        counter = consts("loop_counter", 0, dtypes.int32)
        values = list(loop_vars) + list(extra)
        types = [dtypes.int32, dtypes.int32] + [t.dtype for t in values]
        shapes = [(), ()] + [t._shape for t in values]
        inner = name + "/"
        cond_fn = self.write_function(node.attrs["cond_graph"], self.function_name(f"{name}_cond"), inner,
                                      lead=("loop_counter", "maximum_iterations"), finish=_finish_cond(has_max))
        body_fn = self.write_function(node.attrs["body_graph"], self.function_name(f"{name}_body"), inner,
                                      lead=("loop_counter", "maximum_iterations"), finish=_finish_body(len(extra)))
        tf_op = "While" if is_stateful(node) else "StatelessWhile"
        attrs = {"T": p.attr_types(types), "cond": p.attr_func(cond_fn), "body": p.attr_func(body_fn),
                 "output_shapes": p.attr_shapes(shapes), "parallel_iterations": p.attr(10)}
        refs = [counter, limit] + [body.refs[id(t)] for t in values]
        body.nodes.append(_node_def(name, tf_op, refs, attrs, control))
        return name, tf_op

    def write_function(self, graph: Graph, fname: str, scope: str, lead=(), finish=None, arg_texts=None) -> str:
        """Add `graph` to the library as a FunctionDef named `fname`; `lead` names int32 arguments before the
        graph's own (TF's loop counter and limit), `finish(body, lead_refs, arg_refs, outputs)` may replace
        the returned (ref, dtype, shape) list; `arg_texts` names the graph's inputs (default: their
        placeholders' names)."""
        outer_names, self.names = self.names, set()  # a FunctionDef's node names are its own, as in TF
        try:
            return self._write_function(graph, fname, scope, lead, finish, arg_texts)
        finally:
            self.names = outer_names

    def _write_function(self, graph, fname, scope, lead, finish, arg_texts) -> str:
        body = Body(self, in_function=True, scope=scope)
        function = function_pb2.FunctionDef(signature=op_def_pb2.OpDef(name=fname))
        signature = function.signature  # the message inside `function` (a constructor argument is copied)
        used = set()

        def argument(text, dtype):
            name, i = _arg_name(text), 1
            while name in used:
                name, i = f"{_arg_name(text)}_{i}", i + 1
            used.add(name)
            signature.input_arg.add(name=name, type=p.type_enum(dtype))
            return name

        lead_refs = [argument(text, dtypes.int32) for text in lead]
        arg_refs = []
        for i, tensor in enumerate(graph.inputs):
            text = arg_texts[i] if arg_texts is not None else tensor.node.name
            body.refs[id(tensor)] = argument(text, tensor.dtype)
            arg_refs.append(body.refs[id(tensor)])
        self.emit_nodes(body, graph)
        outputs = [(body.refs[id(t)], t.dtype, t._shape) for t in graph.outputs]
        if finish is not None:
            outputs = finish(body, lead_refs, list(zip(arg_refs, graph.inputs)), outputs)
        for i, (ref, dtype, _) in enumerate(outputs):
            out_name = "identity" if i == 0 else f"identity_{i}"
            identity = body.add(f"{scope}Identity", "Identity", [ref], {"T": p.attr_type(dtype)})
            signature.output_arg.add(name=out_name, type=p.type_enum(dtype))
            function.ret[out_name] = f"{identity}:output:0"
        stateful = [n for n in graph.nodes if is_stateful(n) and id(n) in body.node_names]
        for node in stateful:
            name = body.node_names[id(node)]
            signature.control_output.append(name)
            function.control_ret[name] = name
        signature.is_stateful = bool(stateful)
        function.node_def.extend(body.nodes)
        self.library.function.append(function)
        return fname


def _read_of_same_element(body, clear):
    """The NodeView of the gradient_list_read of the list and index a gradient_list_clear clears (a TensorArray
    write's gradient reads the element, then clears it), with its inputs' refs in `body`; None if there is none."""
    for node in clear.graph.nodes:
        if node.op in (gradient_list_read_op, gradient_list_gather_op) and node.inputs[0] is clear.inputs[0] \
                and node.inputs[1] is clear.inputs[1]:
            if all(id(t) in body.refs for t in node.inputs):
                return NodeView(node.op.name, node.inputs, [body.refs[id(t)] for t in node.inputs], node.outputs,
                                node.attrs)
    return None


class _Literal:
    """A scalar literal of a fused step, standing in for a tensor value."""

    def __init__(self, value):
        import numpy as np

        self.value = np.asarray(value)
        self.dtype = dtypes.of_numpy(self.value)
        self._shape = ()

    @staticmethod
    def spec(dtype, shape):
        out = _Literal.__new__(_Literal)
        out.dtype, out._shape = dtype, shape
        return out


def _node_def(name, tf_op, refs, attrs, control=()):
    node = node_def_pb2.NodeDef(name=name, op=tf_op, input=list(refs) + [f"^{c}" for c in control])
    for key, value in attrs.items():
        node.attr[key].CopyFrom(value)
    return node


def _finish_cond(has_max):
    def finish(body, lead, args, outputs):
        (test, _, _), = outputs
        if has_max:
            tf_op = "Less"
            name = body.add(f"{body.scope}Less", tf_op, lead, {"T": p.attr_type(dtypes.int32)})
            within = body.ref(name, tf_op, 0)
            name = body.add(f"{body.scope}LogicalAnd", "LogicalAnd", [within, test], {})
            test = body.ref(name, "LogicalAnd", 0)
        return [(test, dtypes.bool_, ())]
    return finish


def _finish_body(n_extra):
    def finish(body, lead, args, outputs):
        one = _Consts(body, f"{body.scope}add")("y", 1, dtypes.int32)
        name = body.add(f"{body.scope}add", "AddV2", [lead[0], one], {"T": p.attr_type(dtypes.int32)})
        counted = [(body.ref(name, "AddV2", 0), dtypes.int32, ()), (lead[1], dtypes.int32, ())]
        passed = [(ref, t.dtype, t._shape) for ref, t in args[len(args) - n_extra:]] if n_extra else []
        return counted + outputs + passed
    return finish


def _variable_name(variable, tensor) -> str:
    name = getattr(variable, "name", None) or tensor.node.name
    return name[:-2] if name.endswith(":0") else name


def as_graph_def(graph: Graph, variables_as_handles: bool = False, add_shapes: bool = False) -> graph_pb2.GraphDef:
    """TF's GraphDef of a tinytf graph (a ConcreteFunction's graph or a tf.compat.v1.Graph)."""
    return Exporter(variables_as_handles, add_shapes).graph_def(graph)


def _queue_attr(value):
    """An attribute of a queue's creating op (FIFOQueueV2 ...): dtypes, shapes or a plain value."""
    if isinstance(value, list) and value and isinstance(value[0], dtypes.DType):
        return p.attr_types(value)
    if isinstance(value, list) and all(isinstance(v, (tuple, type(None))) for v in value):
        return p.attr_shapes(value)
    return p.attr(value)
