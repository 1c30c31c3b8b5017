"""Array ops: creation, reshaping, joining and splitting, transposing, padding, tiling."""

from __future__ import annotations

import builtins
import math as _math

import numpy as np

from .. import dtypes, naming, shapes
from ..context import state
from ..dispatch import apply, convert_inputs, convert_to_tensor, to_numpy
from ..errors import InvalidArgumentError, at_user_line
from ..graph import SymbolicTensor
from ..registry import OpDef, register
from ..tensor import Tensor
from . import array_dynamic as _dynamic  # the twins whose shape-like argument is known only at run time
from .common import as_int_tuple, check_mirror_padding, normalize_axis, require, same_dtype
from .core import identity_op, stack_op
from .math import cast, equal, logical_and, maximum
from .select import select_op
from .shape_args import scalar_arg, shape_arg
from .static_value import constant_value, shape_op

# tf.range and tf.slice below shadow the builtins in this module; internal code uses these
_py_range = builtins.range


def _with_known_values(value, what):
    """Nested lists whose symbolic elements have known values, with those values substituted."""
    if isinstance(value, (list, tuple)):
        return [_with_known_values(v, what) for v in value]
    if isinstance(value, SymbolicTensor):
        static = constant_value(value)
        if static is None:
            raise TypeError(f"{what} must be known when the function is traced, but it depends on the symbolic "
                            f"tensor {value.name}; pass a Python value or a constant")
        return static
    return value


def known_array(value, what: str) -> np.ndarray:
    """An integer attribute given as a Python value or a tensor, as a numpy array of Python-sized ints.
    Symbolic tensors are accepted only when their value is known at trace time."""
    value = _with_known_values(value, what)
    try:
        array = np.asarray(value)
    except (TypeError, NotImplementedError) as e:
        raise TypeError(f"{what} must be known when the function is traced: {e}") from None
    if array.dtype.kind not in "iu" and not (array.size == 0 and array.dtype.kind == "f"):
        raise TypeError(f"{what} must be integers, got {value!r}")
    return array.astype(np.int64)


def known_ints(value, what: str):
    """A static int (for a scalar) or tuple of ints (for a vector), see known_array."""
    array = known_array(value, what)
    if array.ndim == 0:
        return int(array)
    if array.ndim != 1:
        raise ValueError(f"{what} must be a scalar or a vector, got shape {array.shape}")
    return tuple(int(v) for v in array)


def _axis_attr(axis, what="axis"):
    """An axis argument (int, list or tensor) as an int or a tuple of ints."""
    return None if axis is None else known_ints(axis, what)


# --- creation --------------------------------------------------------------------------------------
def _fill_kernel(value, *, shape):
    if not shape:
        return value
    return np.full(shape, value, dtype=value.dtype)


def _infer_fill(value, *, shape):
    if value._shape not in ((), None):
        raise ValueError(f"the fill value must be a scalar, got shape {shapes.fmt(value._shape)}")
    return value.dtype, shape


fill_op = register(OpDef("fill", _fill_kernel, _infer_fill, render=None,
                         doc="a tensor of a static shape filled with one value"))


def fill(dims, value, name=None):
    """`tf.fill`: dims may be a list, a TensorShape, or (in graphs) a tensor or a list holding scalar tensors."""
    shape = shape_arg(dims, "tf.fill: dims")
    if isinstance(shape, Tensor):
        return _dynamic.fill(shape, convert_to_tensor(value))
    if isinstance(shape, shapes.TensorShape) or any(d is None or d < 0 for d in shape):
        raise ValueError(f"tf.fill: dims must be non-negative and known, got {as_int_tuple(dims)}")
    return apply(fill_op, (convert_to_tensor(value),), {"shape": shape}, name=name)


def _zero(dtype):
    """The zero of `dtype` as a numpy value; for strings the empty string (TF's zeros of tf.string)."""
    return np.array(b"", dtype=object) if dtype.is_string else np.zeros((), dtype.np)[()]


def _one(dtype):
    if dtype.is_string:
        raise InvalidArgumentError(at_user_line("Value for attr 'T' of string is not in the list of allowed "
                                                "values: ones and ones_like are defined for numbers and bools"))
    return np.ones((), dtype.np)[()]


