"""How each tinytf op becomes a TF NodeDef: the TF op (op_names.py, the table shared with the importer), its
inputs (TF takes as tensors what tinytf keeps as attributes: axes, shapes, permutations, slice bounds, so
those become Const inputs) and its attrs, as TF's OpDefs declare them.
Control flow and fused blocks are the exporter's (export.py).

A rule gets a `NodeView` (op name, input values with their refs, output values, tinytf attrs) and a
`const(hint, array, dtype)` callback that adds a Const node and returns its ref; it returns
(TF op name, input refs, {attr name: AttrValue})."""

from __future__ import annotations

import numpy as np

from tinytf.runtime import dtypes

from . import protos as p
from .op_names import TO_TF
from .rules_more import DYNAMIC_GRADIENT_HELPERS, RULES, UNEXPORTED


class NodeView:
    """What a rule sees of one op: a graph node or a step of a fused block."""

    __slots__ = ("op", "inputs", "refs", "outputs", "attrs")

    def __init__(self, op, inputs, refs, outputs, attrs):
        self.op, self.inputs, self.refs, self.outputs, self.attrs = op, inputs, refs, outputs, attrs


# TF ops with no type attribute, or whose type attribute is not T
_NO_T = {"LogicalAnd", "LogicalOr", "LogicalNot", "NoOp", "All", "Any", "ReadFile", "WriteFile"}
_REDUCTIONS = {"reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod", "reduce_all", "reduce_any"}


def _t(n):
    return {"T": p.attr_type(n.inputs[0].dtype)}


def _axis_const(n, const, axis, hint="axis"):
    return const(hint, np.asarray(axis, np.int32), dtypes.int32)


def _reduce(n, const):
    axis = n.attrs.get("axis")
    rank = len(n.inputs[0]._shape) if n.inputs[0]._shape is not None else None
    attrs = {"keep_dims": p.attr(bool(n.attrs.get("keepdims", False))), "Tidx": p.attr_type(dtypes.int32)}
    if n.op not in ("reduce_all", "reduce_any"):
        attrs["T"] = p.attr_type(n.inputs[0].dtype)
    if axis is None and rank is None:  # all axes of a tensor of unknown rank: Range(0, Rank(x)), as TF builds it
        rank_ref = const.node("Rank", "Rank", n.refs, {"T": p.attr_type(n.inputs[0].dtype)})
        indices = const.node("range", "Range", [_axis_const(n, const, 0, "range/start"), rank_ref,
                                                _axis_const(n, const, 1, "range/delta")],
                             {"Tidx": p.attr_type(dtypes.int32)})
        return n.refs + [indices], attrs
    if axis is None:
        axis = list(range(rank))
    return n.refs + [_axis_const(n, const, axis, "reduction_indices")], attrs


def _known(shape) -> bool:
    return shape is not None and None not in shape


def _static_shape(n, what):
    shape = n.outputs[0]._shape
    if shape is None or any(d is None for d in shape):
        raise NotImplementedError(f"{n.op} with the partly unknown output shape {shape} ({what})")
    return list(shape)


def _matmul(n, const):
    a, b = n.inputs
    attrs = {"T": p.attr_type(a.dtype)}
    if a._shape is not None and b._shape is not None and len(a._shape) == 2 and len(b._shape) == 2:
        attrs.update(transpose_a=p.attr(bool(n.attrs.get("transpose_a"))),
                     transpose_b=p.attr(bool(n.attrs.get("transpose_b"))))
        return "MatMul", n.refs, attrs
    attrs.update(adj_x=p.attr(bool(n.attrs.get("transpose_a"))), adj_y=p.attr(bool(n.attrs.get("transpose_b"))))
    return "BatchMatMulV2", n.refs, attrs


