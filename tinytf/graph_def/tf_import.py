"""TensorFlow's graphs in tinytf: each TF NodeDef becomes the tinytf ops of tinytf/graph_def/op_names.py,
through the public op functions, so the result is an ordinary tinytf graph (or eager values, when nothing is
being traced). Used by tf.saved_model.load for SavedModels written by TensorFlow (FunctionDefs, whose
inputs read `arg` / `node:output_arg:index`) and by import_graph_def (GraphDefs: `node` / `node:index`).

Function calls (StatefulPartitionedCall) are inlined; StatelessIf/If become tf.cond and StatelessWhile/While
tf.while_loop over the replayed branch and body FunctionDefs. A TF op without a converter here raises a
ValueError naming it (and its node), never a guess."""

from __future__ import annotations

import numpy as np
from tensorboard.compat.proto import types_pb2

import tinytf as tf
from tinytf.runtime.ops import tensor_list as tl
from tinytf.runtime.ops import tensor_list_optional as tlo
from tinytf.runtime.resource import Resource

from ..saved_model.attr_codec import array_of_proto, dtype_of_enum, shape_of_proto
from . import op_names
from .tf1_import import Replay
from .tf_import_lookup import CONVERTERS as LOOKUP_CONVERTERS
from .tf_import_lookup import OUTPUT_ARGS as LOOKUP_OUTPUT_ARGS
from .tf_import_strings import CONVERTERS as STRING_CONVERTERS


class _Node:
    """What a converter sees of one NodeDef: its inputs (values), attributes, and the constants known for
    inputs computed from Const nodes (TF passes shapes, axes and slice bounds as tensors)."""

    def __init__(self, nodedef, inputs, constants, library):
        self.nodedef = nodedef
        self.inputs = inputs
        self.constants = constants
        self.library = library

    def attr(self, name, default=None):
        value = self.nodedef.attr.get(name)
        if value is None:
            return default
        field = value.WhichOneof("value")
        if field == "list":
            lst = value.list
            for kind in ("i", "f", "s", "b", "type", "shape"):
                items = list(getattr(lst, kind))
                if items:
                    if kind == "s":
                        return [x.decode() for x in items]
                    if kind == "type":
                        return [dtype_of_enum(x) for x in items]
                    if kind == "shape":
                        return [shape_of_proto(x) for x in items]
                    return items
            return []
        if field == "s":
            return value.s.decode()
        if field == "type":
            return dtype_of_enum(value.type)
        if field == "shape":
            return shape_of_proto(value.shape)
        if field == "tensor":
            return array_of_proto(value.tensor)
        if field == "func":
            return value.func.name
        return getattr(value, field) if field else default

    def const(self, index, what):
        """The value of input `index` when a Const computes it (shapes, axes, permutations)."""
        value = self.constants.get(index)
        if value is None:
            raise ValueError(f"{self.nodedef.op} (node {self.nodedef.name}): its {what} must be a constant of the "
                             "graph; tinytf does not import it when it is computed at run time")
        return value


def _bounds_length(n, first):
    """How many entries begin/end/strides have: from whichever of them is a Const or has a known length (a while
    gradient pops begin and end from accumulators of unknown shape; strides stays a Const)."""
    for index in (first, first + 1, first + 2):
        if index in n.constants:
            return len(n.constants[index])
        shape = n.inputs[index].shape
        if shape.rank == 1 and shape[0] is not None:
            return shape[0]
    raise ValueError(f"{n.nodedef.op} (node {n.nodedef.name}): the length of its bounds must be known")


def _components(n, index, length):
    """The entries of a begin/end/strides input: Python ints when a Const computes it, else scalar tensors
    (tinytf's slicing takes tensors too)."""
    if index in n.constants:
        return [int(v) for v in n.constants[index]]
    t = n.inputs[index]
    return [t[j] for j in range(length)]


def _strided_slice(n):
    return [n.inputs[0][_slice_key(n)]]


