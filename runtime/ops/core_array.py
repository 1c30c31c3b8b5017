"""TF's top-level array ops that need kernels of their own: tf.repeat, tf.ensure_shape, tf.reverse_sequence,
tf.dynamic_partition / dynamic_stitch, tf.unravel_index, tf.broadcast_dynamic_shape (BroadcastArgs), tf.bitcast,
tf.timestamp, and space_to_batch_nd / batch_to_space_nd. Their gradient rules are in core_array_grad.py.

Each output shape is inferred as far as the inputs allow: a repeat count or stitch index known at trace time
(constant_value) gives a static dimension, otherwise the dimension is None and the kernel decides."""

from __future__ import annotations

import time

import numpy as np

from .. import dtypes, shapes
from ..errors import InvalidArgumentError
from ..registry import OpDef, register
from .common import normalize_axis, require
from .static_value import constant_value


def _rank(t):
    return None if t._shape is None else len(t._shape)


# --- repeat ------------------------------------------------------------------------------------------------
def _repeat_kernel(x, repeats, *, axis):
    x = np.asarray(x)
    if axis is None:
        x = x.reshape(-1)
        axis = 0
    repeats = np.asarray(repeats)
    if np.any(repeats < 0):
        raise InvalidArgumentError(f"repeat: repeats must be non-negative, got {repeats.tolist()}")
    if repeats.ndim == 1 and repeats.size == 1:
        repeats = repeats.reshape(())
    if repeats.ndim == 1 and repeats.size != x.shape[axis]:
        raise InvalidArgumentError(f"repeat: {repeats.size} repeats for a dimension of size {x.shape[axis]} "
                                   f"(input shape {list(x.shape)}, axis {axis})")
    return np.repeat(x, repeats, axis=axis)


def _repeat_infer(x, repeats, *, axis):
    require(repeats.dtype, "int", "repeat (repeats)")
    if repeats._shape is not None and len(repeats._shape) > 1:
        raise ValueError(f"repeat: repeats must be a scalar or a vector, got shape {shapes.fmt(repeats._shape)}")
    if x._shape is None:
        return x.dtype, None
    if axis is None:
        size = None if None in x._shape else int(np.prod(x._shape))
        shape, axis = (size,), 0
    else:
        shape = x._shape
        axis = normalize_axis(axis, len(shape))
    counts = constant_value(repeats)
    if counts is None or shape[axis] is None:
        out = None
    else:
        counts = np.asarray(counts).reshape(-1)
        out = int(counts[0]) * shape[axis] if counts.size == 1 else int(counts.sum())
    return x.dtype, shape[:axis] + (out,) + shape[axis + 1:]


repeat_op = register(OpDef("repeat", _repeat_kernel, _repeat_infer,
                           doc="each element repeated `repeats` times along an axis (np.repeat)"))


def _segments(repeats, size):
    counts = np.broadcast_to(np.asarray(repeats).reshape(-1), (size,))
    return np.repeat(np.arange(size), counts)


def _repeat_grad_kernel(g, repeats, x, *, axis):
    """The gradient of repeat: the copies of each element summed back (segment sums along the axis)."""
    shape = np.shape(x)
    flat = axis is None
    axis = 0 if flat else axis % len(shape)
    size = int(np.prod(shape)) if flat else shape[axis]
    ids = _segments(repeats, size)
    moved = np.moveaxis(np.asarray(g), axis, 0)
    out = np.zeros((size,) + moved.shape[1:], moved.dtype)
    np.add.at(out, ids, moved)
    out = np.moveaxis(out, 0, axis)
    return out.reshape(shape) if flat else out


repeat_grad_op = register(OpDef("repeat_grad", _repeat_grad_kernel,
                                lambda g, repeats, x, *, axis: (g.dtype, x._shape),
                                doc="the gradient of repeat: each element's copies summed"))


# --- ensure_shape ------------------------------------------------------------------------------------------
def _compatible(shape, expected) -> bool:
    return len(shape) == len(expected) and all(e is None or s is None or s == e for s, e in zip(shape, expected))


