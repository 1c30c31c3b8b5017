"""Indexing and selection: `x[key]` (strided_slice), tf.slice, gather, gather_nd, where, boolean_mask,
one_hot.

`x[key]` becomes one `strided_slice` node whose `spec` attribute is the key in plain values: an int, None
(tf.newaxis), "..." (Ellipsis), a (start, stop, step) tuple for a slice, and "#k" for an index that is only
known at run time: the k-th input of the node after the sliced tensor (e.g. `xs[i]` with a symbolic loop
counter i). The generated code renders the key as numpy indexing, so `x[1:, None]` reads as itself."""

from __future__ import annotations

import builtins

import numpy as np

from .. import dtypes, shapes
from ..context import shared, state
from ..dispatch import apply, convert_inputs, convert_to_tensor
from ..errors import InvalidArgumentError, at_user_line
from ..registry import OpDef, register
from ..tensor import EagerTensor, Tensor
from .array import known_ints, unstack
from .array_dynamic import slice_
from .common import normalize_axis, require, same_dtype
from .select import select_op
from .shape_args import scalar_arg, shape_arg, static_scalar_value
from .static_value import constant_value
from .strided_slice import _VALID_INDICES, static_key, strided_slice_op

_py_slice = builtins.slice  # tf.slice below shadows the builtin in this module
_py_range = builtins.range



# --- the key of x[key] as a spec ----------------------------------------------------------------------
def _index_part(value, dynamic: list):
    """One integer of a key: a Python int when known now, else "#k" naming a new dynamic input."""
    if type(value) is int:
        return value
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"strided_slice: {_VALID_INDICES}, got the bool {value!r}")
    if isinstance(value, np.integer):
        return int(value)
    if not isinstance(value, Tensor) and hasattr(value, "_to_tensor"):  # a variable
        value = convert_to_tensor(value)
    if isinstance(value, Tensor):
        if not value.dtype.is_integer or value._shape not in ((), None):
            raise TypeError(f"strided_slice: {_VALID_INDICES}, got a {value.dtype.name} tensor of shape "
                            f"{shapes.fmt(value._shape)}")
        known = constant_value(value)  # eager, or a graph constant: a static index renders as a literal
        if known is not None:
            return int(known)
        dynamic.append(value)
        return f"#{len(dynamic)}"
    raise TypeError(f"strided_slice: {_VALID_INDICES}, got {value!r} of type {type(value).__name__}")


def parse_key(key, dynamic: list) -> tuple:
    """The spec of a `__getitem__` key; symbolic indices are appended to `dynamic`."""
    if type(key) is int:
        return (key,)
    items = key if isinstance(key, tuple) else (key,)
    spec = []
    for item in items:
        if item is None:
            spec.append(None)
        elif item is Ellipsis:
            if "..." in spec:
                raise ValueError("strided_slice: an index can only have a single ellipsis (`...`)")
            spec.append("...")
        elif isinstance(item, _py_slice):
            parts = tuple(None if p is None else _index_part(p, dynamic) for p in (item.start, item.stop, item.step))
            if parts[2] == 0:
                raise ValueError("strided_slice: slice step cannot be zero")
            spec.append(parts)
        else:
            spec.append(_index_part(item, dynamic))
    return tuple(spec)


def _is_bool_mask(key) -> bool:
    if isinstance(key, np.ndarray):
        return key.dtype == np.bool_ and key.ndim > 0
    return isinstance(key, Tensor) and key.dtype is dtypes.bool_ and (key._shape is None or len(key._shape) > 0)


def getitem(tensor, key):
    """`tensor[key]` with ints, slices (any bounds and strides), tf.newaxis, Ellipsis and scalar integer
    tensors, which may be symbolic while tracing."""
    if (type(key) is int and type(tensor) is EagerTensor
            and (not shared.busy or (state.graph is None and not state.tapes and not state.numeric_checks
                                and not shared.op_observers))):
        try:  # the commonest case, x[i] in an eager loop, as cheap as numpy allows
            return EagerTensor(tensor._value[key], tensor.dtype)
        except IndexError:
            pass  # the op (below) explains the error
    if not isinstance(tensor, Tensor):
        tensor = convert_to_tensor(tensor)
    if _is_bool_mask(key):
        # as TF's __getitem__: a boolean array or tensor (not a list) indexes by tf.boolean_mask (the data
        # performance guide filters its timelines so)
        return boolean_mask(tensor, key)
    dynamic = []
    try:
        spec = parse_key(key, dynamic)
    except (TypeError, ValueError) as e:
        raise type(e)(at_user_line(str(e))) from None
    if not dynamic and type(tensor) is EagerTensor and (
            not shared.busy or (state.graph is None and not state.tapes and not state.numeric_checks
                                and not shared.op_observers)):
        # eager fast path: plain numpy indexing; the op (below) explains any error
        try:
            return EagerTensor(tensor._value[static_key(spec)], tensor.dtype)
        except IndexError:
            pass
    return apply(strided_slice_op, (tensor, *dynamic), {"spec": spec})