def _strided_slice_grad(n):
    """StridedSliceGrad(shape, begin, end, strides, dy): dy in zeros of `shape` where the slice took its values,
    taken as the gradient of that slice (so it runs tinytf's own strided_slice_grad op)."""
    dy = n.inputs[4]
    base = tf.zeros(n.constants[0].tolist() if 0 in n.constants else n.inputs[0], dy.dtype)
    with tf.GradientTape() as tape:
        tape.watch(base)
        sliced = base[_slice_key(n)]
    return [tape.gradient(sliced, base, output_gradients=dy)]


def _slice_key(n):
    length = _bounds_length(n, 1)
    begin, end, strides = (_components(n, i, length) for i in (1, 2, 3))
    masks = {k: int(n.attr(k, 0)) for k in ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask",
                                            "shrink_axis_mask")}
    key = []
    for i, (b, e, s) in enumerate(zip(begin, end, strides)):
        bit = 1 << i
        if masks["ellipsis_mask"] & bit:
            key.append(Ellipsis)
        elif masks["new_axis_mask"] & bit:
            key.append(None)
        elif masks["shrink_axis_mask"] & bit:
            key.append(b)
        else:
            key.append(slice(None if masks["begin_mask"] & bit else b, None if masks["end_mask"] & bit else e, s))
    return tuple(key)


def _reduce(fn):
    def convert(n):
        axis = n.const(1, "reduction axis")
        axis = int(axis) if np.ndim(axis) == 0 else [int(a) for a in axis]
        return [fn(n.inputs[0], axis=axis, keepdims=bool(n.attr("keep_dims", False)))]
    return convert


def _layout(n, name) -> bool:
    """True when the node runs NCHW (tinytf's kernels run NHWC: the converter transposes around them)."""
    layout = n.attr("data_format", "NHWC") or "NHWC"
    if layout not in ("NHWC", "NCHW"):
        raise ValueError(f"{name} (node {n.nodedef.name}): data_format {layout} is not imported")
    return layout == "NCHW"


def _hw(values, nchw):
    """The spatial entries of a 4-element strides / ksize / dilations attribute in either layout."""
    return values[2:4] if nchw else values[1:3]


def _to_nhwc(x):
    return tf.transpose(x, [0, 2, 3, 1])


def _to_nchw(x):
    return tf.transpose(x, [0, 3, 1, 2])


def _conv2d(n):
    nchw = _layout(n, "Conv2D")
    strides, dilations = n.attr("strides"), n.attr("dilations", [1, 1, 1, 1])
    x = _to_nhwc(n.inputs[0]) if nchw else n.inputs[0]
    y = tf.nn.conv2d(x, n.inputs[1], strides=_hw(strides, nchw), padding=n.attr("padding"),
                     dilations=_hw(dilations, nchw))
    return [_to_nchw(y) if nchw else y]


def _pool(fn, name):
    def convert(n):
        nchw = _layout(n, name)
        x = _to_nhwc(n.inputs[0]) if nchw else n.inputs[0]
        y = fn(x, ksize=_hw(n.attr("ksize"), nchw), strides=_hw(n.attr("strides"), nchw), padding=n.attr("padding"))
        return [_to_nchw(y) if nchw else y]
    return convert


def _variable_v2(n):
    """A TF1 reference variable: a tinytf variable of its shape and dtype, created holding zeros. In a TF1
    graph it is uninitialized in every session until the graph's own Assign runs (its initializer); it is not
    added to the importing graph's variable collection (TF's import_graph_def adds none either)."""
    from tinytf.compat.v1.graph import Graph as V1Graph
    from tinytf.compat.v1.graph_variable import without_variable_nodes
    from tinytf.runtime.context import state
    from tinytf.scopes import current_name_scope

    shape, dtype = n.attr("shape"), n.attr("dtype")
    if shape is None or None in shape:
        raise ValueError(f"VariableV2 (node {n.nodedef.name}): its shape must be fully known, got {shape}")
    graph = state.graph
    with tf.init_scope():
        initial = np.zeros(shape, dtype.np)
    with without_variable_nodes():  # the GraphDef has its own initializer and reads
        variable = tf.Variable(initial, dtype=dtype, name=n.nodedef.name)
    scope = current_name_scope()  # "<import prefix>/<node as identifier>/": the variable is "<prefix>/<node>"
    outer = scope[:-1].rpartition("/")[0]
    variable._name = f"{outer + '/' if outer else ''}{n.nodedef.name}:0"
    if isinstance(graph, V1Graph):
        graph.collections.get("variables", []).remove(variable)
    return [variable]


