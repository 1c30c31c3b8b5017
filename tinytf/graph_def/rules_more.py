"""Export rules for the tinytf ops beyond rules.py's core: each a function (node view, const) -> (TF op, input
refs, attrs), the TF op being the one TF 2.21's own Python API puts in a graph for the same call (`tf.math.acos`
-> Acos, `tf.gather` -> GatherV2, `tf.nn.log_sigmoid` -> Neg(Softplus(Neg)), ...). Where TF has no single op,
the rule writes TF's composite with `const.node` (helper nodes named under the op's node, so TensorBoard shows
one box). Where a tinytf op has no faithful TF form, it is listed in UNEXPORTED with the reason, and export
raises NotImplementedError saying so: never a guessed NodeDef.

These rules are export-only: the import direction (tf_import.py) reads op_names.TABLE, not this module.

The TF op names, attributes and output argument names were checked by importing and running one-node graphs
of every sample of tests/forward_samples.py in TF 2.21 (tools/check_tf_runs_exported_ops.py)."""

from __future__ import annotations

import numpy as np

from tinytf.runtime import dtypes

from . import protos as p


def _t(n, i=0):
    return {"T": p.attr_type(n.inputs[i].dtype)}


def _int(const, hint, values, dtype=dtypes.int32):
    return const(hint, np.asarray(values, dtype.np), dtype)


def _rank(n, i=0):
    shape = n.inputs[i]._shape
    if shape is None:
        raise NotImplementedError(f"{n.op} of a tensor of unknown rank")
    return len(shape)


def _axes(n, axis, i=0):
    """Static axes as non-negative ints (None: all)."""
    rank = _rank(n, i)
    if axis is None:
        return list(range(rank))
    axes = [axis] if isinstance(axis, (int, np.integer)) else list(axis)
    return sorted(int(a) % rank if rank else 0 for a in axes)


def _shape_of(n, const, i, hint="Shape"):
    """A Shape node of input i (int32), for shapes known only at run time."""
    return const.node(hint, "Shape", [n.refs[i]], {**_t(n, i), "out_type": p.attr_type(dtypes.int32)})


# --- same inputs, T only --------------------------------------------------------------------------------
_SAME_T = {
    "acos": "Acos", "acosh": "Acosh", "asin": "Asin", "asinh": "Asinh", "atan": "Atan", "atan2": "Atan2",
    "atanh": "Atanh", "cosh": "Cosh", "sinh": "Sinh", "erfc": "Erfc", "is_finite": "IsFinite", "is_inf": "IsInf",
    "is_nan": "IsNan", "bitwise_and": "BitwiseAnd", "bitwise_or": "BitwiseOr", "bitwise_xor": "BitwiseXor",
    "invert": "Invert", "divide_no_nan": "DivNoNan", "multiply_no_nan": "MulNoNan", "xdivy": "Xdivy",
    "xlogy": "Xlogy", "conj": "Conj", "cholesky": "Cholesky", "matrix_determinant": "MatrixDeterminant",
    "log_matrix_determinant": "LogMatrixDeterminant", "l2_loss": "L2Loss",
}


def _same_t(tf_op):
    return lambda n, const: (tf_op, n.refs, _t(n))


def _complex_part(tf_op):
    return lambda n, const: (tf_op, n.refs, {**_t(n), "Tout": p.attr_type(n.outputs[0].dtype)})


def _complex(n, const):
    return "Complex", n.refs, {**_t(n), "Tout": p.attr_type(n.outputs[0].dtype)}


def _check_numerics(n, const):
    return "CheckNumerics", n.refs, {**_t(n), "message": p.attr(n.attrs.get("message", ""))}


def _adjoint(tf_op):
    return lambda n, const: (tf_op, n.refs, {**_t(n), "adjoint": p.attr(bool(n.attrs.get("adjoint", False)))})


# --- composites of elementwise ops ----------------------------------------------------------------------
def _log_sigmoid(n, const):  # tf.math.log_sigmoid = -softplus(-x)
    neg = const.node("Neg", "Neg", n.refs, _t(n))
    soft = const.node("Softplus", "Softplus", [neg], _t(n))
    return "Neg", [soft], _t(n)


def _silu(n, const):  # tf.nn.silu(x, beta) = x * sigmoid(beta * x)
    beta = const("beta", np.asarray(n.attrs.get("beta", 1.0), n.inputs[0].dtype.np), n.inputs[0].dtype)
    scaled = const.node("mul", "Mul", [beta, n.refs[0]], _t(n))
    gate = const.node("Sigmoid", "Sigmoid", [scaled], _t(n))
    return "Mul", [n.refs[0], gate], _t(n)


def _logical_xor(n, const):  # tf.math.logical_xor = (x | y) & ~(x & y)
    either = const.node("LogicalOr", "LogicalOr", n.refs, {})
    both = const.node("LogicalAnd", "LogicalAnd", n.refs, {})
    neither = const.node("LogicalNot", "LogicalNot", [both], {})
    return "LogicalAnd", [either, neither], {}


def _reciprocal_no_nan(n, const):  # tf.math.reciprocal_no_nan = div_no_nan(1, x)
    one = const("one", np.asarray(1, n.inputs[0].dtype.np), n.inputs[0].dtype)
    return "DivNoNan", [one, n.refs[0]], _t(n)


def _sigmoid_ce(n, const):
    """tf.nn.sigmoid_cross_entropy_with_logits(labels, logits) = relu(x) - x * z + log1p(exp(-|x|))."""
    z, x = n.refs
    t = _t(n, 1)
    zeros = const.node("zeros_like", "ZerosLike", [x], t)
    relu = const.node("Select", "SelectV2", [const.node("GreaterEqual", "GreaterEqual", [x, zeros], t), x, zeros], t)
    neg_abs = const.node("Neg", "Neg", [const.node("Abs", "Abs", [x], t)], t)
    log1p = const.node("Log1p", "Log1p", [const.node("Exp", "Exp", [neg_abs], t)], t)
    return "AddV2", [const.node("sub", "Sub", [relu, const.node("mul", "Mul", [x, z], t)], t), log1p], t


def _softmax_ce(n, const):
    """TF's SoftmaxCrossEntropyWithLogits(features, labels) over the last axis; its first output, the loss."""
    axis, rank = n.attrs.get("axis", -1), _rank(n, 1)
    if axis in (-1, rank - 1):
        return "SoftmaxCrossEntropyWithLogits", [n.refs[1], n.refs[0]], _t(n, 1)
    # TF's op takes the class axis last: as TF's wrapper, move it to the end in both (the loss keeps the others)
    perm = [d for d in range(rank) if d != axis % rank] + [axis % rank]
    t = {**_t(n, 1), "Tperm": p.attr_type(dtypes.int32)}
    moved = [const.node(f"transpose{suffix}", "Transpose", [ref, _int(const, f"transpose{suffix}/perm", perm)], t)
             for suffix, ref in (("", n.refs[1]), ("_1", n.refs[0]))]
    return "SoftmaxCrossEntropyWithLogits", moved, _t(n, 1)


def _sparse_softmax_ce(n, const):
    return "SparseSoftmaxCrossEntropyWithLogits", [n.refs[1], n.refs[0]], \
        {**_t(n, 1), "Tlabels": p.attr_type(n.inputs[0].dtype)}


def _sparse_softmax_ce_backprop(n, const):
    """The op's second output (the gradient with respect to the logits), through an Identity."""
    node = const.node("SparseSoftmaxCrossEntropyWithLogits", "SparseSoftmaxCrossEntropyWithLogits",
                      [n.refs[1], n.refs[0]], {**_t(n, 1), "Tlabels": p.attr_type(n.inputs[0].dtype)})
    backprop = _second_output(const, node, "backprop")
    return "Identity", [backprop], _t(n, 1)


def _second_output(const, ref, arg):
    """The ref of output 1 of the node whose output-0 ref is `ref` (in a function: `node:arg:0`)."""
    if ref.count(":") == 2:  # inside a FunctionDef: node:loss:0 -> node:backprop:0
        return f"{ref.split(':')[0]}:{arg}:0"
    return f"{ref}:1"


# --- reductions and scans ---------------------------------------------------------------------------------
def _reduction_indices(n, const, axis):
    return _int(const, "reduction_indices", _axes(n, axis))


def _reduce_attrs(n, keepdims):
    return {**_t(n), "keep_dims": p.attr(bool(keepdims)), "Tidx": p.attr_type(dtypes.int32)}


def _euclidean_norm(n, const):
    return "EuclideanNorm", [n.refs[0], _reduction_indices(n, const, n.attrs.get("axis"))], \
        _reduce_attrs(n, n.attrs.get("keepdims"))


def _logsumexp(n, const):
    """tf.reduce_logsumexp: log(sum(exp(x - max))) + max, the max taken with keep_dims and not differentiated."""
    axes = _reduction_indices(n, const, n.attrs.get("axis"))
    keep = _reduce_attrs(n, True)
    top = const.node("Max", "Max", [n.refs[0], axes], keep)
    finite = const.node("IsFinite", "IsFinite", [top], _t(n))
    top = const.node("Select", "SelectV2", [finite, top, const.node("zeros_like", "ZerosLike", [top], _t(n))], _t(n))
    top = const.node("StopGradient", "StopGradient", [top], _t(n))
    shifted = const.node("Exp", "Exp", [const.node("sub", "Sub", [n.refs[0], top], _t(n))], _t(n))
    total = const.node("Log", "Log", [const.node("Sum", "Sum", [shifted, axes], keep)], _t(n))
    if n.attrs.get("keepdims"):
        return "AddV2", [total, top], _t(n)
    summed = const.node("add", "AddV2", [total, top], _t(n))
    return "Squeeze", [summed], {**_t(n), "squeeze_dims": p.attr_ints(_axes(n, n.attrs.get("axis")))}


def _variance(n, const, std):
    axes = _reduction_indices(n, const, n.attrs.get("axis"))
    mean = const.node("Mean", "Mean", [n.refs[0], axes], _reduce_attrs(n, True))
    square = const.node("SquaredDifference", "SquaredDifference", [n.refs[0], mean], _t(n))
    if not std:
        return "Mean", [square, axes], _reduce_attrs(n, n.attrs.get("keepdims"))
    variance = const.node("Mean_1", "Mean", [square, axes], _reduce_attrs(n, n.attrs.get("keepdims")))
    return "Sqrt", [variance], _t(n)


def _count_nonzero(n, const):
    zero = const("zeros", np.zeros((), n.inputs[0].dtype.np), n.inputs[0].dtype)
    nonzero = const.node("NotEqual", "NotEqual", [n.refs[0], zero], {**_t(n), "incompatible_shape_error": p.attr(True)})
    dtype = n.outputs[0].dtype
    counted = const.node("Cast", "Cast", [nonzero], {"SrcT": p.attr_type(dtypes.bool_), "DstT": p.attr_type(dtype),
                                                      "Truncate": p.attr(False)})
    return "Sum", [counted, _reduction_indices(n, const, n.attrs.get("axis"))], \
        {"T": p.attr_type(dtype), "keep_dims": p.attr(bool(n.attrs.get("keepdims"))), "Tidx": p.attr_type(dtypes.int32)}


