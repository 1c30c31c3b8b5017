"""tnp's array creation: zeros/ones/full/empty and their _like forms, eye, identity, tri, arange, linspace,
logspace, geomspace, diag, diagflat, diag_indices, vander, meshgrid, ix_ (NumPy's default dtypes: float64 for
shapes, NumPy's inference for values)."""

from __future__ import annotations

import numpy as np

import tinytf as tf

from .np_arrays import asarray, is_tensor
from .np_dtypes import default_float_type, result_type, tf_dtype


def _creation_dtype(dtype):
    """TF's rule for zeros/ones/eye: a given dtype the NumPy way, else float64."""
    return tf_dtype(dtype) if dtype else tf.float64


def zeros(shape, dtype=float):
    return tf.zeros(shape, tf_dtype(dtype) if dtype else default_float_type())


def ones(shape, dtype=float):
    return tf.ones(shape, _creation_dtype(dtype))


def empty(shape, dtype=float):
    """`tnp.empty`: zeros (tensors have no uninitialised memory)."""
    return zeros(shape, dtype)


def _like_dtype(a, dtype):
    return tf_dtype(dtype) if dtype else asarray(a).dtype


def zeros_like(a, dtype=None):
    return tf.zeros_like(asarray(a), _like_dtype(a, dtype))


def ones_like(a, dtype=None):
    return tf.ones_like(asarray(a), _like_dtype(a, dtype))


def empty_like(a, dtype=None):
    return zeros_like(a, dtype)


def full(shape, fill_value, dtype=None):
    """`tnp.full`: fill_value (its NumPy dtype, or dtype) broadcast to shape."""
    value = asarray(fill_value, dtype)
    shape = [shape] if isinstance(shape, int) else shape
    return tf.broadcast_to(value, shape)


def full_like(a, fill_value, dtype=None, order="K", subok=True, shape=None):
    """`tnp.full_like`: fill_value in a's shape (and a's dtype unless dtype is given)."""
    if order != "K":
        raise ValueError("Non-standard orders are not supported.")
    if not subok:
        raise ValueError("subok being False is not supported.")
    if shape:
        raise ValueError("Overriding the shape is not supported.")
    a = asarray(a)
    return tf.broadcast_to(asarray(fill_value, dtype or a.dtype), tf.shape(a))


def eye(N, M=None, k=0, dtype=float):  # noqa: N803 - NumPy's argument names
    """`tnp.eye`: ones on the k-th diagonal of an N x M matrix."""
    dtype = _creation_dtype(dtype)
    N, M, k = int(N), int(M or N), int(k)  # noqa: N806
    rows = np.arange(N)[:, None]
    cols = np.arange(M)[None, :]
    return tf.cast(tf.constant(cols - rows == k), dtype)


def identity(n, dtype=float):
    return eye(n, n, dtype=dtype)


def tri(N, M=None, k=0, dtype=None):  # noqa: N803
    """`tnp.tri`: ones at and below the k-th diagonal."""
    M = N if M is None else M  # noqa: N806
    dtype = tf_dtype(dtype) if dtype is not None else tf.float64
    rows = np.arange(int(N))[:, None]
    cols = np.arange(int(M))[None, :]
    return tf.cast(tf.constant(cols - rows <= int(k)), dtype)


def arange(start, stop=None, step=1, dtype=None):
    """`tnp.arange`: [start, stop) by step, in dtype or the NumPy type of start, stop and step."""
    if not step:
        raise ValueError("step must be non-zero.")
    if stop is None:
        start, stop = 0, start
    dtype = tf_dtype(dtype) if dtype else result_type(start, stop, step)
    if not any(is_tensor(v) for v in (start, stop, step)):
        return tf.constant(np.arange(start, stop, step).astype(dtype.as_numpy_dtype), dtype)
    compute = tf.float64 if (dtype.is_floating or dtype.is_complex) else tf.int64
    values = tf.range(tf.cast(start, compute), tf.cast(stop, compute), tf.cast(step, compute))
    return tf.cast(values, dtype)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=float, axis=0):
    """`tnp.linspace`: num evenly spaced values (NumPy 2's dtype: that of start*1.0 and stop*1.0)."""
    if num < 0:
        raise ValueError(f"Argument `num` (number of samples) must be a non-negative integer. Received: num={num}")
    if dtype:
        dtype = result_type(_times_one(start), _times_one(stop))
    start_t, stop_t = asarray(start, dtype), asarray(stop, dtype)
    divisions = (num - 1) if endpoint else num
    step = (stop_t - start_t) / divisions if divisions > 0 else tf.constant(np.nan, dtype)
    steps = tf.reshape(tf.cast(tf.range(num), dtype), [num] + [1] * len(start_t.shape))
    result = start_t[None] + steps * step[None] if divisions > 0 else tf.broadcast_to(
        start_t[None], [num] + start_t.shape.as_list())
    if endpoint and num > 1:  # the last value is stop exactly, as in NumPy
        result = tf.concat([result[:-1], stop_t[None]], 0)
    if axis != 0:
        result = tf.experimental.numpy.moveaxis(result, 0, axis)
    return (result, step) if retstep else result