def _strided_slice(n, const):
    """tinytf's key spec -> begin/end/strides (Const, or Pack where an index is only known at run time) and
    TF's masks: an int index shrinks its axis, None adds one, "..." is the ellipsis."""
    begin, end, strides = [], [], []
    masks = {"begin_mask": 0, "end_mask": 0, "ellipsis_mask": 0, "new_axis_mask": 0, "shrink_axis_mask": 0}
    dynamic = n.refs[1:]

    def part(value, default):
        if value is None:
            return default, True
        if isinstance(value, str):
            return dynamic[int(value[1:]) - 1], False
        return int(value), False

    for i, item in enumerate(n.attrs["spec"]):
        bit = 1 << i
        if item is None:
            masks["new_axis_mask"] |= bit
            begin.append(0), end.append(0), strides.append(1)
        elif isinstance(item, str) and item == "...":
            masks["ellipsis_mask"] |= bit
            begin.append(0), end.append(0), strides.append(1)
        elif isinstance(item, tuple):
            start, missing_start = part(item[0], 0)
            stop, missing_stop = part(item[1], 0)
            step, _ = part(item[2], 1)
            masks["begin_mask"] |= bit if missing_start else 0
            masks["end_mask"] |= bit if missing_stop else 0
            begin.append(start), end.append(stop), strides.append(step)
        else:
            index, _ = part(item, 0)
            masks["shrink_axis_mask"] |= bit
            begin.append(index)
            end.append(index + 1 if isinstance(index, int) else None)
            strides.append(1)
    refs = [_index_vector(const, "stack", begin), _index_vector(const, "stack_1", end, begin),
            _index_vector(const, "stack_2", strides)]
    attrs = {"T": p.attr_type(n.inputs[0].dtype), "Index": p.attr_type(dtypes.int32)}
    attrs.update({k: p.attr(v) for k, v in masks.items()})
    return "StridedSlice", n.refs[:1] + refs, attrs


def _strided_slice_grad(n, const):
    """StridedSliceGrad(shape, begin, end, strides, dy): the masks and vectors of the StridedSlice rule above for
    the same key (run-time indices as Packs, as there: a loop body's `xs[i]`); a shape known only at run time is
    the Shape of the `like` input (the forward input), the node's last."""
    shape = n.attrs.get("shape")
    if shape is not None and None in shape:
        raise NotImplementedError("strided_slice_grad with a partly known static shape")
    dynamic = n.refs[1:] if shape is not None else n.refs[1:-1]
    view = NodeView("strided_slice", [n.outputs[0]], [n.refs[0]] + dynamic, n.inputs, {"spec": n.attrs["spec"]})
    _, refs, attrs = _strided_slice(view, const)
    attrs["T"] = p.attr_type(n.inputs[0].dtype)
    if shape is not None:
        shape_ref = const("shape", np.asarray(list(shape), np.int32), dtypes.int32)
    else:
        shape_ref = const.node("Shape", "Shape", [n.refs[-1]], {"T": p.attr_type(n.inputs[-1].dtype),
                                                                 "out_type": p.attr_type(dtypes.int32)})
    return "StridedSliceGrad", [shape_ref] + refs[1:] + [n.refs[0]], attrs


def _index_vector(const, hint, values, begins=None):
    """A Const of ints, or (an index known only at run time) the ref of a Pack of Consts and that index;
    a run-time end of a single index is begin + 1."""
    if all(isinstance(v, int) for v in values):
        return const(hint, np.asarray(values, np.int32), dtypes.int32)
    parts = []
    for i, value in enumerate(values):
        if isinstance(value, int):
            parts.append(const(f"{hint}/{i}", np.asarray(value, np.int32), dtypes.int32))
        elif value is None:  # the end of a run-time index: begin + 1
            one = const(f"{hint}/{i}/one", np.asarray(1, np.int32), dtypes.int32)
            parts.append(const.node(f"{hint}/{i}", "AddV2", [begins[i], one], {"T": p.attr_type(dtypes.int32)}))
        else:
            parts.append(value)
    return const.node(hint, "Pack", parts, {"N": p.attr(len(parts)), "T": p.attr_type(dtypes.int32),
                                            "axis": p.attr(0)})