def zeros(shape, dtype=dtypes.float32, name=None):
    dtype = dtypes.as_dtype(dtype)
    if state.graph is not None:
        return _filled_in_graph(shape, _zero(dtype), dtype, name, "zeros")
    return fill(shape, convert_to_tensor(_zero(dtype)))


def ones(shape, dtype=dtypes.float32, name=None):
    dtype = dtypes.as_dtype(dtype)
    if state.graph is not None:
        return _filled_in_graph(shape, _one(dtype), dtype, name, "ones")
    return fill(shape, convert_to_tensor(_one(dtype)))


def _filled_in_graph(shape, value, dtype, name, default):
    """tf.zeros / tf.ones in a graph, as TF builds them: a static shape of fewer than 1000 elements is one
    constant named `zeros`; else a Fill named so, of a `zeros/Const` value."""
    with naming.op_scope(state.graph, name, default) as scope:
        if isinstance(shape, shapes.TensorShape) and shape.is_fully_defined():
            shape = shape.as_list()
        if (isinstance(shape, (list, tuple)) and all(type(d) is int and d >= 0 for d in shape)
                and _math.prod(shape) < 1000):
            return convert_to_tensor(np.full(tuple(shape), value, dtype=object if dtype.is_string else dtype.np),
                                     dtype, name=scope)
        return fill(shape, convert_to_tensor(value, dtype, name="Const"), name=scope)


def _like(x, value_of, dtype):
    x = convert_to_tensor(x)
    dtype = x.dtype if dtype is None else dtypes.as_dtype(dtype)
    if x._shape is not None and None not in x._shape:
        return fill(x._shape, convert_to_tensor(value_of(dtype)))
    return apply(fill_like_op, (x, convert_to_tensor(value_of(dtype))), {})


def _fill_like_kernel(x, value):
    return np.full(np.shape(x), value, dtype=value.dtype) if np.ndim(x) else value


fill_like_op = register(OpDef("fill_like", _fill_like_kernel, lambda x, value: (value.dtype, x._shape),
                              differentiable=False, doc="a tensor shaped like x filled with one value"))


def zeros_like(x, dtype=None, name=None):
    return _like(x, _zero, dtype)


def ones_like(x, dtype=None, name=None):
    return _like(x, _one, dtype)