def _norm(n, const):
    """tf.norm: the euclidean/Frobenius norm as Sqrt(Sum(Square)); other vector orders (1, inf, any p > 0) and
    the matrix 1 and inf norms from Abs, Sum, Max and Pow. The spectral norm (matrix ord=2) needs an SVD: not
    exported."""
    order, axis = n.attrs.get("ord"), n.attrs.get("axis")
    keepdims = n.attrs.get("keepdims")
    matrix = isinstance(axis, tuple) and len(axis) == 2
    if order in ("euclidean", "fro") or (order == 2.0 and not matrix):
        squared = const.node("Square", "Square", n.refs, _t(n))
        total = const.node("Sum", "Sum", [squared, _reduction_indices(n, const, axis)], _reduce_attrs(n, keepdims))
        return "Sqrt", [total], _t(n)
    magnitude = const.node("Abs", "Abs", n.refs, _t(n))
    if matrix:
        if order not in (1.0, np.inf):
            raise NotImplementedError(f"tf.norm with ord={order!r} over two axes (the spectral norm needs an SVD)")
        rows, cols = _axes(n, axis[0])[0], _axes(n, axis[1])[0]
        inner, outer = (rows, cols) if order == 1.0 else (cols, rows)  # 1: largest column sum; inf: row sum
        sums = const.node("Sum", "Sum", [magnitude, _int(const, "Sum/reduction_indices", [inner])],
                          _reduce_attrs(n, True))
        largest = const.node("Max", "Max", [sums, _int(const, "Max/reduction_indices", [outer])],
                             _reduce_attrs(n, True))
        if keepdims:
            return "Identity", [largest], _t(n)
        return "Squeeze", [largest], {**_t(n), "squeeze_dims": p.attr_ints(sorted([rows, cols]))}
    indices = _reduction_indices(n, const, axis)
    if order == np.inf:
        return "Max", [magnitude, indices], _reduce_attrs(n, keepdims)
    if order == 1.0:
        return "Sum", [magnitude, indices], _reduce_attrs(n, keepdims)
    dtype = n.outputs[0].dtype
    powered = const.node("pow", "Pow", [magnitude, const("pow/y", np.asarray(order, dtype.np), dtype)], _t(n))
    total = const.node("Sum", "Sum", [powered, indices], _reduce_attrs(n, keepdims))
    return "Pow", [total, const("y", np.asarray(1.0 / order, dtype.np), dtype)], _t(n)


def _scan(tf_op):
    def rule(n, const):
        return tf_op, [n.refs[0], _int(const, "axis", _axes(n, n.attrs["axis"])[0])], \
            {**_t(n), "exclusive": p.attr(bool(n.attrs.get("exclusive"))),
             "reverse": p.attr(bool(n.attrs.get("reverse"))), "Tidx": p.attr_type(dtypes.int32)}
    return rule


def _trace(n, const):  # tf.linalg.trace = reduce_sum(matrix_diag_part(x), -1)
    diagonal = const.node("MatrixDiagPartV3", "MatrixDiagPartV3",
                          [n.refs[0], _int(const, "k", 0), const("padding_value", np.zeros((), n.inputs[0].dtype.np),
                                                                 n.inputs[0].dtype)],
                          {**_t(n), "align": p.attr("RIGHT_LEFT")})
    return "Sum", [diagonal, _int(const, "reduction_indices", [-1])], _reduce_attrs(n, False)


# --- arrays -----------------------------------------------------------------------------------------------
def _gather(n, const):
    return "GatherV2", [n.refs[0], n.refs[1], _int(const, "axis", int(n.attrs.get("axis") or 0))], \
        {"Tparams": p.attr_type(n.inputs[0].dtype), "Tindices": p.attr_type(n.inputs[1].dtype),
         "Taxis": p.attr_type(dtypes.int32), "batch_dims": p.attr(int(n.attrs.get("batch_dims") or 0))}


def _gather_nd(n, const):
    attrs = {"Tparams": p.attr_type(n.inputs[0].dtype), "Tindices": p.attr_type(n.inputs[1].dtype)}
    batch_dims = int(n.attrs.get("batch_dims") or 0)
    if not batch_dims:
        return "GatherNd", n.refs, attrs
    # TF's GatherNd takes no batch_dims (its Python wrapper builds index grids): each index gets the coordinates
    # of its batch prepended, a constant here since the batch dims are static, and one GatherNd reads them all.
    shape = n.inputs[1]._shape
    if shape is None or any(d is None for d in shape):
        raise NotImplementedError("gather_nd with batch_dims on indices of a shape known only at run time")
    batch, middle = tuple(shape[:batch_dims]), tuple(shape[batch_dims:-1])
    grid = np.stack(np.indices(batch), axis=-1).reshape(batch + (1,) * len(middle) + (batch_dims,))
    grid = np.broadcast_to(grid, batch + middle + (batch_dims,)).astype(n.inputs[1].dtype.np)
    coords = const.node("concat", "ConcatV2", [const("batch_indices", grid, n.inputs[1].dtype), n.refs[1],
                                               _int(const, "concat/axis", -1)],
                        {"N": p.attr(2), "T": p.attr_type(n.inputs[1].dtype), "Tidx": p.attr_type(dtypes.int32)})
    return "GatherNd", [n.refs[0], coords], attrs


def _gather_grad(n, const):
    """The gradient of gather (batch_dims 0): the gradient's index axes moved first and flattened, summed into
    the rows they index (UnsortedSegmentSum, as TF's IndexedSlices become dense), the gathered axis moved back."""
    axis, batch_dims, shape = n.attrs.get("axis") or 0, n.attrs.get("batch_dims") or 0, n.attrs.get("shape")
    if shape is None or None in shape or n.inputs[1]._shape is None or None in n.inputs[1]._shape:
        raise NotImplementedError("gather_grad with shapes known only at run time")
    if batch_dims:
        return _batched_gather_grad(n, const, axis % len(shape), batch_dims % len(n.inputs[1]._shape), shape)
    rank, index_rank = len(shape), len(n.inputs[1]._shape)
    axis %= rank
    t = _t(n)
    grad = n.refs[0]
    if axis:  # the index axes first: (indices..., params[:axis]..., params[axis+1:]...)
        perm = list(range(axis, axis + index_rank)) + list(range(axis)) + list(range(axis + index_rank,
                                                                                     rank - 1 + index_rank))
        grad = const.node("Transpose", "Transpose", [grad, _int(const, "Transpose/perm", perm)],
                          {**t, "Tperm": p.attr_type(dtypes.int32)})
    rest = [int(d) for i, d in enumerate(shape) if i != axis]
    grad = const.node("Reshape_1", "Reshape", [grad, _int(const, "Reshape_1/shape", [-1] + rest)],
                      {**t, "Tshape": p.attr_type(dtypes.int32)})
    indices = const.node("Reshape", "Reshape", [n.refs[1], _int(const, "Reshape/shape", [-1])],
                         {"T": p.attr_type(n.inputs[1].dtype), "Tshape": p.attr_type(dtypes.int32)})
    summed_attrs = {**t, "Tindices": p.attr_type(n.inputs[1].dtype), "Tnumsegments": p.attr_type(dtypes.int32)}
    segments = [grad, indices, _int(const, "num_segments", int(shape[axis]))]
    if not axis:
        return "UnsortedSegmentSum", segments, summed_attrs
    summed = const.node("UnsortedSegmentSum", "UnsortedSegmentSum", segments, summed_attrs)
    back = list(range(1, axis + 1)) + [0] + list(range(axis + 1, rank))  # (params[axis], rest...) -> params
    return "Transpose", [summed, _int(const, "perm", back)], {**t, "Tperm": p.attr_type(dtypes.int32)}


def _batched_gather_grad(n, const, axis, batch_dims, shape):
    """The gradient of gather with batch_dims: each batch's indices offset into its own rows (b * size), one
    UnsortedSegmentSum over batch x rows, reshaped back. Gathering a later axis than the one right after the batch
    axes, the gradient's index axes are first moved before the axes in between (so the gathered axis is the one
    after the batch axes), and the sum moved back."""
    index_shape = [int(d) for d in n.inputs[1]._shape]
    t = _t(n)
    grad, middle = n.refs[0], [int(d) for d in shape[batch_dims:axis]]
    batch, size = [int(d) for d in shape[:batch_dims]], int(shape[axis])
    rest = [int(d) for d in shape[axis + 1:]]
    if middle:
        b, m, k = batch_dims, len(middle), len(index_shape) - batch_dims
        grad_rank = b + m + k + len(rest)
        perm = list(range(b)) + list(range(b + m, b + m + k)) + list(range(b, b + m)) + \
            list(range(b + m + k, grad_rank))
        grad = const.node("Transpose", "Transpose", [grad, _int(const, "Transpose/perm", perm)],
                          {**t, "Tperm": p.attr_type(dtypes.int32)})
    count = int(np.prod(batch, dtype=np.int64))
    index_dtype = n.inputs[1].dtype
    offsets = (np.arange(count) * size).reshape(batch + [1] * (len(index_shape) - batch_dims))
    shifted = const.node("add", "AddV2", [n.refs[1], const("offsets", offsets.astype(index_dtype.np), index_dtype)],
                         {"T": p.attr_type(index_dtype)})
    indices = const.node("Reshape", "Reshape", [shifted, _int(const, "Reshape/shape", [-1])],
                         {"T": p.attr_type(index_dtype), "Tshape": p.attr_type(dtypes.int32)})
    grad = const.node("Reshape_1", "Reshape", [grad, _int(const, "Reshape_1/shape", [-1] + middle + rest)],
                      {**t, "Tshape": p.attr_type(dtypes.int32)})
    summed = const.node("UnsortedSegmentSum", "UnsortedSegmentSum",
                        [grad, indices, _int(const, "num_segments", count * size)],
                        {**t, "Tindices": p.attr_type(index_dtype), "Tnumsegments": p.attr_type(dtypes.int32)})
    if not middle:
        return "Reshape", [summed, _int(const, "shape", [int(d) for d in shape])], \
            {**t, "Tshape": p.attr_type(dtypes.int32)}
    # (batch, size, middle, rest) back to (batch, middle, size, rest)
    moved = const.node("Reshape_2", "Reshape", [summed, _int(const, "Reshape_2/shape", batch + [size] + middle + rest)],
                       {**t, "Tshape": p.attr_type(dtypes.int32)})
    b, m = batch_dims, len(middle)
    back = list(range(b)) + list(range(b + 1, b + 1 + m)) + [b] + list(range(b + 1 + m, len(shape)))
    return "Transpose", [moved, _int(const, "perm", back)], {**t, "Tperm": p.attr_type(dtypes.int32)}


