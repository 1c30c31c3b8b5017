"""keras.ops.i0, nextafter and view with Keras 3's TF-backend rules: i0 in floatx (float64 for int64 and float64
inputs), nextafter computed in float64 and cast to the inputs' float result type, view reinterpreting the bytes
of the last axis (wider or narrower items change its length)."""

from __future__ import annotations

import tinytf as tf

from .. import config
from .core import cast, convert_to_tensor
from .dtype_rules import result_type, standardize_dtype


def i0(x):
    """The modified Bessel function of the first kind, order 0."""
    x = convert_to_tensor(x)
    dtype = standardize_dtype(x.dtype)
    if dtype in ("int64", "float64"):
        dtype = "float64"
    elif dtype not in ("bfloat16", "float16"):
        dtype = config.floatx()
    return tf.math.bessel_i0(cast(x, dtype))


def nextafter(x1, x2):
    """The next representable value after x1 towards x2 (in float64, then in the inputs' float type)."""
    x1, x2 = convert_to_tensor(x1), convert_to_tensor(x2)
    dtype = result_type(x1.dtype, x2.dtype, float)
    return cast(tf.math.nextafter(cast(x1, "float64"), cast(x2, "float64")), dtype)


def view(x, dtype=None):
    """x's bytes read as `dtype`: the same shape for items of one size, else the last axis longer or shorter."""
    x = convert_to_tensor(x)
    old = tf.as_dtype(standardize_dtype(x.dtype))
    new = tf.as_dtype(standardize_dtype(dtype if dtype else x.dtype))
    shape = [-1 if d is None else d for d in x.shape.as_list()]  # an unknown batch dimension stays -1
    last = shape[-1] if len(shape) > 0 else -1
    if (last == -1 and old.size != new.size) or (last * old.size % new.size != 0):
        raise ValueError(f"Cannot view array of shape {x.shape} and dtype {old} as dtype {new} because the total "
                         f"number of bytes is not divisible by the new itemsize.")
    if old.size == new.size:
        return tf.bitcast(x, new)
    if old.size > new.size:
        shape[-1] *= old.size // new.size
        return tf.reshape(tf.bitcast(tf.reshape(x, [-1]), new), shape)
    ratio = new.size // old.size
    if last % ratio != 0:
        raise ValueError(f"Cannot view dtype. Last dimension size ({last}) must be divisible by the ratio of new/old "
                         f"item sizes ({ratio}).")
    return tf.bitcast(tf.reshape(x, shape[:-1] + [last // ratio, ratio]), new)


__all__ = ["i0", "nextafter", "view"]
