"""The dynamic twins of the array ops whose shape-like argument is only known when the graph runs: the shape
(multiples, paddings, begin and size) is an int tensor input instead of a static attribute, as in TF's
Fill, Reshape, BroadcastTo, Tile, Pad and Slice. Wrappers in array.py and indexing.py choose the twin only
when the argument depends on a symbolic tensor, so eager code and known shapes keep their static ops.
Inference keeps whatever is knowable (static_shape_value): tf.zeros([tf.shape(x)[0], 3]) is (None, 3)."""

from __future__ import annotations

import numpy as np

from .. import dtypes, shapes
from ..dispatch import apply, convert_to_tensor
from ..errors import InvalidArgumentError
from ..registry import OpDef, register
from .common import check_mirror_padding
from .core import stack_op
from .shape_args import check_shape_input, static_scalar_value, static_shape_value
from .static_value import constant_value


def _as_dims(value) -> tuple:
    return tuple(int(d) for d in np.reshape(value, -1))


def _scalar_or_array(array):
    return array[()] if np.ndim(array) == 0 else array


def _check_non_negative(dims, what):
    if dims is not None and any(d is not None and d < 0 for d in dims):
        raise ValueError(f"{what} must be non-negative, got {list(dims)}")


# --- fill ---------------------------------------------------------------------------------------------------
def _fill_kernel(dims, value):
    dims = _as_dims(dims)
    if any(d < 0 for d in dims):
        raise InvalidArgumentError(f"dims must be non-negative, got {list(dims)}")
    return np.full(dims, value, dtype=np.asarray(value).dtype) if dims else value


def _infer_fill(dims, value):
    if value._shape not in ((), None):
        raise ValueError(f"the fill value must be a scalar, got shape {shapes.fmt(value._shape)}")
    known = check_shape_input(dims, "dims")
    _check_non_negative(known, "dims")
    return value.dtype, known


fill_dynamic_op = register(OpDef("fill_dynamic", _fill_kernel, _infer_fill,
                                 doc="a tensor of a run-time shape filled with one value"))


def fill(dims, value):
    return apply(fill_dynamic_op, (dims, value))


# --- reshape --------------------------------------------------------------------------------------------------
def reshape_error(size: int, shape) -> str:
    """TF's wording for a reshape whose element counts differ."""
    return (f"Input to reshape is a tensor with {size} values, but the requested shape has "
            f"{int(np.prod(shape))}")


