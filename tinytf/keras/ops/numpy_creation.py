"""keras.ops.numpy's constructors: zeros/ones/full/eye/tri, arange and the spaced ranges, window functions."""

from __future__ import annotations

import numpy as np

import tinytf as tf

from .core import cast, convert_to_tensor
from .dtype_rules import dtype_of, result_type, standardize_dtype
from .numpy_shapes import moveaxis


def _shape_arg(shape):
    return [shape] if isinstance(shape, int) else shape


def zeros(shape, dtype=None):
    return tf.zeros(_shape_arg(shape), standardize_dtype(dtype))


def ones(shape, dtype=None):
    return tf.ones(_shape_arg(shape), standardize_dtype(dtype))


def empty(shape, dtype=None):
    """Keras' empty is zeros (backends give no uninitialized memory)."""
    return zeros(shape, dtype)


def full(shape, fill_value, dtype=None):
    dtype = standardize_dtype(dtype)  # None is floatx, whatever fill_value is
    return tf.broadcast_to(convert_to_tensor(fill_value, dtype), _shape_arg(shape))


def zeros_like(x, dtype=None):
    x = convert_to_tensor(x)
    return tf.zeros(tf.shape(x), standardize_dtype(dtype or x.dtype))


def ones_like(x, dtype=None):
    x = convert_to_tensor(x)
    return tf.ones(tf.shape(x), standardize_dtype(dtype or x.dtype))


def empty_like(x, dtype=None):
    return zeros_like(x, dtype)


def full_like(x, fill_value, dtype=None):
    x = convert_to_tensor(x)
    dtype = standardize_dtype(dtype or x.dtype)
    return tf.broadcast_to(convert_to_tensor(fill_value, dtype), tf.shape(x))


def identity(n, dtype=None):
    return eye(n, dtype=dtype)


def eye(N, M=None, k=0, dtype=None):  # noqa: N803 - NumPy's names
    """An N x M matrix with ones on the k-th diagonal."""
    M = N if M is None else M
    rows = tf.range(N)[:, None]
    cols = tf.range(M)[None, :]
    return cast(tf.equal(cols - rows, k), standardize_dtype(dtype))


def tri(N, M=None, k=0, dtype=None):  # noqa: N803
    """Ones at and below the k-th diagonal."""
    M = N if M is None else M
    return cast(tf.range(M)[None, :] <= tf.range(N)[:, None] + k, standardize_dtype(dtype))


def arange(start, stop=None, step=None, dtype=None):
    """Evenly spaced values in [start, stop); the dtype from Keras' promotion of the arguments."""
    if dtype is None:
        dtype = result_type(*(dtype_of(a) for a in (start, stop, step) if a is not None))
    dtype = standardize_dtype(dtype)
    if stop is None:
        start, stop = 0, start
    step = 1 if step is None else step
    return tf.range(start, stop, step, dtype=dtype)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    """num evenly spaced values from start to stop (with or without stop); retstep adds the spacing."""
    if num < 0:
        raise ValueError(f"`num` must be a non-negative integer. Received: num={num}")
    dtype = standardize_dtype(dtype) if dtype is not None else result_type(dtype_of(start), dtype_of(stop), float)
    compute = "float64" if dtype in ("float64", "int64") else "float32"
    start, stop = convert_to_tensor(start, compute), convert_to_tensor(stop, compute)
    divisions = (num - 1) if endpoint else num
    step = (stop - start) / tf.constant(divisions if divisions > 0 else 1, compute)
    steps = tf.range(num, dtype=compute)
    steps = tf.reshape(steps, [-1] + [1] * len(start.shape))
    result = start[None] + steps * step[None]
    if endpoint and num > 1:
        result = tf.concat([result[:-1], stop[None]], axis=0)
    if axis != 0:
        result = moveaxis(result, 0, axis)
    if dtype != compute:
        result = cast(tf.floor(result) if "int" in dtype else result, dtype)
    if retstep:
        return result, cast(step if divisions > 0 else tf.constant(np.nan, compute), dtype)
    return result


def logspace(start, stop, num=50, endpoint=True, base=10, dtype=None, axis=0):
    """base ** linspace(start, stop)."""
    dtype = standardize_dtype(dtype) if dtype is not None else result_type(dtype_of(start), dtype_of(stop), float)
    exponents = linspace(start, stop, num, endpoint=endpoint, dtype="float64" if dtype == "float64" else "float32",
                         axis=axis)
    return cast(tf.pow(tf.constant(float(base), exponents.dtype), exponents), dtype)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """Numbers evenly spaced on a log scale from start to stop."""
    dtype = standardize_dtype(dtype) if dtype is not None else result_type(dtype_of(start), dtype_of(stop), float)
    compute = "float64" if dtype == "float64" else "float32"
    start, stop = convert_to_tensor(start, compute), convert_to_tensor(stop, compute)
    exps = linspace(tf.math.log(tf.abs(start)), tf.math.log(tf.abs(stop)), num, endpoint=endpoint, dtype=compute)
    result = tf.sign(start) * tf.exp(exps)
    if axis != 0:
        result = moveaxis(result, 0, axis)
    return cast(result, dtype)


def array(x, dtype=None):
    return convert_to_tensor(x, dtype=dtype)


def copy(x):
    return tf.identity(convert_to_tensor(x))


def meshgrid(*x, indexing="xy"):
    return tf.meshgrid(*[convert_to_tensor(v) for v in x], indexing=indexing)


def vander(x, N=None, increasing=False):  # noqa: N803
    x = convert_to_tensor(x)
    n = x.shape[0] if N is None else N
    powers = tf.range(n, dtype=x.dtype)
    if not increasing:
        powers = tf.reverse(powers, [0])
    return tf.pow(x[:, None], powers[None, :])


def _window(name, fn):
    def op(x):
        n = int(x)
        return convert_to_tensor(fn(n).astype(np.float32))
    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"numpy.{name}(x) as a float32 tensor."
    return op


bartlett = _window("bartlett", np.bartlett)


blackman = _window("blackman", np.blackman)


hamming = _window("hamming", np.hamming)


hanning = _window("hanning", np.hanning)


def kaiser(x, beta):
    return convert_to_tensor(np.kaiser(int(x), beta).astype(np.float32))


__all__ = ["arange", "array", "bartlett", "blackman", "copy", "empty", "empty_like", "eye", "full", "full_like",
           "geomspace", "hamming", "hanning", "identity", "kaiser", "linspace", "logspace", "meshgrid", "ones",
           "ones_like", "tri", "vander", "zeros", "zeros_like"]