def _placeholder_with_default(n):
    """Feedable in a TF1 graph when its default is a constant of the GraphDef; else (or outside TF1 graphs) the
    default's value."""
    from tinytf.compat.v1.graph import Graph as V1Graph
    from tinytf.compat.v1.graph import placeholder_with_default
    from tinytf.runtime.context import state

    if isinstance(state.graph, V1Graph) and 0 in n.constants:
        return [placeholder_with_default(n.constants[0], n.attr("shape"), name=_identifier(n.nodedef.name))]
    return [tf.identity(n.inputs[0])]


def _var_handle(n):
    """A TF2 resource variable in a TF1 graph: created holding zeros, uninitialized in each session until the
    graph's AssignVariableOp (its initializer) runs; reads are the graph's ReadVariableOps."""
    return _variable_v2(n)


def _relu_grad(n):
    gradient, features = n.inputs
    return [tf.where(features > 0, gradient, tf.zeros_like(gradient))]


def _apply_gradient_descent(n):
    """ResourceApplyGradientDescent: var -= alpha * delta (TF1 optimizers' update ops)."""
    variable, alpha, delta = n.inputs
    variable.assign_sub(tf.cast(alpha, variable.dtype) * delta)
    return []


def _assign(how):
    def convert(n):
        variable, value = n.inputs
        if not isinstance(variable, Resource):
            raise ValueError(f"{n.nodedef.op} (node {n.nodedef.name}) assigns to {variable!r}, not a variable")
        getattr(variable, how)(value)
        return [variable]
    return convert


def _call(n):
    return n.library.replay(n.attr("f"), list(n.inputs))


def _if(n):
    pred, args = n.inputs[0], list(n.inputs[1:])
    if pred.dtype is not tf.bool:
        pred = tf.not_equal(pred, tf.zeros_like(pred))
    then_name, else_name = n.attr("then_branch"), n.attr("else_branch")
    result = tf.cond(pred, lambda: n.library.replay(then_name, args), lambda: n.library.replay(else_name, args))
    return list(result) if isinstance(result, (list, tuple)) else [result]


def _while(n):
    """TF's While threads every value the body uses through the loop, variables' handles included; here the
    handles stay outside (the body captures them) and only tensors are loop variables."""
    cond_name, body_name = n.attr("cond"), n.attr("body")
    inputs = list(n.inputs)
    carried = [i for i, x in enumerate(inputs) if not isinstance(x, Resource)]
    shapes = n.attr("output_shapes") or None
    invariants = None
    if shapes and len(shapes) == len(inputs):
        invariants = [tf.TensorShape(shapes[i]) for i in carried]

    def full(values):
        out = list(inputs)
        for i, v in zip(carried, values):
            out[i] = v
        return out

    def cond(*values):
        out = n.library.replay(cond_name, full(values))[0]
        return out if out.dtype is tf.bool else tf.not_equal(out, tf.zeros_like(out))

    def body(*values):
        out = n.library.replay(body_name, full(values))
        return [_with_shape(out[i], invariants[k]) if invariants else out[i] for k, i in enumerate(carried)]

    result = tf.while_loop(cond, body, [inputs[i] for i in carried], shape_invariants=invariants)
    result = list(result) if isinstance(result, (list, tuple)) else [result]
    return full(result)


def _with_shape(value, shape):
    """A body result whose shape TF knew (its output_shapes) where tinytf's inference did not: TF tracks a
    TensorList's element shape through the loop, tinytf knows the shape of a popped element only at run time."""
    if isinstance(value, Resource) or value.dtype is tl.VARIANT or shape.rank is None:
        return value
    if value.shape.rank is None or any(d is None for d in value.shape.as_list()):
        return tf.ensure_shape(value, shape)
    return value


def _add_n(n):
    if n.inputs[0].dtype is tl.VARIANT:  # gradients of TensorLists: their elementwise sum
        total = n.inputs[0]
        for other in n.inputs[1:]:
            total = tl.tensor_list_add(total, other)
        return [total]
    return [tf.math.add_n(list(n.inputs))]