def _ensure_shape_kernel(x, *, shape):
    if shape is not None and not _compatible(np.shape(x), shape):
        raise InvalidArgumentError(f"Shape of tensor x {list(np.shape(x))} is not compatible with expected shape "
                                   f"{shapes.fmt(shape)}.")
    return x


def _ensure_shape_infer(x, *, shape):
    if shape is None:
        return x.dtype, x._shape
    if x._shape is None:
        return x.dtype, shape
    if not _compatible(x._shape, shape):
        raise ValueError(f"Shape of tensor x {shapes.fmt(x._shape)} is not compatible with expected shape "
                         f"{shapes.fmt(shape)}")
    return x.dtype, tuple(s if s is not None else e for s, e in zip(x._shape, shape))


ensure_shape_op = register(OpDef("ensure_shape", _ensure_shape_kernel, _ensure_shape_infer, foldable=False,
                                 doc="x unchanged, after checking its shape against a partial shape"))


# --- reverse_sequence --------------------------------------------------------------------------------------
def _reverse_sequence_kernel(x, lengths, *, seq_axis, batch_axis):
    x = np.asarray(x)
    lengths = np.asarray(lengths).reshape(-1)
    if lengths.size != x.shape[batch_axis]:
        raise InvalidArgumentError(f"reverse_sequence: len(seq_lens) != input.dims({batch_axis}), "
                                   f"({lengths.size} vs. {x.shape[batch_axis]})")
    if np.any(lengths > x.shape[seq_axis]) or np.any(lengths < 0):
        raise InvalidArgumentError(f"reverse_sequence: seq_lens must be in [0, input.dims({seq_axis})] = "
                                   f"[0, {x.shape[seq_axis]}], got {lengths.tolist()}")
    out = x.copy()
    moved_out = np.moveaxis(out, (batch_axis, seq_axis), (0, 1))
    moved_in = np.moveaxis(x, (batch_axis, seq_axis), (0, 1))
    for b, n in enumerate(lengths.tolist()):
        moved_out[b, :n] = moved_in[b, :n][::-1]
    return out


def _reverse_sequence_infer(x, lengths, *, seq_axis, batch_axis):
    require(lengths.dtype, "int", "reverse_sequence (seq_lengths)")
    rank = _rank(x)
    if rank is not None and (max(seq_axis, batch_axis) >= rank or seq_axis == batch_axis):
        raise ValueError(f"reverse_sequence: seq_axis {seq_axis} and batch_axis {batch_axis} must be distinct axes "
                         f"of the input of rank {rank}")
    return x.dtype, x._shape


reverse_sequence_op = register(OpDef("reverse_sequence", _reverse_sequence_kernel, _reverse_sequence_infer,
                                     doc="the first seq_lengths[b] elements of each batch row reversed"))


# --- dynamic_partition / dynamic_stitch ----------------------------------------------------------------------
def _dynamic_partition_kernel(data, partitions, *, num_partitions):
    data, partitions = np.asarray(data), np.asarray(partitions)
    if data.shape[:partitions.ndim] != partitions.shape:
        raise InvalidArgumentError(f"data.shape must start with partitions.shape, got data.shape = "
                                   f"{list(data.shape)}, partitions.shape = {list(partitions.shape)}")
    if partitions.size and (partitions.min() < 0 or partitions.max() >= num_partitions):
        bad = partitions[(partitions < 0) | (partitions >= num_partitions)].reshape(-1)[0]
        raise InvalidArgumentError(f"partitions has value {bad} which is outside [0, {num_partitions})")
    rows = data.reshape((partitions.size,) + data.shape[partitions.ndim:])
    flat = partitions.reshape(-1)
    return tuple(rows[flat == i] for i in range(num_partitions))


