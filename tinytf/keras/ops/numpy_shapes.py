"""keras.ops.numpy's shape and indexing functions: reshapes, transposes, joins and splits, flips and rolls,
take/where/select, diagonals and triangles, padding, sorting and searching, unique and bincount."""

from __future__ import annotations

import builtins

import numpy as np

import tinytf as tf

from .core import cast, convert_to_tensor
from .dtype_rules import dtype_of, result_type, standardize_dtype
from .numpy_promotion import _abs, _max, _min, _promote


def reshape(x, newshape):
    return tf.reshape(convert_to_tensor(x), [newshape] if isinstance(newshape, int) else newshape)


def ravel(x):
    return tf.reshape(convert_to_tensor(x), [-1])


def transpose(x, axes=None):
    return tf.transpose(convert_to_tensor(x), perm=axes)


def swapaxes(x, axis1, axis2):
    x = convert_to_tensor(x)
    perm = list(range(len(x.shape)))
    perm[axis1], perm[axis2] = perm[axis2], perm[axis1]
    return tf.transpose(x, perm)


def moveaxis(x, source, destination):
    """x with the axes `source` moved to `destination`, the others in their order."""
    x = convert_to_tensor(x)
    rank = len(x.shape)
    source = [source] if isinstance(source, int) else list(source)
    destination = [destination] if isinstance(destination, int) else list(destination)
    source, destination = [s % rank for s in source], [d % rank for d in destination]
    order = [a for a in range(rank) if a not in source]
    for dest, src in sorted(zip(destination, source)):
        order.insert(dest, src)
    return tf.transpose(x, order)


def expand_dims(x, axis):
    x = convert_to_tensor(x)
    for a in sorted([axis] if isinstance(axis, int) else [a % (len(x.shape) + len(axis)) for a in axis]):
        x = tf.expand_dims(x, a)
    return x


def squeeze(x, axis=None):
    x = convert_to_tensor(x)
    if isinstance(axis, int):
        axis = [axis]
    if axis is not None:
        for a in axis:
            if x.shape[a] is not None and x.shape[a] != 1:
                raise ValueError(f"Cannot squeeze axis {a}, because the dimension is not 1.")
    return tf.squeeze(x, axis=axis)


def broadcast_to(x, shape):
    return tf.broadcast_to(convert_to_tensor(x), shape)


def concatenate(xs, axis=0):
    xs = [convert_to_tensor(x) for x in xs]
    dtype = result_type(*(x.dtype for x in xs))
    if axis is None:
        xs, axis = [tf.reshape(x, [-1]) for x in xs], 0
    return tf.concat([cast(x, dtype) for x in xs], axis=axis)


def append(x1, x2, axis=None):
    return concatenate([x1, x2], axis=axis)


def stack(x, axis=0):
    xs = [convert_to_tensor(v) for v in x]
    dtype = result_type(*(v.dtype for v in xs))
    return tf.stack([cast(v, dtype) for v in xs], axis=axis)


def hstack(xs):
    xs = [convert_to_tensor(x) for x in xs]
    return concatenate(xs, axis=0 if len(xs[0].shape) == 1 else 1)


def vstack(xs):
    """The tensors joined along axis 0 (1-D ones stay 1-D: Keras' TensorFlow backend concatenates them)."""
    return concatenate(xs, axis=0)


def dstack(xs):
    def at_least_3d(x):
        x = convert_to_tensor(x)
        if len(x.shape) == 1:
            return tf.reshape(x, [1, -1, 1])
        if len(x.shape) == 2:
            return tf.expand_dims(x, -1)
        return x
    return concatenate([at_least_3d(x) for x in xs], axis=2)


def split(x, indices_or_sections, axis=0):
    """Equal sections (an int that must divide the axis) or pieces cut at the given indices."""
    x = convert_to_tensor(x)
    if isinstance(indices_or_sections, int):
        return tf.split(x, indices_or_sections, axis=axis)
    n = x.shape[axis]
    bounds = [0, *indices_or_sections, n]
    return tf.split(x, [b - a for a, b in zip(bounds[:-1], bounds[1:])], axis=axis)