def _slice_entries(value, what):
    """begin/end/strides as a tuple whose entries are ints or (in graphs) scalar int tensors, for x[key]."""
    known = shape_arg(value, what)
    if not isinstance(known, Tensor):
        return known_ints(value, what)
    if isinstance(value, (list, tuple)):
        return tuple(v if isinstance(v, Tensor) else int(v) for v in value)
    if known._shape is None or len(known._shape) != 1 or known._shape[0] is None:
        raise ValueError(f"{what} must be a vector of known length, got shape {shapes.fmt(known._shape)}")

    return tuple(unstack(known))


def strided_slice(input_, begin, end, strides=None, begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0,
                  shrink_axis_mask=0, var=None, name=None):
    """`tf.strided_slice`: the masks say, per entry, ignore begin / ignore end / this is `...` / insert an
    axis / take one element; translated into the equivalent `x[key]`."""
    begin = _slice_entries(begin, "tf.strided_slice: begin")
    end = _slice_entries(end, "tf.strided_slice: end")
    strides = (1,) * len(begin) if strides is None else _slice_entries(strides, "tf.strided_slice: strides")
    if isinstance(begin, int) or isinstance(end, int) or isinstance(strides, int):
        raise ValueError("tf.strided_slice: begin, end and strides must be vectors")
    if not len(begin) == len(end) == len(strides):
        raise ValueError(f"tf.strided_slice: begin, end and strides must have the same length, got "
                         f"{len(begin)}, {len(end)} and {len(strides)}")
    key = []
    for i, (b, e, s) in enumerate(zip(begin, end, strides)):
        bit = 1 << i
        if ellipsis_mask & bit:
            key.append(Ellipsis)
        elif new_axis_mask & bit:
            key.append(None)
        elif shrink_axis_mask & bit:
            key.append(b)
        else:
            key.append(_py_slice(None if begin_mask & bit else b, None if end_mask & bit else e, s))
    return getitem(input_, tuple(key))


# --- tf.slice: begin and size, with no clamping -------------------------------------------------------------
def _check_slice(shape, begin, size):
    for d, (n, b, s) in enumerate(zip(shape, begin, size)):
        if n is None:
            continue
        if b > n:
            raise InvalidArgumentError(f"begin[{d}] = {b} is out of range for dimension {d} of size {n}")
        if s != -1 and s > n - b:
            raise InvalidArgumentError(f"size[{d}] = {s} is out of range: dimension {d} of size {n} has only "
                                       f"{n - b} elements from begin {b}")


def _slice_kernel(x, *, begin, size):
    _check_slice(x.shape, begin, size)
    return x[tuple(_py_slice(b, None if s == -1 else b + s) for b, s in zip(begin, size))]


def _infer_slice(x, *, begin, size):
    if len(begin) != len(size):
        raise ValueError(f"begin and size must have the same length, got {list(begin)} and {list(size)}")
    if any(b < 0 for b in begin) or any(s < -1 for s in size):
        raise ValueError(f"begin must be non-negative and size at least -1, got {list(begin)} and {list(size)}")
    shape = x._shape
    if shape is None:
        return x.dtype, tuple(None if s == -1 else s for s in size)
    if len(begin) != len(shape):
        raise ValueError(f"begin and size need one entry per dimension (rank {len(shape)}), got {list(begin)}")
    _check_slice(shape, begin, size)
    return x.dtype, tuple(s if s != -1 else (None if n is None else n - b) for n, b, s in zip(shape, begin, size))


slice_op = register(OpDef("slice", _slice_kernel, _infer_slice))


def slice(input_, begin, size, name=None):
    """`tf.slice`: the block starting at `begin` of shape `size` (-1: everything to the end)."""
    begin_arg, size_arg = shape_arg(begin, "tf.slice: begin"), shape_arg(size, "tf.slice: size")
    if isinstance(begin_arg, Tensor) or isinstance(size_arg, Tensor):
        return slice_(convert_to_tensor(input_), convert_to_tensor(begin_arg), convert_to_tensor(size_arg))
    begin = known_ints(begin, "tf.slice: begin")
    size = known_ints(size, "tf.slice: size")
    begin = (begin,) if isinstance(begin, int) else begin
    size = (size,) if isinstance(size, int) else size
    return apply(slice_op, (convert_to_tensor(input_),), {"begin": begin, "size": size}, name=name)