def _dynamic_partition_infer(data, partitions, *, num_partitions):
    require(partitions.dtype, "int", "dynamic_partition (partitions)")
    if num_partitions < 1:
        raise ValueError(f"dynamic_partition: num_partitions must be at least 1, got {num_partitions}")
    rest = None
    if data._shape is not None and partitions._shape is not None:
        rest = data._shape[len(partitions._shape):]
    shape = None if rest is None else (None,) + tuple(rest)
    return [(data.dtype, shape)] * num_partitions


dynamic_partition_op = register(OpDef("dynamic_partition", _dynamic_partition_kernel, _dynamic_partition_infer,
                                      doc="the rows of data split into num_partitions lists by partitions"))


def _dynamic_stitch_kernel(*parts):
    n = len(parts) // 2
    indices, data = [np.asarray(i) for i in parts[:n]], [np.asarray(d) for d in parts[n:]]
    size = max((int(i.max()) + 1 for i in indices if i.size), default=0)
    inner = None
    for i, d in zip(indices, data):
        if d.shape[:i.ndim] != i.shape:
            raise InvalidArgumentError(f"dynamic_stitch: data.shape {list(d.shape)} must start with indices.shape "
                                       f"{list(i.shape)}")
        inner = d.shape[i.ndim:] if inner is None else inner
    dtype = data[0].dtype if data else np.float32
    out = np.zeros((size,) + tuple(inner or ()), dtype)
    for i, d in zip(indices, data):  # later lists win, as in TF
        out[i.reshape(-1)] = d.reshape((i.size,) + out.shape[1:])
    return out


def _dynamic_stitch_infer(*parts):
    n = len(parts) // 2
    for i in parts[:n]:
        require(i.dtype, "int", "dynamic_stitch (indices)")
    dtypes_ = {d.dtype for d in parts[n:]}
    if len(dtypes_) != 1:
        raise TypeError(f"dynamic_stitch: the data must have one dtype, got {sorted(t.name for t in dtypes_)}")
    inner = None
    for i, d in zip(parts[:n], parts[n:]):
        if i._shape is not None and d._shape is not None:
            inner = tuple(d._shape[len(i._shape):])
            break
    values = [constant_value(i) for i in parts[:n]]
    size = None
    if all(v is not None for v in values):
        size = max((int(np.max(v)) + 1 for v in values if np.size(v)), default=0)
    return parts[n].dtype, None if inner is None else (size,) + inner


dynamic_stitch_op = register(OpDef("dynamic_stitch", _dynamic_stitch_kernel, _dynamic_stitch_infer,
                                   doc="merged[indices[m][i]] = data[m][i], later lists overriding earlier"))


# --- unravel_index, broadcast_args, bitcast ------------------------------------------------------------------
def _unravel_kernel(indices, dims):
    indices, dims = np.asarray(indices), np.asarray(dims)
    total = int(np.prod(dims))
    if indices.size and (indices.min() < 0 or indices.max() >= total):
        raise InvalidArgumentError(f"unravel_index: index out of bounds for array of dims {dims.tolist()}: "
                                   f"indices must be in [0, {total})")
    return np.stack(np.unravel_index(indices, tuple(int(d) for d in dims))).astype(indices.dtype)


def _unravel_infer(indices, dims):
    require(indices.dtype, "int", "unravel_index")
    if indices.dtype is not dims.dtype:
        raise TypeError(f"unravel_index: indices and dims must have one dtype, got {indices.dtype.name} and "
                        f"{dims.dtype.name}")
    n = None if dims._shape is None else dims._shape[0]
    if indices._shape is None:
        return indices.dtype, None
    if len(indices._shape) > 1:
        raise ValueError(f"unravel_index: indices must be a scalar or a vector, got {shapes.fmt(indices._shape)}")
    return indices.dtype, (n,) + tuple(indices._shape)


unravel_index_op = register(OpDef("unravel_index", _unravel_kernel, _unravel_infer, differentiable=False,
                                  doc="flat indices as coordinates of an array of shape dims"))