def _one_hot(n, const):
    return "OneHot", [n.refs[0], _int(const, "depth", int(n.attrs["depth"])), n.refs[1], n.refs[2]], \
        {"T": p.attr_type(n.outputs[0].dtype), "TI": p.attr_type(n.inputs[0].dtype),
         "axis": p.attr(int(n.attrs.get("axis", -1)))}


def _one_hot_dynamic(n, const):  # tinytf inputs (indices, on, off, depth)
    return "OneHot", [n.refs[0], n.refs[3], n.refs[1], n.refs[2]], \
        {"T": p.attr_type(n.outputs[0].dtype), "TI": p.attr_type(n.inputs[0].dtype),
         "axis": p.attr(int(n.attrs.get("axis", -1)))}


def _pad(n, const):
    paddings = _int(const, "paddings", np.asarray(n.attrs["paddings"], np.int32).reshape(-1, 2))
    mode = str(n.attrs.get("mode", "CONSTANT")).upper()
    attrs = {**_t(n), "Tpaddings": p.attr_type(dtypes.int32)}
    if mode == "CONSTANT":
        value = n.refs[1] if len(n.refs) > 1 else const("constant_values", np.zeros((), n.inputs[0].dtype.np),
                                                         n.inputs[0].dtype)
        return "PadV2", [n.refs[0], paddings, value], attrs
    return "MirrorPad", [n.refs[0], paddings], {**attrs, "mode": p.attr(mode)}


def _pad_dynamic(n, const):  # (x, paddings, value)
    return "PadV2", n.refs, {**_t(n), "Tpaddings": p.attr_type(n.inputs[1].dtype)}


def _mirror_pad_dynamic(n, const):
    return "MirrorPad", n.refs, {**_t(n), "Tpaddings": p.attr_type(n.inputs[1].dtype),
                                 "mode": p.attr(str(n.attrs["mode"]).upper())}


def _mirror_pad_grad(n, const):
    paddings = _int(const, "paddings", np.asarray(n.attrs["paddings"], np.int32).reshape(-1, 2))
    return "MirrorPadGrad", [n.refs[0], paddings], {**_t(n), "Tpaddings": p.attr_type(dtypes.int32),
                                                    "mode": p.attr(str(n.attrs["mode"]).upper())}


def _mirror_pad_grad_dynamic(n, const):
    return "MirrorPadGrad", n.refs, {**_t(n), "Tpaddings": p.attr_type(n.inputs[1].dtype),
                                     "mode": p.attr(str(n.attrs["mode"]).upper())}


def _slice(n, const):
    begin, size = _int(const, "begin", list(n.attrs["begin"])), _int(const, "size", list(n.attrs["size"]))
    return "Slice", [n.refs[0], begin, size], {**_t(n), "Index": p.attr_type(dtypes.int32)}


def _slice_dynamic(n, const):
    return "Slice", n.refs, {**_t(n), "Index": p.attr_type(n.inputs[1].dtype)}


def _broadcast_to(n, const):
    return "BroadcastTo", [n.refs[0], _int(const, "shape", list(n.attrs["shape"]))], \
        {**_t(n), "Tidx": p.attr_type(dtypes.int32)}


def _with_shape_input(tf_op, shape_attr="Tidx"):
    def rule(n, const):
        return tf_op, n.refs, {**_t(n), shape_attr: p.attr_type(n.inputs[1].dtype)}
    return rule


def _fill_dynamic(n, const):  # (dims, value)
    return "Fill", n.refs, {"T": p.attr_type(n.inputs[1].dtype), "index_type": p.attr_type(n.inputs[0].dtype)}


def _eye_dynamic(n, const):
    """tf.eye(rows, cols) with sizes known at run time: MatrixDiagV3 of ones, as TF's own tf.eye writes it."""
    dtype = n.outputs[0].dtype
    rows, cols = n.refs
    small = const.node("Minimum", "Minimum", [rows, cols], {"T": p.attr_type(dtypes.int32)})
    dims = const.node("ones/shape", "Pack", [small], {"N": p.attr(1), "T": p.attr_type(dtypes.int32),
                                                      "axis": p.attr(0)})
    ones = const.node("ones", "Fill", [dims, const("one", np.ones((), dtype.np), dtype)],
                      {"T": p.attr_type(dtype), "index_type": p.attr_type(dtypes.int32)})
    return "MatrixDiagV3", [ones, _int(const, "k", 0), rows, cols, const("padding", np.zeros((), dtype.np), dtype)], \
        {"T": p.attr_type(dtype), "align": p.attr("RIGHT_LEFT")}


def _matrix_diag(n, const):
    dtype = n.inputs[0].dtype
    return "MatrixDiagV3", [n.refs[0], _int(const, "k", n.attrs.get("k", 0)), _int(const, "num_rows", -1),
                            _int(const, "num_cols", -1), const("padding_value", np.zeros((), dtype.np), dtype)], \
        {**_t(n), "align": p.attr("RIGHT_LEFT")}


def _matrix_diag_part(n, const):
    dtype = n.inputs[0].dtype
    return "MatrixDiagPartV3", [n.refs[0], _int(const, "k", n.attrs.get("k", 0)),
                                const("padding_value", np.zeros((), dtype.np), dtype)], \
        {**_t(n), "align": p.attr("RIGHT_LEFT")}


def _matrix_transpose(n, const):
    rank = _rank(n)
    perm = list(range(rank - 2)) + [rank - 1, rank - 2]
    return "Transpose", [n.refs[0], _int(const, "perm", perm)], {**_t(n), "Tperm": p.attr_type(dtypes.int32)}


def _matvec(n, const):  # tf.linalg.matvec = squeeze(matmul(a, expand_dims(b, -1)), -1)
    column = const.node("ExpandDims", "ExpandDims", [n.refs[1], _int(const, "ExpandDims/dim", -1)],
                        {**_t(n, 1), "Tdim": p.attr_type(dtypes.int32)})
    transpose = bool(n.attrs.get("transpose_a"))
    if _rank(n) == 2 and _rank(n, 1) == 1:
        product = const.node("MatMul", "MatMul", [n.refs[0], column], {**_t(n), "transpose_a": p.attr(transpose),
                                                                        "transpose_b": p.attr(False)})
    else:
        product = const.node("MatMul", "BatchMatMulV2", [n.refs[0], column], {**_t(n), "adj_x": p.attr(transpose),
                                                                               "adj_y": p.attr(False)})
    return "Squeeze", [product], {**_t(n), "squeeze_dims": p.attr_ints([-1])}


def _reverse(n, const):
    return "ReverseV2", [n.refs[0], _int(const, "axis", _axes(n, n.attrs["axis"]))], \
        {**_t(n), "Tidx": p.attr_type(dtypes.int32)}


def _top_k(n, const):
    return "TopKV2", [n.refs[0], _int(const, "k", int(n.attrs["k"]))], \
        {**_t(n), "sorted": p.attr(bool(n.attrs.get("sorted", True))), "Tk": p.attr_type(dtypes.int32),
         "index_type": p.attr_type(n.attrs.get("index_type", dtypes.int32))}


def _in_top_k(n, const):  # tinytf (predictions, targets)
    return "InTopKV2", [n.refs[0], n.refs[1], const("k", np.asarray(int(n.attrs["k"]), n.inputs[1].dtype.np),
                                                    n.inputs[1].dtype)], _t(n, 1)


def _einsum(n, const):
    equation = n.attrs["equation"].replace(" ", "")
    if "->" not in equation:  # numpy's implicit output (the labels used once, sorted), written out as TF needs
        letters = [c for c in equation if c.isalpha()]
        equation += "->" + "".join(sorted(c for c in set(letters) if letters.count(c) == 1))
    return "Einsum", n.refs, {**_t(n), "equation": p.attr(equation), "N": p.attr(len(n.refs))}


def _unstack(n, const):
    return "Unpack", n.refs, {**_t(n), "num": p.attr(int(n.attrs["num"])), "axis": p.attr(int(n.attrs.get("axis", 0)))}


def _split(n, const):
    sizes = list(n.attrs["sizes"]) if n.attrs.get("sizes") is not None else None
    axis = _int(const, "split_dim", int(n.attrs.get("axis", 0)))
    num = int(n.attrs.get("num_split") or len(n.outputs))
    if sizes is None:
        return "Split", [axis, n.refs[0]], {**_t(n), "num_split": p.attr(num)}
    return "SplitV", [n.refs[0], _int(const, "size_splits", sizes), axis], \
        {**_t(n), "num_split": p.attr(num), "Tlen": p.attr_type(dtypes.int32)}


def _where(n, const):
    return "Where", n.refs, _t(n)


def _boolean_mask(n, const):
    """TF's boolean_mask composite: the masked dims of the tensor flattened into one (Reshape), the mask
    flattened, its true positions (Where, int64 [k, 1], Squeeze'd), and GatherV2 of those along the axis."""
    axis = int(n.attrs["axis"])
    shape, mask = n.inputs[0]._shape, n.inputs[1]._shape
    if shape is None or mask is None or any(d is None for d in shape[axis:axis + len(mask)]):
        raise NotImplementedError(f"boolean_mask of shapes {shape} and {mask} (the masked dims are exported when "
                                  "static)")
    flat = [-1 if d is None else d for d in shape[:axis]] + [int(np.prod(shape[axis:axis + len(mask)]))] + \
        [-1 if d is None else d for d in shape[axis + len(mask):]]
    if flat.count(-1) > 1:
        raise NotImplementedError(f"boolean_mask of a tensor of shape {shape} (more than one dim unknown)")
    t = n.inputs[0].dtype
    tensor = const.node("Reshape", "Reshape", [n.refs[0], _int(const, "Reshape/shape", flat)],
                        {"T": p.attr_type(t), "Tshape": p.attr_type(dtypes.int32)})
    mask_flat = const.node("Reshape_1", "Reshape", [n.refs[1], _int(const, "Reshape_1/shape", [-1])],
                           {"T": p.attr_type(dtypes.bool_), "Tshape": p.attr_type(dtypes.int32)})
    where = const.node("Where", "Where", [mask_flat], {"T": p.attr_type(dtypes.bool_)})
    indices = const.node("Squeeze", "Squeeze", [where],
                         {"T": p.attr_type(dtypes.int64), "squeeze_dims": p.attr_ints([1])})
    return "GatherV2", [tensor, indices, _int(const, "GatherV2/axis", axis)], {
        "Tparams": p.attr_type(t), "Tindices": p.attr_type(dtypes.int64), "Taxis": p.attr_type(dtypes.int32),
        "batch_dims": p.attr(0)}


def _var_is_initialized(n, const):
    return "VarIsInitializedOp", n.refs, {}