# --- gather and gather_nd ----------------------------------------------------------------------------
def _check_indices(indices, limit, what="indices"):
    """TensorFlow rejects out-of-range (and negative) gather indices on CPU; numpy would wrap or fail."""
    if np.size(indices) and (np.min(indices) < 0 or np.max(indices) >= limit):
        bad = np.argwhere((np.asarray(indices) < 0) | (np.asarray(indices) >= limit))[0]
        where = "".join(f"[{int(i)}]" for i in bad) if len(bad) else ""
        raise InvalidArgumentError(f"{what}{where} = {np.asarray(indices)[tuple(bad)]} is not in [0, {limit})")


def _gather_kernel(params, indices, *, axis, batch_dims):
    axis %= params.ndim
    _check_indices(indices, params.shape[axis])
    if batch_dims == 0:
        return np.take(params, indices, axis=axis)
    batch = params.shape[:batch_dims]
    if indices.shape[:batch_dims] != batch:
        raise InvalidArgumentError(f"the first {batch_dims} dimensions of params {params.shape} and indices "
                                   f"{indices.shape} must match")
    out = np.empty(params.shape[:axis] + indices.shape[batch_dims:] + params.shape[axis + 1:], params.dtype)
    for b in np.ndindex(*batch):
        out[b] = np.take(params[b], indices[b], axis=axis - batch_dims)
    return out


def _batch_prefix_check(params_shape, indices_shape, batch_dims):
    for d, (p, i) in enumerate(zip(params_shape[:batch_dims], indices_shape[:batch_dims])):
        if p is not None and i is not None and p != i:
            raise ValueError(f"batch dimension {d} of params ({p}) and indices ({i}) must match")


def _infer_gather(params, indices, *, axis, batch_dims):
    require(indices.dtype, "int", "the indices of gather")
    p, i = params._shape, indices._shape
    if p is None or i is None:
        return params.dtype, None
    if not p:
        raise ValueError("params must have rank at least 1")
    axis = normalize_axis(axis, len(p))
    if not 0 <= batch_dims <= min(axis, len(i)):
        raise ValueError(f"batch_dims={batch_dims} must be in [0, min(axis={axis}, rank(indices)={len(i)})]")
    _batch_prefix_check(p, i, batch_dims)
    return params.dtype, p[:axis] + i[batch_dims:] + p[axis + 1:]


gather_op = register(OpDef("gather", _gather_kernel, _infer_gather))


def gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
    """`tf.gather`: the slices of `params` along `axis` at `indices` (out-of-range indices are an error)."""
    params = convert_to_tensor(params)
    indices = convert_to_tensor(indices)
    batch_dims = known_ints(batch_dims, "tf.gather: batch_dims")
    # TF takes the default axis from batch_dims as given: batch_dims=-1 gathers along the last axis of params
    axis = batch_dims if axis is None else known_ints(axis, "tf.gather: axis")
    if batch_dims < 0:
        if indices._shape is None:
            raise ValueError("tf.gather: a negative batch_dims needs indices of known rank")
        batch_dims += len(indices._shape)
    if axis < 0:
        if params._shape is None:
            raise ValueError("tf.gather: a negative axis needs params of known rank")
        axis = normalize_axis(axis, len(params._shape))
    return apply(gather_op, (params, indices), {"axis": axis, "batch_dims": batch_dims}, name=name)


def _gather_nd_plain(params, indices):
    depth = indices.shape[-1]
    for d in _py_range(depth):
        column = indices[..., d]
        if np.size(column) and (column.min() < 0 or column.max() >= params.shape[d]):
            bad = tuple(int(i) for i in np.argwhere((column < 0) | (column >= params.shape[d]))[0])
            raise InvalidArgumentError(f"indices{list(bad)} = {indices[bad].tolist()} does not index into "
                                       f"params of shape {list(params.shape)}")
    if depth == 0:
        return np.broadcast_to(params, indices.shape[:-1] + params.shape).copy()
    return params[tuple(np.moveaxis(indices, -1, 0))]