def _broadcast_args_kernel(a, b):
    try:
        return np.array(np.broadcast_shapes(tuple(np.asarray(a).tolist()), tuple(np.asarray(b).tolist())),
                        np.asarray(a).dtype)
    except ValueError:
        raise InvalidArgumentError(f"Incompatible shapes: {np.asarray(a).tolist()} vs. {np.asarray(b).tolist()}") \
            from None


def _broadcast_args_infer(a, b):
    require(a.dtype, "int", "broadcast_dynamic_shape")
    if a.dtype is not b.dtype:
        raise TypeError(f"broadcast_dynamic_shape: both shapes must have one dtype, got {a.dtype.name} and "
                        f"{b.dtype.name}")
    lengths = [None if t._shape is None else t._shape[0] for t in (a, b)]
    return a.dtype, (None if None in lengths else max(lengths),)


broadcast_args_op = register(OpDef("broadcast_args", _broadcast_args_kernel, _broadcast_args_infer,
                                   differentiable=False, doc="the broadcast of two shapes (TF's BroadcastArgs)"))


def _bitcast_kernel(x, *, type):  # noqa: A002 - TF's attribute name
    x = np.asarray(x)
    if not x.flags.c_contiguous:  # (np.ascontiguousarray would make a scalar 1-D)
        x = x.copy()
    target = np.dtype(type.np)
    if x.dtype.itemsize == target.itemsize:
        return x.view(target)
    if x.dtype.itemsize > target.itemsize:
        return x.reshape(x.shape + (1,)).view(target)
    return x.view(target).reshape(x.shape[:-1])