def _variable_shape(n):
    handle = n.inputs[0]
    if not isinstance(handle, Resource):
        raise ValueError(f"VariableShape (node {n.nodedef.name}) reads {handle!r}, not a variable")
    return [tf.shape(handle.read_value(), out_type=n.attr("out_type", tf.int32))]


def _read_variable(n):
    handle = n.inputs[0]
    if not isinstance(handle, Resource):
        raise ValueError(f"ReadVariableOp (node {n.nodedef.name}) reads {handle!r}, not a variable")
    return [handle.read_value()]


def _assign_variable(n):
    n.inputs[0].assign(n.inputs[1])
    return []


def _binary(fn):
    return lambda n: [fn(n.inputs[0], n.inputs[1])]


def _unary(fn):
    return lambda n: [fn(n.inputs[0])]


def _dtype(n):
    if n.nodedef.attr["element_dtype"].type == types_pb2.DT_VARIANT:  # a list of optionals (or of lists)
        return tl.VARIANT
    return n.attr("element_dtype")


# TF 2's TensorList ops (TensorArrays, and the accumulators of while-loop gradients), one for one
_TENSOR_LIST = {
    "EmptyTensorList": lambda n: [tl.empty_tensor_list(n.inputs[0], _dtype(n), n.inputs[1])],
    "TensorListReserve": lambda n: [tl.tensor_list_reserve(n.inputs[0], n.inputs[1], _dtype(n))],
    "TensorListFromTensor": lambda n: [tl.tensor_list_from_tensor(n.inputs[0], n.inputs[1])],
    "TensorListPushBack": lambda n: [tl.tensor_list_push_back(n.inputs[0], n.inputs[1])],
    "TensorListPopBack": lambda n: list(tl.tensor_list_pop_back(n.inputs[0], n.inputs[1], _dtype(n))),
    "TensorListGetItem": lambda n: [tl.tensor_list_get_item(n.inputs[0], n.inputs[1], n.inputs[2], _dtype(n))],
    "TensorListSetItem": lambda n: [tl.tensor_list_set_item(
        n.inputs[0], n.inputs[1], n.inputs[2], bool(n.attr("resize_if_index_out_of_bounds", False)))],
    "TensorListStack": lambda n: [tl.tensor_list_stack(n.inputs[0], n.inputs[1], _dtype(n),
                                                       int(n.attr("num_elements", -1)))],
    "TensorListLength": lambda n: [tl.tensor_list_length(n.inputs[0])],
    "TensorListResize": lambda n: [tl.tensor_list_resize(n.inputs[0], n.inputs[1])],
    "TensorListScatterIntoExistingList": lambda n: [tl.tensor_list_scatter_into_existing(*n.inputs)],
    "TensorListGather": lambda n: [tl.tensor_list_gather(n.inputs[0], n.inputs[1], n.inputs[2], _dtype(n))],
    "TensorListConcatV2": lambda n: list(tl.tensor_list_concat(n.inputs[0], n.inputs[1], n.inputs[2], _dtype(n))),
    "TensorListSplit": lambda n: [tl.tensor_list_split(n.inputs[0], n.inputs[1], n.inputs[2])],
    # TF's optionals: a cond's values that a loop gradient needs, accumulated beside the lists
    "OptionalFromValue": lambda n: [tlo.optional_from_value(n.inputs)],
    "OptionalNone": lambda n: [tlo.optional_none()],
    "OptionalGetValue": lambda n: tlo.optional_get_value(n.inputs[0], n.attr("output_types"),
                                                          n.attr("output_shapes")),
    "OptionalHasValue": lambda n: [tlo.optional_has_value(n.inputs[0])],
    "TensorListElementShape": lambda n: [tl.tensor_list_element_shape(n.inputs[0], n.attr("shape_type"))],
}