# Ops whose TF counterpart takes the same inputs and only the type attribute T (or none, see _NO_T).
_SIMPLE = {"identity", "stop_gradient", "add", "subtract", "multiply", "divide", "floordiv", "floormod",
           "truncatediv", "truncatemod", "pow", "maximum", "minimum", "squared_difference", "negative", "abs",
           "sign", "square", "sqrt", "rsqrt", "exp", "expm1", "log", "log1p", "reciprocal", "floor", "ceil",
           "round", "rint", "sin", "cos", "tan", "tanh", "sigmoid", "erf", "greater", "greater_equal", "less",
           "less_equal", "logical_and", "logical_or", "logical_not", "clip_by_value", "relu", "relu6", "elu", "selu",
           "softplus", "softsign", "rank", "reshape_dynamic", "read_file", "write_file"}


def _window(n, const, tf_op):
    """Conv2D, MaxPool, AvgPool: TF's 4-lists in NHWC order, its padding names or explicit paddings."""
    attrs = {"T": p.attr_type(n.inputs[0].dtype), "data_format": p.attr("NHWC")}
    strides = n.attrs["strides"]
    attrs["strides"] = p.attr_ints([1, strides[0], strides[1], 1])
    if "ksize" in n.attrs:
        attrs["ksize"] = p.attr_ints([1, n.attrs["ksize"][0], n.attrs["ksize"][1], 1])
    if "dilations" in n.attrs:
        attrs["dilations"] = p.attr_ints([1, n.attrs["dilations"][0], n.attrs["dilations"][1], 1])
    padding = n.attrs["padding"]
    if isinstance(padding, str):
        attrs["padding"] = p.attr(padding.upper())
    else:  # explicit [[top, bottom], [left, right]] (tinytf) -> TF's 8 numbers over N, H, W, C
        if tf_op != "Conv2D":
            raise NotImplementedError(f"{n.op} with explicit paddings (TF's {tf_op} takes SAME or VALID)")
        (top, bottom), (left, right) = [tuple(pair) for pair in padding][-2:] if len(padding) > 2 else padding
        attrs["padding"] = p.attr("EXPLICIT")
        attrs["explicit_paddings"] = p.attr_ints([0, 0, top, bottom, left, right, 0, 0])
    return tf_op, n.refs, attrs


def _softmax_other_axis(n, const, tf_op, axis, rank):
    """TF's Softmax takes the last axis: as TF's Python wrapper does, swap `axis` with the last one (Transpose),
    apply it, and swap back (the swap is its own inverse)."""
    perm = list(range(rank))
    perm[axis], perm[-1] = perm[-1], perm[axis]
    t = {**_t(n), "Tperm": p.attr_type(dtypes.int32)}
    swapped = const.node("transpose", "Transpose", [n.refs[0], _int_const(const, "transpose/perm", perm)], t)
    applied = const.node(tf_op, tf_op, [swapped], _t(n))
    return "Transpose", [applied, _int_const(const, "perm", perm)], t


def _int_const(const, hint, values):
    return const(hint, np.asarray(values, np.int32), dtypes.int32)