def _gather_nd_kernel(params, indices, *, batch_dims):
    if batch_dims == 0:
        return _gather_nd_plain(params, indices)
    batch = params.shape[:batch_dims]
    if indices.shape[:batch_dims] != batch:
        raise InvalidArgumentError(f"the first {batch_dims} dimensions of params {params.shape} and indices "
                                   f"{indices.shape} must match")
    out = np.empty(indices.shape[:-1] + params.shape[batch_dims + indices.shape[-1]:], params.dtype)
    for b in np.ndindex(*batch):
        out[b] = _gather_nd_plain(params[b], indices[b])
    return out


def _infer_gather_nd(params, indices, *, batch_dims):
    require(indices.dtype, "int", "the indices of gather_nd")
    p, i = params._shape, indices._shape
    if i is not None and not i:
        raise ValueError("indices must have rank at least 1 (the last dimension indexes into params)")
    if p is None or i is None or i[-1] is None:
        return params.dtype, None
    depth = i[-1]
    if batch_dims < 0 or batch_dims >= len(i):
        raise ValueError(f"batch_dims={batch_dims} must be in [0, rank(indices) - 1 = {len(i) - 1}]")
    if batch_dims + depth > len(p):
        raise ValueError(f"the index depth {depth} (indices.shape[-1]) is larger than the rank {len(p) - batch_dims}"
                         " of params" + (" after its batch dimensions" if batch_dims else ""))
    _batch_prefix_check(p, i, batch_dims)
    return params.dtype, i[:-1] + p[batch_dims + depth:]


gather_nd_op = register(OpDef("gather_nd", _gather_nd_kernel, _infer_gather_nd))


def gather_nd(params, indices, batch_dims=0, name=None):
    """`tf.gather_nd`: indices[..., :] are coordinates into the leading dimensions of params."""
    return apply(gather_nd_op, (convert_to_tensor(params), convert_to_tensor(indices)),
                 {"batch_dims": known_ints(batch_dims, "tf.gather_nd: batch_dims")}, name=name)


# --- where, boolean_mask, one_hot ---------------------------------------------------------------------------
def _where_kernel(condition):
    return np.argwhere(condition).astype(np.int64, copy=False)


def _infer_where(condition):
    shape = condition._shape
    return dtypes.int64, (None, None if shape is None else len(shape))


where_op = register(OpDef("where", _where_kernel, _infer_where, differentiable=False,
                          doc="the coordinates of the true (non-zero) elements, one row each"))


def where(condition, x=None, y=None, name=None):
    """`tf.where(condition)`: int64 coordinates of the true elements; `tf.where(condition, x, y)`: pick
    elementwise from x or y (the three broadcast together)."""
    if x is None and y is None:
        return apply(where_op, (convert_to_tensor(condition),))
    if x is None or y is None:
        raise ValueError("tf.where: x and y must both be given, or both omitted")
    x, y = convert_inputs((x, y), True)
    return apply(select_op, (convert_to_tensor(condition), x, y))


def _mask_key(axis):
    return (_py_slice(None),) * axis


def _boolean_mask_kernel(tensor, mask, *, axis):
    covered = tensor.shape[axis:axis + mask.ndim]
    if covered != mask.shape:
        raise InvalidArgumentError(f"the mask of shape {list(mask.shape)} does not match dimensions "
                                   f"{axis}..{axis + mask.ndim - 1} of the tensor of shape {list(tensor.shape)}")
    return tensor[_mask_key(axis) + (mask,)]


def _infer_boolean_mask(tensor, mask, *, axis):
    if not mask.dtype.is_bool:
        raise TypeError(f"the mask must be a bool tensor, got {mask.dtype.name}")
    m = mask._shape
    if m is None:
        raise ValueError("the rank of the mask must be known")
    if not m:
        raise ValueError("the mask cannot be a scalar")
    shape = tensor._shape
    if shape is None:
        return tensor.dtype, None
    if axis + len(m) > len(shape):
        raise ValueError(f"a mask of rank {len(m)} at axis {axis} needs a tensor of rank at least "
                         f"{axis + len(m)}, got {len(shape)}")
    if not shapes.compatible(shape[axis:axis + len(m)], m):
        raise ValueError(f"the mask of shape {shapes.fmt(m)} does not match dimensions {axis}..{axis + len(m) - 1} "
                         f"of the tensor of shape {shapes.fmt(shape)}")
    return tensor.dtype, shape[:axis] + (None,) + shape[axis + len(m):]


boolean_mask_op = register(OpDef("boolean_mask", _boolean_mask_kernel, _infer_boolean_mask))