def _table() -> dict:
    """TF op name -> converter (built on first use: tinytf's op functions are imported by then)."""
    return {
        "Identity": lambda n: [tf.identity(n.inputs[0])],
        "Snapshot": lambda n: [tf.identity(n.inputs[0])],
        "IdentityN": lambda n: [tf.identity(x) for x in n.inputs],
        "StopGradient": lambda n: [tf.stop_gradient(n.inputs[0])],
        "NoOp": lambda n: [],
        "Const": lambda n: [tf.constant(n.attr("value"), dtype=n.attr("dtype"))],
        "ReadVariableOp": _read_variable,
        "VarIsInitializedOp": lambda n: [tf.compat.v1.is_variable_initialized(n.inputs[0])],
        "VariableV2": _variable_v2, "VarHandleOp": _var_handle,
        "PlaceholderWithDefault": _placeholder_with_default,
        "ReluGrad": lambda n: _relu_grad(n),
        "ResourceApplyGradientDescent": _apply_gradient_descent,
        "Assign": _assign("assign"), "AssignAdd": _assign("assign_add"), "AssignSub": _assign("assign_sub"),
        "AssignVariableOp": _assign_variable,
        "AddV2": _binary(tf.math.add), "Add": _binary(tf.math.add), "Sub": _binary(tf.math.subtract),
        "Mul": _binary(tf.math.multiply), "RealDiv": _binary(tf.math.divide), "Div": _binary(tf.math.divide),
        "FloorDiv": _binary(tf.math.floordiv), "FloorMod": _binary(tf.math.floormod), "Pow": _binary(tf.math.pow),
        "Maximum": _binary(tf.math.maximum), "Minimum": _binary(tf.math.minimum),
        "SquaredDifference": _binary(tf.math.squared_difference),
        "Greater": _binary(tf.math.greater), "GreaterEqual": _binary(tf.math.greater_equal),
        "Less": _binary(tf.math.less), "LessEqual": _binary(tf.math.less_equal),
        "Equal": _binary(tf.math.equal), "NotEqual": _binary(tf.math.not_equal),
        "LogicalAnd": _binary(tf.math.logical_and), "LogicalOr": _binary(tf.math.logical_or),
        "LogicalNot": _unary(tf.math.logical_not),
        "Neg": _unary(tf.math.negative), "Abs": _unary(tf.math.abs), "Sign": _unary(tf.math.sign),
        "Square": _unary(tf.math.square), "Sqrt": _unary(tf.math.sqrt), "Rsqrt": _unary(tf.math.rsqrt),
        "Exp": _unary(tf.math.exp), "Expm1": _unary(tf.math.expm1), "Log": _unary(tf.math.log),
        "Log1p": _unary(tf.math.log1p), "Reciprocal": _unary(tf.math.reciprocal), "Floor": _unary(tf.math.floor),
        "Ceil": _unary(tf.math.ceil), "Round": _unary(tf.math.round), "Rint": _unary(tf.math.rint),
        "Sin": _unary(tf.math.sin), "Cos": _unary(tf.math.cos), "Tanh": _unary(tf.math.tanh),
        "Sigmoid": _unary(tf.math.sigmoid), "Erf": _unary(tf.math.erf), "Erfc": _unary(tf.math.erfc),
        "Relu": _unary(tf.nn.relu), "Relu6": _unary(tf.nn.relu6), "Elu": _unary(tf.nn.elu), "Selu": _unary(tf.nn.selu),
        "Softplus": _unary(tf.math.softplus), "Softmax": _unary(tf.nn.softmax), "LogSoftmax": _unary(tf.nn.log_softmax),
        "LeakyRelu": lambda n: [tf.nn.leaky_relu(n.inputs[0], alpha=n.attr("alpha", 0.2))],
        "AddN": _add_n,
        "ClipByValue": lambda n: [tf.clip_by_value(*n.inputs)],
        "MatMul": lambda n: [tf.matmul(n.inputs[0], n.inputs[1], transpose_a=bool(n.attr("transpose_a", False)),
                                       transpose_b=bool(n.attr("transpose_b", False)))],
        "BatchMatMulV2": lambda n: [tf.matmul(n.inputs[0], n.inputs[1], transpose_a=bool(n.attr("adj_x", False)),
                                              transpose_b=bool(n.attr("adj_y", False)))],
        "BiasAdd": lambda n: [tf.nn.bias_add(n.inputs[0], n.inputs[1], data_format=n.attr("data_format", "NHWC"))],
        "Conv2D": _conv2d,
        "MaxPool": _pool(tf.nn.max_pool2d, "MaxPool"),
        "AvgPool": _pool(tf.nn.avg_pool2d, "AvgPool"),
        "Reshape": lambda n: [tf.reshape(n.inputs[0], n.constants[1].tolist() if 1 in n.constants else n.inputs[1])],
        "Shape": lambda n: [tf.shape(n.inputs[0], out_type=n.attr("out_type", tf.int32))],
        "Size": lambda n: [tf.size(n.inputs[0], out_type=n.attr("out_type", tf.int32))],
        "Rank": lambda n: [tf.rank(n.inputs[0])],
        "Squeeze": lambda n: [tf.squeeze(n.inputs[0], axis=n.attr("squeeze_dims") or None)],
        "ExpandDims": lambda n: [tf.expand_dims(n.inputs[0], int(n.const(1, "axis")))],
        "Transpose": lambda n: [tf.transpose(n.inputs[0], perm=n.const(1, "permutation").tolist())],
        "ConcatV2": lambda n: [tf.concat(list(n.inputs[:-1]), axis=int(n.const(len(n.inputs) - 1, "axis")))],
        "Pack": lambda n: [tf.stack(list(n.inputs), axis=n.attr("axis", 0))],
        "Unpack": lambda n: list(tf.unstack(n.inputs[0], num=n.attr("num"), axis=n.attr("axis", 0))),
        "StridedSlice": _strided_slice, "StridedSliceGrad": _strided_slice_grad,
        "Fill": lambda n: [tf.fill(n.constants[0].tolist() if 0 in n.constants else n.inputs[0], n.inputs[1])],
        "BroadcastTo": lambda n: [tf.broadcast_to(n.inputs[0], n.constants[1].tolist() if 1 in n.constants
                                                  else n.inputs[1])],
        "Tile": lambda n: [tf.tile(n.inputs[0], n.constants[1].tolist() if 1 in n.constants else n.inputs[1])],
        "Pad": lambda n: [tf.pad(n.inputs[0], n.const(1, "paddings").tolist())],
        "GatherV2": lambda n: [tf.gather(n.inputs[0], n.inputs[1], axis=int(n.const(2, "axis")),
                                         batch_dims=n.attr("batch_dims", 0))],
        "Range": lambda n: [tf.range(n.inputs[0], n.inputs[1], n.inputs[2], dtype=n.attr("Tidx", tf.int32))],
        "Cast": lambda n: [tf.cast(n.inputs[0], n.attr("DstT"))],
        "Select": lambda n: [tf.where(*n.inputs)],
        "Where": lambda n: [tf.where(n.inputs[0])],  # one input: the true positions (int64 [k, rank])
        "SelectV2": lambda n: [tf.where(*n.inputs)],
        "ZerosLike": lambda n: [tl.tensor_list_zeros_like(n.inputs[0]) if n.inputs[0].dtype is tl.VARIANT
                                else tf.zeros_like(n.inputs[0])], "OnesLike": _unary(tf.ones_like),
        "Sum": _reduce(tf.math.reduce_sum), "Mean": _reduce(tf.math.reduce_mean), "Max": _reduce(tf.math.reduce_max),
        "Min": _reduce(tf.math.reduce_min), "Prod": _reduce(tf.math.reduce_prod), "All": _reduce(tf.math.reduce_all),
        "Any": _reduce(tf.math.reduce_any),
        "ArgMax": lambda n: [tf.math.argmax(n.inputs[0], axis=int(n.const(1, "axis")),
                                            output_type=n.attr("output_type", tf.int64))],
        "ArgMin": lambda n: [tf.math.argmin(n.inputs[0], axis=int(n.const(1, "axis")),
                                            output_type=n.attr("output_type", tf.int64))],
        "StatefulPartitionedCall": _call,
        "PartitionedCall": _call,
        "StatelessIf": _if, "If": _if,
        "StatelessWhile": _while, "While": _while,
        **_TENSOR_LIST,
        "TanhGrad": lambda n: [n.inputs[1] * (1 - n.inputs[0] * n.inputs[0])],  # (y, dy): TF's tanh gradient
        "VariableShape": _variable_shape,
        "UnsortedSegmentSum": lambda n: [tf.math.unsorted_segment_sum(*n.inputs)],
        "Slice": lambda n: [tf.slice(n.inputs[0], n.inputs[1], n.inputs[2])],
        **LOOKUP_CONVERTERS,
        **STRING_CONVERTERS,
    }