def _bitcast_infer(x, *, type):  # noqa: A002
    source, target = x.dtype, type
    if source.is_string or target.is_string or source.is_bool or target.is_bool:
        raise TypeError(f"bitcast: cannot bitcast from {source.name} to {target.name}")
    big, small = np.dtype(source.np).itemsize, np.dtype(target.np).itemsize
    if x._shape is None or big == small:
        return target, x._shape
    if big > small:
        return target, tuple(x._shape) + (big // small,)
    if not x._shape or (x._shape[-1] is not None and x._shape[-1] != small // big):
        raise ValueError(f"bitcast: cannot bitcast from {source.name} to {target.name}: the last dimension of "
                         f"shape {shapes.fmt(x._shape)} must be {small // big}")
    return target, tuple(x._shape[:-1])


bitcast_op = register(OpDef("bitcast", _bitcast_kernel, _bitcast_infer, differentiable=False,
                            doc="the same bytes seen as another dtype"))


timestamp_op = register(OpDef("timestamp", lambda: np.float64(time.time()), lambda: (dtypes.float64, ()),
                              stateful=True, differentiable=False, doc="seconds since the epoch, when it runs"))


# --- space_to_batch_nd / batch_to_space_nd --------------------------------------------------------------------
def _space_to_batch_kernel(x, *, block_shape, paddings):
    x = np.asarray(x)
    m = len(block_shape)
    padded = np.pad(x, ((0, 0),) + tuple(tuple(p) for p in paddings) + ((0, 0),) * (x.ndim - 1 - m))
    for i, b in enumerate(block_shape):
        if padded.shape[1 + i] % b:
            raise InvalidArgumentError(f"space_to_batch: padded_shape[{i}]={padded.shape[1 + i]} is not divisible "
                                       f"by block_shape[{i}]={b}")
    n, spatial, rest = padded.shape[0], padded.shape[1:1 + m], padded.shape[1 + m:]
    split = [n]
    for size, b in zip(spatial, block_shape):
        split += [size // b, b]
    view = padded.reshape(tuple(split) + rest)
    # (n, s0/b0, b0, s1/b1, b1, ..., rest) -> (b0, b1, ..., n, s0/b0, s1/b1, ..., rest)
    order = [2 + 2 * i for i in range(m)] + [0] + [1 + 2 * i for i in range(m)] + list(range(1 + 2 * m, view.ndim))
    out = view.transpose(order)
    return out.reshape((n * int(np.prod(block_shape)),) + tuple(s // b for s, b in zip(spatial, block_shape)) + rest)


def _batch_to_space_kernel(x, *, block_shape, crops):
    x = np.asarray(x)
    m = len(block_shape)
    blocks = int(np.prod(block_shape))
    if x.shape[0] % blocks:
        raise InvalidArgumentError(f"batch_to_space: input batch dimension ({x.shape[0]}) is not divisible by the "
                                   f"product of block sizes ({blocks})")
    n, spatial, rest = x.shape[0] // blocks, x.shape[1:1 + m], x.shape[1 + m:]
    view = x.reshape(tuple(block_shape) + (n,) + spatial + rest)
    # (b0, ..., n, s0, s1, ..., rest) -> (n, s0, b0, s1, b1, ..., rest)
    order = [m]
    for i in range(m):
        order += [m + 1 + i, i]
    order += list(range(2 * m + 1, view.ndim))
    full = view.transpose(order).reshape((n,) + tuple(s * b for s, b in zip(spatial, block_shape)) + rest)
    index = (slice(None),) + tuple(slice(c0, full.shape[1 + i] - c1) for i, (c0, c1) in enumerate(crops))
    return full[index]


def _check_block(x, block_shape, pairs, what, op_name):
    if any(b < 1 for b in block_shape):
        raise ValueError(f"{op_name}: block_shape must be positive, got {list(block_shape)}")
    if len(pairs) != len(block_shape) or any(len(p) != 2 or min(p) < 0 for p in pairs):
        raise ValueError(f"{op_name}: {what} must be a non-negative [{len(block_shape)}, 2] list, got "
                         f"{[list(p) for p in pairs]}")
    if x._shape is not None and len(x._shape) < 1 + len(block_shape):
        raise ValueError(f"{op_name}: the input of shape {shapes.fmt(x._shape)} needs at least "
                         f"{1 + len(block_shape)} dimensions for a block_shape of {len(block_shape)}")


def _space_to_batch_infer(x, *, block_shape, paddings):
    _check_block(x, block_shape, paddings, "paddings", "space_to_batch_nd")
    if x._shape is None:
        return x.dtype, None
    m, blocks = len(block_shape), int(np.prod(block_shape))
    spatial = []
    for i, (b, (p0, p1)) in enumerate(zip(block_shape, paddings)):
        size = x._shape[1 + i]
        if size is not None and (size + p0 + p1) % b:
            raise ValueError(f"space_to_batch_nd: padded_shape[{i}]={size + p0 + p1} is not divisible by "
                             f"block_shape[{i}]={b}")
        spatial.append(None if size is None else (size + p0 + p1) // b)
    batch = None if x._shape[0] is None else x._shape[0] * blocks
    return x.dtype, (batch,) + tuple(spatial) + tuple(x._shape[1 + m:])


def _batch_to_space_infer(x, *, block_shape, crops):
    _check_block(x, block_shape, crops, "crops", "batch_to_space_nd")
    if x._shape is None:
        return x.dtype, None
    m, blocks = len(block_shape), int(np.prod(block_shape))
    if x._shape[0] is not None and x._shape[0] % blocks:
        raise ValueError(f"batch_to_space_nd: the input batch dimension ({x._shape[0]}) is not divisible by the "
                         f"product of block sizes ({blocks})")
    spatial = [None if x._shape[1 + i] is None else x._shape[1 + i] * b - c0 - c1
               for i, (b, (c0, c1)) in enumerate(zip(block_shape, crops))]
    batch = None if x._shape[0] is None else x._shape[0] // blocks
    return x.dtype, (batch,) + tuple(spatial) + tuple(x._shape[1 + m:])


space_to_batch_nd_op = register(OpDef("space_to_batch_nd", _space_to_batch_kernel, _space_to_batch_infer,
                                      doc="spatial blocks of a padded input moved into the batch dimension"))
batch_to_space_nd_op = register(OpDef("batch_to_space_nd", _batch_to_space_kernel, _batch_to_space_infer,
                                      doc="the inverse of space_to_batch_nd: batch blocks back into space, cropped"))