def _linspace(n, const):
    """Scalars: TF's LinSpace. Tensors (values along `axis`): TF's linspace_nd, start + i * (stop - start) /
    (num - 1) for i < num - 1, then stop itself, concatenated along the axis."""
    start, stop = n.inputs[0]._shape, n.inputs[1]._shape
    num, axis = int(n.attrs["num"]), n.attrs.get("axis", 0)
    if start == () and stop == () and axis in (0, -1):
        return "LinSpace", [n.refs[0], n.refs[1], _int(const, "num", num)], {**_t(n), "Tidx": p.attr_type(dtypes.int32)}
    if start is None or stop is None or None in start or None in stop:
        raise NotImplementedError(f"linspace of start and stop of shapes {start} and {stop} (static shapes are "
                                  "exported)")
    refs = list(n.refs[:2])
    if start != stop:  # TF's linspace_nd broadcasts start and stop to one shape first
        common = tuple(np.broadcast_shapes(start, stop))
        for i, shape in enumerate((start, stop)):
            if shape != common:
                refs[i] = const.node(f"BroadcastTo_{i}", "BroadcastTo",
                                     [refs[i], _int(const, f"BroadcastTo_{i}/shape", list(common))],
                                     {**_t(n, i), "Tidx": p.attr_type(dtypes.int32)})
        start = common
    axis = int(axis) % (len(start) + 1)
    dtype = n.outputs[0].dtype
    ints = {"T": p.attr_type(dtype), "Tdim": p.attr_type(dtypes.int32)}
    first = const.node("ExpandDims", "ExpandDims", [refs[0], _int(const, "ExpandDims/dim", axis)], ints)
    last = const.node("ExpandDims_1", "ExpandDims", [refs[1], _int(const, "ExpandDims_1/dim", axis)], ints)
    if num <= 1:
        return "Identity", [first], _t(n)
    span = const.node("sub", "Sub", [last, first], _t(n))
    delta = const.node("truediv", "RealDiv", [span, const("truediv/y", np.asarray(num - 1, dtype.np), dtype)], _t(n))
    steps = np.arange(num - 1, dtype=dtype.np).reshape([num - 1 if i == axis else 1 for i in range(len(start) + 1)])
    scaled = const.node("mul", "Mul", [const("range", steps, dtype), delta], _t(n))
    values = const.node("add", "AddV2", [first, scaled], _t(n))
    return "ConcatV2", [values, last, _int(const, "concat/axis", axis)], \
        {**_t(n), "N": p.attr(2), "Tidx": p.attr_type(dtypes.int32)}


def _searchsorted(n, const):
    tf_op = "LowerBound" if n.attrs.get("side", "left") == "left" else "UpperBound"
    attrs = {**_t(n), "out_type": p.attr_type(n.attrs.get("out_type") or n.outputs[0].dtype)}
    if _rank(n) != 1:
        return tf_op, n.refs, attrs
    rows = [const.node(f"ExpandDims{i}", "ExpandDims", [ref, _int(const, f"ExpandDims{i}/dim", 0)],
                       {**_t(n, i), "Tdim": p.attr_type(dtypes.int32)}) for i, ref in enumerate(n.refs)]
    found = const.node(tf_op, tf_op, rows, attrs)  # TF's bound ops take rows: a vector is one row
    return "Squeeze", [found], {"T": attrs["out_type"], "squeeze_dims": p.attr_ints([0])}


def _gather_nd_grad(n, const):  # (g, indices), attr shape: TF's gradient of GatherNd is ScatterNd
    shape = n.attrs.get("shape")
    if n.attrs.get("batch_dims") or shape is None or None in shape:
        raise NotImplementedError("gather_nd_grad with batch_dims or a shape known only at run time")
    return "ScatterNd", [n.refs[1], n.refs[0], _int(const, "shape", list(shape))], \
        {**_t(n), "Tindices": p.attr_type(n.inputs[1].dtype)}


def _unique(n, const):
    attrs = {**_t(n), "out_idx": p.attr_type(n.attrs.get("out_idx") or dtypes.int32)}
    return ("UniqueWithCounts" if n.attrs.get("with_counts") else "Unique"), n.refs, attrs


def _tensor_scatter_nd(n, const):
    tf_op = {"update": "TensorScatterUpdate", "add": "TensorScatterAdd", "sub": "TensorScatterSub",
             "min": "TensorScatterMin", "max": "TensorScatterMax"}[n.attrs["mode"]]
    return tf_op, n.refs, {**_t(n), "Tindices": p.attr_type(n.inputs[1].dtype)}


def _segment(n, const):
    tf_op = {"sum": "SegmentSum", "mean": "SegmentMean", "max": "SegmentMax", "min": "SegmentMin",
             "prod": "SegmentProd"}[n.attrs["reduction"]]
    return tf_op, n.refs, {**_t(n), "Tindices": p.attr_type(n.inputs[1].dtype)}


def _unsorted_segment(n, const):
    tf_op = {"sum": "UnsortedSegmentSum", "max": "UnsortedSegmentMax", "min": "UnsortedSegmentMin",
             "prod": "UnsortedSegmentProd"}[n.attrs["reduction"]]
    return tf_op, n.refs, {**_t(n), "Tindices": p.attr_type(n.inputs[1].dtype),
                           "Tnumsegments": p.attr_type(n.inputs[2].dtype)}


def _tensordot(n, const):
    """tf.tensordot on static shapes: transpose the contracted axes of `a` last and those of `b` first (when
    they are not already), reshape both to matrices, MatMul, reshape to the free dimensions."""
    axes = n.attrs["axes"]
    a, b = n.inputs[0]._shape, n.inputs[1]._shape
    if a is None or b is None or None in a or None in b:
        raise NotImplementedError(f"tensordot with axes={axes!r} on shapes {a} and {b} (static shapes are exported)")
    if isinstance(axes, (int, np.integer)):
        a_axes, b_axes = list(range(len(a) - int(axes), len(a))), list(range(int(axes)))
    else:
        a_axes, b_axes = ([x] if isinstance(x, (int, np.integer)) else list(x) for x in axes)
        a_axes, b_axes = [int(x) % len(a) for x in a_axes], [int(x) % len(b) for x in b_axes]
    a_free, b_free = [i for i in range(len(a)) if i not in a_axes], [i for i in range(len(b)) if i not in b_axes]
    k = int(np.prod([a[i] for i in a_axes], dtype=np.int64))
    left, right = n.refs
    if a_free + a_axes != list(range(len(a))):
        left = const.node("transpose", "Transpose", [left, _int(const, "transpose/perm", a_free + a_axes)],
                          {**_t(n), "Tperm": p.attr_type(dtypes.int32)})
    if b_axes + b_free != list(range(len(b))):
        right = const.node("transpose_1", "Transpose", [right, _int(const, "transpose_1/perm", b_axes + b_free)],
                           {**_t(n), "Tperm": p.attr_type(dtypes.int32)})
    left = const.node("Reshape", "Reshape", [left, _int(const, "Reshape/shape", [-1, k])],
                      {**_t(n), "Tshape": p.attr_type(dtypes.int32)})
    right = const.node("Reshape_1", "Reshape", [right, _int(const, "Reshape_1/shape", [k, -1])],
                       {**_t(n), "Tshape": p.attr_type(dtypes.int32)})
    product = const.node("MatMul", "MatMul", [left, right], {**_t(n), "transpose_a": p.attr(False),
                                                              "transpose_b": p.attr(False)})
    return "Reshape", [product, _int(const, "shape", [a[i] for i in a_free] + [b[i] for i in b_free])], \
        {**_t(n), "Tshape": p.attr_type(dtypes.int32)}


# --- gradients of convolution, pooling and slicing --------------------------------------------------------
def _nhwc(values):
    return [1, int(values[0]), int(values[1]), 1]


def _window_attrs(n, padding, explicit=False):
    """strides, data_format and padding; `explicit`: the op takes TF's EXPLICIT padding (the convolution ops and
    their gradients do; the pooling gradients do not, and tinytf's pools take only SAME or VALID, as TF's
    avg_pool; TF's max_pool with explicit paddings has no gradient), given as tinytf's ((top, bottom),
    (left, right))."""
    attrs = {"strides": p.attr_ints(_nhwc(n.attrs["strides"])), "data_format": p.attr("NHWC")}
    if isinstance(padding, str):
        attrs["padding"] = p.attr(padding.upper())
        return attrs
    if not explicit:
        raise NotImplementedError(f"{n.op} with explicit paddings (TF's op takes SAME or VALID)")
    pairs = [tuple(int(v) for v in pair) for pair in padding]
    (top, bottom), (left, right) = pairs[1:3] if len(pairs) == 4 else pairs
    attrs["padding"] = p.attr("EXPLICIT")
    attrs["explicit_paddings"] = p.attr_ints([0, 0, top, bottom, left, right, 0, 0])
    return attrs


def _conv_backprop_input(n, const):
    batch = n.inputs[0]._shape[0] if n.inputs[0]._shape is not None else None
    if batch is None:
        sizes = const.node("input_sizes", "ConcatV2", [
            const.node("batch", "StridedSlice", [_shape_of(n, const, 0), _int(const, "b0", [0]), _int(const, "b1", [1]),
                                                 _int(const, "b2", [1])],
                       {"T": p.attr_type(dtypes.int32), "Index": p.attr_type(dtypes.int32), "begin_mask": p.attr(0),
                        "end_mask": p.attr(0), "ellipsis_mask": p.attr(0), "new_axis_mask": p.attr(0),
                        "shrink_axis_mask": p.attr(0)}),
            _int(const, "hwc", list(n.attrs["shape"])), _int(const, "axis", 0)],
            {"T": p.attr_type(dtypes.int32), "N": p.attr(2), "Tidx": p.attr_type(dtypes.int32)})
    else:
        sizes = _int(const, "input_sizes", [batch] + list(n.attrs["shape"]))
    attrs = {**_t(n), **_window_attrs(n, n.attrs["padding"], explicit=True),
             "dilations": p.attr_ints(_nhwc(n.attrs.get("dilations", (1, 1))))}
    return "Conv2DBackpropInput", [sizes, n.refs[1], n.refs[0]], attrs


def _conv_backprop_filter(n, const):
    attrs = {**_t(n), **_window_attrs(n, n.attrs["padding"], explicit=True),
             "dilations": p.attr_ints(_nhwc(n.attrs.get("dilations", (1, 1))))}
    return "Conv2DBackpropFilter", [n.refs[0], _int(const, "filter_sizes", list(n.attrs["filter_shape"])), n.refs[1]], \
        attrs


def _depthwise_attrs(n):
    """DepthwiseConv2dNative's attributes; TF's kernel has no semantics for strides and dilations above 1
    together (Keras' layers allow them, tinytf computes them), so such a node is not written."""
    if max(n.attrs["strides"]) > 1 and max(n.attrs["dilations"]) > 1:
        raise NotImplementedError(f"{n.op} with strides {n.attrs['strides']} and dilations {n.attrs['dilations']} "
                                  f"both above 1: TF's DepthwiseConv2dNative does not compute it")
    return {**_t(n), **_window_attrs(n, n.attrs["padding"], explicit=True),  # TF's three ops take EXPLICIT
            "dilations": p.attr_ints(_nhwc(n.attrs["dilations"]))}


