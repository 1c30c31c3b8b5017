"""tnp's shape and indexing functions. The ones whose meaning does not depend on dtype rules reuse keras.ops'
numpy functions (given tensors already made by tnp's asarray, so that NumPy's dtype inference holds); joining
functions (concatenate, stack, append, where, select) promote their inputs to the NumPy result type first."""

from __future__ import annotations

import numpy as np

import tinytf as tf
from tinytf.keras.ops import numpy_shapes as _k

from .np_arrays import asarray, promote


def reshape(a, newshape, order="C"):
    """`tnp.reshape`: order 'C' (row-major) or 'F' (column-major)."""
    if order not in ("C", "F"):
        raise ValueError(f"Unsupported order argument {order}")
    a = asarray(a)
    newshape = [newshape] if isinstance(newshape, int) else newshape
    if order == "F":
        rank = len(a.shape)
        a = tf.transpose(a, list(range(rank))[::-1])
        shape = list(newshape)[::-1]
        return tf.transpose(tf.reshape(a, shape), list(range(len(shape)))[::-1])
    return tf.reshape(a, newshape)


def ravel(a):
    return tf.reshape(asarray(a), [-1])


def flatten(a, order="C"):
    """a as one axis (order 'C' or 'F')."""
    a = asarray(a)
    if order == "F":
        a = tf.transpose(a)
    elif order != "C":
        raise ValueError(f"Unsupported order argument {order}")
    return tf.reshape(a, [-1])


def transpose(a, axes=None):
    a = asarray(a)
    return tf.transpose(a, None if axes is None else list(axes))


def swapaxes(a, axis1, axis2):
    return _k.swapaxes(asarray(a), axis1, axis2)


def moveaxis(a, source, destination):
    return _k.moveaxis(asarray(a), source, destination)


def expand_dims(a, axis):
    return tf.expand_dims(asarray(a), axis)


def squeeze(a, axis=None):
    return tf.squeeze(asarray(a), axis)


def broadcast_to(array, shape):
    return tf.broadcast_to(asarray(array), shape)


def broadcast_arrays(*args, **kwargs):
    """The arguments broadcast to their common shape."""
    if kwargs.get("subok"):
        raise ValueError("subok=True is not supported.")
    args = [asarray(a) for a in args]
    shape = tf.shape(args[0]) if args else []
    for a in args[1:]:
        shape = tf.broadcast_dynamic_shape(shape, tf.shape(a))
    return [tf.broadcast_to(a, shape) for a in args]


def atleast_1d(*arys):
    return _atleast(arys, 1, lambda x: tf.reshape(x, [1]))


def atleast_2d(*arys):
    return _atleast(arys, 2, lambda x: tf.reshape(x, [1] * (2 - len(x.shape)) + x.shape.as_list()))


def atleast_3d(*arys):
    def lift(x):
        rank = len(x.shape)
        if rank == 0:
            return tf.reshape(x, [1, 1, 1])
        if rank == 1:
            return x[None, :, None]
        return x[:, :, None]
    return _atleast(arys, 3, lift)


def _atleast(arys, n, lift):
    out = [asarray(a) for a in arys]
    out = [a if len(a.shape) >= n else lift(a) for a in out]
    return out[0] if len(out) == 1 else out


def concatenate(arys, axis=0):
    """The arrays joined along axis (None: flattened first), promoted together."""
    if not isinstance(arys, (list, tuple)):
        arys = [arys]
    if not arys:
        raise ValueError("Need at least one array to concatenate.")
    arys = promote(*arys)
    if axis is None:
        arys, axis = [tf.reshape(a, [-1]) for a in arys], 0
    return tf.concat(arys, axis)


def append(arr, values, axis=None):
    if axis is None:
        return concatenate([ravel(arr), ravel(values)], 0)
    return concatenate([arr, values], axis)


def stack(arrays, axis=0):
    """The arrays joined along a new axis, promoted together."""
    if isinstance(arrays, tf.Tensor):
        arrays = asarray(arrays)
        return arrays if axis == 0 else moveaxis(arrays, 0, axis)
    return tf.stack(promote(*arrays), axis)


def hstack(tup):
    arrays = [atleast_1d(a) for a in promote(*tup)]
    return concatenate(arrays, 0 if len(arrays[0].shape) == 1 else 1)


def vstack(tup):
    return concatenate([atleast_2d(a) for a in promote(*tup)], 0)


def dstack(tup):
    return concatenate([atleast_3d(a) for a in promote(*tup)], 2)