# --- shape manipulation --------------------------------------------------------------------------------
def _infer_reshape(x, *, shape):
    known = shapes.num_elements(x._shape)
    if shape.count(-1) > 1:
        raise ValueError(f"only one dimension of the new shape may be -1, got {list(shape)}")
    if -1 in shape:
        rest = 1
        for d in shape:
            if d != -1:
                rest *= d
        if known is None:
            return x.dtype, tuple(None if d == -1 else d for d in shape)
        if rest == 0 or known % rest:
            raise ValueError(f"Input to reshape is a tensor with {known} values, but the requested shape requires a "
                             f"multiple of {rest}")
        return x.dtype, tuple(known // rest if d == -1 else d for d in shape)
    if known is not None and known != shapes.num_elements(shape):
        raise ValueError(f"Input to reshape is a tensor with {known} values, but the requested shape has "
                         f"{shapes.num_elements(shape)}")
    return x.dtype, shape


def _reshape_kernel(x, *, shape):
    return np.reshape(x, shape)


reshape_op = register(OpDef("reshape", _reshape_kernel, _infer_reshape, render="np.reshape({0}, {shape})"))


def reshape(tensor, shape, name=None):
    """`tf.reshape`: shape may be a list (one -1 is inferred) or, in graphs, a tensor or a list of scalar tensors."""
    target = shape_arg(shape, "tf.reshape: shape")
    if isinstance(target, Tensor):
        return _dynamic.reshape(convert_to_tensor(tensor), target)
    if isinstance(target, shapes.TensorShape) or None in target:
        raise ValueError(f"tf.reshape: the shape must be fully defined, got {shape}")
    return apply(reshape_op, (convert_to_tensor(tensor),), {"shape": target}, name=name)


def identity(x, name=None):
    return apply(identity_op, (convert_to_tensor(x),), name=name)


def stack(values, axis=0, name=None):
    tensors = [convert_to_tensor(v) for v in values]
    if not tensors:
        raise ValueError("tf.stack needs at least one value")
    if any(t.dtype is not tensors[0].dtype for t in tensors):
        tensors = convert_inputs(list(values), True)
    return apply(stack_op, tensors, {"axis": axis}, name=name)


def shape(x, out_type=dtypes.int32, name=None):
    """`tf.shape`: the dynamic shape as an int32 tensor."""
    return apply(shape_op, (convert_to_tensor(x),), {"out_type": dtypes.as_dtype(out_type)}, name=name)


# --- sequences: range, linspace --------------------------------------------------------------------
_RANGE_DTYPES = (dtypes.int32, dtypes.int64, dtypes.float16, dtypes.float32, dtypes.float64)


def _range_length(start, limit, delta) -> int:
    """The number of elements of range(start, limit, delta), with TensorFlow's checks."""
    if delta == 0:
        raise InvalidArgumentError(f"delta must not be zero (start={start}, limit={limit})")
    if delta > 0 and start > limit:
        raise InvalidArgumentError(f"requires start <= limit when delta > 0, got start={start}, limit={limit}")
    if delta < 0 and start < limit:
        raise InvalidArgumentError(f"requires start >= limit when delta < 0, got start={start}, limit={limit}")
    if isinstance(start, (int, np.integer)) and isinstance(limit, (int, np.integer)) \
            and isinstance(delta, (int, np.integer)):
        return -((int(start) - int(limit)) // int(delta))
    return int(_math.ceil((float(limit) - float(start)) / float(delta)))


def _range_kernel(start, limit, delta, *, dtype):
    _range_length(start, limit, delta)
    return np.arange(start, limit, delta, dtype=dtype.np)


def _infer_range(start, limit, delta, *, dtype):
    require(dtype, "numeric", "range")
    for what, t in (("start", start), ("limit", limit), ("delta", delta)):
        if t._shape not in ((), None):
            raise ValueError(f"{what} must be a scalar, got shape {shapes.fmt(t._shape)}")
        if t.dtype is not dtype:
            raise TypeError(f"{what} has dtype {t.dtype.name} but the range has dtype {dtype.name}")
    values = [constant_value(t) for t in (start, limit, delta)]
    if any(v is None for v in values):
        return dtype, (None,)
    return dtype, (_range_length(*values),)


# inputs are tensors, so a symbolic limit works in graphs and AutoGraph can read a loop's bounds from the node
range_op = register(OpDef("range", _range_kernel, _infer_range, differentiable=False,
                          doc="the sequence start, start + delta, ... up to (not including) limit"))


def range(start, limit=None, delta=1, dtype=None, name="range"):
    """`tf.range(limit)` or `tf.range(start, limit, delta, dtype)`: int32 for ints, float32 for floats,
    else the widest dtype of the arguments (int32 < int64 < float16 < float32 < float64)."""
    if limit is None:
        start, limit = 0, start
    args = [convert_to_tensor(x) if hasattr(x, "_to_tensor") else x for x in (start, limit, delta)]
    if dtype is None:
        found = [x.dtype if isinstance(x, Tensor) else to_numpy(x)[1] for x in args]
        for d in found:
            if d not in _RANGE_DTYPES:
                raise TypeError(f"tf.range: unsupported dtype {d.name} (expected one of "
                                f"{', '.join(t.name for t in _RANGE_DTYPES)})")
        dtype = max(found, key=_RANGE_DTYPES.index)
    else:
        dtype = dtypes.as_dtype(dtype)
    tensors = [cast(x, dtype) if isinstance(x, Tensor) else convert_to_tensor(x, dtype) for x in args]
    return apply(range_op, tensors, {"dtype": dtype}, name=name)


def _linspace_kernel(start, stop, *, num, axis):
    return np.linspace(start, stop, num, axis=axis, dtype=start.dtype)


def _infer_linspace(start, stop, *, num, axis):
    dtype = same_dtype(start, stop)
    require(dtype, "float", "linspace")
    if num < 0:
        raise ValueError(f"num must be non-negative, got {num}")
    shape = shapes.broadcast(start._shape, stop._shape)
    if shape is None:
        return dtype, None
    axis = normalize_axis(axis, len(shape) + 1)
    return dtype, shape[:axis] + (num,) + shape[axis:]


linspace_op = register(OpDef("linspace", _linspace_kernel, _infer_linspace,
                             render="np.linspace({0}, {1}, {num}, axis={axis}, dtype={0}.dtype)"))


def linspace(start, stop, num, name=None, axis=0):
    """`tf.linspace`: `num` evenly spaced values from start to stop, both included (floats only)."""
    if isinstance(start, Tensor) or isinstance(stop, Tensor):
        start, stop = convert_inputs((start, stop), True)
    else:
        start = convert_to_tensor(start, dtype_hint=dtypes.float32)
        stop = convert_to_tensor(stop, dtype_hint=start.dtype)
    count = scalar_arg(num, "tf.linspace: num")
    if isinstance(count, Tensor):
        return _linspace_of_run_time_num(start, stop, count, known_ints(axis, "tf.linspace: axis"))
    return apply(linspace_op, (start, stop), {"num": count,
                                               "axis": known_ints(axis, "tf.linspace: axis")}, name=name)


def _linspace_of_run_time_num(start, stop, num, axis: int):
    """`tf.linspace` with `num` a scalar tensor, built from ops as TF's linspace_nd is (so gradients follow):
    start + i * (stop - start) / (num - 1), the last value exactly stop, num == 1 giving start alone."""
    rank = None if start._shape is None else len(start._shape)
    if rank is None:
        raise ValueError("tf.linspace with a run-time num needs start and stop of known rank")
    axis = axis % (rank + 1)
    start, stop = expand_dims(start, axis), expand_dims(stop, axis)
    steps = cast(maximum(num - 1, 1), start.dtype)
    index = range(num)
    along = reshape(cast(index, start.dtype), (-1,) + (1,) * (rank - axis))
    values = start + along * ((stop - start) / steps)
    last = reshape(logical_and(equal(index, num - 1), num > 1), (-1,) + (1,) * (rank - axis))
    return apply(select_op, (last, stop, values))


# --- joining and splitting ------------------------------------------------------------------------------
def _concat_kernel(*values, axis):
    return np.concatenate(values, axis=axis)


def _infer_concat(*values, axis):
    dtype = same_dtype(*values)
    known = [v._shape for v in values if v._shape is not None]
    ranks = {len(s) for s in known}
    if len(ranks) > 1:
        raise ValueError("all inputs must have the same rank, got shapes "
                         + ", ".join(shapes.fmt(v._shape) for v in values))
    if not ranks:
        return dtype, None
    rank = ranks.pop()
    if rank == 0:
        raise ValueError("cannot concatenate scalars; use tf.stack to join scalars into a vector")
    axis = normalize_axis(axis, rank)
    out = []
    for d in _py_range(rank):
        dims = [s[d] for s in known]
        if d == axis:
            out.append(None if None in dims or len(known) < len(values) else sum(dims))
            continue
        sizes = {x for x in dims if x is not None}
        if len(sizes) > 1:
            raise ValueError(f"dimension {d} of the inputs must match (only the concat axis {axis} may differ), "
                             "got shapes " + ", ".join(shapes.fmt(v._shape) for v in values))
        out.append(sizes.pop() if sizes else None)
    return dtype, tuple(out)


def _render_concat(node):
    parts = ", ".join(f"{{{i}}}" for i in _py_range(len(node.inputs)))
    comma = "," if len(node.inputs) == 1 else ""  # a one-element tuple
    return f"np.concatenate(({parts}{comma}), axis={{axis}})"


concat_op = register(OpDef("concat", _concat_kernel, _infer_concat, render=_render_concat))


def concat(values, axis, name="concat"):
    """`tf.concat`: join tensors along an existing axis."""
    if not isinstance(values, (list, tuple)) or not values:
        raise ValueError("tf.concat needs a non-empty list of tensors")
    return apply(concat_op, convert_inputs(list(values), True), {"axis": known_ints(axis, "tf.concat: axis")},
                 name=name)


def _several(parts):
    """Kernels with several outputs return a tuple, and a single output as itself (the dispatcher's rule)."""
    return parts[0] if len(parts) == 1 else tuple(parts)


def _unstack_kernel(x, *, num, axis):
    if x.shape[axis] != num:
        raise InvalidArgumentError(f"expected {num} values along axis {axis}, got shape {x.shape}")
    return _several(tuple(np.moveaxis(x, axis, 0)))


def _infer_unstack(x, *, num, axis):
    shape = x._shape
    if shape is None:
        return [(x.dtype, None)] * num
    if not shape:
        raise ValueError("cannot unstack a scalar")
    axis = normalize_axis(axis, len(shape))
    if shape[axis] is not None and shape[axis] != num:
        raise ValueError(f"num={num} does not match dimension {axis} of size {shape[axis]}")
    return [(x.dtype, shape[:axis] + shape[axis + 1:])] * num


unstack_op = register(OpDef("unstack", _unstack_kernel, _infer_unstack))


def unstack(value, num=None, axis=0, name="unstack"):
    """`tf.unstack`: split along `axis` into a list of tensors of one rank less."""
    x = convert_to_tensor(value)
    axis = known_ints(axis, "tf.unstack: axis")
    if num is None:
        shape = x._shape
        if shape is None or not shape:
            raise ValueError(f"tf.unstack: cannot infer num from shape {shapes.fmt(shape)}")
        num = shape[normalize_axis(axis, len(shape))]
        if num is None:
            raise ValueError(f"tf.unstack: cannot infer num from shape {shapes.fmt(shape)} (dimension {axis} "
                             "is unknown); pass num=")
    result = apply(unstack_op, (x,), {"num": int(num), "axis": axis}, name=name)
    return [] if result is None else list(result) if isinstance(result, tuple) else [result]


def _split_sizes(total, num_split, sizes, axis):
    """The sizes of the pieces of a dimension of `total` elements (total may be None in inference)."""
    if sizes is None:
        if total is None:
            return (None,) * num_split
        if total % num_split:
            raise InvalidArgumentError(f"dimension {axis} of size {total} cannot be split evenly into "
                                       f"{num_split} pieces")
        return (total // num_split,) * num_split
    if total is None:
        return tuple(None if s == -1 else s for s in sizes)
    if -1 in sizes:
        rest = total - (sum(sizes) + 1)
        if rest < 0:
            raise InvalidArgumentError(f"the sizes {list(sizes)} add up to more than dimension {axis} of size "
                                       f"{total}")
        return tuple(rest if s == -1 else s for s in sizes)
    if sum(sizes) != total:
        raise InvalidArgumentError(f"the sizes {list(sizes)} must add up to dimension {axis} of size {total}")
    return sizes


def _split_kernel(x, *, num_split, sizes, axis):
    pieces = _split_sizes(x.shape[axis], num_split, sizes, axis)
    return _several(np.split(x, np.cumsum(pieces[:-1]), axis=axis))


def _infer_split(x, *, num_split, sizes, axis):
    shape = x._shape
    if shape is None:
        return [(x.dtype, None)] * num_split
    if not shape:
        raise ValueError("cannot split a scalar")
    axis = normalize_axis(axis, len(shape))
    pieces = _split_sizes(shape[axis], num_split, sizes, axis)
    return [(x.dtype, shape[:axis] + (p,) + shape[axis + 1:]) for p in pieces]


def _render_split(node):
    """Pieces of statically known sizes as basic slices (views, as np.split gives): np.split costs about 11 us
    a call in Python bookkeeping, the slices under 1 (an LSTM step splits its gates once per time step)."""
    x, outputs = node.inputs[0], node.outputs
    if x._shape is None or len(outputs) < 2:
        return None
    axis = normalize_axis(node.attrs["axis"], len(x._shape))
    sizes = [None if t._shape is None else t._shape[axis] for t in outputs]
    if None in sizes:
        return None
    starts = np.cumsum([0] + sizes)
    return ", ".join("{0}[" + ":, " * axis + f"{start}:{end}]" for start, end in zip(starts[:-1], starts[1:]))


split_op = register(OpDef("split", _split_kernel, _infer_split, render=_render_split))


def split(value, num_or_size_splits, axis=0, num=None, name="split"):
    """`tf.split`: into `n` equal pieces (an int) or pieces of the given sizes (a list; one may be -1)."""
    x = convert_to_tensor(value)
    axis = known_ints(axis, "tf.split: axis")
    split_spec = known_ints(num_or_size_splits, "tf.split: num_or_size_splits")
    if isinstance(split_spec, int):
        if split_spec <= 0:
            raise ValueError(f"tf.split: the number of pieces must be positive, got {split_spec}")
        num_split, sizes = split_spec, None
    else:
        if not split_spec or any(s < -1 for s in split_spec) or split_spec.count(-1) > 1:
            raise ValueError(f"tf.split: sizes must be non-negative, with at most one -1, got {list(split_spec)}")
        num_split, sizes = len(split_spec), split_spec
    result = apply(split_op, (x,), {"num_split": num_split, "sizes": sizes, "axis": axis}, name=name)
    return list(result) if isinstance(result, tuple) else [result]


# --- shape edits: squeeze, expand_dims, transpose, reverse, tile, pad, broadcast_to ---------------------------
def _infer_squeeze(x, *, axis):
    shape = x._shape
    if shape is None:
        return x.dtype, None
    if axis is None:
        if None in shape:  # which dims go is only known at run time
            return x.dtype, None
        return x.dtype, tuple(d for d in shape if d != 1)
    axes = {normalize_axis(a, len(shape)) for a in axis}
    for a in sorted(axes):
        if shape[a] not in (1, None):
            raise ValueError(f"cannot squeeze dimension {a} of size {shape[a]}: only dimensions of size 1 can "
                             "be squeezed")
    return x.dtype, tuple(d for i, d in enumerate(shape) if i not in axes)


def _squeeze_kernel(x, *, axis):
    return np.squeeze(x, axis)


squeeze_op = register(OpDef("squeeze", _squeeze_kernel, _infer_squeeze, render="np.squeeze({0}, {axis})"))


def squeeze(input, axis=None, name=None, squeeze_dims=None):
    """`tf.squeeze`: remove dimensions of size 1 (all of them, or those in `axis`)."""
    axis = _axis_attr(axis if axis is not None else squeeze_dims, "tf.squeeze: axis")
    if isinstance(axis, int):
        axis = (axis,)
    return apply(squeeze_op, (convert_to_tensor(input),), {"axis": axis}, name=name)


def _infer_expand_dims(x, *, axis):
    if x._shape is None:
        if axis < 0:
            raise ValueError(f"a negative axis {axis} needs a known rank")
        return x.dtype, None
    rank = len(x._shape)
    if not -rank - 1 <= axis <= rank:
        raise ValueError(f"axis {axis} is out of range for a tensor of rank {rank} (expected {-rank - 1}..{rank})")
    axis %= rank + 1
    return x.dtype, x._shape[:axis] + (1,) + x._shape[axis:]


def _expand_dims_kernel(x, *, axis):
    return np.expand_dims(x, axis)


expand_dims_op = register(OpDef("expand_dims", _expand_dims_kernel, _infer_expand_dims,
                                render="np.expand_dims({0}, {axis})"))


def expand_dims(input, axis, name=None):
    """`tf.expand_dims`: insert a dimension of size 1 at `axis` (-1 appends)."""
    axis = known_ints(axis, "tf.expand_dims: axis")
    if not isinstance(axis, int):
        if len(axis) != 1:
            raise ValueError(f"tf.expand_dims: axis must be a single int, got {list(axis)}")
        axis = axis[0]
    return apply(expand_dims_op, (convert_to_tensor(input),), {"axis": axis}, name=name)


def _infer_transpose(x, *, perm):
    shape = x._shape
    if perm is None:
        return x.dtype, None if shape is None else shape[::-1]
    if sorted(perm) != list(_py_range(len(perm))):
        raise ValueError(f"perm {list(perm)} is not a permutation of 0..{len(perm) - 1}")
    if shape is None:
        return x.dtype, None
    if len(perm) != len(shape):
        raise ValueError(f"perm {list(perm)} has {len(perm)} entries but the tensor has rank {len(shape)}")
    return x.dtype, tuple(shape[p] for p in perm)


def _transpose_kernel(x, *, perm):
    return np.transpose(x, perm)


transpose_op = register(OpDef(
    "transpose", _transpose_kernel, _infer_transpose,
    render=lambda node: "np.transpose({0})" if node.attrs["perm"] is None else "np.transpose({0}, {perm})"))


def transpose(a, perm=None, conjugate=False, name="transpose"):
    """`tf.transpose`: permute the dimensions (default: reverse them). Real dtypes only, so `conjugate`
    changes nothing."""
    perm = _axis_attr(perm, "tf.transpose: perm")
    if isinstance(perm, int):
        perm = (perm,)
    return apply(transpose_op, (convert_to_tensor(a),), {"perm": perm}, name=name)


def _infer_reverse(x, *, axis):
    if x._shape is None:
        return x.dtype, None
    rank = len(x._shape)
    axes = [normalize_axis(a, rank) for a in axis]
    if len(set(axes)) != len(axes):
        raise ValueError(f"axis {list(axis)} names a dimension twice")
    if rank == 0 and axis:
        raise ValueError("cannot reverse a scalar along an axis")
    return x.dtype, x._shape


def _reverse_kernel(x, *, axis):
    return np.flip(x, axis)


reverse_op = register(OpDef("reverse", _reverse_kernel, _infer_reverse, render="np.flip({0}, {axis})"))


def reverse(tensor, axis, name=None):
    """`tf.reverse`: reverse the order of elements along the dimensions in `axis`."""
    axis = known_ints(axis, "tf.reverse: axis")
    axis = (axis,) if isinstance(axis, int) else axis
    return apply(reverse_op, (convert_to_tensor(tensor),), {"axis": axis}, name=name)


def _infer_tile(x, *, multiples):
    if any(m < 0 for m in multiples):
        raise ValueError(f"multiples must be non-negative, got {list(multiples)}")
    if x._shape is None:
        return x.dtype, tuple(None for _ in multiples)
    if len(multiples) != len(x._shape):
        raise ValueError(f"multiples {list(multiples)} must have one entry per dimension of the input "
                         f"(rank {len(x._shape)})")
    return x.dtype, tuple(None if d is None else d * m for d, m in zip(x._shape, multiples))


def _tile_kernel(x, *, multiples):
    return np.tile(x, multiples)


tile_op = register(OpDef("tile", _tile_kernel, _infer_tile, render="np.tile({0}, {multiples})"))


def tile(input, multiples, name=None):
    """`tf.tile`: repeat the tensor `multiples[i]` times along dimension i."""
    multiples = shape_arg(multiples, "tf.tile: multiples")
    if isinstance(multiples, Tensor):
        return _dynamic.tile(convert_to_tensor(input), multiples)
    return apply(tile_op, (convert_to_tensor(input),), {"multiples": multiples}, name=name)


_PAD_MODES = ("CONSTANT", "REFLECT", "SYMMETRIC")


def _pad_kernel(x, constant, *, paddings, mode):
    if not paddings:
        return x
    if mode == "CONSTANT":
        return np.pad(x, paddings, constant_values=constant)
    check_mirror_padding(x.shape, paddings, mode)
    return np.pad(x, paddings, mode=mode.lower())


def _infer_pad(x, constant, *, paddings, mode):
    if constant.dtype is not x.dtype:
        raise TypeError(f"constant_values has dtype {constant.dtype.name} but the tensor has dtype {x.dtype.name}")
    if constant._shape not in ((), None):
        raise ValueError(f"constant_values must be a scalar, got shape {shapes.fmt(constant._shape)}")
    if any(p < 0 for pair in paddings for p in pair):
        raise ValueError(f"paddings must be non-negative, got {[list(p) for p in paddings]}")
    if x._shape is None:
        return x.dtype, tuple(None for _ in paddings)
    if len(paddings) != len(x._shape):
        raise ValueError(f"paddings must have shape [{len(x._shape)}, 2] (one pair per dimension), got "
                         f"{len(paddings)} pairs")
    if mode != "CONSTANT":
        check_mirror_padding(x._shape, paddings, mode)
    return x.dtype, tuple(None if d is None else d + a + b for d, (a, b) in zip(x._shape, paddings))


def _render_pad(node):
    if node.attrs["mode"] == "CONSTANT" and node.attrs["paddings"]:
        return "np.pad({0}, {paddings}, constant_values={1})"
    return None  # mirror modes call the kernel, which checks the padding against the run-time shape


pad_op = register(OpDef("pad", _pad_kernel, _infer_pad, render=_render_pad))


def pad(tensor, paddings, mode="CONSTANT", constant_values=0, name=None):
    """`tf.pad`: pad each dimension with paddings[i] = [before, after] elements (CONSTANT, REFLECT or
    SYMMETRIC, case-insensitive)."""
    x = convert_to_tensor(tensor)
    mode_name = str(mode).upper()
    if mode_name not in _PAD_MODES:
        raise ValueError(f"tf.pad: mode must be one of {', '.join(_PAD_MODES)}, got {mode!r}")
    if isinstance(shape_arg(paddings, "tf.pad: paddings"), Tensor):  # paddings known only at run time
        if mode_name != "CONSTANT":
            return _dynamic.mirror_pad(x, shape_arg(paddings, "tf.pad: paddings"), mode_name)
        constant = convert_inputs((x, constant_values), True)[1]
        return _dynamic.pad(x, shape_arg(paddings, "tf.pad: paddings"), constant)
    array = known_array(paddings, "tf.pad: paddings")
    if array.size and (array.ndim != 2 or array.shape[1] != 2):
        raise ValueError(f"tf.pad: paddings must have shape [rank, 2], got {list(array.shape)}")
    pairs = tuple((int(a), int(b)) for a, b in array.reshape(-1, 2))
    constant = convert_inputs((x, constant_values), True)[1]
    return apply(pad_op, (x, constant), {"paddings": pairs, "mode": mode_name}, name=name)


def _infer_broadcast_to(x, *, shape):
    if any(d < 0 for d in shape):
        raise ValueError(f"the target shape must be non-negative, got {list(shape)}")
    source = x._shape
    if source is None:
        return x.dtype, shape
    if len(source) > len(shape):
        raise ValueError(f"cannot broadcast a tensor of rank {len(source)} to the lower rank shape {list(shape)}")
    for have, want in zip(source[::-1], shape[::-1]):
        if have not in (1, None, want):
            raise ValueError(f"cannot broadcast shape {shapes.fmt(source)} to {list(shape)}")
    return x.dtype, shape


def _broadcast_to_kernel(x, *, shape):
    # a copy: numpy's broadcast view is read-only and shares memory across rows
    return np.broadcast_to(x, shape).copy()


broadcast_to_op = register(OpDef("broadcast_to", _broadcast_to_kernel, _infer_broadcast_to,
                                 render="np.broadcast_to({0}, {shape}).copy()"))


def broadcast_to(input, shape, name=None):
    """`tf.broadcast_to`: repeat the tensor to a (static) shape by numpy broadcasting rules."""
    target = shape_arg(shape, "tf.broadcast_to: shape")
    if isinstance(target, Tensor):
        return _dynamic.broadcast_to(convert_to_tensor(input), target)
    return apply(broadcast_to_op, (convert_to_tensor(input),), {"shape": target}, name=name)


# --- size and rank ---------------------------------------------------------------------------------------
def _size_kernel(x, *, out_type):
    return out_type.np.type(np.size(x))


def _infer_size(x, *, out_type):
    if out_type not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"out_type must be int32 or int64, got {out_type.name}")
    return out_type, ()


size_op = register(OpDef("size", _size_kernel, _infer_size, differentiable=False,
                         render=lambda node: f"np.{node.attrs['out_type'].name}(np.size({{0}}))"))


def size(input, out_type=dtypes.int32, name=None):
    """`tf.size`: the number of elements, as an int32 scalar."""
    return apply(size_op, (convert_to_tensor(input),), {"out_type": dtypes.as_dtype(out_type)}, name=name)


def _rank_kernel(x):
    return np.int32(np.ndim(x))


rank_op = register(OpDef("rank", _rank_kernel, lambda x: (dtypes.int32, ()), differentiable=False,
                         render="np.int32(np.ndim({0}))"))


def rank(input, name=None):
    """`tf.rank`: the number of dimensions, as an int32 scalar."""
    return apply(rank_op, (convert_to_tensor(input),), name=name)


__all__ = ["fill", "zeros", "ones", "zeros_like", "ones_like", "reshape", "identity", "stack", "shape",
           "range", "linspace", "concat", "unstack", "split", "squeeze", "expand_dims", "transpose",
           "reverse", "tile", "pad", "broadcast_to", "size", "rank"]