def boolean_mask(tensor, mask, axis=None, name="boolean_mask"):
    """`tf.boolean_mask`: the elements (or slices, from `axis`) where the bool `mask` is true."""
    tensor = convert_to_tensor(tensor)
    mask = convert_to_tensor(mask)
    axis = 0 if axis is None else known_ints(axis, "tf.boolean_mask: axis")
    if axis < 0:
        if tensor._shape is None:
            raise ValueError("tf.boolean_mask: a negative axis needs a tensor of known rank")
        axis = normalize_axis(axis, len(tensor._shape))
    return apply(boolean_mask_op, (tensor, mask), {"axis": axis}, name=name)


def _one_hot_kernel(indices, on_value, off_value, *, depth, axis):
    # comparing against 0..depth-1 leaves out-of-range (and negative) indices as all-off rows, as TF does
    hot = np.expand_dims(indices, -1) == np.arange(depth)
    out = np.where(hot, on_value, off_value)
    return out if axis == -1 else np.moveaxis(out, -1, axis)


def _infer_one_hot(indices, on_value, off_value, *, depth, axis):
    require(indices.dtype, "int", "the indices of one_hot")
    dtype = same_dtype(on_value, off_value)
    for what, t in (("on_value", on_value), ("off_value", off_value)):
        if t._shape not in ((), None):
            raise ValueError(f"{what} must be a scalar, got shape {shapes.fmt(t._shape)}")
    if depth < 0:
        raise ValueError(f"depth must be non-negative, got {depth}")
    shape = indices._shape
    if shape is None:
        return dtype, None
    if not -1 <= axis <= len(shape):
        raise ValueError(f"axis must be -1 or in [0, {len(shape)}], got {axis}")
    at = len(shape) if axis == -1 else axis
    return dtype, shape[:at] + (depth,) + shape[at:]


one_hot_op = register(OpDef("one_hot", _one_hot_kernel, _infer_one_hot, differentiable=False))


def _one_hot_dynamic_kernel(indices, on_value, off_value, depth, *, axis):
    return _one_hot_kernel(indices, on_value, off_value, depth=int(depth), axis=axis)


def _infer_one_hot_dynamic(indices, on_value, off_value, depth, *, axis):
    if not depth.dtype.is_integer or depth._shape not in ((), None):
        raise TypeError(f"depth must be an integer scalar, got a {depth.dtype.name} tensor of shape "
                        f"{shapes.fmt(depth._shape)}")
    dtype, shape = _infer_one_hot(indices, on_value, off_value, depth=0, axis=axis)
    if shape is None:
        return dtype, None
    at = len(shape) - 1 if axis == -1 else axis
    return dtype, shape[:at] + (static_scalar_value(depth),) + shape[at + 1:]


# the dynamic twin (ops/array_dynamic.py has the others): depth is an int tensor input, known only at run time
one_hot_dynamic_op = register(OpDef("one_hot_dynamic", _one_hot_dynamic_kernel, _infer_one_hot_dynamic,
                                    differentiable=False, doc="tf.one_hot with a depth known only at run time"))


def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    """`tf.one_hot`: a new dimension of size `depth` (last, or at `axis`) holding on_value at each index
    and off_value elsewhere; float32 unless `dtype` or the on/off values say otherwise."""
    indices = convert_to_tensor(indices)
    dtype = None if dtype is None else dtypes.as_dtype(dtype)
    # TF's rule: the dtype is `dtype`, else that of on_value or off_value (tensors or Python values), else float32
    on = None if on_value is None else convert_to_tensor(on_value, dtype)
    off = None if off_value is None else convert_to_tensor(off_value, dtype)
    if on is not None and off is not None and on.dtype is not off.dtype:
        raise TypeError(at_user_line(f"one_hot: the dtype {on.dtype.name} of on_value does not match the dtype "
                                     f"{off.dtype.name} of off_value"))
    if dtype is None:
        dtype = on.dtype if on is not None else off.dtype if off is not None else dtypes.float32
    on = convert_to_tensor(1, dtype) if on is None else on
    off = convert_to_tensor(0, dtype) if off is None else off
    axis = -1 if axis is None else known_ints(axis, "tf.one_hot: axis")
    depth = scalar_arg(depth, "tf.one_hot: depth")
    if isinstance(depth, Tensor):  # known only when the graph runs
        return apply(one_hot_dynamic_op, (indices, on, off, depth), {"axis": axis})
    return apply(one_hot_op, (indices, on, off), {"depth": depth, "axis": axis})


__all__ = ["strided_slice", "slice", "gather", "gather_nd", "where", "boolean_mask", "one_hot"]