_CONVERTERS: dict = {}


def converters() -> dict:
    if not _CONVERTERS:
        _CONVERTERS.update(_table())
    return _CONVERTERS


def _unsupported(nodedef, where):
    known = op_names.tinytf_name(nodedef.op)
    hint = (f" (op_names maps it to tinytf's {known!r}, but no converter exists yet)" if known else "")
    return ValueError(f"tinytf cannot import the TensorFlow op {nodedef.op!r} (node {nodedef.name!r} of {where})"
                      f"{hint}; supported ops: {', '.join(sorted(converters()))}")


def convert_node(nodedef, inputs, constants, library, where) -> list:
    converter = converters().get(nodedef.op)
    if converter is None:
        raise _unsupported(nodedef, where)
    with tf.name_scope(nodedef.name.replace("/", "_")):
        return converter(_Node(nodedef, inputs, constants, library))


def _const_value(nodedef):
    return array_of_proto(nodedef.attr["value"].tensor) if nodedef.op == "Const" else None


def replay_tf_function(library, fdef, inputs) -> list:
    """Run a FunctionDef written by TensorFlow on `inputs` (tensors or variables); return its outputs."""
    env = {arg.name: value for arg, value in zip(fdef.signature.input_arg, inputs)}
    const_env = {}
    outputs = {}
    where = f"function {fdef.signature.name}"
    ops = {nd.name: nd.op for nd in fdef.node_def}
    for nd in _in_dependency_order(fdef.node_def):
        refs = [r for r in nd.input if not r.startswith("^")]
        values = [_function_ref(r, env, outputs, ops) for r in refs]
        constants = {i: const_env[r] for i, r in enumerate(refs) if r in const_env}
        result = convert_node(nd, values, constants, library, where)
        outputs[nd.name] = result
        value = _const_value(nd)
        if value is not None:
            const_env[f"{nd.name}:output:0"] = value
    return [_function_ref(fdef.ret[arg.name], env, outputs, ops) for arg in fdef.signature.output_arg]