def array_split(x, indices_or_sections, axis=0):
    """Like split with an int, but the sections may differ by one (the first ones longer)."""
    x = convert_to_tensor(x)
    n = x.shape[axis]
    k = indices_or_sections
    sizes = [n // k + 1] * (n % k) + [n // k] * (k - n % k)
    return tf.split(x, sizes, axis=axis)


def hsplit(x, indices_or_sections):
    x = convert_to_tensor(x)
    return split(x, indices_or_sections, axis=0 if len(x.shape) == 1 else 1)


def vsplit(x, indices_or_sections):
    return split(x, indices_or_sections, axis=0)


def dsplit(x, indices_or_sections):
    return split(x, indices_or_sections, axis=2)


def tile(x, repeats):
    x = convert_to_tensor(x)
    repeats = [repeats] if isinstance(repeats, int) else list(repeats)
    if len(repeats) < len(x.shape):
        repeats = [1] * (len(x.shape) - len(repeats)) + repeats
    elif len(repeats) > len(x.shape):
        x = tf.reshape(x, tf.concat([tf.ones([len(repeats) - len(x.shape)], "int32"), tf.shape(x)], 0))
    return tf.tile(x, repeats)


def repeat(x, repeats, axis=None):
    """Each element repeated `repeats` times (an int, or one count per element) along axis."""
    x = convert_to_tensor(x)
    if axis is None:
        x, axis = tf.reshape(x, [-1]), 0
    axis = axis % len(x.shape)
    n = x.shape[axis] if x.shape[axis] is not None else tf.shape(x)[axis]
    counts = tf.broadcast_to(convert_to_tensor(repeats, "int32"), [n])
    ends = tf.cumsum(counts)
    positions = tf.range(ends[-1])
    index = tf.searchsorted(ends, positions, side="right")
    return tf.gather(x, index, axis=axis)


def flip(x, axis=None):
    x = convert_to_tensor(x)
    if axis is None:
        axis = list(range(len(x.shape)))
    return tf.reverse(x, [axis] if isinstance(axis, int) else list(axis))


def fliplr(x):
    return flip(x, 1)


def flipud(x):
    return flip(x, 0)


def roll(x, shift, axis=None):
    x = convert_to_tensor(x)
    if axis is None:
        return tf.reshape(tf.roll(tf.reshape(x, [-1]), shift, 0), tf.shape(x))
    return tf.roll(x, shift, axis)


def rot90(array, k=1, axes=(0, 1)):
    """array rotated by 90 degrees k times in the plane of `axes` (counter-clockwise from axes[0] to axes[1])."""
    x = convert_to_tensor(array)
    k = k % 4
    if k == 0:
        return x
    if k == 2:
        return flip(flip(x, axes[0]), axes[1])
    perm = list(range(len(x.shape)))
    perm[axes[0]], perm[axes[1]] = perm[axes[1]], perm[axes[0]]
    if k == 1:
        return tf.transpose(flip(x, axes[1]), perm)
    return flip(tf.transpose(x, perm), axes[1])


def take(x, indices, axis=None):
    """Elements of x at indices (negative ones count from the end); axis None takes from the flattened x."""
    x = convert_to_tensor(x)
    indices = convert_to_tensor(indices)
    if not indices.dtype.is_integer:
        indices = cast(indices, "int32")
    if axis is None:
        x, axis = tf.reshape(x, [-1]), 0
    n = tf.cast(tf.shape(x)[axis], indices.dtype)
    indices = tf.where(indices < 0, indices + n, indices)
    return tf.gather(x, indices, axis=axis)


def take_along_axis(x, indices, axis=None):
    """x's elements at indices along axis, the other axes broadcast (numpy's take_along_axis)."""
    x = convert_to_tensor(x)
    indices = convert_to_tensor(indices)
    if axis is None:
        x, axis = tf.reshape(x, [-1]), 0
    rank = len(x.shape)
    axis = axis % rank
    n = tf.cast(tf.shape(x)[axis], indices.dtype)
    indices = tf.where(indices < 0, indices + n, indices)
    x_shape, i_shape = list(x.shape), list(indices.shape)
    out_shape = [i_shape[a] if a == axis else (_max(x_shape[a], i_shape[a])) for a in range(rank)]
    x = tf.broadcast_to(x, [x_shape[a] if a == axis else out_shape[a] for a in range(rank)])
    indices = tf.broadcast_to(indices, out_shape)
    grids = tf.meshgrid(*[tf.range(d) for d in out_shape], indexing="ij")
    coords = [cast(indices, "int32") if a == axis else grids[a] for a in range(rank)]
    return tf.gather_nd(x, tf.stack(coords, axis=-1))


def get_item(x, key):
    return convert_to_tensor(x)[key]


def where(condition, x1=None, x2=None):
    """x1 where condition else x2 (promoted as Keras does); with only condition, the indices of its true
    elements, one int64... (int32 here as TF's backend returns) vector per axis."""
    condition = cast(condition, "bool")
    if x1 is None and x2 is None:
        return nonzero(condition)
    if x1 is None or x2 is None:
        raise ValueError("`x1` and `x2` either both should be `None` or both should have non-None value.")
    (a, b), _ = _promote(x1, x2)
    return tf.where(condition, a, b)


def nonzero(x):
    """One int32 index vector per axis for the non-zero elements of x (row-major order)."""
    x = convert_to_tensor(x)
    found = tf.where(cast(x, "bool"))
    return [cast(found[:, i], "int32") for i in range(len(x.shape))]


def select(condlist, choicelist, default=0):
    """The first choice whose condition holds, else default."""
    choices = [convert_to_tensor(c) for c in choicelist]
    dtype = result_type(*(c.dtype for c in choices), dtype_of(default))
    out = tf.broadcast_to(convert_to_tensor(default, dtype), tf.shape(choices[0]))
    for cond, choice in reversed(list(zip(condlist, choices))):
        out = tf.where(cast(cond, "bool"), cast(choice, dtype), out)
    return out


def diagonal(x, offset=0, axis1=0, axis2=1):
    """The offset diagonal of the (axis1, axis2) planes, as the last axis."""
    x = moveaxis(convert_to_tensor(x), [axis1, axis2], [-2, -1])
    rows, cols = x.shape[-2], x.shape[-1]
    start_r, start_c = _max(0, -offset), _max(0, offset)
    length = _max(0, _min(rows - start_r, cols - start_c))
    idx = tf.range(length)
    coords = tf.stack([idx + start_r, idx + start_c], axis=-1)
    lead = len(x.shape) - 2
    x = moveaxis(x, [-2, -1], [0, 1])
    out = tf.gather_nd(x, coords)
    return moveaxis(out, 0, -1) if lead else out


def diag(x, k=0):
    """A 1-D x as the k-th diagonal of a square matrix; a 2-D x's k-th diagonal."""
    x = convert_to_tensor(x)
    if len(x.shape) == 1:
        n = x.shape[0] + _abs(k)
        rows = tf.range(x.shape[0]) + _max(0, -k)
        cols = tf.range(x.shape[0]) + _max(0, k)
        return tf.scatter_nd(tf.stack([rows, cols], axis=-1), x, [n, n])
    if len(x.shape) == 2:
        return diagonal(x, offset=k)
    raise ValueError(f"`x` must be 1-D or 2-D. Received: x.shape={tuple(x.shape)}")


def diagflat(x, k=0):
    return diag(ravel(x), k)


def trace(x, offset=0, axis1=0, axis2=1):
    x = convert_to_tensor(x)
    name = standardize_dtype(x.dtype)
    out_dtype = {"bool": "int32", "int8": "int32", "int16": "int32", "uint8": "uint32", "uint16": "uint32"}.get(
        name, name)
    return tf.reduce_sum(cast(diagonal(x, offset, axis1, axis2), out_dtype), axis=-1)


def tril(x, k=0):
    """x with the elements above the k-th diagonal zeroed."""
    x = convert_to_tensor(x)
    rows, cols = tf.shape(x)[-2], tf.shape(x)[-1]
    keep = tf.range(cols)[None, :] <= tf.range(rows)[:, None] + k
    return tf.where(keep, x, tf.zeros_like(x))


def triu(x, k=0):
    x = convert_to_tensor(x)
    rows, cols = tf.shape(x)[-2], tf.shape(x)[-1]
    keep = tf.range(cols)[None, :] >= tf.range(rows)[:, None] + k
    return tf.where(keep, x, tf.zeros_like(x))


def pad(x, pad_width, mode="constant", constant_values=None):
    """numpy.pad's constant, reflect and symmetric modes."""
    x = convert_to_tensor(x)
    widths = np.broadcast_to(np.asarray(pad_width), (len(x.shape), 2)).tolist()
    if mode != "constant" and constant_values is not None:
        raise ValueError("Argument `constant_values` can only be provided when `mode == 'constant'`. "
                         f"Received: mode={mode}")
    kwargs = {"constant_values": constant_values} if constant_values is not None else {}
    return tf.pad(x, widths, mode=mode.upper(), **kwargs)


def sort(x, axis=-1):
    x = convert_to_tensor(x)
    if axis is None:
        x, axis = tf.reshape(x, [-1]), 0
    if x.dtype == tf.bool:
        return cast(tf.sort(cast(x, "int32"), axis=axis), "bool")
    return tf.sort(x, axis=axis)


def argsort(x, axis=-1):
    """The indices that sort x (stable), int32."""
    x = convert_to_tensor(x)
    if axis is None:
        x, axis = tf.reshape(x, [-1]), 0
    if standardize_dtype(x.dtype) == "bool":
        x = cast(x, "uint8")
    return tf.argsort(x, axis=axis, stable=True)


def argpartition(x, kth, axis=-1):
    """Indices that put the kth element where a sort would, smaller ones before it (here: a full stable sort,
    which is one valid partition)."""
    return argsort(x, axis=axis)


def searchsorted(sorted_sequence, values, side="left"):
    sorted_sequence, values = convert_to_tensor(sorted_sequence), convert_to_tensor(values)
    dtype = result_type(sorted_sequence.dtype, values.dtype)
    return tf.searchsorted(cast(sorted_sequence, dtype), cast(values, dtype), side=side, out_type="int32")


def digitize(x, bins):
    """The index of the bin each x falls in (bins increasing: bins[i-1] <= x < bins[i])."""
    x, bins = convert_to_tensor(x), convert_to_tensor(bins)
    dtype = result_type(x.dtype, bins.dtype)
    flat = tf.reshape(cast(x, dtype), [-1])
    out = tf.searchsorted(cast(bins, dtype), flat, side="right", out_type="int32")
    return tf.reshape(out, tf.shape(x))


def unravel_index(indices, shape):
    """Flat indices as one coordinate tensor per dimension of `shape`."""
    indices = convert_to_tensor(indices)
    coords = []
    for dim in reversed(shape):
        coords.append(indices % dim)
        indices = indices // dim
    return tuple(reversed(coords))


def bincount(x, weights=None, minlength=0, sparse=False):
    """Counts of each non-negative int in x (weighted sums with weights)."""
    x = convert_to_tensor(x)
    dtype = "int32" if weights is None else result_type(convert_to_tensor(weights).dtype)
    if weights is not None:
        weights = convert_to_tensor(weights, dtype)
    return tf.math.bincount(cast(x, "int32"), weights=weights, minlength=minlength, dtype=dtype)


def unique(x, sorted=True, return_index=False, return_inverse=False, return_counts=False, axis=None,  # noqa: A002
           size=None, fill_value=None):
    """The distinct values of the flattened x, sorted (with the index of each one's first occurrence, the
    inverse map and counts if asked)."""
    x = tf.reshape(convert_to_tensor(x), [-1])
    values, idx, counts = tf.unique_with_counts(x)
    first = tf.math.unsorted_segment_min(tf.range(tf.size(x)), idx, tf.size(values)) if return_index else None
    if sorted:
        order = tf.argsort(values, stable=True)
        rank = tf.scatter_nd(order[:, None], tf.range(tf.size(order)), tf.shape(order))
        values, counts, idx = tf.gather(values, order), tf.gather(counts, order), tf.gather(rank, idx)
        first = tf.gather(first, order) if return_index else None
    if size is not None:  # Keras' static size: cut to `size` values or pad with fill_value (indices with 1)
        values, first, counts = (_to_size(t, size, fill) if t is not None else None for t, fill in
                                 [(values, fill_value or 0), (first, 1), (counts, 0)])
    out = ([values] + ([first] if return_index else []) + ([idx] if return_inverse else [])
           + ([counts] if return_counts else []))
    return out[0] if len(out) == 1 else tuple(out)


def _to_size(t, size: int, fill):
    t = t[:size]
    return tf.pad(t, [[0, size - tf.shape(t)[0]]], constant_values=tf.cast(fill, t.dtype))


def isin(x1, x2, assume_unique=False, invert=False):
    """Whether each element of x1 occurs in x2."""
    x1, x2 = convert_to_tensor(x1), convert_to_tensor(x2)
    dtype = result_type(x1.dtype, x2.dtype)
    found = tf.reduce_any(tf.equal(cast(x1, dtype)[..., None], tf.reshape(cast(x2, dtype), [-1])), axis=-1)
    return tf.logical_not(found) if invert else found


def diff(a, n=1, axis=-1):
    """The n-th discrete difference along axis."""
    x = convert_to_tensor(a)
    for _ in builtins.range(n):
        rank = len(x.shape)
        ax = axis % rank
        head = [slice(None)] * rank
        tail = [slice(None)] * rank
        head[ax], tail[ax] = slice(1, None), slice(None, -1)
        x = x[tuple(head)] - x[tuple(tail)]
    return x


def ndim(x):
    return len(x.shape) if hasattr(x, "shape") else len(convert_to_tensor(x).shape)


def size(x):
    return tf.size(convert_to_tensor(x))


__all__ = ["append", "argpartition", "argsort", "array_split", "bincount", "broadcast_to", "concatenate", "diag",
           "diagflat", "diagonal", "diff", "digitize", "dsplit", "dstack", "expand_dims", "flip", "fliplr", "flipud",
           "get_item", "hsplit", "hstack", "isin", "moveaxis", "ndim", "nonzero", "pad", "ravel", "repeat", "reshape",
           "roll", "rot90", "searchsorted", "select", "size", "sort", "split", "squeeze", "stack", "swapaxes", "take",
           "take_along_axis", "tile", "trace", "transpose", "tril", "triu", "unique", "unravel_index", "vsplit",
           "vstack", "where"]