def _depthwise(n, const):
    return "DepthwiseConv2dNative", list(n.refs), _depthwise_attrs(n)


def _depthwise_backprop_input(n, const):  # tinytf (g, filters), shape (H, W, C): TF (input_sizes, filter, g)
    batch = n.inputs[0]._shape[0] if n.inputs[0]._shape is not None else None
    if batch is None:
        raise NotImplementedError(f"{n.op} with an unknown batch size")
    sizes = _int(const, "input_sizes", [batch] + list(n.attrs["shape"]))
    return "DepthwiseConv2dNativeBackpropInput", [sizes, n.refs[1], n.refs[0]], _depthwise_attrs(n)


def _depthwise_backprop_filter(n, const):  # tinytf (x, g), filter_shape: TF (input, filter_sizes, g)
    sizes = _int(const, "filter_sizes", list(n.attrs["filter_shape"]))
    return "DepthwiseConv2dNativeBackpropFilter", [n.refs[0], sizes, n.refs[1]], _depthwise_attrs(n)


def _max_pool_grad(n, const):  # tinytf (x, y, g) is TF's MaxPoolGrad(orig_input, orig_output, grad)
    attrs = {**_t(n), **_window_attrs(n, n.attrs["padding"]), "ksize": p.attr_ints(_nhwc(n.attrs["ksize"]))}
    return "MaxPoolGrad", list(n.refs[:3]), attrs


def _dropout_select(n, const):  # tf.nn.dropout's where(keep, x, zeros_like(x)), with its scale's Mul when it has one
    zeros = const.node("ZerosLike", "ZerosLike", [n.refs[1]], _t(n, 1))
    scale = n.attrs.get("scale")
    if scale is None:
        return "SelectV2", [n.refs[0], n.refs[1], zeros], _t(n, 1)
    dtype = n.inputs[1].dtype
    factor = const("scale", np.asarray(scale, dtype.np), dtype)
    if n.attrs.get("scale_first", True):
        scaled = const.node("Mul", "Mul", [n.refs[1], factor], _t(n, 1))
        return "SelectV2", [n.refs[0], scaled, zeros], _t(n, 1)
    kept = const.node("SelectV2", "SelectV2", [n.refs[0], n.refs[1], zeros], _t(n, 1))
    return "Mul", [kept, factor], _t(n, 1)


def _max_pool_relu_grad(n, const):  # the relu_pool_gradient pass's fusion, as the two ops it replaced
    attrs = {**_t(n), **_window_attrs(n, n.attrs["padding"]), "ksize": p.attr_ints(_nhwc(n.attrs["ksize"]))}
    spread = const.node("MaxPoolGrad", "MaxPoolGrad", list(n.refs[:3]), attrs)
    dtype = n.inputs[0].dtype
    positive = const.node("Greater", "Greater", [n.refs[0], const("zero", np.zeros((), dtype.np), dtype)], _t(n))
    mask = const.node("Cast", "Cast", [positive], {"SrcT": p.attr_type(dtypes.bool_), "DstT": p.attr_type(dtype),
                                                   "Truncate": p.attr(False)})
    return "Mul", [spread, mask], _t(n)


def _conv_epilogue(n, const):  # the conv_epilogue pass's fusion, as the ops it replaced
    from .rules import _window

    _, _, conv_attrs = _window(n, const, "Conv2D")
    out = const.node("Conv2D", "Conv2D", list(n.refs[:2]), conv_attrs)
    if len(n.refs) > 2:
        out = const.node("BiasAdd", "BiasAdd", [out, n.refs[2]], {**_t(n), "data_format": p.attr("NHWC")})
    if not n.attrs["relu"] and n.attrs["pool"] is None:
        return "Identity", [out], _t(n)
    if n.attrs["pool"] is None:
        return "Relu", [out], _t(n)
    if n.attrs["relu"]:
        out = const.node("Relu", "Relu", [out], _t(n))
    pool = _nhwc(n.attrs["pool"])
    return "MaxPool", [out], {**_t(n), "ksize": p.attr_ints(pool), "strides": p.attr_ints(pool),
                              "padding": p.attr("VALID"), "data_format": p.attr("NHWC")}


def _avg_pool_grad(n, const):
    batch = n.inputs[0]._shape[0] if n.inputs[0]._shape is not None else None
    if batch is None:
        raise NotImplementedError("avg_pool2d_grad of a batch of unknown size")
    attrs = {**_t(n), **_window_attrs(n, n.attrs["padding"]), "ksize": p.attr_ints(_nhwc(n.attrs["ksize"]))}
    return "AvgPoolGrad", [_int(const, "orig_input_shape", [batch] + list(n.attrs["shape"])), n.refs[0]], attrs


# --- strings ----------------------------------------------------------------------------------------------
def _string_const(const, hint, text):
    value = text if isinstance(text, bytes) else str(text).encode()
    return const(hint, np.asarray(value, dtype=object), dtypes.string)


def _as_string(n, const):
    return "AsString", n.refs, {**_t(n), "precision": p.attr(int(n.attrs.get("precision", -1))),
                                "scientific": p.attr(bool(n.attrs.get("scientific"))),
                                "shortest": p.attr(bool(n.attrs.get("shortest"))),
                                "width": p.attr(int(n.attrs.get("width", -1))), "fill": p.attr(n.attrs.get("fill", ""))}


def _regex_full_match(n, const):
    return "RegexFullMatch", [n.refs[0], _string_const(const, "pattern", n.attrs["pattern"])], {}


def _regex_replace(n, const):
    return "RegexReplace", [n.refs[0], _string_const(const, "pattern", n.attrs["pattern"]),
                            _string_const(const, "rewrite", n.attrs["rewrite"])], \
        {"replace_global": p.attr(bool(n.attrs.get("replace_global", True)))}


def _bytes_attr(value):
    return p.attr(value.decode() if isinstance(value, bytes) else value)


def _string_join(n, const):
    return "StringJoin", n.refs, {"N": p.attr(len(n.refs)), "separator": _bytes_attr(n.attrs.get("separator", b""))}


def _string_unit(tf_op):
    return lambda n, const: (tf_op, n.refs, {"unit": p.attr(n.attrs.get("unit", "BYTE"))})


def _string_case(tf_op):
    return lambda n, const: (tf_op, n.refs, {"encoding": p.attr(n.attrs.get("encoding", ""))})


def _substr(n, const):
    return "Substr", n.refs, {"T": p.attr_type(n.inputs[1].dtype), "unit": p.attr(n.attrs.get("unit", "BYTE"))}


def _string_to_number(n, const):
    return "StringToNumber", n.refs, {"out_type": p.attr_type(n.attrs.get("out_type") or n.outputs[0].dtype)}


def _reduce_join(n, const):
    axes = n.attrs.get("axes")
    return "ReduceJoin", [n.refs[0], _int(const, "reduction_indices", _axes(n, axes))], \
        {"keep_dims": p.attr(bool(n.attrs.get("keepdims"))), "separator": _bytes_attr(n.attrs.get("separator", b""))}


def _unsorted_segment_join(n, const):
    return "UnsortedSegmentJoin", [n.refs[0], n.refs[1], _int(const, "num_segments", int(n.attrs["num_segments"]))], \
        {"separator": _bytes_attr(n.attrs.get("separator", b"")), "Tindices": p.attr_type(n.inputs[1].dtype),
         "Tnumsegments": p.attr_type(dtypes.int32)}


def _string_format(n, const):
    return "StringFormat", n.refs, {"T": p.attr_types([t.dtype for t in n.inputs]),
                                    "template": p.attr(n.attrs["template"]),
                                    "placeholder": p.attr(n.attrs.get("placeholder", "{}")),
                                    "summarize": p.attr(int(n.attrs.get("summarize", 3)))}


# --- stateless random: TF's key/counter form of the seed ---------------------------------------------------
def _key_counter(n, const):
    node = const.node("StatelessRandomGetKeyCounter", "StatelessRandomGetKeyCounter", [n.refs[1]],
                      {"Tseed": p.attr_type(n.inputs[1].dtype)})
    counter = _second_output(const, node, "counter")
    return node, counter


def _stateless_float(n, const):
    tf_op = {"uniform": "StatelessRandomUniformV2", "normal": "StatelessRandomNormalV2",
             "truncated_normal": "StatelessTruncatedNormalV2"}.get(n.attrs["kind"])
    if tf_op is None:
        raise NotImplementedError(f"stateless random floats of kind {n.attrs['kind']!r}")
    key, counter = _key_counter(n, const)
    return tf_op, [n.refs[0], key, counter, _int(const, "alg", 1)], \
        {"dtype": p.attr_type(n.outputs[0].dtype), "Tshape": p.attr_type(n.inputs[0].dtype)}


def _stateless_int(n, const):  # (shape, seed, minval, maxval)
    key, counter = _key_counter(n, const)
    return "StatelessRandomUniformIntV2", [n.refs[0], key, counter, _int(const, "alg", 1), n.refs[2], n.refs[3]], \
        {"dtype": p.attr_type(n.outputs[0].dtype), "Tshape": p.attr_type(n.inputs[0].dtype)}


def _stateless_full_int(n, const):
    key, counter = _key_counter(n, const)
    return "StatelessRandomUniformFullIntV2", [n.refs[0], key, counter, _int(const, "alg", 1)], \
        {"dtype": p.attr_type(n.outputs[0].dtype), "Tshape": p.attr_type(n.inputs[0].dtype)}


# --- gradient helpers whose target shape is known only at run time ----------------------------------------
def _reshape_like_dynamic(n, const):
    return "Reshape", [n.refs[0], _shape_of(n, const, 1)], {**_t(n), "Tshape": p.attr_type(dtypes.int32)}


def _broadcast_to_like_dynamic(n, const):
    return "BroadcastTo", [n.refs[0], _shape_of(n, const, 1)], {**_t(n), "Tidx": p.attr_type(dtypes.int32)}


def _fill_like_dynamic(n, const):
    return "Fill", [_shape_of(n, const, 0), n.refs[1]], {"T": p.attr_type(n.inputs[1].dtype),
                                                         "index_type": p.attr_type(dtypes.int32)}


def _sum_to_like_dynamic(n, const):
    """TF's gradient of a broadcast: BroadcastGradientArgs of the two shapes names the axes to sum, then the
    sum is reshaped to the target's shape."""
    target = _shape_of(n, const, 1, "Shape_1")
    source = _shape_of(n, const, 0)
    axes = const.node("BroadcastGradientArgs", "BroadcastGradientArgs", [target, source],
                      {"T": p.attr_type(dtypes.int32)})  # output 0: the axes of the first shape's broadcast
    total = const.node("Sum", "Sum", [n.refs[0], axes], {**_t(n), "keep_dims": p.attr(False),
                                                          "Tidx": p.attr_type(dtypes.int32)})
    return "Reshape", [total, target], {**_t(n), "Tshape": p.attr_type(dtypes.int32)}