def _in_dependency_order(nodes) -> list:
    """A FunctionDef's nodes, each after the nodes it reads (TF does not keep them in that order: a while
    gradient's body lists its accumulators' pops after their readers)."""
    by_name = {nd.name: nd for nd in nodes}
    done, order = set(), []
    for root in nodes:
        stack = [(root, False)]
        while stack:
            nd, expanded = stack.pop()
            if nd.name in done:
                continue
            if expanded:
                done.add(nd.name)
                order.append(nd)
                continue
            stack.append((nd, True))
            for ref in nd.input:
                dep = by_name.get(ref.lstrip("^").split(":")[0])
                if dep is not None and dep.name not in done:
                    stack.append((dep, False))
    return order


# Ops with several output arguments: a FunctionDef names an output `node:arg:i`, counted within its argument.
_OUTPUT_ARGS = {"TensorListPopBack": ("output_handle", "tensor"), "TensorListConcatV2": ("tensor", "lengths"),
                **LOOKUP_OUTPUT_ARGS}


def _function_ref(ref, env, outputs, ops=None):
    if ref in env:
        return env[ref]
    parts = ref.split(":")
    node = outputs[parts[0]]
    if len(parts) != 3:
        return node[0]
    args = _OUTPUT_ARGS.get((ops or {}).get(parts[0]))
    return node[(args.index(parts[1]) if args else 0) + int(parts[2])]