def resolve_reshape(size: int, shape) -> tuple:
    """The concrete target shape (its -1 resolved) of reshaping `size` elements, with TF's errors."""
    shape = tuple(shape)
    if shape.count(-1) > 1:
        raise InvalidArgumentError(f"only one input size may be -1, not both {shape.index(-1)} and "
                                   f"{shape.index(-1, shape.index(-1) + 1)}")
    if -1 in shape:
        rest = int(np.prod([d for d in shape if d != -1]))
        if rest == 0 or size % rest:
            raise InvalidArgumentError(f"Input to reshape is a tensor with {size} values, but the requested shape "
                                       f"requires a multiple of {rest}")
        return tuple(size // rest if d == -1 else d for d in shape)
    if int(np.prod(shape)) != size:
        raise InvalidArgumentError(reshape_error(size, shape))
    return shape


def _reshape_kernel(x, shape):
    return _scalar_or_array(np.reshape(x, resolve_reshape(np.size(x), _as_dims(shape))))


def _infer_reshape(x, shape):
    target = check_shape_input(shape)
    if target is None:
        return x.dtype, None
    if sum(1 for d in target if d == -1) > 1:
        raise ValueError(f"only one dimension of the new shape may be -1, got {list(target)}")
    size = shapes.num_elements(x._shape)
    if None not in target and size is not None:
        return x.dtype, resolve_reshape(size, target)
    rest = [d for d in target if d != -1]
    if -1 in target and size is not None and None not in rest and int(np.prod(rest)):
        return x.dtype, tuple(size // int(np.prod(rest)) if d == -1 else d for d in target)
    return x.dtype, tuple(None if d == -1 else d for d in target)


reshape_dynamic_op = register(OpDef("reshape_dynamic", _reshape_kernel, _infer_reshape,
                                    doc="reshape to a shape given as a tensor"))


def reshape(x, shape):
    return apply(reshape_dynamic_op, (x, shape))


# --- broadcast_to ---------------------------------------------------------------------------------------
def _broadcast_kernel(x, shape):
    return _scalar_or_array(np.broadcast_to(x, _as_dims(shape)).copy())


def _infer_broadcast(x, shape):
    target = check_shape_input(shape)
    _check_non_negative(target, "the target shape")
    if target is None or x._shape is None:
        return x.dtype, target
    if len(x._shape) > len(target):
        raise ValueError(f"cannot broadcast a tensor of rank {len(x._shape)} to the lower rank shape "
                         f"{list(target)}")
    for have, want in zip(x._shape[::-1], target[::-1]):
        if have is not None and want is not None and have not in (1, want):
            raise ValueError(f"cannot broadcast shape {shapes.fmt(x._shape)} to {list(target)}")
    lead = len(target) - len(x._shape)
    return x.dtype, tuple(want if want is not None or i < lead or x._shape[i - lead] in (1, None)
                          else x._shape[i - lead] for i, want in enumerate(target))


broadcast_to_dynamic_op = register(OpDef("broadcast_to_dynamic", _broadcast_kernel, _infer_broadcast,
                                         doc="broadcast to a shape given as a tensor"))


def broadcast_to(x, shape):
    return apply(broadcast_to_dynamic_op, (x, shape))


# --- tile ------------------------------------------------------------------------------------------------
def _tile_kernel(x, multiples):
    multiples = _as_dims(multiples)
    if len(multiples) != np.ndim(x):
        raise InvalidArgumentError(f"Expected multiples argument to be a vector of length {np.ndim(x)} but got "
                                   f"length {len(multiples)}")
    return _scalar_or_array(np.tile(x, multiples))


def _infer_tile(x, multiples):
    known = check_shape_input(multiples, "multiples")
    _check_non_negative(known, "multiples")
    if known is None:
        return x.dtype, None if x._shape is None else (None,) * len(x._shape)
    if x._shape is None:
        return x.dtype, (None,) * len(known)
    if len(known) != len(x._shape):
        raise ValueError(f"multiples must have one entry per dimension of the input (rank {len(x._shape)}), "
                         f"got {len(known)}")
    return x.dtype, tuple(None if d is None or m is None else d * m for d, m in zip(x._shape, known))


tile_dynamic_op = register(OpDef("tile_dynamic", _tile_kernel, _infer_tile,
                                 doc="tile by multiples given as a tensor"))


def tile(x, multiples):
    return apply(tile_dynamic_op, (x, multiples))


# --- pad (CONSTANT mode) ------------------------------------------------------------------------------------
def _pad_kernel(x, paddings, constant):
    pairs = np.asarray(paddings, np.int64).reshape(-1, 2)
    if (pairs < 0).any():
        raise InvalidArgumentError(f"paddings must be non-negative, got {pairs.tolist()}")
    if len(pairs) != np.ndim(x):
        raise InvalidArgumentError(f"The first dimension of paddings must be the rank of inputs [{len(pairs)},2] "
                                   f"{np.shape(x)}")
    return _scalar_or_array(np.pad(x, pairs.tolist(), constant_values=constant)) if len(pairs) else x


def _pad_rows(paddings):
    """What inference knows of a [rank, 2] paddings tensor: per dimension the sum before + after, or None."""
    value = constant_value(paddings)
    if value is not None:
        return [int(a) + int(b) for a, b in np.reshape(value, (-1, 2))]
    node = getattr(paddings, "node", None)
    if node is not None and node.op is stack_op and node.attrs.get("axis", 0) == 0:
        rows = [static_shape_value(r) for r in node.inputs]
        return [None if r is None or None in r else sum(r) for r in rows]
    if paddings._shape is None or paddings._shape[0] is None:
        return None
    return [None] * paddings._shape[0]


def _infer_pad(x, paddings, constant):
    if constant.dtype is not x.dtype:
        raise TypeError(f"constant_values has dtype {constant.dtype.name} but the tensor has dtype {x.dtype.name}")
    if not paddings.dtype.is_integer:
        raise TypeError(f"paddings must be an int32 or int64 tensor, got {paddings.dtype.name}")
    if paddings._shape is not None and (len(paddings._shape) != 2 or paddings._shape[1] not in (2, None)):
        raise ValueError(f"paddings must have shape [rank, 2], got {shapes.fmt(paddings._shape)}")
    rows = _pad_rows(paddings)
    if x._shape is None:
        return x.dtype, None if rows is None else (None,) * len(rows)
    if rows is not None and len(rows) != len(x._shape):
        raise ValueError(f"paddings must have shape [{len(x._shape)}, 2] (one pair per dimension), got "
                         f"{len(rows)} pairs")
    rows = rows or [None] * len(x._shape)
    return x.dtype, tuple(None if d is None or r is None else d + r for d, r in zip(x._shape, rows))


pad_dynamic_op = register(OpDef("pad_dynamic", _pad_kernel, _infer_pad,
                                doc="constant padding by paddings given as a tensor"))


def pad(x, paddings, constant):
    return apply(pad_dynamic_op, (x, paddings, constant))


def _mirror_pad_kernel(x, paddings, *, mode):
    pairs = np.asarray(paddings, np.int64).reshape(-1, 2)
    if (pairs < 0).any():
        raise InvalidArgumentError(f"paddings must be non-negative, got {pairs.tolist()}")
    if len(pairs) != np.ndim(x):
        raise InvalidArgumentError(f"The first dimension of paddings must be the rank of inputs [{len(pairs)},2] "
                                   f"{np.shape(x)}")
    check_mirror_padding(np.shape(x), pairs.tolist(), mode)
    return _scalar_or_array(np.pad(x, pairs.tolist(), mode=mode.lower())) if len(pairs) else x


def _infer_mirror_pad(x, paddings, *, mode):
    return _infer_pad(x, paddings, x)


mirror_pad_dynamic_op = register(OpDef("mirror_pad_dynamic", _mirror_pad_kernel, _infer_mirror_pad,
                                       doc="REFLECT or SYMMETRIC padding by paddings given as a tensor"))


def mirror_pad(x, paddings, mode):
    return apply(mirror_pad_dynamic_op, (x, paddings), {"mode": mode})


# --- slice ------------------------------------------------------------------------------------------------
def _slice_kernel(x, begin, size):
    begin, size = _as_dims(begin), _as_dims(size)
    shape = np.shape(x)
    if len(begin) != len(shape) or len(size) != len(shape):
        raise InvalidArgumentError(f"Expected begin and size arguments to be 1-D tensors of size {len(shape)}, "
                                   f"but got shapes [{len(begin)}] and [{len(size)}] instead.")
    for d, (n, b, s) in enumerate(zip(shape, begin, size)):
        if b < 0 or b > n or s < -1 or (s != -1 and b + s > n):
            raise InvalidArgumentError(f"Expected size[{d}] in [0, {n - b}], but got {s}")
    return x[tuple(slice(b, None if s == -1 else b + s) for b, s in zip(begin, size))]


def _infer_slice(x, begin, size):
    known_begin = check_shape_input(begin, "begin")
    known_size = check_shape_input(size, "size")
    rank = len(known_size) if known_size is not None else None if known_begin is None else len(known_begin)
    if rank is None:
        rank = None if x._shape is None else len(x._shape)
    if rank is None:
        return x.dtype, None
    known_begin = known_begin or (None,) * rank
    known_size = known_size or (None,) * rank
    source = x._shape or (None,) * rank
    out = []
    for n, b, s in zip(source, known_begin, known_size):
        if s == -1:
            out.append(None if n is None or b is None else n - b)
        else:
            out.append(s)
    return x.dtype, tuple(out)


slice_dynamic_op = register(OpDef("slice_dynamic", _slice_kernel, _infer_slice,
                                  doc="tf.slice with begin and size given as tensors"))


def slice_(x, begin, size):
    return apply(slice_dynamic_op, (x, begin, size))


# --- eye --------------------------------------------------------------------------------------------------
def _eye_kernel(num_rows, num_columns, *, dtype):
    return np.eye(int(num_rows), int(num_columns), dtype=dtype.np)


def _infer_eye(num_rows, num_columns, *, dtype):
    for what, t in (("num_rows", num_rows), ("num_columns", num_columns)):
        if not t.dtype.is_integer or t._shape not in ((), None):
            raise TypeError(f"{what} must be an integer scalar, got a {t.dtype.name} tensor of shape "
                            f"{shapes.fmt(t._shape)}")
    return dtype, (static_scalar_value(num_rows), static_scalar_value(num_columns))


eye_dynamic_op = register(OpDef("eye_dynamic", _eye_kernel, _infer_eye, differentiable=False,
                                doc="an identity matrix of a run-time size"))


def eye(num_rows, num_columns, dtype):
    rows = convert_to_tensor(num_rows)
    cols = rows if num_columns is None else convert_to_tensor(num_columns)
    return apply(eye_dynamic_op, (rows, cols), {"dtype": dtypes.as_dtype(dtype)})
