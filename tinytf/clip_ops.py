"""Norm clipping and normalization (tf.clip_by_norm, tf.clip_by_global_norm, tf.linalg.global_norm,
tf.nn.l2_normalize), written with TF's own formulas from existing ops, so they work eagerly and in graphs
and have gradients through the registered rules."""

from __future__ import annotations

from tinytf.runtime.dispatch import convert_to_tensor
from tinytf.runtime.naming import composite
from tinytf.runtime.ops import array as _array
from tinytf.runtime.ops import indexing as _indexing
from tinytf.runtime.ops import math as _math
from tinytf.runtime.ops import reduce as _reduce
from tinytf.runtime.tensor import Tensor

from .indexed_slices import IndexedSlices


def _dense(t):
    return convert_to_tensor(t.values) if isinstance(t, IndexedSlices) else convert_to_tensor(t)


@composite("clip_by_norm", result_named=True)
def clip_by_norm(t, clip_norm, axes=None, name=None):
    """`t * clip_norm / max(norm(t, axes), clip_norm)`: unchanged when its L2 norm is at most `clip_norm`.
    A zero norm gives zero (not nan), as TF's guarded square root does."""
    t = _dense(t)
    clip_norm = _math.cast(convert_to_tensor(clip_norm), t.dtype)
    squares = _reduce.reduce_sum(t * t, axes, keepdims=True)
    positive = squares > 0
    norm = _indexing.where(positive, _math.sqrt(_indexing.where(positive, squares, _array.ones_like(squares))),
                           squares)
    return _array.identity(t * clip_norm / _math.maximum(norm, clip_norm))


@composite("global_norm", result_named=True)
def global_norm(t_list, name=None):
    """sqrt(sum of every tensor's squared L2 norm); None entries are skipped."""
    t_list = list(t_list)
    if any(isinstance(t, (str, bytes)) for t in t_list):
        raise TypeError("t_list should be a sequence of tensors")
    tensors = [_dense(t) for t in t_list if t is not None]
    if not tensors:
        raise ValueError("global_norm: t_list has no tensors")
    half_squares = [_reduce.reduce_sum(t * t) / 2 for t in tensors]
    return _math.sqrt(_reduce.add_n(half_squares) * 2)


@composite("clip_by_global_norm")
def clip_by_global_norm(t_list, clip_norm, use_norm=None, name=None):
    """Scale every tensor of `t_list` by clip_norm / max(global_norm, clip_norm); returns (clipped list,
    the global norm). A nan or inf global norm makes every entry nan, as in TF."""
    if isinstance(t_list, (str, bytes, Tensor)) or not hasattr(t_list, "__iter__"):
        raise TypeError("`t_list` should be a sequence of tensors. Received {}.".format(type(t_list)))
    t_list = list(t_list)
    use_norm = global_norm(t_list) if use_norm is None else convert_to_tensor(use_norm)
    clip_norm = _math.cast(convert_to_tensor(clip_norm), use_norm.dtype)
    scale = clip_norm * _math.minimum(1.0 / use_norm, 1.0 / clip_norm)
    scale = scale + (use_norm - use_norm)  # nan when the norm is nan or inf
    clipped = []
    for t in t_list:
        if t is None:
            clipped.append(None)
        elif isinstance(t, IndexedSlices):
            clipped.append(IndexedSlices(t.values * _math.cast(scale, t.values.dtype), t.indices, t.dense_shape))
        else:
            t = convert_to_tensor(t)
            clipped.append(_array.identity(t * _math.cast(scale, t.dtype)))
    return clipped, use_norm


@composite("l2_normalize", result_named=True)
def l2_normalize(x, axis=None, epsilon=1e-12, name=None, dim=None):
    """x / sqrt(max(sum(x**2, axis), epsilon))."""
    x = convert_to_tensor(x)
    axis = dim if axis is None else axis
    squares = _reduce.reduce_sum(x * x, axis, keepdims=True)
    return x * _math.rsqrt(_math.maximum(squares, _math.cast(convert_to_tensor(epsilon), x.dtype)))