def import_graph_def(graph_def, input_map=None, return_elements=None, name=None, op_dict=None,
                     producer_op_list=None):
    """`tf.compat.v1.import_graph_def` / `tf.graph_util.import_graph_def`: add a TF GraphDef's nodes to the
    graph being built (a tf.compat.v1.Graph or a tf.function's), under the scope `name` ('import'). Returns
    the `return_elements` ('node:i' tensors, or 'node' operations: their first output) in order."""
    from tinytf.compat.v1.graph import Graph as V1Graph
    from tinytf.compat.v1.graph import placeholder
    from tinytf.runtime.context import state

    from ..saved_model.graph_io import Library

    if hasattr(graph_def, "SerializeToString") and type(graph_def).__name__ != "GraphDef":
        raise TypeError(f"import_graph_def: graph_def must be a GraphDef proto, got {type(graph_def).__name__}")
    prefix = "import" if name is None else name
    input_map = {k if ":" in k else f"{k}:0": v for k, v in (input_map or {}).items()}
    library = Library(graph_def.library.function)
    graph = state.graph

    def special(nd):
        """Placeholders: the input_map's value, or a placeholder of the TF1 graph fed at Session.run."""
        if nd.op in ("Placeholder", "PlaceholderWithDefault") and f"{nd.name}:0" in input_map:
            given = input_map[f"{nd.name}:0"]
            return [given if isinstance(given, Resource) else tf.convert_to_tensor(given)]  # variables stay
        if nd.op == "Placeholder":
            if not isinstance(graph, V1Graph):
                raise ValueError(f"import_graph_def: the placeholder {nd.name!r} needs a value: give it in input_map "
                                 "(or import into a tf.compat.v1.Graph, to feed it at Session.run)")
            return [placeholder(nd.attr["dtype"].type and dtype_of_enum(nd.attr["dtype"].type),
                                shape_of_proto(nd.attr["shape"].shape) if "shape" in nd.attr else None,
                                name=_identifier(nd.name))]  # its TF name is registered below
        return None

    replay = Replay(graph_def.node, lambda nd, inputs, constants: convert_node(nd, inputs, constants, library,
                                                                               "the GraphDef"), special,
                    lambda nd: nd.op in converters())
    env = {key: value for key, value in input_map.items()}
    for key in input_map:
        env[("done", key.split(":")[0])] = True
    wanted = [nd.name for nd in graph_def.node]
    if graph is None:  # eagerly only what the return elements need runs (TF runs what is fetched), nothing else
        known = set(wanted)
        wanted = []
        for element in return_elements or ():
            node_name = element.partition(":")[0]
            if node_name not in known:
                raise ValueError(f"Requested return_element {element!r} not found in graph_def.")
            wanted.append(node_name)
    with tf.name_scope(prefix):  # TF1 graphs name the imported ops import/<node>, as TF does
        for node_name in wanted:
            replay.ensure(node_name, env, None, ())
    outputs = {}
    for nd in graph_def.node:
        values, i = [], 0
        while f"{nd.name}:{i}" in env:
            values.append(env[f"{nd.name}:{i}"])
            i += 1
        outputs[nd.name] = values
        if isinstance(graph, V1Graph):  # TF's names for the imported tensors and ops: import/<node>:<i>
            full = f"{prefix + '/' if prefix else ''}{nd.name}"
            for i, t in enumerate(values):
                graph._by_name.setdefault(f"{full}:{i}", t)
            if nd.name in replay.missing:
                graph.unimported[full] = replay.missing[nd.name]
            made = replay.created.get(nd.name)
            if made:
                graph._ops_by_name.setdefault(full, made[-1])
    if return_elements is None:
        return None
    found = []
    for element in return_elements:
        node_name, _, index = element.partition(":")
        if node_name in replay.missing:
            raise ValueError(f"import_graph_def: return_element {element!r} has no value: {replay.missing[node_name]}")
        if node_name not in outputs:
            raise ValueError(f"Requested return_element {element!r} not found in graph_def.")
        result = outputs[node_name]
        found.append(result[int(index)] if index else (result[0] if result else None))
    return found


def _identifier(name: str) -> str:
    name = "".join(c if c.isalnum() or c == "_" else "_" for c in name)
    return name if name and not name[0].isdigit() else "_" + name


__all__ = ["import_graph_def", "replay_tf_function", "converters"]