def _gradient_helper(n, const):
    """tinytf's gradient helpers, whose shapes are static here, as the TF ops TF's own gradients use: the
    gradient of a sum or mean (RealDiv by the count, Reshape, BroadcastTo), of a broadcast (Sum over the
    broadcast axes, Reshape), and the reshape/broadcast/fill to another tensor's shape."""
    op, out = n.op, _static_shape(n, n.op)
    t = {"T": p.attr_type(n.outputs[0].dtype)}
    if op == "broadcast_reduced":
        grad = n.refs[0]
        rank = len(out)
        axis = n.attrs["axis"]
        axes = tuple(range(rank)) if axis is None else tuple(
            sorted(a % rank for a in ((axis,) if isinstance(axis, int) else axis)))
        if n.attrs["mean"]:
            count = int(np.prod([out[a] for a in axes])) if axes else 1
            divisor = const("count", np.asarray(max(count, 1), n.outputs[0].dtype.np), n.outputs[0].dtype)
            grad = const.node("truediv", "RealDiv", [grad, divisor], t)
        kept = [1 if i in axes else d for i, d in enumerate(out)]
        grad = const.node("Reshape", "Reshape", [grad, _int_const(const, "Reshape/shape", kept)],
                          {**t, "Tshape": p.attr_type(dtypes.int32)})
        return "BroadcastTo", [grad, _int_const(const, "shape", out)], {**t, "Tidx": p.attr_type(dtypes.int32)}
    if op == "sum_to_like":
        source = n.inputs[0]._shape
        if source is None:
            raise NotImplementedError(f"{op} of a tensor of unknown rank")
        lead = len(source) - len(out)  # summed: the leading axes, and the target's 1s over other sizes (or unknown)
        axes = list(range(lead)) + [lead + i for i, d in enumerate(out) if d == 1 and source[lead + i] != 1]
        summed = const.node("Sum", "Sum", [n.refs[0], _int_const(const, "Sum/reduction_indices", axes)],
                            {**t, "keep_dims": p.attr(True), "Tidx": p.attr_type(dtypes.int32)})
        return "Reshape", [summed, _int_const(const, "shape", out)], {**t, "Tshape": p.attr_type(dtypes.int32)}
    if op == "reshape_like":
        return "Reshape", [n.refs[0], _int_const(const, "shape", out)], {**t, "Tshape": p.attr_type(dtypes.int32)}
    if op == "broadcast_to_like":
        return "BroadcastTo", [n.refs[0], _int_const(const, "shape", out)], {**t, "Tidx": p.attr_type(dtypes.int32)}
    # fill_like(x, value): a tensor shaped like x filled with a scalar value
    return "Fill", [_int_const(const, "dims", out), n.refs[1]], {**t, "index_type": p.attr_type(dtypes.int32)}


_GRADIENT_HELPERS = {"broadcast_reduced", "sum_to_like", "reshape_like", "broadcast_to_like", "fill_like"}