def split(ary, indices_or_sections, axis=0):
    """`tnp.split`: equal sections (an int that must divide the axis) or pieces cut at the given indices."""
    return _k.split(asarray(ary), indices_or_sections, axis=axis)


def hsplit(ary, indices_or_sections):
    ary = asarray(ary)
    return split(ary, indices_or_sections, 0 if len(ary.shape) == 1 else 1)


def vsplit(ary, indices_or_sections):
    return split(ary, indices_or_sections, 0)


def dsplit(ary, indices_or_sections):
    return split(ary, indices_or_sections, 2)


def tile(a, reps):
    """a repeated reps times per axis (reps and a's rank padded with leading ones to match)."""
    a = asarray(a)
    reps = [reps] if isinstance(reps, int) else list(np.asarray(reps).reshape(-1))
    rank = len(a.shape)
    if len(reps) > rank:
        a = tf.reshape(a, [1] * (len(reps) - rank) + a.shape.as_list())
    reps = [1] * (len(a.shape) - len(reps)) + [int(r) for r in reps]
    return tf.tile(a, reps)


def repeat(a, repeats, axis=None):
    return tf.repeat(asarray(a), repeats, axis)


def flip(m, axis=None):
    return _k.flip(asarray(m), axis)


def fliplr(m):
    return _k.fliplr(asarray(m))


def flipud(m):
    return _k.flipud(asarray(m))


def roll(a, shift, axis=None):
    return _k.roll(asarray(a), shift, axis)


def rot90(m, k=1, axes=(0, 1)):
    return _k.rot90(asarray(m), k, axes)


def pad(array, pad_width, mode, **kwargs):
    """`tnp.pad`: constant (constant_values), reflect and symmetric modes."""
    mode = mode.lower()
    array = asarray(array)
    widths = np.broadcast_to(np.asarray(pad_width), (len(array.shape), 2)).tolist()
    if mode == "constant":
        value = kwargs.get("constant_values", 0)
        return tf.pad(array, widths, mode="CONSTANT", constant_values=tf.cast(value, array.dtype))
    if mode in ("reflect", "symmetric"):
        return tf.pad(array, widths, mode=mode.upper())
    raise ValueError(f"Unsupported padding mode: {mode}")


def take(a, indices, axis=None, out=None, mode="clip"):
    """Elements of a at indices along axis (None: of the flattened a); mode 'clip' or 'wrap' for bad indices."""
    if out is not None:
        raise ValueError("out argument is not supported in take.")
    if mode not in {"raise", "clip", "wrap"}:
        raise ValueError(f"Invalid mode '{mode}' for take")
    a = asarray(a)
    indices = asarray(indices)
    if axis is None:
        a, axis = tf.reshape(a, [-1]), 0
    n = tf.cast(tf.shape(a)[axis], indices.dtype)
    if mode == "clip":
        indices = tf.clip_by_value(indices, tf.zeros([], indices.dtype), n - 1)
    elif mode == "wrap":
        indices = tf.math.floormod(indices, n)
    else:
        raise ValueError("The 'raise' mode to take is not supported.")
    return tf.gather(a, indices, axis=axis)


def take_along_axis(arr, indices, axis):
    return _k.take_along_axis(asarray(arr), asarray(indices), axis)


def where(condition, x=None, y=None):
    """x where condition else y (promoted together); with condition alone, nonzero(condition)."""
    condition = asarray(condition, tf.bool)
    if x is None and y is None:
        return nonzero(condition)
    if x is None or y is None:
        raise ValueError("Both x and y must be ndarrays, or both must be None.")
    x, y = promote(x, y)
    return tf.where(condition, x, y)


def select(condlist, choicelist, default=0):
    """The first choice whose condition holds, else default."""
    if len(condlist) != len(choicelist):
        raise ValueError(f"condlist must have length equal to choicelist ({len(condlist)} vs {len(choicelist)})")
    if not condlist:
        raise ValueError("condlist must be non-empty")
    choices = promote(default, *choicelist)
    out = choices[0]
    for cond, choice in reversed(list(zip(condlist, choices[1:]))):
        out = tf.where(asarray(cond, tf.bool), choice, out)
    return out


def nonzero(a):
    """One int64 index vector per axis for the nonzero entries of a (row-major order)."""
    a = asarray(a)
    if len(a.shape) == 0:  # TF's tnp (and NumPy before 2.1) treat a scalar as a 1-element vector
        a = tf.reshape(a, [1])
    found = tf.where(tf.cast(a, tf.bool))
    return tuple(found[:, i] for i in range(len(a.shape)))


