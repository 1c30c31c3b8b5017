"""keras.ops.math: segment reductions, top_k / in_top_k, logsumexp, erf/erfinv, extract_sequences, rsqrt and
the other functions of Keras 3's `keras.ops.math` that tinytf's public ops can compose."""

from __future__ import annotations

import tinytf as tf

from .core import cast, convert_to_tensor
from .symbolic import export_all


def _segment(name, sorted_fn, unsorted_fn):
    def op(data, segment_ids, num_segments=None, sorted=False):  # noqa: A002 - Keras' name
        data, segment_ids = convert_to_tensor(data), convert_to_tensor(segment_ids)
        if sorted and num_segments is None:
            return sorted_fn(data, segment_ids)
        if num_segments is None:
            num_segments = tf.reduce_max(segment_ids) + 1
        return unsorted_fn(data, segment_ids, num_segments)
    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"The {name.split('_')[1]} of data's rows that share a segment id (ids beyond num_segments dropped)."
    return op


segment_sum = _segment("segment_sum", lambda d, i: tf.math.segment_sum(d, i),
                       lambda d, i, n: tf.math.unsorted_segment_sum(d, i, n))
segment_max = _segment("segment_max", lambda d, i: tf.math.segment_max(d, i),
                       lambda d, i, n: tf.math.unsorted_segment_max(d, i, n))
segment_min = _segment("segment_min", lambda d, i: tf.math.segment_min(d, i),
                       lambda d, i, n: tf.math.unsorted_segment_min(d, i, n))
segment_prod = _segment("segment_prod", lambda d, i: tf.math.segment_prod(d, i),
                        lambda d, i, n: tf.math.unsorted_segment_prod(d, i, n))


def top_k(x, k, sorted=True):  # noqa: A002
    """(values, int32 indices) of the k largest entries of the last axis."""
    return tuple(tf.math.top_k(convert_to_tensor(x), k=k, sorted=sorted))


def in_top_k(targets, predictions, k):
    """Whether each target's prediction is among the k largest of its row."""
    return tf.math.in_top_k(cast(targets, "int32"), convert_to_tensor(predictions), k)


def _float_only(x, name):
    """x as a tensor; an integer or bool x raises TF's InvalidArgumentError, as its float-only kernels do."""
    x = convert_to_tensor(x)
    if not x.dtype.is_floating:
        raise tf.errors.InvalidArgumentError(f"keras.ops.{name}: the kernel takes float tensors, got {x.dtype.name}.")
    return x


def logsumexp(x, axis=None, keepdims=False):
    """log(sum(exp(x))) along axis, computed without overflow."""
    x = _float_only(x, "logsumexp")
    return tf.reduce_logsumexp(x, axis=list(axis) if isinstance(axis, tuple) else axis, keepdims=keepdims)


def erf(x):
    return tf.math.erf(_float_only(x, "erf"))


def erfc(x):
    return tf.math.erfc(_float_only(x, "erfc"))


def rsqrt(x):
    return tf.math.rsqrt(_float_only(x, "rsqrt"))


def extract_sequences(x, sequence_length, sequence_stride):
    """Frames of sequence_length along the last axis, sequence_stride apart: (..., num_frames, length)."""
    x = convert_to_tensor(x)
    n = x.shape[-1]
    num = 1 + (n - sequence_length) // sequence_stride
    index = tf.range(num)[:, None] * sequence_stride + tf.range(sequence_length)[None, :]
    return tf.gather(x, index, axis=len(x.shape) - 1)


def logdet(x):
    """log(det(x)) of positive-definite matrices (by Cholesky)."""
    return tf.linalg.logdet(convert_to_tensor(x))


def cdist(x, y):
    """The Euclidean distances between the rows of x (..., P, M) and of y (..., R, M): (..., P, R)."""
    x, y = convert_to_tensor(x), convert_to_tensor(y)
    difference = tf.expand_dims(x, -2) - tf.expand_dims(y, -3)
    return tf.sqrt(tf.reduce_sum(tf.square(difference), axis=-1))


def erfinv(x):
    """The inverse error function (float16/bfloat16 computed in float32, as Keras' TF backend does)."""
    x = convert_to_tensor(x)
    if x.dtype in (tf.float16, tf.bfloat16):
        return cast(tf.math.erfinv(cast(x, "float32")), x.dtype)
    return tf.math.erfinv(x)


__all__ = ["cdist", "erf", "erfc", "erfinv", "extract_sequences", "in_top_k", "logdet", "logsumexp", "rsqrt",
           "segment_max", "segment_min", "segment_prod", "segment_sum", "top_k"]
export_all(globals(), __all__)