def rule_for(n: NodeView, const):
    """(TF op, input refs, attrs) of one tinytf op; NotImplementedError naming the op when tinytf does not
    export it (TF has no counterpart, or its conversion is not written: never a guessed NodeDef)."""
    op = n.op
    tf_op = TO_TF.get(op)
    if op == "matmul":
        return _matmul(n, const)
    if op == "strided_slice":
        return _strided_slice(n, const)
    if op == "strided_slice_grad":
        return _strided_slice_grad(n, const)
    if op in ("conv2d", "max_pool2d", "avg_pool2d"):
        return _window(n, const, tf_op)
    if op in _GRADIENT_HELPERS:
        if _known(n.outputs[0]._shape) and (op != "sum_to_like" or n.inputs[0]._shape is not None):
            return _gradient_helper(n, const)
        if op != "fill_like" and len(n.refs) < 2:
            raise NotImplementedError(f"{op} to a partly unknown shape without its target tensor")
        return DYNAMIC_GRADIENT_HELPERS[op](n, const)  # the target's shape read at run time (Shape)
    if op in RULES:
        return RULES[op](n, const)
    if op in UNEXPORTED:
        raise NotImplementedError(f"GraphDef export of the tinytf op {op!r}: {UNEXPORTED[op]}")
    if tf_op is None:
        raise NotImplementedError(f"the tinytf op {op!r} has no TensorFlow counterpart in GraphDef export")
    if op in _REDUCTIONS:
        refs, attrs = _reduce(n, const)
        return tf_op, refs, attrs
    if op == "cast":
        return tf_op, n.refs, {"SrcT": p.attr_type(n.inputs[0].dtype), "DstT": p.attr_type(n.outputs[0].dtype),
                               "Truncate": p.attr(False)}
    if op == "read_variable":
        return tf_op, n.refs, {"dtype": p.attr_type(n.outputs[0].dtype)}
    if op == "assign_variable":
        return tf_op, n.refs, {"dtype": p.attr_type(n.inputs[1].dtype), "validate_shape": p.attr(False)}
    if op == "reshape":
        out = n.outputs[0]._shape
        if out is not None and sum(d is None for d in out) == 1:  # one unknown size: TF's -1
            out = [-1 if d is None else d for d in out]
        else:
            out = _static_shape(n, "reshape")
        shape = const("shape", np.asarray(out, np.int32), dtypes.int32)
        return tf_op, n.refs + [shape], {**_t(n), "Tshape": p.attr_type(dtypes.int32)}
    if op == "fill":
        dims = const("dims", np.asarray(_static_shape(n, "fill"), np.int32), dtypes.int32)
        return tf_op, [dims] + n.refs, {**_t(n), "index_type": p.attr_type(dtypes.int32)}
    if op == "transpose":
        perm = n.attrs.get("perm")
        if perm is None:
            perm = list(range(len(n.inputs[0]._shape)))[::-1]
        return tf_op, n.refs + [_axis_const(n, const, perm, "perm")], {**_t(n), "Tperm": p.attr_type(dtypes.int32)}
    if op == "concat" and len(n.refs) == 1:  # TF's ConcatV2 takes at least two (tf.concat of one is Identity)
        return "Identity", n.refs, _t(n)
    if op == "concat":
        return tf_op, n.refs + [_axis_const(n, const, n.attrs["axis"])], \
            {**_t(n), "N": p.attr(len(n.refs)), "Tidx": p.attr_type(dtypes.int32)}
    if op == "stack":
        return tf_op, n.refs, {**_t(n), "N": p.attr(len(n.refs)), "axis": p.attr(int(n.attrs["axis"]))}
    if op == "add_n":
        return tf_op, n.refs, {**_t(n), "N": p.attr(len(n.refs))}
    if op == "expand_dims":
        return tf_op, n.refs + [_axis_const(n, const, n.attrs["axis"], "dim")], \
            {**_t(n), "Tdim": p.attr_type(dtypes.int32)}
    if op == "squeeze":
        axis = n.attrs.get("axis")
        axis = [] if axis is None else ([axis] if isinstance(axis, int) else list(axis))
        return tf_op, n.refs, {**_t(n), "squeeze_dims": p.attr_ints(axis)}
    if op == "tile":
        return tf_op, n.refs + [_axis_const(n, const, n.attrs["multiples"], "multiples")], \
            {**_t(n), "Tmultiples": p.attr_type(dtypes.int32)}
    if op in ("argmax", "argmin"):
        return tf_op, n.refs + [_axis_const(n, const, n.attrs.get("axis") or 0, "dimension")], \
            {**_t(n), "Tidx": p.attr_type(dtypes.int32), "output_type": p.attr_type(n.outputs[0].dtype)}
    if op in ("shape", "size"):
        return tf_op, n.refs, {**_t(n), "out_type": p.attr_type(n.outputs[0].dtype)}
    if op == "range":
        return tf_op, n.refs, {"Tidx": p.attr_type(n.outputs[0].dtype)}
    if op == "select":
        return tf_op, n.refs, {"T": p.attr_type(n.inputs[1].dtype)}
    if op == "bias_add":
        return tf_op, n.refs, {**_t(n), "data_format": p.attr("NCHW" if n.attrs.get("channels_first") else "NHWC")}
    if op == "leaky_relu":
        return tf_op, n.refs, {**_t(n), "alpha": p.attr(float(n.attrs["alpha"]))}
    if op in ("softmax", "log_softmax"):
        axis = n.attrs.get("axis", -1)
        rank = len(n.inputs[0]._shape) if n.inputs[0]._shape is not None else None
        if axis in (-1, None) or axis == (rank or 0) - 1:
            return tf_op, n.refs, _t(n)
        if rank is None:
            raise NotImplementedError(f"{op} over axis {axis} of a tensor of unknown rank")
        return _softmax_other_axis(n, const, tf_op, axis % rank, rank)
    if op in ("equal", "not_equal"):
        return tf_op, n.refs, {**_t(n), "incompatible_shape_error": p.attr(True)}
    if op == "add" and n.inputs[0].dtype.is_string:  # TF's AddV2 takes no strings: tf.add of strings writes Add
        return "Add", n.refs, _t(n)
    if op == "no_op":
        return tf_op, [], {}
    if op in _SIMPLE:
        return tf_op, n.refs, {} if tf_op in _NO_T else _t(n)
    raise NotImplementedError(f"GraphDef export of the tinytf op {op!r} (TF's {tf_op}) is not written yet")