def _times_one(value):
    if is_tensor(value):
        return value if value.dtype.is_floating or value.dtype.is_complex else tf.float64
    return np.asarray(value) * 1.0 if isinstance(value, (list, tuple, np.ndarray)) else value * 1.0


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    """`tnp.logspace`: base ** linspace(start, stop)."""
    dtype = result_type(_times_one(start), _times_one(stop))
    result = linspace(start, stop, num=num, endpoint=endpoint, dtype=dtype, axis=axis)
    return tf.cast(tf.pow(tf.cast(base, result.dtype), result), dtype)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """`tnp.geomspace`: num values evenly spaced on a log scale from start to stop (both of one sign)."""
    dtype = tf_dtype(dtype) if dtype else result_type(start, stop, float(num), tf.float64)
    compute = tf.as_dtype(np.promote_types(dtype.as_numpy_dtype, np.float32))
    start_t, stop_t = asarray(start, compute), asarray(stop, compute)
    sign = tf.sign(start_t)
    result = sign * logspace(tf.math.log(sign * start_t) / np.log(10.0), tf.math.log(sign * stop_t) / np.log(10.0),
                             num, endpoint=endpoint, base=10.0, axis=axis)
    if num > 0:  # the end points exactly, as NumPy gives them
        pieces = [start_t[None]]
        if num > 1:
            pieces = [start_t[None], tf.experimental.numpy.moveaxis(result, axis, 0)[1:-1 if endpoint else None]]
            if endpoint:
                pieces.append(stop_t[None])
        result = tf.experimental.numpy.moveaxis(tf.concat(pieces, 0), 0, axis)
    return tf.cast(result, dtype)


def diag(v, k=0):
    """`tnp.diag`: the k-th diagonal of a matrix, or the matrix with vector v on its k-th diagonal."""
    v = asarray(v)
    rank = len(v.shape)
    if rank == 1:
        n = v.shape[0]
        if n == 0:
            return tf.zeros([abs(k), abs(k)], v.dtype)
        return tf.linalg.diag(v, k=k)
    if rank == 2:
        rows, cols = v.shape
        if (k >= 0 and k >= cols) or (k < 0 and -k >= rows):
            return tf.zeros([0], v.dtype)
        return tf.linalg.diag_part(v, k=k)
    raise ValueError(f"Input to diag must be 1-d or 2-d, got shape {v.shape}")


def diagflat(v, k=0):
    return diag(tf.reshape(asarray(v), [-1]), k)


def diag_indices(n, ndim=2):
    """`tnp.diag_indices`: ndim copies of range(n), the indices of the main diagonal."""
    if n < 0:
        raise ValueError(f"n argument to diag_indices must be nonnegative, got {n}")
    if ndim < 0:
        raise ValueError(f"ndim argument to diag_indices must be nonnegative, got {ndim}")
    return (tf.range(n),) * ndim


def vander(x, N=None, increasing=False):  # noqa: N803
    """`tnp.vander`: the Vandermonde matrix, powers decreasing along each row (increasing if asked)."""
    x = asarray(x)
    if len(x.shape) != 1:
        raise ValueError("x must be a one-dimensional array")
    n = x.shape[0] if N is None else int(N)
    if n < 0:
        raise ValueError("N must be nonnegative")
    powers = np.arange(n) if increasing else np.arange(n)[::-1]
    return tf.pow(x[:, None], tf.constant(powers.astype(x.dtype.as_numpy_dtype))[None, :])


def meshgrid(*xi, **kwargs):
    """`tnp.meshgrid`: coordinate matrices (indexing 'xy' or 'ij'; sparse and copy are NumPy's)."""
    sparse = kwargs.get("sparse", False)
    if sparse:
        raise ValueError("Function `meshgrid` does not support returning sparse arrays yet. Received: sparse=True")
    copy = kwargs.get("copy", True)
    if not copy:
        raise ValueError(f"Function `meshgrid` only supports copy=True. Received: copy={copy}")
    indexing = kwargs.get("indexing", "xy")
    return tf.meshgrid(*[asarray(x) for x in xi], indexing=indexing)


def ix_(*args):
    """`tnp.ix_`: open meshes from 1-d index arrays (bool ones become their nonzero positions)."""
    n = len(args)
    out = []
    for i, a in enumerate(args):
        a = asarray(a)
        if len(a.shape) != 1:
            raise ValueError(f"Arguments must be 1-d, got arg {i} of rank {len(a.shape)}")
        shape = [1] * n
        shape[i] = -1
        if a.dtype == tf.bool:
            out.append(tf.reshape(tf.where(a)[:, 0], shape))
        elif a.dtype.is_integer:
            out.append(tf.reshape(a, shape))
        else:
            raise ValueError(f"Only integer and bool dtypes are supported, got {a.dtype}")
    return out


__all__ = ["zeros", "ones", "empty", "zeros_like", "ones_like", "empty_like", "full", "full_like", "eye",
           "identity", "tri", "arange", "linspace", "logspace", "geomspace", "diag", "diagflat", "diag_indices",
           "vander", "meshgrid", "ix_"]