def compress(condition, a, axis=None):
    """The slices of a along axis where condition (a bool vector, shorter ones padded with False) holds."""
    condition = asarray(condition, tf.bool)
    a = asarray(a)
    if len(condition.shape) != 1:
        raise ValueError("condition must be a 1-d array.")
    if axis is None:
        a, axis = tf.reshape(a, [-1]), 0
    n = a.shape[axis]
    m = condition.shape[0]
    if n is not None and m is not None and m < n:
        condition = tf.concat([condition, tf.zeros([n - m], tf.bool)], 0)
    elif n is not None and m is not None and m > n:
        condition = condition[:n]
    return tf.boolean_mask(a, condition, axis=axis)


def diagonal(a, offset=0, axis1=0, axis2=1):
    return _k.diagonal(asarray(a), offset, axis1, axis2)


def tril(m, k=0):
    m = asarray(m)
    if len(m.shape) < 2:
        raise ValueError(f"Argument to tril must have rank at least 2, got shape {m.shape}")
    return _k.tril(m, k)


def triu(m, k=0):
    m = asarray(m)
    if len(m.shape) < 2:
        raise ValueError(f"Argument to triu must have rank at least 2, got shape {m.shape}")
    return _k.triu(m, k)


def diff(a, n=1, axis=-1):
    """The n-th discrete difference along axis."""
    a = asarray(a)
    if n < 0:
        raise ValueError(f"Argument `order` must be a non-negative integer. Received: axis={n}")
    if len(a.shape) == 0:
        raise ValueError(f"Argument `a` must have rank at least 1. Received: shape={a.shape}")
    if n == 0:
        return a
    return _k.diff(a, n, axis)


def sort(a, axis=-1, kind="quicksort", order=None):
    """a sorted along axis (None: flattened)."""
    if kind not in ("quicksort", "stable"):
        raise ValueError("Only 'quicksort' and 'stable' arguments are supported.")
    if order is not None:
        raise ValueError("'order' argument to sort is not supported.")
    a = asarray(a)
    if axis is None:
        a, axis = tf.reshape(a, [-1]), 0
    return tf.sort(a, axis=axis)


def argsort(a, axis=-1, kind="quicksort", order=None):
    """The (stable) indices that sort a along axis, int64."""
    if kind not in ("quicksort", "stable"):
        raise ValueError("Only 'quicksort' and 'stable' arguments are supported.")
    if order is not None:
        raise ValueError("'order' argument to sort is not supported.")
    a = asarray(a)
    if axis is None:
        a, axis = tf.reshape(a, [-1]), 0
    if a.dtype == tf.bool:
        a = tf.cast(a, tf.int8)
    return tf.cast(tf.argsort(a, axis=axis, stable=True), tf.int64)


def shape(a):
    """a's shape as a tuple of ints (None for sizes unknown while tracing)."""
    return tuple(asarray(a).shape.as_list())


def ndim(a):
    return len(asarray(a).shape)


def size(x, axis=None):
    """The number of elements (an int, or a tensor when the shape is not static)."""
    if axis is not None:
        raise NotImplementedError("axis argument is not supported in the current `np.size` implementation")
    if isinstance(x, (int, float, np.int32, np.int64, np.float32, np.float64)):
        return 1
    x = asarray(x)
    if x.shape.is_fully_defined():
        return int(np.prod(x.shape.as_list(), dtype=int))
    return tf.size(x)


def isscalar(num):
    """True for Python and numpy scalars and rank-0 tensors."""
    if isinstance(num, (tf.Tensor, tf.Variable)):
        return len(num.shape) == 0
    return bool(np.isscalar(num))


__all__ = ["reshape", "ravel", "flatten", "transpose", "swapaxes", "moveaxis", "expand_dims", "squeeze",
           "broadcast_to", "broadcast_arrays", "atleast_1d", "atleast_2d", "atleast_3d", "concatenate", "append",
           "stack", "hstack", "vstack", "dstack", "split", "hsplit", "vsplit", "dsplit", "tile", "repeat", "flip",
           "fliplr", "flipud", "roll", "rot90", "pad", "take", "take_along_axis", "where", "select", "nonzero",
           "compress", "diagonal", "tril", "triu", "diff", "sort", "argsort", "shape", "ndim", "size",
           "isscalar"]