def _broadcast_reduced_dynamic(n, const):
    """The gradient of reduce_sum/mean(like, axis) with like's shape known at run time: the gradient divided
    by the reduced count (mean), reshaped to like's shape with 1 on the reduced axes, broadcast to it."""
    axes = _axes(n, n.attrs.get("axis"), 1)
    like_shape = _shape_of(n, const, 1)
    grad = n.refs[0]
    t = _t(n)
    if n.attrs.get("mean"):
        counts = const.node("GatherV2", "GatherV2", [like_shape, _int(const, "axes", axes), _int(const, "axis", 0)],
                            {"Tparams": p.attr_type(dtypes.int32), "Tindices": p.attr_type(dtypes.int32),
                             "Taxis": p.attr_type(dtypes.int32), "batch_dims": p.attr(0)})
        count = const.node("Prod", "Prod", [counts, _int(const, "Prod/reduction_indices", [0])],
                           {"T": p.attr_type(dtypes.int32), "keep_dims": p.attr(False),
                            "Tidx": p.attr_type(dtypes.int32)})
        count = const.node("Maximum", "Maximum", [count, _int(const, "one", 1)], {"T": p.attr_type(dtypes.int32)})
        count = const.node("Cast", "Cast", [count], {"SrcT": p.attr_type(dtypes.int32), **{
            "DstT": p.attr_type(n.outputs[0].dtype), "Truncate": p.attr(False)}})
        grad = const.node("truediv", "RealDiv", [grad, count], t)
    if not n.attrs.get("keepdims"):
        ones = _int(const, "ones", [1] * len(axes))
        kept = const.node("kept_shape", "TensorScatterUpdate",
                          [like_shape, _int(const, "kept_shape/indices", [[a] for a in axes]), ones],
                          {"T": p.attr_type(dtypes.int32), "Tindices": p.attr_type(dtypes.int32)})
        grad = const.node("Reshape", "Reshape", [grad, kept], {**t, "Tshape": p.attr_type(dtypes.int32)})
    return "BroadcastTo", [grad, like_shape], {**t, "Tidx": p.attr_type(dtypes.int32)}


DYNAMIC_GRADIENT_HELPERS = {"reshape_like": _reshape_like_dynamic, "broadcast_to_like": _broadcast_to_like_dynamic,
                            "fill_like": _fill_like_dynamic, "sum_to_like": _sum_to_like_dynamic,
                            "broadcast_reduced": _broadcast_reduced_dynamic}

# --- py_function: TF's EagerPyFunc node (it runs only in the process that holds the Python function) ------
def _py_function(n, const):
    return "EagerPyFunc", n.refs, {"Tin": p.attr_types([t.dtype for t in n.inputs]),
                                   "Tout": p.attr_types([t.dtype for t in n.outputs]),
                                   "token": p.attr(f"pyfunc_{id(n.attrs.get('func', n)) % 10**6}"),
                                   "is_async": p.attr(False)}


def _numpy_function(n, const):
    attrs = _py_function(n, const)[2]
    del attrs["is_async"]
    return "PyFunc", n.refs, attrs


# --- stateful random ops: TF's kernels with the op's (seed, seed2), which give the same Philox streams -----------
def _seeds(n):
    seed = n.attrs["stream"].seed or (0, 0)  # (0, 0): not seeded, as TF's attributes say it
    return {"seed": p.attr(int(seed[0])), "seed2": p.attr(int(seed[1]))}


def _random(tf_op):
    def rule(n, const):
        return tf_op, n.refs, {**_seeds(n), "dtype": p.attr_type(n.outputs[0].dtype), **_t(n)}
    return rule


def _random_uniform_int(n, const):  # (shape, minval, maxval)
    return "RandomUniformInt", n.refs, {**_seeds(n), "Tout": p.attr_type(n.outputs[0].dtype), **_t(n)}


def _random_shuffle(n, const):
    return "RandomShuffle", n.refs, {**_seeds(n), **_t(n)}


# --- TensorArray: TF 2's TensorList ops (value semantics, as tinytf's handles: each write gives a new one) -----
def _element_shape(n, const, hint="element_shape"):
    shape = n.attrs.get("element_shape")
    if shape is None:
        return _int(const, hint, -1)  # unknown rank
    return _int(const, hint, [-1 if d is None else int(d) for d in shape])


def _list_attrs(n):
    return {"element_dtype": p.attr_type(n.attrs["dtype"])}


def _ta_new(n, const):
    return "TensorListReserve", [_element_shape(n, const), n.refs[0]], \
        {**_list_attrs(n), "shape_type": p.attr_type(dtypes.int32)}


def _ta_write(n, const):
    return "TensorListSetItem", n.refs, {**_list_attrs(n), "resize_if_index_out_of_bounds":
                                         p.attr(bool(n.attrs.get("dynamic_size")))}


def _ta_read(n, const):
    return "TensorListGetItem", [n.refs[0], n.refs[1], _element_shape(n, const)], _list_attrs(n)


def _ta_stack(n, const):
    return "TensorListStack", [n.refs[0], _element_shape(n, const)], \
        {**_list_attrs(n), "num_elements": p.attr(int(n.attrs.get("num_elements") or -1))}


def _ta_gather(n, const):
    return "TensorListGather", [n.refs[0], n.refs[1], _element_shape(n, const)], _list_attrs(n)


def _ta_concat(n, const):
    leading = const("leading_dims", np.zeros((0,), np.int64), dtypes.int64)
    return "TensorListConcatV2", [n.refs[0], _element_shape(n, const), leading], \
        {**_list_attrs(n), "shape_type": p.attr_type(dtypes.int32)}


def _ta_unstack(n, const):  # (handle, value): a new list of value's rows, as TF's TensorArray.unstack
    return "TensorListFromTensor", [n.refs[1], _element_shape(n, const)], \
        {**_list_attrs(n), "shape_type": p.attr_type(dtypes.int32)}


def _ta_scatter(n, const):  # (handle, indices, value)
    return "TensorListScatterIntoExistingList", [n.refs[0], n.refs[2], n.refs[1]], _list_attrs(n)


def _ta_size(n, const):
    return "TensorListLength", n.refs, {}


TENSOR_ARRAY_RULES = {"tensor_array_new": _ta_new, "tensor_array_write": _ta_write, "tensor_array_read": _ta_read,
                      "tensor_array_stack": _ta_stack, "tensor_array_gather": _ta_gather,
                      "tensor_array_concat": _ta_concat, "tensor_array_unstack": _ta_unstack,
                      "tensor_array_scatter": _ta_scatter, "tensor_array_size": _ta_size}


def _print(n, const):
    """tf.print: StringFormat of the message's parts (its tensors as placeholders), then PrintV2, as TF writes it;
    a lone string scalar is printed as it is."""
    from tinytf.runtime.ops.io import _BARE_STRING, _TENSOR

    template, stream = n.attrs["template"], n.attrs["stream"]
    if not isinstance(stream, str):
        raise NotImplementedError("tf.print to a Python object (TF prints to sys.stdout, sys.stderr or 'file://...')")
    if len(template) == 1 and template[0] is _BARE_STRING:
        message = n.refs[0]
    else:
        literals = [str(item) for item in template if item is not _TENSOR and item is not _BARE_STRING]
        placeholder = "{}" if not any("{}" in text for text in literals) else "{tinytf}"
        text = n.attrs.get("sep", " ").join(placeholder if item is _TENSOR or item is _BARE_STRING else str(item)
                                            for item in template)
        message = const.node("StringFormat", "StringFormat", n.refs, {
            "T": p.attr_types([t.dtype for t in n.inputs]), "template": p.attr(text),
            "placeholder": p.attr(placeholder), "summarize": p.attr(int(n.attrs.get("summarize", 3)))})
    return "PrintV2", [message], {"output_stream": p.attr(stream), "end": p.attr(n.attrs.get("end", "\n"))}


RULES = {
    **{op: _same_t(tf_op) for op, tf_op in _SAME_T.items()},
    "real": _complex_part("Real"), "imag": _complex_part("Imag"), "angle": _complex_part("Angle"),
    "complex": _complex, "check_numerics": _check_numerics,
    "matrix_inverse": _adjoint("MatrixInverse"), "matrix_solve": _adjoint("MatrixSolve"),
    "log_sigmoid": _log_sigmoid, "silu": _silu, "logical_xor": _logical_xor, "reciprocal_no_nan": _reciprocal_no_nan,
    "sigmoid_cross_entropy_with_logits": _sigmoid_ce, "softmax_cross_entropy_with_logits": _softmax_ce,
    "sparse_softmax_cross_entropy_with_logits": _sparse_softmax_ce,
    "sparse_softmax_cross_entropy_backprop": _sparse_softmax_ce_backprop,
    "reduce_euclidean_norm": _euclidean_norm, "reduce_logsumexp": _logsumexp,
    "reduce_variance": lambda n, const: _variance(n, const, False),
    "reduce_std": lambda n, const: _variance(n, const, True), "count_nonzero": _count_nonzero, "norm": _norm,
    "cumsum": _scan("Cumsum"), "cumprod": _scan("Cumprod"), "trace": _trace,
    "gather": _gather, "gather_nd": _gather_nd, "gather_grad": _gather_grad, "gather_nd_grad": _gather_nd_grad,
    "one_hot": _one_hot,
    "one_hot_dynamic": _one_hot_dynamic, "pad": _pad, "pad_dynamic": _pad_dynamic,
    "mirror_pad_dynamic": _mirror_pad_dynamic, "mirror_pad_grad": _mirror_pad_grad,
    "mirror_pad_grad_dynamic": _mirror_pad_grad_dynamic, "slice": _slice, "slice_dynamic": _slice_dynamic,
    "broadcast_to": _broadcast_to, "broadcast_to_dynamic": _with_shape_input("BroadcastTo"),
    "tile_dynamic": _with_shape_input("Tile", "Tmultiples"), "fill_dynamic": _fill_dynamic,
    "eye_dynamic": _eye_dynamic, "matrix_diag": _matrix_diag, "matrix_diag_part": _matrix_diag_part,
    "matrix_transpose": _matrix_transpose, "matvec": _matvec, "reverse": _reverse, "top_k": _top_k,
    "in_top_k": _in_top_k, "einsum": _einsum, "unstack": _unstack, "split": _split, "where": _where,
    "linspace": _linspace, "boolean_mask": _boolean_mask, "var_is_initialized": _var_is_initialized,
    "searchsorted": _searchsorted, "unique": _unique, "tensor_scatter_nd": _tensor_scatter_nd,
    "segment_reduction": _segment, "unsorted_segment_reduction": _unsorted_segment, "tensordot": _tensordot,
    "conv2d_backprop_input": _conv_backprop_input, "conv2d_backprop_filter": _conv_backprop_filter,
    "depthwise_conv2d": _depthwise, "depthwise_conv2d_backprop_input": _depthwise_backprop_input,
    "depthwise_conv2d_backprop_filter": _depthwise_backprop_filter,
    "max_pool2d_grad": _max_pool_grad, "max_pool2d_relu_grad": _max_pool_relu_grad, "conv2d_epilogue": _conv_epilogue,
    "dropout_select": _dropout_select,
    "avg_pool2d_grad": _avg_pool_grad,
    "as_string": _as_string, "regex_full_match": _regex_full_match, "regex_replace": _regex_replace,
    "string_join": _string_join, "string_length": _string_unit("StringLength"),
    "string_lower": _string_case("StringLower"), "string_upper": _string_case("StringUpper"),
    "string_strip": lambda n, const: ("StringStrip", n.refs, {}), "string_to_number": _string_to_number,
    "substr": _substr, "reduce_join": _reduce_join, "unsorted_segment_join": _unsorted_segment_join,
    "string_format": _string_format,
    "stateless_random_float": _stateless_float, "stateless_random_int": _stateless_int,
    "stateless_random_full_int": _stateless_full_int,
    "py_function": _py_function, "numpy_function": _numpy_function, "print": _print, **TENSOR_ARRAY_RULES,
    "random_uniform": _random("RandomUniform"), "random_standard_normal": _random("RandomStandardNormal"),
    "truncated_normal": _random("TruncatedNormal"), "random_uniform_int": _random_uniform_int,
    "random_shuffle": _random_shuffle,
}

