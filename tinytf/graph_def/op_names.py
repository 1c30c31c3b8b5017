"""The one table between tinytf's op names and TensorFlow's (the `op` field of a NodeDef).

Both directions read it: exporting a tinytf graph as a TF GraphDef (tinytf name -> TF name) and importing a
GraphDef or SavedModel written by TensorFlow (TF name -> tinytf). An entry is
`OpName(tinytf, tf, notes)`; `notes` says how the attributes and inputs differ, for whoever writes the
converter of that op. Several TF ops may land on one tinytf op (Add and AddV2; StatelessIf and If), and a
tinytf op may have no TF counterpart (then it is absent here, and an export names it as unsupported).

The importer's per-op converters live in tinytf/graph_def/tf_ops.py; an op listed here without a converter
there is reported as unsupported by name, never guessed."""

from __future__ import annotations

from typing import NamedTuple


class OpName(NamedTuple):
    tinytf: str
    tf: str
    notes: str = ""


SAME = "same inputs and attributes"

TABLE = (
    # graph plumbing
    OpName("placeholder", "Placeholder", "attrs dtype (type) and shape (shape; -1 = unknown dim)"),
    OpName("const", "Const", "attrs value (TensorProto) and dtype"),
    OpName("identity", "Identity", SAME),
    OpName("identity", "IdentityN", "n inputs -> the same n outputs"),
    OpName("identity", "Snapshot", SAME),
    OpName("stop_gradient", "StopGradient", SAME),
    OpName("no_op", "NoOp", "only control inputs"),
    OpName("read_variable", "ReadVariableOp", "input: a resource handle; tinytf attrs dtype and shape come from "
           "the variable (TF: attr dtype)"),
    OpName("var_is_initialized", "VarIsInitializedOp", "input: a resource handle; True once the session has "
           "given the variable a value"),
    OpName("assign_variable", "AssignVariableOp", "inputs (resource, value); TF attr dtype"),
    OpName("placeholder", "VarHandleOp", "a variable: tinytf captures the Variable as a resource placeholder; TF "
           "attrs shared_name, dtype, shape"),
    # elementwise math
    OpName("add", "AddV2", SAME),
    OpName("add", "Add", SAME),
    OpName("subtract", "Sub", SAME),
    OpName("multiply", "Mul", SAME),
    OpName("divide", "RealDiv", SAME),
    OpName("divide", "Div", "floats; integer Div truncates in TF"),
    OpName("floordiv", "FloorDiv", SAME),
    OpName("floormod", "FloorMod", SAME),
    OpName("truncatediv", "TruncateDiv", SAME),
    OpName("truncatemod", "TruncateMod", SAME),
    OpName("pow", "Pow", SAME),
    OpName("maximum", "Maximum", SAME),
    OpName("minimum", "Minimum", SAME),
    OpName("squared_difference", "SquaredDifference", SAME),
    OpName("negative", "Neg", SAME),
    OpName("abs", "Abs", SAME),
    OpName("sign", "Sign", SAME),
    OpName("square", "Square", SAME),
    OpName("sqrt", "Sqrt", SAME),
    OpName("rsqrt", "Rsqrt", SAME),
    OpName("exp", "Exp", SAME),
    OpName("expm1", "Expm1", SAME),
    OpName("log", "Log", SAME),
    OpName("log1p", "Log1p", SAME),
    OpName("reciprocal", "Reciprocal", SAME),
    OpName("floor", "Floor", SAME),
    OpName("ceil", "Ceil", SAME),
    OpName("round", "Round", "banker's rounding in both"),
    OpName("rint", "Rint", SAME),
    OpName("sin", "Sin", SAME),
    OpName("cos", "Cos", SAME),
    OpName("tan", "Tan", SAME),
    OpName("tanh", "Tanh", SAME),
    OpName("sigmoid", "Sigmoid", SAME),
    OpName("erf", "Erf", SAME),
    OpName("erfc", "Erfc", SAME),
    OpName("cast", "Cast", "TF attrs SrcT, DstT (-> tinytf dtype = DstT), Truncate"),
    OpName("equal", "Equal", "TF attr incompatible_shape_error"),
    OpName("not_equal", "NotEqual", "TF attr incompatible_shape_error"),
    OpName("greater", "Greater", SAME),
    OpName("greater_equal", "GreaterEqual", SAME),
    OpName("less", "Less", SAME),
    OpName("less_equal", "LessEqual", SAME),
    OpName("logical_and", "LogicalAnd", SAME),
    OpName("logical_or", "LogicalOr", SAME),
    OpName("logical_not", "LogicalNot", SAME),
    OpName("select", "SelectV2", "(condition, x, y), broadcasting"),
    OpName("select", "Select", "(condition, x, y); a vector condition selects rows"),
    OpName("add_n", "AddN", SAME),
    OpName("clip_by_value", "ClipByValue", SAME),
    # matrices and nn
    OpName("matmul", "MatMul", "TF attrs transpose_a, transpose_b (same names)"),
    OpName("matmul", "BatchMatMulV2", "TF attrs adj_x, adj_y -> transpose_a, transpose_b (real dtypes)"),
    OpName("bias_add", "BiasAdd", "TF attr data_format 'NHWC'/'NCHW' -> tinytf channels_first"),
    OpName("relu", "Relu", SAME),
    OpName("relu6", "Relu6", SAME),
    OpName("elu", "Elu", SAME),
    OpName("selu", "Selu", SAME),
    OpName("leaky_relu", "LeakyRelu", "attr alpha (same name)"),
    OpName("softplus", "Softplus", SAME),
    OpName("softsign", "Softsign", SAME),
    OpName("softmax", "Softmax", "TF: over the last axis; tinytf attr axis=-1"),
    OpName("log_softmax", "LogSoftmax", "TF: over the last axis; tinytf attr axis=-1"),
    OpName("conv2d", "Conv2D", "TF attrs strides/dilations are 4-lists in data_format order (NHWC only here), "
           "padding b'SAME'/b'VALID' -> tinytf strides, dilations (2-tuples) and padding 'SAME'/'VALID'"),
    OpName("max_pool2d", "MaxPool", "TF attrs ksize/strides 4-lists (NHWC), padding -> tinytf 2-tuples"),
    OpName("avg_pool2d", "AvgPool", "as MaxPool"),
    # shapes and arrays
    OpName("reshape", "Reshape", "TF: shape is an input tensor (a Const -> tinytf attr shape; else reshape_dynamic)"),
    OpName("reshape_dynamic", "Reshape", "the shape input computed at run time"),
    OpName("shape", "Shape", "TF attr out_type (same meaning)"),
    OpName("size", "Size", "TF attr out_type"),
    OpName("rank", "Rank", SAME),
    OpName("squeeze", "Squeeze", "TF attr squeeze_dims -> tinytf axis (None when empty)"),
    OpName("expand_dims", "ExpandDims", "TF: axis is an input tensor (Const) -> tinytf attr axis"),
    OpName("transpose", "Transpose", "TF: perm is an input tensor (Const) -> tinytf attr perm"),
    OpName("concat", "ConcatV2", "TF: the last input is the axis (Const) -> tinytf attr axis"),
    OpName("stack", "Pack", "TF attrs N, axis"),
    OpName("unstack", "Unpack", "TF attrs num, axis"),
    OpName("strided_slice", "StridedSlice", "TF: begin/end/strides inputs and five masks; tinytf: one `spec` "
           "attr (the Python slice key); the importer rebuilds the key from constant begin/end/strides"),
    OpName("fill", "Fill", "TF: dims input (Const) -> tinytf attr shape; else fill_dynamic"),
    OpName("tile", "Tile", "TF: multiples input (Const) -> tinytf attr multiples"),
    OpName("pad", "Pad", "TF: paddings input (Const) -> tinytf attr paddings; PadV2 carries the constant"),
    OpName("gather", "GatherV2", "TF: axis input (Const) and attr batch_dims"),
    OpName("range", "Range", "(start, limit, delta) inputs, TF attr Tidx -> tinytf dtype"),
    OpName("one_hot", "OneHot", "TF: depth input (Const) -> tinytf attr depth, attr axis"),
    OpName("where", "Where", "one input: the coordinates of true elements"),
    OpName("split", "SplitV", "TF: size_splits and axis inputs (Const) -> tinytf attrs sizes, axis"),
    OpName("split", "Split", "TF: axis input first, attr num_split"),
    # reductions
    OpName("reduce_sum", "Sum", "TF: reduction_indices input (Const) -> tinytf attr axis; keep_dims -> keepdims"),
    OpName("reduce_mean", "Mean", "as Sum"),
    OpName("reduce_max", "Max", "as Sum"),
    OpName("reduce_min", "Min", "as Sum"),
    OpName("reduce_prod", "Prod", "as Sum"),
    OpName("reduce_all", "All", "as Sum"),
    OpName("reduce_any", "Any", "as Sum"),
    OpName("argmax", "ArgMax", "TF: dimension input (Const) -> tinytf attr axis; output_type"),
    OpName("argmin", "ArgMin", "as ArgMax"),
    # control flow: tinytf holds branch/body graphs as node attributes; TF names FunctionDefs
    OpName("cond", "StatelessIf", "TF: attrs then_branch/else_branch name FunctionDefs of the library; inputs "
           "(cond, *args), the branches take the args. tinytf: true_graph/false_graph, closed over their captures"),
    OpName("cond", "If", "as StatelessIf, for branches with side effects"),
    OpName("while_loop", "StatelessWhile", "TF: attrs cond/body name FunctionDefs; every input is a loop "
           "variable (TF adds a loop counter and maximum_iterations as the first two). tinytf: cond_graph, "
           "body_graph, n_vars, has_max, captures after the loop variables"),
    OpName("while_loop", "While", "as StatelessWhile, for bodies with side effects"),
    # files
    OpName("read_file", "ReadFile", "(filename) -> contents"),
    OpName("write_file", "WriteFile", "(filename, contents), no outputs"),
    # calls: tinytf inlines a tf.function called inside another, so these have no tinytf op of their own
    OpName("", "StatefulPartitionedCall", "attr f names a FunctionDef: inlined on import"),
    OpName("", "PartitionedCall", "as StatefulPartitionedCall"),
)

TO_TF: dict = {}
FROM_TF: dict = {}
for _entry in TABLE:
    if _entry.tinytf:
        TO_TF.setdefault(_entry.tinytf, _entry.tf)  # the first entry is the preferred export
    FROM_TF.setdefault(_entry.tf, _entry.tinytf)


def tf_name(tinytf_op: str):
    """The TF op name a tinytf op exports as, or None when TF has no op for it."""
    return TO_TF.get(tinytf_op)


def tinytf_name(tf_op: str):
    """The tinytf op a TF op imports as ('' for calls, which are inlined), or None when unsupported."""
    return FROM_TF.get(tf_op)


def notes(tf_op: str) -> str:
    return next((e.notes for e in TABLE if e.tf == tf_op), "")


__all__ = ["OpName", "TABLE", "tf_name", "tinytf_name", "notes"]