# Ops with no export rule, and why. Export raises NotImplementedError with the reason. (placeholder, const,
# cond, while_loop and fused blocks are written by the exporter itself, export.py.)
UNEXPORTED = {
    **{name: "made by the conv_backprop_pair pass for a conv in the frequency domain (its input and filter "
       "gradients in one kernel, the input's spectrum they share with the forward conv): optimizer-internal, "
       "graphs are exported as traced (TF writes Conv2D, Conv2DBackpropInput and Conv2DBackpropFilter)"
       for name in ("conv2d_backprop_input_filter", "conv2d_input_spectrum", "conv2d_epilogue_spectral")},
    "conv2d_epilogue_pooled": "made by the conv_epilogue pass in a training step (a conv's epilogue output kept "
    "whole and pooled in the same kernel): optimizer-internal, graphs are exported as traced (TF writes Conv2D, "
    "BiasAdd, Relu and MaxPool)",
    "max_pool2d_relu_grad_filter": "made by the pool_filter_gradient pass (a first conv's relu + pool gradient, "
    "filter gradient and bias gradient per chunk of images): optimizer-internal, graphs are exported as traced (TF "
    "writes MaxPoolGrad, Greater, Cast, Mul, Conv2DBackpropFilter and Sum)",
    "conv2d_and_filter_grad": "made by the conv_transpose_backprop pass (a conv2d and a filter gradient of the same "
    "input, conv2d_transpose's two gradients, on one window matrix): optimizer-internal, graphs are exported as "
    "traced (TF writes Conv2D and Conv2DBackpropFilter)",
    **{name: "an accumulator of the loop_accumulation pass (operands kept by reference, run as a few large "
       "GEMMs after the loop): optimizer-internal, and no TF op keeps Python references"
       for name in ("loop_accumulator", "accumulate_matmul", "accumulate_sum", "accumulated_matmul",
                    "accumulated_sum")},
    **{name: "a gradient stack of the loop_saved_slabs pass (a forward loop's saved values in rows of buffers kept "
       "across calls): optimizer-internal; TF writes its accumulators as TensorLists"
       for name in ("gradient_slab_stack", "gradient_slab_push")},
    **{name: "a block of input projections of the recurrent_projection pass (steps projected by one GEMM, kept "
       "in a Python object for the loop's next steps): optimizer-internal; TF writes StridedSlice and MatMul"
       for name in ("loop_projection", "project_step")},
    **{name: "a rule of the simplification pass for the sum of a TensorArray's stack and its gradient "
       "(runtime/passes/stacked_reductions.py): optimizer-internal; TF writes TensorListStack and Sum"
       for name in ("tensor_array_sum", "gradient_list_fill")},
    "cross_hashed": "the dense, one-value-a-row case of TF's SparseCrossHashed (Keras' HashedCrossing); TF's op "
                    "takes sparse and dense lists with sparse outputs: not written",
    "dataset_bind": "a tf.data pipeline over Python sources bound to graph tensors: no dataset graph exists to "
                    "export",
    "dataset_cardinality": "the cardinality of a tf.data pipeline over Python sources bound to graph tensors: no "
                           "dataset graph exists to export",
    "parse_sequence_example": "tinytf's parse_sequence_example attributes differ from ParseSequenceExampleV2's; "
                              "not written",
    **{name: "a draw of tf.random.Generator at a state value; TF draws through RngReadAndSkip on the state's "
       "resource and the stateless V2 ops, a different split of the same work: not written"
       for name in ("generator_random_float", "generator_random_int", "generator_random_full_int",
                    "generator_advance")},
    **{f"gradient_list_{name}": "the gradient of a TensorArray split or concat (element gradients by the forward "
       "elements' row counts): no TF form is written for it yet (the other gradient-list ops are: "
       "rules_tensor_list.py)"
       for name in ("split", "concat")},
    **{name: "a tf.data iterator over a Python source: no dataset graph exists to export"
       for name in ("iterator_new", "iterator_get_next", "iterator_get_next_optional", "iterator_has_next")},
    "merge_call": "a cross-replica rendezvous of tf.distribute's thread replicas: no TF graph op",
    "py_function_grad": "reads the tape a py_function call kept in this process: no TF op",
    "python_print": "Python's print, run by AutoGraph's graph print: no TF op (tf.print is PrintV2)",
    "write_summary": "summary writes hold the writer in the op, not as TF's resource input",
    "assert": "tinytf's Assert attributes (message parts) differ from TF's Assert(condition, data); not written",
    "dropout_keep": "a stateful random stream object; TF's dropout is RandomUniform + GreaterEqual, not written",
    "strided_slice_assign": "assigns into a variable's slice: TF's ResourceStridedSliceAssign, not written",
    "sort": "TF writes sort as TopKV2 over negated values with transposes; not written",
    "argsort": "TF writes argsort as TopKV2 over negated values with transposes; not written",
    "bincount": "TF's bincount is a composite of Max, Maximum and DenseBincount; not written",
    "confusion_matrix": "TF's confusion_matrix is a composite of ScatterNd and casts; not written",
    "boolean_mask_grad": "the gradient of boolean_mask (a scatter to the mask's positions); not written",
    "take_along_axis": "TF has no op; its Python composite builds GatherNd indices; not written",
    "scatter_along_axis": "the gradient of take_along_axis; no TF op",
    "max_pool2d_take": "tinytf's max-pool gradient helper (the values at the argmax); TF's MaxPoolGradGrad "
                       "has other inputs",
    "spectral_norm_direction": "tinytf's helper of the spectral norm's gradient (an SVD direction); no TF op",
    "spectral_norm_direction_grad": "the gradient of spectral_norm_direction; no TF op",
    "histogram_fixed_width": "TF's HistogramFixedWidth takes nbins as an input; not written",
    "decode_csv": "tinytf's DecodeCSV record_defaults layout differs; not written",
    "parse_example": "tinytf's parse_example attributes differ from ParseExampleV2's; not written",
    "string_split": "returns a RaggedTensor's parts; TF's StringSplitV2 returns a SparseTensor's",
    "bytes_split": "returns a RaggedTensor's parts; TF's UnicodeDecode-based split differs",
    "ragged_from_dense": "a RaggedTensor's parts: TF writes RaggedTensorFromVariant/ragged ops; not written",
    "ragged_to_dense": "a RaggedTensor's parts: TF's RaggedTensorToTensor takes row partition types; not written",
    "sparse_add": "TF's SparseAdd has a threshold input and other outputs; not written",
    "sparse_add_grad": "the gradient of sparse_add; not written",
    "sparse_reorder_permutation": "tinytf's helper of sparse.reorder (a permutation); no TF op",
    "sparse_to_dense": "TF's SparseToDense input order and validate_indices differ; not written",
    "image_projective_transform_v3": "TF's ImageProjectiveTransformV3 is its form, but no export rule is "
                                     "written and checked in TF yet",
    "decode_png": "TF's DecodePng is its form, but no export rule is written and checked in TF yet",
    **{name: f"TF's {form} is its form, but no export rule is written and checked in TF yet"
       for name, form in (("decode_jpeg", "DecodeJpeg"), ("decode_and_crop_jpeg", "DecodeAndCropJpeg"),
                          ("decode_gif", "DecodeGif"), ("decode_bmp", "DecodeBmp"), ("decode_image", "DecodeImageV2"),
                          ("encode_jpeg", "EncodeJpeg"), ("encode_jpeg_variable_quality", "EncodeJpegVariableQuality"),
                          ("extract_jpeg_shape", "ExtractJpegShape"),
                          ("uniform_candidate_sampler", "UniformCandidateSampler"),
                          ("log_uniform_candidate_sampler", "LogUniformCandidateSampler"),
                          ("all_candidate_sampler", "AllCandidateSampler"),
                          ("compute_accidental_hits", "ComputeAccidentalHits"))},
    "encode_png": "TF's EncodePng is its form, but no export rule is written and checked in TF yet",
    "image_projective_transform_grad": "the exact adjoint of image_projective_transform_v3's sampling: TF has no "
                                       "such op (its own gradient reruns the transform with the inverse matrix)",
    **{op: f"TF's {tf_op} is its form, but no export rule is written and checked in TF yet"
       for op, tf_op in (("self_adjoint_eig", "SelfAdjointEigV2"), ("eig", "Eig"), ("qr", "Qr"), ("svd", "Svd"),
                         ("matrix_triangular_solve", "MatrixTriangularSolve"), ("lu", "Lu"),
                         ("matrix_square_root", "MatrixSquareRoot"), ("matrix_logarithm", "MatrixLogarithm"))},
    # tf.image's kernels (helper imageops)
    **{op: f"TF's {tf_op} is its form, but no export rule is written and checked in TF yet"
       for op, tf_op in (("scale_and_translate", "ScaleAndTranslate"),
                         ("scale_and_translate_grad", "ScaleAndTranslateGrad"), ("resize_bicubic", "ResizeBicubic"),
                         ("resize_bicubic_grad", "ResizeBicubicGrad"), ("resize_area", "ResizeArea"),
                         ("crop_and_resize", "CropAndResize"), ("crop_and_resize_grad_image", "CropAndResizeGradImage"),
                         ("crop_and_resize_grad_boxes", "CropAndResizeGradBoxes"),
                         ("extract_image_patches", "ExtractImagePatches"), ("extract_glimpse", "ExtractGlimpseV2"),
                         ("draw_bounding_boxes", "DrawBoundingBoxesV2"),
                         ("non_max_suppression_v3", "NonMaxSuppressionV3"),
                         ("non_max_suppression_v5", "NonMaxSuppressionV5"),
                         ("non_max_suppression_with_overlaps", "NonMaxSuppressionWithOverlaps"),
                         ("combined_non_max_suppression", "CombinedNonMaxSuppression"),
                         ("sample_distorted_bounding_box", "SampleDistortedBoundingBoxV2"),
                         ("stateless_sample_distorted_bounding_box", "StatelessSampleDistortedBoundingBox"))},
    "extract_image_patches_grad": "the exact adjoint of extract_image_patches: TF has no such op (its gradient is "
                                  "a composite of other ops)",
    "non_max_suppression_padded": "TF2's non_max_suppression_padded is Python over many TF ops (a while loop of "
                                  "tiles), not one op; no export rule is written",
}

# The TF op each rule's node is (the last node of a composite), for the readable TensorBoard graph
# (display.py), which names nodes without building the composites.
TF_NAMES = {
    **_SAME_T, "real": "Real", "imag": "Imag", "angle": "Angle", "complex": "Complex",
    "check_numerics": "CheckNumerics", "matrix_inverse": "MatrixInverse", "matrix_solve": "MatrixSolve",
    "log_sigmoid": "Neg", "silu": "Mul", "logical_xor": "LogicalAnd", "reciprocal_no_nan": "DivNoNan",
    "sigmoid_cross_entropy_with_logits": "AddV2", "softmax_cross_entropy_with_logits": "SoftmaxCrossEntropyWithLogits",
    "sparse_softmax_cross_entropy_with_logits": "SparseSoftmaxCrossEntropyWithLogits",
    "sparse_softmax_cross_entropy_backprop": "Identity", "reduce_euclidean_norm": "EuclideanNorm",
    "reduce_logsumexp": "Squeeze", "reduce_variance": "Mean", "reduce_std": "Sqrt", "count_nonzero": "Sum",
    "norm": "Sqrt", "cumsum": "Cumsum", "cumprod": "Cumprod", "trace": "Sum", "gather": "GatherV2",
    "gather_nd": "GatherNd", "gather_grad": "UnsortedSegmentSum", "gather_nd_grad": "ScatterNd", "one_hot": "OneHot",
    "one_hot_dynamic": "OneHot", "pad": "PadV2", "pad_dynamic": "PadV2", "mirror_pad_dynamic": "MirrorPad",
    "mirror_pad_grad": "MirrorPadGrad", "mirror_pad_grad_dynamic": "MirrorPadGrad", "slice": "Slice",
    "slice_dynamic": "Slice", "broadcast_to": "BroadcastTo", "broadcast_to_dynamic": "BroadcastTo",
    "tile_dynamic": "Tile", "fill_dynamic": "Fill", "eye_dynamic": "MatrixDiagV3", "matrix_diag": "MatrixDiagV3",
    "matrix_diag_part": "MatrixDiagPartV3", "matrix_transpose": "Transpose", "matvec": "Squeeze",
    "reverse": "ReverseV2", "top_k": "TopKV2", "in_top_k": "InTopKV2", "einsum": "Einsum", "unstack": "Unpack",
    "split": "SplitV", "where": "Where", "linspace": "LinSpace", "searchsorted": "LowerBound", "unique": "Unique",
    "tensor_scatter_nd": "TensorScatterUpdate", "segment_reduction": "SegmentSum",
    "unsorted_segment_reduction": "UnsortedSegmentSum", "tensordot": "Reshape",
    "conv2d_backprop_input": "Conv2DBackpropInput", "conv2d_backprop_filter": "Conv2DBackpropFilter",
    "depthwise_conv2d": "DepthwiseConv2dNative",
    "depthwise_conv2d_backprop_input": "DepthwiseConv2dNativeBackpropInput",
    "depthwise_conv2d_backprop_filter": "DepthwiseConv2dNativeBackpropFilter",
    "max_pool2d_grad": "MaxPoolGrad", "max_pool2d_relu_grad": "Mul", "conv2d_epilogue": "MaxPool",
    "dropout_select": "SelectV2",
    "avg_pool2d_grad": "AvgPoolGrad", "strided_slice_grad": "StridedSliceGrad",
    "as_string": "AsString", "regex_full_match": "RegexFullMatch", "regex_replace": "RegexReplace",
    "string_join": "StringJoin", "string_length": "StringLength", "string_lower": "StringLower",
    "string_upper": "StringUpper", "string_strip": "StringStrip", "string_to_number": "StringToNumber",
    "substr": "Substr", "reduce_join": "ReduceJoin", "unsorted_segment_join": "UnsortedSegmentJoin",
    "string_format": "StringFormat", "stateless_random_float": "StatelessRandomUniformV2",
    "stateless_random_int": "StatelessRandomUniformIntV2",
    "stateless_random_full_int": "StatelessRandomUniformFullIntV2",
    "py_function": "EagerPyFunc", "numpy_function": "PyFunc", "print": "PrintV2", "sum_to_like": "Reshape",
    "broadcast_reduced": "BroadcastTo", "reshape_like": "Reshape", "broadcast_to_like": "BroadcastTo",
    "fill_like": "Fill", "tensor_array_new": "TensorListReserve", "tensor_array_write": "TensorListSetItem",
    "tensor_array_read": "TensorListGetItem", "tensor_array_stack": "TensorListStack",
    "tensor_array_gather": "TensorListGather", "tensor_array_concat": "TensorListConcatV2",
    "tensor_array_unstack": "TensorListFromTensor", "tensor_array_scatter": "TensorListScatterIntoExistingList",
    "tensor_array_size": "TensorListLength", "random_uniform": "RandomUniform",
    "random_standard_normal": "RandomStandardNormal", "truncated_normal": "TruncatedNormal",
    "random_uniform_int": "RandomUniformInt", "random_shuffle": "RandomShuffle",
}

# The core-API names' rules live in their own module (one table per slice of ops, merged here).
from .rules_core_api import RULES as _CORE_API_RULES  # noqa: E402
from .rules_core_api import TF_NAMES as _CORE_API_TF_NAMES  # noqa: E402
from .rules_core_api import UNEXPORTED as _CORE_API_UNEXPORTED  # noqa: E402
from .rules_random_distributions import UNEXPORTED_RANDOM_DISTRIBUTIONS  # noqa: E402

RULES.update(_CORE_API_RULES)
TF_NAMES.update(_CORE_API_TF_NAMES)
UNEXPORTED.update(_CORE_API_UNEXPORTED)
UNEXPORTED.update(UNEXPORTED_RANDOM_DISTRIBUTIONS)

# TF's TensorList ops and the stacks of while-loop gradients (as TF's accumulators)
from .rules_tensor_list import RULES as _TENSOR_LIST_RULES  # noqa: E402
from .rules_tensor_list import TF_NAMES as _TENSOR_LIST_TF_NAMES  # noqa: E402

RULES.update(_TENSOR_LIST_RULES)
TF_NAMES.update(_TENSOR_LIST_TF_NAMES)

# tf.signal's Fourier transforms have their own table too.
from .rules_signal import RULES as _SIGNAL_RULES  # noqa: E402
from .rules_signal import TF_NAMES as _SIGNAL_TF_NAMES  # noqa: E402
from .rules_signal import UNEXPORTED as _SIGNAL_UNEXPORTED  # noqa: E402

RULES.update(_SIGNAL_RULES)
TF_NAMES.update(_SIGNAL_TF_NAMES)
UNEXPORTED.update(_SIGNAL_UNEXPORTED)

# The nn / sparse / ragged leftovers' ops: not exported yet (the reasons are in that module).
from .rules_nn_sparse import UNEXPORTED_NN_SPARSE  # noqa: E402

UNEXPORTED.update(UNEXPORTED_NN_SPARSE)

# TF1's queues and CountUpTo (tf.queue, TF1 input pipelines)
from .rules_queue import RULES as _QUEUE_RULES  # noqa: E402
from .rules_queue import TF_NAMES as _QUEUE_TF_NAMES  # noqa: E402

RULES.update(_QUEUE_RULES)
TF_NAMES.update(_QUEUE_TF_NAMES)

# The tf.strings / tf.math / tf.io leftovers' ops (strmath): not exported yet (the reasons are in that module).
from .rules_strmath import UNEXPORTED_STRMATH  # noqa: E402

UNEXPORTED.update(UNEXPORTED_STRMATH)

# The top level's leftovers and tf.quantization's fake quantization (helper toplvl)
from .rules_toplevel import RULES as _TOPLEVEL_RULES  # noqa: E402
from .rules_toplevel import TF_NAMES as _TOPLEVEL_TF_NAMES  # noqa: E402
from .rules_toplevel import UNEXPORTED as _TOPLEVEL_UNEXPORTED  # noqa: E402

RULES.update(_TOPLEVEL_RULES)
TF_NAMES.update(_TOPLEVEL_TF_NAMES)
UNEXPORTED.update(_TOPLEVEL_UNEXPORTED)

# tf.lookup's table ops (helper savetab: tables in SavedModels)
from .rules_lookup import RULES as _LOOKUP_RULES  # noqa: E402
from .rules_lookup import TF_NAMES as _LOOKUP_TF_NAMES  # noqa: E402

RULES.update(_LOOKUP_RULES)
TF_NAMES.update(_LOOKUP_TF_NAMES)

# TF1's session extras (helper v1more): their resource is a Python object of the TF1 graph (the session-tensor
# store, an accumulator) that the exporter has no node for; graphs holding them are run by tinytf's Session
UNEXPORTED.update({
    **{name: "TF's GetSessionHandleV2 / GetSessionTensor / DeleteSessionTensor: the per-Session store they use is "
       "tinytf's own resource (tinytf/compat/v1/session_tensors.py); not written"
       for name in ("get_session_handle", "get_session_tensor", "delete_session_tensor")},
    **{name: "TF's ResourceAccumulator* / SparseAccumulator* ops on a ConditionalAccumulator resource the exporter "
       "does not write (tinytf/compat/v1/accumulators.py); not written"
       for name in ("accumulator_apply_gradient", "sparse_accumulator_apply_gradient", "accumulator_take_gradient",
                    "sparse_accumulator_take_gradient", "accumulator_num_accumulated",
                    "accumulator_set_global_step")},
})

# this sitting's new ops (helpers stensor, gapsa, cnn5): no export rule written yet
UNEXPORTED.update({
    "decode_proto": "TF's DecodeProtoV2 (its descriptor_source attribute): export rule not written yet",
    "encode_proto": "TF's EncodeProto (its descriptor_source attribute): export rule not written yet",
    "decode_webp": "TF's DecodeWebP: export rule not written yet",
    "decode_jxl": "TF 2.21's CPU build has no JPEG XL kernel to check an export against",
    "stateless_shuffle": "TF's StatelessShuffle (key, counter, alg inputs): export rule not written yet",
    "sum_of_squares": "made by a tinytf pass after the graph TF would see; an exported graph holds "
                      "reduce_sum(square(x)) only if exported before the passes: export rule not written yet",
})
